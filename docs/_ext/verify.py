"""Sphinx extension: every ``expected-output`` must match what its code block printed.

Pairing, in document order:

* sphinx-gallery pages (``auto_gallery/plot_*``): each block of the generated reST starts with
  a ``.. GENERATED FROM PYTHON SOURCE LINES a-b`` comment; the captured output is the literal
  block with class ``sphx-glr-script-out``. Expectations, their ``.py`` lines and block
  numbers come from ``outputcheck.parse_script`` on the original script (the same parser
  the tests use); the directives on the page must agree with it one for one.
* MyST-NB notebooks: a code cell is a container with ``nb_element == "cell_code"``; its
  captured output is its stream outputs (stdout, then stderr chunks, in notebook order);
  the directive sits in the markdown cell right after the code cell.

Each page's result is kept in the build environment (so incremental and parallel builds
keep reporting it) and ``build-finished`` fails the build once with every diff.
"""

from __future__ import annotations

import re
from pathlib import Path

import outputcheck
from bilingual import bilingual
from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.application import Sphinx
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

logger = logging.getLogger(__name__)
_GENERATED_RE = re.compile(r"GENERATED FROM PYTHON SOURCE LINES (\d+)-(\d+)")


class expected_output(nodes.General, nodes.Element):
    """Placeholder left by the directive; replaced by a small badge once checked."""


class ExpectedOutputDirective(SphinxDirective):
    """``.. expected-output::`` with optional ``:requires:`` and ``:normalize:``."""

    has_content = True
    option_spec = {"requires": directives.unchanged, "normalize": directives.unchanged}

    def run(self):
        try:
            requires, normalizers = outputcheck.check_options(
                {k: v or "" for k, v in self.options.items()})
        except ValueError as e:
            raise self.error(f"expected-output: {e}") from None
        node = expected_output(text=outputcheck.normalize("\n".join(self.content)),
                               requires=list(requires), normalize=list(normalizers))
        node.source, node.line = self.get_source_info()
        return [node]


class DeviceDirective(SphinxDirective):
    """``.. doctensor-device::``: which doctensor and which device built this page."""

    def run(self):
        return [device_note(self.config.doctensor_device)]


def device_note(device: tuple[str, str] | list[str]) -> nodes.Node:
    zh, en = device
    para = nodes.paragraph("", "", nodes.inline("", zh, classes=["dt-zh"]),
                           nodes.Text(" "), nodes.inline("", en, classes=["dt-en"]))
    return nodes.container("", para, classes=["dt-device"])


def _badge(node: expected_output) -> nodes.Node:
    title = "输出已与记录核对 / output checked against the recorded expectation"
    cuda = " · CUDA" if "cuda" in node["requires"] else ""
    text = bilingual([nodes.Text(f"✓ 输出已核对{cuda} / ✓ output verified{cuda}")])
    return nodes.container("", nodes.inline("", "", *text, classes=["dt-checked-label"]),
                           classes=["dt-checked"], title=title)


# --- collecting captured outputs ----------------------------------------------------------

def _gallery_dirs(app: Sphinx) -> list[tuple[str, Path]]:
    """(gallery docname prefix, examples folder) pairs from sphinx-gallery's config."""
    conf = getattr(app.config, "sphinx_gallery_conf", None) or {}
    ex, gal = conf.get("examples_dirs", []), conf.get("gallery_dirs", [])
    ex, gal = ([ex] if isinstance(ex, str) else ex), ([gal] if isinstance(gal, str) else gal)
    return [(g.rstrip("/") + "/", (Path(app.srcdir) / e).resolve()) for e, g in zip(ex, gal)]


def _display(path: Path, app: Sphinx) -> str:
    """A path relative to the project root (conf.py's folder) when possible."""
    try:
        return str(Path(path).resolve().relative_to(Path(app.confdir).resolve()))
    except ValueError:
        return str(path)


def _pair(app: Sphinx, script: outputcheck.Script, placed: list, captured, source: str,
          docname: str) -> list[str]:
    """Check the parsed expectations against the captured outputs, after making sure that
    the page's directives are the ones the parser found (same count, same bodies)."""
    if len(placed) != len(script.lines):
        return [f"{source}: the page has {len(placed)} expected-output directives but the "
                f"parser finds {len(script.lines)}; write each one at the top level of the "
                "text cell that follows its code cell"]
    problems = [f"{source}:{e.line}: {e.message}" for e in script.errors]
    for exp in script.expected:
        node = placed[script.lines.index(exp.line)]
        if node["text"] != exp.text:
            problems.append(f"{source}:{exp.line}: internal: Sphinx and outputcheck read this "
                            "directive's body differently")
        problems += _compare(exp, captured(exp.block), source, docname)
    return problems


