"""The In the Year of the Dragon engine: seeded random full games for every player count and option
combination (invariants after every action), JSON round trips and replays, illegal and malformed actions,
edition differences read from the knowledge base, and the worked examples of both rulebooks as scenarios."""
from __future__ import annotations

import copy
from pathlib import Path

import pytest

from engine.core import state as st
from engine.core.errors import IllegalAction, MalformedAction
from engine.core.game import Rules, get_game
from engine.core.play import random_game
from engine.core.schema import schema_errors
from tests.engine_checks import assert_apply_leaves_input_untouched, assert_illegal as _illegal, assert_round_trips_and_replays
from engine.core.scenario import files, load_file, run
from engine.dragon.game import Dragon

EXAMPLES = Path(__file__).parent.parent / "kb" / "data" / "dragon" / "examples"
COMBOS = {
    "2007": {"edition": "2007"},
    "2017": {"edition": "2017"},
    "2017+wall": {"edition": "2017", "great_wall": True},
    "2017+events": {"edition": "2017", "great_events": True},
    "2017+both": {"edition": "2017", "great_wall": True, "great_events": True},
}
GAMES = 30  # per player count and combination: 4 x 5 x 30 = 600 games


@pytest.fixture(scope="module")
def game():
    return get_game("dragon")


@pytest.mark.parametrize("combo", sorted(COMBOS))
@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_random_games_keep_every_invariant(game, n, combo):
    great = game.consts_by_edition["2017"].great_events
    seen_events = set()
    for seed in range(GAMES):
        opts = dict(COMBOS[combo])
        if opts.get("great_events") and seed % 3:  # a chosen great event (all ten in turn), else a random one
            opts["great_event"] = great[seed % len(great)]
        played = random_game(game, n, seed, opts, check=True)
        assert not played.violations, played.violations[:3]
        final = played.final
        assert game.is_terminal(final)
        assert final["round"] == game.consts_by_edition[opts["edition"]].last_round
        assert sorted(r["rank"] for r in played.scores) == list(range(1, n + 1))
        assert all(final["players"][p]["final"] is not None for p in final["order"])
        if opts.get("great_events"):
            seen_events.add(final["great_event"])
        else:
            assert final["great_event"] is None
        if not opts.get("great_wall"):
            assert final["wall"] == []
    if COMBOS[combo].get("great_events"):
        assert seen_events == set(great)


@pytest.mark.parametrize("combo", sorted(COMBOS))
def test_states_round_trip_and_games_replay(game, combo):
    played = random_game(game, 4, seed=77, options=COMBOS[combo])
    assert_round_trips_and_replays(game, played)


def test_apply_leaves_its_input_untouched(game):
    assert_apply_leaves_input_untouched(game, game.new_state(["A", "B", "C"], {}, 7), actions=40)


def _action_state(game, edition="2017", yuan=6, **players):
    s = game.new_state(["A", "B", "C"], {"edition": edition}, 3)
    st.deep_merge(s, {"phase": "action", "queue": ["A", "B", "C"], "steps": ["hold"],
                      "groups": [["taxes", "harvest", "build"], ["privilege", "research"], ["fireworks", "military-parade"]],
                      "dragons": [[], [], []], "players": {"A": {"yuan": yuan, **players}}})
    return s


def test_setup(game):
    s = game.new_state(["A", "B", "C", "D", "E"], {}, 1)
    k = game.consts_by_edition["2017"]
    assert s["phase"] == "draft" and s["queue"] == ["A", "B", "C", "D", "E"]
    assert s["events"][:2] == ["peace", "peace"]
    assert sorted(s["events"]) == sorted(e for e in k.events for _ in range(2))
    assert sum(s["supply"].values()) == 90
    s2 = game.new_state(["A", "B"], {}, 1)
    assert s2["supply"]["craftsman"] == 4 and s2["supply"]["monk-young"] == 3 and s2["supply"]["monk-elder"] == 1
    for p in s["players"].values():
        assert p["yuan"] == 6 and [x["floors"] for x in p["palaces"]] == [2, 2] and len(p["hand"]) == 11


def test_draft_rules(game):
    s = game.new_state(["A", "B", "C"], {}, 2)
    s, _ = game.apply(s, {"type": "draft", "player": "A", "persons": ["tax-collector", "scholar-young"]})
    _illegal(game, s, {"type": "draft", "player": "B", "persons": ["scholar-young", "tax-collector"]},
             "dragon/setup-step/initial-persons")  # same combination
    _illegal(game, s, {"type": "draft", "player": "B", "persons": ["monk-elder", "tax-collector"]},
             "dragon/setup-step/initial-persons")  # elder
    _illegal(game, s, {"type": "draft", "player": "B", "persons": ["monk-young", "monk-young"]},
             "dragon/setup-step/initial-persons")  # two the same
    _illegal(game, s, {"type": "draft", "player": "C", "persons": ["monk-young", "farmer-young"]}, "dragon/rule/turn-order")
    assert all(sorted(a["persons"]) != ["scholar-young", "tax-collector"] for a in game.legal_actions(s))


