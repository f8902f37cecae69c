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

import contextlib
import dataclasses
import difflib
import hashlib
import importlib.abc
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
    expected: list[Expected]


def parse_script(path: str | Path) -> Script:
    """Split a gallery script as sphinx-gallery does and collect its ``expected-output``\\ s.

    Raises:
        FormatError: a directive that does not directly follow a code block, a second one
            for the same block, or bad options.
    """
    from sphinx_gallery.py_source_parser import split_code_and_text_blocks

    path = Path(path)
    _, blocks = split_code_and_text_blocks(str(path))
    source_lines = path.read_text(encoding="utf-8").splitlines()
    code_blocks, expected = [], []
    for i, block in enumerate(blocks):
        if block.type == "code":
            code_blocks.append(block)
            continue
        found = find_directives(block.content)
        if not found:
            continue
        end = blocks[i + 1].lineno if i + 1 < len(blocks) else len(source_lines) + 1
        lines = [n for n in range(block.lineno, end)
                 if ".. expected-output::" in source_lines[n - 1]] if i else []
        for k, (offset, options, body) in enumerate(found):
            line = lines[k] if k < len(lines) else block.lineno + offset
            previous = blocks[i - 1] if i else None
            if previous is None or previous.type != "code":
                raise FormatError(path, line, "expected-output must be in the text cell right "
                                  "after a code cell")
            if k:
                raise FormatError(path, line, "a second expected-output for the same code "
                                  f"block {len(code_blocks)}")
            try:
                requires, normalizers = check_options(options)
            except ValueError as e:
                raise FormatError(path, line, str(e)) from None
            expected.append(Expected(body, line, len(code_blocks), requires, normalizers))
    return Script(path, code_blocks, expected)


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

    outputs: list[str]
    error: str | None = None


def run_script(script: Script) -> Run:
    """Run a script's code blocks in one namespace, capturing stdout and stderr together.

    This mirrors sphinx-gallery (0.22): each block is compiled under the script's own file
    name with its real line numbers, executed in a fresh ``__main__`` module in the script's
    folder, stdout and stderr go to one buffer (so warnings interleave as in the build),
    warnings are shown with Python's default filters, tabs are expanded and ANSI escapes
    dropped. ``capture_repr=()`` in conf.py means a bare last expression prints nothing.
    """
    path = script.path.resolve()
    main = types.ModuleType("__main__")
    main.__dict__.update(__file__=str(path), __builtins__=__builtins__)
    run = Run([])
    old = (os.getcwd(), list(sys.path), sys.argv, sys.modules.get("__main__"))
    try:
        os.chdir(path.parent)
        sys.argv = [path.name]
        sys.modules["__main__"] = main
        for block in script.code_blocks:
            buffer = io.StringIO()
            with contextlib.redirect_stdout(buffer), contextlib.redirect_stderr(buffer), \
                    warnings.catch_warnings():
                warnings.resetwarnings()
                for action, category, module in reversed(_PYTHON_DEFAULT_FILTERS):
                    warnings.filterwarnings(action, category=category, module=module or "")
                warnings.showwarning = _showwarning
                try:
                    code = compile("\n" * (block.lineno - 1) + block.content, str(path), "exec")
                    exec(code, main.__dict__)
                except Exception:
                    run.error = traceback.format_exc()
            run.outputs.append(_ANSI_RE.sub("", buffer.getvalue().expandtabs()))
            if run.error:
                break
    finally:
        os.chdir(old[0])
        sys.path[:], sys.argv = old[1], old[2]
        if old[3] is not None:
            sys.modules["__main__"] = old[3]
    return run


def _showwarning(message, category, filename, lineno, file=None, line=None):
    sys.stderr.write(warnings.formatwarning(message, category, filename, lineno, line))


def check_run(script: Script, run: Run, source: str,
              skip: tuple[str, ...] = ()) -> tuple[list[str], list[Expected]]:
    """Compare a run with the script's expectations.

    Returns ``(problems, skipped)``: one readable message per mismatch (with a unified diff),
    and the expectations left out because they require something in ``skip``.
    """
    problems, skipped = [], []
    for exp in script.expected:
        if set(exp.requires) & set(skip):
            skipped.append(exp)
            continue
        got = run.outputs[exp.block - 1] if exp.block <= len(run.outputs) else None
        if got is None or not got.strip():
            why = (f"the script stopped earlier:\n{run.error}" if got is None and run.error
                   else "the code block printed nothing")
            problems.append(f"{source}:{exp.line}: code block {exp.block} has no captured "
                            f"output to compare with ({why})")
            continue
        diff = exp.diff(got, source, script.path.name)
        if diff:
            problems.append(f"{source}:{exp.line}: output of code block {exp.block} "
                            f"differs:\n{diff}")
    if run.error and not problems:
        problems.append(f"{source}: the script raised:\n{run.error}")
    return problems, skipped


# --- doctensor aliased to torch (the cross-check) -----------------------------------------

class _TorchAlias(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Resolve ``doctensor`` and ``doctensor.x.y`` to ``torch`` and ``torch.x.y``."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname != "doctensor" and not fullname.startswith("doctensor."):
            return None
        return importlib.util.spec_from_loader(fullname, self)

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
    finder = _TorchAlias()
    sys.meta_path.insert(0, finder)
    try:
        yield torch
    finally:
        sys.meta_path.remove(finder)
        for k in [k for k in sys.modules if k == "doctensor" or k.startswith("doctensor.")]:
            del sys.modules[k]
        sys.modules.update(saved)


# --- the build's identity: which doctensor, which device ----------------------------------

def fingerprint(src: str | Path) -> str:
    """A hash of doctensor's sources and of the device choice, to re-run cached examples."""
    digest = hashlib.sha256(os.environ.get("DOCTENSOR_CUDA", "").encode())
    for file in sorted(Path(src).rglob("*.py")):
        digest.update(str(file.relative_to(src)).encode() + b"\0" + file.read_bytes())
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
