"""The docs site in headless Chromium: switch language, search "sluzacy", reach the servant entry,
open a worked example and see its verified result; served with the API and as static files."""
import http.server
import re
import shutil
import threading
from pathlib import Path
from urllib.parse import urljoin

import pytest

from tests.server import Server

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="module")
def site_dir(real_site):
    return real_site


@pytest.fixture(scope="module")
def browser():
    if not CHROMIUM:
        pytest.skip("Chromium is not installed (Debian package chromium; `make test` installs it as root)")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


def looks_like_content(png: Path) -> bool:
    """A screenshot of a real page is a sizeable PNG; a blank one compresses to almost nothing."""
    return png.stat().st_size > 25_000


def test_served_site_language_search_and_verified_example(browser, site_dir, real_db, tmp_path):
    server = Server(real_db, f"sqlite:///{tmp_path / 's.db'}", site=str(site_dir))
    try:
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto(f"{server.url}/en/")
        assert "rules reference" in page.inner_text("h1")
        page.click("p.rk-switch >> text=Polski")
        page.wait_for_url(f"{server.url}/pl/")
        assert "kompendium zasad" in page.inner_text("h1")
        page.click("p.rk-switch >> text=Szukaj")
        page.fill("#rk-search input[name=q]", "sluzacy")
        page.click("#rk-search button[type=submit]")
        first = page.wait_for_selector("#rk-results li a")
        assert page.get_attribute("#rk-results", "data-mode") == "api"
        assert first.inner_text() == "Służący"
        page.screenshot(path=str(tmp_path / "search.png"))
        first.click()
        page.wait_for_url(f"{server.url}/pl/gugong/glossary/#servant")
        row = page.locator("#servant").locator("xpath=ancestor::tr").inner_text()
        assert "Służący" in row and "služebník" in row and "servant" in row
        page.screenshot(path=str(tmp_path / "servant.png"))
        page.goto(f"{server.url}/pl/gugong/examples/")
        assert "Sprawdzone przez silnik" in page.inner_text("article")
        page.screenshot(path=str(tmp_path / "example.png"), full_page=True)
        for shot in ("search.png", "servant.png", "example.png"):
            assert looks_like_content(tmp_path / shot), shot
    finally:
        server.stop()


def test_static_site_searches_its_folded_index(browser, site_dir):
    handler = lambda *a, **kw: http.server.SimpleHTTPRequestHandler(*a, directory=str(site_dir), **kw)
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        page = browser.new_page()
        page.goto(f"http://127.0.0.1:{httpd.server_port}/cs/search/")
        page.fill("#rk-search input[name=q]", "SLUZEBNIK")
        page.click("#rk-search button[type=submit]")
        first = page.wait_for_selector("#rk-results li a")
        assert page.get_attribute("#rk-results", "data-mode") == "static"
        assert first.inner_text().lower().startswith("služebník")
        first.click()
        page.wait_for_url(f"http://127.0.0.1:{httpd.server_port}/cs/gugong/glossary/#servant")
        assert "služebník" in page.locator("#servant").locator("xpath=ancestor::tr").inner_text()
    finally:
        httpd.shutdown()


def _header_search_lands_on_the_entry(page, root: str, mode: str):
    """From a game page, type a Polish query without diacritics and with a typo into the header box."""
    page.goto(f"{root}/pl/dragon/")
    box = page.locator("#rk-header-search input[name=q]")
    assert box.get_attribute("placeholder") == "Szukaj"
    box.fill("inwazja mongolw")  # Inwazja Mongołów: no ł or ó, and a letter missing
    box.press("Enter")
    page.wait_for_url(f"{root}/pl/search/?q=inwazja+mongolw&game=dragon")  # the page's game goes along
    first = page.wait_for_selector("#rk-results li a")
    assert page.get_attribute("#rk-results", "data-mode") == mode
    assert first.inner_text() == "Inwazja Mongołów"
    assert page.locator("#rk-results li").first.locator("mark").count() >= 1  # matched words marked
    first.click()
    page.wait_for_url(f"{root}/pl/dragon/event/#mongol-invasion")


