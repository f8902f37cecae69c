"""The built site in a real browser (headless Chromium through Selenium).

Run with ``nox -s browser`` (installs Debian's chromium + chromium-driver when missing, builds
the site, runs this with ``DOCTENSOR_BROWSER=1``). A plain ``pytest`` run skips it: the site
it would open may be stale. By hand: build the site, then
``DOCTENSOR_BROWSER=1 pytest tests/browser`` (needs selenium, chromium, chromedriver).

Checks: every gallery page shows code and outputs (and copy buttons on code only); the
language switch flips every tab set of a page, is remembered on another page, and ``?lang=``
preselects; no page logs a console error.
"""

import functools
import http.server
import os
import shutil
import threading
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SITE = ROOT / "docs" / "_build" / "html"

webdriver = pytest.importorskip("selenium.webdriver", reason="needs selenium (nox -s browser)")
from selenium.webdriver.common.by import By  # noqa: E402

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
pytestmark = [
    pytest.mark.skipif(not os.environ.get("DOCTENSOR_BROWSER"),
                       reason="browser tests run in `nox -s browser` (DOCTENSOR_BROWSER=1)"),
    pytest.mark.skipif(not (CHROMIUM and DRIVER), reason="needs chromium and chromedriver "
                       "(tests/browser/install_chromium.sh, nox -s browser)"),
    pytest.mark.skipif(not (SITE / "index.html").exists(),
                       reason="build the site first (nox -s docs)"),
]
PAGES = sorted(p.relative_to(SITE).as_posix() for p in (SITE / "auto_gallery").glob("plot_*.html"))


@pytest.fixture(scope="module")
def server():
    handler = functools.partial(_QuietHandler, directory=str(SITE))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    httpd.shutdown()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                "--window-size=1280,900"):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=webdriver.ChromeService(DRIVER))
    driver.set_page_load_timeout(60)
    yield driver
    driver.quit()


def _open(browser, url):
    browser.get(url)
    browser.get_log("browser")  # earlier pages' messages are not this page's


def _errors(browser):
    return [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]


def _checked_langs(browser):
    """The sync ids of the checked tabs of every ``lang`` tab set on the page."""
    return browser.execute_script("""
        return Array.from(document.querySelectorAll('.sd-tab-label[data-sync-group="lang"]'))
            .filter(l => document.getElementById(l.getAttribute('for')).checked)
            .map(l => l.dataset.syncId);""")


def _tab_sets(browser):
    return browser.execute_script(
        "return document.querySelectorAll('.sd-tab-set:has(> [data-sync-group=\"lang\"])')"
        ".length;")


def test_the_site_has_gallery_pages():
    assert PAGES, "no gallery page was built"


@pytest.mark.parametrize("page", PAGES)
def test_gallery_page_shows_code_and_outputs_without_console_errors(browser, server, page):
    _open(browser, server + page)
    code = browser.find_elements(By.CSS_SELECTOR, "div.highlight-Python pre")
    outputs = browser.find_elements(By.CSS_SELECTOR, "div.sphx-glr-script-out pre")
    assert code and all(c.text.strip() for c in code[:3]), "no code shown"
    assert outputs and any(o.is_displayed() and o.text.strip() for o in outputs), "no output"
    assert not browser.find_elements(By.CSS_SELECTOR, ".sphx-glr-script-out .copybtn"), \
        "outputs must not get copy buttons"
    assert browser.find_elements(By.CSS_SELECTOR, "div.highlight-Python .copybtn")
    assert "Traceback (most recent call last)" not in " ".join(o.text for o in outputs)
    assert not _errors(browser)


def test_language_switch_flips_every_tab_set_and_persists(browser, server):
    page = next(p for p in PAGES if "plot_00" not in p) if len(PAGES) > 1 else PAGES[0]
    _open(browser, server + page)
    browser.execute_script("window.localStorage.clear();")
    _open(browser, server + page)
    n = _tab_sets(browser)
    assert n >= 2 and _checked_langs(browser) == ["zh"] * n

    browser.find_element(By.CSS_SELECTOR, '.dt-lang-btn[data-lang="en"]').click()
    assert _checked_langs(browser) == ["en"] * n
    en = browser.find_elements(By.CSS_SELECTOR, '.sd-tab-label[data-sync-id="en"] + div')
    assert all(d.is_displayed() for d in en)
    assert browser.execute_script(
        "return localStorage.getItem('sphinx-design-tab-id-lang');") == "en"

    other = next(p for p in PAGES if p != page) if len(PAGES) > 1 else "index.html"
    _open(browser, server + other)  # remembered on another page
    assert set(_checked_langs(browser)) == {"en"}
    assert browser.find_element(
        By.CSS_SELECTOR, '.dt-lang-btn[data-lang="en"]').get_attribute("aria-pressed") == "true"

    browser.find_elements(By.CSS_SELECTOR, '.sd-tab-label[data-sync-id="zh"]')[0].click()
    assert set(_checked_langs(browser)) == {"zh"}  # a tab click switches the whole page too
    assert browser.find_element(
        By.CSS_SELECTOR, '.dt-lang-btn[data-lang="zh"]').get_attribute("aria-pressed") == "true"

    _open(browser, server + page + "?lang=en")  # the query preselects
    assert set(_checked_langs(browser)) == {"en"}
    assert not _errors(browser)


@pytest.mark.parametrize("page", ["index.html", "errata.html", "writing.html", "search.html"])
def test_other_pages_load_without_console_errors(browser, server, page):
    if not (SITE / page).exists():
        pytest.skip(f"{page} not built")
    _open(browser, server + page)
    assert browser.find_elements(By.CSS_SELECTOR, ".dt-lang-btn")
    assert not _errors(browser)
