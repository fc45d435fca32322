"""The ZhanGuo engine: seeded random full games for every player count and option combination
(invariants after every action), JSON round trips, replays, illegal and malformed actions, the
rulebook's worked examples as scenarios, and the engine reading its numbers from the KB."""
from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from engine.core import state as st
from engine.core.errors import MalformedAction
from engine.core.game import Rules, get_game
from engine.core.play import random_game
from engine.core.schema import schema_errors
from tests.engine_checks import assert_apply_leaves_input_untouched, assert_illegal as _illegal, assert_round_trips_and_replays
from engine.core.scenario import files, load_file, run
from engine.zhanguo.game import ZhanGuo

EXAMPLES = Path(__file__).parent.parent / "kb" / "data" / "zhanguo" / "examples"
SIDES = ["A", "B", "auction"]
VARIANTS = ["card_selection", "reward_track_turn_order", "unrest_per_worker"]
COMBOS = [dict({"sides": sd}, **dict(zip(VARIANTS, flags)))
          for sd in SIDES for flags in itertools.product([False, True], repeat=3)]
GAMES_PER_CONFIG = 6  # 24 option combinations x 3 player counts x 6 = 432 games


@pytest.fixture(scope="module")
def game():
    return get_game("zhanguo")


@pytest.mark.parametrize("n", [2, 3, 4])
def test_random_games_keep_every_invariant(game, n):
    played_games = 0
    for ci, opts in enumerate(COMBOS):
        for i in range(GAMES_PER_CONFIG):
            seed = 1000 * n + 10 * ci + i
            played = random_game(game, n, seed, opts, check=True)
            assert not played.violations, (opts, seed, played.violations[:3])
            assert game.is_terminal(played.final)
            assert sorted(r["rank"] for r in played.scores) == list(range(1, n + 1))
            assert game.check_invariants(played.final) == []
            played_games += 1
    assert played_games == len(COMBOS) * GAMES_PER_CONFIG


def test_games_use_the_whole_rulebook(game):
    """Across random games every court action, activations, rewards, tasks and the auction occur."""
    seen = set()
    for seed in range(30):
        played = random_game(game, 4, seed, COMBOS[seed % len(COMBOS)])
        for a in played.actions:
            seen.add(a["type"])
            if a["type"] == "court":
                seen.add(a["action"])
    for t in ["unify", "court", "activate", "move", "reward", "task", "bid", "board", "select", "shift",
              "appoint-governor", "recruit-official", "hire-workers", "move-officials", "build-palace", "build-wall"]:
        assert t in seen, t


@pytest.mark.parametrize("n", [2, 3, 4])
def test_states_round_trip_and_games_replay(game, n):
    opts = {"sides": "auction", "card_selection": True}
    played = random_game(game, n, seed=500 + n, options=opts)
    assert_round_trips_and_replays(game, played, steps=150)


def test_apply_leaves_its_input_untouched(game):
    assert_apply_leaves_input_untouched(game, game.new_state(["A", "B", "C"], {}, 7), actions=40)


