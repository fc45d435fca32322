"""The engine core on a toy game: atomic apply, replay, seeded chance, scenarios."""
import json
from collections import Counter

import pytest

from engine.core import IllegalAction, MalformedAction, Rng
from engine.core.errors import EngineError, SeatError
from engine.core import game as core_game
from engine.core import scenario
from engine.core.game import Game, Rules
from engine.core.gametype import GameType, Information
from engine.core.play import random_game
from engine.core.state import copy, deep_merge, get_path


class Race(Game):
    """Players take turns adding 1 or 2 to their total; a die roll adds a bonus; first to 10 wins."""
    key = "race"

    def __init__(self):
        # the rules its refusals name (a scenario's `rejected` ids are checked against them)
        super().__init__(Rules("race", {"race/rule/add": {}, "race/rule/turn-order": {}}, {}))

    @classmethod
    def over(cls, url=None):  # a toy: its rules are in its code, not in a database
        return cls()

    def declare(self):
        return GameType("race", "Race", 1, 6, options=(), information=Information(secret=("rng",)))

    def new_state(self, players, options=None, seed=0):
        return {"rng": Rng.seed_state(seed), "turn": 0, "order": list(players),
                "players": {p: {"total": 0} for p in players}}

    def current_player(self, s):
        return None if self.is_terminal(s) else s["order"][s["turn"] % len(s["order"])]

    def legal_actions(self, s):
        p = self.current_player(s)
        return [] if p is None else [{"type": "add", "player": p, "n": n} for n in (1, 2)]

    def _apply(self, s, a, events):
        if a.get("type") != "add":
            raise MalformedAction(f"unknown action type {a.get('type')!r}")
        if a.get("player") != self.current_player(s):
            raise IllegalAction("race/rule/turn-order", "it is not your turn")
        if a.get("n") not in (1, 2):
            raise IllegalAction("race/rule/add", "add 1 or 2")
        s["players"][a["player"]]["total"] += a["n"]  # mutate first, so a later failure would show
        if self.rng(s).die() == 6:
            s["players"][a["player"]]["total"] += 1
            events.append({"type": "bonus", "player": a["player"]})
        s["turn"] += 1

    def run(self, s, step):
        if step == "bonus-round":
            s = copy(s)
            for p in s["players"].values():
                p["total"] += 1
            return s, []
        return super().run(s, step)

    def is_terminal(self, s):
        return any(p["total"] >= 10 for p in s["players"].values())

    def scores(self, s):
        ranked = sorted(s["players"].items(), key=lambda kv: -kv[1]["total"])
        return [{"player": p, "vp": v["total"], "rank": i + 1} for i, (p, v) in enumerate(ranked)]

    def state_schema(self):
        return {"state": {"type": "object"}, "action": {"type": "object"}}


@pytest.fixture(autouse=True)
def registered(monkeypatch):
    monkeypatch.setitem(core_game.ENGINES, "race", "tests.test_engine_core:Race")


def test_apply_never_mutates_its_input_and_rejects_with_the_rule():
    g = Race()
    s = g.new_state(["A", "B"], seed=1)
    frozen = json.dumps(s, sort_keys=True)
    s2, _ = g.apply(s, {"type": "add", "player": "A", "n": 2})
    assert json.dumps(s, sort_keys=True) == frozen and s2["players"]["A"]["total"] >= 2
    with pytest.raises(IllegalAction) as exc:
        g.apply(s2, {"type": "add", "player": "A", "n": 1})
    assert exc.value.rule == "race/rule/turn-order"
    with pytest.raises(MalformedAction):
        g.apply(s2, ["add"])
    with pytest.raises(MalformedAction):
        g.apply(s2, {"type": "jump", "player": "B"})


def test_seed_and_actions_replay_exactly_and_states_round_trip():
    g = Race()
    played = random_game(g, 3, seed=42, check=True)
    again = g.replay(played.players, {}, 42, played.actions)
    assert again == played.final
    assert json.loads(json.dumps(played.final)) == played.final
    assert random_game(g, 3, seed=42).actions == played.actions
    assert random_game(g, 3, seed=43).actions != played.actions


