"""How much of each game's behaviour runs from its effects (issue: the engine runs the knowledge
base). `python -m tests.effect_coverage [ENGINE_DIR]` prints, per game:

- executed: entities whose effect the engine's interpreter (engine/core/effects.py) ran while the
  game's worked examples and scenarios and a few seeded random games (every option) were played;
- restated: of those, entities whose effect is only `apply:` steps (a restatement: the Gugong appendix's
  decrees, tokens and rewards), counted as executed when the interpreter ran every entity they apply
  (they do nothing of their own, and what they apply ran: nothing is claimed that did not run);
- mechanism: entities not executed whose effect is only `rule:` steps (a mechanism the engine runs
  by name, as the data says);
- total: entities with an effect;

and how many string literals in the engine code name a hyphenated entity key of kb/data (behaviour
chosen by key in code, what effects should replace). Needs a built database (`rulekb build`).
"""
from __future__ import annotations

import random
import re
import sys
from pathlib import Path

from engine.core import scenario
from engine.core.game import get_game

ROOT = Path(__file__).resolve().parent.parent
GAMES = ("gugong", "dragon", "zhanguo")
# seeded random games per option set: ZhanGuo's official card is played by chance, in one of its first 5 seeds
SEEDS = {"zhanguo": 5}


def random_games(key: str, game) -> list[dict]:
    """The options of the seeded random games played: every edition and expansion, and with the
    Great Events each great event once (a game draws one); Gugong's token mixes, advanced deck and solo (normal, and hard with Meng's focus on each location);
    ZhanGuo's board sides and variants."""
    if key == "gugong":  # both token mixes (a game plays every location, decree and port it meets)
        return ([{}, {"bonus_travel_tokens": True}, {"advanced": True}, {"solo": "normal"}]
                + [{"solo": "hard", "focus": loc} for loc in game.consts.locations])  # Meng's special card at each location
    if key == "zhanguo":
        return [{}, {"sides": "B", "unrest_per_worker": True}, {"sides": "auction", "card_selection": True}]
    if key != "dragon":
        return []
    both = {"edition": "2017", "great_wall": True, "great_events": True}
    return ([{"edition": "2007"}, {"edition": "2017"}]
            + [{**both, "great_event": ge} for ge in game.consts_by_edition["2017"].great_events])


def executed(key: str) -> set[str]:
    """The entities whose effect the game's interpreter ran (none for an engine without one)."""
    game = get_game(key)
    effects = getattr(game, "effects", None)
    if effects is None:
        return set()
    for path in scenario.files(ROOT / "kb" / "data" / key):
        scenario.run(scenario.load_file(path), source=path.name)
    for options in random_games(key, game):
        for seed in range(SEEDS.get(key, 2)):
            chooser = random.Random(seed)
            state = game.new_state(["A"] if "solo" in options else ["A", "B", "C"], options, seed)  # solo: one player
            while not game.is_terminal(state):
                state, _ = game.apply(state, chooser.choice(game.legal_actions(state)))
    return set(effects.ran)


def restatements(entities: dict) -> dict[str, list[str]]:
    """The entities whose effect is only `apply:` steps, with the ids they apply."""
    return {i: [step["apply"]["id"] for step in e["effect"]] for i, e in entities.items()
            if e.get("effect") and all("apply" in step for step in e["effect"])}


def covered(key: str) -> tuple[set[str], set[str], set[str], set[str]]:
    """(executed, of them restated, mechanism, with an effect) entity ids of a game."""
    entities = get_game(key).rules.entities
    with_effect = {i for i, e in entities.items() if e.get("effect")}
    ran = executed(key) & with_effect
    restated = {i for i, targets in restatements(entities).items() if i not in ran and set(targets) <= ran}
    ran |= restated
    mechanism = {i for i in with_effect - ran if only_rules(entities[i]["effect"])}
    return ran, restated, mechanism, with_effect


def only_rules(effect: list) -> bool:
    """Whether an effect is only `rule:` steps (also when someone else, the solo opponent, does them)."""
    return all("rule" in step or ("by" in step and only_rules(step["by"]["do"])) for step in effect)


def table() -> list[tuple[str, int, int, int, int]]:
    rows = []
    for key in GAMES:
        ran, restated, mechanism, with_effect = covered(key)
        rows.append((key, len(ran), len(restated), len(mechanism), len(with_effect)))
    return rows


LITERAL = re.compile(r"""(?<![\w])(["'])([^"'\n]*-[^"'\n]*)\1""")


def entity_keys() -> set[str]:
    """Every hyphenated entity key of kb/data, as the key, kind/key and game/kind/key."""
    out: set[str] = set()
    for key in GAMES:
        for eid in get_game(key).rules.entities:
            game, kind, name = eid.split("/", 2)
            if "-" in name:
                out |= {name, f"{kind}/{name}", eid}
    return out


def key_literals(engine_dir: Path) -> int:
    keys = entity_keys()
    return sum(1 for path in engine_dir.rglob("*.py") for m in LITERAL.finditer(path.read_text())
               if m.group(2) in keys)


def main() -> None:
    engine_dir = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "engine"
    print(f"{'game':8} {'executed':>8} {'restated':>8} {'mechanism':>9} {'total':>6}")
    for key, ran, restated, mechanism, total in table():
        print(f"{key:8} {ran:8} {restated:8} {mechanism:9} {total:6}")
    print(f"string literals naming a hyphenated entity key in {engine_dir}: {key_literals(engine_dir)}")


if __name__ == "__main__":
    main()
