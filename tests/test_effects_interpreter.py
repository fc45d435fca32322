"""The interpreter of the effect language (engine/core/effects.py) on a small made-up rule set: each op
does what kb/data/effects.yaml says it means, references resolve to the entity's attributes, and a
count or condition the game's vocabulary does not know is an error naming the entity."""
from __future__ import annotations

import pytest

from engine.core.effects import Interpreter, Run, Vocabulary
from engine.core.errors import EngineError
from engine.core.game import Rules


class Coins(Vocabulary):
    """A game of one player's coins and points, counting the coins and asking whether it is rich."""

    def __init__(self):
        self.counts = {"coin-held": lambda run: run.state["coins"]}
        self.conditions = {"rich": lambda run: run.state["coins"] >= run.attrs["rich_at"],
                           "holds-at-least": lambda run, coins: run.state["coins"] >= coins}

    def gain(self, run: Run, what: str, n: int) -> None:
        run.state[what] += n
        run.events.append((what, n))

    def pay(self, run: Run, what: str, n: int) -> None:
        run.state[what] -= n

    def move(self, run: Run, track: str, steps: int) -> None:
        run.state[track] += steps

    def have(self, run: Run, what: str) -> int:
        return run.state[what]

    def choose(self, run: Run, options: tuple) -> int | None:
        return run.choice.get("option")

    def optional(self, run: Run) -> bool:
        return bool(run.choice.get("take"))


def interpreter(effect, attrs=None) -> Interpreter:
    return Interpreter(Rules("toy", {"toy/card/x": {"attrs": attrs or {}, "effect": effect}}, {}), Coins())


def play(effect, attrs=None, coins=5, **kw) -> dict:
    state = {"coins": coins, "vp": 0}
    interpreter(effect, attrs).run("toy/card/x", state, "A", [], **kw)
    return state


def test_amounts_references_and_repeat():
    assert play([{"gain": {"vp": "attr.points"}}, {"pay": {"coins": 2}}], {"points": 4}) == {"coins": 3, "vp": 4}
    assert play([{"repeat": {"times": 3, "do": [{"gain": {"vp": 1}}]}}])["vp"] == 3
    assert play([{"move": {"track": "vp", "steps": -2}}])["vp"] == -2


def test_per_counts_through_the_vocabulary_with_its_maximum_in_one_step():
    events: list = []
    state = {"coins": 5, "vp": 0}
    interpreter([{"per": {"each": "coin-held", "do": [{"gain": {"vp": 2}}], "max": "attr.cap"}}], {"cap": 4}).run(
        "toy/card/x", state, "A", events)
    assert state["vp"] == 8 and events == [("vp", 8)]  # 4 coins counted (the maximum), one gain of 8


def test_condition_and_choice():
    rich = [{"condition": {"if": "rich", "do": [{"gain": {"vp": 1}}]}}]
    assert play(rich, {"rich_at": 5})["vp"] == 1 and play(rich, {"rich_at": 6})["vp"] == 0
    choice = [{"choose": {"options": [[{"gain": {"vp": 1}}], [{"gain": {"vp": 7}}]]}}]
    assert play(choice, choice={"option": 1})["vp"] == 7
    assert play(choice, choice={})["vp"] == 0  # None: the choice waits as a decision of the game


def test_a_named_condition_gets_its_parameters_with_references_resolved():
    """`{holds-at-least: {coins: attr.threshold}}`: the vocabulary's function is called with coins=5."""
    effect = [{"condition": {"if": {"holds-at-least": {"coins": "attr.threshold"}}, "do": [{"gain": {"vp": 1}}]}}]
    assert play(effect, {"threshold": 5}, coins=5)["vp"] == 1
    assert play(effect, {"threshold": 6}, coins=5)["vp"] == 0


def test_an_optional_step_runs_when_the_player_takes_it():
    effect = [{"optional": {"do": [{"gain": {"vp": 2}}]}}]
    assert play(effect, choice={"take": True})["vp"] == 2 and play(effect, choice={})["vp"] == 0


