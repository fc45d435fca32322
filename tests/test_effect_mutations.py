"""Effects drive play: change a Dragon, Gugong or ZhanGuo effect in an in-memory copy of the knowledge base
(repeat a step, change a number, change a condition), compile the rule set as the build does, and the
rulebook's worked example that exercises it fails while the effect's rendered pl, cs and en texts change,
with no code change (ARCHITECTURE.md, "Effects"; the engines run effects through engine/core/effects.py)."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from engine.core import scenario
from engine.dragon.game import Dragon
from engine.gugong.game import Gugong
from engine.zhanguo.game import ZhanGuo
from i18n.derived import rendered_effects
from tests.test_constants_propagate import rules

DATA = Path(__file__).resolve().parent.parent / "kb" / "data"
GAMES = {"dragon": Dragon, "gugong": Gugong, "zhanguo": ZhanGuo}


def changed_effect(kb, entity_id: str, change):
    """A copy of the knowledge base in which one entity's effect went through `change`."""
    rec = kb.records[entity_id]
    item = rec.item.model_copy(deep=True)
    item.effect = change(item.effect)
    records = dict(kb.records)
    records[entity_id] = replace(rec, item=item)
    return replace(kb, records=records)


def repeat_first_step(effect):
    return [effect[0]] + effect


def research_scores(n):
    def change(effect):
        first = dict(effect[0])
        first["move"] = dict(first["move"], steps=n)
        return [first] + effect[1:]
    return change


def festival_ranks_swapped(effect):
    """The most and the second most fireworks trade their conditions (the points stay in place)."""
    most, second = effect[0]["condition"], effect[1]["condition"]
    return [{"condition": {"if": second["if"], "do": most["do"]}},
            {"condition": {"if": most["if"], "do": second["do"]}}] + effect[2:]


def cards_drawn(n):
    """A port's reward draws n gift cards instead of the one its effect says."""
    def change(effect):
        return [{"gain": {"card": n}}] + effect[1:]
    return change


def ship_condition(text):
    """The morning ship bonus offers the port reward under another condition the engine knows."""
    def change(effect):
        trigger = effect[1]["trigger"]
        place, cond = trigger["do"][0]["optional"]["do"]
        cond = {"condition": dict(cond["condition"], **{"if": text})}
        return [effect[0], {"trigger": dict(trigger, do=[{"optional": {"do": [place, cond]}}])}]
    return change


def majority_points(n):
    """The governor majority's points for the region become n (the points per governor stay)."""
    def change(effect):
        per = effect[0]["per"]
        cond = per["do"][0]["condition"]
        do = [{"gain": {"vp": n}}] + cond["do"][1:]
        return [{"per": dict(per, do=[{"condition": dict(cond, do=do)}])}] + effect[1:]
    return change


def majority_by_markers(effect):
    """The governor majority's condition becomes another the engine knows: the most writing markers."""
    per = effect[0]["per"]
    cond = per["do"][0]["condition"]
    other = "most-writing-markers"
    return [{"per": dict(per, do=[{"condition": dict(cond, **{"if": other})}])}] + effect[1:]


def refill_to(n):
    """Passing tops the treasury up to n yuan: the parameter of the named count `yuan-short-of` changes
    (the maximum stays), so Emil, who holds 1 yuan, takes n - 1 and every text says n."""
    def change(effect):
        passing, per = effect[0]["optional"]["do"]
        per = {"per": dict(per["per"], each={"yuan-short-of": {"yuan": n}})}
        return [{"optional": dict(effect[0]["optional"], do=[passing, per])}] + effect[1:]
    return change


def complete_wall_at(n):
    """The final wall scoring's named condition `wall-complete` gets another parameter: the wall must
    hold n tiles to count as complete, so a wall of 12 no longer scores (and every text says n)."""
    def change(effect):
        trigger = effect[0]["trigger"]
        complete, incomplete = trigger["do"]
        complete = {"condition": dict(complete["condition"], **{"if": {"wall-complete": {"tiles": n}}})}
        return [{"trigger": dict(trigger, do=[complete, incomplete])}] + effect[1:]
    return change


def servants_per_match(n):
    """The night gives n servants for a card whose value shows on one die (the rule says 1)."""
    def change(effect):
        per = effect[0]["per"]
        return [{"per": dict(per, do=[{"gain": {"servant": n}}])}] + effect[1:]
    return change


# (what is mutated, the entity, the change, the worked example or scenario that must notice)
CASES = [
    ("repeated step", "dragon/event/imperial-tribute", repeat_first_step, "imperial-tribute.yaml"),
    ("changed number", "dragon/action/research", research_scores(2), "research.yaml"),
    ("changed condition", "dragon/event/dragon-festival", festival_ranks_swapped, "dragon-festival.yaml"),
    ("changed parameter of a named count", "dragon/rule/pass-for-money", refill_to(2), "pass-for-money.yaml"),
    ("changed parameter of a named condition", "dragon/scoring-rule/gw-final-scoring", complete_wall_at(13),
     "../scenarios/great-wall-final-complete.yaml"),
    ("gugong repeated step", "gugong/decree/l1-servant", repeat_first_step, "decree-take.yaml"),
    ("gugong changed number", "gugong/port/port-3", cards_drawn(4), "morning-decree-bonus.yaml"),
    ("gugong changed condition", "gugong/decree/l1-ship", ship_condition("envoy-already-in-palace"),
     "morning-decree-bonus.yaml"),
    ("gugong night dice changed number", "gugong/rule/night-destiny-dice", servants_per_match(3), "night-dice.yaml"),
    ("zhanguo repeated step", "zhanguo/scoring-rule/governor-majority", repeat_first_step, "governor-majority-region-1.yaml"),
    ("zhanguo changed number", "zhanguo/scoring-rule/governor-majority", majority_points(12), "governor-majority-tie.yaml"),
    ("zhanguo changed condition", "zhanguo/scoring-rule/governor-majority", majority_by_markers,
     "governor-majority-region-1.yaml"),
]