def test_header_box_finds_an_entry_typed_without_diacritics_and_with_a_typo(browser, site_dir, real_db, tmp_path):
    server = Server(real_db, f"sqlite:///{tmp_path / 's.db'}", site=str(site_dir))
    try:
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        _header_search_lands_on_the_entry(page, server.url, "api")
        page.goto(f"{server.url}/pl/search/?q=inwazja+mongolw")
        page.wait_for_selector("#rk-results li a")
        page.screenshot(path=str(tmp_path / "header-search.png"))
        assert looks_like_content(tmp_path / "header-search.png")
    finally:
        server.stop()


def test_header_box_works_on_the_static_site(browser, site_dir):
    handler = lambda *a, **kw: http.server.SimpleHTTPRequestHandler(*a, directory=str(site_dir), **kw)
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        _header_search_lands_on_the_entry(browser.new_page(), f"http://127.0.0.1:{httpd.server_port}", "static")
    finally:
        httpd.shutdown()

# -- the reference site as a reader meets it: one static server for the module, pages opened once

@pytest.fixture(scope="module")
def static_url(site_dir):
    handler = lambda *a, **kw: QuietHandler(*a, directory=str(site_dir), **kw)  # noqa: E731
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_port}"
    httpd.shutdown()


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def test_no_page_shows_raw_data_or_escaped_entities(site_dir):
    from tests.site_checks import raw_data, visible_text

    pages = list(site_dir.rglob("*.html"))
    # the app developers' guide shows requests and answers: there JSON is the subject, not leaked data
    raw = {p.relative_to(site_dir).as_posix(): raw_data(visible_text(p.read_text(encoding="utf-8")))[:2]
           for p in pages if not p.relative_to(site_dir).as_posix().startswith("developers/")}
    assert len(pages) > 150
    assert {k: v for k, v in raw.items() if v} == {}


def test_no_page_is_heavier_than_200_kb(site_dir):
    sizes = {p.relative_to(site_dir).as_posix(): p.stat().st_size for p in site_dir.rglob("*.html")}
    assert {k: v for k, v in sizes.items() if v > 200 * 1024} == {}


def test_each_language_is_a_whole_site(browser, static_url):
    page = browser.new_page()
    for lang, toc, search in (("pl", "Spis treści", "Szukaj"), ("cs", "Obsah", "Hledat"), ("en", "Table of contents", "Search")):
        page.goto(f"{static_url}/{lang}/gugong/location/")
        assert page.get_attribute("html", "lang") == lang
        assert page.locator(".md-sidebar--secondary .md-nav__title").first.inner_text().strip() == toc
        # the navigation shows this language only
        tabs = page.locator(".md-tabs__link").all_inner_texts()
        assert not {"English", "Polski", "Čeština"} & {x.strip() for x in tabs}
    page.close()


@pytest.mark.parametrize("width", [360, 1280])
def test_clicking_the_language_menu_keeps_the_page_and_the_entry(browser, static_url, width):
    """The reader clicks the header's language menu (no goto): the same page, the same entry, the
    other language — with no request for a sitemap the site does not have."""
    page = browser.new_page(viewport={"width": width, "height": 800})
    missing = []
    page.on("response", lambda r: missing.append(r.url) if r.status >= 400 else None)
    page.goto(f"{static_url}/pl/gugong/decree/#l1-servant")
    page.click(".md-header .md-select button")
    with page.expect_navigation():
        page.click(".md-header .md-select__link[hreflang=cs]")
    assert page.url == f"{static_url}/cs/gugong/decree/#l1-servant"
    assert page.get_attribute("html", "lang") == "cs" and "Dekret" in page.inner_text("h1")
    # and back, from a page without an anchor, through the language line under the title
    page.goto(f"{static_url}/cs/dragon/event/")
    with page.expect_navigation():
        page.click("p.rk-switch a[hreflang=en]")
    assert page.url == f"{static_url}/en/dragon/event/"
    page.click(".md-header .md-select button")
    with page.expect_navigation():
        page.click(".md-header .md-select__link[hreflang=pl]")
    assert page.url == f"{static_url}/pl/dragon/event/"
    assert missing == []
    page.close()


