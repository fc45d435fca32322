"""Scenario format 2 as a rulebook reader writes it (DESIGN.md, "Scenarios — format version 2"): a setup
hands things to players out of their supply, a setup can be expected refused, a check compares two
paths, and a malformed file is an error naming the file, the key and the closest valid key."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from engine.core import scenario

ROOT = Path(__file__).parent.parent
RULEKB = Path(sys.executable).parent / "rulekb"


def gugong(**kw) -> dict:
    doc = {"format": 2, "id": "gugong/scenario/t", "game": "gugong", "options": {"first_player": "Kuba"},
           "players": ["Kuba", "Ania"], "steps": [], "expect": [{"path": "players.Kuba.vp", "at_least": 0}]}
    doc.update(kw)
    return {k: v for k, v in doc.items() if v is not None}


# ------------------------------------------------------------------ a setup takes from the supply
@pytest.mark.parametrize("fmt", [1, 2])
def test_a_card_handed_to_a_player_leaves_the_draw_pile_in_either_format(fmt):
    """9d lies in the draw pile: giving it to Kuba (in place of 9a) takes it from there; 9a, now
    nowhere, goes to the box. No reader writes the draw pile or the box."""
    out = scenario.run(gugong(format=fmt, setup={"players": {"Kuba": {"hand": ["1a", "4a", "6a", "9d"]}}},
                              expect=[{"path": "players.Kuba.hand", "contains": "9d"}]))
    assert out.status == "PASS", out.line
    assert "9d" not in out.state["draw"] and "9a" in out.state["box"]


def test_a_format_1_scenario_with_an_unbalanced_setup_runs_as_before():
    """Version 1 never checked the setup: servants, yuan and cards written for the players alone run,
    and even a position no game reaches (40 servants) is run rather than refused."""
    v1 = {"id": "gugong/example/v1", "game": "gugong", "options": {"first_player": "Kuba"},
          "players": ["Kuba", "Ania"], "setup": {"players": {"Kuba": {"pool": 9, "jade": 3}}},
          "steps": [], "expect": [{"path": "players.Kuba.pool", "equals": 9}]}
    out = scenario.run(v1)
    assert out.status == "PASS", out.line
    assert out.state["players"]["Kuba"]["supply"] == 3  # the 12 servants stay 12: the supply gave them
    assert scenario.run({**v1, "setup": {"players": {"Kuba": {"pool": 40}}},
                         "expect": [{"path": "players.Kuba.pool", "equals": 40}]}).status == "PASS"
    # the same impossible position in format 2 is refused at setup
    refused = scenario.run({**v1, "format": 2, "setup": {"players": {"Kuba": {"pool": 40}}}})
    assert refused.status == "FAIL" and refused.checks[0].where == "setup"


def test_dragon_yuan_and_zhanguo_cards_come_out_of_their_supplies():
    dragon = scenario.run({"format": 2, "id": "dragon/scenario/t", "game": "dragon", "players": ["A", "B"],
                           "setup": {"players": {"A": {"yuan": 20, "rice": 2}}},
                           "expect": [{"path": "players.A.yuan", "equals": 20}]})
    assert dragon.status == "PASS", dragon.line
    start = scenario.run({"format": 2, "id": "dragon/scenario/t0", "game": "dragon", "players": ["A", "B"],
                          "expect": [{"path": "bank.yuan", "at_least": 0}]}).state
    assert dragon.state["bank"]["yuan"] == start["bank"]["yuan"] - (20 - start["players"]["A"]["yuan"])
    assert dragon.state["bank"]["rice"] == start["bank"]["rice"] - 2
    zhanguo = scenario.run({"format": 2, "id": "zhanguo/scenario/t", "game": "zhanguo", "players": ["A", "B"],
                            "setup": {"players": {"A": {"hand": [1, 41, 81]}}},
                            "expect": [{"path": "players.A.hand", "length": 3}]})
    assert zhanguo.status == "PASS", zhanguo.line
    assert not {1, 41, 81} & {c for d in zhanguo.state["decks"].values() for c in d}


# ------------------------------------------------------------------ expect: {setup: refused}
def test_an_impossible_setup_can_be_expected_refused_by_its_rule():
    # a named tile replaces a drawn one of its level; four named ones cannot all be in play
    four = {"decrees": {"l1-intrigue": [], "l1-palace": [], "l1-ship": [], "l1-servant": []}}
    two = scenario.run(gugong(setup={"decrees": {"l1-ship": ["Kuba"]}}, expect=[{"path": "decrees.l1-ship", "equals": ["Kuba"]}]))
    assert two.status == "PASS" and sum(d.startswith("l1-") for d in two.state["decrees"]) == 2
    assert two.state["players"]["Kuba"]["decrees"] == ["l1-ship"]
    refused = scenario.run(gugong(setup=four, expect={"setup": "refused", "rule": "gugong/setup-step/decrees"}))
    assert refused.status == "PASS", refused.line
    assert "4 decree tiles of level 1 in play, not 2" in refused.checks[0].actual
    wrong_rule = scenario.run(gugong(setup=four, expect={"setup": "refused", "rule": "gugong/setup-step/destiny-dice"}))
    assert wrong_rule.status == "FAIL" and "refused for another reason" in wrong_rule.line
    legal = scenario.run(gugong(setup={"players": {"Kuba": {"vp": 5}}}, expect={"setup": "refused"}))
    assert legal.status == "FAIL" and "accepted, expected a refusal" in legal.line


def test_options_no_game_is_set_up_with_are_a_refused_setup():
    doc = gugong(players=["Kuba", "Ania", "Jola"], options={"solo": "hard", "first_player": "Kuba"},
                 expect={"setup": "refused", "rule": "gugong/variant/solo"})
    assert scenario.run(doc).status == "PASS"
    # without expecting it, the same options are an error, never a game that ignores them
    out = scenario.run({**doc, "expect": [{"path": "solo", "equals": None}]})
    assert out.status == "ERROR" and "solo" in out.message


# ------------------------------------------------------------------ comparing two paths
def test_a_check_compares_two_paths_of_the_state():
    doc = gugong(setup={"players": {"Kuba": {"vp": 7}, "Ania": {"vp": 3}}}, expect=[
        {"path": "players.Kuba.vp", "greater_than": {"path": "players.Ania.vp"}},
        {"path": "players.Ania.vp", "less_than": {"path": "players.Kuba.vp"}},
        {"path": "players.Ania.pool", "equals": {"path": "players.Kuba.pool"}},
        {"path": "players.Kuba.vp", "at_least": {"path": "players.Ania.vp"}}])
    assert scenario.run(doc).status == "PASS"
    wrong = scenario.run({**doc, "expect": [{"path": "players.Ania.vp", "greater_than": {"path": "players.Kuba.vp"}}]})
    assert wrong.status == "FAIL" and "expected more than players.Kuba.vp (7)" in wrong.line
    gone = scenario.run({**doc, "expect": [{"path": "players.Ania.vp", "equals": {"path": "players.Ola.vp"}}]})
    assert gone.status == "FAIL" and "players.Ola.vp does not exist" in gone.line


# ------------------------------------------------------------------ malformed files
@pytest.mark.parametrize("change, words", [
    ({"expectt": []}, ["unknown key `expectt`", "did you mean `expect`"]),
    ({"step": [{"run": "end"}], "steps": None, "expect": None}, ["unknown key `step`", "did you mean `steps`"]),
    ({"expects": [{"path": "x", "equals": 1}], "expect": None}, ["unknown key `expects`", "`expect`"]),
    ({"steps": [{"player": "Kuba", "action": {"type": "pass"}, "rejectd": True}]},
     ["steps[0]", "unknown key `rejectd`", "did you mean `rejected`"]),
    ({"steps": [{"check": [{"path": "players.Kuba.vp", "equal": 1}]}]},
     ["steps[0].check[0]", "unknown key `equal`", "did you mean `equals`"]),
    ({"expect": [{"path": "players.Kuba.vp", "greater_then": 1}]}, ["expect[0]", "did you mean `greater_than`"]),
    ({"steps": [{"legal": {"exclude": []}}]}, ["steps[0]: legal:", "did you mean `excludes`"]),
    ({"expect": {"setup": "refused", "rules": "x"}}, ["expect:", "did you mean `rule`"]),
    ({"setup": {"players": {"Kuba": {"pool": "five"}}}}, ["setup.players.Kuba.pool: a whole number, not 'five'"]),
    ({"setup": {"players": {"Kuba": {"pol": 5}}}}, ["setup.players.Kuba: unknown key `pol`", "did you mean `pool`"]),
    ({"setup": {"players": {"Kuab": {"vp": 1}}}}, ["setup.players: unknown key `Kuab`", "did you mean `Kuba`"]),
    ({"setup": {"players": {"Kuba": {"hand": "9a"}}}}, ["setup.players.Kuba.hand: a list"]),
    ({"steps": [{"player": "Kuba", "action": {"type": "pass"}, "rejected": {"rule": "gugong/rule/decree-onse"}}]},
     ["'gugong/rule/decree-onse' is not an entity", "did you mean 'gugong/rule/decree-once'"]),
    ({"expect": {"setup": "refused", "rule": "gugong/setup-step/decres"}}, ["is not an entity"]),
])
def test_a_malformed_scenario_is_an_error_naming_the_file_the_key_and_the_closest_one(change, words):
    out = scenario.run(gugong(**change), source="reader.yaml")
    assert out.status == "ERROR" and out.message.startswith("reader.yaml: "), out.line
    for w in words:
        assert w in out.message, out.message


def test_a_folder_run_lists_every_file_and_never_skips_one(tmp_path):
    """The installed command: a misspelled key makes an ERROR line for its file, not a missing one."""
    good = gugong(id="gugong/scenario/good")
    (tmp_path / "good.yaml").write_text(yaml.safe_dump(good), encoding="utf-8")
    (tmp_path / "typo.yaml").write_text(yaml.safe_dump({**{k: v for k, v in good.items() if k != "steps"},
                                                        "id": "gugong/scenario/typo", "step": []}), encoding="utf-8")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "nothing.yaml").write_text("title: {en: no steps yet}\n", encoding="utf-8")
    run = subprocess.run([str(RULEKB), "scenario", "run", str(tmp_path)], capture_output=True, text=True,
                         cwd=ROOT, timeout=120)
    assert run.returncode == 1, run.stdout + run.stderr
    assert "PASS gugong/scenario/good" in run.stdout
    assert "typo.yaml" in run.stdout and "unknown key `step`; did you mean `steps`?" in run.stdout
    assert "nothing.yaml" in run.stdout  # reported (as an error: no players), not skipped
    assert "3 scenarios:" in run.stdout
