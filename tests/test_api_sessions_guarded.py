"""Sessions other apps can put in production: per-seat tokens, hidden information, bounds, expiry,
safe retries, and hostile input that answers 4xx and leaves every session readable."""
import json
import time

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.settings import Settings


@pytest.fixture(params=["sqlite", "postgresql"])
def sessions_url(request, tmp_path):
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'sessions.db'}"
    return request.getfixturevalue("pg_schema_url")


def make_client(real_db, sessions_url, **limits):
    settings = Settings(database_url=real_db, sessions_url=sessions_url, site_dir=None, **limits)
    return TestClient(create_app(settings=settings))


@pytest.fixture
def c(real_db, sessions_url):
    return make_client(real_db, sessions_url)


def bearer(token):
    return {"Authorization": f"Bearer {token}"}


def seat_token(session, name):
    return next(seat["token"] for seat in session["seats"] if seat["name"] == name)


def create(c, game="gugong", players=("Kuba", "Ania", "Jola"), **body):
    r = c.post("/api/v1/sessions", json={"game": game, "players": list(players), "seed": 3, **body})
    assert r.status_code == 201, r.text
    return r.json()


def test_a_new_session_gives_an_owner_token_and_one_token_per_human_seat(c):
    s = create(c, seats={"Jola": "random"})
    assert s["owner_token"] and s["viewer"] == {"role": "owner", "seat": None}
    assert [(x["seat"], x["name"], x["agent"]) for x in s["seats"]] == [(0, "Kuba", "human"), (1, "Ania", "human"),
                                                                       (2, "Jola", "random")]
    assert seat_token(s, "Kuba") and seat_token(s, "Ania") and "token" not in s["seats"][2]
    assert len({s["owner_token"], seat_token(s, "Kuba"), seat_token(s, "Ania")}) == 3


def test_a_seat_sees_its_own_hand_and_never_another_seats_hand_the_draw_order_or_the_generator(c):
    s = create(c)
    kuba = c.get(f"/api/v1/sessions/{s['id']}", headers=bearer(seat_token(s, "Kuba"))).json()
    full = c.get(f"/api/v1/sessions/{s['id']}", headers=bearer(s["owner_token"])).json()
    assert kuba["viewer"] == {"role": "seat", "seat": "Kuba"}
    assert kuba["state"]["players"]["Kuba"]["hand"] == full["state"]["players"]["Kuba"]["hand"]
    assert kuba["state"]["players"]["Ania"]["hand"] == [None] * len(full["state"]["players"]["Ania"]["hand"])
    assert set(kuba["state"]["draw"]) == {None} and kuba["state"]["rng"] is None and "seed" not in kuba
    public = c.get(f"/api/v1/sessions/{s['id']}").json()
    assert public["viewer"]["role"] == "public" and "legal" not in public
    assert all(set(p["hand"]) == {None} for p in public["state"]["players"].values())
    assert isinstance(full["state"]["rng"], str) and full["seed"] == 3  # the generator state KEY:COUNT


def test_only_the_seat_to_act_is_told_its_legal_actions(c):
    s = create(c)
    current = c.get(f"/api/v1/sessions/{s['id']}").json()["current_player"]
    other = next(p for p in ("Kuba", "Ania", "Jola") if p != current)
    mine = c.get(f"/api/v1/sessions/{s['id']}", headers=bearer(seat_token(s, current))).json()
    assert mine["legal"] and all(a["player"] == current for a in mine["legal"])
    assert "legal" not in c.get(f"/api/v1/sessions/{s['id']}", headers=bearer(seat_token(s, other))).json()


