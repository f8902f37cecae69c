"""Expected outputs: one parser, one normaliser, one runner, shared by the site and the tests.

A gallery script records, in the text cell right after a code cell, what that cell prints::

    # .. expected-output::
    #    :normalize: paths
    #
    #    tensor(3., requires_grad=True)

The Sphinx extension ``verify`` compares it with sphinx-gallery's captured output; the tests
in ``tests/test_site_*.py`` run the same scripts without Sphinx (under doctensor, and under
real torch 2.13 with ``doctensor`` aliased to ``torch``) and compare with the same code here.
This module imports nothing from Sphinx itself, only sphinx-gallery's block splitter, so that
"the same cells" means the same cells.

Normalisation is explicit: trailing whitespace on each line and leading/trailing blank lines
are always ignored; anything else needs a ``:normalize:`` name from ``NORMALIZERS``.
"""

from __future__ import annotations

import ast
import collections
import contextlib
import dataclasses
import difflib
import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import io
import os
import re
import sys
import traceback
import types
import warnings
from collections.abc import Iterator
from pathlib import Path

DIRECTIVE = "expected-output"
_DIRECTIVE_RE = re.compile(r"^(?P<indent>[ \t]*)\.\. expected-output::(?P<arg>.*)$")
_OPTION_RE = re.compile(r"^[ \t]+:(?P<name>[\w-]+):(?P<value>.*)$")
_ANSI_RE = re.compile(r"\x1B(?:[@-Z\\-_]|\[[0-?]*[ -/]*[@-~])")
_REPR_BLOCK_RE = re.compile(r"^# sphinx_gallery_capture_repr_block = (?P<names>.+)$", re.M)
# An absolute POSIX path of at least two components, not preceded by a word character, a dot
# or a slash: "/work/main/gallery/plot_1.py:12" -> "plot_1.py:12".
_ABS_PATH_RE = re.compile(r"(?<![\w./])/(?:[^\s/:'\"()<>,]+/)+(?P<base>[^\s/:'\"()<>,]+)")

REQUIRES = {
    "cuda": "the block uses the CUDA device; the torch cross-check skips it without a GPU",
}


class FormatError(ValueError):
    """A page breaks the expected-output format (reported with file and line)."""

    def __init__(self, path: str | Path, line: int, message: str):
        super().__init__(f"{path}:{line}: {message}")
        self.path, self.line, self.message = str(path), line, message


# --- normalisation ------------------------------------------------------------------------

def _paths(text: str) -> str:
    """Absolute paths become their basename (for warnings merged from stderr)."""
    return _ABS_PATH_RE.sub(lambda m: m.group("base"), text)


NORMALIZERS = {
    "paths": _paths,
}


def normalize(text: str, names: tuple[str, ...] = ()) -> str:
    """Apply the always-on normalisation, then the named ones, in the order given."""
    for name in names:
        text = NORMALIZERS[name](text)
    lines = [line.rstrip() for line in text.expandtabs().splitlines()]
    while lines and not lines[0]:
        lines.pop(0)
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines)


