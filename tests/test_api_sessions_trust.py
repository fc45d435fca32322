"""Sessions an app can trust against a hostile client (issue 34): seeds nobody can recover, replays
bound to their token, links nobody can poison, echoed text that is safe and bounded, limits on
anonymous creation, one action schema per game."""
import pytest

from engine.core.game import get_game
from engine.core.rng import SEED_BITS, Rng
from tests.test_api_sessions_guarded import bearer, c, create, make_client, seat_token, sessions_url  # noqa: F401

PLAYERS = ["Kuba", "Ania", "Jola"]


def public_match(game, players, public_state, candidates):
    """The attack: every seed whose start state shows the public exactly what this session shows."""
    return [x for x in candidates if game.observation(game.new_state(players, {}, x), None) == public_state]


def test_the_seed_of_a_server_session_cannot_be_recovered_from_the_public_view(c):
    game = get_game("gugong")
    bits = []
    for _ in range(4):
        s = c.post("/api/v1/sessions", json={"game": "gugong", "players": PLAYERS}).json()
        owner = c.get(f"/api/v1/sessions/{s['id']}", headers=bearer(s["owner_token"])).json()
        public = c.get(f"/api/v1/sessions/{s['id']}")
        seed, key = int(owner["seed"]), owner["state"]["rng"].split(":")[0]
        bits.append(seed.bit_length())
        assert str(seed) not in public.text and key not in public.text and "seed" not in public.json()
        assert public.json()["state"]["rng"] is None
        # Filtering the old seed space (2^31) was the attack; a sample of it matches nothing now.
        assert public_match(game, PLAYERS, public.json()["state"], range(2**10)) == []
    # 128 bits from the operating system: the filter would face 2^128 candidates.
    assert SEED_BITS >= 128 and min(bits) > 64 and max(bits) >= SEED_BITS - 4
    # The same filter finds a seed a client chose small (the owner's choice, documented).
    chosen = create(c, players=PLAYERS, seed=300)
    public = c.get(f"/api/v1/sessions/{chosen['id']}").json()
    assert public_match(game, PLAYERS, public["state"], range(2**10)) == [300]


def test_the_owner_replays_a_server_seeded_game_and_seats_never_see_the_seed(c):
    s = c.post("/api/v1/sessions", json={"game": "gugong", "players": PLAYERS, "seats": {"Jola": "random"}}).json()
    view = c.get(f"/api/v1/sessions/{s['id']}", headers=bearer(seat_token(s, "Kuba"))).json()
    assert "seed" not in view and view["state"]["rng"] is None
    replay = c.get(f"/api/v1/sessions/{s['id']}?replay=true", headers=bearer(s["owner_token"])).json()
    assert replay["replay_matches"] is True and isinstance(replay["seed"], str) and int(replay["seed"]) > 2**53


def test_random_seats_draw_from_a_stream_of_their_own():
    """Not seed ^ constant: the random seats' key and the game's key are hashes of the seed with
    different labels, and neither generator's draws follow from the other's."""
    game, agents = {"rng": Rng.seed_state(7)}, {"rng": Rng.seed_state(7, "agents")}
    assert game["rng"].split(":")[0] != agents["rng"].split(":")[0]
    assert [Rng(game).below(1000) for _ in range(8)] != [Rng(agents).below(1000) for _ in range(8)]
    assert Rng.seed_state(7 ^ 0x5DEECE66D) != agents["rng"]


def test_an_idempotency_key_replays_only_to_the_token_that_sent_it(c):
    s = create(c, players=PLAYERS)
    current = c.get(f"/api/v1/sessions/{s['id']}").json()["current_player"]
    other = next(p for p in PLAYERS if p != current)
    me = bearer(seat_token(s, current))
    action = c.get(f"/api/v1/sessions/{s['id']}", headers=me).json()["legal"][0]
    url, key = f"/api/v1/sessions/{s['id']}/actions", {"Idempotency-Key": "move-1"}
    first = c.post(url, json={"action": action}, headers={**me, **key})
    assert first.status_code == 200 and first.json()["version"] == 1
    hand = first.json()["state"]["players"][current]["hand"]
    # Another seat or no token sending the same body and key gets no replay (and no hand): its own answer.
    public = c.post(url, json={"action": action}, headers=key)
    assert public.status_code == 401 and "state" not in public.json()
    seat = c.post(url, json={"action": action}, headers={**bearer(seat_token(s, other)), **key})
    assert seat.status_code == 403 and "state" not in seat.json()
    # No oracle: a different body under a used key from another seat is judged as a request of its own.
    odd = c.post(url, json={"action": {**action, "player": other}}, headers={**bearer(seat_token(s, other)), **key})
    assert odd.status_code != 422 or "Idempotency-Key" not in odd.text
    retry = c.post(url, json={"action": action}, headers={**me, **key})
    assert retry.status_code == 200 and retry.json()["idempotent_replay"] is True
    assert retry.json()["replayed_version"] == 1 and retry.json()["state"]["players"][current]["hand"] == hand
    assert c.get(url, headers=me).json()["total"] == 1


