"""What a game declares about itself (OpenSpiel's GameType): players, chance, information, options.

Front ends read these declarations instead of keeping lists of their own: the API validates a new
session's players and options with them and serves only observations; the CLI and the site show
them. See ARCHITECTURE.md ("Game types and observations").
"""
from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from typing import Any, Iterator

from engine.core.errors import MalformedAction, SeatError
from engine.core.state import copy
from kb.messages import N_, Message

HIDDEN = None  # what a hidden value reads as in an observation; lists keep their length


class OptionError(MalformedAction):
    """An option the game does not declare, or a value it does not allow."""

    def __init__(self, message: str, allowed: list[str] | None = None):
        self.allowed = allowed or []
        super().__init__(message)


@dataclass(frozen=True)
class Option:
    """One game option. `values` lists the allowed values (None: any value of `kind`)."""
    name: str
    kind: str  # "bool" | "choice" | "player" | "players" | "int"
    description: str
    default: Any = None
    values: tuple[Any, ...] | None = None
    entity: str | None = None  # the knowledge-base entity (variant, rule) the option stands for
    scenarios_only: bool = False  # meaningful only for scenario positions, never for a played session

    def check(self, value: Any, players: list[str]) -> Any:
        ok = {
            "bool": isinstance(value, bool),
            "int": isinstance(value, int) and not isinstance(value, bool),
            "choice": isinstance(value, (str, int)) and not isinstance(value, bool),
            "player": isinstance(value, str) and value in players,
            "players": isinstance(value, list) and all(isinstance(v, str) for v in value),
        }[self.kind]
        if ok and self.values is not None and value not in self.values:
            ok = False
        if not ok:
            raise OptionError(f"option {self.name}: {value!r} is not {self.expects()}")
        return value

    def expects(self) -> str:
        if self.values is not None:
            return "one of " + ", ".join(str(v) for v in self.values)
        return {"bool": "true or false", "int": "a whole number", "choice": "a value",
                "player": "one of the players' names", "players": "a list of names"}[self.kind]

    def describe(self) -> dict[str, Any]:
        out = {"name": self.name, "type": self.kind, "description": self.description, "default": self.default}
        if self.values is not None:
            out["values"] = list(self.values)
        if self.entity:
            out["entity"] = self.entity
        return out


@dataclass(frozen=True)
class Information:
    """What the rulebook hides, as state paths (dots; `*` matches every key or index).

    `private` paths contain `{seat}`: the seat sees its own, nobody sees another's (a hand, a
    face-down pile of one's own); a segment `?player={seat}` picks the items whose `player` is
    that seat (a decision waiting for one player that shows cards only to them). `secret` paths nobody sees while playing (shuffled draw piles, the
    random generator). Lists keep their length (how many cards a hand holds is public); every
    hidden value reads as null. `rules` cite the entities or source lines that say what is hidden.
    `private_moves` are paths in a history entry ({player, action, events}) that only the player who
    moved sees: what a move put into the player's hidden information (a card discarded face down).
    """
    private: tuple[str, ...] = ()
    secret: tuple[str, ...] = ()
    rules: tuple[str, ...] = ()
    private_moves: tuple[str, ...] = ()


