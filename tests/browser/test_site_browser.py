"""The built site in a real browser (headless Chromium through Selenium), served over HTTP.

Run with ``nox -s browser`` (installs Debian's chromium + chromium-driver when missing, builds
the site, runs this with ``DOCTENSOR_BROWSER=1``). A plain ``pytest`` run skips it: the site
it would open may be stale. By hand: build the site, then
``DOCTENSOR_BROWSER=1 pytest tests/browser`` (needs selenium, chromium, chromedriver).

Checks: no page logs a SEVERE console message (search included); searching finds the right
pages for English words, Chinese words and API names; every page, in each language, shows
only that language's text (one_language.js); the switch is remembered, follows ``?lang=``
and works on a 390 px phone; gallery pages show code and outputs, with copy buttons on code
only; the front page's cards link to pages that exist.
"""

import functools
import http.server
import os
import re
import shutil
import sys
import threading
from pathlib import Path
from urllib.parse import quote

import pytest

ROOT = Path(__file__).resolve().parents[2]
SITE = ROOT / "docs" / "_build" / "html"
ONE_LANGUAGE = (Path(__file__).parent / "one_language.js").read_text(encoding="utf-8")
sys.path.insert(0, str(ROOT / "docs" / "_ext"))

webdriver = pytest.importorskip("selenium.webdriver", reason="needs selenium (nox -s browser)")
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

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


def _pages(pattern):
    return sorted(p.relative_to(SITE).as_posix() for p in SITE.glob(pattern))


GALLERY = _pages("auto_gallery/plot_*.html")
ALL_PAGES = [p for p in _pages("**/*.html") if not p.startswith("_static/")]
# Read in one language: everything but the reference pages, whose body is English by design
# (docstrings, the authors' guide, Sphinx's indexes) and the search page (tested on its own)
REFERENCE = {"api.html", "writing.html", "genindex.html", "py-modindex.html", "search.html"}
BILINGUAL = [p for p in ALL_PAGES
             if p not in REFERENCE and not p.startswith(("generated/", "_modules/"))]


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def server():
    handler = functools.partial(_QuietHandler, directory=str(SITE))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    httpd.shutdown()


def _driver(width, javascript=True):
    options = webdriver.ChromeOptions()
    if not javascript:
        options.add_experimental_option(
            "prefs", {"profile.managed_default_content_settings.javascript": 2})
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                "--window-size=1280,900"):
        options.add_argument(arg)
    if width < 500:  # below headless Chromium's smallest window: a phone's viewport
        options.add_experimental_option("mobileEmulation", {
            "deviceMetrics": {"width": width, "height": 844, "pixelRatio": 3}})
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=webdriver.ChromeService(DRIVER))
    driver.set_page_load_timeout(60)
    return driver


@pytest.fixture(scope="module")
def browser():
    driver = _driver(1280)
    yield driver
    driver.quit()


@pytest.fixture(scope="module")
def phone():
    driver = _driver(390)
    yield driver
    driver.quit()


def _open(browser, url):
    browser.get(url)
    return _errors(browser)


def _errors(browser):
    return [e["message"] for e in browser.get_log("browser") if e["level"] == "SEVERE"]


def _lang(browser):
    return browser.execute_script("return document.documentElement.dataset.dtLang;")


def _stray(browser, lang):
    return browser.execute_script(ONE_LANGUAGE, lang)


def _title(page):
    """A page's English title, as its <h1> holds it."""
    html = (SITE / page).read_text(encoding="utf-8")
    return re.sub(r"<[^>]+>", "", re.search(
        r'<h1>.*?<span class="dt-en" lang="en">(.*?)</span>', html, re.S).group(1))


def test_the_site_has_gallery_pages():
    assert GALLERY, "no gallery page was built"


