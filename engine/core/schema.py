"""Pieces of the games' JSON Schemas shared by every engine."""
from __future__ import annotations


def closed(kind: str, props: dict) -> dict:
    """The schema of one action type: `type`, `player` and `props`, nothing else (Game.apply refuses
    any other field: an action is kept in the session's public history). A "description" among
    `props` describes the action."""
    fields = {k: v for k, v in props.items() if k != "description"}
    out = {"type": "object", "required": ["type", "player"], "additionalProperties": False,
           "properties": {"type": {"const": kind}, **fields}}
    if "description" in props:
        out["description"] = props["description"]
    return out
