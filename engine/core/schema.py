"""Helpers shared by the games' state schemas (`rulekb schema GAME`)."""
from __future__ import annotations

from functools import lru_cache


def closed(schema):
    """The schema with every object that lists its properties closed to any other key, so a state key the
    schema does not describe is an error rather than silently accepted (the schema must keep up with the
    engine). Objects described without `properties` (free maps, breakdowns) stay open."""
    if isinstance(schema, dict):
        out = {key: closed(value) for key, value in schema.items()}
        if "properties" in out and "additionalProperties" not in out:
            out["additionalProperties"] = False
        return out
    if isinstance(schema, list):
        return [closed(value) for value in schema]
    return schema


@lru_cache(maxsize=None)
def _validators(game):
    # test-only dependencies, imported when a randomized check asks: jsonschema-rs decides (some 200x faster,
    # so every state of every random game can be checked), jsonschema words the errors of a failing state
    import jsonschema
    import jsonschema_rs

    schema = game.state_schema()["state"]
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema_rs.validator_for(schema), jsonschema.Draft202012Validator(schema)


def schema_errors(game, state: dict) -> list[str]:
    """Where the state departs from the game's published state schema, one line per departure."""
    fast, full = _validators(game)
    if fast.is_valid(state):
        return []
    return [f"schema: /{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in full.iter_errors(state)]


def action_schema(kind: str, props: dict) -> dict:
    """The schema of one action type: `type`, `player` and `props`, nothing else (Game.apply refuses
    any other field: an action is kept in the session's public history). A "description" among
    `props` describes the action."""
    fields = {k: v for k, v in props.items() if k != "description"}
    out = {"type": "object", "required": ["type", "player"], "additionalProperties": False,
           "properties": {"type": {"const": kind}, **fields}}
    if "description" in props:
        out["description"] = props["description"]
    return out