def test_an_idempotency_record_is_a_reference_not_a_stored_answer(real_db, tmp_path):
    import sqlite3

    url = f"sqlite:///{tmp_path / 'sessions.db'}"
    client = make_client(real_db, url)
    s = create(client, game="zhanguo", players=("Kuba", "Ania"))
    current = client.get(f"/api/v1/sessions/{s['id']}").json()["current_player"]
    me = bearer(seat_token(s, current))
    action = client.get(f"/api/v1/sessions/{s['id']}", headers=me).json()["legal"][0]
    assert client.post(f"/api/v1/sessions/{s['id']}/actions", json={"action": action},
                       headers={**me, "Idempotency-Key": "k"}).status_code == 200
    with sqlite3.connect(tmp_path / "sessions.db") as db:
        stored = db.execute("SELECT * FROM play_request").fetchall()
    assert len(stored) == 1 and sum(len(str(v)) for v in stored[0]) < 300


def test_a_store_of_the_earlier_layout_is_upgraded(real_db, tmp_path):
    """A 64-bit seed column and whole stored answers: the seed becomes text, the old records go."""
    import sqlite3

    path = tmp_path / "sessions.db"
    with sqlite3.connect(path) as db:
        db.executescript(
            "CREATE TABLE play_session (id VARCHAR PRIMARY KEY, game VARCHAR NOT NULL, players JSON NOT NULL,"
            " agents JSON NOT NULL, options JSON NOT NULL, seed INTEGER NOT NULL, state JSON NOT NULL,"
            " agent_rng VARCHAR NOT NULL, version INTEGER NOT NULL, owner_hash VARCHAR NOT NULL,"
            " seat_hashes JSON NOT NULL, created_at DATETIME NOT NULL, updated_at DATETIME NOT NULL,"
            " touched FLOAT NOT NULL);"
            "CREATE TABLE play_request (session_id VARCHAR, key VARCHAR, request_hash VARCHAR, response JSON,"
            " PRIMARY KEY (session_id, key));")
    client = make_client(real_db, f"sqlite:///{path}")
    s = client.post("/api/v1/sessions", json={"game": "gugong", "players": PLAYERS}).json()
    owner = client.get(f"/api/v1/sessions/{s['id']}?replay=true", headers=bearer(s["owner_token"])).json()
    assert int(owner["seed"]) > 2**64 and owner["replay_matches"] is True


def test_a_forged_host_never_reaches_a_link_another_client_gets(real_db, tmp_path, monkeypatch):
    from fastapi.testclient import TestClient

    from api.app import create_app
    from api.settings import Settings

    url = "/api/v1/entities?game=zhanguo&limit=3&offset=8"
    app = create_app(settings=Settings(database_url=real_db, sessions_url=f"sqlite:///{tmp_path / 's.db'}",
                                       site_dir=None))
    with TestClient(app) as client:
        forged = client.get(url, headers={"Host": "evil.example"}).json()
        later = client.get(url).json()
    assert forged["next"] == later["next"] == "/api/v1/entities?game=zhanguo&offset=11&limit=3"
    monkeypatch.setenv("RULEKB_PUBLIC_URL", "https://rules.example.org/")
    settings = Settings(database_url=real_db, sessions_url=f"sqlite:///{tmp_path / 's.db'}", site_dir=None)
    with TestClient(create_app(settings=settings)) as client:
        forged = client.get(url, headers={"Host": "evil.example"}).json()
    assert forged["next"] == "https://rules.example.org/api/v1/entities?game=zhanguo&offset=11&limit=3"


SURROGATE = "\ud800"


