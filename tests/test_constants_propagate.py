"""One constant, every surface: change a rule constant in an in-memory copy of the knowledge base,
compile the rule set and render the effects as the build does, and the engine's behaviour and the
effect text in pl, cs and en change together (effects name constants: ARCHITECTURE.md, "Effects")."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from engine.core import state as st
from engine.core.game import Rules
from engine.core.scenario import load_file
from engine.dragon.game import Dragon
from engine.gugong.game import Gugong
from engine.zhanguo.game import ZhanGuo
from i18n.derived import rendered_effects
from kb import ruleset
from tests.engine_checks import gugong_tokens_a_double_stands_for

EXAMPLES = Path(__file__).resolve().parent.parent / "kb" / "data"


def changed_kb(kb, entity_id: str, change):
    """A copy of the knowledge base in which one entity's attributes went through `change`."""
    rec = kb.records[entity_id]
    item = rec.item.model_copy(deep=True)
    change(item.attrs)
    records = dict(kb.records)
    records[entity_id] = replace(rec, item=item)
    return replace(kb, records=records)


def rules(kb, game: str) -> Rules:
    doc = ruleset.loads(ruleset.dumps(ruleset.compile_game(kb, game)))  # as the database gives it back
    return Rules(game, doc["entities"], doc["meta"])


def dragon_large_privilege_cost(r: Rules) -> int:
    g = Dragon(r)
    s = g.new_state(["A", "B", "C"], {"edition": "2017"}, 3)
    st.deep_merge(s, {"phase": "action", "queue": ["A", "B", "C"], "steps": ["hold"],
                      "groups": [["taxes", "harvest", "build"], ["privilege", "research"], ["fireworks", "military-parade"]],
                      "dragons": [[], [], []], "players": {"A": {"yuan": 20}}})
    s2, _ = g.apply(s, {"type": "action", "player": "A", "group": 1, "card": "privilege", "size": "large"})
    return s["players"]["A"]["yuan"] - s2["players"]["A"]["yuan"]


def gugong_decree_vp(r: Rules) -> int:
    g = Gugong(r)
    doc = load_file(EXAMPLES / "gugong" / "examples" / "decree-take.yaml")
    s = g.new_state(doc["players"], doc["options"], 0)
    st.deep_merge(s, doc["setup"])
    for step in doc["steps"]:
        s, _ = g.apply(s, dict(step["action"], player=step["player"]))
    return s["players"]["Karol"]["vp"]


def zhanguo_governor_majority_vp(r: Rules) -> int:
    g = ZhanGuo(r)
    s = g.new_state(["A", "B"], {"first_player": "A"}, 5)
    s["board"]["governors"]["1"] = [{"player": "A", "space": 0}, {"player": "A", "space": 1}]
    s["players"]["A"]["governors"] -= 2
    s, _ = g.run(s, "final_scoring")
    return s["players"]["A"]["final"]["governors"]


def gugong_cards_for_jade(r: Rules) -> int:
    """How many cards of a hand holding one gift of each value 6-9 the gift-for-jade token accepts
    (its condition names the minimum value by placeholder, so the text and the engine move together)."""
    from engine.gugong import common as gc
    from engine.gugong import locations

    g = Gugong(r)
    s = g.new_state(["A", "B"], {}, 1)
    by_value = {}
    for card, value in g.consts.card_value.items():
        by_value.setdefault(value, card)
    s["players"]["A"]["hand"] = [by_value[v] for v in (6, 7, 8, 9)]
    gc.push(s, {"kind": "token_reward", "player": "A", "token": "travel-gift-for-jade"})
    return sum(1 for o in locations.token_reward_opts(g, s, "A", "travel-gift-for-jade") if o.get("use"))


def gugong_double_token_worth(r: Rules) -> int:
    """How many plain travel tokens the double token stands in for when exchanged for VP."""
    return gugong_tokens_a_double_stands_for(Gugong(r), "vp")


def _set(path, value):
    def change(attrs):
        target = attrs
        for part in path[:-1]:
            target = target[part]
        target[path[-1]] = value
    return change


# (game, entity, attribute path, old, new, engine probe, engine delta per unit of change)
CASES = [
    ("dragon", "dragon/action/privilege", ("large_price", "by_edition", "2017"), 7, 8, dragon_large_privilege_cost, 1),
    ("gugong", "gugong/decree/l1-servant", ("immediate_vp",), 3, 11, gugong_decree_vp, 1),
    ("zhanguo", "zhanguo/scoring-rule/governor-majority", ("majority_vp",), 9, 12, zhanguo_governor_majority_vp, 1),
    ("gugong", "gugong/token/travel-gift-for-jade", ("min_card_value",), 7, 8, gugong_cards_for_jade, -1),
    ("gugong", "gugong/token/travel-double", ("counts_as",), 2, 3, gugong_double_token_worth, 1),
]


@pytest.mark.parametrize("game,entity_id,path,old,new,probe,per_unit", CASES, ids=[c[1] for c in CASES])
def test_a_changed_constant_changes_the_engine_and_every_rendered_text(real_kb, game, entity_id, path, old, new,
                                                                        probe, per_unit):
    value = real_kb.records[entity_id].item.attrs
    for part in path:
        value = value[part]
    assert value == old, "the sample constant changed in kb/data: update this test's case"
    kb2 = changed_kb(real_kb, entity_id, _set(path, new))

    assert probe(rules(kb2, game)) - probe(rules(real_kb, game)) == (new - old) * per_unit

    before, after = rendered_effects(real_kb, real_kb.records[entity_id]), rendered_effects(kb2, kb2.records[entity_id])
    for lang in ("pl", "cs", "en"):
        assert before[lang] != after[lang], (lang, after[lang])
        assert str(new) in after[lang] and str(new) not in before[lang], (lang, after[lang])