def test_acting_needs_the_acting_seats_own_token(c):
    s = create(c)
    current = c.get(f"/api/v1/sessions/{s['id']}").json()["current_player"]
    other = next(p for p in ("Kuba", "Ania", "Jola") if p != current)
    action = c.get(f"/api/v1/sessions/{s['id']}", headers=bearer(seat_token(s, current))).json()["legal"][0]
    url = f"/api/v1/sessions/{s['id']}/actions"
    assert c.post(url, json={"action": action}).status_code == 401
    assert c.post(url, json={"action": action}, headers=bearer(s["owner_token"])).status_code == 403
    assert c.post(url, json={"action": action}, headers=bearer(seat_token(s, other))).status_code == 403
    assert c.post(url, json={"action": action}, headers=bearer("not-a-token")).status_code == 403
    assert c.post(url, json={"action": action}, headers={"Authorization": "Basic eDp5"}).status_code == 401
    assert c.get(f"/api/v1/sessions/{s['id']}").json()["version"] == 0
    assert c.post(url, json={"action": action}, headers=bearer(seat_token(s, current))).status_code == 200


@pytest.mark.parametrize("body, field", [
    ({"players": ["Kuba"] * 1 + [f"P{i}" for i in range(6)]}, "players"),  # 7 seats: Gugong has 1-5
    ({"players": ["x" * 65, "Ania"]}, "players"),
    ({"players": ["", "Ania"]}, "players"),
    ({"players": [" Kuba", "Ania"]}, "players"),
    ({"players": ["Ku\u0000ba", "Ania"]}, "players"),
    ({"players": ["Kuba\u202e", "Ania"]}, "players"),  # a right-to-left override
    ({"players": ["Z\u030cofia", "Ania"]}, "players"),  # NFD: Z + combining caron
    ({"players": ["Kuba", "Kuba"]}, "players"),
    ({"options": {"others": ["Ghost"]}}, "options"),
    ({"options": {"bonus_travel_tokens": "yes"}}, "options"),
    ({"options": {"colour": "red"}}, "options"),
    ({"options": {"advanced": float("nan")}}, "options"),
    ({"game": "chess"}, "game"),
])
def test_bad_session_bodies_are_refused_and_name_what_is_wrong(c, body, field):
    payload = {"game": "gugong", "players": ["Kuba", "Ania"], **body}
    r = c.post("/api/v1/sessions", content=json.dumps(payload).encode(), headers={"content-type": "application/json"})
    assert r.status_code == 422, r.text
    problem = r.json()
    assert r.headers["content-type"] == "application/problem+json"
    assert problem.get("field") == field or any(field in e["where"] for e in problem.get("errors", []))


def test_unknown_options_are_listed_and_the_published_variant_key_works(c):
    r = c.post("/api/v1/sessions", json={"game": "gugong", "players": ["Kuba", "Ania"], "options": {"colour": 1}})
    assert r.status_code == 422 and "bonus_travel_tokens" in r.json()["allowed"] and "others" not in r.json()["allowed"]
    s = create(c, options={"bonus-travel-tokens": True})
    full = c.get(f"/api/v1/sessions/{s['id']}", headers=bearer(s["owner_token"])).json()
    assert s["options"] == {"bonus_travel_tokens": True}
    tokens = full["state"]["map"] + [t for pile in full["state"]["token_piles"] for t in pile]
    assert any(t.startswith("bonus") for t in tokens)  # the bonus tokens are in the game
    plain = create(c)
    plain_full = c.get(f"/api/v1/sessions/{plain['id']}", headers=bearer(plain["owner_token"])).json()
    assert len(plain_full["state"]["map"] + sum(plain_full["state"]["token_piles"], [])) < len(tokens)


HOSTILE_BODIES = [
    b'{"action": {"type": "exchange", "player": "%s", "junk": "\\ud800"}}',  # a lone surrogate
    b'{"action": {"type": "exchange", "player": "%s", "n": NaN}}',
    b'{"action": {"type": "exchange", "player": "%s", "n": Infinity}}',
    b'{"action": {"type": "exchange", "player": "%s", "n": 9007199254740993}}',  # 2^53 + 1
    b'{"action": {"type": "exchange", "player": "%s", "deep": ' + b"[" * 200 + b"]" * 200 + b"}}",
    b'{"action": {"type": "exchange", "player": "%s", "deep": ' + b"[" * 5000 + b"]" * 5000 + b"}}",
    b'{"action": {"type": "exchange", "player": "%s"',  # cut off
    b'{"action": {"type": "exchange", "player": "%s"}, "expected_version": 1e400}',
    b'{"action": [1, 2, 3]}',
    b'{"action": {"type": 7, "player": "%s"}}',
]


