"""Sphinx extension: the front page's article cards and its "what is verified" lines.

::

    .. question:: 这一页回答什么？ /
       What does this page answer?      (on a gallery page, under its title)

    .. article-cards::      (on the front page: one card per gallery page)
    .. site-facts::         (on the front page: what is verified, with the site's own counts)

Everything on a card comes from the build: the page's title, its ``question``, the first
picture its code drew (a ``doctensor.viz`` diagram from live objects, else the gallery's
thumbnail of its first figure), and the numbers of
verified outputs (docs/_ext/verify.py) and errata (docs/_ext/errata.py) on that page. The
facts count the same records over the whole site. The environment keeps each page's entry,
so incremental and parallel builds stay right, and the pages holding a placeholder are
rewritten on every build.
"""

from __future__ import annotations

import re

from bilingual import bilingual
from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective

_DIAGRAM_RE = re.compile(r'<div class="dt-diagram">.*?</svg>\s*</div>', re.S)
GALLERY = "auto_gallery/"


class cards_placeholder(nodes.General, nodes.Element):
    """Filled in at doctree-resolved with the cards (kind="cards") or the facts."""


def _spans(text: str, prefix=("", "")) -> list[nodes.Node]:
    return bilingual([nodes.Text(text)], prefix) or [nodes.Text(prefix[1] + text)]


class QuestionDirective(SphinxDirective):
    """``.. question:: 中文 / English``: the question a page answers, shown under its title."""

    required_arguments = 1
    final_argument_whitespace = True

    def run(self):
        text = re.sub(r"\s*\n\s*", " ", self.arguments[0].strip())  # "中文 /\n   English"
        if bilingual([nodes.Text(text)]) is None:
            raise self.error("question: write it as '中文问题 / English question'")
        self.env.doctensor_pages.setdefault(self.env.docname, {})["question"] = text
        return [nodes.paragraph("", "", *_spans(text, ("本页回答：", "This page answers: ")),
                                classes=["dt-question"])]


class PlaceholderDirective(SphinxDirective):
    kind = ""

    def run(self):
        self.env.doctensor_card_lists.add(self.env.docname)
        return [cards_placeholder("", kind=self.kind)]


class ArticleCardsDirective(PlaceholderDirective):
    kind = "cards"


class SiteFactsDirective(PlaceholderDirective):
    kind = "facts"


def on_doctree_read(app: Sphinx, doctree) -> None:
    """Remember the first picture a gallery page drew, and how many it drew."""
    docname = app.env.docname
    if not docname.startswith(GALLERY):
        return
    pictures = [m.group() for raw in doctree.findall(nodes.raw)
                for m in _DIAGRAM_RE.finditer(raw.astext())]
    entry = app.env.doctensor_pages.setdefault(docname, {})
    entry["pictures"] = len(pictures)
    if pictures:
        entry["diagram"] = pictures[0]


def _counts(env, docname: str) -> tuple[int, int]:
    checks = getattr(env, "doctensor_checks", {}).get(docname, {}).get("checked", 0)
    return checks, len(getattr(env, "doctensor_errata", {}).get(docname, []))


def _card(app: Sphinx, fromdocname: str, docname: str) -> nodes.Node:
    env = app.env
    entry = env.doctensor_pages.get(docname, {})
    title = env.titles[docname].astext()
    uri = app.builder.get_relative_uri(fromdocname, docname)
    card = nodes.container(classes=["dt-card"])
    if entry.get("diagram"):
        card += nodes.raw("", entry["diagram"], format="html", classes=["dt-card-picture"])
    else:  # no diagram: sphinx-gallery's thumbnail of the first figure the code drew
        thumb = f"{GALLERY}images/thumb/sphx_glr_{docname.removeprefix(GALLERY)}_thumb.png"
        if thumb in env.images:  # the gallery's index shows it, so it is copied already
            image = nodes.image(uri=thumb, candidates={"*": thumb}, alt="")
            card += nodes.container("", image, classes=["dt-diagram"])
    link = nodes.reference("", "", *_spans(title), internal=True, refuri=uri,
                           classes=["stretched-link"])
    card += nodes.paragraph("", "", link, classes=["dt-card-title"])
    if entry.get("question"):
        card += nodes.paragraph("", "", *_spans(entry["question"]), classes=["dt-card-question"])
    checked, errata = _counts(env, docname)
    counts = f"✓ {checked} 个输出已核对 · {errata} 条勘误 / ✓ {checked} verified outputs · " \
             f"{errata} errata"
    card += nodes.paragraph("", "", *_spans(counts), classes=["dt-card-counts"])
    return card


