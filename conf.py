"""Sphinx configuration of the doctensor site.

Build (what ``nox -s docs`` runs)::

    sphinx-build -W --keep-going -c . -b html docs docs/_build/html

conf.py lives at the repository root; the sources are ``docs/`` (hand-written pages, MyST-NB
notebooks) and ``gallery/`` (sphinx-gallery scripts, generated into ``docs/auto_gallery/``).
Every example runs at build time and every ``expected-output`` is checked by
``docs/_ext/verify.py``; see ``docs/writing.rst`` for the page format.

Environment: ``DOCTENSOR_CUDA`` (cupy|emulate|off; default cupy with a GPU, else emulate),
``DOCTENSOR_INTERSPHINX=1`` to link to the Python/NumPy/PyTorch docs (needs the network).
"""

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent
sys.path[:0] = [str(ROOT / "src"), str(ROOT / "docs" / "_ext")]
# Notebook kernels are separate processes: they find doctensor through PYTHONPATH.
os.environ["PYTHONPATH"] = os.pathsep.join(
    [str(ROOT / "src")] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p])

import outputcheck  # noqa: E402  (docs/_ext, just added to sys.path)

outputcheck.choose_cuda_backend()  # explicit, before doctensor is imported: no warning

project = "doctensor"
author = "the doctensor authors"
copyright = "2026, the doctensor authors"
try:
    import doctensor

    release = getattr(doctensor, "__version__", "0.1.0")
except Exception:  # the site reports a broken doctensor through its failing examples
    release = "0.1.0"
version = release
language = "en"  # the theme's labels; pages carry both languages

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.napoleon",
    "sphinx.ext.viewcode",
    "sphinx_gallery.gen_gallery",
    "myst_nb",
    "sphinx_design",
    "sphinx_copybutton",
    "sphinx-mathjax-offline",  # MathJax from the package, not a CDN: the site works offline
    "verify",
    "errata",
    "cjk",  # no stray spaces where a Chinese paragraph breaks across source lines
    "bilingual",  # "中文 / English" titles -> one span per language, for the switch
    "search_zh",  # Chinese words findable without jieba; a working JS stemmer
    "frontpage",  # the front page's article cards and verified-output facts
    "source_links",  # "read the implementation" boxes, the generated layer diagram
    "exactness",  # the "How exact is doctensor" page, from the tests' and the census's data
]
if os.environ.get("DOCTENSOR_INTERSPHINX"):  # offline -W builds would fail on the fetch
    extensions.append("sphinx.ext.intersphinx")
    intersphinx_mapping = {
        "python": ("https://docs.python.org/3", None),
        "numpy": ("https://numpy.org/doc/stable", None),
        "torch": ("https://docs.pytorch.org/docs/2.13", None),
    }

root_doc = "index"
exclude_patterns = [
    "_build",
    "_templates",
    "_ext",
    "_static",
    "**/.ipynb_checkpoints",
    # sphinx-gallery also writes each example as a notebook; MyST-NB must not read those
    "auto_gallery/*.ipynb",
    "auto_gallery/*.md5",
    "auto_gallery/*.zip",
]
source_suffix = {".rst": "restructuredtext", ".md": "myst-nb", ".ipynb": "myst-nb"}
templates_path = ["docs/_templates"]  # relative to this file (the configuration folder)
suppress_warnings = ["config.cache"]  # sphinx_gallery_conf holds callables

# --- the examples -------------------------------------------------------------------------
doctensor_fingerprint = outputcheck.fingerprint(  # a change re-runs every example
    ROOT / "src" / "doctensor", *sorted((ROOT / "gallery").glob("_*.py")),
    *sorted((ROOT / "gallery" / "data").iterdir()))
doctensor_device = outputcheck.describe_device()
sphinx_gallery_conf = {
    "examples_dirs": "../gallery",  # relative to docs/
    "gallery_dirs": "auto_gallery",
    "filename_pattern": r"/plot_",
    "ignore_pattern": r"__init__\.py|(^|/)_[^/]*\.py$",  # _helper.py: not a page
    "within_subsection_order": "FileNameSortKey",
    "capture_repr": (),  # only print() counts: a bare last expression adds nothing
    "download_all_examples": True,
    "show_signature": False,
    "remove_config_comments": True,
    "write_computation_times": False,
    "min_reported_time": 10**9,  # no timing line: the generated pages stay byte-stable
    "image_scrapers": ("matplotlib",),
    "abort_on_example_error": False,  # run them all, report every failure at the end:
    "only_warn_on_example_error": True,  # docs/_ext/verify.py turns them into the one error
    "thumbnail_size": (320, 224),
}

# --- notebooks ----------------------------------------------------------------------------
nb_execution_mode = "auto"  # text notebooks hold no outputs: each read executes them
nb_execution_timeout = 120
nb_execution_raise_on_error = False  # a failing cell is a warning: -W fails the build at the end
nb_execution_show_tb = True
nb_merge_streams = False  # keep stdout/stderr chunks in the order they came
myst_enable_extensions = ["colon_fence", "dollarmath"]
nb_render_markdown_format = "myst"

# --- API reference ------------------------------------------------------------------------
autosummary_generate = True  # into docs/generated/ (git-ignored)
autodoc_mock_imports = ["cupy"]  # the CuPy backend is documented without a GPU
autodoc_default_options = {"show-inheritance": True}  # members: see _templates/autosummary
autodoc_typehints = "description"
napoleon_google_docstring = True
napoleon_numpy_docstring = False

# --- HTML -------------------------------------------------------------------------------
html_theme = "pydata_sphinx_theme"
html_title = "doctensor"
html_favicon = "docs/_static/favicon.svg"  # also spares the browser a /favicon.ico 404
html_static_path = ["docs/_static"]
html_css_files = ["site.css"]
html_js_files = ["lang-switch.js"]
html_search_language = "zh"  # docs/_ext/search_zh.py: CJK bigrams + English words
html_last_updated_fmt = None
html_theme_options = {
    "navbar_persistent": ["search-button", "lang-switch"],  # in the header on a phone too
    "navbar_end": ["theme-switcher", "navbar-icon-links"],
    "show_prev_next": True,
    "header_links_before_dropdown": 3,
    "footer_start": ["copyright"],
    "footer_end": ["built-on"],
}
html_context = {
    "doctensor_device": doctensor_device,
    "default_mode": "auto",  # else the theme logs "Got invalid theme mode: ." on every page
}
html_show_sourcelink = False
# copy code, never outputs (sphinx-gallery's script-out, MyST-NB's cell outputs)
copybutton_selector = "div.highlight:not(.sphx-glr-script-out *):not(.cell_output *) pre"
copybutton_exclude = ".linenos, .gp, .go"
