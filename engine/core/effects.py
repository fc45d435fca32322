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

from typing import Any, Callable

from engine.core.errors import EngineError
from kb.effects import AMOUNT_OPS, NESTED, EffectVisitor, nested, resolved

Count = Callable[["Run"], int]
Condition = Callable[["Run"], bool]


class Run:
    """One execution of one entity's effect for one player. `forced`: the effect cannot be declined
    (an event: a payment takes what the player has and the shortfall is counted); otherwise a payment
    the player cannot make is refused. `shared` lives across the players' runs of one resolution (a
    ranking taken before anyone pays); `choice` is what the acting player chose (an action's arguments).
    `dry`: count what the effect would give without changing the state. `moment`: the moment of the
    game's flow the run happens at (a `trigger` step acts only at its own moment)."""

    __slots__ = ("entity", "attrs", "state", "player", "events", "forced", "choice", "shared", "dry", "moment",
                 "counted", "held", "short", "gained", "each", "each_do")

    def __init__(self, entity: str, attrs: dict[str, Any], state: dict, player: str, events: list,
                 forced: bool = False, choice: dict | None = None, shared: dict | None = None, dry: bool = False,
                 moment: str | None = None):
        self.entity, self.attrs, self.state, self.player, self.events = entity, attrs, state, player, events
        self.forced, self.dry, self.moment = forced, dry, moment
        self.choice = choice if choice is not None else {}
        self.shared = shared if shared is not None else {}
        self.counted: dict[str, int] = {}  # what each `per` counted, by its text
        self.held: set[str] = set()  # the conditions that held
        self.short: dict[str, int] = {}  # what a forced payment could not take
        self.gained: dict[str, Any] = {}  # what a vocabulary keeps for the caller (floors to build)
        self.each: str | None = None  # the text of the innermost running `per`
        self.each_do: tuple = ()  # and the steps it repeats (compiled)


