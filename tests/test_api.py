"""The HTTP API: lookups, search, languages and problem+json errors."""
import shutil
import time
from pathlib import Path

import pytest
import yaml
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

from api.app import create_app
from cli.build import build
from i18n.locale import negotiate
from kb.db import RECHECK_SECONDS
from tests.conftest import JADE

PROBLEM = "application/problem+json"


@pytest.fixture(scope="module")
def client(fixture_db):
    return TestClient(create_app(fixture_db, site_dir=None))


def test_games_list_editions_sources_and_counts(client):
    body = client.get("/api/v1/games").json()
    assert body["object"] == "list" and body["total"] == 1 and body["has_more"] is False and body["next"] is None
    (g,) = body["data"]
    assert g["id"] == "gugong"
    assert g["editions"][0]["sources"] == ["gugong-cs", "gugong-pl"]
    assert {s["original"] for s in g["sources"]} == {"000_1241c42904c87e79.txt", "001_217b0fe02e2cc47c.txt"}
    assert g["counts"]["by_kind"]["term"] == 3


def test_entity_lookup_by_path_id_with_language(client):
    r = client.get("/api/v1/entities/gugong/location/jade", params={"lang": "cs"})
    body = r.json()
    assert r.status_code == 200
    assert body["texts"]["name"] == [{"lang": "cs", "text": "Nefrit", "origin": "translated"}]
    assert body["fallbacks"] == {"body": "en"}  # no Czech body: English shown, and said
    assert body["provenance"][0] == {"attr": "market_price", "basis": "text", "source": "gugong-pl",
                                     "lines": [[675, 676]]}


def test_accept_language_picks_the_language(client):
    r = client.get("/api/v1/entities", params={"game": "gugong", "kind": "term"},
                   headers={"Accept-Language": "de-DE, cs-CZ;q=0.8, pl;q=0.5"})
    assert r.json()["lang"] == "cs"
    assert {i["name"] for i in r.json()["data"]} == {"služebník", "dvojitý služebník", "nefrit"}


@pytest.mark.parametrize("header, lang", [
    ("pl-PL", "pl"), ("en-GB,en;q=0.9", "en"), ("fr, cs;q=0.1", "cs"), ("cs;q=0, pl;q=0.2", "pl"),
    ("*", "en"), ("", "en"), ("pl;q=abc", "en"), (";;;,,,", "en"),
])
def test_accept_language_parsing(header, lang):
    assert negotiate(header) == lang


def test_search_endpoint(client):
    body = client.get("/api/v1/search", params={"q": "SŁUŻĄCY", "game": "gugong"}).json()
    assert body["data"][0]["id"] == "gugong/term/servant"
    assert body["total"] >= 2


@pytest.mark.parametrize("path, status", [
    ("/api/v1/games/monopoly", 404), ("/api/v1/entities/gugong/term/emperor", 404),
    ("/api/v1/search?q=x&limit=0", 422), ("/api/v1/search", 422), ("/api/v1/entities?lang=de", 422),
    ("/api/v1/entities?limit=-1", 422), ("/api/v1/nowhere", 404), ("/api/v1/search?q=" + "x" * 600, 422),
])
def test_bad_requests_are_problem_documents(client, path, status):
    r = client.get(path)
    assert r.status_code == status
    assert r.headers["content-type"] == PROBLEM
    assert r.json()["status"] == status and r.json()["detail"]


def test_missing_database_is_a_503_problem(tmp_path):
    c = TestClient(create_app(f"sqlite:///{tmp_path / 'none.db'}", site_dir=None))
    r = c.get("/api/v1/games")
    assert r.status_code == 503 and "rulekb build" in r.json()["detail"]


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_a_search_index_that_cannot_be_read_is_a_503_problem(backend, tmp_path, request, fixture_kb):
    """The search reads its index from the database once per build (kb/search.py); when it cannot,
    the client gets the database's 503, never a 500."""
    if backend == "sqlite":
        url = f"sqlite:///{tmp_path / 'kb.db'}"
        shutil.copy(request.getfixturevalue("fixture_db").removeprefix("sqlite:///"), tmp_path / "kb.db")
    else:
        url = request.getfixturevalue("new_pg_url")
        build(url, kb=fixture_kb)
    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(text("DROP TABLE searchlex"))
    engine.dispose()
    r = TestClient(create_app(url, site_dir=None)).get("/api/v1/search?q=servant")
    assert r.status_code == 503 and r.headers["content-type"] == PROBLEM


