"""The effect language's one walker, and references from effects to rule constants.

An effect is a list of steps, each a one-key mapping {op: args} (kb/data/effects.yaml). A number in
an effect is either a literal or a reference to an attribute of the same entity, written
`attr.<name>` with optional `.<key>` parts into nested values (`attr.vp_by_aspect.writing`,
`attr.large_price.2017` for a value that differs by edition). The loader (validation), the renderer
(i18n/render.py), the translation checker (i18n/checker.py) and the engines all walk effects with
`EffectVisitor` and resolve references with `resolve`, so a constant is typed once and every surface
reads the same value; the engines' interpreter (engine/core/effects.py) compiles effects with `nested`,
`NESTED`, `AMOUNT_OPS` and `resolved`. See ARCHITECTURE.md, "Effects".
"""
from __future__ import annotations

from typing import Any, Callable, Iterator

from kb.messages import N_, Invalid, Message

REF = "attr."
# where a nested effect sits inside each op's arguments
NESTED = {"choose": "options", "optional": "do", "repeat": "do", "per": "do", "trigger": "do", "condition": "do",
          "by": "do"}
# arguments that are numbers (or references to numbers), per op; gain/pay/lose: every value
NUMERIC = {"move": ("steps",), "place": ("count",), "repeat": ("times",), "per": ("max",), "modify": ("by", "to")}
AMOUNT_OPS = ("gain", "pay", "lose")
# the argument of each op that names an entity by id (a rule, an action, what a modifier changes)
ID_ARGS = {"do_action": "action", "modify": "target", "rule": "id", "apply": "id"}
# the op that stands for another entity's whole effect, as that entity states it (kb/data/effects.yaml):
# the renderer says the target's steps and the interpreter runs them, so they are written once
APPLY = "apply"
# the arguments that name an entry of the game's vocabulary (game.yaml: a section of named conditions,
# counts, places, players and quantities, each entry with its parameters and its label): (op, arg) -> section
TERM_ARGS = {("condition", "if"): "conditions", ("per", "each"): "counts", ("place", "where"): "places",
             ("place", "from"): "places", ("take", "from"): "others", ("modify", "what"): "quantities",
             ("rule", "says"): "mechanisms", ("by", "who"): "others"}
TERM_SECTIONS = ("conditions", "counts", "places", "others", "quantities", "mechanisms")
# the catalog context of each section's labels (with the game: "zhanguo:if"), which says the role a
# label plays in the sentence the renderer makes of its step
TERM_ROLES = {"conditions": "if", "counts": "each", "places": "place", "others": "whom", "quantities": "what",
              "mechanisms": "says"}


class RefError(Invalid):
    """A reference that names no number of the entity's attributes."""


def is_ref(value: Any) -> bool:
    return isinstance(value, str) and value.removeprefix("-").startswith(REF)


def resolve(value: Any, attrs: dict[str, Any]) -> Any:
    """The number a reference names (a literal is returned as it is); `-attr.x` is its negative
    (a cost paid on a track: `move: {track: intrigue, steps: -attr.intrigue_cost}`)."""
    if not is_ref(value):
        return value
    if value.startswith("-"):
        return -resolve(value[1:], attrs)
    parts = value[len(REF):].split(".")
    if parts[0] not in attrs:
        raise RefError(N_("%(ref)s: the entity has no attribute %(attr)r"), ref=value, attr=parts[0])
    current: Any = attrs[parts[0]]
    for part in parts[1:]:
        if isinstance(current, dict) and "by_edition" in current and part in current["by_edition"]:
            current = current["by_edition"][part]
        elif isinstance(current, dict) and part in current:
            current = current[part]
        elif isinstance(current, dict) and part.isdigit() and int(part) in current:
            current = current[int(part)]
        elif isinstance(current, list) and part.isdigit() and int(part) < len(current):
            current = current[int(part)]
        else:
            raise RefError(N_("%(ref)s: %(key)r is not a key of the value it names"), ref=value, key=part)
    if isinstance(current, dict) and "by_edition" in current:
        raise RefError(N_("%(ref)s differs by edition: name the edition (%(editions)s)"), ref=value,
                       editions=", ".join(current["by_edition"]))
    if isinstance(current, bool) or not isinstance(current, (int, float)):
        raise RefError(N_("%(ref)s names %(value)r, not a number"), ref=value, value=current)
    return current


