"""The Gugong engine: seeded random full games (invariants after every action, JSON round trips,
replays), illegal and malformed actions, and the rulebook's worked examples as scenarios."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.core import state as st
from engine.core.errors import IllegalAction, MalformedAction
from engine.core.game import get_game
from engine.core.play import random_game
from engine.core.scenario import files, load_file, run

EXAMPLES = Path(__file__).parent.parent / "kb" / "data" / "gugong" / "examples"
GAMES_PER_COUNT = {2: 90, 3: 80, 4: 70, 5: 60}  # 300 games


@pytest.fixture(scope="module")
def game():
    return get_game("gugong")


@pytest.mark.parametrize("n", sorted(GAMES_PER_COUNT))
def test_random_games_keep_every_invariant(game, n):
    ends = 0
    for seed in range(GAMES_PER_COUNT[n]):
        played = random_game(game, n, seed, check=True)
        assert not played.violations, played.violations[:3]
        assert game.is_terminal(played.final)
        assert sorted(r["rank"] for r in played.scores) == list(range(1, n + 1))
        ends += 1
    assert ends == GAMES_PER_COUNT[n]


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_states_round_trip_and_games_replay(game, n):
    played = random_game(game, n, seed=1000 + n)
    assert st.roundtrip(played.final) == played.final
    assert json.loads(json.dumps(played.final)) == played.final
    assert game.replay(played.players, played.options, played.seed, played.actions) == played.final
    # every intermediate state round-trips too
    state = game.new_state(played.players, played.options, played.seed)
    for action in played.actions[:200]:
        assert st.roundtrip(state) == state
        state, _ = game.apply(state, action)


def test_apply_leaves_its_input_untouched(game):
    state = game.new_state(["A", "B", "C"], {}, 7)
    before = st.copy(state)
    for action in game.legal_actions(state)[:30]:
        game.apply(state, action)
        assert state == before


def _illegal(game, state, action, rule=None):
    before = st.copy(state)
    with pytest.raises(IllegalAction) as err:
        game.apply(state, action)
    assert state == before
    if rule:
        assert err.value.rule == rule
    return err.value


def test_illegal_actions_are_rejected_with_the_state_unchanged(game):
    state = game.new_state(["A", "B", "C"], {"first_player": "A"}, 3)
    hand_b = state["players"]["B"]["hand"]
    hand_a = state["players"]["A"]["hand"]
    # acting out of turn
    _illegal(game, state, {"type": "exchange", "player": "B", "card": hand_b[0], "location": "jade",
                           "payment": "no_action"}, "gugong/rule/day-turns")
    # exchanging a card you do not hold
    _illegal(game, state, {"type": "exchange", "player": "A", "card": hand_b[0], "location": "jade",
                           "payment": "no_action"}, "gugong/rule/gift-exchange")
    # paying servants you do not have
    poor = st.copy(state)
    poor["players"]["A"]["pool"] = 1
    low = min(hand_a, key=lambda c: game.k.card_value[c])
    loc = max(poor["board"], key=lambda l: game.k.card_value[poor["board"][l]])
    assert game.k.card_value[low] <= game.k.card_value[poor["board"][loc]]
    _illegal(game, poor, {"type": "exchange", "player": "A", "card": low, "location": loc, "payment": "servants"},
             "gugong/rule/exchange-pay-servants")
    # a free exchange with a lower gift
    if not (game.k.card_value[low] == 1 and game.k.card_value[poor["board"][loc]] == 9):
        _illegal(game, state, {"type": "exchange", "player": "A", "card": low, "location": loc, "payment": "free"},
                 "gugong/rule/gift-exchange-lower")
    # actions before the gift exchange
    _illegal(game, state, {"type": "location_action", "player": "A", "option": "A"}, "gugong/rule/gift-exchange")


def test_decree_taken_twice_is_illegal(game):
    state = game.new_state(["A", "B"], {"first_player": "A"}, 5)
    key = next(iter(state["decrees"]))
    state["decrees"][key] = ["A"]
    state["players"]["A"]["decrees"] = [key]
    state["players"]["A"]["pool"] = 9
    state["stage"], state["acts"] = "act", {"card": "1a", "location": "decrees", "card_action": False, "location_action": True}
    _illegal(game, state, {"type": "location_action", "player": "A", "decree": key}, "gugong/rule/decree-once")


def test_malformed_actions_are_rejected(game):
    state = game.new_state(["A", "B"], {}, 1)
    player = game.current_player(state)
    for bad in (None, [], {"player": player}, {"type": 5, "player": player}, {"type": "fly", "player": player},
                {"type": "exchange"}, {"type": "exchange", "player": "Nobody"},
                {"type": "exchange", "player": player, "card": state["players"][player]["hand"][0],
                 "location": "moon", "payment": "free"}):
        before = st.copy(state)
        with pytest.raises(MalformedAction):
            game.apply(state, bad)
        assert state == before


def test_schema_describes_state_and_actions(game):
    schema = game.state_schema()
    state = game.new_state(["A", "B"], {}, 1)
    assert set(state) <= set(schema["state"]["properties"])
    kinds = {a["properties"]["type"]["const"] for a in schema["action"]["oneOf"]}
    assert {a["type"] for a in game.legal_actions(state)} <= kinds


@pytest.mark.parametrize("path", files(EXAMPLES), ids=lambda p: p.stem)
def test_worked_examples_pass(path):
    outcome = run(load_file(path))
    assert outcome.status == "PASS", outcome.line
