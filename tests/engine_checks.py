"""Checks every engine's tests make the same way: states round-trip and games replay, apply leaves
its input alone, an illegal action is refused with the state unchanged."""
from __future__ import annotations

import json

import pytest

from engine.core import IllegalAction
from engine.core import state as st


def assert_round_trips_and_replays(game, played, steps: int | None = None) -> None:
    """The final state and every state on the way (the first `steps`, or all) survive JSON exactly,
    and seed + actions replay to the same final state."""
    assert st.roundtrip(played.final) == played.final
    assert json.loads(json.dumps(played.final)) == played.final
    assert game.replay(played.players, played.options, played.seed, played.actions) == played.final
    state = game.new_state(played.players, played.options, played.seed)
    for action in played.actions[:steps]:
        assert st.roundtrip(state) == state
        state, _ = game.apply(state, action)
    if steps is None:
        assert state == played.final


def assert_apply_leaves_input_untouched(game, state: dict, actions: int) -> None:
    before = st.copy(state)
    for action in game.legal_actions(state)[:actions]:
        game.apply(state, action)
        assert state == before


def assert_illegal(game, state: dict, action: dict, rule: str | None = None) -> IllegalAction:
    before = st.copy(state)
    with pytest.raises(IllegalAction) as err:
        game.apply(state, action)
    assert state == before
    if rule:
        assert err.value.rule == rule, err.value.rule
    return err.value