def attr_numbers(attrs: dict[str, Any]) -> Iterator[tuple[str, Any]]:
    """(reference, number) for every number in an entity's attributes, e.g. ("attr.large_price.2017", 7)."""
    def walk(value: Any, path: str):
        if isinstance(value, bool):
            return
        if isinstance(value, (int, float)):
            yield path, value
        elif isinstance(value, dict):
            inner = value["by_edition"] if set(value) == {"by_edition"} else value
            for k, v in inner.items():
                yield from walk(v, f"{path}.{k}")
        elif isinstance(value, list):
            for i, v in enumerate(value):
                yield from walk(v, f"{path}.{i}")
    for name, value in attrs.items():
        yield from walk(value, f"{REF}{name}")


def term(value: Any) -> tuple[str, dict[str, Any]] | None:
    """(name, parameters) of a reference to a vocabulary entry: `has-most-markers` or
    `{wall-on-line: {lines: 3}}`; None for anything else (malformed)."""
    if isinstance(value, str):
        return value, {}
    if isinstance(value, dict) and len(value) == 1:
        (name, params), = value.items()
        if isinstance(name, str) and isinstance(params, dict):
            return name, params
    return None


def term_args(op: str, args: Any) -> Iterator[tuple[str, str, Any]]:
    """(key, section, value) of each argument that names a vocabulary entry."""
    if isinstance(args, dict):
        for key, value in args.items():
            section = TERM_ARGS.get((op, key))
            if section:
                yield key, section, value


class EffectVisitor:
    """Walks an effect tree step by step. Subclasses override `step` (called for every step, before
    its nested effects), `number` (every numeric argument, literal or reference) and `term` (every
    argument that names an entry of the game's vocabulary, with its parameters)."""

    def visit(self, steps: Any, path: str = "effect") -> None:
        if not isinstance(steps, list):
            self.malformed(path, Message(N_("an effect is a list of steps")))
            return
        for n, step in enumerate(steps):
            here = f"{path}[{n}]"
            if not isinstance(step, dict) or len(step) != 1:
                self.malformed(here, Message(N_("a step is a one-key mapping {op: args}")))
                continue
            (op, args), = step.items()
            self.step(op, args, here)
            for key, value in numeric_args(op, args):
                self.number(value, f"{here}.{op}.{key}", op)
            for key, section, value in term_args(op, args):
                self.term(section, value, f"{here}.{op}.{key}", op)
            for sub_path, inner in nested(op, args, here):
                self.visit(inner, sub_path)

    def step(self, op: str, args: Any, path: str) -> None:
        pass

    def number(self, value: Any, path: str, op: str) -> None:
        pass

    def term(self, section: str, value: Any, path: str, op: str) -> None:
        pass

    def malformed(self, path: str, message: Message) -> None:
        pass


def numeric_args(op: str, args: Any) -> Iterator[tuple[str, Any]]:
    if not isinstance(args, dict):
        return
    if op in AMOUNT_OPS:
        yield from args.items()
    elif op == "take":
        for res, n in (args.get("things") or {}).items():
            yield f"things.{res}", n
    elif op == "exchange":
        for side in ("give", "get"):
            for res, n in (args.get(side) or {}).items():
                yield f"{side}.{res}", n
    for key in NUMERIC.get(op, ()):
        if key in args:
            yield key, args[key]


