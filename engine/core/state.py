"""Plain JSON states: copies, copy-on-write drafts for apply, and dotted paths ("players.Kuba.vp")."""
from __future__ import annotations

import json
import threading
from typing import Any


def copy(value: Any) -> Any:
    """Deep copy of JSON data (dicts, lists, scalars): several times faster than copy.deepcopy."""
    if isinstance(value, dict):
        return {k: copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [copy(v) for v in value]
    return value


# ---- copy-on-write drafts: what Game.apply works on
# A full copy of the state on every action cost more than the rules themselves. apply now copies
# only the state's top two levels (the state dict, each of its dicts and lists, and their dicts and
# lists, e.g. one player's record; a game may name top-level keys copied one level further, as
# ZhanGuo does for its players' hands and supplies); deeper containers stay shared with the input state
# until the engine calls own() on them, which copies that sub-tree for the running apply before it
# is changed in place. Writing into a shared container would change the caller's state: a test
# replays random games of every engine checking that each input state is left as it was.

_CONTAINERS = (dict, list)


class _Draft(threading.local):
    owned: set[int] | None = None  # ids of the sub-trees own() copied in the running apply, per thread


_draft = _Draft()


def draft(state: dict, deeper: tuple[str, ...] = (), fixed: frozenset[str] = frozenset(),
          flat: frozenset[str] = frozenset()) -> dict:
    """A working copy of `state` whose top two levels are private (three under the keys `deeper`);
    deeper containers are shared with `state`, and so are the values of the keys `fixed` (values
    no action changes). The values of the keys `flat` hold no container (see flat_keys): one copy in C
    makes their level private, where looking at each item cost most of the draft."""
    work = state.copy()
    for key, value in state.items():
        if key in fixed:
            continue
        kind = type(value)
        if key in flat and kind in _CONTAINERS:
            work[key] = value.copy()
            continue
        if kind is dict:
            if key in deeper:
                work[key] = {k: _two_levels(v) if type(v) in _CONTAINERS else v for k, v in value.items()}
            else:
                work[key] = {k: v.copy() if type(v) in _CONTAINERS else v for k, v in value.items()}
        elif kind is list:
            if key in deeper:
                work[key] = [_two_levels(v) if type(v) in _CONTAINERS else v for v in value]
            else:
                work[key] = [v.copy() if type(v) in _CONTAINERS else v for v in value]
    _draft.owned = set()
    return work


_SCALAR_TYPES = {"string", "integer", "number", "boolean", "null"}


def _scalar(schema: Any) -> bool:
    """A JSON Schema that admits no object or array (a string, a number, an enum of them, ...)."""
    if not isinstance(schema, dict):
        return False
    if "const" in schema:
        return not isinstance(schema["const"], _CONTAINERS)
    if "enum" in schema:
        return not any(isinstance(v, _CONTAINERS) for v in schema["enum"])
    if "oneOf" in schema or "anyOf" in schema:
        return all(_scalar(s) for s in schema.get("oneOf", schema.get("anyOf")))
    kinds = schema.get("type")
    kinds = [kinds] if isinstance(kinds, str) else kinds
    return bool(kinds) and set(kinds) <= _SCALAR_TYPES


def flat_keys(state_schema: dict) -> frozenset[str]:
    """The top-level keys whose value the game's closed state schema declares as a list or a mapping of
    scalars only (a draft copies them in one step). A key the schema leaves open is not flat; the
    seeded random games check every state against this schema, so a wrong declaration fails there."""
    out = set()
    for key, prop in (state_schema.get("properties") or {}).items():
        if prop.get("type") == "array" and _scalar(prop.get("items")):
            out.add(key)
        elif prop.get("type") == "object" and "additionalProperties" in prop:
            extra = prop["additionalProperties"]
            if (extra is False or _scalar(extra)) and all(_scalar(p) for p in (prop.get("properties") or {}).values()):
                out.add(key)
    return frozenset(out)


def _two_levels(node: dict | list) -> dict | list:
    if type(node) is dict:
        return {k: v.copy() if type(v) in _CONTAINERS else v for k, v in node.items()}
    return [v.copy() if type(v) in _CONTAINERS else v for v in node]


def own(parent: dict | list, key: Any) -> Any:
    """`parent[key]`, made private to the running apply (a copy of its sub-tree the first time):
    call it before changing in place a container below the draft's private levels, starting from a
    private parent (a draft level or a container own returned). Outside apply (new_state, or a
    scenario step on its own copy) the state is private anyway and own returns `parent[key]`."""
    value = parent[key]
    owned = _draft.owned
    if owned is None or id(value) in owned or type(value) not in _CONTAINERS:
        return value
    value = parent[key] = _copy_owned(value, owned)
    return value


def end_draft() -> None:
    """End the running apply's draft (its ids mean nothing afterwards)."""
    _draft.owned = None


def _copy_owned(value: Any, owned: set[int]) -> Any:
    if type(value) is dict:
        value = {k: _copy_owned(v, owned) if type(v) in _CONTAINERS else v for k, v in value.items()}
    else:
        value = [_copy_owned(v, owned) if type(v) in _CONTAINERS else v for v in value]
    owned.add(id(value))
    return value


def roundtrip(state: dict) -> dict:
    return json.loads(json.dumps(state, sort_keys=True))


def get_path(state: Any, path: str) -> Any:
    node = state
    for part in path.split("."):
        if isinstance(node, list):
            try:
                node = node[int(part)]
            except (ValueError, IndexError):
                raise KeyError(path) from None
        elif isinstance(node, dict) and part in node:
            node = node[part]
        else:
            raise KeyError(path)
    return node


def deep_merge(base: dict, patch: dict) -> dict:
    """Patch onto base: dicts merge recursively, anything else replaces."""
    for k, v in patch.items():
        if isinstance(v, dict) and isinstance(base.get(k), dict):
            deep_merge(base[k], v)
        else:
            base[k] = copy(v)
    return base