@dataclass(frozen=True)
class GameType:
    key: str
    title: str
    min_players: int
    max_players: int
    options: tuple[Option, ...]
    information: Information
    chance: str = "seeded"  # every random draw comes from the state's own generator (engine.core.rng)
    scoring: str = "victory points, ties broken as the rulebook says"
    seat_names: dict[str, Any] = field(default_factory=lambda: {"min_length": 1, "max_length": 64})

    # ---- options
    def option(self, name: str) -> Option | None:
        canonical = name.replace("-", "_")  # a variant's key (bonus-travel-tokens) names its option
        return next((o for o in self.options if o.name == canonical), None)

    def check_options(self, options: dict[str, Any] | None, players: list[str], *,
                      session: bool = False) -> dict[str, Any]:
        """The options with their declared names, each value checked; unknown names are an error
        that lists the allowed ones. `session`: a played session (scenario-only options refused)."""
        allowed = [o.name for o in self.options if not (session and o.scenarios_only)]
        out: dict[str, Any] = {}
        for name, value in (options or {}).items():
            option = self.option(str(name))
            if option is None or option.name not in allowed:
                raise OptionError(f"{self.key} has no option {name!r}; options: {', '.join(allowed)}", allowed)
            out[option.name] = option.check(value, players + list(out.get("others", [])))
        return out

    def check_players(self, players: list[str], *, seats_added: int = 0) -> None:
        """Seat names: within the player range, distinct, 1-64 characters of NFC text with no
        control, format, surrogate or unassigned characters."""
        count = len(players) + seats_added
        if not self.min_players <= count <= self.max_players:
            raise SeatError(N_("%(game)s is played by %(min)s-%(max)s players, not %(n)s"), game=self.title,
                            min=self.min_players, max=self.max_players, n=count)
        for name in players:
            problem = name_problem(name, self.seat_names["max_length"])
            if problem:
                raise SeatError(N_("player name %(name)r: %(problem)s"), name=name, problem=problem)
        if len(set(players)) != len(players):
            raise SeatError(N_("player names must be distinct"))

    def describe(self) -> dict[str, Any]:
        return {"players": {"min": self.min_players, "max": self.max_players}, "chance": self.chance,
                "information": {"private": list(self.information.private), "secret": list(self.information.secret),
                                "private_moves": list(self.information.private_moves),
                                "rules": list(self.information.rules)},
                "scoring": self.scoring, "options": [o.describe() for o in self.options if not o.scenarios_only]}

    # ---- observations
    def observation(self, state: dict, seat: str | None) -> dict:
        """What `seat` may see (None: the public view). The state itself is not changed."""
        view = copy(state)
        seats = _seats(state)
        for pattern in self.information.private:
            for other in seats:
                if other != seat:
                    _mask(view, pattern.replace("{seat}", other))
        for pattern in self.information.secret:
            _mask(view, pattern)
        return view

    def move_view(self, move: dict, seat: str | None) -> dict:
        """A history entry as `seat` may see it: another player's move without what went into
        their hidden information."""
        if move.get("player") == seat:
            return move
        view = copy(move)
        for pattern in self.information.private_moves:
            _mask(view, pattern)
        return view


def name_problem(name: Any, max_length: int = 64) -> Message | None:
    if not isinstance(name, str):
        return Message(N_("a name is a string"))
    if not 1 <= len(name) <= max_length:
        return Message(N_("a name has 1 to %(n)s characters"), n=max_length)
    if unicodedata.normalize("NFC", name) != name:
        return Message(N_("a name is sent in Unicode normal form C (NFC)"))
    if name != name.strip():
        return Message(N_("a name does not start or end with white space"))
    bad = next((ch for ch in name if unicodedata.category(ch)[0] == "C"), None)
    if bad is not None:
        return Message(N_("a name may not contain the character U+%(code)04X"), code=ord(bad))
    return None


def _seats(state: dict) -> list[str]:
    players = state.get("players")
    return list(players) if isinstance(players, dict) else []


def _blank(value: Any) -> Any:
    if isinstance(value, list):
        return [HIDDEN] * len(value)
    if isinstance(value, dict):
        return {k: _blank(v) for k, v in value.items()}
    return HIDDEN


def places(node: Any, path: str) -> Iterator[tuple[Any, Any]]:
    """Every (container, key) a declared path names: dots, `*` for every key or index,
    `?field=value` for the items whose field has that value."""
    head, _, rest = path.partition(".")
    if head.startswith("?"):
        name, _, wanted = head[1:].partition("=")
        items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
        keys = [k for k, v in items if isinstance(v, dict) and v.get(name) == wanted]
    elif isinstance(node, dict):
        keys = list(node) if head == "*" else [head] if head in node else []
    elif isinstance(node, list):
        keys = range(len(node)) if head == "*" else [int(head)] if head.isdigit() and int(head) < len(node) else []
    else:
        return
    for key in keys:
        if rest:
            yield from places(node[key], rest)
        else:
            yield node, key


def _mask(state: dict, path: str) -> None:
    for container, key in list(places(state, path)):
        container[key] = _blank(container[key])