@pytest.mark.parametrize("template", HOSTILE_BODIES)
def test_hostile_actions_answer_4xx_and_the_session_stays_readable(c, template):
    s = create(c)
    current = c.get(f"/api/v1/sessions/{s['id']}").json()["current_player"]
    body = template.replace(b"%s", current.encode()) if b"%s" in template else template
    r = c.post(f"/api/v1/sessions/{s['id']}/actions", content=body,
               headers={"content-type": "application/json", **bearer(seat_token(s, current))})
    assert 400 <= r.status_code < 500 and r.headers["content-type"] == "application/problem+json", r.text
    for headers in ({}, bearer(s["owner_token"]), bearer(seat_token(s, current))):
        again = c.get(f"/api/v1/sessions/{s['id']}", headers=headers)
        assert again.status_code == 200 and again.json()["version"] == 0
    assert c.get(f"/api/v1/sessions/{s['id']}/actions", headers=bearer(s["owner_token"])).status_code == 200


def test_nfd_names_and_queries_are_the_same_as_nfc(c):
    # search: a decomposed query (z + combining caron, i + combining acute) finds what the composed one finds
    composed = c.get("/api/v1/search", params={"q": "služebník"}).json()
    decomposed = c.get("/api/v1/search", params={"q": "slu\u017eebni\u0301k".replace("\u017e", "z\u030c")}).json()
    assert composed["total"] > 0 and [h["id"] for h in decomposed["data"]] == [h["id"] for h in composed["data"]]


def test_if_match_and_idempotency_key_make_a_retried_move_apply_once(c):
    s = create(c)
    current = c.get(f"/api/v1/sessions/{s['id']}").json()["current_player"]
    me = bearer(seat_token(s, current))
    got = c.get(f"/api/v1/sessions/{s['id']}", headers=me)
    assert got.headers["etag"] == '"v0"' and "Authorization" in got.headers["vary"]
    assert c.get(f"/api/v1/sessions/{s['id']}", headers={**me, "If-None-Match": '"v0"'}).status_code == 304
    action = got.json()["legal"][0]
    url = f"/api/v1/sessions/{s['id']}/actions"
    first = c.post(url, json={"action": action}, headers={**me, "If-Match": '"v0"', "Idempotency-Key": "move-1"})
    assert first.status_code == 200 and first.headers["etag"] == '"v1"'
    retry = c.post(url, json={"action": action}, headers={**me, "If-Match": '"v0"', "Idempotency-Key": "move-1"})
    assert retry.status_code == 200 and retry.json()["version"] == 1 and retry.json()["idempotent_replay"] is True
    other = c.post(url, json={"action": {**action, "extra": 1}}, headers={**me, "Idempotency-Key": "move-1"})
    assert other.status_code == 422  # the same key for a different request
    stale = c.post(url, json={"action": action}, headers={**me, "If-Match": '"v0"'})
    assert stale.status_code == 412
    history = c.get(f"/api/v1/sessions/{s['id']}/actions", headers=me).json()
    assert history["total"] == 1 and history["object"] == "list"


def test_history_is_paged_in_the_list_envelope(c):
    s = create(c, players=("Kuba", "Ania"), seats={"Ania": "random"})
    me = bearer(seat_token(s, "Kuba"))
    for _ in range(3):
        view = c.get(f"/api/v1/sessions/{s['id']}", headers=me).json()
        if "legal" not in view:
            break
        assert c.post(f"/api/v1/sessions/{s['id']}/actions", json={"action": view["legal"][0]}, headers=me).status_code == 200
    page = c.get(f"/api/v1/sessions/{s['id']}/actions", params={"limit": 2}, headers=me).json()
    assert page["total"] >= 3 and len(page["data"]) == 2 and page["has_more"] and "offset=2" in page["next"]
    rest = c.get(page["next"], headers=me).json()
    assert [h["seq"] for h in rest["data"]][0] == 3


