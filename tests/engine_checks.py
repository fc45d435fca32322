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


def gugong_tokens_a_double_stands_for(game, kind: str) -> int:
    """Gugong's double travel token exchanged, with more plain tokens than the price in hand, for one
    reward of the exchange rule: how many tokens it stood for (the price less the plain tokens taken)."""
    need = game.consts.token_rates[kind][0]
    s = game.new_state(["A", "B"], {}, 1)
    name = game.legal_actions(s)[0]["player"]  # the player deciding now may exchange
    p = s["players"][name]
    p["tokens"] = ["travel-double"] + ["travel-vp"] * need
    p["supply"] = max(p["supply"], 3)
    exchange = next(a for a in game.legal_actions(s) if a["type"] == "tokens" and a["for"] == kind and a["doubles"] == 1)
    s2, _ = game.apply(s, exchange)
    return s2["players"][name]["tokens"].count("travel-vp")