@pytest.mark.parametrize("path,body", [
    ("/api/v1/sessions", {"game": "gugong", "players": PLAYERS, "seats": {SURROGATE: "random"}}),
    ("/api/v1/sessions", {"game": "gugong", "players": [SURROGATE, "Ania"]}),
    ("/api/v1/scenarios/run", {"game": "gugong", "players": PLAYERS, "expect": [{"path": SURROGATE, "equals": 1}]}),
    ("/api/v1/scenarios/run", {"game": "gugong", "players": PLAYERS, "steps": [{"run": SURROGATE}]}),
    ("/api/v1/scenarios/run", {"game": "gugong", "players": PLAYERS, "setup": {"note": SURROGATE},
                               "expect": [{"path": "note", "equals": SURROGATE}]}),
])
def test_a_lone_surrogate_is_echoed_escaped_and_never_a_500(c, path, body):
    import json

    r = c.post(path, content=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    assert r.status_code < 500 and "json" in r.headers["content-type"], r.text
    assert "\\ud800" in r.text  # the escape, where the text is repeated
    assert c.get("/api/v1/health").status_code == 200


def test_long_names_are_cut_in_messages_and_nfd_names_act(c):
    r = c.post("/api/v1/sessions", json={"game": "gugong", "players": ["K" * 10_000, "Ania"]})
    assert r.status_code == 422 and len(r.text) < 2_000 and "…" in r.json()["detail"]
    s = next(s for s in (create(c, players=("Ária", "Kuba"), seed=n) for n in range(20))
             if s["current_player"] == "Ária")
    me = bearer(seat_token(s, "Ária"))
    action = c.get(f"/api/v1/sessions/{s['id']}", headers=me).json()["legal"][0]
    nfd = {**action, "player": "A\u0301ria"}
    assert c.post(f"/api/v1/sessions/{s['id']}/actions", json={"action": nfd}, headers=me).status_code == 200


def test_smaller_request_checks(c):
    s = create(c, players=PLAYERS)
    current = c.get(f"/api/v1/sessions/{s['id']}").json()["current_player"]
    me = bearer(seat_token(s, current))
    action = c.get(f"/api/v1/sessions/{s['id']}", headers=me).json()["legal"][0]
    url = f"/api/v1/sessions/{s['id']}/actions"
    assert c.post(url, json={"action": action, "expected_version": 2**64}, headers=me).status_code == 422
    plain = c.post(url, content=b"action", headers={**me, "Content-Type": "text/plain"})
    assert plain.status_code == 415 and plain.headers["content-type"] == "application/problem+json"
    nan = c.post("/api/v1/scenarios/run", content=b'{"game": "gugong", "players": ["A", "B"], "setup": {"x": NaN},'
                 b' "expect": [{"path": "x", "equals": 1}]}', headers={"Content-Type": "application/json"})
    assert nan.status_code == 422
    empty = c.get("/api/v1/entities?game=")
    assert empty.status_code == 422 and "query.game" in empty.text


def test_scenarios_run_takes_seeds(c):
    from pathlib import Path

    import yaml

    doc = yaml.safe_load(Path("kb/data/gugong/scenarios/game-ends-after-four-days.yaml").read_text())
    assert "seeds" in doc
    r = c.post("/api/v1/scenarios/run", json=doc)
    assert r.status_code == 200 and r.json()["status"] == "PASS", r.text
    both = c.post("/api/v1/scenarios/run", json={**doc, "seed": 1})
    assert both.status_code == 422 and "seeds" in both.json()["detail"]


def test_creation_is_limited_per_address_with_an_honest_retry_after(real_db, sessions_url):
    c = make_client(real_db, sessions_url, create_burst=3, create_per_minute=6)
    body = {"game": "gugong", "players": ["Kuba", "Ania"]}
    assert [c.post("/api/v1/sessions", json=body).status_code for _ in range(3)] == [201] * 3
    refused = c.post("/api/v1/sessions", json=body)
    assert refused.status_code == 429 and refused.headers["content-type"] == "application/problem+json"
    assert 1 <= int(refused.headers["retry-after"]) <= 10  # one token every 10 s
    other = make_client(real_db, sessions_url, create_burst=3, create_per_minute=0)  # 0: no limit
    assert all(other.post("/api/v1/sessions", json=body).status_code == 201 for _ in range(5))


def test_a_session_nobody_acted_in_expires_in_minutes_not_days(real_db, sessions_url):
    import time

    c = make_client(real_db, sessions_url, session_unplayed_seconds=1, max_sessions=10**6)
    left = create(c, players=("Kuba", "Ania"))
    played = create(c, players=("Kuba", "Ania"))
    current = played["current_player"]
    me = bearer(seat_token(played, current))
    action = c.get(f"/api/v1/sessions/{played['id']}", headers=me).json()["legal"][0]
    assert c.post(f"/api/v1/sessions/{played['id']}/actions", json={"action": action}, headers=me).status_code == 200
    assert c.get(f"/api/v1/sessions/{left['id']}").json()["expires_at"] < \
        c.get(f"/api/v1/sessions/{played['id']}").json()["expires_at"]
    time.sleep(1.3)
    assert c.get(f"/api/v1/sessions/{left['id']}").status_code == 410
    assert c.get(f"/api/v1/sessions/{played['id']}").status_code == 200


def test_the_cap_answers_when_the_first_unplayed_session_expires(real_db, tmp_path):
    c = make_client(real_db, f"sqlite:///{tmp_path / 's.db'}", session_unplayed_seconds=120, max_sessions=2)
    create(c, players=("Kuba", "Ania"))
    create(c, players=("Kuba", "Ania"))
    full = c.post("/api/v1/sessions", json={"game": "gugong", "players": ["Kuba", "Ania"]})
    assert full.status_code == 503 and 110 <= int(full.headers["retry-after"]) <= 120  # not the 7-day idle time


@pytest.mark.parametrize("game,players", [("gugong", PLAYERS), ("dragon", PLAYERS), ("zhanguo", PLAYERS)])
def test_unknown_action_fields_are_refused_in_every_game(c, game, players):
    s = create(c, game=game, players=players)
    current = s["current_player"]
    me = bearer(seat_token(s, current))
    action = c.get(f"/api/v1/sessions/{s['id']}", headers=me).json()["legal"][0]
    url = f"/api/v1/sessions/{s['id']}/actions"
    for extra in ({"junk": "x" * 60_000}, {"note": "<script>alert(1)</script>"}):
        r = c.post(url, json={"action": {**action, **extra}}, headers=me)
        assert r.status_code == 422 and "has no field" in r.json()["detail"], r.text[:300]
    assert c.get(url, headers=me).json()["total"] == 0  # nothing reached the public history
    assert c.post(url, json={"action": action}, headers=me).status_code == 200


def test_rulekb_schema_declares_every_action_closed():
    import json
    import subprocess
    import sys
    from pathlib import Path

    rulekb = Path(sys.executable).with_name("rulekb")
    for game in ("gugong", "dragon", "zhanguo"):
        done = subprocess.run([str(rulekb), "schema", game], capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        actions = json.loads(done.stdout)["action"]["oneOf"]
        assert actions and all(a["additionalProperties"] is False and a["required"] == ["type", "player"]
                               for a in actions)
        assert {a["properties"]["type"]["const"] for a in actions} == set(get_game(game).action_fields())


def test_the_openapi_document_declares_the_token_and_links_that_carry_it(c):
    doc = c.get("/api/v1/openapi.json").json()
    assert doc["components"]["securitySchemes"]["sessionToken"] == {
        "type": "http", "scheme": "bearer", "description": doc["components"]["securitySchemes"]["sessionToken"]["description"]}
    paths = doc["paths"]
    assert paths["/api/v1/sessions/{sid}/actions"]["post"]["security"] == [{"sessionToken": []}]
    assert paths["/api/v1/sessions/{sid}"]["delete"]["security"] == [{"sessionToken": []}]
    assert {} in paths["/api/v1/sessions/{sid}"]["get"]["security"]  # the public view needs no token
    links = paths["/api/v1/sessions"]["post"]["responses"]["201"]["links"]
    assert links["act"]["parameters"]["header.Authorization"] == "Bearer {$response.body#/seats/0/token}"
    assert links["act"]["requestBody"]["action"] == "$response.body#/legal/0"
    assert links["delete"]["parameters"]["header.Authorization"] == "Bearer {$response.body#/owner_token}"
    # The example the links start from leaves one human seat, which is always the one to act.
    example = paths["/api/v1/sessions"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    body = c.app.openapi()["components"]["schemas"][example["$ref"].rsplit("/", 1)[1]]["examples"][0]
    s = c.post("/api/v1/sessions", json=body).json()
    token = s["seats"][0]["token"]
    moved = c.post(f"/api/v1/sessions/{s['id']}/actions", json={"action": s["legal"][0], "expected_version": s["version"]},
                   headers=bearer(token))
    assert moved.status_code == 200


def test_head_answers_on_every_get_route_without_a_body(c):
    s = create(c, players=PLAYERS)
    for path in ("/api/v1/health", "/api/v1/entities?game=gugong&limit=2&offset=3", f"/api/v1/sessions/{s['id']}",
                 f"/api/v1/sessions/{s['id']}/actions", "/api/v1/games", "/api/v1/openapi.json"):
        head = c.head(path)  # before any GET of the path
        get = c.get(path)
        assert head.status_code == 200 and head.content == b"", path
        assert head.headers["content-type"] == get.headers["content-type"], path
    assert c.head("/api/v1/nowhere").status_code == 404
