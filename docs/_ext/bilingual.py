"""Sphinx extension: a ``中文 / English`` title becomes two spans, one per language.

Every page, section, figure caption and erratum title of the site is written
``中文标题 / English title`` (either order). This transform splits such a title into
``<span class="dt-zh" lang="zh">`` and ``<span class="dt-en" lang="en">``, with the
``" / "`` between them in a ``dt-sep`` span. Sphinx copies page titles into the sidebar,
the breadcrumbs, the previous/next links and ``<title>``, so they all carry both spans:
the language switch (``_static/lang-switch.js``) shows one, and without JavaScript the
reader sees the title as written. The search index keeps the title's plain text.

Passages outside tab sets use ``.. container:: dt-zh`` / ``dt-en``; Chinese quoted in English
text (an article's title) is written ``:zh:`...``` so that it is marked as Chinese.
"""

from __future__ import annotations

import re

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.transforms import SphinxTransform

SEP = " / "
_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_TITLED = (nodes.title, nodes.caption, nodes.rubric)


def has_han(text: str) -> bool:
    return bool(_HAN.search(text))


def split_text(text: str) -> tuple[str, str] | None:
    """``(zh, en)`` when ``text`` is ``zh / en`` or ``en / zh`` (one side Chinese), else None."""
    for i in (m.start() for m in re.finditer(re.escape(SEP), text)):
        left, right = text[:i], text[i + len(SEP):]
        if has_han(left) and not has_han(right) and right.strip():
            return left, right
        if has_han(right) and not has_han(left) and left.strip():
            return right, left
    return None


def lang_span(lang: str, children) -> nodes.inline:
    node = nodes.inline("", "", *children, classes=[f"dt-{lang}"])
    node["lang"] = lang  # written out by _visit_inline below
    return node


def split_children(children: list[nodes.Node]) -> tuple[list, list] | None:
    """Split a title's inline children at its ``" / "``: ``(zh nodes, en nodes)``."""
    for k, child in enumerate(children):
        if not isinstance(child, nodes.Text):
            continue
        text = str(child)
        for i in (m.start() for m in re.finditer(re.escape(SEP), text)):
            left = children[:k] + [nodes.Text(text[:i])]
            right = [nodes.Text(text[i + len(SEP):])] + children[k + 1:]
            left_text = "".join(n.astext() for n in left)
            right_text = "".join(n.astext() for n in right)
            if has_han(left_text) and not has_han(right_text) and right_text.strip():
                return left, right
            if has_han(right_text) and not has_han(left_text) and left_text.strip():
                return right, left
    return None


def bilingual(children: list[nodes.Node], prefix: tuple[str, str] = ("", "")) -> list | None:
    """The zh span, the separator and the en span for these inline nodes (None: not bilingual).

    ``prefix`` goes before each language's part (``("勘误：", "Erratum: ")``).
    """
    parts = split_children(list(children))
    if parts is None:
        return None
    zh, en = parts
    zh = [nodes.Text(prefix[0])] * bool(prefix[0]) + zh
    en = [nodes.Text(prefix[1])] * bool(prefix[1]) + en
    return [lang_span("zh", zh), nodes.inline("", SEP, classes=["dt-sep"]), lang_span("en", en)]


class SplitBilingualTitles(SphinxTransform):
    """Split every ``中文 / English`` title, caption, rubric and table cell of a page."""

    default_priority = 710  # after cjk.py's line joining, before the title collector

    def apply(self, **kwargs) -> None:
        def titled(n):  # titles, and the paragraphs of table cells ("是 / yes")
            return isinstance(n, _TITLED) or (isinstance(n, nodes.paragraph)
                                              and isinstance(n.parent, nodes.entry))

        for node in list(self.document.findall(titled)):
            if any(isinstance(c, nodes.inline) and "dt-zh" in c["classes"] for c in node):
                continue
            new = bilingual(node.children)
            if new is not None:
                node.children = []
                node.extend(new)


def zh_role(name, rawtext, text, lineno, inliner, options=None, content=None):
    """``:zh:`中文``: Chinese quoted inside English text (an article's title), shown in both
    languages and marked ``lang="zh"``."""
    return [nodes.inline(rawtext, text, classes=["dt-cite"], lang="zh")], []


def _visit_inline(self, node: nodes.inline) -> None:
    attrs = {"lang": node["lang"]} if node.get("lang") else {}
    self.body.append(self.starttag(node, "span", "", **attrs))


def setup(app: Sphinx) -> dict:
    app.add_transform(SplitBilingualTitles)
    app.add_role("zh", zh_role)
    app.add_node(nodes.inline, override=True,
                 html=(_visit_inline, lambda self, node: self.body.append("</span>")))
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