@pytest.mark.parametrize("page", ALL_PAGES)
def test_no_console_errors(browser, server, page):
    assert not _open(browser, server + page)


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("page", BILINGUAL)
def test_each_page_reads_in_one_language(browser, server, page, lang):
    assert not _open(browser, f"{server}{page}?lang={lang}")
    assert _lang(browser) == lang
    assert not _stray(browser, lang), f"{page} in {lang} shows the other language"
    title = browser.title.split(" — ")[0]
    assert " / " not in title, f"<title> {title!r} carries both languages"


def _search(browser, server, query, lang):
    errors = _open(browser, f"{server}search.html?q={quote(query)}&lang={lang}")
    results = browser.find_element(By.ID, "search-results")
    WebDriverWait(browser, 30).until(
        lambda _: "search-summary" in (results.get_attribute("innerHTML") or "")
        and browser.find_elements(By.CSS_SELECTOR, "#search-results p.search-summary")[0].text)
    links = [a.get_attribute("href").removeprefix(server).split("#")[0]
             for a in browser.find_elements(By.CSS_SELECTOR, "#search-results li > a")]
    return links, errors + _errors(browser)


@pytest.mark.parametrize("query, page", [
    ("detach", "auto_gallery/plot_1_clone_detach.html"),
    ("version", "concepts/version_counter.html"),
    ("版本计数", "concepts/version_counter.html"),
    ("视图", "concepts/storage_views.html"),
    ("叶子节点", "concepts/version_counter.html"),
    ("draw_storage", "generated/doctensor.viz.html"),
    ("requires_grad", "auto_gallery/plot_1_clone_detach.html"),
])
def test_search_finds_the_right_pages(browser, server, query, page):
    links, errors = _search(browser, server, query, "zh")
    assert not errors
    assert page in links[:10], f"{query!r}: {page} not among the first results {links[:10]}"


@pytest.mark.parametrize("lang, query", [("zh", "版本计数"), ("en", "version counter")])
def test_search_results_read_in_the_chosen_language(browser, server, lang, query):
    links, errors = _search(browser, server, query, lang)
    assert links and not errors
    assert not _stray(browser, lang)


def test_language_switch_is_remembered_and_follows_the_query(browser, server):
    page, other = GALLERY[1], GALLERY[2]
    _open(browser, server + page)
    browser.execute_script("window.localStorage.clear();")
    _open(browser, server + page)
    assert _lang(browser) == "zh"
    labels = browser.find_elements(By.CSS_SELECTOR, '.sd-tab-label[data-sync-group="lang"]')
    assert labels and not any(lb.is_displayed() for lb in labels), \
        "the per-passage tab bars give way to the global switch"

    browser.find_element(By.CSS_SELECTOR, '.dt-lang-btn[data-lang="en"]').click()
    assert _lang(browser) == "en" and not _stray(browser, "en")
    assert browser.execute_script(
        "return localStorage.getItem('sphinx-design-tab-id-lang');") == "en"

    _open(browser, server + other)  # remembered on another page
    assert _lang(browser) == "en"
    assert browser.find_element(
        By.CSS_SELECTOR, '.dt-lang-btn[data-lang="en"]').get_attribute("aria-pressed") == "true"

    _open(browser, server + page + "?lang=zh")  # the query wins over the stored choice
    assert _lang(browser) == "zh" and not _stray(browser, "zh")
    assert not _errors(browser)


def test_the_switch_works_on_a_phone(phone, server):
    assert not _open(phone, server + GALLERY[1] + "?lang=zh")
    assert phone.execute_script("return window.innerWidth;") <= 400
    button = next(b for b in phone.find_elements(By.CSS_SELECTOR, '.dt-lang-btn[data-lang="en"]')
                  if b.is_displayed())  # in the header, not behind the menu
    button.click()
    assert _lang(phone) == "en" and not _stray(phone, "en")
    assert not _errors(phone)


