"""Sphinx extension: from the examples to the lines of doctensor that implement them.

* Every gallery page gets a "read the implementation" box: the doctensor functions, classes
  and methods its script uses (``torch.X``, ``torch.nn.X``, ``t.method()``, ``t.attribute``,
  found in the script's syntax tree and resolved on the imported package), each linked to
  its highlighted source on the viewcode pages (``_modules/...#Qualified.name``).
* ``.. layer-diagram::`` draws doctensor's layers, as the import-linter contract in
  ``pyproject.toml`` states them (imports only go down), one box per module with its size in
  lines and a link to its source; ``.. layer:: <first module of a layer>`` holds the
  paragraph about that layer, and a layer without one is a build warning.
"""

from __future__ import annotations

import ast
import builtins
import contextlib
import html
import importlib
import inspect
from pathlib import Path

import tomllib
from bilingual import bilingual
from docutils import nodes
from sphinx.application import Sphinx
from sphinx.pycode import ModuleAnalyzer
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

logger = logging.getLogger(__name__)
ROOT = Path(__file__).resolve().parents[2]
PACKAGE = "doctensor"


# --- which doctensor objects a script uses --------------------------------------------------

def _aliases(tree: ast.AST) -> dict[str, tuple[str, ...]]:
    """Names bound to doctensor objects by the script's imports, as paths inside doctensor:
    ``import doctensor as torch`` -> torch: (), ``import doctensor.nn as nn`` -> nn: ("nn",),
    ``from doctensor.viz import draw_graph`` -> draw_graph: ("viz", "draw_graph")."""
    out = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                parts = alias.name.split(".")
                if parts[0] == PACKAGE and alias.asname:
                    out[alias.asname] = tuple(parts[1:])
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == PACKAGE:
            for alias in node.names:
                out[alias.asname or alias.name] = (*node.module.split(".")[1:], alias.name)
    return out


