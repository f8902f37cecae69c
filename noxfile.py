"""nox sessions: tests, docs, lint, bench, census.

Each session installs what it needs into its own virtual environment, so a machine with
only Python and pip can run ``python3 -m pip install nox && nox -s <session>``.
"""

import nox

nox.options.sessions = ["lint", "tests", "docs"]
nox.options.reuse_existing_virtualenvs = True
PYTHON = "3.11"  # torch 2.13.0 (the oracle) lies on this machine's disk for Python 3.11


@nox.session(python=PYTHON)
def tests(session):
    """Run the test suite, including the differential tests against torch 2.13."""
    session.install("-e", ".[test,docs]")
    session.run("pytest", "-q", *session.posargs)


@nox.session(python=PYTHON)
def docs(session):
    """Build the site into docs/_build/html, failing on any diverging example output.

    conf.py is at the root, the sources in docs/ (and gallery/). Extra arguments go to
    sphinx-build, e.g. ``nox -s docs -- -E`` for a clean read or ``-j 2``.
    """
    session.install("-e", ".[docs]")
    session.run("sphinx-build", "-W", "--keep-going", "-c", ".", "-b", "html", "docs",
                "docs/_build/html", *session.posargs)


@nox.session(python=PYTHON)
def docs_serve(session):
    """Serve the site on http://127.0.0.1:8000 and rebuild it on every change (live reload)."""
    session.install("-e", ".[docs]", "sphinx-autobuild")
    session.run("sphinx-autobuild", "-c", ".", "docs", "docs/_build/html",
                "--watch", "gallery", "--watch", "src/doctensor", "--watch", "conf.py",
                "--re-ignore", r"docs/(auto_gallery|generated|_build)/.*",
                "--port", "8000", *session.posargs)


@nox.session(python=PYTHON)
def browser(session):
    """Headless Chromium over the built site: code and outputs on every gallery page, the
    language switch (all tab sets, remembered, ?lang=), no console errors.

    Installs Debian's chromium + chromium-driver when missing (tests/browser/install_chromium.sh,
    root or sudo), builds the site (``-- --no-build`` to reuse docs/_build/html), runs
    tests/browser.
    """
    session.run("sh", "tests/browser/install_chromium.sh", external=True)
    # selenium 4.52 needs a certifi newer than this machine's package mirror has
    session.install("-e", ".[docs]", "pytest", "selenium>=4.20,<4.52")
    args = [a for a in session.posargs if a != "--no-build"]
    if "--no-build" not in session.posargs:  # diverging outputs are the docs session's failure
        session.run("sphinx-build", "-q", "-c", ".", "-b", "html", "docs", "docs/_build/html",
                    success_codes=[0, 1, 2])
    session.run("pytest", "-q", "tests/browser", *args, env={"DOCTENSOR_BROWSER": "1"})


@nox.session(python=PYTHON)
def lint(session):
    """ruff, and import-linter's contract that imports only go down DESIGN.md's layers."""
    session.install("ruff", "import-linter", "-e", ".")
    session.run("ruff", "check", "src", "tests", "benchmarks", "noxfile.py", "conf.py")
    session.run("lint-imports")


@nox.session(python=PYTHON)
def census(session):
    """Rewrite the README's "what is covered" table from ``../shared/tools/api_census.py``."""
    session.install("-e", ".[test]")
    session.run("python", "docs/_ext/census.py")


@nox.session(python=PYTHON)
def bench(session):
    """Benchmarks: doctensor vs torch 2.13 vs raw NumPy (a printed table; never fails on a MISS).

    Arguments go to ``python -m benchmarks``: workload groups (W1 .. W6 RNG RED MEM DOCS),
    ``--quick``, ``--cpu`` (process CPU time, one thread each: for a loaded machine),
    ``--docs`` (time the Sphinx build too), ``--steps N``; e.g.
    ``nox -s bench -- W1 W3 --quick``.
    """
    docs = "--docs" in session.posargs or any(a.upper() == "DOCS" for a in session.posargs)
    session.install("-e", ".[test,docs]" if docs else ".[test]")
    session.run("python", "-m", "benchmarks", *session.posargs)
