"""The one interpreter of the effect language (ARCHITECTURE.md, "Effects"): it executes an entity's
effect as the compiled rule set holds it, so a changed step, number or condition in kb/data changes
play with no code change.

The language's structure (which ops nest which effects, which arguments are numbers, how a reference
resolves) comes from kb/effects.py, the walker the loader, the renderer and the checker use. What the
steps act on is the game's: a `Vocabulary` (one per game package) moves its resources and tracks and
implements the named counts (`per: {each: ...}`) and conditions (`condition: {if: ...}`) its effects
use, keyed by the text the effect says (the msgid the renderer translates). A text the vocabulary does
not know is an EngineError naming the entity, never a silent no-op; a `rule:` step names a mechanism
the game implements by name.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from engine.core.errors import EngineError
from kb.effects import AMOUNT_OPS, EffectVisitor, nested, resolve

Count = Callable[["Run"], int]
Condition = Callable[["Run"], bool]


@dataclass
class Run:
    """One execution of one entity's effect for one player. `forced`: the effect cannot be declined
    (an event: a payment takes what the player has and the shortfall is counted); otherwise a payment
    the player cannot make is refused. `shared` lives across the players' runs of one resolution (a
    ranking taken before anyone pays); `choice` is what the acting player chose (an action's arguments)."""

    entity: str
    attrs: dict[str, Any]
    state: dict
    player: str
    events: list
    forced: bool = False
    choice: dict = field(default_factory=dict)
    shared: dict = field(default_factory=dict)
    counted: dict[str, int] = field(default_factory=dict)  # what each `per` counted, by its text
    held: set[str] = field(default_factory=set)  # the conditions that held
    short: dict[str, int] = field(default_factory=dict)  # what a forced payment could not take
    gained: dict[str, int] = field(default_factory=dict)  # what a vocabulary keeps for the caller (floors to build)
    each: str | None = None  # the text of the innermost running `per`
    each_do: list = field(default_factory=list)  # and the steps it repeats
    dry: bool = False  # count what the effect would give without changing the state

    def number(self, value: Any) -> Any:
        return resolve(value, self.attrs)


class Vocabulary:
    """What one game's effects act on. Subclasses fill `counts` and `conditions` and implement the
    amount ops for the game's resources and tracks."""

    counts: dict[str, Count] = {}
    conditions: dict[str, Condition] = {}

    def gain(self, run: Run, what: str, n: int) -> None:
        raise EngineError(f"{run.entity}: the engine cannot gain {what!r}")

    def pay(self, run: Run, what: str, n: int) -> None:
        raise EngineError(f"{run.entity}: the engine cannot pay {what!r}")

    def lose(self, run: Run, what: str, n: int) -> None:
        raise EngineError(f"{run.entity}: the engine cannot lose {what!r}")

    def move(self, run: Run, track: str, steps: int) -> None:
        raise EngineError(f"{run.entity}: the engine has no track {track!r}")

    def have(self, run: Run, what: str) -> int:
        raise EngineError(f"{run.entity}: the engine cannot count {what!r}")

    def choose(self, run: Run, options: list[list]) -> int | None:
        """The index of the option taken; None defers the choice to a decision the game raises."""
        raise EngineError(f"{run.entity}: the engine has no choice for this effect")

    def affordable(self, run: Run) -> int:
        """How many times the player can make the payments of the running `per`'s steps (what a
        player who chooses how many to pay for can pay for)."""
        cost: dict[str, int] = {}
        for step in run.each_do:
            (op, args), = step.items()
            if op == "pay":
                for w, n in args.items():
                    cost[w] = cost.get(w, 0) + run.number(n)
        return min((self.have(run, w) // n for w, n in cost.items() if n > 0), default=0)

    def exchange(self, run: Run, give: dict[str, int], get: dict[str, int], times: int) -> None:
        for w, n in give.items():
            self.pay(run, w, n * times)
        for w, n in get.items():
            self.gain(run, w, n * times)

    def mechanism(self, run: Run, rule_id: str) -> None:
        """A `rule:` step: the named mechanism, which the game runs in its flow (nothing to do here
        unless the game says so)."""

    def other(self, run: Run, op: str, args: Any) -> None:
        raise EngineError(f"{run.entity}: the engine does not execute {op!r} steps")


class Interpreter:
    """Executes effects read from the compiled rule set (`engine.core.game.Rules`)."""

    def __init__(self, rules, vocabulary: Vocabulary):
        self.rules, self.vocabulary = rules, vocabulary
        self.ran: set[str] = set()  # the entities whose effect this interpreter executed (coverage)

    def run(self, entity_id: str, state: dict, player: str, events: list, **kw) -> Run:
        entity = self.rules.entities[entity_id]
        run = Run(entity_id, entity["attrs"], state, player, events, **kw)
        self.ran.add(entity_id)
        self.execute(entity.get("effect") or [], run)
        return run

    def execute(self, steps: list, run: Run) -> None:
        for step in steps:
            (op, args), = step.items()
            inner = [effect for _, effect in nested(op, args, "")]
            if op in AMOUNT_OPS:
                for what, n in args.items():
                    getattr(self.vocabulary, op)(run, what, run.number(n))
            elif op == "move":
                self.vocabulary.move(run, args["track"], run.number(args["steps"]))
            elif op == "repeat":
                for _ in range(run.number(args["times"])):
                    self.execute(inner[0], run)
            elif op == "per":
                self._per(args, inner[0], run)
            elif op == "condition":
                if self._holds(args["if"], run):
                    run.held.add(args["if"])
                    self.execute(inner[0], run)
            elif op == "choose":
                k = self.vocabulary.choose(run, inner)
                if k is not None:
                    self.execute(inner[k], run)
            elif op == "exchange":
                self._exchange(args, run)
            elif op == "rule":
                self.vocabulary.mechanism(run, args["id"])
            else:
                self.vocabulary.other(run, op, args)

    def _per(self, args: dict, inner: list, run: Run) -> None:
        each = args["each"]
        if each not in self.vocabulary.counts:
            raise EngineError(f"{run.entity}: the {self.rules.game} engine has no count for {each!r}")
        outer, run.each, run.each_do = (run.each, run.each_do), each, inner
        n = max(0, self.vocabulary.counts[each](run))
        if "max" in args:
            n = min(n, run.number(args["max"]))
        run.counted[each] = n
        scaled = scale(inner, n, run) if n else []
        if scaled is not None:  # amounts only: one step of n times the amount, one event, as a player counts
            self.execute(scaled, run)
        else:
            for _ in range(n):
                self.execute(inner, run)
        run.each, run.each_do = outer

    def _holds(self, text: str, run: Run) -> bool:
        if text not in self.vocabulary.conditions:
            raise EngineError(f"{run.entity}: the {self.rules.game} engine has no condition {text!r}")
        return bool(self.vocabulary.conditions[text](run))

    def _exchange(self, args: dict, run: Run) -> None:
        """Give to receive, as often as the player can (every time: what they hold decides)."""
        give = {w: run.number(n) for w, n in args["give"].items()}
        get = {w: run.number(n) for w, n in args["get"].items()}
        times = min(self.vocabulary.have(run, w) // n for w, n in give.items())
        if times > 0:
            self.vocabulary.exchange(run, give, get, times)


def scale(steps: list, n: int, run: Run) -> list | None:
    """`steps` done n times as one list of steps when they are only amounts and moves, else None."""
    out = []
    for step in steps:
        (op, args), = step.items()
        if op in AMOUNT_OPS:
            out.append({op: {w: run.number(v) * n for w, v in args.items()}})
        elif op == "move":
            out.append({op: {"track": args["track"], "steps": run.number(args["steps"]) * n}})
        else:
            return None
    return out


def gains_of(steps: list, what: str) -> bool:
    """Whether an effect gains `what` anywhere (which option of a choice a player's request names)."""
    found = []

    class Find(EffectVisitor):
        def step(self, op, args, path):
            if op == "gain" and isinstance(args, dict) and what in args:
                found.append(path)
    Find().visit(steps)
    return bool(found)


def mechanisms(steps: list) -> list[str]:
    """The rule ids an effect's `rule:` steps name."""
    out: list[str] = []

    class Find(EffectVisitor):
        def step(self, op, args, path):
            if op == "rule" and isinstance(args, dict):
                out.append(args.get("id"))
    Find().visit(steps or [])
    return out