def test_illegal_actions_are_rejected_with_the_state_unchanged(game):
    state = game.new_state(["A", "B"], {"first_player": "A"}, 3)
    a_card, b_card = state["players"]["A"]["hand"][0], state["players"]["B"]["hand"][0]
    # acting out of turn
    _illegal(game, state, {"type": "unify", "player": "B", "card": b_card, "region": "1"})
    # playing a card you do not hold
    _illegal(game, state, {"type": "unify", "player": "A", "card": b_card, "region": "1"}, "zhanguo/rule/how-to-play-a-card")  # a card from your own hand
    # a 4th card in a region
    full = st.copy(state)
    three = [full["decks"][c].pop() for c in game.consts.colours]
    full["players"]["A"]["regions"]["2"]["cards"] = three
    _illegal(game, full, {"type": "unify", "player": "A", "card": a_card, "region": "2"}, "zhanguo/rule/unification")
    # appointing a governor without one official of each colour in the region
    _illegal(game, state, {"type": "court", "player": "A", "card": a_card, "action": "appoint-governor",
                           "region": "2", "space": 0}, "zhanguo/court-action/appoint-governor")
    # hiring workers with no official in the workers' area
    _illegal(game, state, {"type": "court", "player": "A", "card": a_card, "action": "hire-workers", "region": "1"},
             "zhanguo/court-action/hire-workers")
    # a palace without workers
    _illegal(game, state, {"type": "court", "player": "A", "card": a_card, "action": "build-palace", "region": "1",
                           "other": "2", "marker": "cream"}, "zhanguo/court-action/build-palace")
    # moving an official to the workers' area of a region where there is none in the governors' area
    _illegal(game, state, {"type": "shift", "player": "A", "region": "3", "colour": "red"}, "zhanguo/rule/free-official-shift")
    # deciding a reward when none is offered
    _illegal(game, state, {"type": "reward", "player": "A", "accept": False}, "zhanguo/rule/unification-rewards")
    # a card may be played for an action only on the player's own turn: after the game is over nothing is legal
    over = random_game(game, 2, 9).final
    _illegal(game, over, {"type": "end_turn", "player": "P1"}, "zhanguo/rule/end-game")


def test_unrest_limit_blocks_hiring(game):
    state = game.new_state(["A", "B"], {"first_player": "A"}, 4)
    p = state["players"]["A"]
    p["regions"]["1"]["gov"]["red"] = 0
    p["regions"]["1"]["work"]["red"] = 1
    p["regions"]["1"]["unrest"] = game.consts.track_len["A"]["1"]
    p["cubes"] -= 1
    card = p["hand"][0]
    _illegal(game, state, {"type": "court", "player": "A", "card": card, "action": "hire-workers", "region": "1"},
             "zhanguo/court-action/hire-workers")


def test_malformed_actions_are_rejected(game):
    state = game.new_state(["A", "B"], {}, 1)
    for bad in [{}, {"player": "A"}, {"type": 3, "player": "A"}, {"type": "fly", "player": "A"},
                {"type": "unify"}, {"type": "unify", "player": "Z", "card": 1, "region": "1"}]:
        with pytest.raises(MalformedAction):
            game.apply(state, bad)
    with pytest.raises(MalformedAction):
        game.new_state(["A", "B"], {"bogus": 1}, 1)


def test_schema_lists_states_and_actions(game):
    schema = game.state_schema()
    assert {"state", "action"} <= set(schema)
    state = game.new_state(["A", "B", "C", "D"], {"sides": "auction"}, 2)
    assert schema_errors(game, state) == []
    # the schema is closed: a key it does not describe is reported, so it cannot lag the engine unnoticed
    assert schema_errors(game, dict(state, stray=1)) == ["schema: /: Additional properties are not allowed ('stray' was unexpected)"]
    state["players"]["A"]["stray"] = 1
    assert [e.split(":")[1] for e in schema_errors(game, state)] == [" /players/A"]


def test_the_deck_comes_only_from_the_unknowns_register(game):
    assert len(game.consts.cards) == 120
    for n, spec in game.consts.cards.items():
        ent = game.rules.entities[f"zhanguo/unknown/card-{n:03d}"]
        assert ent["attrs"]["status"] == "assumed"
        assert spec["action"] == ent["attrs"]["value_used"]["action"]


def _rules_with(change):
    base = Rules.load("zhanguo")
    ents = st.copy(base.entities)
    change(ents)
    return Rules("zhanguo", ents, base.meta)


