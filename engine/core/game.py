"""The shape every game engine has (OpenSpiel-like, on plain JSON states).

A game is created from its compiled rule set (its rule constants and effects, as plain data). A state
is a JSON dict; `apply` never mutates its input: it works on a copy-on-write draft (state.draft:
the top two levels copied, deeper containers shared until the engine owns them with state.own) and
returns the new state with the events that happened, or raises IllegalAction naming the rule and
leaves the input as it was. Returned states share unchanged sub-trees with their input, so callers
treat states as values: copy one (state.copy) before changing it outside apply.
Randomness comes only from the state's own Rng, so (players, options, seed, actions) replays a game
exactly.
"""
from __future__ import annotations

import importlib
import threading
from abc import ABC, abstractmethod
from functools import cached_property, lru_cache
from typing import Any

from engine.core import state as st
from engine.core.errors import EngineError, IllegalAction, MalformedAction, NotBuilt
from engine.core.gametype import GameType
from engine.core.rng import Rng
from kb import ruleset
from kb.db import database_url
from kb.effects import resolved
from kb.messages import N_

Action = dict[str, Any]
Event = dict[str, Any]


class Rules:
    """A game's compiled rule set as plain dicts (kb/ruleset.py): no ORM or validation objects in the
    inner loop, and no YAML: `rulekb build` compiled it into the database (ARCHITECTURE.md)."""

    def __init__(self, game: str, entities: dict[str, dict[str, Any]], meta: dict[str, Any]):
        self.game, self.entities, self.meta = game, entities, meta

    def attr(self, entity_id: str, name: str, edition: str | None = None) -> Any:
        try:
            value = self.entities[entity_id]["attrs"][name]
        except KeyError:
            raise EngineError(f"the knowledge base has no attribute {name!r} on {entity_id!r}") from None
        if isinstance(value, dict) and "by_edition" in value:
            if edition is None:
                raise EngineError(f"{entity_id}.{name} differs by edition: say which edition")
            return value["by_edition"][edition]
        return value

    def effect(self, entity_id: str) -> list[Any]:
        """The entity's effect with its references to constants resolved (kb/effects.py), those of
        its named terms' parameters too, so the engine reads the same numbers the rendered texts show."""
        entity = self.entities[entity_id]
        return resolved(entity.get("effect") or [], entity["attrs"])

    def of_kind(self, kind: str) -> list[dict[str, Any]]:
        prefix = f"{self.game}/{kind}/"
        return [e for i, e in sorted(self.entities.items()) if i.startswith(prefix)]

    @classmethod
    def load(cls, game: str, url: str | None = None) -> "Rules":
        """The game's rules from the built database (RULEKB_DATABASE_URL, else var/rulekb.db), read once
        per process; a clear EngineError when the database is not built."""
        try:
            doc = ruleset.load(game, url)
        except ruleset.RuleSetMissing as exc:
            raise NotBuilt(exc.message.msgid, **exc.message.params) from None
        return cls(game, doc["entities"], doc["meta"])