def _dotted(node: ast.AST, aliases: dict) -> tuple[str, ...] | None:
    """``torch.nn.Linear`` -> ("nn", "Linear"): the path inside doctensor (None: not one)."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name) and node.id in aliases:
        path = (*aliases[node.id], *parts[::-1])
        return path or None
    return None


def _root(node: ast.AST) -> ast.AST:
    """The innermost receiver of ``a.b(...).c[0].d``: ``a``."""
    while isinstance(node, (ast.Attribute, ast.Call, ast.Subscript)):
        node = node.func if isinstance(node, ast.Call) else node.value
    return node


def used_names(source: str) -> list[tuple[str, ...]]:
    """The doctensor paths and the attribute names a script uses, in order of first use.

    An attribute counts as a tensor's unless its receiver starts at an imported module
    (``textwrap.fill``), ``self``, a builtin's result (``str(w).split``) or a literal, or is
    a graph node (``y.grad_fn.name()``).
    """
    tree = ast.parse(source)
    aliases = _aliases(tree)
    foreign = {alias.asname or alias.name.split(".")[0] for node in ast.walk(tree)
               if isinstance(node, (ast.Import, ast.ImportFrom))
               for alias in node.names} | set(dir(builtins)) | {"self"}
    found: dict[tuple[str, ...], None] = {}
    in_order = sorted((n for n in ast.walk(tree) if isinstance(n, (ast.Name, ast.Attribute))),
                      key=lambda n: (n.lineno, n.col_offset))
    for node in in_order:
        if isinstance(node, ast.Name) and node.id in aliases and aliases[node.id]:
            found[aliases[node.id]] = None  # draw_graph(...)
        if not isinstance(node, ast.Attribute):
            continue
        path = _dotted(node, aliases)
        root = _root(node.value)
        if path is not None:
            found[path] = None
        elif not (isinstance(root, ast.Name) and root.id in foreign
                  or isinstance(root, (ast.Constant, ast.JoinedStr))
                  or isinstance(node.value, ast.Attribute) and node.value.attr == "grad_fn"):
            found[("Tensor", node.attr)] = None
    return list(found)


def _resolve(path: tuple[str, ...]):
    """The doctensor object at this path (a property gives its getter), or None."""
    import doctensor

    with contextlib.suppress(ImportError):  # a submodule not imported yet (doctensor.viz)
        importlib.import_module(f"{PACKAGE}.{path[0]}")
    obj = doctensor
    for part in path:
        obj = inspect.getattr_static(obj, part, None)
        if obj is None:
            return None
    if isinstance(obj, property):
        obj = obj.fget
    if isinstance(obj, (staticmethod, classmethod)):
        obj = obj.__func__
    obj = inspect.unwrap(obj) if callable(obj) else obj
    if not (inspect.isfunction(obj) or inspect.isclass(obj)):
        return None
    module = getattr(obj, "__module__", "") or ""
    return obj if module.split(".")[0] == PACKAGE else None


def implementations(source: str) -> list[tuple[str, str, str]]:
    """(shown name, module, qualified name) of each doctensor object the script uses."""
    out, seen = [], set()
    for path in used_names(source):
        obj = _resolve(path)
        if obj is None or (obj.__module__, obj.__qualname__) in seen:
            continue
        seen.add((obj.__module__, obj.__qualname__))
        shown = ".".join(path) if path[0] == "Tensor" else "torch." + ".".join(path)
        if path[0] == "viz":  # not a torch name
            shown = "doctensor." + ".".join(path)
        out.append((shown, obj.__module__, obj.__qualname__))
    return out


def note_used(env, docname: str, module: str, qualname: str) -> None:
    """Ask viewcode for a highlighted page of ``module`` with an anchor at ``qualname``.

    viewcode anchors only the objects that autodoc documented; this registers an example's
    object as viewcode's own ``doctree_read`` does (its "[docs]" link leads to the example).
    """
    modules = env.__dict__.setdefault("_viewcode_modules", {})
    entry = modules.get(module)
    if entry is False:
        return
    if entry is None:
        try:
            analyzer = ModuleAnalyzer.for_module(module)
            analyzer.find_tags()
        except Exception:  # no source (a C extension, a generated module): no page
            modules[module] = False
            return
        entry = modules[module] = (analyzer.code, analyzer.tags, {}, module)
    if qualname in entry[1]:
        entry[2].setdefault(qualname, docname)


def on_doctree_read(app: Sphinx, doctree) -> None:
    from verify import _gallery_script

    script = _gallery_script(app, app.env.docname)
    if script is not None:
        for _shown, module, qualname in implementations(script.read_text(encoding="utf-8")):
            note_used(app.env, app.env.docname, module, qualname)


def source_uri(app: Sphinx, fromdocname: str, module: str, qualname: str = "") -> str | None:
    """The viewcode page (and anchor) of an object, when Sphinx wrote one."""
    entry = getattr(app.env, "_viewcode_modules", {}).get(module)
    if not entry:
        return None
    page = app.builder.get_relative_uri(fromdocname, "_modules/" + module.replace(".", "/"))
    return page + ("#" + qualname if qualname and qualname in entry[2] else "")


def _implementation_box(app: Sphinx, fromdocname: str, script: Path) -> nodes.Node | None:
    items = []
    for shown, module, qualname in implementations(script.read_text(encoding="utf-8")):
        uri = source_uri(app, fromdocname, module, qualname)
        if uri is None:
            continue
        ref = nodes.reference("", "", nodes.literal("", shown), internal=True, refuri=uri,
                              reftitle=f"{module}.{qualname}")
        items.append(nodes.list_item("", nodes.paragraph("", "", ref)))
    if not items:
        return None
    title = nodes.paragraph("", "", *bilingual([nodes.Text(
        "读源码：本页用到的 doctensor 函数、类和方法 / "
        "Read the implementation: the doctensor functions, classes and methods this page uses"
    )]), classes=["dt-impl-title"])
    return nodes.container("", title, nodes.bullet_list("", *items), classes=["dt-impl"])


def on_doctree_resolved(app: Sphinx, doctree, fromdocname: str) -> None:
    from verify import _gallery_script  # the gallery page's script, as verify finds it

    script = _gallery_script(app, fromdocname)
    section = next(iter(doctree.findall(nodes.section)), None)
    if script is None or section is None:
        return
    box = _implementation_box(app, fromdocname, script)
    if box is None:
        return
    footer = next((n for n in section.findall(nodes.container)
                   if "sphx-glr-footer" in n["classes"]), None)
    while footer is not None and footer.parent is not section:
        footer = footer.parent
    if footer is None:
        section += box
    else:
        section.insert(section.index(footer), box)


# --- the layers ---------------------------------------------------------------------------

def layers() -> list[list[str]]:
    """doctensor's layers, top first, as the import-linter contract in pyproject.toml has them."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contract = next(c for c in config["tool"]["importlinter"]["contracts"]
                    if c["type"] == "layers" and not c.get("containers"))
    return [[m.strip() for m in layer.replace("|", ":").split(":")] for layer in contract["layers"]]


def module_lines(module: str) -> int:
    """Lines of source in a module (a package: all its files)."""
    path = ROOT / "src" / Path(*module.split("."))
    files = sorted(path.rglob("*.py")) if path.is_dir() else [path.with_suffix(".py")]
    return sum(len(f.read_text(encoding="utf-8").splitlines()) for f in files if f.exists())