def test_history_shows_a_face_down_discard_only_to_its_player(c):
    """Kuba pays for an exchange by discarding a card face down: in the history Kuba and the owner
    read the card, Ania and the public read null."""
    s = create(c, players=("Kuba", "Ania"))
    tokens = {name: bearer(seat_token(s, name)) for name in ("Kuba", "Ania")}
    kuba, ania = tokens["Kuba"], tokens["Ania"]
    discard = None
    for _ in range(40):  # play on until Kuba may pay by discarding, then do so
        current = c.get(f"/api/v1/sessions/{s['id']}").json()["current_player"]
        view = c.get(f"/api/v1/sessions/{s['id']}", headers=tokens[current]).json()
        choice = next((a for a in view["legal"] if a.get("payment") == "discard"), None)
        if current == "Kuba" and choice is not None:
            discard = choice
        else:
            choice = next(a for a in view["legal"] if a.get("payment") != "discard")
        assert c.post(f"/api/v1/sessions/{s['id']}/actions", json={"action": choice},
                      headers=tokens[current]).status_code == 200
        if discard:
            break
    assert discard is not None

    def last(headers):
        return c.get(f"/api/v1/sessions/{s['id']}/actions", headers=headers).json()["data"][-1]["action"]

    assert last(kuba)["discard"] == discard["discard"] == last(bearer(s["owner_token"]))["discard"]
    assert last(ania)["discard"] is None and last({})["discard"] is None
    assert last(ania)["card"] == discard["card"]  # the card played to the location is face up


def test_delete_needs_the_owner_token(c):
    s = create(c)
    url = f"/api/v1/sessions/{s['id']}"
    assert c.delete(url).status_code == 401
    assert c.delete(url, headers=bearer(seat_token(s, "Kuba"))).status_code == 403
    assert c.delete(url, headers=bearer(s["owner_token"])).status_code == 204
    assert c.get(url).status_code == 404 and c.delete(url, headers=bearer(s["owner_token"])).status_code == 404


def test_idle_sessions_expire_and_make_room(real_db, sessions_url):
    c = make_client(real_db, sessions_url, session_idle_seconds=1, max_sessions=2)
    time.sleep(1.1)  # the database may hold other tests' sessions: with a 1 s idle time they have expired
    a = create(c, players=("Kuba", "Ania"))
    create(c, players=("Kuba", "Ania"))
    full = c.post("/api/v1/sessions", json={"game": "gugong", "players": ["Kuba", "Ania"]})
    assert full.status_code == 503 and 1 <= int(full.headers["retry-after"]) <= 1
    time.sleep(1.2)
    assert c.get(f"/api/v1/sessions/{a['id']}").status_code == 410
    create(c, players=("Kuba", "Ania"))  # the expired ones are dropped to make room
    assert c.get(f"/api/v1/sessions/{a['id']}").status_code == 404


def test_a_session_that_is_only_looked_at_is_not_idle(real_db, sessions_url):
    c = make_client(real_db, sessions_url, session_idle_seconds=2)
    s = create(c, players=("Kuba", "Ania"))
    url = f"/api/v1/sessions/{s['id']}"
    for _ in range(2):  # 2.4 s after its last move, read every 1.2 s
        time.sleep(1.2)
        assert c.get(url, headers=bearer(seat_token(s, "Ania"))).status_code == 200
    time.sleep(2.2)  # then nobody asks for it
    assert c.get(url).status_code == 410


def test_gugong_solo_session_has_one_token_and_meng_plays_inside_the_engine(c):
    s = create(c, players=("Kuba",), options={"solo": "easy"})
    assert [x["name"] for x in s["seats"]] == ["Kuba"]
    view = c.get(f"/api/v1/sessions/{s['id']}", headers=bearer(seat_token(s, "Kuba"))).json()
    assert set(view["state"]["solo"]["deck"]) == {None}  # Meng's deck order is secret