def _facts(env) -> nodes.Node:
    pages = [d for d in getattr(env, "doctensor_checks", {}) if d in env.all_docs]
    checked = sum(_counts(env, d)[0] for d in pages)
    errata = sum(len(v) for d, v in getattr(env, "doctensor_errata", {}).items()
                 if d in env.all_docs)
    pictures = sum(e.get("pictures", 0) for d, e in env.doctensor_pages.items()
                   if d in env.all_docs)
    lines = [
        f"核对：{len(pages)} 个页面上的 {checked} 段输出。构建网站时每段代码都在 doctensor 上运行，"
        "输出与记录的期望输出逐字比对，有一处不同，构建就失败。 / "
        f"Verified: {checked} printed outputs on {len(pages)} pages. Every code block runs on "
        "doctensor when the site is built, and its output is compared character for character "
        "with the recorded one; a single difference fails the build.",
        "由 PyTorch 作证：测试在真实的 PyTorch 2.13 下把同样的页面再运行一遍，"
        f"核对同样的 {checked} 段输出（tests/test_site_pages.py）。 / "
        f"Witnessed by PyTorch: the tests run the same pages under real PyTorch 2.13 and check "
        f"the same {checked} outputs (tests/test_site_pages.py).",
        f"图：{pictures} 张图在构建时由真实的张量画出，测试核对 PyTorch 的张量画出的图与之相同。 / "
        f"Pictures: {pictures} diagrams are drawn at build time from the live tensors; the "
        "tests check that PyTorch's tensors draw the same ones.",
        f"勘误：{errata} 处原文过时或有误，每处给出原文写的、PyTorch 2.13 实际的输出，以及原因。 / "
        f"Errata: {errata} places where an article is outdated or wrong, each with what it "
        "printed, what PyTorch 2.13 prints, and why.",
    ]
    items = nodes.bullet_list(classes=["dt-facts"])
    for line in lines:
        items += nodes.list_item("", nodes.paragraph("", "", *_spans(line)))
    return items


def on_doctree_resolved(app: Sphinx, doctree, fromdocname: str) -> None:
    env = app.env
    for placeholder in list(doctree.findall(cards_placeholder)):
        if placeholder["kind"] == "facts":
            placeholder.replace_self(_facts(env))
            continue
        grid = nodes.container(classes=["dt-cards"])
        for docname in sorted(d for d in env.all_docs
                              if d.startswith(GALLERY + "plot_")):  # the gallery's own order
            grid += _card(app, fromdocname, docname)
        placeholder.replace_self(grid)


def on_env_before_read_docs(app: Sphinx, env, docnames) -> None:
    if not hasattr(env, "doctensor_pages"):
        env.doctensor_pages = {}
        env.doctensor_card_lists = set()


def on_env_purge_doc(app: Sphinx, env, docname: str) -> None:
    if hasattr(env, "doctensor_pages"):
        env.doctensor_pages.pop(docname, None)
        env.doctensor_card_lists.discard(docname)


def on_env_merge_info(app: Sphinx, env, docnames, other) -> None:
    env.doctensor_pages.update({d: other.doctensor_pages[d] for d in docnames
                                if d in other.doctensor_pages})
    env.doctensor_card_lists |= other.doctensor_card_lists & set(docnames)


def on_env_get_updated(app: Sphinx, env) -> list[str]:
    """Rewrite the pages holding cards or facts on every build: any page may have changed."""
    return sorted(getattr(env, "doctensor_card_lists", ()))


def setup(app: Sphinx) -> dict:
    app.add_node(cards_placeholder)
    app.add_directive("question", QuestionDirective)
    app.add_directive("article-cards", ArticleCardsDirective)
    app.add_directive("site-facts", SiteFactsDirective)
    app.connect("env-before-read-docs", on_env_before_read_docs)
    app.connect("env-purge-doc", on_env_purge_doc)
    app.connect("env-merge-info", on_env_merge_info)
    app.connect("env-get-updated", on_env_get_updated)
    app.connect("doctree-read", on_doctree_read)
    app.connect("doctree-resolved", on_doctree_resolved)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True,
            "env_version": 1}
