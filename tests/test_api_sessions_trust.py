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
