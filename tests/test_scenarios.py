"""Scenario files of the three games (kb/data/<game>/scenarios): prohibitions the rulebooks state, each
refused by the engine naming its rule entity and citing real source lines; readings where the sources
disagree; and setup validation, which refuses impossible positions."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from engine.core import scenario
from engine.core.game import get_game

ROOT = Path(__file__).parent.parent
DATA = ROOT / "kb" / "data"
SCENARIOS = sorted(DATA.glob("*/scenarios/*.yaml"))
READINGS = Path(__file__).parent / "data" / "readings"
SOURCES = {s["id"]: ROOT / "kb" / "sources" / s["file"]
           for s in yaml.safe_load((ROOT / "kb" / "sources" / "manifest.yaml").read_text(encoding="utf-8"))["sources"]}


def doc(path: Path) -> dict:
    return scenario.load_file(path)


@pytest.fixture(scope="module")
def entity_ids() -> set[str]:
    return {i for g in ("gugong", "dragon", "zhanguo") for i in get_game(g).rules.entities}


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: f"{p.parent.parent.name}/{p.stem}")
def test_scenario_passes(path):
    outcome = scenario.run(doc(path), source=str(path))
    assert outcome.status == "PASS", outcome.line


def test_every_game_has_dozens_of_refusal_scenarios():
    per_game: dict[str, int] = {}
    for path in SCENARIOS:
        d = doc(path)
        if any("rejected" in step for step in d.get("steps") or []):
            per_game[d["game"]] = per_game.get(d["game"], 0) + 1
    assert all(per_game.get(g, 0) >= 20 for g in ("gugong", "dragon", "zhanguo")), per_game


def test_scenarios_cite_real_lines_and_name_real_rules(entity_ids):
    for path in SCENARIOS:
        d = doc(path)
        assert d["id"] == f"{d['game']}/scenario/{path.stem}", path
        assert d.get("source_refs"), f"{path}: cites no source"
        for ref in d["source_refs"]:
            lines = SOURCES[ref["source"]].read_text(encoding="utf-8").splitlines()
            a, b = ref["lines"]
            assert 1 <= a <= b <= len(lines), f"{path}: {ref} is outside {ref['source']}"
            assert any(line.strip() for line in lines[a - 1:b]), f"{path}: {ref} cites blank lines"
            assert ref["source"].startswith(d["game"]), f"{path}: {ref['source']} is another game's source"
        for step in d.get("steps") or []:
            rejected = step.get("rejected")
            if isinstance(rejected, dict):
                assert rejected["rule"] in entity_ids, f"{path}: no entity {rejected['rule']}"


def test_readings_where_the_dragon_editions_disagree():
    """The large privilege costs 6 yuan in 2007 and 7 in 2017: each reading passes under its edition,
    and the 2007 one fails under the default edition (2017)."""
    old = doc(DATA / "dragon" / "scenarios" / "privilege-large-6-yuan-2007.yaml")
    new = doc(DATA / "dragon" / "scenarios" / "privilege-large-7-yuan-2017.yaml")
    assert (old["follows"], new["follows"]) == ("2007", "2017")
    assert get_game("dragon").default_edition == "2017"
    assert scenario.run(old).status == scenario.run(new).status == "PASS"
    assert scenario.run({**old, "follows": None, "options": {}}).status == "FAIL"
    assert scenario.run({**new, "follows": None, "options": {"edition": "2007"}}).status == "FAIL"
    # a file cannot follow one edition and run another
    assert scenario.run({**old, "options": {"edition": "2017"}}).status == "ERROR"


def test_the_polish_night_dice_reading_fails_as_the_engine_follows_the_numbers():
    """gugong/example/night-dice (follows: cs) passes; the Polish text's winner contradicts the
    example's own numbers, so its reading is kept as a scenario that fails."""
    cs = doc(DATA / "gugong" / "examples" / "night-dice.yaml")
    pl = doc(READINGS / "night-dice-polish-reading.yaml")
    assert (cs["follows"], pl["follows"]) == ("cs", "pl")
    assert scenario.run(cs).status == "PASS"
    failed = scenario.run(pl)
    assert failed.status == "FAIL" and "players.Kuba.vp is 0, expected 3" in failed.line