def test_rng_is_uniform_enough_and_deterministic():
    r = Rng({"rng": Rng.seed_state(7)})
    rolls = Counter(r.die() for _ in range(6000))
    assert set(rolls) == {1, 2, 3, 4, 5, 6} and all(800 < c < 1200 for c in rolls.values())
    a, b = Rng({"rng": Rng.seed_state(5)}), Rng({"rng": Rng.seed_state(5)})
    assert [a.below(100) for _ in range(50)] == [b.below(100) for _ in range(50)]
    items = list(range(20))
    Rng({"rng": Rng.seed_state(3)}).shuffle(items)
    assert sorted(items) == list(range(20)) and items != list(range(20))


def test_state_helpers():
    s = {"players": {"Kuba": {"vp": 3, "ships": [1, 2]}}}
    assert get_path(s, "players.Kuba.ships.1") == 2
    with pytest.raises(KeyError):
        get_path(s, "players.Ania.vp")
    assert deep_merge(copy(s), {"players": {"Kuba": {"vp": 5}}}) == {"players": {"Kuba": {"vp": 5, "ships": [1, 2]}}}


def scenario_doc(**kw):
    doc = {"id": "race/example/t", "game": "race", "players": ["A", "B"], "seed": 1,
           "setup": {"players": {"A": {"total": 5}}},
           "steps": [{"player": "A", "action": {"type": "add", "n": 1}}, {"run": "bonus-round"}],
           "expect": [{"path": "players.B.total", "equals": 1}, {"path": "players.A.total", "delta": 2}]}
    doc.update(kw)
    return doc


def test_scenario_pass_fail_pending_error():
    # A gets 1 (+1 on a six) and 1 from the bonus round
    out = scenario.run(scenario_doc())
    a_gain = out.state["players"]["A"]["total"] - 5
    assert out.status == ("PASS" if a_gain == 2 else "FAIL")
    failing = scenario.run(scenario_doc(expect=[{"path": "players.B.total", "equals": 7}]))
    assert failing.status == "FAIL" and "players.B.total is 1, expected 7" in failing.line
    assert scenario.run(scenario_doc(steps=None, expect=None)).status == "PENDING"
    illegal = scenario.run(scenario_doc(steps=[{"player": "B", "action": {"type": "add", "n": 1}}]))
    assert illegal.status == "FAIL" and "not your turn" in illegal.line and illegal.checks[0].where == "steps[0]"
    assert scenario.run(scenario_doc(game="chess")).status == "ERROR"
    assert "does not exist" in scenario.run(scenario_doc(expect=[{"path": "players.C.total", "equals": 1}])).line


def test_own_copies_a_shared_sub_tree_once_and_leaves_the_input_alone():
    from engine.core import state as st
    state = {"players": {"a": {"hand": [1, 2], "board": {"x": {"n": 0}}}}}
    work = st.draft(state)
    assert work["players"]["a"] is not state["players"]["a"]  # the top two levels are private
    assert work["players"]["a"]["hand"] is state["players"]["a"]["hand"]  # deeper ones shared until owned
    hand = st.own(work["players"]["a"], "hand")
    hand.append(3)
    assert st.own(work["players"]["a"], "hand") is hand  # owned once per apply
    st.own(st.own(work["players"]["a"], "board"), "x")["n"] += 1
    st.end_draft()
    assert state == {"players": {"a": {"hand": [1, 2], "board": {"x": {"n": 0}}}}}
    assert work == {"players": {"a": {"hand": [1, 2, 3], "board": {"x": {"n": 1}}}}}


@pytest.mark.parametrize("key,players,options", [
    ("gugong", 4, {}), ("gugong", 1, {}), ("dragon", 5, {"edition": "2017", "great_wall": True, "great_events": True}),
    ("dragon", 3, {"edition": "2007"}), ("zhanguo", 4, {}), ("zhanguo", 2, {"sides": "auction"})])
