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