def test_action_phase_illegal(game):
    s = _action_state(game, yuan=2)
    _illegal(game, s, {"type": "action", "player": "A", "group": 1, "card": "privilege", "size": "large"}, "dragon/action/privilege")
    _illegal(game, s, {"type": "action", "player": "A", "group": 0, "card": "research"}, "dragon/phase/action")
    _illegal(game, s, {"type": "action", "player": "A", "group": 0, "card": "build", "add": [[0, 1]], "new": [1]}, "dragon/action/build")
    _illegal(game, s, {"type": "action", "player": "A", "group": 0, "card": "build", "add": [[0, 2]]}, "dragon/rule/palace-capacity")
    s, _ = game.apply(s, {"type": "action", "player": "A", "group": 0, "card": "taxes"})
    st.deep_merge(s, {"players": {"B": {"yuan": 2}}})
    _illegal(game, s, {"type": "action", "player": "B", "group": 0, "card": "harvest"}, "dragon/rule/occupied-group")
    assert all(a.get("group") != 0 for a in game.legal_actions(s))


def test_large_privilege_price_by_edition(game):
    for edition, ok in (("2007", True), ("2017", False)):
        s = _action_state(game, edition=edition, yuan=6)
        act = {"type": "action", "player": "A", "group": 1, "card": "privilege", "size": "large"}
        assert (act in game.legal_actions(s)) == ok
        if ok:
            s2, _ = game.apply(s, act)
            assert s2["players"]["A"]["yuan"] == 0 and s2["players"]["A"]["privileges"]["large"] == 1
        else:
            _illegal(game, s, act, "dragon/action/privilege")


def test_person_phase_rules(game):
    s = game.new_state(["A", "B"], {}, 4)
    st.deep_merge(s, {"phase": "person", "queue": ["A", "B"], "steps": ["hold"],
                      "players": {"A": {"palaces": [{"floors": 1, "persons": ["monk-young"]}, {"floors": 2, "persons": ["farmer-young"]}]}}})
    _illegal(game, s, {"type": "person", "player": "A", "card": "monk", "person": "monk-young", "palace": 0}, "dragon/rule/palace-capacity")
    _illegal(game, s, {"type": "person", "player": "A", "card": "monk", "person": "monk-young", "palace": None}, "dragon/rule/full-palaces")
    _illegal(game, s, {"type": "person", "player": "A", "card": "monk", "person": "farmer-young", "palace": 1}, "dragon/phase/person")
    s2, _ = game.apply(s, {"type": "person", "player": "A", "card": "joker", "person": "monk-elder", "palace": 1})
    assert s2["players"]["A"]["person"] == s["players"]["A"]["person"] + 2 and "joker" in s2["players"]["A"]["hand"]
    # full palaces: replace a person (it leaves the game) or release the newcomer without moving the marker
    st.deep_merge(s2, {"queue": ["A"]})
    s3, _ = game.apply(s2, {"type": "person", "player": "A", "card": "monk", "person": "monk-young", "palace": 0, "slot": 0})
    assert s3["released"]["monk-young"] == s2["released"]["monk-young"] + 1
    s4, _ = game.apply(s2, {"type": "person", "player": "A", "card": "monk", "person": "monk-young", "palace": None})
    assert s4["players"]["A"]["person"] == s2["players"]["A"]["person"]


def test_event_decisions_illegal(game):
    s = game.new_state(["A", "B"], {}, 5)
    st.deep_merge(s, {"phase": "event", "queue": [], "steps": ["hold"], "players": {
        "A": {"rice": 0, "palaces": [{"floors": 2, "persons": ["monk-young", "farmer-young"]}, {"floors": 2, "persons": ["craftsman"]}]}}})
    s, _ = game.run(s, "drought")
    s, _ = game.apply(s, {"type": "release", "player": "A", "palace": 0, "slot": 0})
    _illegal(game, s, {"type": "release", "player": "A", "palace": 0, "slot": 0}, "dragon/event/drought")  # one per palace
    _illegal(game, s, {"type": "refill", "player": "A"}, "dragon/event/drought")
    s, _ = game.apply(s, {"type": "release", "player": "A", "palace": 1, "slot": 0})
    assert s["pending"] == [] and s["players"]["A"]["palaces"][0]["persons"] == ["farmer-young"]