def test_an_effect_links_to_the_entity_it_names(browser, static_url):
    page = browser.new_page()
    page.goto(f"{static_url}/en/gugong/decree/")
    effect = page.locator("#l1-ship ~ p.rk-effect").first
    assert "port reward" in effect.inner_text()
    effect.locator("a", has_text="port reward").first.click()
    page.wait_for_load_state()
    assert "/en/gugong/rule" in page.url and "#" in page.url
    # the rule it lands on lists the decree among what refers to it
    target = page.url.rsplit("#", 1)[1]
    assert page.locator(f"#{target}").count() == 1
    page.close()


@pytest.mark.parametrize("lang, label, not_rules", [("cs", "Hráči se ptají", "není to text pravidel"),
                                                    ("pl", "Gracze pytają", "nie tekst instrukcji"),
                                                    ("en", "Players ask", "not rulebook text")])
def test_an_entry_shows_the_questions_players_ask_it_collapsed_in_the_page_language(browser, static_url, lang, label,
                                                                                    not_rules):
    import yaml

    from kb.search import PLAYER_QUESTIONS
    asked = yaml.safe_load(PLAYER_QUESTIONS.read_text(encoding="utf-8"))["entries"]["dragon/rule/decay"][lang]
    page = browser.new_page()
    page.goto(f"{static_url}/{lang}/dragon/rule/")
    box = page.locator("#decay ~ details.rk-asked").first
    summary = box.locator("summary")
    assert label in summary.inner_text() and not_rules in summary.inner_text()
    assert not box.locator("p").is_visible()  # collapsed: search data, not the rule
    summary.click()
    assert box.locator("p").is_visible() and asked[0] in box.locator("p").inner_text()
    page.close()


def test_pages_fit_a_360_px_phone(browser, static_url):
    page = browser.new_page(viewport={"width": 360, "height": 740})
    for path in ("/pl/", "/pl/gugong/", "/pl/gugong/token/", "/cs/zhanguo/unknowns/", "/pl/dragon/aid/",
                 "/pl/gugong/glossary/", "/pl/gugong/examples/", "/sources/gugong-pl/"):
        page.goto(static_url + path)
        assert page.evaluate("document.documentElement.scrollWidth") <= 360, path
    # a worked example's verdict and what the example states are in view without scrolling the table
    page.goto(static_url + "/pl/gugong/examples/")
    table = page.locator("article .rk-table table").first
    verdict = table.locator("tbody tr td").first
    stated = table.locator("thead th").nth(2)
    assert verdict.inner_text().strip() == "✔" and stated.inner_text().strip() == "Według przykładu"
    assert verdict.bounding_box()["x"] + verdict.bounding_box()["width"] <= 360
    assert stated.bounding_box()["x"] + stated.bounding_box()["width"] <= 360
    page.close()


# A4 less the 10 mm margins (site/docs/assets/rulekb.css @page), in CSS pixels
A4_WIDTH, A4_HEIGHT = 718, 1047


def test_the_player_aid_prints_on_two_a4_pages_page_one_used(browser, static_url, tmp_path):
    """Printed, each aid is two A4 pages: page 1 the setup checklist, the round's flow and the numbers
    (used for most of its height), page 2 the tables of what actions, decrees, events and persons do."""
    page = browser.new_page(viewport={"width": A4_WIDTH, "height": A4_HEIGHT})
    fill = {}
    for game in ("gugong", "dragon", "zhanguo"):
        for lang in ("pl", "cs", "en"):
            page.goto(f"{static_url}/{lang}/{game}/aid/")
            pdf = page.pdf(format="A4", print_background=True)
            pages = len(re.findall(rb"/Type\s*/Page[^s]", pdf))
            assert pages == 2, (game, lang, pages)
            page.emulate_media(media="print")  # the layout on paper, measured
            first, second = page.evaluate("""() => {
                const [a, b] = document.querySelectorAll('.rk-aid-col');
                const top = document.querySelector('article').getBoundingClientRect().top;
                return [a.getBoundingClientRect().bottom - top, b.getBoundingClientRect().height]; }""")
            fill[(game, lang)] = (round(first / A4_HEIGHT, 2), round(second / A4_HEIGHT, 2))
        (tmp_path / f"aid-{game}.pdf").write_bytes(pdf)
    print("print aids, page 1 and page 2 used:", fill)  # the closing note's figures (pytest -s)
    assert all(0.6 <= one <= 1 and two <= 1 for one, two in fill.values()), fill
    page.goto(f"{static_url}/pl/gugong/aid/")
    headings = page.locator("article h2").all_inner_texts()
    assert {"Przygotowanie gry", "Przebieg rundy", "Akcje", "Dekrety"} <= {h.strip(" ¶") for h in headings}
    assert page.locator("ul.rk-checklist li").count() >= 10
    # the Day phase lists every location among the actions, with what it does (not the flavour text)
    actions = page.locator("xpath=//h2[starts-with(normalize-space(), 'Akcje')]/following-sibling::div[1]").inner_text()
    for where in ("Pałac", "Dekrety", "Wielki Kanał"):
        assert where in actions
    page.goto(f"{static_url}/pl/dragon/aid/")
    headings = {h.strip(" ¶") for h in page.locator("article h2").all_inner_texts()}
    assert {"Wydarzenia", "Postacie"} <= headings
    page.close()


