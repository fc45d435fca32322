"""The docs site in headless Chromium: switch language, search "sluzacy", reach the servant entry,
open a worked example and see its verified result; served with the API and as static files."""
import http.server
import shutil
import threading
from pathlib import Path

import pytest

from tests.server import Server
from tests.test_site import build_site

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="module")
def site_dir(tmp_path_factory, real_db):
    tmp = tmp_path_factory.mktemp("site")
    done = build_site(tmp, real_db)
    assert done.returncode == 0, done.stderr
    return tmp / "out"


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
    page.wait_for_url(f"{root}/pl/search/?q=inwazja+mongolw")
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