def test_error_messages_follow_the_language(client):
    r = client.get("/api/v1/entities/gugong/term/emperor", headers={"Accept-Language": "pl-PL"})
    assert r.json()["detail"] == "Nie ma hasła o identyfikatorze gugong/term/emperor."
    assert r.headers["content-language"] == "pl"
    r = client.get("/api/v1/games/monopoly", params={"lang": "cs"})
    assert r.json()["title"] == "Nenalezeno"


def test_openapi_document_lists_the_paths(client):
    paths = client.get("/api/v1/openapi.json").json()["paths"]
    assert {"/api/v1/games", "/api/v1/games/{game}", "/api/v1/entities", "/api/v1/entities/{entity_id}",
            "/api/v1/search"} <= set(paths)


def test_site_is_served_beside_the_api(tmp_path, fixture_db):
    (tmp_path / "index.html").write_text("<h1>rulekb</h1>", encoding="utf-8")
    (tmp_path / "assets" / "javascripts").mkdir(parents=True)
    (tmp_path / "assets" / "rulekb.css").write_text("h1 {}", encoding="utf-8")
    (tmp_path / "assets" / "javascripts" / "bundle.5cf3e710.min.js").write_text("//", encoding="utf-8")
    c = TestClient(create_app(fixture_db, site_dir=tmp_path))
    page = c.get("/")
    assert "rulekb" in page.text and page.headers["cache-control"] == "no-cache"  # a rebuild changes pages
    assert c.get("/api/v1/games").status_code == 200
    assert c.get("/assets/rulekb.css").headers["cache-control"] == "public, max-age=86400"
    assert "immutable" in c.get("/assets/javascripts/bundle.5cf3e710.min.js").headers["cache-control"]


@pytest.fixture(scope="module")
def real_client(real_db):
    return TestClient(create_app(real_db, site_dir=None))


def test_compare_shows_both_editions_side_by_side_with_findings(real_client):
    body = real_client.get("/api/v1/compare/dragon/action/privilege", params={"editions": "2007,2017"}).json()
    assert set(body["fields"]["body"]) == {"dragon-2007-pl", "dragon-2017-pl"}
    assert any(f["check"] == "edition-value" and "6 in 2007, 7 in 2017" in f["message"] for f in body["findings"])


def test_compare_rejects_a_language_the_game_has_no_source_for(real_client):
    r = real_client.get("/api/v1/compare/dragon/action/privilege", params={"langs": "pl,cs"})
    assert r.status_code == 422 and "dragon has no source for cs" in r.json()["detail"]
    assert real_client.get("/api/v1/compare/dragon/action/privilege", params={"langs": "pl;cs"}).status_code == 422


def test_discrepancies_paginate_with_next_links(real_client):
    first = real_client.get("/api/v1/discrepancies", params={"game": "gugong", "severity": "medium", "limit": 5}).json()
    assert first["total"] > 5 and len(first["data"]) == 5 and first["next"] and first["has_more"]
    second = real_client.get(first["next"]).json()
    assert "offset=5" in first["next"] and {i["key"] for i in second["data"]}.isdisjoint({i["key"] for i in first["data"]})
    assert real_client.get("/api/v1/discrepancies", params={"severity": "huge"}).status_code == 422


def test_knowledge_base_responses_carry_etag_and_answer_304(client):
    r = client.get("/api/v1/games")
    assert r.headers["cache-control"].startswith("public") and r.headers["etag"]
    again = client.get("/api/v1/games", headers={"If-None-Match": r.headers["etag"]})
    assert again.status_code == 304 and again.content == b""
    other = client.get("/api/v1/games", headers={"If-None-Match": '"stale"'})
    assert other.status_code == 200