def _short(module: str) -> str:
    return module.removeprefix(PACKAGE + ".")


def diagram_svg(app: Sphinx, fromdocname: str) -> str:
    """The layers as an SVG: one band per layer, one linked box per module."""
    width, left, per_row, box_h, gap = 960, 56, 5, 34, 6
    rows, y = [], 10
    for number, layer in enumerate(layers(), 1):
        lines = -(-len(layer) // per_row)
        height = lines * (box_h + gap) + gap
        rows.append(f'<rect x="4" y="{y}" width="{width - 8}" height="{height}" rx="6" '
                    f'fill="{"#eef3fb" if number % 2 else "#f7f9fd"}" stroke="#c5d3ea"/>'
                    f'<text x="28" y="{y + height / 2 + 5}" text-anchor="middle" '
                    f'font-size="14" font-weight="bold" fill="#34495e">{number}</text>')
        box_w = (width - left - 12 - (per_row - 1) * gap) / min(len(layer), per_row)
        for i, module in enumerate(layer):
            bx = left + (i % per_row) * (box_w + gap)
            by = y + gap + (i // per_row) * (box_h + gap)
            label = f"{_short(module)} · {module_lines(module):,}"
            uri = source_uri(app, fromdocname, module) or app.builder.get_relative_uri(
                fromdocname, "generated/" + module)
            rows.append(
                f'<a href="{html.escape(uri)}"><title>{module}</title>'
                f'<rect x="{bx:.1f}" y="{by}" width="{box_w:.1f}" height="{box_h}" rx="4" '
                f'fill="#ffffff" stroke="#5b7db1"/>'
                f'<text x="{bx + box_w / 2:.1f}" y="{by + box_h / 2 + 5}" text-anchor="middle" '
                f'font-size="12.5" fill="#1b2a41" font-family="monospace">'
                f'{html.escape(label)}</text></a>')
        y += height + 8
    return (f'<div class="dt-diagram dt-layers"><svg xmlns="http://www.w3.org/2000/svg" '
            f'width="{width}" height="{y}" viewBox="0 0 {width} {y}" role="img" '
            f'aria-label="doctensor layers">{"".join(rows)}</svg></div>')


class layer_diagram(nodes.General, nodes.Element):
    """Placeholder, drawn at doctree-resolved (the viewcode pages are known then)."""


class LayerDiagramDirective(SphinxDirective):
    def run(self):
        self.env.note_dependency(str(ROOT / "pyproject.toml"))
        node = layer_diagram("")
        node.source, node.line = self.get_source_info()
        return [node]


class LayerDirective(SphinxDirective):
    """``.. layer:: doctensor.tensor``: the paragraph(s) about the layer holding that module."""

    required_arguments = 1
    has_content = True

    def run(self):
        first = self.arguments[0]
        number = next((i for i, layer in enumerate(layers(), 1) if first in layer), None)
        if number is None:
            raise self.error(f"layer: {first} is in no layer of pyproject.toml's contract")
        modules = layers()[number - 1]
        label = bilingual([nodes.Text(f"第 {number} 层 / Layer {number}")])
        heading = nodes.paragraph("", "", *label, nodes.Text(": "), classes=["dt-layer-title"])
        for i, module in enumerate(modules):
            heading += nodes.literal("", _short(module))
            if i < len(modules) - 1:
                heading += nodes.Text(", ")
        box = nodes.container("", heading, classes=["dt-layer"], ids=[f"layer-{number}"])
        self.state.nested_parse(self.content, self.content_offset, box)
        return [box]


def on_layers_resolved(app: Sphinx, doctree, fromdocname: str) -> None:
    for node in list(doctree.findall(layer_diagram)):
        told = {n["ids"][0] for n in doctree.findall(nodes.container) if "dt-layer" in n["classes"]}
        for number in range(1, len(layers()) + 1):
            if f"layer-{number}" not in told:
                logger.warning("layer %d (%s) has no '.. layer::' paragraph", number,
                               ", ".join(layers()[number - 1]), location=node)
        node.replace_self(nodes.raw("", diagram_svg(app, fromdocname), format="html"))


def setup(app: Sphinx) -> dict:
    app.setup_extension("sphinx.ext.viewcode")
    app.add_node(layer_diagram)
    app.add_directive("layer-diagram", LayerDiagramDirective)
    app.add_directive("layer", LayerDirective)
    app.connect("doctree-read", on_doctree_read)
    app.connect("doctree-resolved", on_doctree_resolved)
    app.connect("doctree-resolved", on_layers_resolved)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