def test_flood_other_discards_and_limit(game):
    s = game.new_state(["Anna", "Z"], {"great_events": True, "great_event": "ge-flood"}, 1)
    st.deep_merge(s, {"round": 7, "phase": "event", "queue": [], "steps": ["hold"],
                      "players": {"Anna": {"yuan": 3, "rice": 2, "fireworks": 2}, "Z": {"yuan": 0}}})
    s, _ = game.run(s, "great")
    assert s["pending"][0]["count"] == 3
    for what in ("yuan", "rice", "rice"):  # the text's other example: 1 yuan and 2 rice
        s, _ = game.apply(s, {"type": "flood", "player": "Anna", "what": what})
    assert (s["players"]["Anna"]["yuan"], s["players"]["Anna"]["rice"], s["players"]["Anna"]["fireworks"]) == (2, 0, 2)
    _illegal(game, s, {"type": "flood", "player": "Anna", "what": "yuan"}, "dragon/rule/rounds")


def test_expansions_rejected_with_2007(game):
    for opt in ({"great_wall": True}, {"great_events": True}):
        with pytest.raises(IllegalAction):
            game.new_state(["A", "B"], {"edition": "2007", **opt}, 1)
    with pytest.raises(IllegalAction):
        game.new_state(["A", "B"], {"great_event": "ge-flood"}, 1)
    s = game.new_state(["A", "B"], {"great_events": True, "great_event": "ge-tornado"}, 1)
    assert s["great_event"] == "ge-tornado"
    s = game.new_state(["A", "B", "C"], {"great_wall": True}, 1)
    assert all(len(p["wall"]) == 6 for p in s["players"].values())


def test_malformed_actions(game):
    s = game.new_state(["A", "B"], {}, 1)
    for bad in ({}, {"type": 3}, {"type": "fly", "player": "A"}, {"type": "draft"}, {"type": "draft", "player": "Q"}):
        with pytest.raises(MalformedAction):
            game.apply(s, bad)
    with pytest.raises(MalformedAction):
        game.new_state(["A", "B"], {"colour": "red"}, 1)


def test_kb_numbers_drive_the_engine():
    rules = Rules.load("dragon")
    entities = copy.deepcopy(rules.entities)
    entities["dragon/rule/occupied-group"]["attrs"]["cost_yuan"] = 5
    entities["dragon/action/privilege"]["attrs"]["large_price"] = {"by_edition": {"2007": 6, "2017": 4}}
    g = Dragon(Rules("dragon", entities, rules.meta))
    doc = load_file(EXAMPLES / "occupied-group.yaml")
    out = run(doc)  # the registered engine: 3 yuan
    assert out.status == "PASS"
    s = _action_state(g, yuan=6)
    st.deep_merge(s, {"dragons": [["B"], [], []]})
    s2, _ = g.apply(s, {"type": "action", "player": "A", "group": 0, "card": "taxes"})
    assert s2["players"]["A"]["yuan"] == 6 - 5 + 2
    s3, _ = g.apply(s, {"type": "action", "player": "A", "group": 1, "card": "privilege", "size": "large"})
    assert s3["players"]["A"]["yuan"] == 2


@pytest.mark.parametrize("path", files(EXAMPLES), ids=lambda p: p.stem)
def test_worked_examples_pass(path):
    outcome = run(load_file(path))
    assert outcome.status == "PASS", outcome.line


def test_schema_lists_every_action_type(game):
    from engine.dragon.game import ALL_TYPES
    schema = game.state_schema()
    types = {a["properties"]["type"]["const"] for a in schema["action"]["oneOf"]}
    assert types == ALL_TYPES
    state = game.new_state(["A", "B"], {"edition": "2017", "great_wall": True}, 1)
    assert schema_errors(game, state) == []
    assert schema_errors(game, dict(state, stray=1)) != []  # closed: an undescribed key is reported


def _event_state(game, opts, players, **extra):
    names = list(players)
    s = game.new_state(names, opts, 11)
    st.deep_merge(s, {"phase": "event", "queue": [], "steps": ["hold"], "players": players, **extra})
    return s


def test_decay_takes_a_floor_from_each_uninhabited_palace(game):
    """dragon/rule/decay: each uninhabited palace loses 1 floor (a palace of 1 floor is gone); an
    inhabited one keeps its floors. The effect's `per` acts on each palace in turn, not on one."""
    palaces = [{"floors": 2, "persons": []}, {"floors": 1, "persons": []},
               {"floors": 2, "persons": ["farmer-young"]}, {"floors": 3, "persons": []}]
    s = _event_state(game, {}, {"A": {"palaces": palaces}, "B": {}}, round=3)
    s, _ = game.run(s, "decay")
    assert [p["floors"] for p in s["players"]["A"]["palaces"]] == [1, 2, 2]