def test_an_answer_asked_for_again_comes_gzipped_with_the_same_etag(real_client):
    """The first answer is sent as computed; the second, to a client that accepts gzip, compressed."""
    url, gz = "/api/v1/search?q=s%C5%82u%C5%BC%C4%85cy&limit=37", {"Accept-Encoding": "gzip"}  # asked by no other test
    first, second = real_client.get(url, headers=gz), real_client.get(url, headers=gz)
    assert "content-encoding" not in first.headers and second.headers["content-encoding"] == "gzip"
    assert first.headers["etag"] == second.headers["etag"] and first.json() == second.json()
    assert int(second.headers["content-length"]) < len(first.content) / 2
    plain = real_client.get(url, headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers and plain.content == first.content


def test_cors_allows_browser_apps(client):
    r = client.options("/api/v1/games", headers={"Origin": "https://example.org", "Access-Control-Request-Method": "GET"})
    assert r.status_code == 200 and r.headers["access-control-allow-origin"] in ("*", "https://example.org")


def test_request_bodies_are_limited(client):
    r = client.post("/api/v1/sessions", content=b"x" * 70_000, headers={"content-type": "application/json"})
    assert r.status_code == 413 and r.headers["content-type"] == "application/problem+json"


def test_lists_give_next_links(client):
    body = client.get("/api/v1/entities", params={"limit": 2}).json()
    assert body["total"] > 2 and "offset=2" in body["next"]


def test_streamed_bodies_are_limited_too(client):
    def chunks():
        for _ in range(20):
            yield b"x" * 8192
    r = client.post("/api/v1/scenarios/run", content=chunks(), headers={"content-type": "application/json"})
    assert r.status_code == 413


def test_the_engines_read_the_rule_set_of_the_database_the_api_serves(tmp_path, rules_database):
    """An app serving another database (create_app's database_url, not RULEKB_DATABASE_URL) runs its
    scenarios and sessions over that database's rule set: here one whose small privilege costs 3."""
    import shutil
    import sqlite3
    from contextlib import closing

    from kb import ruleset
    from kb.db import sqlite_path

    other = tmp_path / "other.db"
    shutil.copy(sqlite_path(rules_database), other)
    with closing(sqlite3.connect(other)) as conn:
        doc = ruleset.loads(conn.execute("SELECT document FROM ruleset WHERE game_id = 'dragon'").fetchone()[0])
        doc["entities"]["dragon/action/privilege"]["attrs"]["small_price"] = 3
        conn.execute("UPDATE ruleset SET document = ? WHERE game_id = 'dragon'", (ruleset.dumps(doc),))
        conn.commit()
    scenario = yaml.safe_load((Path(__file__).parent.parent / "kb/data/dragon/scenarios/privilege-one-per-action.yaml")
                              .read_text(encoding="utf-8"))
    yuan = {}
    for name, url in (("served by default", rules_database), ("other", f"sqlite:///{other}")):
        c = TestClient(create_app(url, site_dir=None, sessions_url=f"sqlite:///{tmp_path / (name + '.db')}"))
        r = c.post("/api/v1/scenarios/run", json={**scenario, "expect": []})
        assert r.status_code == 200, r.text
        yuan[name] = r.json()["state_after"]["players"]["Anna"]["yuan"]
    assert yuan == {"served by default": 7, "other": 6}


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_a_new_build_is_looked_up_and_searched_within_seconds(request, backend, tmp_path, fixture_kb,
                                                              fixture_kb_without_jade):
    """A server keeps answering while `rulekb build` replaces its knowledge base, and within
    RECHECK_SECONDS serves the new build: lookups, and the search index it holds in memory."""
    url = f"sqlite:///{tmp_path / 'kb.db'}" if backend == "sqlite" else request.getfixturevalue("new_pg_url")
    build(url, kb=fixture_kb_without_jade)
    with TestClient(create_app(url, site_dir=None)) as c:
        assert c.get(f"/api/v1/entities/{JADE}").status_code == 404
        assert JADE not in [h["id"] for h in c.get("/api/v1/search", params={"q": "nefrit"}).json()["data"]]
        build(url, kb=fixture_kb)
        time.sleep(RECHECK_SECONDS + 0.2)
        assert c.get(f"/api/v1/entities/{JADE}").status_code == 200
        assert JADE in [h["id"] for h in c.get("/api/v1/search", params={"q": "nefrit"}).json()["data"]]


def test_an_entity_in_polish_or_czech_carries_its_english_notes_translated_beside_them(real_client):
    """?lang=pl|cs adds each English note's translation next to it (the English keys keep their values)."""
    all_langs = real_client.get("/api/v1/entities/gugong/decree/l1-intrigue").json()
    cost = next(p for p in all_langs["provenance"] if p["basis"] == "assumption")
    assert "reference_translated" not in cost  # no language asked: the document as stored
    for lang, start, repair in (("pl", "koszt wydrukowany na dekrecie", "OCR połączyło liczbę ze słowem"),
                                ("cs", "cena vytištěná na dekretu", None)):  # the Czech text needed no repair
        body = real_client.get("/api/v1/entities/gugong/decree/l1-intrigue", params={"lang": lang}).json()
        note = next(p for p in body["provenance"] if p["basis"] == "assumption")
        assert note["reference"] == cost["reference"] and note["reference_translated"].startswith(start)
        assert "gugong/unknown/decree-costs" in note["reference_translated"]  # the id, for a client to link
        repairs = [item["repair_translated"] for items in body["texts"].values() for item in items
                   if "repair_translated" in item]
        assert [r for r in repairs if r.startswith(repair)] if repair else repairs == []
    english = real_client.get("/api/v1/entities/gugong/decree/l1-intrigue", params={"lang": "en"}).json()
    assert not any("reference_translated" in p for p in english["provenance"])
