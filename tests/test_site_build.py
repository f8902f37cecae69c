"""Mutation tests of the site's verification: a tiny Sphinx project built with the real conf.py.

The project (in a tmp dir) has one gallery script whose printed value comes from a small
helper module, standing in for doctensor. We show that

1. it builds and its expected output is checked;
2. changing the recorded output fails the build with a diff naming the script, line, page
   and block;
3. changing the helper's *behaviour* (not the script) fails the build too once doctensor's
   fingerprint changes: the trap of sphinx-gallery reusing cached output (its md5 cache is
   keyed on the script alone);
4. an expected-output with no code block before it is an error with its line;
5. a picture block (``doctensor.viz``) shows its HTML and is not compared, and a Chinese
   paragraph broken across lines renders without a stray space.

Four small builds with -j1, about 20 s.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

SCRIPT = '''\
"""
变异测试 / Mutation test
========================

A page for the mutation test. 一段中文
跨两行。
"""

# %%
import _mutlib

print("sum:", _mutlib.total([1, 2, 3]))
print("label")

# %%
# .. expected-output::
#
#    sum: 6
#    label
#
# A picture: shown, not compared.

import doctensor
from doctensor.viz import draw_storage

# sphinx_gallery_capture_repr_block = ('_repr_html_',)
draw_storage(("ones", doctensor.ones(2)))
'''

HELPER = '''"""Stands in for doctensor."""


def total(xs):
    return sum(xs)
'''

INDEX = """\
Test
====

.. toctree::

   auto_gallery/index
"""

README = """\
示例 / Gallery
==============
"""


def _build(project: Path, fingerprint: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, DOCTENSOR_CUDA=os.environ.get("DOCTENSOR_CUDA") or "emulate")
    return subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-j", "1", "-q",
         "-c", str(ROOT), "-b", "html", "-D", f"doctensor_fingerprint={fingerprint}",
         str(project / "docs"), str(project / "docs" / "_build" / "html")],
        capture_output=True, text=True, env=env, timeout=300)


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("site")
    (root / "docs").mkdir()
    (root / "gallery").mkdir()
    (root / "docs" / "index.rst").write_text(INDEX, encoding="utf-8")
    (root / "gallery" / "README.rst").write_text(README, encoding="utf-8")
    (root / "gallery" / "plot_mut.py").write_text(SCRIPT, encoding="utf-8")
    (root / "gallery" / "_mutlib.py").write_text(HELPER)
    return root


def test_build_checks_outputs_and_fails_on_any_mutation(project):
    script = project / "gallery" / "plot_mut.py"
    helper = project / "gallery" / "_mutlib.py"
    line = next(i for i, s in enumerate(SCRIPT.splitlines(), 1) if "expected-output" in s)

    ok = _build(project, "A")
    assert ok.returncode == 0, ok.stdout + ok.stderr
    html = (project / "docs" / "_build" / "html" / "auto_gallery" / "plot_mut.html").read_text()
    assert "sum: 6" in html and "dt-checked" in html
    # the picture block (docs/writing.rst): its HTML repr is shown, its config comment is not
    assert '<div class="dt-diagram"><svg ' in html and "ones: shape [2]" in html
    assert "capture_repr_block" not in html
    assert "一段中文跨两行。" in html  # docs/_ext/cjk.py: no stray space in Chinese prose

    # 1. the behaviour changes, the script does not: sphinx-gallery's md5 cache alone would
    #    reuse the old output; doctensor's new fingerprint makes it re-run, and fail
    helper.write_text(HELPER.replace("sum(xs)", "sum(xs) + 1"))
    changed = _build(project, "B")
    assert changed.returncode != 0
    assert "-sum: 6\n+sum: 7" in changed.stderr, changed.stderr
    helper.write_text(HELPER)

    # 2. the recorded output changes, an orphan directive appears, a block raises: the build
    #    fails once, at the end, listing all three, each with its file, line, page and block
    extra = ("\n# %%\n# More text.\n\n# %%\n# .. expected-output::\n#\n#    orphan\n"
             "\nraise RuntimeError('boom')\n")
    script.write_text(SCRIPT.replace("#    sum: 6", "#    sum: 7") + extra, encoding="utf-8")
    orphan = len((SCRIPT + extra).splitlines()) - 4
    bad = _build(project, "B")
    assert bad.returncode != 0
    assert f"plot_mut.py:{line}: page auto_gallery/plot_mut, code block 1" in bad.stderr
    assert "-sum: 7\n+sum: 6" in bad.stderr, bad.stderr
    assert f"plot_mut.py:{orphan}: expected-output must be in the text cell right after a " \
        "code cell" in bad.stderr, bad.stderr
    assert "page auto_gallery/plot_mut, code block 3 raised" in bad.stderr, bad.stderr
    assert "RuntimeError: boom" in bad.stderr
    assert bad.stderr.count("problem(s) with the recorded outputs") == 1  # once, at the end


NOTEBOOK = """\
---
jupytext:
  text_representation:
    format_name: myst
kernelspec:
  display_name: Python 3
  language: python
  name: python3
---

# 笔记 / Notebook

```{code-cell} ipython3
print("one")
```

```{expected-output}
one
```

```{code-cell} ipython3
print("two")
```

```{expected-output}
zwei
```
"""


def test_notebook_outputs_are_checked_too(tmp_path):
    """A MyST-NB notebook: one matching cell, one mutated expectation, named by .md line."""
    (tmp_path / "docs").mkdir()
    (tmp_path / "gallery").mkdir()
    (tmp_path / "gallery" / "README.rst").write_text(README, encoding="utf-8")
    (tmp_path / "docs" / "index.rst").write_text(INDEX + "   nb\n", encoding="utf-8")
    (tmp_path / "docs" / "nb.md").write_text(NOTEBOOK, encoding="utf-8")
    line = NOTEBOOK.splitlines().index("zwei")  # the fence is the line before (1-based)
    bad = _build(tmp_path, "A")
    assert bad.returncode != 0
    assert "(2 expected outputs checked)" in bad.stderr, bad.stderr
    assert f"nb.md:{line}: page nb, code block 2" in bad.stderr, bad.stderr
    assert "-zwei\n+two" in bad.stderr
