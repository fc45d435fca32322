"""What each game hides (engine.core.gametype): a seat's view never depends on another seat's hidden
information, the order of a face-down pile or the random generator's state — for all three games."""
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core import get_game
from engine.core.gametype import places
from engine.core.state import copy

GAMES = {"gugong": ["Kuba", "Ania", "Jola"], "dragon": ["Kuba", "Ania", "Jola"], "zhanguo": ["Kuba", "Ania", "Jola"]}


def position(game: str, seed: int, steps: int) -> dict:
    """A position part-way through a seeded random game."""
    g = get_game(game)
    state = g.new_state(GAMES[game], {}, seed)
    chooser = random.Random(seed)
    for _ in range(steps):
        if g.is_terminal(state):
            break
        state, _ = g.apply(state, chooser.choice(g.legal_actions(state)))
    return state


def scramble(value):
    """Other hidden contents of the same shape: what a different deal would have given."""
    if isinstance(value, list):
        return [scramble(v) for v in reversed(value)][:len(value)] if len(set(map(repr, value))) > 1 \
            else ["other-card"] * len(value)
    if isinstance(value, dict):
        return {k: scramble(v) for k, v in value.items()}
    if isinstance(value, bool) or value is None:
        return value
    return 12345 if isinstance(value, int) else "other"


def strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from strings(v)


def hidden_paths(game: str, state: dict, me: str):
    info = get_game(game).game_type.information
    others = [p for p in state["players"] if p != me]
    return [path.replace("{seat}", other) for path in info.private for other in others] + list(info.secret)


@pytest.mark.parametrize("game", sorted(GAMES))
@settings(max_examples=12, deadline=None, derandomize=True)
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 60), seat=st.integers(0, 2))
def test_changing_another_seats_hidden_information_never_changes_my_view(game, seed, steps, seat):
    g = get_game(game)
    state = position(game, seed, steps)
    me = GAMES[game][seat]
    changed = copy(state)
    for path in hidden_paths(game, state, me):
        for parent, key in list(places(changed, path)):
            parent[key] = scramble(parent[key])
    assert g.observation(changed, me) == g.observation(state, me)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_seat_sees_its_own_hand_and_no_one_elses(game):
    g = get_game(game)
    state = position(game, 7, 3)
    for me in GAMES[game]:
        view = g.observation(state, me)
        assert view["players"][me]["hand"] == state["players"][me]["hand"]
        for other in GAMES[game]:
            if other != me:
                assert view["players"][other]["hand"] == [None] * len(state["players"][other]["hand"])
        assert view["rng"] is None
        if game != "dragon":  # each Gugong/ZhanGuo card is one of a kind: no other place may name it
            hidden = {c for other in GAMES[game] if other != me for c in state["players"][other]["hand"]}
            assert hidden and not hidden & set(strings(view)), (me, hidden & set(strings(view)))
    public = g.observation(state, None)
    assert all(set(p["hand"]) <= {None} for p in public["players"].values())
    assert state["rng"] is not None  # the state itself is untouched


def test_every_game_declares_players_options_and_what_it_hides():
    for game in GAMES:
        declared = get_game(game).game_type.describe()
        assert declared["players"]["min"] >= 1 and declared["chance"] == "seeded"
        assert declared["information"]["secret"] and declared["information"]["rules"]
        assert all({"name", "type", "description", "default"} <= set(o) for o in declared["options"])
        assert "others" not in {o["name"] for o in declared["options"]}  # scenario-only, never for a session


def test_another_players_history_hides_what_went_face_down():
    """Gugong: the card a player discards face down to pay and the travel tokens they take are
    theirs to see in the history; other seats read null where those were (gugong-pl 281-287, 448-449)."""
    g = get_game("gugong")
    players = GAMES["gugong"]
    state, chooser = g.new_state(players, {}, 7), random.Random(7)
    hidden_seen = 0
    while not g.is_terminal(state):
        action = chooser.choice(g.legal_actions(state))
        state, events = g.apply(state, action)
        move = {"player": action["player"], "action": action, "events": events}
        hidden = ([action["discard"]] if "discard" in action else []) + \
                 [e["token"] for e in events if e["event"] in ("travel", "bonus_token")]
        hidden_seen += len(hidden)
        assert g.game_type.move_view(move, action["player"]) == move
        for other in players:
            if other != action["player"]:
                view = g.game_type.move_view(move, other)
                assert view["action"].get("discard", None) is None
                assert all(e.get("token") is None for e in view["events"] if e["event"] in ("travel", "bonus_token"))
                assert {k: v for k, v in view["action"].items() if k != "discard"} == \
                       {k: v for k, v in action.items() if k != "discard"}
    assert hidden_seen > 5  # the seeded game does discard and travel
