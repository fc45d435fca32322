"""Settling a scenario's setup: what a setup hands a player comes out of the supply it belongs to.

A reader reproducing a rulebook example writes what the players hold ("Kuba has 7 yuan and cards
1a, 4a") and nothing about the bank or the draw pile. Each engine's `Game.settle_setup` adjusts
the supplies the setup did not name itself, with these helpers, so that conservation holds; what
no supply can give (more than exist, a card in two places, a negative count) is left for the
invariants to refuse. A supply the setup names is taken as written.
"""
from __future__ import annotations

from collections import Counter
from typing import Any, Callable, Iterable

from kb.messages import Message


class Broken(str):
    """A broken invariant: its English, and the rule entity it breaks when the game names one
    (a scenario may expect `{setup: refused, rule: …}`). `message` is a catalog msgid and `params`
    its parameters: `said` is rendered in the reader's language (i18n.catalog.render)."""

    rule: str | None
    said: Message

    def __new__(cls, message: str, rule: str | None = None, /, **params) -> "Broken":
        said = Message(message, **params)
        out = super().__new__(cls, str(said))
        out.rule, out.said = rule, said
        return out


def named(setup: dict | None, *path: Any) -> bool:
    """Whether the setup gives this path itself (or a mapping above it wholesale)."""
    node: Any = setup
    for key in path:
        if not isinstance(node, dict) or key not in node:
            return False
        node = node[key]
    return True


def items_of(container: Any) -> list:
    """The items a container holds: a list's entries, a mapping's values (a board of places), a
    list of lists flattened; None (an empty place) holds nothing."""
    if container is None:
        return []
    if isinstance(container, dict):
        return [x for v in container.values() for x in items_of(v)]
    if isinstance(container, list):
        return [x for v in container for x in (items_of(v) if isinstance(v, (list, dict)) else [v])
                if x is not None]
    return [container]


def settle_items(every: Iterable, fixed: Iterable[Any], supplies: list[list],
                 put: Callable[[Any], None] | None = None, dealt: Iterable[list] = (),
                 draw: Callable[[Any], Any] | None = None) -> None:
    """Make each item of `every` lie in one place. The `fixed` places (what the setup wrote) keep
    theirs; an item they hold leaves the adjustable `supplies` (lists, changed in place) and, where
    the start state had dealt it to a place the setup did not name (`dealt`, lists), that place
    gets `draw(item)` instead (None: it gives it up); an item left nowhere is `put` back where it
    belongs (a deck's bottom, the box). Items held more often than they exist stay: the invariants
    refuse them."""
    total = Counter(every)
    held: Counter = Counter()
    for container in fixed:
        held.update(items_of(container))
    for supply in supplies:
        kept = []
        for x in supply:
            if held[x] < total[x]:
                held[x] += 1
                kept.append(x)
        supply[:] = kept
    for place in dealt:
        kept = []
        for x in place:
            if held[x] >= total[x]:  # the setup gave it elsewhere: this place draws another
                other = draw(x) if draw else None  # out of a supply: already counted there
                if other is not None:
                    kept.append(other)
                continue
            held[x] += 1
            kept.append(x)
        place[:] = kept
    if put is not None:
        for x, n in sorted(total.items(), key=lambda kv: str(kv[0])):
            for _ in range(n - held[x]):
                put(x)
