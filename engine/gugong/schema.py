"""JSON Schema of a Gugong state and of its actions (printed by `rulekb schema gugong`)."""
from __future__ import annotations

from engine.core.schema import action_schema, closed


def state_schema(g) -> dict:
    k = g.consts
    locs = list(k.locations)
    card = {"type": "string", "enum": list(k.cards), "description": "gift card id (gugong/unknown/gift-card-deck)"}
    piece = {"enum": ["n", "d"], "description": "n = a servant, d = the double servant"}
    name = {"type": "string", "description": "player name"}
    int0 = {"type": "integer", "minimum": 0}
    ship = {"oneOf": [{"type": "null"}, {"type": "object", "required": ["path", "port", "load"], "properties": {
        "path": int0, "port": {"type": "integer", "minimum": k.first_port, "maximum": k.last_port},
        "load": {"type": "array", "items": {"enum": [1, k.double_counts]},
                 "description": "spaces each servant on the ship takes (the double servant takes two)"}}}]}
    player = {"type": "object", "properties": {
        "pool": {**int0, "description": "servants in the servant pool (on the player board)"},
        "supply": {**int0, "description": "servants in the player's general supply"},
        "double": {"enum": ["locked", "pool", "supply", "wall", "ship"], "description": "where the double servant is"},
        "hand": {"type": "array", "items": card}, "discard": {"type": "array", "items": card},
        "vp": int0, "jade": int0,
        "palace": {"type": "integer", "minimum": 0, "maximum": k.palace_end, "description": f"envoy space; {k.palace_end} = in the palace"},
        "intrigue": {"type": "integer", "minimum": 0, "maximum": k.intrigue_max},
        "istamp": {**int0, "description": "stacking order on the intrigue track: higher lies on top"},
        "traveller": {"oneOf": [{"type": "null"}, int0], "description": "city of the traveller (None: beside the map)"},
        "tokens": {"type": "array", "items": {"type": "string"}, "maxItems": k.token_slots, "description": "travel tokens held"},
        "ships": {"type": "array", "items": ship, "minItems": k.ships, "maxItems": k.ships},
        "ports": {"type": "object", "description": "servants on the port-reward spots of the player board",
                  "properties": {kind: {"type": "integer", "minimum": 0, "maximum": n} for kind, n in k.port_limits.items()}},
        "decrees": {"type": "array", "items": {"enum": sorted(k.decrees)}},
        "bonus": {"type": "array", "description": "bonus travel tokens in use this day (variant), each with one servant",
                  "items": {"type": "object", "properties": {"token": {"enum": sorted(k.bonus_mix)},
                                                             "location": {"oneOf": [{"type": "null"}, {"enum": locs}]}}}},
        "disqualified": {"type": "boolean"}, "final_vp": int0, "final_scoring": {"type": "object"}}}
    pending = {"type": "object", "required": ["kind", "player"], "properties": {
        "kind": {"enum": ["travel_move", "token_reward", "make_room", "intrigue_reward", "canal_place", "canal_move",
                          "claim", "decree_bonus", "canal_claims", "follow", "take_double"]},
        "player": name, "token": {"type": "string"}, "ship": int0, "decree": {"type": "string"},
        "source": {"enum": ["pool", "supply"]}, "optional": {"type": "boolean"},
        "swap": {"type": "boolean", "description": "take_double: the double servant replaces a normal one just gained"},
        "location": {"enum": locs, "description": "follow: the location whose bonus follow token the player may use"}}}
    state = {
        "$schema": "https://json-schema.org/draft/2020-12/schema", "title": "Gugong state", "type": "object",
        "properties": {
            "game": {"const": "gugong"}, "order": {"type": "array", "items": name, "description": "seats, clockwise"},
            "options": {"type": "object", "properties": {
                "solo": {"enum": sorted(g.solo.levels), "description": "one named player: the solo game at this level (normal by default)"},
                "solo_sets": {"type": "integer", "description": "which pair of card sets (gugong/unknown/solo-card-set-pairs)"},
                "focus": {"enum": locs, "description": "solo: the location Meng focuses on (random by default)"},
                "first_player": name, "others": {"type": "array", "items": name, "description": "extra seats after the named players"},
                "advanced": {"type": "boolean", "description": "gugong/variant/advanced: shared gift card deck"},
                "bonus_travel_tokens": {"type": "boolean", "description": "gugong/variant/bonus-travel-tokens"}}},
            "rng": {"type": "string", "description": "the generator state KEY:COUNT (engine/core/rng.py)"},
            "day": {"type": "integer", "minimum": 1, "maximum": k.days},
            "phase": {"enum": ["morning", "day", "dusk", "night", "end"], "description": "dusk: solo game only"},
            "step": {"enum": [None, "first_player", "new_servants", "dice", "ships", "end_of_day"]},
            "first": {**int0, "description": "seat index of the first player"},
            "turn": {**int0, "description": "seat index of the player whose turn it is (day)"},
            "stage": {"enum": ["exchange", "act"], "description": "step 1 (gift exchange) or 2 (actions) of the turn"},
            "acts": {"type": "object", "properties": {"card": card, "location": {"enum": locs},
                                                      "card_action": {"type": "boolean"}, "location_action": {"type": "boolean"}}},
            "medal": {"oneOf": [{"type": "null"}, name], "description": "who took the next-first-player medal"},
            "dice": {"type": "array", "items": {"type": "integer", "minimum": 1, "maximum": k.die_faces}},
            "board": {"type": "object", "properties": {loc: card for loc in locs}, "description": "the officials' gift cards"},
            "draw": {"type": "array", "items": card}, "box": {"type": "array", "items": card},
            "map": {"type": "array", "items": {"type": ["string", "null"]}, "description": "travel token on each city"},
            "token_piles": {"type": "array", "items": {"type": "array"}}, "token_discard": {"type": "array"},
            "jade_houses": {"type": "array", "items": int0, "description": "jade left in each house"},
            "wall": {"type": "array", "items": {"type": "array", "prefixItems": [name, {"enum": [1, k.double_counts]}]},
                     "description": "servants on the Great Wall, left to right: [player, spaces]"},
            "decrees": {"type": "object", "additionalProperties": {"type": "array", "items": name},
                        "description": "decrees in play and whose servants are on them"},
            "paths": {"type": "integer", "description": "paths of the Grand Canal"},
            "palace_spots": {"type": "array", "items": name, "description": "envoys in the palace, in order of entry"},
            "stamp": int0, "pending": {"type": "array", "items": pending},
            "players": {"type": "object", "additionalProperties": player},
            "result": {"oneOf": [{"type": "null"}, {"type": "array"}]},
            "solo": {"oneOf": [{"type": "null"}, {"type": "object", "description": "solo game against the Meng automa", "properties": {
                "meng": name, "level": {"enum": sorted(g.solo.levels)}, "focus": {"enum": locs},
                "deck": {"type": "array", "items": {"type": "string"}, "description": "Automa deck: r<i> regular (gugong/unknown/automa-card-faces), s<i> special"},
                "today": {"type": "array", "description": "Automa cards played this Day (for the Dusk)"},
                "discard": {"type": "array", "description": "Automa cards of previous Days"},
                "neutral_ports": {"type": "object", "description": "Meng's port rewards, marked with neutral servants"},
                "todo": {"type": "array", "description": "Meng's waiting steps"}}}]}},
    }
    base = {"player": name}
    opt = {"enum": ["A", "B"]}
    params = {"option": opt, "double": {"type": "boolean"},  # a location action's parameters
              "pieces": {"type": "array", "items": piece, "description": "great-wall"},
              "extra": {"type": "boolean", "description": "great-wall with the l2-wall decree"},
              "house": {"oneOf": [int0, {"const": "courtyard"}], "description": "jade"},
              "decree": {"enum": sorted(k.decrees)}}
    swap = {"from": {"enum": ["hand", "discard"]}, "card": card, "location": {"enum": locs}}
    actions = {
        "exchange": {**base, "card": card, "location": {"enum": locs},
                     "payment": {"enum": ["free", "servants", "discard", "no_action"],
                                 "description": "free: higher gift (or 1 for 9, or equal with the decree); servants: pay two; discard: another hand card; no_action: exchange without actions"},
                     "discard": card, "double": {"type": "boolean", "description": "pay with the double servant"}},
        "card_action": {**base, **params, **swap,
                        "description": "the placed card's action; location-like cards take that location's parameters; swap-card: from, card, location"},
        "location_action": {**base, **params},
        "end_turn": base,
        "travel": {**base, "city": int0},
        "token_reward": {**base, "use": {"type": "boolean"}, "card": card, "from": {"enum": ["hand", "discard"]},
                         "location": {"enum": locs, "description": "swap-card target, or the action space a bonus token marks"}, "ship": int0, "path": int0, "piece": piece, "double": {"type": "boolean"}},
        "tokens": {**base, "for": {"enum": list(k.token_rates)}, "doubles": int0,
                   "hand_in": {"type": "array", "items": {"type": "string"}, "description": "the tokens handed in (else the engine picks)"}},
        "intrigue_reward": {**base, "reward": {"oneOf": [{"type": "null"}, {"enum": sorted(k.intrigue_rewards)}]},
                            "die": int0, "face": {"type": "integer", "minimum": 1, "maximum": k.die_faces}},
        "canal_place": {**base, "ship": {"oneOf": [{"type": "null"}, int0]}, "path": {"oneOf": [{"type": "null"}, int0], "description": "null: the ship already on the canal"}, "piece": piece},
        "canal_move": {**base, "ship": {"oneOf": [{"type": "null"}, int0]}},
        "claim": {**base, "reward": {"oneOf": [{"type": "null"}, {"enum": list(k.port_limits)}]}},
        "follow": {**base, **params, "use": {"type": "boolean"},
                   "description": "bonus follow token: the marked location's parameters"},
        "decree_bonus": {**base, "use": {"type": "boolean"}, "ship": int0, "path": int0, "piece": piece,
                         "card": card, "location": {"enum": locs}},
        "take_double": {**base, "take": {"type": "boolean", "description": "take the double servant with the servants just gained"}},
    }
    return {"state": closed(state),
            "action": {"oneOf": [action_schema(item, props) for item, props in actions.items()]}}