def check_options(options: dict[str, str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Validate the directive's options; return ``(requires, normalize)`` name tuples.

    Raises:
        ValueError: an unknown option or name (the message lists the known ones).
    """
    unknown = set(options) - {"requires", "normalize"}
    if unknown:
        raise ValueError(f"unknown option(s) {sorted(unknown)}; known: :requires:, :normalize:")
    requires = tuple(options.get("requires", "").replace(",", " ").split())
    normalizers = tuple(options.get("normalize", "").replace(",", " ").split())
    for name in requires:
        if name not in REQUIRES:
            raise ValueError(f":requires: {name!r} is not one of {sorted(REQUIRES)}")
    for name in normalizers:
        if name not in NORMALIZERS:
            raise ValueError(f":normalize: {name!r} is not one of {sorted(NORMALIZERS)}")
    return requires, normalizers


@dataclasses.dataclass(frozen=True)
class Expected:
    """One ``expected-output`` directive.

    Attributes:
        text: the directive's body, dedented as docutils does.
        line: 1-based line of the directive in its source file.
        block: 1-based number of the code block it checks (counting code blocks only).
        requires: names from ``REQUIRES``.
        normalize: names from ``NORMALIZERS``.
    """

    text: str
    line: int
    block: int
    requires: tuple[str, ...] = ()
    normalize: tuple[str, ...] = ()

    def diff(self, got: str, source: str, where: str) -> str | None:
        """A unified diff of expected vs got after normalisation, or None when they agree."""
        want = normalize(self.text, self.normalize).splitlines()
        have = normalize(got, self.normalize).splitlines()
        if want == have:
            return None
        return "\n".join(difflib.unified_diff(
            want, have, fromfile=f"expected ({source}:{self.line})",
            tofile=f"got ({where}, code block {self.block})", lineterm=""))


# --- parsing ------------------------------------------------------------------------------

def find_directives(rst: str) -> list[tuple[int, dict[str, str], str]]:
    """Find ``expected-output`` directives in reST text.

    Returns ``(line_index, options, body)`` for each, with 0-based line indexes into ``rst``.
    The body is dedented by its smallest indentation, like docutils' directive content.
    """
    lines = rst.splitlines()
    found = []
    i = 0
    while i < len(lines):
        m = _DIRECTIVE_RE.match(lines[i])
        if not m:
            i += 1
            continue
        indent = len(m.group("indent").expandtabs())
        if m.group("arg").strip():
            raise ValueError(f"line {i + 1}: expected-output takes no argument; put the text "
                             "in the indented body")
        start, i = i, i + 1
        options: dict[str, str] = {}
        while i < len(lines) and (om := _OPTION_RE.match(lines[i])) and _indent(lines[i]) > indent:
            options[om.group("name")] = om.group("value").strip()
            i += 1
        body = []
        while i < len(lines) and (not lines[i].strip() or _indent(lines[i]) > indent):
            body.append(lines[i].expandtabs())
            i += 1
        margin = min((_indent(b) for b in body if b.strip()), default=0)
        found.append((start, options, normalize("\n".join(b[margin:] for b in body))))
    return found


def _indent(line: str) -> int:
    line = line.expandtabs()
    return len(line) - len(line.lstrip())


@dataclasses.dataclass
class Script:
    """A gallery script split into sphinx-gallery's blocks, with its expectations."""

    path: Path
    code_blocks: list  # sphinx_gallery Block(type, content, lineno), code blocks only
    expected: list[Expected]  # the well-formed ones
    errors: list[FormatError] = dataclasses.field(default_factory=list)
    lines: list[int] = dataclasses.field(default_factory=list)  # of every directive, in order


def parse_script(path: str | Path) -> Script:
    """Split a gallery script as sphinx-gallery does and collect its ``expected-output``\\ s.

    Format errors (a directive that does not directly follow a code block, a second one for
    the same block, bad options) are collected in ``Script.errors``, each with its line.
    """
    from sphinx_gallery.py_source_parser import split_code_and_text_blocks

    path = Path(path)
    _, blocks = split_code_and_text_blocks(str(path))
    source_lines = path.read_text(encoding="utf-8").splitlines()
    script = Script(path, [], [])
    for i, block in enumerate(blocks):
        if block.type == "code":
            script.code_blocks.append(block)
            continue
        try:
            found = find_directives(block.content)
        except ValueError as e:
            script.errors.append(FormatError(path, block.lineno, str(e)))
            continue
        end = blocks[i + 1].lineno if i + 1 < len(blocks) else len(source_lines) + 1
        lines = [n for n in range(block.lineno, end)
                 if ".. expected-output::" in source_lines[n - 1]] if i else []
        for k, (offset, options, body) in enumerate(found):
            line = lines[k] if k < len(lines) else block.lineno + offset
            script.lines.append(line)
            number = len(script.code_blocks)
            try:
                if blocks[i - 1].type != "code" or not i:
                    raise ValueError("expected-output must be in the text cell right after a "
                                     "code cell")
                if k:
                    raise ValueError(f"a second expected-output for code block {number}")
                requires, normalizers = check_options(options)
            except ValueError as e:
                script.errors.append(FormatError(path, line, str(e)))
                continue
            script.expected.append(Expected(body, line, number, requires, normalizers))
    return script


_FENCE_RE = re.compile(r"^ {0,3}(?P<fence>`{3,}|:{3,})\{expected-output\}\s*$")


def find_myst_directives(md: str) -> list[tuple[int, dict[str, str], str]]:
    """Find fenced ``{expected-output}`` directives in MyST Markdown (as ``find_directives``).

    Options are ``:name: value`` lines at the start of the fence's body.
    """
    lines = md.splitlines()
    found = []
    i = 0
    while i < len(lines):
        m = _FENCE_RE.match(lines[i])
        if not m:
            i += 1
            continue
        fence, start, i = m.group("fence"), i, i + 1
        body = []
        while i < len(lines) and not (lines[i].strip().startswith(fence)
                                      and set(lines[i].strip()) == {fence[0]}):
            body.append(lines[i])
            i += 1
        i += 1
        options = {}
        while body and (om := re.match(r"^:([\w-]+):(.*)$", body[0])):
            options[om.group(1)] = om.group(2).strip()
            body.pop(0)
        found.append((start, options, normalize("\n".join(body))))
    return found


Cell = collections.namedtuple("Cell", ["type", "content", "lineno"])


def parse_notebook(path: str | Path) -> Script:
    """A MyST-NB text notebook as a ``Script``: code cells, and the expectations after them."""
    from myst_nb.core.read import read_myst_markdown_notebook

    path = Path(path)
    text = path.read_text(encoding="utf-8")
    nb = read_myst_markdown_notebook(text, add_source_map=True, path=path)
    source_lines = text.splitlines()
    starts = list(nb.metadata.source_map) + [len(source_lines)]
    cells = [Cell("code" if c.cell_type == "code" else "text", c.source, starts[i] + 1)
             for i, c in enumerate(nb.cells)]
    script = Script(path, [], [])
    for i, cell in enumerate(cells):
        if cell.type == "code":
            script.code_blocks.append(cell)
            continue
        lines = [n + 1 for n in range(starts[i], starts[i + 1])
                 if _FENCE_RE.match(source_lines[n])]
        for k, (_, options, body) in enumerate(find_myst_directives(cell.content)):
            line = lines[k] if k < len(lines) else cell.lineno
            script.lines.append(line)
            number = len(script.code_blocks)
            try:
                if not i or cells[i - 1].type != "code":
                    raise ValueError("expected-output must be in the markdown cell right after "
                                     "a code cell")
                if k:
                    raise ValueError(f"a second expected-output for code cell {number}")
                requires, normalizers = check_options(options)
            except ValueError as e:
                script.errors.append(FormatError(path, line, str(e)))
                continue
            script.expected.append(Expected(body, line, number, requires, normalizers))
    return script


def parse_page(path: str | Path) -> Script:
    """``parse_notebook`` for ``.md``, ``parse_script`` for ``.py``."""
    return parse_notebook(path) if Path(path).suffix == ".md" else parse_script(path)


# --- running scripts without Sphinx (the tests' twin of sphinx-gallery) -------------------

_PYTHON_DEFAULT_FILTERS = [  # what a plain `python` (and so `sphinx-build`) starts with
    ("default", DeprecationWarning, "__main__"),
    ("ignore", DeprecationWarning, None),
    ("ignore", PendingDeprecationWarning, None),
    ("ignore", ImportWarning, None),
    ("ignore", ResourceWarning, None),
]


@dataclasses.dataclass
class Run:
    """What each code block printed; ``error`` is the traceback that stopped the script."""

    outputs: list[str | None]
    error: str | None = None
    error_block: int | None = None
    reprs: dict[int, str] = dataclasses.field(default_factory=dict)  # block -> shown repr


def run_script(script: Script, skip: tuple[str, ...] = ()) -> Run:
    """Run a script's code blocks in one namespace, capturing stdout and stderr together.

    Code blocks whose expectation requires something in ``skip`` (e.g. ``("cuda",)`` under
    a torch without CUDA) are not run; their output is recorded as ``None``.

    This mirrors sphinx-gallery (0.22): each block is compiled under the script's own file
    name with its real line numbers, executed in a fresh ``__main__`` module in the script's
    folder (which is also appended to ``sys.path``), stdout and stderr go to one buffer (so
    warnings interleave as in the build), warnings are shown with Python's default filters,
    tabs are expanded and ANSI escapes dropped. ``capture_repr=()`` in conf.py means a bare
    last expression prints nothing; a block that sets ``sphinx_gallery_capture_repr_block``
    (a picture) has its last expression's repr kept in ``Run.reprs``, never in its output.
    """
    path = script.path.resolve()
    main = types.ModuleType("__main__")
    main.__dict__.update(__file__=str(path), __builtins__=__builtins__)
    notebook = path.suffix == ".md"
    if notebook:  # rich display goes to display_data, not to the stream outputs we compare
        main.__dict__["display"] = _no_display
    run = Run([])
    old = (os.getcwd(), list(sys.path), sys.argv, sys.modules.get("__main__"))
    stack = contextlib.ExitStack()
    try:
        os.chdir(path.parent)
        sys.path.append(str(path.parent))  # as sphinx-gallery: gallery/_helper.py imports
        sys.argv = [path.name]
        sys.modules["__main__"] = main
        if notebook:
            stack.enter_context(_no_ipython_display())
        skipped = {e.block for e in script.expected if set(e.requires) & set(skip)}
        for number, block in enumerate(script.code_blocks, start=1):
            if number in skipped:
                run.outputs.append(None)
                continue
            buffer = io.StringIO()
            with contextlib.redirect_stdout(buffer), contextlib.redirect_stderr(buffer), \
                    warnings.catch_warnings():
                warnings.resetwarnings()
                for action, category, module in reversed(_PYTHON_DEFAULT_FILTERS):
                    warnings.filterwarnings(action, category=category, module=module or "")
                warnings.showwarning = _showwarning
                try:
                    shown = _run_block(block, str(path), main.__dict__)
                    if shown is not None:
                        run.reprs[number] = shown
                except Exception as e:  # as sphinx-gallery: the traceback ends the script
                    tb = e.__traceback__  # from the script's own frame on: drop ours
                    while tb is not None and tb.tb_frame.f_code.co_filename == __file__:
                        tb = tb.tb_next
                    run.error = "".join(traceback.format_exception(type(e), e, tb))
                    run.error_block = number
            run.outputs.append(_ANSI_RE.sub("", buffer.getvalue().expandtabs()))
            if run.error:
                break
    finally:
        stack.close()
        os.chdir(old[0])
        sys.path[:], sys.argv = old[1], old[2]
        if old[3] is not None:
            sys.modules["__main__"] = old[3]
    return run


def _run_block(block, filename: str, namespace: dict) -> str | None:
    """Execute one code block; return the repr sphinx-gallery would show, if any.

    As sphinx-gallery: with ``sphinx_gallery_capture_repr_block = (names)`` in the block, the
    value of a last bare expression is shown through the first of those methods it has.
    """
    tree = ast.parse("\n" * (block.lineno - 1) + block.content, filename)
    m = _REPR_BLOCK_RE.search(block.content)
    names = ast.literal_eval(m.group("names")) if m else ()
    last = None
    if names and tree.body and isinstance(tree.body[-1], ast.Expr):
        last = ast.Expression(tree.body.pop().value)
    exec(compile(tree, filename, "exec"), namespace)
    if last is None:
        return None
    value = eval(compile(last, filename, "eval"), namespace)
    for name in names:
        method = getattr(value, name, None)
        if callable(method):
            return method()
    return None


def _no_display(*objs, **kwargs):
    return None


@contextlib.contextmanager
def _no_ipython_display():
    try:
        import IPython.core.display_functions as functions
        import IPython.display as display
    except ImportError:
        yield
        return
    saved = functions.display, display.display
    functions.display = display.display = _no_display
    try:
        yield
    finally:
        functions.display, display.display = saved


def _showwarning(message, category, filename, lineno, file=None, line=None):
    sys.stderr.write(warnings.formatwarning(message, category, filename, lineno, line))


def check_run(script: Script, run: Run, source: str,
              skip: tuple[str, ...] = ()) -> tuple[list[str], list[Expected]]:
    """Compare a run with the script's expectations.

    Returns ``(problems, skipped)``: one readable message per mismatch (with a unified diff),
    and the expectations left out because they require something in ``skip``.
    """
    problems = [f"{source}:{e.line}: {e.message}" for e in script.errors]
    skipped = []
    for exp in script.expected:
        if set(exp.requires) & set(skip):
            skipped.append(exp)
            continue
        got = run.outputs[exp.block - 1] if exp.block <= len(run.outputs) else None
        if run.error_block is not None and exp.block >= run.error_block:
            problems.append(f"{source}:{exp.line}: code block {exp.block} " + (
                "raised" if exp.block == run.error_block else
                f"was not run: code block {run.error_block} raised"))
            continue
        if got is None or not got.strip():
            problems.append(f"{source}:{exp.line}: code block {exp.block} printed nothing; "
                            "an expected-output needs captured output")
            continue
        diff = exp.diff(got, source, script.path.name)
        if diff:
            problems.append(f"{source}:{exp.line}: output of code block {exp.block} "
                            f"differs:\n{diff}")
    if run.error:
        problems.insert(0, f"{source}: code block {run.error_block} raised (the page stops "
                        f"there):\n{run.error}")
    return problems, skipped


# --- doctensor aliased to torch (the cross-check) -----------------------------------------

class _TorchAlias(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Resolve ``doctensor`` and ``doctensor.x.y`` to ``torch`` and ``torch.x.y``.

    A submodule torch does not have (a doctensor-only helper such as a drawing module) is
    loaded from doctensor's own folder; inside it, ``import doctensor`` gives torch too, so
    the helper works on torch's tensors through the public API they share.
    """

    def __init__(self, real_path: list[str]):
        self.real_path = real_path

    def find_spec(self, fullname, path=None, target=None):
        if fullname != "doctensor" and not fullname.startswith("doctensor."):
            return None
        try:
            found = importlib.util.find_spec("torch" + fullname[len("doctensor"):])
        except (ImportError, ValueError):
            found = None
        if found is not None:
            return importlib.util.spec_from_loader(fullname, self)
        parent = path if fullname.count(".") > 1 else self.real_path
        return importlib.machinery.PathFinder.find_spec(fullname, parent)

    def create_module(self, spec):
        return importlib.import_module("torch" + spec.name[len("doctensor"):])

    def exec_module(self, module):
        pass


@contextlib.contextmanager
def doctensor_is_torch() -> Iterator[types.ModuleType]:
    """Within the block, ``import doctensor`` (and its submodules) gives real torch."""
    import torch

    saved = {k: v for k, v in sys.modules.items() if k == "doctensor" or
             k.startswith("doctensor.")}
    for k in saved:
        del sys.modules[k]
    real = importlib.machinery.PathFinder.find_spec("doctensor")
    finder = _TorchAlias(list(real.submodule_search_locations or []) if real else [])
    sys.meta_path.insert(0, finder)
    try:
        yield torch
    finally:
        sys.meta_path.remove(finder)
        for k in [k for k in sys.modules if k == "doctensor" or k.startswith("doctensor.")]:
            del sys.modules[k]
        sys.modules.update(saved)


# --- the build's identity: which doctensor, which device ----------------------------------

def fingerprint(*sources: str | Path) -> str:
    """A hash of the given files (folders: their ``*.py``) and of the device choice.

    conf.py hashes doctensor's sources, the gallery's helper modules and its data files, so
    that a change in any of them re-runs the examples (sphinx-gallery alone only notices
    changes to a script).
    """
    digest = hashlib.sha256(os.environ.get("DOCTENSOR_CUDA", "").encode())
    for source in map(Path, sources):
        files = sorted(source.rglob("*.py")) if source.is_dir() else [source]
        for file in files:  # names relative to the source: a moved checkout keeps its hash
            name = file.relative_to(source) if source.is_dir() else file.name
            digest.update(str(name).encode() + b"\0" + file.read_bytes())
    return digest.hexdigest()[:16]


def gpu_visible() -> bool:
    """Whether CuPy sees a GPU (doctensor-free, so it can run before doctensor is imported)."""
    try:
        import cupy

        return cupy.cuda.runtime.getDeviceCount() > 0
    except Exception:
        return False


def choose_cuda_backend() -> str:
    """Make the CUDA backend an explicit choice (so doctensor warns about nothing)."""
    if not os.environ.get("DOCTENSOR_CUDA"):
        os.environ["DOCTENSOR_CUDA"] = "cupy" if gpu_visible() else "emulate"
    return os.environ["DOCTENSOR_CUDA"]


def describe_device() -> tuple[str, str]:
    """``(chinese, english)`` sentences saying what the ``.cuda()`` examples ran on."""
    try:
        import doctensor

        version = getattr(doctensor, "__version__", "?")
    except Exception as e:  # the site still builds (and says so) while doctensor is broken
        return (f"doctensor 无法导入（{type(e).__name__}）", f"doctensor failed to import "
                f"({type(e).__name__})")
    backend = os.environ.get("DOCTENSOR_CUDA", "")
    name = None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            if doctensor.cuda.is_available():
                name = doctensor.cuda.get_device_name()
        except Exception:
            pass
    if name:
        return (f"本站由 doctensor {version} 构建，CUDA 示例运行在 CuPy 与 GPU {name} 上。",
                f"Built with doctensor {version}; the CUDA examples ran on CuPy on {name}.")
    if backend == "off":
        return (f"本站由 doctensor {version} 构建，未启用 CUDA。",
                f"Built with doctensor {version} with CUDA switched off.")
    return (f"本站由 doctensor {version} 构建；没有 GPU，CUDA 示例运行在模拟的 CUDA 设备上"
            "（数据在 NumPy 内存中）。",
            f"Built with doctensor {version}; no GPU was present, so the CUDA examples ran on "
            "doctensor's emulated CUDA device (NumPy memory behind a CUDA device identity).")