class Vocabulary:
    """What one game's effects act on. Subclasses fill `counts` and `conditions` and implement the
    amount ops for the game's resources and tracks."""

    counts: dict[str, Count] = {}
    conditions: dict[str, Condition] = {}
    # counts of things each of which the steps act on in turn (a palace that decays): never scaled
    targets: frozenset[str] = frozenset()
    interpreter: "Interpreter"  # set by the interpreter that runs this vocabulary's effects

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

    def choose(self, run: Run, options: tuple) -> int | None:
        """The index of the option taken (options compiled: engine.core.effects.gains reads them);
        None defers the choice to a decision the game raises."""
        raise EngineError(f"{run.entity}: the engine has no choice for this effect")

    def affordable(self, run: Run) -> int:
        """How many times the player can make the payments of the running `per`'s steps (what a
        player who chooses how many to pay for can pay for)."""
        cost: dict[str, int] = {}
        for op, args, _ in run.each_do:
            if op == "pay":
                for w, n in args.items():
                    cost[w] = cost.get(w, 0) + n
        return min((self.have(run, w) // n for w, n in cost.items() if n > 0), default=0)

    def place(self, run: Run, what: str, count: int, where: str | None) -> None:
        raise EngineError(f"{run.entity}: the engine cannot place {what!r} ({where})")

    def exchange(self, run: Run, give: dict[str, int], get: dict[str, int], times: int) -> None:
        for w, n in give.items():
            self.pay(run, w, n * times)
        for w, n in get.items():
            self.gain(run, w, n * times)

    def accept(self, run: Run) -> bool:
        """An `optional` step: whether the player takes it (what they chose, `run.choice`)."""
        raise EngineError(f"{run.entity}: the engine has no decision for an optional step")

    def mechanism(self, run: Run, rule_id: str) -> None:
        """A `rule:` step: the named mechanism, which the game runs in its flow (nothing to do here
        unless the game says so)."""

    def other(self, run: Run, op: str, args: Any) -> None:
        raise EngineError(f"{run.entity}: the engine does not execute {op!r} steps")


class Interpreter:
    """Executes effects read from the compiled rule set (`engine.core.game.Rules`)."""

    def __init__(self, rules, vocabulary: Vocabulary):
        self.rules, self.vocabulary = rules, vocabulary
        vocabulary.interpreter = self  # a mechanism may run another entity's effect
        self.ran: set[str] = set()  # the entities whose effect this interpreter executed (coverage)
        self._gains: dict[tuple[str, str], bool] = {}
        self._mechanisms: dict[str, list[str]] = {}
        self._compiled: dict[str, tuple] = {}

    def gains(self, entity_id: str, what: str) -> bool:
        """Whether the entity's effect gains `what` anywhere (read once per rule set)."""
        key = (entity_id, what)
        if key not in self._gains:
            self._gains[key] = gains(self.compiled(entity_id), what)
        return self._gains[key]

    def mechanisms(self, entity_id: str) -> list[str]:
        """The rule ids the entity's effect names (a phase's scorings, in order), read once."""
        if entity_id not in self._mechanisms:
            self._mechanisms[entity_id] = mechanisms(self.rules.entities[entity_id].get("effect") or [])
        return self._mechanisms[entity_id]

    def run(self, entity_id: str, state: dict, player: str, events: list, *, forced: bool = False,
            choice: dict | None = None, shared: dict | None = None, dry: bool = False, moment: str | None = None) -> Run:
        run = Run(entity_id, self.rules.entities[entity_id]["attrs"], state, player, events, forced, choice, shared, dry,
                  moment)
        self.ran.add(entity_id)
        self.execute(self.compiled(entity_id), run)
        return run

    def triggered(self, entity_id: str, moment: str, state: dict, player: str, events: list, *,
                  choice: dict | None = None, shared: dict | None = None) -> Run:
        """Only the steps of the entity's `trigger` for `moment`: a lasting effect's later part (a
        decree's morning bonus), whose other steps ran when the player took the entity."""
        run = Run(entity_id, self.rules.entities[entity_id]["attrs"], state, player, events, False, choice, shared,
                  False, moment)
        for op, args, inner in self.compiled(entity_id):
            if op == "trigger" and args["when"] == moment:
                self.ran.add(entity_id)
                self.execute(inner[0], run)
        return run

    def compiled(self, entity_id: str) -> tuple:
        """The entity's effect as the interpreter runs it (compile_effect), made once per rule set."""
        if entity_id not in self._compiled:
            entity = self.rules.entities[entity_id]
            self._compiled[entity_id] = compile_effect(entity.get("effect") or [], entity["attrs"])
        return self._compiled[entity_id]

    def execute(self, steps: tuple, run: Run) -> None:
        vocabulary = self.vocabulary
        for op, args, inner in steps:
            if op in AMOUNT_OPS:
                for what, n in args.items():
                    getattr(vocabulary, op)(run, what, n)
            elif op == "move":
                vocabulary.move(run, args["track"], args["steps"])
            elif op == "repeat":
                for _ in range(args["times"]):
                    self.execute(inner[0], run)
            elif op == "per":
                self._per(args, inner[0], run)
            elif op == "condition":
                if self._holds(args["if"], run):
                    run.held.add(args["if"])
                    self.execute(inner[0], run)
            elif op == "choose":
                k = vocabulary.choose(run, inner)
                if k is not None:
                    self.execute(inner[k], run)
            elif op == "optional":
                if vocabulary.accept(run):
                    self.execute(inner[0], run)
            elif op == "exchange":
                self._exchange(args, run)
            elif op == "trigger":  # the game's flow brings the moment; the run says which it is
                if args["when"] == run.moment:
                    self.execute(inner[0], run)
            elif op == "place":
                vocabulary.place(run, args["what"], args.get("count", 1), args.get("where"))
            elif op == "rule":
                vocabulary.mechanism(run, args["id"])
            else:
                vocabulary.other(run, op, args)

    def _per(self, args: dict, inner: tuple, run: Run) -> None:
        each = args["each"]
        count = self.vocabulary.counts.get(each)
        if count is None:
            raise EngineError(f"{run.entity}: the {self.rules.game} engine has no count for {each!r}")
        outer, run.each, run.each_do = (run.each, run.each_do), each, inner
        n = max(0, count(run))
        if "max" in args:
            n = min(n, args["max"])
        run.counted[each] = n
        if n and args[AMOUNTS_ONLY] and each not in self.vocabulary.targets:
            # amounts only: one step of n times the amount (one event), as a player counts them
            self.execute(tuple((op, scaled(op, a, n), ()) for op, a, _ in inner), run)
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
        give, get = args["give"], args["get"]
        times = min(self.vocabulary.have(run, w) // n for w, n in give.items())
        if times > 0:
            self.vocabulary.exchange(run, give, get, times)


SCALABLE = frozenset(AMOUNT_OPS) | {"move"}
AMOUNTS_ONLY = " amounts only"  # a compiled `per`'s note (no argument of the language has a space)


def scaled(op: str, args: dict, n: int) -> dict:
    if op == "move":
        return {"track": args["track"], "steps": args["steps"] * n}
    return {w: v * n for w, v in args.items()}


def compile_effect(steps: list, attrs: dict[str, Any]) -> tuple:
    """An effect as a tuple of (op, arguments with references resolved, nested effects compiled):
    the structure read once with kb/effects.py's tables, not at every step of play."""
    out = []
    for step in steps:
        (op, args), = step.items()
        inner = tuple(compile_effect(effect, attrs) for _, effect in nested(op, args, "")) if op in NESTED else ()
        if isinstance(args, dict):
            args = resolved({k: v for k, v in args.items() if k != NESTED.get(op)}, attrs)
        if op == "per":  # whether its steps can run once, scaled, rather than n times (read once here)
            args[AMOUNTS_ONLY] = all(inner_op in SCALABLE for inner_op, _, _ in inner[0])
        out.append((op, args, inner))
    return tuple(out)


def gains(steps: tuple, what: str) -> bool:
    """Whether a compiled effect gains `what` anywhere (which option of a choice a request names)."""
    return any((op == "gain" and what in args) or any(gains(i, what) for i in inner) for op, args, inner in steps)


class _Find(EffectVisitor):
    """The steps of one op, anywhere in an effect."""

    def __init__(self, op: str):
        self.op, self.found = op, []

    def step(self, op, args, path):
        if op == self.op and isinstance(args, dict):
            self.found.append(args)


def mechanisms(steps: list) -> list[str]:
    """The rule ids an effect's `rule:` steps name."""
    find = _Find("rule")
    find.visit(steps or [])
    return [args.get("id") for args in find.found]