@pytest.mark.parametrize("page", GALLERY)
def test_gallery_page_shows_code_and_outputs(browser, server, page):
    assert not _open(browser, server + page)
    code = browser.find_elements(By.CSS_SELECTOR, "div.highlight-Python pre")
    outputs = browser.find_elements(By.CSS_SELECTOR, "div.sphx-glr-script-out pre")
    assert code and all(c.text.strip() for c in code[:3]), "no code shown"
    assert outputs and any(o.is_displayed() and o.text.strip() for o in outputs), "no output"
    assert not browser.find_elements(By.CSS_SELECTOR, ".sphx-glr-script-out .copybtn"), \
        "outputs must not get copy buttons"
    assert browser.find_elements(By.CSS_SELECTOR, "div.highlight-Python .copybtn")
    assert "Traceback (most recent call last)" not in " ".join(o.text for o in outputs)


def test_front_page_has_a_card_per_article_linking_to_its_page(browser, server):
    assert not _open(browser, server + "index.html?lang=en")
    cards = browser.find_elements(By.CSS_SELECTOR, ".dt-card")
    assert len(cards) == len(GALLERY)
    for card in cards:
        link = card.find_element(By.CSS_SELECTOR, ".dt-card-title a")
        target = link.get_attribute("href").removeprefix(server).split("#")[0]
        assert target in GALLERY and (SITE / target).exists()
        assert link.text.strip() and "verified outputs" in card.text
        assert card.find_elements(By.CSS_SELECTOR, ".dt-card-question")
    assert sum(bool(c.find_elements(By.CSS_SELECTOR, ".dt-diagram svg")) for c in cards) >= \
        len(GALLERY) // 2, "most cards show a picture drawn from the page's live objects"
    facts = browser.find_element(By.CSS_SELECTOR, ".dt-facts").text
    assert re.search(r"Verified: \d+ printed outputs on \d+ pages", facts), facts


@pytest.mark.parametrize("page", GALLERY)
def test_read_the_implementation_links_reach_the_source(page):
    html = (SITE / page).read_text(encoding="utf-8")
    box = re.search(r'<div class="dt-impl.*?</ul>', html, re.S)
    assert box, "no 'read the implementation' box"
    links = re.findall(r'href="\.\./(_modules/[^"#]+)#([^"]+)"', box.group())
    assert links
    for target, anchor in links:
        source = (SITE / target).read_text(encoding="utf-8")
        assert f'id="{anchor}"' in source, f"{target} has no anchor {anchor}"


def test_the_browser_splits_a_query_as_the_index_was_split(browser, server):
    import search_zh  # docs/_ext, added to sys.path below

    _open(browser, server + "search.html")
    for text in ["版本计数器", "叶子节点 与 requires_grad", "detach_() 视图"]:
        assert browser.execute_script("return splitQuery(arguments[0]);", text) == \
            search_zh.split(text)


def test_without_javascript_both_languages_show_with_their_tab_bars(server):
    driver = _driver(1280, javascript=False)
    try:
        driver.get(server + GALLERY[1])
        labels = driver.find_elements(By.CSS_SELECTOR, '.sd-tab-label[data-sync-group="lang"]')
        assert labels and labels[0].value_of_css_property("display") != "none"
        title = driver.find_element(By.CSS_SELECTOR, "h1")
        assert " / " in title.text
        for lang in ("zh", "en"):
            span = title.find_element(By.CSS_SELECTOR, f".dt-{lang}")
            assert span.value_of_css_property("display") != "none"
    finally:
        driver.quit()


def test_errata_list_names_each_erratum_and_its_page(browser, server):
    assert not _open(browser, server + "errata.html?lang=en")
    items = browser.find_elements(By.CSS_SELECTOR, "ul.errata-list > li")
    assert len(items) >= 10
    pages = {_title(p) for p in GALLERY}
    for item in items:  # "<erratum> — <article> (<page title>)"
        assert any(item.text.strip().endswith(f"({t})") for t in pages), item.text
        link = item.find_element(By.CSS_SELECTOR, "a")
        target = link.get_attribute("href").removeprefix(server)
        assert (SITE / target.split("#")[0]).exists()
    assert not _stray(browser, "en")
