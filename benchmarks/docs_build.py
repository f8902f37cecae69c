"""The docs build: a clean build and a no-change rebuild, timed.

The sources (conf.py, docs/, gallery/) are copied into a temporary directory, without the
build products (docs/_build, docs/auto_gallery, docs/generated), and ``src`` is linked in:
"clean" really starts from nothing (sphinx-gallery would otherwise skip examples whose
outputs it finds), and the working tree is left alone. The build runs as ``nox -s docs``
does: ``sphinx-build -W --keep-going -c . -b html docs <out>``.
"""

import importlib.util
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from .harness import fmt_time, table

ROOT = Path(__file__).resolve().parent.parent
PRODUCTS = {"_build", "auto_gallery", "generated", "jupyter_execute", "sg_execution_times.rst",
            "__pycache__", ".ipynb_checkpoints"}


def _copy_sources(dest):
    for name in ("conf.py", "pyproject.toml"):  # (the architecture page reads the layers)
        shutil.copy2(ROOT / name, dest / name)
    for folder in ("docs", "gallery"):
        shutil.copytree(ROOT / folder, dest / folder,
                        ignore=lambda _dir, names: [n for n in names if n in PRODUCTS])
    (dest / "src").symlink_to(ROOT / "src", target_is_directory=True)


def _build(src, label):
    """(seconds, status); a failing build's whole output goes to a log file in the temp dir."""
    cmd = [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-c", ".", "-b", "html",
           "docs", "docs/_build/html"]
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, cwd=src, capture_output=True, text=True)
    seconds = time.perf_counter() - t0
    if proc.returncode == 0:
        return seconds, "ok"
    log = Path(tempfile.gettempdir()) / f"doctensor-docs-bench-{label}.log"
    log.write_text(proc.stdout + proc.stderr)
    lines = proc.stderr.splitlines()
    first = next((ln for ln in lines if ln.startswith("ERROR")), None) or next(
        (ln for ln in lines if "WARNING" in ln and "IPKernelApp" not in ln), "")
    return seconds, f"FAILED (exit {proc.returncode}; {log}): {first.strip()[:80]}"


def run():
    """The printed report (a table, or why there is none)."""
    if importlib.util.find_spec("sphinx") is None:
        return "docs build: skipped, Sphinx is not installed (pip install -e '.[docs]')"
    with tempfile.TemporaryDirectory(prefix="doctensor-docs-bench-") as tmp:
        src = Path(tmp)
        _copy_sources(src)
        print("  docs: clean build ...", file=sys.stderr, flush=True)
        clean = _build(src, "clean")
        print("  docs: no-change rebuild ...", file=sys.stderr, flush=True)
        again = _build(src, "rebuild")
    rows = [["clean build", fmt_time(clean[0]), clean[1]],
            ["no-change rebuild", fmt_time(again[0]), again[1]]]
    return "docs build (sphinx-build -W, sources copied to a temp dir)\n" + table(
        rows, ["build", "time", "status"])