def _check_gallery_page(app: Sphinx, docname: str, doctree, script_path: Path) -> list[str]:
    script = outputcheck.parse_script(script_path)
    captured: dict[int, str] = {}  # first source line of a block -> its captured output
    block_start = raised = None
    placed = []
    for node in doctree.findall(lambda n: isinstance(n, (nodes.comment, nodes.literal_block,
                                                         expected_output))):
        if isinstance(node, nodes.comment):
            m = _GENERATED_RE.search(node.astext())
            if m:
                block_start = int(m.group(1))
        elif isinstance(node, nodes.literal_block):
            if "sphx-glr-script-out" in node["classes"] and block_start is not None:
                captured[block_start] = node.astext()
                if node.get("language") == "pytb":
                    raised = block_start
        else:
            placed.append(node)
    source = _display(script_path, app)
    problems = _pair(app, script, placed,
                     lambda block: captured.get(script.code_blocks[block - 1].lineno),
                     source, docname)
    number = 1 + [b.lineno for b in script.code_blocks].index(raised) if raised else None
    if number and number not in {e.block for e in script.expected}:  # else its diff shows it
        # sphinx-gallery only warns (only_warn_on_example_error=True); the build fails here
        problems.insert(0, f"{source}:{raised}: page {docname}, code block {number} raised "
                        f"(the page stops there):\n{captured[raised]}")
    return problems


def _check_notebook(app: Sphinx, docname: str, doctree) -> list[str]:
    path = Path(app.env.doc2path(docname))
    source = _display(path, app)
    if path.suffix != ".md":
        placed = list(doctree.findall(expected_output))
        return [f"{source}: expected-output is supported in MyST (.md) notebooks only"] * bool(
            placed)
    outputs = []
    placed = []
    for node in doctree.findall(lambda n: isinstance(n, expected_output) or (
            isinstance(n, nodes.container) and n.get("nb_element") == "cell_code")):
        if isinstance(node, expected_output):
            placed.append(node)
            continue
        streams = [n.astext() for n in node.findall(nodes.literal_block)
                   if "output" in n["classes"] and {"stream", "stderr"} & set(n["classes"])]
        outputs.append("".join(streams) if streams else None)
    script = outputcheck.parse_notebook(path)
    return _pair(app, script, placed,
                 lambda cell: outputs[cell - 1] if cell <= len(outputs) else None,
                 source, docname)


def _compare(exp: outputcheck.Expected, got: str | None, source: str, docname: str) -> list:
    if got is None or not got.strip():
        return [f"{source}:{exp.line}: code block {exp.block} of page {docname} has no "
                "captured output (did it print? did an earlier block raise?)"]
    diff = exp.diff(got, source, f"page {docname}")
    return [f"{source}:{exp.line}: page {docname}, code block {exp.block}: output differs "
            f"from the recorded expectation:\n{diff}"] if diff else []


def _gallery_script(app: Sphinx, docname: str) -> Path | None:
    for prefix, folder in _gallery_dirs(app):
        if docname.startswith(prefix):
            candidate = folder / (docname[len(prefix):] + ".py")
            if candidate.exists():
                return candidate
    return None


def _gallery_executed(app: Sphinx, script: Path) -> bool:
    """Whether sphinx-gallery ran this script (plot_gallery on, filename_pattern matched)."""
    conf = getattr(app.config, "sphinx_gallery_conf", None) or {}
    flag = str(conf.get("plot_gallery", True)).strip().lower()
    pattern = conf.get("filename_pattern", "")
    return flag not in {"false", "0", "no", ""} and bool(re.search(pattern, str(script)))


def _say_which_device(app: Sphinx, docname: str, doctree, script: Path | None) -> None:
    """Pages whose code mentions CUDA say which device ran it (unless they already do)."""
    source = script or Path(app.env.doc2path(docname))
    if source.suffix not in {".py", ".md"} or any(
            "dt-device" in n["classes"] for n in doctree.findall(nodes.container)):
        return
    if "cuda" in source.read_text(encoding="utf-8"):
        section = next(iter(doctree.findall(nodes.section)), None)
        if section is not None:
            section.insert(1, device_note(app.config.doctensor_device))


