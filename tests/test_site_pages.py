"""The site's recorded outputs (gallery scripts and MyST-NB notebooks), checked without Sphinx.

* under doctensor: the fast twin of the site build (same cells, same capture, same compare);
* under real torch 2.13, with ``doctensor`` aliased to ``torch``: every recorded output is
  PyTorch's fact, not doctensor's. Blocks marked ``:requires: cuda`` are not run when torch
  has no CUDA; a separate test per script reports them as skipped (``-ra`` lists the reason).

Each ``gallery/plot_*.py`` and ``docs/concepts/*.md`` gets its tests automatically; the parser,
the runner and the normaliser are the site's own (``docs/_ext/outputcheck.py``). Notebooks run
their code cells the same way (rich ``display()`` output is not a stream and is left out).
"""

import ast
import difflib
import importlib.util
import sys
import unicodedata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "docs" / "_ext"))
if importlib.util.find_spec("doctensor") is None:  # not installed: use the checkout
    sys.path.insert(0, str(ROOT / "src"))

import outputcheck  # noqa: E402

SCRIPTS = sorted((ROOT / "gallery").glob("plot_*.py")) + sorted(
    (ROOT / "docs" / "concepts").glob("*.md"))
CUDA_SCRIPTS = [p for p in SCRIPTS if ":requires: cuda" in p.read_text(encoding="utf-8")]


def _rel(path: Path) -> str:
    return str(path.relative_to(ROOT))


GALLERY = [p for p in SCRIPTS if p.suffix == ".py"]


@pytest.mark.parametrize("path", GALLERY, ids=[p.stem for p in GALLERY])
def test_page_title_is_bilingual_and_fully_underlined(path):
    """``中文标题 / English title``, underlined to its display width (CJK counts as 2)."""
    lines = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))).splitlines()
    title, underline = lines[0], lines[1]
    width = sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in title)
    assert " / " in title and any(unicodedata.east_asian_width(c) == "W" for c in title), title
    assert set(underline) == {"="} and len(underline) >= width, \
        f"{title!r} needs an underline of at least {width} '='"


@pytest.fixture
def explicit_cuda_backend(monkeypatch):
    """As in conf.py: an explicit DOCTENSOR_CUDA choice, so doctensor prints no warning."""
    if not outputcheck.os.environ.get("DOCTENSOR_CUDA"):
        monkeypatch.setenv("DOCTENSOR_CUDA", "cupy" if outputcheck.gpu_visible() else "emulate")


@pytest.mark.parametrize("path", SCRIPTS, ids=[p.stem for p in SCRIPTS])
def test_page_under_doctensor(path, explicit_cuda_backend):
    script = outputcheck.parse_page(path)
    run = outputcheck.run_script(script)
    problems, _ = outputcheck.check_run(script, run, _rel(path))
    assert not problems, "\n\n".join(problems)


def _torch_skip(torch) -> tuple[str, ...]:
    return () if torch.cuda.is_available() else ("cuda",)


@pytest.mark.parametrize("path", SCRIPTS, ids=[p.stem for p in SCRIPTS])
def test_page_under_torch(path):
    torch = pytest.importorskip("torch")
    script = outputcheck.parse_page(path)
    skip = _torch_skip(torch)
    with outputcheck.doctensor_is_torch():
        run = outputcheck.run_script(script, skip=skip)
    problems, _ = outputcheck.check_run(script, run, _rel(path), skip=skip)
    assert not problems, "torch 2.13 does not print what the page records:\n\n" + \
        "\n\n".join(problems)


PICTURES = [p for p in GALLERY if "sphinx_gallery_capture_repr_block" in p.read_text("utf-8")]


@pytest.mark.parametrize("path", PICTURES, ids=[p.stem for p in PICTURES])
def test_pictures_are_the_same_under_torch(path, explicit_cuda_backend):
    """``doctensor.viz`` reads only what torch exposes: each picture on a page (a block's
    ``_repr_html_``) must come out the same from torch's tensors as from doctensor's."""
    torch = pytest.importorskip("torch")
    script = outputcheck.parse_page(path)
    skip = _torch_skip(torch)
    ours = outputcheck.run_script(script)
    with outputcheck.doctensor_is_torch():
        theirs = outputcheck.run_script(script, skip=skip)
    assert ours.error is None and theirs.error is None, ours.error or theirs.error
    assert ours.reprs, "no picture was drawn"
    left_out = set(ours.reprs) - set(theirs.reprs)
    assert all(theirs.outputs[b - 1] is None for b in left_out)  # only blocks torch skipped
    if not theirs.reprs:
        pytest.skip(f"torch has no CUDA: the pictures of code blocks {sorted(left_out)} are "
                    "not compared")
    for block, picture in theirs.reprs.items():
        diff = "\n".join(difflib.unified_diff(
            picture.splitlines(), ours.reprs[block].splitlines(), "torch 2.13", "doctensor",
            lineterm=""))
        assert not diff, f"{_rel(path)}, code block {block}: the pictures differ\n{diff}"


@pytest.mark.parametrize("path", CUDA_SCRIPTS, ids=[p.stem for p in CUDA_SCRIPTS])
def test_page_cuda_blocks_under_torch(path):
    """Reported separately so that a CPU-only torch says which blocks it could not check."""
    torch = pytest.importorskip("torch")
    script = outputcheck.parse_page(path)
    cuda = [e for e in script.expected if "cuda" in e.requires]
    if not torch.cuda.is_available():
        pytest.skip(f"torch has no CUDA: {len(cuda)} :requires: cuda block(s) not cross-checked "
                    f"({', '.join(f'{_rel(path)}:{e.line}' for e in cuda)})")
    with outputcheck.doctensor_is_torch():
        run = outputcheck.run_script(script)
    problems, _ = outputcheck.check_run(script, run, _rel(path))
    assert not problems, "\n\n".join(problems)