IMPOSSIBLE = {
    "gugong": ({"players": {"A": {"pool": 40}}}, "negative servant count"),
    "dragon": ({"players": {"A": {"hand": ["joker", "joker", "joker"]}}}, "person cards are not one of each type"),
    "zhanguo": ({"players": {"A": {"hand": [1, 1]}}}, "cards in two places"),
}


@pytest.mark.parametrize("game", sorted(IMPOSSIBLE))
def test_an_impossible_setup_is_refused_naming_the_invariant(game):
    setup, invariant = IMPOSSIBLE[game]
    d = {"format": 2, "id": f"{game}/scenario/impossible", "game": game, "players": ["A", "B"],
         "setup": setup, "steps": [], "expect": [{"path": "players.A", "absent": False}]}
    out = scenario.run(d)
    assert out.status == "FAIL" and out.checks[0].where == "setup"
    assert any(invariant in c.actual for c in out.checks), [c.actual for c in out.checks]
    # the same scenario without the impossible part runs
    assert scenario.run({**d, "setup": {}}).status == "PASS"


# issue 36: the engine bugs a reader's scenarios found, each fixed with a scenario citing the lines
# that state the rule (source, first line, last line: each must lie within one of the file's refs)
BUG_SCENARIOS = {
    "gugong/canal-b-needs-three-servants": [("gugong-pl", 919, 924), ("gugong-cs", 830, 832)],
    "gugong/decree-needs-a-servant-to-place": [("gugong-pl", 742, 746)],
    "gugong/double-servant-pays-one": [("gugong-pl", 1005, 1007), ("gugong-cs", 905, 907)],
    "gugong/solo-jade-card-free-travel-at-dusk": [("gugong-pl", 1449, 1451), ("gugong-cs", 1331, 1332)],
    "gugong/solo-decrees-card-free-travel-at-dusk": [("gugong-pl", 1501, 1502)],
    "zhanguo/free-shift-any-moment-of-the-turn": [("zhanguo-pl", 574, 576), ("zhanguo-pl", 642, 644)],
    "gugong/solo-options-need-one-player": [("gugong-pl", 1199, 1200)],
    "gugong/two-decree-tiles-per-level": [("gugong-pl", 181, 187)],
    "dragon/no-elder-craftsman": [("dragon-2007-pl", 63, 64), ("dragon-2017-pl", 95, 98)],
    "dragon/no-twin-events-side-by-side": [("dragon-2007-pl", 72, 76), ("dragon-2017-pl", 118, 123)],
    "zhanguo/one-player-per-b-board": [("zhanguo-pl", 227, 227)],
}


@pytest.mark.parametrize("key", sorted(BUG_SCENARIOS))
def test_each_engine_bug_a_reader_found_has_a_passing_scenario_citing_its_lines(key):
    game, stem = key.split("/")
    d = doc(DATA / game / "scenarios" / f"{stem}.yaml")
    assert scenario.run(d).status == "PASS"
    for source, a, b in BUG_SCENARIOS[key]:
        assert any(r["source"] == source and r["lines"][0] <= a and b <= r["lines"][1] for r in d["source_refs"]), \
            (key, source, a, b)


def test_a_refused_setup_never_reaches_the_step_it_would_crash():
    """An elder craftsman (no such tile) made final scoring fail with a KeyError; the setup is now
    refused before any step runs, and a version 1 file, which runs unchecked, reports an error."""
    d = doc(DATA / "dragon" / "scenarios" / "no-elder-craftsman.yaml")
    run_it = {**d, "steps": [{"run": "end_scoring"}], "expect": [{"path": "players.A.vp", "at_least": 0}]}
    refused = scenario.run(run_it)
    assert refused.status == "FAIL" and refused.checks[0].where == "setup"
    assert "no person tile is" in refused.checks[0].actual
    unchecked = scenario.run({k: v for k, v in run_it.items() if k != "format"})
    assert unchecked.status == "ERROR" and "craftsman-elder" in unchecked.message, unchecked.line