def run_example(monkeypatch, kb, example: str, key: str = "dragon") -> scenario.Outcome:
    game = GAMES[key](rules(kb, key))
    monkeypatch.setattr(scenario, "get_game", lambda key, url=None: game)
    return scenario.run(scenario.load_file(DATA / key / "examples" / example), source=example)


@pytest.mark.parametrize("what,entity_id,change,example", CASES, ids=[c[0] for c in CASES])
def test_a_changed_effect_changes_play_and_every_rendered_text(real_kb, monkeypatch, what, entity_id, change, example):
    key = entity_id.split("/")[0]
    assert run_example(monkeypatch, real_kb, example, key).status == "PASS", "the worked example fails before the change"
    kb2 = changed_effect(real_kb, entity_id, change)

    after = run_example(monkeypatch, kb2, example, key)
    assert after.status == "FAIL", f"{what} in {entity_id}: {example} still {after.status}"

    before_text = rendered_effects(real_kb, real_kb.records[entity_id])
    after_text = rendered_effects(kb2, kb2.records[entity_id])
    for lang in ("pl", "cs", "en"):
        assert before_text[lang] != after_text[lang], (lang, after_text[lang])


def test_a_condition_the_engine_does_not_know_is_a_clear_error(real_kb, monkeypatch):
    """A condition name that no vocabulary implements (the loader refuses one game.yaml does not
    declare; this copy skips the loader) stops the example with the entity and the name, never a
    silent no-op."""
    def unknown(effect):
        return [{"condition": {"if": "wears-red-hat", "do": effect[0]["condition"]["do"]}}] + effect[1:]
    out = run_example(monkeypatch, changed_effect(real_kb, "dragon/event/dragon-festival", unknown), "dragon-festival.yaml")
    assert out.status == "ERROR"
    assert "dragon/event/dragon-festival" in out.message and "wears-red-hat" in out.message


# (a restatement, the entity it applies, a change of that entity's effect)
RESTATED = [
    ("gugong/rule/appendix-decree-l1-ship", "gugong/decree/l1-ship", ship_condition("envoy-already-in-palace")),
    ("gugong/rule/appendix-decree-l1-servant", "gugong/decree/l1-servant", repeat_first_step),
    ("gugong/rule/appendix-token-2vp", "gugong/token/travel-vp", cards_drawn(3)),
]


@pytest.mark.parametrize("restatement,primary,change", RESTATED, ids=[r[0].rsplit("/", 1)[1] for r in RESTATED])
def test_a_restatement_reads_as_the_entity_it_applies_and_changes_with_it(real_kb, restatement, primary, change):
    """The appendix's repeat of a decree or token applies it (`apply`): its rendered text is the
    entity's own, and a change of that entity's effect changes both, with no second copy to edit."""
    assert real_kb.records[restatement].item.effect == [{"apply": {"id": primary}}]
    kb2 = changed_effect(real_kb, primary, change)
    before, after = rendered_effects(real_kb, real_kb.records[restatement]), rendered_effects(kb2, kb2.records[restatement])
    for lang in ("pl", "cs", "en"):
        assert before[lang] == rendered_effects(real_kb, real_kb.records[primary])[lang]
        assert after[lang] != before[lang], (lang, after[lang])
        assert after[lang] == rendered_effects(kb2, kb2.records[primary])[lang]


def wall_bonus_yuan(kb) -> tuple[int, set[str]]:
    """The yuan a player gets building the Great Wall with the yuan tile, and the entities the
    interpreter ran for it."""
    from engine.core import state as st

    game = Dragon(rules(kb, "dragon"))
    s = game.new_state(["A", "B", "C"], {"edition": "2017", "great_wall": True}, 3)
    st.deep_merge(s, {"phase": "action", "queue": ["A", "B", "C"], "steps": ["hold"],
                      "groups": [["great-wall", "harvest", "build"], ["privilege", "research"], ["fireworks", "military-parade"]],
                      "dragons": [[], [], []], "players": {"A": {"yuan": 3}}})
    game.effects.ran.clear()
    after, _ = game.apply(s, {"type": "action", "player": "A", "group": 0, "card": "great-wall", "tile": "gw-wall-yuan"})
    return after["players"]["A"]["yuan"] - s["players"]["A"]["yuan"], set(game.effects.ran)


def test_the_great_wall_action_runs_its_effect_which_applies_the_chosen_tile(real_kb):
    """dragon/action/great-wall's option for a tile applies the tile's effect: the action's effect is
    what runs, and the bonus is the number the tile states (changed there, play changes)."""
    gained, ran = wall_bonus_yuan(real_kb)
    assert gained == real_kb.records["dragon/tile/gw-wall-yuan"].item.attrs["bonus_yuan"]
    assert {"dragon/action/great-wall", "dragon/tile/gw-wall-yuan"} <= ran
    kb2 = changed_effect(real_kb, "dragon/tile/gw-wall-yuan", lambda effect: [{"gain": {"yuan": 5}}])
    assert wall_bonus_yuan(kb2)[0] == 5
    assert "5 juanów" in rendered_effects(kb2, kb2.records["dragon/action/great-wall"])["pl"]
