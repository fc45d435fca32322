"""The one interpreter of the effect language (ARCHITECTURE.md, "Effects"): it executes an entity's
effect as the compiled rule set holds it, so a changed step, number or condition in kb/data changes
play with no code change.

The language's structure (which ops nest which effects, which arguments are numbers, how a reference
resolves) comes from kb/effects.py, the walker the loader, the renderer and the checker use. What the
steps act on is the game's: a `Vocabulary` (one per game package) moves its resources and tracks and
implements the named counts (`per: {each: ...}`), conditions (`condition: {if: ...}`) and places
(`place: {where: ...}`) its game.yaml declares, by name: a dict name -> function, called with the run
and the step's parameters (`{wall-on-line: {lines: 3}}` calls conditions["wall-on-line"](run, lines=3)).
A name the vocabulary does not implement is an EngineError naming the entity, never a silent no-op; a
`rule:` step names a mechanism the game implements by name. An `apply:` step runs another entity's
effect, compiled into the applying one with that entity's constants, and for its duration the run acts
as that entity (its attributes, its id in events and decisions): the steps are written once, there.
"""
from __future__ import annotations

from typing import Any, Callable

from engine.core.errors import EngineError
from kb.effects import AMOUNT_OPS, APPLY, NESTED, EffectVisitor, nested, resolved, term

Count = Callable[..., int]  # (run, **params)
Condition = Callable[..., bool]  # (run, **params)


class Run:
    """One execution of one entity's effect for one player. `forced`: the effect cannot be declined
    (an event: a payment takes what the player has and the shortfall is counted); otherwise a payment
    the player cannot make is refused. `shared` lives across the players' runs of one resolution (a
    ranking taken before anyone pays); `choice` is what the acting player chose (an action's arguments).
    `dry`: count what the effect would give without changing the state. `moment`: the moment of the
    game's flow the run happens at (a `trigger` step acts only at its own moment)."""

    __slots__ = ("entity", "attrs", "state", "player", "events", "forced", "choice", "shared", "dry", "moment",
                 "counted", "held", "short", "gained", "each", "each_do", "nth")

    def __init__(self, entity: str, attrs: dict[str, Any], state: dict, player: str, events: list,
                 forced: bool = False, choice: dict | None = None, shared: dict | None = None, dry: bool = False,
                 moment: str | None = None):
        # one assignment a line: a run is made for every effect of every decision
        self.entity = entity
        self.attrs = attrs
        self.state = state
        self.player = player
        self.events = events
        self.forced = forced
        self.dry = dry
        self.moment = moment
        self.choice = choice if choice is not None else {}
        self.shared = shared if shared is not None else {}
        self.counted: dict[str, int] = {}  # what each `per` counted, by its count's name
        self.held: set[str] = set()  # the names of the conditions that held
        self.short: dict[str, int] = {}  # what a forced payment could not take
        self.gained: dict[str, Any] = {}  # what a vocabulary keeps for the caller (floors to build)
        self.each: str | None = None  # the count name of the innermost running `per`
        self.each_do: tuple = ()  # and the steps it repeats (compiled)
        self.nth: int | None = None  # which of a target `per`'s things its steps act on now (0, 1, ...)


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

    def place(self, run: Run, what: str, count: int, where: str | None, params: dict[str, int]) -> None:
        """`where`: the name of the place the pieces go to, `params` its parameters."""
        raise EngineError(f"{run.entity}: the engine cannot place {what!r} ({where})")

    def exchange(self, run: Run, give: dict[str, int], get: dict[str, int], times: int) -> None:
        for w, n in give.items():
            self.pay(run, w, n * times)
        for w, n in get.items():
            self.gain(run, w, n * times)

    def optional(self, run: Run) -> bool:
        """Whether the player takes an `optional` step (an activation the player chose is a yes)."""
        raise EngineError(f"{run.entity}: the engine cannot decide whether the player takes an optional step")

    def actor(self, run: Run, who: str) -> str:
        """The player a `by` step names (game.yaml `others`)."""
        raise EngineError(f"{run.entity}: the engine has no player {who!r}")

    def mechanism(self, run: Run, rule_id: str) -> None:
        """A `rule:` step: the named mechanism, which the game runs in its flow (nothing to do here
        unless the game says so)."""

    def other(self, run: Run, op: str, args: Any) -> None:
        raise EngineError(f"{run.entity}: the engine does not execute {op!r} steps")