def test_apply_shares_unchanged_parts_but_never_writes_into_its_input(key, players, options):
    """apply copies only what an action touches (state.draft/own): along random games, every input
    state is exactly as it was after the engine applied an action to it."""
    game = core_game.get_game(key)
    names = [f"P{i + 1}" for i in range(players)]
    state = game.new_state(names, dict(options), 3)
    agent = Rng({"rng": Rng.seed_state(11)})
    while not game.is_terminal(state):
        before = copy(state)
        legal = game.legal_actions(state)
        new, _ = game.apply(state, legal[agent.below(len(legal))])
        assert state == before
        state = new


def v2(**kw):
    doc = scenario_doc(**{"format": 2, **kw})
    if "seeds" in kw and "seed" not in kw:
        del doc["seed"]
    return doc


def test_a_refused_action_is_expected_by_rule_and_leaves_the_state_unchanged():
    add3 = {"player": "A", "action": {"type": "add", "n": 3}}
    out = scenario.run(v2(steps=[{**add3, "rejected": {"rule": "race/rule/add"}}],
                          expect=[{"path": "players.A.total", "delta": 0}]))
    assert out.status == "PASS", out.line
    wrong_rule = scenario.run(v2(steps=[{**add3, "rejected": {"rule": "race/rule/turn-order"}}], expect=[]))
    assert wrong_rule.status == "FAIL" and wrong_rule.checks[0].actual == "race/rule/add"
    accepted = scenario.run(v2(steps=[{"player": "A", "action": {"type": "add", "n": 1}, "rejected": True}], expect=[]))
    assert accepted.status == "FAIL" and "accepted, expected a refusal" in accepted.line


def test_legal_actions_part_way_checks_and_comparisons():
    out = scenario.run(v2(steps=[
        {"legal": {"player": "A", "includes": [{"n": 2}], "excludes": [{"n": 3}], "count": 2}},
        {"player": "A", "action": {"type": "add", "n": 2}},
        {"check": [{"path": "players.A.total", "at_least": 7}, {"path": "turn", "equals": 1}]},
        {"legal": {"player": "B", "includes": [{"type": "add", "player": "B"}]}}],
        expect=[{"path": "players.A.total", "one_of": [7, 8]}, {"path": "players.A.total", "at_most": 8},
                {"path": "players.A.missing", "absent": True}, {"path": "order", "contains": "B"},
                {"path": "order", "length": 2}]))
    assert out.status == "PASS", out.line
    bad = scenario.run(v2(steps=[{"legal": {"includes": [{"n": 3}]}}], expect=[]))
    assert bad.status == "FAIL" and "no legal action matches" in bad.line
    low = scenario.run(v2(steps=[{"check": [{"path": "players.A.total", "at_least": 6}]}], expect=[]))
    assert low.status == "FAIL" and low.checks[0].expected == {"at_least": 6} and low.checks[0].actual == 5


def test_events_match_partially_and_every_seed_must_hold():
    # a six (bonus event) comes for some seeds only: "at least 1" fails for those without one
    steps = [{"player": "A", "action": {"type": "add", "n": 1}}]
    seeds = scenario.run(v2(seeds=12, steps=steps, expect=[{"event": {"type": "bonus"}}]))
    assert seeds.status == "FAIL" and 0 < len(seeds.failed_seeds) < 12 and seeds.seeds == list(range(12))
    held = [s for s in range(12) if s not in seeds.failed_seeds]
    doc = v2(seeds=held, steps=steps, expect=[{"event": {"type": "bonus", "player": "A"}, "count": 1}])
    assert scenario.run(doc).status == "PASS"
    assert scenario.run({**doc, "seeds": seeds.failed_seeds[:1]}).status == "FAIL"


def test_run_to_the_end_of_the_game_and_null_removes_a_setup_key():
    out = scenario.run(v2(steps=[{"run": "end"}], setup={"players": {"A": {"total": 5}}, "turn": None},
                          expect=[{"path": "players.A.total", "at_least": 0}]))
    assert out.status == "ERROR" and "turn" in out.message  # the engine needs the key the setup removed
    v1 = scenario.run(scenario_doc(setup={"extra": None}, steps=[], expect=[{"path": "extra", "equals": None}]))
    assert v1.status == "PASS"  # version 1: null is a value
    gone = scenario.run(v2(setup={"extra": 1}, steps=[{"run": "end"}], expect=[{"path": "extra", "equals": 1}]))
    assert gone.status == "PASS" and any(p["total"] >= 10 for p in gone.state["players"].values())