def on_doctree_read(app: Sphinx, doctree) -> None:
    docname = app.env.docname
    placed = list(doctree.findall(expected_output))
    script = _gallery_script(app, docname)
    _say_which_device(app, docname, doctree, script)
    if script is not None:
        if not _gallery_executed(app, script):
            logger.info("[verify] %s: not executed (plot_gallery, filename_pattern): not "
                        "checked", docname)
            problems = []
        else:
            problems = _check_gallery_page(app, docname, doctree, script)
    elif any(n.get("nb_element") == "cell_code" for n in doctree.findall(nodes.container)):
        problems = _check_notebook(app, docname, doctree)
    elif placed:
        problems = [f"{_display(app.env.doc2path(docname), app)}:{placed[0].line}: "
                    "expected-output is only meaningful on a gallery page or a MyST-NB notebook"]
    else:
        problems = []
    for node in placed:
        node.replace_self(_badge(node))
    if placed or problems:
        app.env.doctensor_checks[docname] = {"checked": len(placed), "problems": problems}


# --- environment bookkeeping (incremental and parallel builds) ----------------------------

def on_env_before_read_docs(app: Sphinx, env, docnames) -> None:
    if not hasattr(env, "doctensor_checks"):
        env.doctensor_checks = {}


def on_env_purge_doc(app: Sphinx, env, docname: str) -> None:
    getattr(env, "doctensor_checks", {}).pop(docname, None)


def on_env_merge_info(app: Sphinx, env, docnames, other) -> None:
    env.doctensor_checks.update({d: other.doctensor_checks[d] for d in docnames
                                 if d in getattr(other, "doctensor_checks", {})})


def on_build_finished(app: Sphinx, exception) -> None:
    if exception is not None:
        return
    checks = getattr(app.env, "doctensor_checks", {})
    existing = {d: c for d, c in checks.items() if d in app.env.all_docs}
    problems = [p for d in sorted(existing) for p in existing[d]["problems"]]
    checked = sum(c["checked"] for c in existing.values())
    if problems:
        # One error for the whole site, then a failing exit status (with or without -W).
        # (Raising from build-finished would print Sphinx's crash report instead.)
        logger.error("%d problem(s) with the recorded outputs (%d expected outputs checked):"
                     "\n\n%s\n", len(problems), checked, "\n\n".join(problems),
                     type="doctensor", subtype="expected-output")
        app.statuscode = 1
        return
    logger.info("[verify] %d expected outputs on %d pages match what the code printed",
                checked, len(existing))


# --- re-running examples when doctensor changes -------------------------------------------

def on_builder_inited(app: Sphinx) -> None:
    """Delete sphinx-gallery's md5 stamps when doctensor's fingerprint changed.

    sphinx-gallery re-runs a script only when the script itself changed; a change in
    doctensor must re-run every script too. (The fingerprint is also a config value with
    rebuild="env", so Sphinx re-reads every page, notebooks included, when it changes.)
    """
    fingerprint = app.config.doctensor_fingerprint
    for prefix, _folder in _gallery_dirs(app):
        out = Path(app.srcdir) / prefix
        stamp = out / ".doctensor-fingerprint"
        if stamp.exists() and stamp.read_text() == fingerprint:
            continue
        for md5 in out.glob("*.md5"):
            md5.unlink()
        out.mkdir(parents=True, exist_ok=True)
        stamp.write_text(fingerprint)


def setup(app: Sphinx) -> dict:
    app.add_config_value("doctensor_fingerprint", "", "env", types=[str])
    app.add_config_value("doctensor_device", ("", ""), "env", types=[tuple, list])
    app.add_node(expected_output)
    app.add_directive("expected-output", ExpectedOutputDirective)
    app.add_directive("doctensor-device", DeviceDirective)
    app.connect("builder-inited", on_builder_inited, priority=400)  # before sphinx-gallery
    app.connect("env-before-read-docs", on_env_before_read_docs)
    app.connect("env-purge-doc", on_env_purge_doc)
    app.connect("env-merge-info", on_env_merge_info)
    app.connect("doctree-read", on_doctree_read)
    app.connect("build-finished", on_build_finished, priority=400)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True,
            "env_version": 1}