def test_great_wall_scoring(game):
    opts = {"great_wall": True}
    two = [{"floors": 2, "persons": ["farmer-young", "monk-young"]}, {"floors": 2, "persons": []}]
    players = {"A": {"person": 9, "palaces": two}, "B": {"person": 8, "palaces": two}, "C": {"person": 7, "palaces": two}}
    # round 5 Mongol Invasion: a wall of 5 reaches the tile -> 1 VP per own tile
    s = _event_state(game, opts, players, round=5, wall=["A", "A", "B", "A", "B"])
    s, _ = game.run(s, "wall")
    assert [s["players"][n]["vp"] for n in "ABC"] == [3, 2, 0] and s["pending"] == []
    # a wall of 4 does not reach it -> the fewest (C, none) releases 1 person
    s = _event_state(game, opts, players, round=5, wall=["A", "A", "B", "A"])
    s, _ = game.run(s, "wall")
    assert [p["player"] for p in s["pending"]] == ["C"] and all(s["players"][n]["vp"] == 0 for n in "ABC")
    # final scoring: 12 tiles -> 1 VP per own tile
    s = _event_state(game, opts, players, round=12, wall=["A"] * 6 + ["B"] * 5 + ["C"])
    s, _ = game.run(s, "wall_final")
    assert [s["players"][n]["vp"] for n in "ABC"] == [6, 5, 1]


def test_wall_action_bonus(game):
    s = game.new_state(["A", "B"], {"great_wall": True}, 2)
    st.deep_merge(s, {"phase": "action", "queue": ["A", "B"], "steps": ["hold"],
                      "groups": [["great-wall", "taxes", "harvest", "build"], ["privilege", "research", "fireworks", "military-parade"]],
                      "dragons": [[], []]})
    s2, _ = game.apply(s, {"type": "action", "player": "A", "group": 0, "card": "great-wall", "tile": "gw-wall-vp"})
    assert s2["players"]["A"]["vp"] == 3 and s2["wall"] == ["A"] and "gw-wall-vp" not in s2["players"]["A"]["wall"]
    s3, _ = game.apply(s, {"type": "action", "player": "A", "group": 0, "card": "great-wall", "tile": "gw-wall-palace-floor", "new": [1]})
    assert len(s3["players"]["A"]["palaces"]) == 3
    st.deep_merge(s, {"wall": ["B"] * 12})
    _illegal(game, s, {"type": "action", "player": "A", "group": 0, "card": "great-wall", "tile": "gw-wall-vp"},
             "dragon/unknown/gw-wall-exhausted")


def test_great_events_effects(game):
    court = [{"floors": 3, "persons": ["monk-elder", "farmer-young"]}, {"floors": 1, "persons": ["monk-young"]}]
    players = {"A": {"person": 9, "palaces": court, "privileges": {"small": 1, "large": 1}},
               "B": {"person": 4, "palaces": [{"floors": 2, "persons": ["craftsman"]}]}}

    def great(event):
        s = _event_state(game, {"great_events": True, "great_event": event}, players, round=7)
        return game.run(s, "great")[0]

    s = great("ge-lantern-festival")
    assert (s["players"]["A"]["vp"], s["players"]["B"]["vp"]) == (6, 2)
    s = great("ge-buddha")
    assert (s["players"]["A"]["vp"], s["players"]["B"]["vp"]) == (2 * 3 + 1 * 1, 0)
    s = great("ge-assassination-attempt")
    assert s["players"]["A"]["privileges"] == {"small": 0, "large": 0}
    s = great("ge-volcanic-eruption")
    assert s["players"]["A"]["person"] == s["players"]["B"]["person"] == 0
    from engine.dragon.common import track_order
    assert track_order(s) == ["A", "B"]  # the marker in front ends on top
    s = great("ge-tornado")
    assert [p["player"] for p in s["pending"]] == ["A", "B"]
    s, _ = game.apply(s, {"type": "discard_card", "player": "A", "card": "joker"})
    s, _ = game.apply(s, {"type": "discard_card", "player": "A", "card": "joker"})
    assert "joker" not in s["players"]["A"]["hand"] and len(s["players"]["A"]["hand"]) == 9
    s = great("ge-earthquake")
    _illegal(game, s, {"type": "floor", "player": "A", "palace": 1}, "dragon/event/ge-earthquake")  # full: name the person
    s, _ = game.apply(s, {"type": "floor", "player": "A", "palace": 1, "slot": 0})
    assert len(s["players"]["A"]["palaces"]) == 1 and s["released"]["monk-young"] == 1
    s, _ = game.apply(s, {"type": "floor", "player": "A", "palace": 0})
    assert s["players"]["A"]["palaces"][0]["floors"] == 2
    s = great("ge-sunrise")
    s, _ = game.apply(s, {"type": "sunrise", "player": "A", "person": "scholar-young", "palace": 0})
    _illegal(game, s, {"type": "sunrise", "player": "B", "person": "scholar-young", "palace": 0}, "dragon/event/ge-sunrise")
    assert s["players"]["A"]["person"] == 9 + 4
