"""Game sessions over HTTP: persisted, replayable, safe under concurrency (SQLite and PostgreSQL)."""
import threading

import pytest
from fastapi.testclient import TestClient
from sqlmodel import Session

from api.app import create_app
from api.store import PlaySession
from engine.core import game as core_game


@pytest.fixture(autouse=True)
def toy_engine(monkeypatch):
    monkeypatch.setitem(core_game.ENGINES, "race", "tests.test_engine_core:Race")


@pytest.fixture(params=["sqlite", "postgresql"])
def sessions_url(request, tmp_path):
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'sessions.db'}"
    return request.getfixturevalue("pg_schema_url")


def client(fixture_db, sessions_url):
    return TestClient(create_app(fixture_db, site_dir=None, sessions_url=sessions_url))


def new(c, **kw):
    body = {"game": "race", "players": ["A", "B"], "seed": 5, **kw}
    r = c.post("/api/v1/sessions", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def as_seat(session, name):
    token = next(seat["token"] for seat in session["seats"] if seat["name"] == name)
    return {"Authorization": f"Bearer {token}"}


def as_owner(session):
    return {"Authorization": f"Bearer {session['owner_token']}"}


def act(c, s, player, n, **kw):
    return c.post(f"/api/v1/sessions/{s['id']}/actions", json={"action": {"type": "add", "player": player, "n": n}, **kw},
                  headers=as_seat(s, player))


def test_create_play_and_reject(fixture_db, sessions_url):
    c = client(fixture_db, sessions_url)
    s = new(c)
    assert len(s["id"]) >= 24 and s["current_player"] == "A" and s["version"] == 0
    ok = act(c, s, "A", 2)
    assert ok.status_code == 200 and ok.json()["version"] == 1
    bad = act(c, s, "A", 1)
    assert bad.status_code == 422 and bad.json()["rule"] == "race/rule/turn-order"
    assert c.get(f"/api/v1/sessions/{s['id']}").json()["version"] == 1  # nothing changed
    malformed = c.post(f"/api/v1/sessions/{s['id']}/actions", json={"action": {"n": 1, "player": "B"}},
                       headers=as_seat(s, "B"))
    assert malformed.status_code == 422 and malformed.headers["content-type"] == "application/problem+json"
    acts = c.get(f"/api/v1/sessions/{s['id']}/actions", headers=as_seat(s, "B")).json()
    assert [h["action"]["n"] for h in acts["data"]] == [2]
    assert {a["player"] for a in acts["legal"]} == {"B"}


def test_bad_session_requests_are_4xx(fixture_db, sessions_url):
    c = client(fixture_db, sessions_url)
    assert c.get("/api/v1/sessions/doesnotexist123").status_code == 404
    assert c.get("/api/v1/sessions/../../etc").status_code == 404
    assert c.post("/api/v1/sessions", json={"game": "chess", "players": ["A"]}).status_code == 422
    assert c.post("/api/v1/sessions", json={"game": "race", "players": ["A", "A"]}).status_code == 422
    assert c.post("/api/v1/sessions", json={"game": "race", "players": ["A"], "seats": {"Z": "random"}}).status_code == 422
    assert c.post("/api/v1/sessions", json={"game": "race", "players": ["A"], "hack": 1}).status_code == 422
    assert c.post("/api/v1/sessions", content=b"{not json", headers={"content-type": "application/json"}).status_code == 400


def test_random_seats_move_by_themselves(fixture_db, sessions_url):
    c = client(fixture_db, sessions_url)
    s = new(c, seats={"B": "random"})
    after = act(c, s, "A", 1).json()
    assert after["current_player"] in ("A", None) and after["version"] == 2
    hist = c.get(f"/api/v1/sessions/{s['id']}/actions").json()["data"]
    assert [h["by"] for h in hist] == ["human", "random"]


def test_sessions_survive_a_restart_and_replay(fixture_db, sessions_url):
    c = client(fixture_db, sessions_url)
    s = new(c)
    for player in ("A", "B", "A"):
        act(c, s, player, 1)
    before = c.get(f"/api/v1/sessions/{s['id']}", headers=as_owner(s)).json()
    restarted = client(fixture_db, sessions_url)  # a new application on the same database
    after = restarted.get(f"/api/v1/sessions/{s['id']}", params={"replay": True}, headers=as_owner(s)).json()
    assert after["state"] == before["state"] and after["version"] == 3 and after["replay_matches"] is True


@pytest.mark.parametrize("bad", [float("nan"), "\ud800"], ids=["nan", "lone-surrogate"])
def test_a_state_that_cannot_be_stored_is_refused_and_the_session_keeps_its_last(fixture_db, sessions_url,
                                                                                 monkeypatch, bad):
    """An engine whose new state holds what JSON text cannot hold: 422, nothing written, still playable."""
    c = client(fixture_db, sessions_url)
    s = new(c)
    assert act(c, s, "A", 1).status_code == 200
    race = core_game.get_game("race")
    apply = type(race).apply

    def spoiled(self, state, action):
        state, events = apply(self, state, action)
        return {**state, "spoiled": bad}, events

    monkeypatch.setattr(type(race), "apply", spoiled)
    refused = act(c, s, "B", 2)
    assert refused.status_code == 422 and refused.json()["field"] == "state"
    monkeypatch.setattr(type(race), "apply", apply)
    after = c.get(f"/api/v1/sessions/{s['id']}", headers=as_owner(s)).json()
    assert after["version"] == 1 and "spoiled" not in after["state"]
    assert act(c, s, "B", 2).json()["version"] == 2
    history = c.get(f"/api/v1/sessions/{s['id']}/actions", headers=as_owner(s)).json()
    assert [item["seq"] for item in history["data"]] == [1, 2]


def test_two_concurrent_actions_never_both_apply(fixture_db, sessions_url):
    c = client(fixture_db, sessions_url)
    for attempt in range(5):
        s = new(c, seed=attempt)
        results = []
        barrier = threading.Barrier(2)

        def go():
            barrier.wait()
            r = act(c, s, "A", 1, expected_version=0)
            results.append(r.status_code)

        threads = [threading.Thread(target=go) for _ in range(2)]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        assert sorted(results) == [200, 409], results
        assert c.get(f"/api/v1/sessions/{s['id']}").json()["version"] == 1


def test_a_read_in_progress_never_holds_up_a_move(fixture_db, sessions_url):
    """A client reading a session (its transaction open) does not make another client's move wait:
    on SQLite a read begins a plain snapshot, not the write lock."""
    app = create_app(fixture_db, site_dir=None, sessions_url=sessions_url)
    c = TestClient(app)
    s = new(c)
    with Session(app.state.store().engine) as reading:
        assert reading.get(PlaySession, s["id"]).version == 0
        answers: list[int] = []
        mover = threading.Thread(target=lambda: answers.append(act(c, s, "A", 1).status_code))
        mover.start()
        mover.join(10)  # a held write lock would keep it waiting for the 30 s busy timeout
        assert answers == [200]
    assert c.get(f"/api/v1/sessions/{s['id']}").json()["version"] == 1


def test_many_sessions_played_at_once_keep_every_move(fixture_db, sessions_url):
    """Sixteen clients play their own sessions at the same time through one application: every
    move answers 200 and is stored once (writers queue; none is lost or refused as busy)."""
    c = client(fixture_db, sessions_url)
    sessions = [new(c, seed=n) for n in range(16)]
    statuses: list[int] = []
    barrier = threading.Barrier(len(sessions))

    def play(s):
        barrier.wait()
        for turn in range(8):
            statuses.append(act(c, s, "AB"[turn % 2], 1).status_code)

    threads = [threading.Thread(target=play, args=(s,)) for s in sessions]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert statuses == [200] * 16 * 8
    for s in sessions:
        page = c.get(f"/api/v1/sessions/{s['id']}/actions", headers=as_owner(s)).json()
        assert page["total"] == 8 and [a["seq"] for a in page["data"]] == list(range(1, 9))


def test_scenarios_run_from_a_posted_document(fixture_db, tmp_path):
    c = client(fixture_db, f"sqlite:///{tmp_path / 's.db'}")
    doc = {"id": "race/example/t", "game": "race", "players": ["A", "B"], "seed": 1,
           "steps": [{"run": "bonus-round"}], "expect": [{"path": "players.B.total", "equals": 1},
                                                        {"path": "players.A.total", "equals": 9}]}
    body = c.post("/api/v1/scenarios/run", json=doc).json()
    assert body["status"] == "FAIL" and [ch["ok"] for ch in body["checks"]] == [True, False]
    assert body["state_before"]["players"]["B"]["total"] == 0 and body["state_after"]["players"]["B"]["total"] == 1
    assert c.post("/api/v1/scenarios/run", json={"game": "race"}).status_code == 422
    malformed = c.post("/api/v1/scenarios/run", json={**doc, "steps": [{"bogus": 1}]})
    assert malformed.status_code == 422 and "steps[0]" in malformed.json()["detail"]
    # a key a scenario does not have (here one that names a file) is refused, never read
    stray = c.post("/api/v1/scenarios/run", json={**doc, "path": "/etc/passwd"})
    assert stray.status_code == 422 and "unknown key `path`" in stray.json()["detail"]


def test_examples_are_listed_and_run(fixture_db, tmp_path):
    c = client(fixture_db, f"sqlite:///{tmp_path / 's.db'}")
    items = c.get("/api/v1/examples", params={"game": "gugong"}).json()["data"]
    assert [i["id"] for i in items] == ["gugong/example/night-dice"] and items[0]["runnable"] is False
    assert c.post("/api/v1/examples/gugong/example/night-dice/run").json()["status"] == "PENDING"
    assert c.post("/api/v1/examples/gugong/term/servant/run").status_code == 404


def test_an_accepted_action_survives_a_killed_server(fixture_db, sessions_url):
    import httpx

    from tests.server import Server

    toy = {"race": "tests.test_engine_core:Race"}
    server = Server(fixture_db, sessions_url, toy)
    try:
        s = httpx.post(f"{server.url}/api/v1/sessions", json={"game": "race", "players": ["A", "B"], "seed": 3}).json()
        r = httpx.post(f"{server.url}/api/v1/sessions/{s['id']}/actions",
                       json={"action": {"type": "add", "player": "A", "n": 2}}, headers=as_seat(s, "A"))
        assert r.status_code == 200
        accepted = httpx.get(f"{server.url}/api/v1/sessions/{s['id']}", headers=as_owner(s)).json()["state"]
    finally:
        server.kill()
    server = Server(fixture_db, sessions_url, toy)
    try:
        after = httpx.get(f"{server.url}/api/v1/sessions/{s['id']}", params={"replay": True},
                          headers=as_owner(s)).json()
        assert after["version"] == 1 and after["state"] == accepted and after["replay_matches"]
    finally:
        server.stop()