def test_exchange_once_or_with_all_as_often_as_the_player_can():
    assert play([{"exchange": {"give": {"coins": 2}, "get": {"vp": 3}}}], coins=5) == {"coins": 3, "vp": 3}
    assert play([{"exchange": {"give": {"coins": 2}, "get": {"vp": 3}, "all": True}}], coins=5) == {"coins": 1, "vp": 6}


def test_a_trigger_acts_at_its_moment_only():
    effect = [{"trigger": {"when": "end_game", "do": [{"gain": {"vp": 1}}]}}]
    assert play(effect)["vp"] == 0 and play(effect, moment="end_game")["vp"] == 1


@pytest.mark.parametrize("step,words", [
    ({"per": {"each": "dragon-on-the-moon", "do": [{"gain": {"vp": 1}}]}}, "no count for 'dragon-on-the-moon'"),
    ({"condition": {"if": {"it-rains": {"mm": 3}}, "do": []}}, "no condition 'it-rains'"),
    ({"place": {"what": "tower", "count": 1, "where": "hill"}}, "cannot place 'tower'"),
])
def test_what_the_vocabulary_does_not_know_is_an_error_naming_the_entity(step, words):
    with pytest.raises(EngineError) as err:
        play([step])
    assert "toy/card/x" in str(err.value) and words in str(err.value)


def test_a_moment_runs_only_its_trigger_steps():
    """A decree's morning bonus: the steps taken when the entity was taken do not run again."""
    effect = [{"gain": {"vp": 2}}, {"trigger": {"when": "morning", "do": [{"gain": {"coins": 1}}]}},
              {"trigger": {"when": "end_game", "do": [{"gain": {"vp": 5}}]}}]
    it = interpreter(effect)
    state = {"coins": 0, "vp": 0}
    it.triggered("toy/card/x", "morning", state, "A", [])
    assert state == {"coins": 1, "vp": 0} and "toy/card/x" in it.ran
    it.ran.clear()
    it.triggered("toy/card/x", "night", state, "A", [])  # no steps for this moment: nothing ran
    assert state == {"coins": 1, "vp": 0} and not it.ran


def test_apply_runs_the_named_entitys_effect_with_its_own_constants():
    """`apply` runs what the named entity states, its references resolved against its attributes, the
    run acting as that entity meanwhile (a condition reads its attributes) and both marked as run."""
    rules = Rules("toy", {
        "toy/card/x": {"attrs": {"points": 9}, "effect": [{"apply": {"id": "toy/card/y"}}, {"gain": {"vp": "attr.points"}}]},
        "toy/card/y": {"attrs": {"points": 4, "rich_at": 5},
                       "effect": [{"condition": {"if": "rich", "do": [{"gain": {"vp": "attr.points"}}]}},
                                  {"trigger": {"when": "dusk", "do": [{"gain": {"coins": 1}}]}}]},
    }, {})
    events: list = []
    interp = Interpreter(rules, Coins())
    state = {"coins": 5, "vp": 0}
    run = interp.run("toy/card/x", state, "A", events)
    assert state == {"coins": 5, "vp": 13} and run.entity == "toy/card/x" and run.attrs == {"points": 9}
    assert interp.ran == {"toy/card/x", "toy/card/y"}
    assert interp.gains("toy/card/x", "coins")  # what reads a compiled effect sees the applied steps
    interp.triggered("toy/card/x", "dusk", state, "A", events)
    assert state["coins"] == 6


def test_an_apply_cycle_or_a_missing_entity_is_an_error():
    cyclic = Rules("toy", {"toy/card/x": {"attrs": {}, "effect": [{"apply": {"id": "toy/card/y"}}]},
                           "toy/card/y": {"attrs": {}, "effect": [{"apply": {"id": "toy/card/x"}}]}}, {})
    with pytest.raises(EngineError, match="toy/card/x → toy/card/y → toy/card/x"):
        Interpreter(cyclic, Coins()).run("toy/card/x", {"coins": 0, "vp": 0}, "A", [])
    with pytest.raises(EngineError, match="'toy/card/z' is no entity with an effect"):
        interpreter([{"apply": {"id": "toy/card/z"}}]).run("toy/card/x", {"coins": 0, "vp": 0}, "A", [])
