"""Which effects the engine runs (tests/effect_coverage.py). In every game each effect is executed by the
interpreter, restates (`apply`) entities it executed, or names a mechanism, except the ones listed here
as not migrated yet. A behaviour moved back into hand-written code, or a migrated one left on a list,
fails the test."""
from __future__ import annotations

from engine.core.game import get_game
from tests.effect_coverage import covered, executed

# Dragon effects the engine does not run yet, and why (what is left of the migration)
NOT_YET = {
    "dragon/setup-step/gw-setup-action-card": "setup (engine/dragon/setup.py) is written by hand",
    "dragon/setup-step/gw-setup-wall-tiles": "setup (engine/dragon/setup.py) is written by hand",
    "dragon/setup-step/initial-persons": "the draft validates by hand (engine/dragon/phases.py)",
}

# ZhanGuo's, and why
ZHANGUO_NOT_YET = {
    "zhanguo/phase/play": "the turn order of phase 2 is the flow's (engine/zhanguo/game.py)",
    "zhanguo/rule/how-to-play-a-card": "the choice of unification or a court action is the player's action type",
    "zhanguo/rule/court-actions": "the card to the court and the activation are the flow's (engine/zhanguo/court.py)",
    "zhanguo/variant/card-selection": "a `modify` of phase 1, run by engine/zhanguo/draw.py",
    "zhanguo/variant/unrest-per-worker": "a `modify` of Hire Workers: the vocabulary's unrest step reads its attribute",
}


def _left(key: str) -> tuple[set[str], set[str]]:
    """(executed or restated, neither and no mechanism) entity ids of a game."""
    ran, _, mechanism, with_effect = covered(key)
    return ran, with_effect - ran - mechanism


def test_every_dragon_effect_runs_or_names_a_mechanism_or_is_listed():
    ran, left = _left("dragon")
    assert left == set(NOT_YET), (f"not run and not listed: {sorted(left - set(NOT_YET))}; "
                                  f"listed but now run: {sorted(set(NOT_YET) - left)}")
    assert len(ran) >= 41
    # the Great Wall action runs its effect, whose option for the chosen tile applies the tile's
    assert {"dragon/action/great-wall", "dragon/tile/gw-wall-yuan"} <= executed("dragon")


# Gugong: the families the engine runs from their effects (engine/gugong/vocabulary.py), each entity
# of which the worked examples, scenarios and seeded games meet; moved back into hand-written code,
# one stops being executed and fails this test
GUGONG_RUN = {"gugong/scoring-rule/end-wall", "gugong/rule/wall-scoring", "gugong/rule/night-most-matches",
              "gugong/rule/palace-extra-steps", "gugong/port/port-2", "gugong/port/port-3", "gugong/port/port-5",
              "gugong/action-option/jade-action", "gugong/action-option/decrees-action",
              "gugong/rule/solo-intrigue-day", "gugong/rule/solo-palace-day", "gugong/step/night-move-ships"}
GUGONG_RUN_KINDS = {"decree", "reward", "card-ability"}
GUGONG_OPTIONS = ("travel", "intrigue", "palace", "great-wall", "grand-canal")


def test_gugong_decrees_ports_rewards_abilities_and_scorings_run_from_their_effects():
    entities = get_game("gugong").rules.entities
    ran = executed("gugong")
    wanted = GUGONG_RUN | {i for i, e in entities.items() if e.get("effect") and e["kind"] in GUGONG_RUN_KINDS} \
        | {f"gugong/action-option/{loc}-{o}" for loc in GUGONG_OPTIONS for o in "ab"}
    assert wanted <= ran, f"not run from their effects: {sorted(wanted - ran)}"
    tokens = {i for i, e in entities.items() if e["kind"] == "token" and i in ran}
    assert len(tokens) >= 10, sorted(tokens)


# Gugong's effects the engine does not run, and why
GUGONG_NOT_YET: dict[str, str] = {}
APPENDIX = "gugong/rule/appendix-"


def test_every_gugong_effect_runs_or_names_a_mechanism_or_restates_one_or_is_listed():
    """The rulebook's appendix repeats each decree, travel token, intrigue reward and gift card benefit:
    each repeat applies the entity it repeats (`apply`), whose effect the engine runs; a repeat counts
    only when what it applies ran, and the engine never runs the repeat itself."""
    ran, restated, _, _ = covered("gugong")
    left = _left("gugong")[1]
    assert left == set(GUGONG_NOT_YET), (f"not run and not listed: {sorted(left - set(GUGONG_NOT_YET))}; "
                                         f"listed but now run: {sorted(set(GUGONG_NOT_YET) - left)}")
    assert not {i for i in executed("gugong") if i.startswith(APPENDIX)}, "an appendix repeat runs instead of its entity"
    assert {i for i in ran if i.startswith(APPENDIX)} == restated and len(restated) >= 34
    assert len(ran) >= 136


def test_every_zhanguo_effect_runs_or_names_a_mechanism_or_is_listed():
    ran, left = _left("zhanguo")
    assert left == set(ZHANGUO_NOT_YET), (f"not run and not listed: {sorted(left - set(ZHANGUO_NOT_YET))}; "
                                          f"listed but now run: {sorted(set(ZHANGUO_NOT_YET) - left)}")
    assert len(ran) >= 46


def test_a_restatement_counts_only_when_what_it_applies_ran(monkeypatch):
    """Nothing is claimed that did not run: with the decree it applies left out of what the engine ran,
    the appendix's repeat of it is neither executed nor restated."""
    import tests.effect_coverage as coverage

    ran = executed("gugong") - {"gugong/decree/l1-ship"}
    monkeypatch.setattr(coverage, "executed", lambda key: ran)
    executed_now, restated, mechanism, _ = coverage.covered("gugong")
    assert "gugong/rule/appendix-decree-l1-ship" not in executed_now | restated | mechanism
    assert "gugong/rule/appendix-decree-l1-servant" in restated