def test_changing_a_kb_number_changes_the_engine():
    def more(ents):
        ents["zhanguo/scoring-rule/governor-majority"]["attrs"]["majority_vp"] = 10
        ents["zhanguo/court-action/hire-workers"]["attrs"]["unrest_increase"] = 2
    g0, g1 = ZhanGuo(), ZhanGuo(_rules_with(more))
    for g, vp, unrest in [(g0, 15, 1), (g1, 16, 2)]:
        s = g.new_state(["A", "B"], {"first_player": "A"}, 5)
        s["board"]["governors"]["1"] = [{"player": "A", "space": 0}, {"player": "A", "space": 1}]
        s["players"]["A"]["governors"] -= 2
        s, _ = g.run(s, "final_scoring")
        assert s["players"]["A"]["final"]["governors"] == vp
        s = g.new_state(["A", "B"], {"first_player": "A"}, 5)
        s["players"]["A"]["regions"]["1"]["gov"]["red"] = 0
        s["players"]["A"]["regions"]["1"]["work"]["red"] = 1
        card = s["players"]["A"]["hand"][0]
        s, _ = g.apply(s, {"type": "court", "player": "A", "card": card, "action": "hire-workers", "region": "1"})
        assert s["players"]["A"]["regions"]["1"]["unrest"] == unrest


def test_unrest_per_worker_variant(game):
    for variant, unrest in [(False, 1), (True, 2)]:
        s = game.new_state(["A", "B"], {"first_player": "A", "unrest_per_worker": variant}, 5)
        reg = s["players"]["A"]["regions"]["1"]
        reg["gov"]["red"] = reg["gov"]["grey"] = 0
        reg["work"]["red"] = reg["work"]["grey"] = 1
        card = s["players"]["A"]["hand"][0]
        s, _ = game.apply(s, {"type": "court", "player": "A", "card": card, "action": "hire-workers", "region": "1"})
        assert s["players"]["A"]["regions"]["1"]["workers"] == 2
        assert s["players"]["A"]["regions"]["1"]["unrest"] == unrest


def test_auction_costs_and_start_vp(game):
    s = game.new_state(["A", "B", "C"], {"sides": "auction", "first_player": "A"}, 8)
    assert all(p["vp"] == 15 for p in s["players"].values())
    assert len(s["free_boards"]) == 3
    s, _ = game.apply(s, {"type": "bid", "player": "A", "amount": 2})
    s, _ = game.apply(s, {"type": "pass", "player": "B"})
    s, _ = game.apply(s, {"type": "pass", "player": "C"})
    board = s["free_boards"][0]
    s, _ = game.apply(s, {"type": "board", "player": "A", "board": board})
    assert s["players"]["A"]["vp"] == 13 and s["players"]["A"]["side"] == board
    assert s["pending"][0] == {"kind": "bid", "player": "B"}


def test_worked_examples_pass():
    paths = files(EXAMPLES)
    assert len(paths) == 17
    for path in paths:
        outcome = run(load_file(path))
        assert outcome.status == "PASS", outcome.line


def test_illegal_actions_name_rules_of_the_kb(game):
    from engine.zhanguo.game import COURT_RULE, RULE_OF
    for rule in set(RULE_OF.values()) | set(COURT_RULE.values()):
        assert rule in game.rules.entities, rule


def test_card_selection_variant_keeps_two_of_three(game):
    s = game.new_state(["A", "B"], {"first_player": "A", "card_selection": True}, 11)
    assert s["phase"] == "drafting"
    while s["phase"] == "drafting":
        item = s["pending"][0]
        assert len(item["cards"]) == 3
        s, _ = game.apply(s, {"type": "select", "player": item["player"], "discard": item["cards"][0]})
    assert s["phase"] == "play"
    assert all(len(p["hand"]) == 6 for p in s["players"].values())
    # 3 drawn per player and colour, the discarded third goes back under its deck: 2 per player kept
    kept = game.consts.sel_kept * 2
    assert all(len(s["decks"][c]) == 40 - kept for c in s["decks"])


def test_reward_track_turn_order_variant(game):
    s = game.new_state(["A", "B", "C"], {"first_player": "B", "reward_track_turn_order": True}, 12)
    assert s["order"] == s["track"]
    s2 = game.new_state(["A", "B", "C"], {"first_player": "B"}, 12)
    assert s2["order"] == ["B", "C", "A"]