def test_diagrams_are_drawn_in_every_language(browser, static_url):
    page = browser.new_page()
    for lang in ("en", "pl", "cs"):
        for game in ("gugong", "dragon", "zhanguo"):
            page.goto(f"{static_url}/{lang}/{game}/")
            flow = page.locator("svg.rk-diagram.flow")
            assert flow.count() == 1 and flow.bounding_box()["height"] > 100, (lang, game)
            assert page.locator("svg.rk-diagram.scoring rect.bar").count() >= 2, (lang, game)
        titles = page.locator("svg.rk-diagram title").all_text_contents()
        assert titles and all(t.strip() for t in titles)
    page.close()


@pytest.mark.parametrize("width", [360, 1280])
def test_header_search_on_a_game_page_searches_that_game_in_the_page_language(browser, site_dir, real_db, tmp_path,
                                                                              width):
    """Typed into the header box of a Gugong page, "remis" finds Gugong's tie-break (not Dragon's) with a
    Polish snippet, from the API alone (no static index fetched); a click on the result opens it; the
    result page offers all games; a query that finds nothing says so."""
    server = Server(real_db, f"sqlite:///{tmp_path / 's.db'}", site=str(site_dir))
    try:
        page = browser.new_page(viewport={"width": width, "height": 800})
        fetched = []
        page.on("request", lambda r: fetched.append(r.url))
        page.goto(f"{server.url}/pl/gugong/")
        page.click("#rk-header-search input[name=q]")
        page.keyboard.type("remis")
        page.keyboard.press("Enter")
        page.wait_for_url(f"{server.url}/pl/search/?q=remis&game=gugong")
        first = page.wait_for_selector("#rk-results li a")
        assert page.get_attribute("#rk-results", "data-mode") == "api"
        metas = page.locator("#rk-results .rk-meta").all_inner_texts()
        assert metas and all("Gugong" in m for m in metas), metas
        assert "Zasady" in metas[0] or "Lokacje" in metas[0]  # the kind named in Polish, not "rule"
        assert "remis" in page.locator("#rk-results li .rk-snippet").first.inner_text().lower()
        assert page.locator("#rk-scope").is_visible() and "Gugong" in page.inner_text("#rk-scope")
        assert not [u for u in fetched if "/assets/search-" in u]  # the API answered: no 545 KB index
        first.click()
        page.wait_for_load_state()
        assert f"{server.url}/pl/gugong/" in page.url and "#" in page.url
        target = page.url.rsplit("#", 1)[1]
        assert page.locator(f"[id='{target}']").count() == 1
        # from the result page to every game
        page.goto(f"{server.url}/pl/search/?q=remis&game=gugong")
        page.wait_for_selector("#rk-results li a")
        page.click("#rk-scope a")
        page.wait_for_url(f"{server.url}/pl/search/?q=remis")
        page.wait_for_selector("#rk-results li a")
        games = {m.split("·")[0].strip(" —") for m in page.locator("#rk-results .rk-meta").all_inner_texts()}
        assert len(games) > 1, games
        # nothing found: said in the page's language, no "0–0 / 0"
        page.goto(f"{server.url}/cs/search/?q=qqqzzzxxx")
        page.wait_for_selector("#rk-none", state="visible")
        assert page.inner_text("#rk-none") == "Nic nenalezeno." and page.locator("#rk-count").is_hidden()
        assert page.locator("#rk-results li").count() == 0
        page.close()
    finally:
        server.stop()
