"""Plain JSON states: fast copies and dotted paths ("players.Kuba.vp")."""
from __future__ import annotations

import json
from typing import Any


def copy(value: Any) -> Any:
    """Deep copy of JSON data (dicts, lists, scalars): several times faster than copy.deepcopy."""
    if isinstance(value, dict):
        return {k: copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [copy(v) for v in value]
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
