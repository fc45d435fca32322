"""Rule constants are declared once and used (ARCHITECTURE.md, "Compiled rule sets"): every constant a
game's `Consts` reads from the knowledge base is used by that game's engine, and the engine reads the
knowledge base's numbers only through its `Consts` (engine/<game>/consts.py, engine/core/consts.py)
or through the effects the interpreter runs (engine/core/effects.py), never by a lookup of its own."""
from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from engine.core import game as core_game
from engine.core.game import Rules
from engine.core.play import random_game

ENGINE = Path(__file__).resolve().parent.parent / "engine"
GAMES = ("gugong", "dragon", "zhanguo")
# where a game may read attributes of the rule set: its constants, and the interpreter (an effect's
# own entity's attributes, which its references name)
READERS = {ENGINE / "core" / "consts.py", ENGINE / "core" / "effects.py", ENGINE / "core" / "game.py"}


def consts_classes(game: str) -> str:
    """The source of the game's constants classes: engine/<game>/consts.py and any class named
    `...Consts` elsewhere in the package (Gugong's solo constants)."""
    parts = []
    for path in sorted((ENGINE / game).glob("*.py")):
        source = path.read_text(encoding="utf-8")
        if path.name == "consts.py":
            parts.append(source)
        else:
            parts += re.findall(r"^class \w*Consts\b.*?(?=^\S)", source, re.M | re.S)
    return "\n".join(parts)


def declared(game: str) -> set[str]:
    """The names a game's constants classes declare (`name = Attr(...)`) or set (`self.name = ...`)."""
    source = consts_classes(game)
    names = set(re.findall(r"^    (\w+) = (?:Attr|Unknown)\(", source, re.M))
    for targets in re.findall(r"^\s+((?:self\.\w+(?:\s*:\s*[^=\n]+)?,?\s*)+)=(?!=)", source, re.M):
        names |= set(re.findall(r"self\.(\w+)", targets))
    return names - {"rules", "edition"}


def uses(game: str, name: str) -> int:
    """How often the game's engine reads `name` as an attribute (assignments not counted)."""
    count = 0
    for path in (ENGINE / game).glob("*.py"):
        source = path.read_text(encoding="utf-8")
        count += len(re.findall(rf"\.{name}\b(?!\s*(?::[^=\n]+)?=[^=])", source))
        if path.name != "consts.py":  # getattr(consts, "name"); consts.py names attributes in its Attr(...)
            count += len(re.findall(rf'(?<!Attr\(")(?<!, )"{name}"', source))
    return count


@pytest.mark.parametrize("game", GAMES)
def test_every_constant_an_engine_reads_from_the_knowledge_base_is_used(game):
    """A constant read and never used is a second, silent copy of a rule (the engine does something
    else by hand): the issue found 15 such, e.g. the event-track ruling read and then hard-coded."""
    names = declared(game)
    assert len(names) > 20, names  # the parsing of consts.py still finds the declarations
    unused = sorted(n for n in names if uses(game, n) == 0)
    assert unused == [], f"engine/{game}/consts.py reads constants its engine never uses: {unused}"


@pytest.mark.parametrize("game", GAMES)
def test_an_engine_reads_rule_constants_only_through_its_consts(game, monkeypatch):
    """Every Rules.attr lookup, while the game is built and through random games, is made by the game's
    consts.py (or the core's constants and interpreter): no module of the game looks a number up itself."""
    readers: set[str] = set()
    original = Rules.attr

    def attr(self, entity, name, edition=None):
        caller = sys._getframe(1).f_code
        # a constants class of the game (its consts.py, or a `...Consts` class such as Gugong's solo one)
        readers.add("constants class" if caller.co_qualname.split(".")[0].endswith("Consts") else caller.co_filename)
        return original(self, entity, name, edition)
    monkeypatch.setattr(Rules, "attr", attr)
    built = core_game.get_game(game)
    engine = type(built)(built.rules)  # a new engine reads its constants again, under watch
    for seed in range(2):
        random_game(engine, 3, seed)
    allowed = {str(p) for p in READERS | {ENGINE / game / "consts.py"}} | {"constants class"}
    assert readers and readers <= allowed, sorted(readers - allowed)
    # nor does a module index the rule set's attributes by hand
    for path in (ENGINE / game).glob("*.py"):
        if path.name != "consts.py":
            source = re.sub(r"^class \w*Consts\b.*?(?=^\S)", "", path.read_text(encoding="utf-8"), flags=re.M | re.S)
            assert not re.search(r"rules\.attr\(|\.unknown\(|\[\"attrs\"\]\[", source), f"{path.name} reads the rule set itself"


# A literal 1 in an effect beside an attribute of 1 that the effect does not reference is, unless listed
# here, the same rule constant typed twice: changing the attribute would change the engine (which reads it
# through its constants) or nothing, but not the effect and its text. Where the 1 is a unit (one tile per
# card, one step per point) and the attribute says something else, the pair is listed with the reason.
UNIT_ONES = {
    "dragon/action/privilege": "a privilege tile is gained one at a time; its dragons and VP are scored elsewhere",
    "dragon/event/dragon-festival": "one fireworks tile per tile handed back; the minimum of 1 is the festival's condition",
    "dragon/event/plague": "one person per person released; the mortars' reduction is the count's",
    "dragon/rule/person-marker": "one space per point of the person's value",
    "gugong/port/port-4": "one double servant; the claim limit of 1 is the port's",
    "gugong/rule/solo-ports": "Meng draws one gift card; the count of such rewards is his rule's",
    "gugong/rule/solo-wall-scoring": "Meng takes one jade or one servant; the minimum intrigue is the condition's",
    "zhanguo/court-action/build-wall": "one worker per line of the wall space; one wall per space is the place's",
    "zhanguo/rule/unification": "one unification marker per card of the unified region",
}


@pytest.mark.parametrize("game", GAMES)
def test_a_rule_constant_of_1_is_a_reference(game):
    rows = unreferenced_ones(core_game.get_game(game).rules.entities)
    listed = {eid for eid in UNIT_ONES if eid.startswith(f"{game}/")}
    assert set(rows) == listed, f"typed twice: {sorted(set(rows) - listed)}; no longer a pair: {sorted(listed - set(rows))}"


def unreferenced_ones(entities: dict) -> dict[str, list[str]]:
    """Entities whose effect writes a literal ±1 while an attribute of 1 goes unreferenced by it."""
    import json
    from kb.effects import _refs_by_value, is_ref, numbers
    out = {}
    for eid, entity in entities.items():
        effect = entity.get("effect")
        if not effect:
            continue
        by_value = _refs_by_value(entity.get("attrs") or {})
        ones = set(by_value.get(1, [])) | set(by_value.get(-1, []))
        literal = any(not is_ref(v) and not isinstance(v, bool) and isinstance(v, (int, float)) and abs(v) == 1
                      for _path, v in numbers(effect))
        text = json.dumps(effect)
        unused = sorted(r for r in ones if f'"{r}"' not in text and f'"-{r}"' not in text)
        if literal and unused:
            out[eid] = unused
    return out