def nested(op: str, args: Any, path: str) -> Iterator[tuple[str, Any]]:
    if op not in NESTED:
        return
    inner = args if isinstance(args, list) else args.get(NESTED[op]) if isinstance(args, dict) else None
    if op == "choose":
        for k, option in enumerate(inner or []):
            yield f"{path}.choose[{k}]", option if isinstance(option, list) else [option]
    else:
        yield f"{path}.{op}", inner


def applied(steps: Any) -> list[str]:
    """The ids of the entities an effect's `apply` steps name, anywhere in it, in order."""
    out: list[str] = []

    class Collect(EffectVisitor):
        def step(self, op, args, path):
            if op == APPLY and isinstance(args, dict) and isinstance(args.get("id"), str):
                out.append(args["id"])
    Collect().visit(steps or [])
    return out


def numbers(steps: Any) -> list[tuple[str, Any]]:
    """(path, literal or reference) of every numeric argument of an effect."""
    out: list[tuple[str, Any]] = []

    class Collect(EffectVisitor):
        def number(self, value, path, op):
            out.append((path, value))
    Collect().visit(steps or [])
    return out


def _mapped(steps: Any, leaf: Callable[[Any], Any]) -> Any:
    """A copy of the effect tree with `leaf` applied to every value that is not a list or mapping."""
    if isinstance(steps, list):
        return [_mapped(s, leaf) for s in steps]
    if isinstance(steps, dict):
        return {k: _mapped(v, leaf) for k, v in steps.items()}
    return leaf(steps)


def resolved(steps: Any, attrs: dict[str, Any]) -> Any:
    """A copy of the effect with every reference replaced by the number it names."""
    return _mapped(steps, lambda v: resolve(v, attrs))


def _refs_by_value(attrs: dict[str, Any]) -> dict[Any, list[str]]:
    """Each number among an entity's attributes, with the references that name it."""
    by_value: dict[Any, list[str]] = {}
    for ref, value in attr_numbers(attrs):
        by_value.setdefault(value, []).append(ref)
    return by_value


def duplicated_literals(steps: Any, attrs: dict[str, Any]) -> list[tuple[str, Any, list[str]]]:
    """(path, literal, references it could be) for each literal that equals one of the entity's own
    attributes. 1 is exempt: it is the unit count (one tile, one step) and collides with any
    attribute that happens to be 1. A negative literal repeats the attribute it negates."""
    by_value = _refs_by_value(attrs)
    out = []
    for path, v in numbers(steps):
        if is_ref(v) or isinstance(v, bool) or not isinstance(v, (int, float)) or abs(v) == 1:
            continue
        if v in by_value:
            out.append((path, v, by_value[v]))
        elif -v in by_value:  # a cost written as a negative step
            out.append((path, v, [f"-{r}" for r in by_value[-v]]))
    return out


def attr_keys(attrs: dict[str, Any]) -> set[int]:
    """The numbers that name keys of an entity's mappings: the 2 of `vp_by_wall_space_lines: {2: 3}`."""
    out: set[int] = set()

    def walk(value: Any):
        if isinstance(value, dict):
            out.update(int(k) for k in value if str(k).isdigit())
            for v in value.values():
                walk(v)
    walk(attrs)
    return out


def term_literals(steps: Any, attrs: dict[str, Any]) -> list[tuple[str, Any, list[str]]]:
    """(path, literal, references it could be) for each literal parameter of a named term that equals
    one of the entity's attributes (0 and 1 exempt, as for literals). A number that names a key of one
    of the entity's mappings (`wall-on-line: {lines: 2}` beside `vp_by_wall_space_lines: {2: 2}`) is
    the name of an entry, not a copy of its value."""
    by_value, keys = _refs_by_value(attrs), attr_keys(attrs)
    out = []

    class Collect(EffectVisitor):
        def term(self, section, value, path, op):
            named = term(value)
            for param, v in (named[1].items() if named else ()):
                if (not isinstance(v, bool) and isinstance(v, int) and abs(v) > 1 and v in by_value
                        and v not in keys):
                    out.append((f"{path}.{param}", v, by_value[v]))
    Collect().visit(steps or [])
    return out
