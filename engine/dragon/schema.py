"""JSON Schema of an In the Year of the Dragon state and of its actions (`rulekb schema dragon`)."""
from __future__ import annotations

from engine.core.schema import action_schema, closed


def state_schema(g) -> dict:
    k = g.consts_by_edition[g.default_edition]
    subs = sorted(k.subtypes)
    sub = {"type": "string", "enum": subs, "description": "person tile: type, or type-young/type-elder"}
    card = {"type": "string", "enum": list(k.types) + ["joker"], "description": "person card (joker = question mark)"}
    name = {"type": "string", "description": "player name"}
    int0 = {"type": "integer", "minimum": 0}
    palace = {"type": "object", "required": ["floors", "persons"], "properties": {
        "floors": {"type": "integer", "minimum": 1, "maximum": k.max_floors},
        "persons": {"type": "array", "items": sub, "maxItems": k.max_floors}}}
    player = {"type": "object", "properties": {
        "yuan": int0, "rice": int0, "fireworks": int0, "vp": int0,
        "person": {**int0, "description": "space of the person marker"},
        "stamp": {**int0, "description": "stacking: on one space the higher stamp lies on top"},
        "palaces": {"type": "array", "items": palace},
        "privileges": {"type": "object", "properties": {"small": int0, "large": int0}},
        "hand": {"type": "array", "items": card},
        "wall": {"type": "array", "items": {"type": "string"}, "description": "unused wall tiles (Great Wall)"},
        "final": {"oneOf": [{"type": "null"}, {"type": "object"}], "description": "end-of-game points"}}}
    pending = {"type": "object", "required": ["kind", "player", "count"], "properties": {
        "kind": {"enum": ["release", "floor", "flood", "discard_card", "sunrise", "edict"]}, "player": name,
        "count": int0, "palaces": {"type": "array", "items": int0, "description": "drought: palaces still to release from"},
        "rule": {"type": "string"}}}
    state = {
        "$schema": "https://json-schema.org/draft/2020-12/schema", "title": "In the Year of the Dragon state", "type": "object",
        "properties": {
            "game": {"const": "dragon"}, "order": {"type": "array", "items": name, "description": "seats, clockwise; the first is the oldest"},
            "options": {"type": "object", "properties": {
                "edition": {"enum": sorted(g.consts_by_edition)}, "great_wall": {"type": "boolean"}, "great_events": {"type": "boolean"},
                "great_event": {"oneOf": [{"type": "null"}, {"enum": getattr(g.consts_by_edition[g.default_edition], "great_events", [])}]},
                "others": {"type": "array", "items": name, "description": "extra seats after the named players"}}},
            "rng": {"type": "string", "description": "the generator state KEY:COUNT (engine/core/rng.py)"},
            "round": {"type": "integer", "minimum": 0, "maximum": k.rounds},
            "phase": {"enum": ["draft", "action", "person", "event", "scoring", "end"]},
            "steps": {"type": "array", "items": {"type": "string"}, "description": "steps left this round ('hold' stops a scenario)"},
            "queue": {"type": "array", "items": name, "description": "players still to act in this phase, in order"},
            "pending": {"type": "array", "items": pending}, "stamp": int0,
            "groups": {"type": "array", "items": {"type": "array", "items": {"type": "string"}}, "description": "action card groups"},
            "dragons": {"type": "array", "items": {"type": "array", "items": name}, "description": "dragons on each group"},
            "drafted": {"type": "array", "description": "type pairs chosen as initial persons"},
            "events": {"type": "array", "items": {"enum": list(k.events)}, "minItems": k.track_spaces, "maxItems": k.track_spaces},
            "great_event": {"oneOf": [{"type": "null"}, {"type": "string"}]},
            "wall": {"type": "array", "items": name, "description": "Great Wall tiles, left to right: who placed each"},
            "sunrise": {"type": "array", "items": {"type": "string"}, "description": "types chosen during the Sunrise"},
            "supply": {"type": "object", "additionalProperties": int0, "description": "person tiles on the board"},
            "released": {"type": "object", "additionalProperties": int0, "description": "person tiles out of the game"},
            "bank": {"type": "object", "additionalProperties": {"type": "integer"}, "description": "yuan, rice, fireworks, floors, small, large in the bank (may go below 0: substitutes, dragon/rule/supply-shortage)"},
            "players": {"type": "object", "additionalProperties": player},
            "result": {"oneOf": [{"type": "null"}, {"type": "array"}]}}}
    base = {"player": name}
    build = {"add": {"type": "array", "items": {"type": "array", "prefixItems": [int0, int0]}},
             "new": {"type": "array", "items": {"type": "integer", "minimum": 1, "maximum": k.max_floors}}}
    place = {"palace": {"oneOf": [{"type": "null"}, int0], "description": "null: release the newcomer (palaces full)"},
             "slot": {**int0, "description": "person replaced when all palaces are full"}}
    actions = {
        "draft": {**base, "persons": {"type": "array", "items": sub}, "palaces": {"type": "array", "items": int0}},
        "action": {**base, "group": int0, "card": {"enum": list(k.actions) + ["great-wall"]}, **build,
                   "size": {"enum": ["small", "large"]}, "tile": {"type": "string"}},
        "refill": base,
        "person": {**base, "card": card, "person": {"oneOf": [{"type": "null"}, sub]}, **place},
        "release": {**base, "palace": int0, "slot": int0},
        "floor": {**base, "palace": int0, "slot": int0},
        "flood": {**base, "what": {"enum": ["yuan", "rice", "fireworks"]}},
        "discard_card": {**base, "card": card},
        "sunrise": {**base, "person": sub, **place},
        "edict": {**base, "kind": {"enum": list(k.types)}, **build},
    }
    return {"state": closed(state),
            "action": {"oneOf": [action_schema(item, props) for item, props in actions.items()]}}