class Interpreter:
    """Executes effects read from the compiled rule set (`engine.core.game.Rules`). Each entity's
    effect is compiled once per rule set into a program of closures (`program`): the op, its
    arguments and the vocabulary method each step calls are looked up once, not at every step of
    play (a decision of In the Year of the Dragon runs several effects)."""

    def __init__(self, rules, vocabulary: Vocabulary):
        self.rules, self.vocabulary = rules, vocabulary
        vocabulary.interpreter = self  # a mechanism may run another entity's effect
        self.ran: set[str] = set()  # the entities whose effect this interpreter executed (coverage)
        self._gains: dict[tuple[str, str], bool] = {}
        self._mechanisms: dict[str, list[str]] = {}
        self._compiled: dict[str, tuple] = {}
        self._compiling: list[str] = []  # the entities being compiled, outermost first (an apply cycle)
        self._programs: dict[str, tuple[Callable[[Run], None], dict]] = {}
        self._moments: dict[tuple[str, str], tuple[Callable[[Run], None] | None, dict]] = {}

    def gains(self, entity_id: str, what: str) -> bool:
        """Whether the entity's effect gains `what` anywhere (read once per rule set)."""
        key = (entity_id, what)
        try:
            return self._gains[key]
        except KeyError:
            found = self._gains[key] = gains(self.compiled(entity_id), what)
            return found

    def mechanisms(self, entity_id: str) -> list[str]:
        """The rule ids the entity's effect names (a phase's scorings, in order), read once."""
        if entity_id not in self._mechanisms:
            self._mechanisms[entity_id] = mechanisms(self.rules.entities[entity_id].get("effect") or [])
        return self._mechanisms[entity_id]

    def run(self, entity_id: str, state: dict, player: str, events: list, *, forced: bool = False,
            choice: dict | None = None, shared: dict | None = None, dry: bool = False, moment: str | None = None) -> Run:
        entry = self._programs.get(entity_id)
        if entry is None:
            entry = self._programs[entity_id] = (self.program(self.compiled(entity_id)),
                                                 self.rules.entities[entity_id]["attrs"])
        run = Run(entity_id, entry[1], state, player, events, forced, choice, shared, dry, moment)
        self.ran.add(entity_id)
        entry[0](run)
        return run

    def triggered(self, entity_id: str, moment: str, state: dict, player: str, events: list, *,
                  choice: dict | None = None, shared: dict | None = None) -> Run:
        """Only the steps of the entity's `trigger` for `moment`: a lasting effect's later part (a
        decree's morning bonus), whose other steps ran when the player took the entity."""
        key = (entity_id, moment)
        entry = self._moments.get(key)
        if entry is None:  # the moment's trigger bodies as one program, compiled once like run()'s
            bodies = _at_moment(self.compiled(entity_id), moment)
            entry = self._moments[key] = (self.program(bodies) if bodies else None,
                                          self.rules.entities[entity_id]["attrs"])
        run = Run(entity_id, entry[1], state, player, events, False, choice, shared, False, moment)
        if entry[0] is not None:
            self.ran.add(entity_id)
            entry[0](run)
        return run

    def compiled(self, entity_id: str) -> tuple:
        """The entity's effect as the interpreter runs it (compile_effect), made once per rule set."""
        if entity_id not in self._compiled:
            if entity_id in self._compiling:  # the loader refuses this; a rule set made otherwise is told
                raise EngineError(f"{entity_id}: apply comes back to it ({' → '.join(self._compiling + [entity_id])})")
            entity = self.rules.entities[entity_id]
            self._compiling.append(entity_id)
            try:
                self._compiled[entity_id] = compile_effect(entity.get("effect") or [], entity["attrs"], self._applied)
            finally:
                self._compiling.pop()
        return self._compiled[entity_id]

    def _applied(self, entity_id: str) -> tuple[tuple, dict]:
        """An applied entity's compiled effect and its attributes (compile_effect's `applied`)."""
        if entity_id not in self.rules.entities or not self.rules.entities[entity_id].get("effect"):
            raise EngineError(f"apply: {entity_id!r} is no entity with an effect in the {self.rules.game} rule set")
        return self.compiled(entity_id), self.rules.entities[entity_id]["attrs"]

    def execute(self, steps: tuple, run: Run) -> None:
        """Run compiled steps (compile_effect) for a run made elsewhere."""
        self.program(steps)(run)

    # ---------------------------------------------------------------- compiling to closures
    def program(self, steps: tuple) -> Callable[[Run], None]:
        """Compiled steps as one callable: each step's closure, in order."""
        parts = tuple(self._step(op, args, inner) for op, args, inner in steps)
        if not parts:
            return _nothing
        if len(parts) == 1:
            return parts[0]

        def sequence(run: Run) -> None:
            for part in parts:
                part(run)
        return sequence

    def _step(self, op: str, args: Any, inner: tuple) -> Callable[[Run], None]:
        vocabulary = self.vocabulary
        if op in AMOUNT_OPS:
            return _amounts(getattr(vocabulary, op), tuple(args.items()))
        if op == "move":
            move, track, steps = vocabulary.move, args["track"], args["steps"]
            return lambda run: move(run, track, steps)
        if op == "repeat":
            body, times = self.program(inner[0]), range(args["times"])

            def repeat(run: Run) -> None:
                for _ in times:
                    body(run)
            return repeat
        if op == "per":
            return self._per(args, inner[0])
        if op == "condition":
            return self._condition(args["if"], self.program(inner[0]))
        if op == "choose":
            choose, bodies = vocabulary.choose, tuple(self.program(option) for option in inner)

            def choice(run: Run) -> None:
                k = choose(run, inner)
                if k is not None:
                    bodies[k](run)
            return choice
        if op == "optional":  # the player may: the vocabulary says whether they do
            body, take = self.program(inner[0]), vocabulary.optional

            def optional(run: Run) -> None:
                if take(run):
                    body(run)
            return optional
        if op == "by":  # someone else acts (the solo opponent): the vocabulary names the player
            body, who, actor = self.program(inner[0]), args["who"], vocabulary.actor

            def by(run: Run) -> None:
                outer = run.player
                run.player = actor(run, who)
                try:
                    body(run)
                finally:
                    run.player = outer
            return by
        if op == "exchange":
            return lambda run: self._exchange(args, run)
        if op == "trigger":  # the game's flow brings the moment; the run says which it is
            body, when = self.program(inner[0]), args["when"]

            def trigger(run: Run) -> None:
                if run.moment == when:
                    body(run)
            return trigger
        if op == "place":
            place, what, count = vocabulary.place, args["what"], args.get("count", 1)
            where, params = term(args["where"]) if "where" in args else (None, {})
            return lambda run: place(run, what, count, where, params)
        if op == "rule":
            mechanism, rule_id = vocabulary.mechanism, args["id"]
            return lambda run: mechanism(run, rule_id)
        if op == APPLY:
            return self._apply(args["id"], args[APPLIED_ATTRS], self.program(inner[0]))
        other = vocabulary.other
        return lambda run: other(run, op, args)

    def _per(self, args: dict, inner: tuple) -> Callable[[Run], None]:
        (each, params), game = term(args["each"]), self.rules.game
        count = _bound(self.vocabulary.counts.get(each), params)
        most = args.get("max")
        body = self.program(inner)
        # amounts only: one step of n times the amount (one event), as a player counts them
        once = _scaled(self.vocabulary, inner) if args[AMOUNTS_ONLY] and each not in self.vocabulary.targets else None

        def per(run: Run) -> None:
            if count is None:
                raise EngineError(f"{run.entity}: the {game} engine has no count for {each!r}")
            outer, outer_do = run.each, run.each_do
            run.each, run.each_do = each, inner
            n = count(run)
            if n < 0:
                n = 0
            elif most is not None and n > most:
                n = most
            run.counted[each] = n
            if n:
                if once is not None:
                    once(run, n)
                else:
                    outer_nth = run.nth
                    for i in range(n):
                        run.nth = i
                        body(run)
                    run.nth = outer_nth
            run.each, run.each_do = outer, outer_do
        return per

    def _condition(self, value: Any, body: Callable[[Run], None]) -> Callable[[Run], None]:
        (name, params), game = term(value), self.rules.game
        holds = _bound(self.vocabulary.conditions.get(name), params)

        def condition(run: Run) -> None:
            if holds is None:
                raise EngineError(f"{run.entity}: the {game} engine has no condition {name!r}")
            if holds(run):
                run.held.add(name)
                body(run)
        return condition

    def _apply(self, entity_id: str, attrs: dict, body: Callable[[Run], None]) -> Callable[[Run], None]:
        ran = self.ran

        def apply(run: Run) -> None:
            outer = run.entity, run.attrs
            run.entity, run.attrs = entity_id, attrs  # the applied entity's steps, as it states them
            ran.add(entity_id)
            try:
                body(run)
            finally:
                run.entity, run.attrs = outer
        return apply

    def _exchange(self, args: dict, run: Run) -> None:
        """Give to receive: once, or with `all` as often as the player can (what they hold decides)."""
        give, get = args["give"], args["get"]
        times = min(self.vocabulary.have(run, w) // n for w, n in give.items())
        if not args.get("all"):
            times = min(times, 1)
        if times > 0:
            self.vocabulary.exchange(run, give, get, times)


def _bound(function: Callable | None, params: dict[str, Any]) -> Callable[[Run], Any] | None:
    """A count or condition with the step's parameters bound (once, when the effect is compiled)."""
    if function is None or not params:
        return function
    return lambda run: function(run, **params)


def _nothing(run: Run) -> None:
    """An empty effect (an event where nothing happens)."""


def _amounts(method: Callable, items: tuple) -> Callable[[Run], None]:
    if len(items) == 1:
        (what, n), = items
        return lambda run: method(run, what, n)

    def amounts(run: Run) -> None:
        for what, n in items:
            method(run, what, n)
    return amounts


def _scaled(vocabulary: Vocabulary, inner: tuple) -> Callable[[Run, int], None]:
    """A `per`'s amount steps run once with n times each amount."""
    calls = tuple((vocabulary.move, ((args["track"], args["steps"]),)) if op == "move"
                  else (getattr(vocabulary, op), tuple(args.items())) for op, args, _ in inner)
    if len(calls) == 1 and len(calls[0][1]) == 1:  # the usual: one amount per counted thing
        method, ((what, amount),) = calls[0]
        return lambda run, n: method(run, what, amount * n)

    def once(run: Run, n: int) -> None:
        for method, items in calls:
            for what, amount in items:
                method(run, what, amount * n)
    return once


SCALABLE = frozenset(AMOUNT_OPS) | {"move"}
AMOUNTS_ONLY = " amounts only"  # a compiled `per`'s note (no argument of the language has a space)


APPLIED_ATTRS = " attrs"  # a compiled `apply`'s note: the applied entity's attributes


def compile_effect(steps: list, attrs: dict[str, Any], applied: Callable[[str], tuple[tuple, dict]] | None = None) -> tuple:
    """An effect as a tuple of (op, arguments with references resolved, nested effects compiled):
    the structure read once with kb/effects.py's tables, not at every step of play. `applied(id)` gives
    an applied entity's compiled effect and attributes: an `apply` step holds them as its nested
    effect, so what reads compiled effects (gains, a choice's options) sees the applied steps."""
    out = []
    for step in steps:
        (op, args), = step.items()
        if op == APPLY:
            if applied is None:
                raise EngineError(f"apply: {args.get('id')!r}: no rule set to read the applied entity from")
            body, its_attrs = applied(args["id"])
            out.append((op, {"id": args["id"], APPLIED_ATTRS: its_attrs}, (body,)))
            continue
        inner = tuple(compile_effect(effect, attrs, applied) for _, effect in nested(op, args, "")) if op in NESTED else ()
        if isinstance(args, dict):
            args = resolved({k: v for k, v in args.items() if k != NESTED.get(op)}, attrs)
        if op == "per":  # whether its steps can run once, scaled, rather than n times (read once here)
            args[AMOUNTS_ONLY] = all(inner_op in SCALABLE for inner_op, _, _ in inner[0])
        out.append((op, args, inner))
    return tuple(out)


def applies(steps: tuple, entity_id: str) -> bool:
    """Whether a compiled effect applies the entity anywhere (which option of a choice a request names)."""
    return any((op == APPLY and args["id"] == entity_id) or any(applies(i, entity_id) for i in inner)
               for op, args, inner in steps)


def every_step(steps: tuple):
    """Every (op, arguments, nested effects) of a compiled effect, nested ones too, in order."""
    for step in steps:
        yield step
        for body in step[2]:
            yield from every_step(body)


def _at_moment(steps: tuple, moment: str) -> tuple:
    """The bodies of a compiled effect's triggers for `moment`: top-level ones, those of an applied
    entity, and those someone else does (a `by` keeps its actor around them)."""
    out: list = []
    for op, args, inner in steps:
        if op == APPLY:
            out += _at_moment(inner[0], moment)
        elif op == "by":
            body = _at_moment(inner[0], moment)
            if body:
                out.append((op, args, (body,)))
        elif op == "trigger" and args["when"] == moment:
            out += inner[0]
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