@pytest.mark.parametrize("bad, where", [
    ({"steps": [{"player": "A"}]}, "steps[0]: give exactly one of"),
    ({"steps": [{"player": "A", "action": {"type": "add"}, "rejected": "yes"}]}, "steps[0]: rejected:"),
    ({"steps": [{"legal": {"include": []}}]}, "steps[0]: legal:"),
    ({"steps": [{"check": [{"path": "x", "bigger": 1}]}]}, "steps[0].check[0]: unknown"),
    ({"expect": [{"path": "x", "at_least": "two"}]}, "expect[0]: at_least"),
    ({"seeds": 0}, "seeds:"),
    ({"seeds": [1], "seed": 1}, "not both"),
    ({"follows": "de"}, "follows:"),
    ({"format": 3}, "format:"),
])
def test_a_malformed_scenario_is_an_error_naming_the_step(bad, where):
    out = scenario.run(v2(**bad), source="x.yaml")
    assert out.status == "ERROR" and out.message.startswith("x.yaml: ") and where in out.message, out.message


def test_an_event_kind_matches_under_either_key():
    from engine.core.scenario import event_matches
    assert event_matches({"type": "task", "player": "A"}, {"event": "task"})
    assert event_matches({"event": "vp", "player": "A", "vp": 3}, {"type": "vp", "player": "A"})
    assert not event_matches({"event": "vp", "player": "A"}, {"type": "pay"})
    assert not event_matches({"event": "vp", "player": "A"}, {"event": "vp", "player": "B"})


@pytest.mark.parametrize("key,players,options", [
    ("gugong", ["A", "B", "C", "D", "E", "F"], {}), ("dragon", ["A"], {}), ("zhanguo", ["A"], {}),
    ("zhanguo", ["A", "A"], {}), ("dragon", ["A", "B"], {"others": ["C", "D", "E", "F"]})])
def test_a_game_outside_its_player_range_is_refused_by_the_game_type_alone(key, players, options):
    """One player-count check, the game type's (engine/core/gametype.py check_players), with one error
    and one wording for every game; the others of a worked example count as players."""
    game = core_game.get_game(key)
    declared = game.game_type
    with pytest.raises(EngineError) as err:
        game.new_state(players, options, 1)
    assert type(err.value) is SeatError
    count = len(players) + len(options.get("others", []))
    assert str(err.value) in (f"{declared.title} is played by {declared.min_players}-{declared.max_players} players, "
                              f"not {count}", "player names must be distinct")


def test_a_draft_copies_in_one_step_only_what_the_state_schema_declares_flat():
    """state.flat_keys reads the closed state schema: lists and mappings of scalars are flat; a list of
    lists, an object of objects or a mapping the schema leaves open are not (their items need copying)."""
    from engine.core import state as st

    schema = {"properties": {
        "order": {"type": "array", "items": {"type": "string"}},
        "supply": {"type": "object", "additionalProperties": {"type": "integer"}},
        "options": {"type": "object", "properties": {"solo": {"enum": ["easy", None]}}, "additionalProperties": False},
        "groups": {"type": "array", "items": {"type": "array", "items": {"type": "string"}}},
        "players": {"type": "object", "additionalProperties": {"type": "object"}},
        "bank": {"type": "object"},
        "sunrise": {"type": "array"},
        "round": {"type": "integer"}}}
    assert st.flat_keys(schema) == {"order", "supply", "options"}
    state = {"order": ["A"], "supply": {"x": 1}, "groups": [["a"]], "round": 1}
    work = st.draft(state, flat=frozenset({"order", "supply"}))
    st.end_draft()
    work["order"].append("B")
    work["supply"]["x"] = 0
    work["groups"][0].append("b")
    assert state == {"order": ["A"], "supply": {"x": 1}, "groups": [["a"]], "round": 1}  # every level private
    assert work["order"] is not state["order"] and work["supply"] is not state["supply"]
