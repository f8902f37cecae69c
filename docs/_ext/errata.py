"""Sphinx extension: ``erratum`` admonitions and the ``errata-list`` that collects them.

::

    .. erratum:: 文章中的 grad_fn 名称已过时 / The article's grad_fn name is outdated
       :article: PyTorch中clone()、detach()及相关扩展详解

       (any reST: a bilingual tab-set, then what the article printed and what
       PyTorch 2.13 prints, as two literal blocks)

    .. errata-list::

Each erratum gets an anchor (``erratum-<slug>``); the list is rebuilt on every build from the
environment, which is kept right across incremental and parallel builds.
"""

from __future__ import annotations

from bilingual import bilingual
from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective
from sphinx.util.nodes import make_id


class errata_list(nodes.General, nodes.Element):
    """Placeholder, filled in at doctree-resolved."""


def cited(article: str) -> nodes.Node:
    """An article's (Chinese) title, marked as Chinese text in both languages' views."""
    return nodes.inline("", "", nodes.emphasis("", article), classes=["dt-cite"], lang="zh")


class ErratumDirective(SphinxDirective):
    required_arguments = 1
    final_argument_whitespace = True
    has_content = True
    option_spec = {"article": directives.unchanged_required}

    def run(self):
        title = self.arguments[0].strip()
        article = self.options.get("article", "").strip()
        if not article:
            raise self.error("erratum: the :article: option (the article's title) is required")
        anchor = make_id(self.env, self.state.document, "erratum", title)
        node = nodes.admonition("", classes=["erratum", "admonition-erratum"], ids=[anchor])
        heading, _ = self.state.inline_text(title, self.lineno)
        node += nodes.title("", "", *(bilingual(heading, ("勘误：", "Erratum: "))
                                      or [nodes.Text("勘误 · Erratum: "), *heading]))
        label = bilingual([nodes.Text("文章 / Article")])
        node += nodes.paragraph("", "", nodes.inline("", "", *label, classes=["dt-label"]),
                                nodes.Text(": "), cited(article), classes=["erratum-article"])
        self.state.nested_parse(self.content, self.content_offset, node)
        self.state.document.note_explicit_target(node)
        self.env.doctensor_errata.setdefault(self.env.docname, []).append(
            {"title": title, "article": article, "anchor": anchor})
        return [node]


class ErrataListDirective(SphinxDirective):
    def run(self):
        self.env.doctensor_errata_lists.add(self.env.docname)
        return [errata_list("")]


def on_doctree_resolved(app: Sphinx, doctree, fromdocname: str) -> None:
    env = app.env
    for placeholder in list(doctree.findall(errata_list)):
        items = nodes.bullet_list(classes=["errata-list"])
        for docname in sorted(env.doctensor_errata):
            if docname not in env.all_docs:
                continue
            page = env.titles[docname].astext() if docname in env.titles else docname
            for entry in env.doctensor_errata[docname]:
                uri = app.builder.get_relative_uri(fromdocname, docname) + "#" + entry["anchor"]
                title = [nodes.Text(entry["title"])]
                ref = nodes.reference("", "", *(bilingual(title) or title), internal=True,
                                      refuri=uri)
                where = [nodes.Text(page)]
                para = nodes.paragraph("", "", ref, nodes.Text(" — "),
                                       cited(entry["article"]),
                                       nodes.Text(" ("), *(bilingual(where) or where),
                                       nodes.Text(")"))
                items += nodes.list_item("", para)
        if not len(items):
            items = nodes.paragraph("", "", *bilingual([nodes.Text("尚无勘误。 / No errata yet.")]))
        placeholder.replace_self(items)


def on_env_before_read_docs(app: Sphinx, env, docnames) -> None:
    if not hasattr(env, "doctensor_errata"):
        env.doctensor_errata = {}
        env.doctensor_errata_lists = set()


def on_env_purge_doc(app: Sphinx, env, docname: str) -> None:
    if hasattr(env, "doctensor_errata"):
        env.doctensor_errata.pop(docname, None)
        env.doctensor_errata_lists.discard(docname)


def on_env_merge_info(app: Sphinx, env, docnames, other) -> None:
    for docname in docnames:
        if docname in other.doctensor_errata:
            env.doctensor_errata[docname] = other.doctensor_errata[docname]
    env.doctensor_errata_lists |= other.doctensor_errata_lists & set(docnames)


def on_env_get_updated(app: Sphinx, env) -> list[str]:
    """Rewrite the pages holding a list on every build: any page may have changed errata."""
    return sorted(getattr(env, "doctensor_errata_lists", ()))


def setup(app: Sphinx) -> dict:
    app.add_node(errata_list)
    app.add_directive("erratum", ErratumDirective)
    app.add_directive("errata-list", ErrataListDirective)
    app.connect("env-before-read-docs", on_env_before_read_docs)
    app.connect("env-purge-doc", on_env_purge_doc)
    app.connect("env-merge-info", on_env_merge_info)
    app.connect("env-get-updated", on_env_get_updated)
    app.connect("doctree-resolved", on_doctree_resolved)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True,
            "env_version": 1}