class Game(ABC):
    key: str = ""
    # top-level state keys whose draft apply copies three levels deep, not two (see state.draft)
    draft_deeper: tuple[str, ...] = ()
    # top-level state keys set up once that no action changes (the options, the seats): the draft
    # shares them with the input state instead of copying them at every decision
    draft_fixed: frozenset[str] = frozenset()

    def __init__(self, rules: Rules | None = None):
        self.rules = rules or Rules.load(self.key)

    @cached_property
    def draft_flat(self) -> frozenset[str]:
        """Top-level state keys holding scalars only, by the game's state schema (see state.draft)."""
        return st.flat_keys((self.state_schema() or {}).get("state") or {})

    @classmethod
    def over(cls, url: str | None = None) -> "Game":
        """The engine over the rule set compiled into the database at `url`."""
        return cls(Rules.load(cls.key, url))

    # ---- creating and inspecting states
    @cached_property
    def game_type(self) -> GameType:
        """Players, chance, information and options, as the game declares them."""
        return self.declare()

    @abstractmethod
    def declare(self) -> GameType: ...

    def observation(self, state: dict, seat: str | None = None) -> dict:
        """What `seat` may see: the public state and its own hidden information (None: public only)."""
        return self.game_type.observation(state, seat)

    @abstractmethod
    def new_state(self, players: list[str], options: dict[str, Any] | None = None, seed: int = 0) -> dict:
        """The start state; options are checked against the declared ones (engine.core.gametype)."""

    @abstractmethod
    def legal_actions(self, state: dict) -> list[Action]: ...

    @abstractmethod
    def current_player(self, state: dict) -> str | None: ...

    @abstractmethod
    def is_terminal(self, state: dict) -> bool: ...

    @abstractmethod
    def scores(self, state: dict) -> list[dict[str, Any]]:
        """Final ranking: [{player, vp, rank, ...}], ties broken as the rulebook says."""

    @abstractmethod
    def state_schema(self) -> dict:
        """{"state": JSON Schema of a state, "action": JSON Schema of an action} (`rulekb schema GAME`)."""

    def check_invariants(self, state: dict) -> list[str]:
        """Broken invariants (resources created or lost, values out of bounds, a composition rule of
        the rulebook broken); empty when sound. An entry may be an engine.core.settle.Broken naming
        the rule entity it breaks."""
        return []

    def settle_setup(self, state: dict, setup: dict) -> None:
        """After a scenario's setup is merged onto the start state: take what it handed the players out
        of the supplies it did not name itself (engine.core.settle), in place."""

    # ---- changing states
    @abstractmethod
    def _apply(self, state: dict, action: Action, events: list[Event]) -> None:
        """Carry out an action on `state` (a draft: own() a container below its top two levels before
        changing it in place), appending events; raise IllegalAction."""

    def action_fields(self) -> dict[str, frozenset[str]]:
        """The fields each action type may have, from the game's action schema (state_schema()["action"]):
        the one place an action's shape is declared, for every game."""
        fields = self.__dict__.get("_action_fields")
        if fields is None:
            schema = (self.state_schema() or {}).get("action") or {}
            fields = {item["properties"]["type"]["const"]: frozenset(item["properties"])
                      for item in schema.get("oneOf", []) if "const" in item.get("properties", {}).get("type", {})}
            self.__dict__["_action_fields"] = fields
        return fields

    def apply(self, state: dict, action: Action) -> tuple[dict, list[Event]]:
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise MalformedAction(N_("an action is a JSON object with a string 'type'"))
        allowed = self.action_fields().get(action["type"])
        if allowed is not None and not allowed.issuperset(action):  # stored in the history: nothing else rides along
            unknown = sorted(set(action) - allowed)
            raise MalformedAction(N_("a %(type)s action has no field %(unknown)s; its fields: %(fields)s"), type=action['type'], unknown=', '.join(map(repr, unknown)), fields=', '.join(sorted(allowed)))
        work = st.draft(state, self.draft_deeper, self.draft_fixed, self.draft_flat)
        events: list[Event] = []
        try:
            self._apply(work, action, events)
        finally:
            st.end_draft()
        return work, events

    def run(self, state: dict, step: str) -> tuple[dict, list[Event]]:
        """Run an engine step by name (scenarios use this, e.g. {run: night})."""
        raise IllegalAction("scenario", N_("%(key)s has no engine step %(step)r"), key=self.key, step=step)

    # ---- helpers
    @staticmethod
    def rng(state: dict) -> Rng:
        return Rng(state)

    def replay(self, players: list[str], options: dict | None, seed: int, actions: list[Action]) -> dict:
        state = self.new_state(players, options, seed)
        for action in actions:
            state, _ = self.apply(state, action)
        return state


class PhasedGame(Game):
    """The state convention the engines share: `phase` ("end" when the game is over), `pending`
    (decisions raised inside an action, answered first, each naming its player) and `result` (the
    final ranking). A game adds only whose regular turn it is."""

    action_types: frozenset[str] = frozenset()

    def turn_player(self, state: dict) -> str | None:
        raise NotImplementedError

    def actor(self, state: dict, action: Action) -> str:
        """The player of a well-formed action of this game; refused while the game is over."""
        kind = action["type"]
        if kind not in self.action_types:
            raise MalformedAction(N_("unknown action type %(kind)r; types: %(types)s"), kind=kind, types=', '.join(sorted(self.action_types)))
        name = action.get("player")
        if not isinstance(name, str):
            raise MalformedAction(N_("an action names its 'player'"))
        if name not in state["players"]:
            raise MalformedAction(N_("no player %(name)r in this game"), name=name)
        if self.is_terminal(state):
            raise IllegalAction(f"{self.key}/rule/end-game", N_("the game is over"))
        return name

    def current_player(self, state: dict) -> str | None:
        if state["phase"] == "end":
            return None
        if state["pending"]:
            return state["pending"][0]["player"]
        return self.turn_player(state)

    def is_terminal(self, state: dict) -> bool:
        return state["phase"] == "end"

    def scores(self, state: dict) -> list[dict[str, Any]]:
        return [dict(r) for r in (state["result"] or [])]


ENGINES = {
    "gugong": "engine.gugong.game:Gugong",
    "dragon": "engine.dragon.game:Dragon",
    "zhanguo": "engine.zhanguo.game:ZhanGuo",
}


def get_game(key: str, url: str | None = None) -> Game:
    """The game's engine over the rule set of the database at `url` (default: RULEKB_DATABASE_URL,
    else var/rulekb.db), built once per process and database (engines keep no per-game-state data)."""
    if key not in ENGINES:
        raise EngineError(f"unknown game {key!r}; engines: {', '.join(ENGINES)}")
    with _BUILDING:
        return _get_game(key, ENGINES[key], database_url(url))  # one engine per database, however named


_BUILDING = threading.RLock()


@lru_cache(maxsize=None)
def _get_game(key: str, where: str, url: str) -> Game:
    module, cls = where.split(":")
    try:
        engine_class = getattr(importlib.import_module(module), cls)
    except ModuleNotFoundError as exc:
        if module.startswith(str(exc.name)):  # the game's own package is missing, not a dependency
            raise EngineError(f"the {key} engine is not implemented yet") from exc
        raise
    return engine_class.over(url)
