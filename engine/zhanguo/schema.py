"""JSON Schema of a ZhanGuo state and of its actions (printed by `rulekb schema zhanguo`)."""
from __future__ import annotations

from engine.core.schema import action_schema, closed


def state_schema(g) -> dict:
    k = g.consts
    int0 = {"type": "integer", "minimum": 0}
    name = {"type": "string", "description": "player name"}
    region = {"enum": list(k.regions), "description": "region 1-5 (a string key)"}
    colour = {"enum": list(k.official_colours)}
    mcol = {"enum": list(k.colours), "description": "card / unification-marker colour"}
    card = {"type": "integer", "minimum": min(k.cards), "maximum": max(k.cards),
            "description": "activation number (zhanguo/unknown/card-NNN value_used: action, ability)"}
    officials = {"type": "object", "properties": {c: int0 for c in k.official_colours}}
    reg = {"type": "object", "properties": {
        "gov": {**officials, "description": "officials in the governors' area"},
        "work": {**officials, "description": f"officials in the workers' area (at most {k.work_capacity})"},
        "workers": int0, "unrest": {**int0, "description": "0 = empty track; n = cube on the n-th space"},
        "cards": {"type": "array", "items": card, "maxItems": k.max_cards_region}}}
    player = {"type": "object", "properties": {
        "vp": {"type": "integer", "description": "may go negative only through the total-unrest wall token"},
        "side": {"enum": ["A", *k.boards]}, "board": {"oneOf": [{"type": "null"}, {"enum": list(k.boards)}]},
        "hand": {"type": "array", "items": card}, "draft": {"type": "array", "items": card},
        "supply": {**officials, "description": "officials in the player's own supply"},
        "governors": int0, "palaces": int0, "walls": int0, "cubes": int0, "discs": {**int0, "description": "task discs left"},
        "m1": {"type": "object", "properties": {c: int0 for c in k.colours}, "description": "value-1 unification markers"},
        "m3": {"type": "object", "properties": {c: int0 for c in k.colours}, "description": "value-3 unification markers"},
        "regions": {"type": "object", "properties": {r: reg for r in k.regions}},
        "final": {"type": "object", "description": "final scoring breakdown"},
        "task_sections": {"type": "object", "description": "final scoring: task VP per task section"}}}
    pending = {"type": "object", "required": ["kind", "player"], "properties": {
        "kind": {"enum": ["bid", "board", "select", "move", "activate", "official", "reward", "tasks", "next_aspect"]},
        "player": {"oneOf": [name, {"type": "null"}]}, "left": int0, "spent": int0, "min": int0,
        "action": {"enum": list(k.court_actions)}, "allowed": {"type": "boolean"},
        "used": {"type": "array", "items": card}, "b_used": {"type": "boolean"},
        "aspect": {"enum": list(k.aspect_order)}, "candidates": {"type": "array", "items": name},
        "colour": mcol, "cards": {"type": "array", "items": card}}}
    state = {
        "$schema": "https://json-schema.org/draft/2020-12/schema", "title": "ZhanGuo state", "type": "object",
        "properties": {
            "game": {"const": "zhanguo"}, "seats": {"type": "array", "items": name, "description": "clockwise"},
            "options": {"type": "object", "properties": {
                "sides": {"enum": ["A", "B", "auction"], "description": "player-board sides; B with the auction"},
                "card_selection": {"type": "boolean", "description": "zhanguo/variant/card-selection"},
                "reward_track_turn_order": {"type": "boolean", "description": "zhanguo/variant/reward-track-turn-order"},
                "unrest_per_worker": {"type": "boolean", "description": "zhanguo/variant/unrest-per-worker"},
                "first_player": name, "others": {"type": "array", "items": name, "description": "extra seats after the named players (scenarios)"}}},
            "rng": {"type": "string", "description": "the generator state KEY:COUNT (engine/core/rng.py)"},
            "round": {"type": "integer", "minimum": 1, "maximum": k.rounds},
            "phase": {"enum": ["setup", "boards", "auction", "draw", "drafting", "drafted", "play", "rewards", "end"]},
            "stage": {"enum": [None, "card", "end"], "description": "play the card, then tasks and end of turn"},
            "order": {"type": "array", "items": name, "description": "turn order of this round"},
            "turn": int0, "first": name,
            "track": {"type": "array", "items": name, "description": "reward track, top to bottom"},
            "column": {"type": "object", "description": "aspect -> player whose disc is on this round's reward"},
            "aspects": {"type": "array", "items": {"enum": list(k.aspect_order)}},
            "court": {"type": "array", "items": card, "description": "the court pile, bottom to top"},
            "decks": {"type": "object", "properties": {c: {"type": "array", "items": card} for c in k.colours},
                      "description": "face-down decks; the last item is the top"},
            "supply": {"type": "object", "properties": {"m1": {"type": "object"}, "m3": {"type": "object"}}},
            "board": {"type": "object", "properties": {
                "governors": {"type": "object", "description": "region -> [{player, space: bonus index | null}]"},
                "palaces": {"type": "object", "description": "region -> palace spaces (player | null)"},
                "walls": {"type": "array", "description": "6 sections x spaces with 1, 2, 3 lines"},
                "wall_tokens": {"type": "array", "items": {"enum": sorted(k.wall_criteria)}},
                "tasks": {"type": "object", "description": "section -> task type -> {token, discs}"}}},
            "workers_out": {**int0, "description": "workers taken from the (unlimited) general supply"},
            "pending": {"type": "array", "items": pending},
            "auction": {"type": ["object", "null"], "description": "the board auction in progress (B side with the auction)"},
            "auction_next": {"type": "object", "description": "after an auction is won: who still bids and who opens",
                             "properties": {"remaining": {"type": "array", "items": name}, "opener": {"oneOf": [name, {"type": "null"}]}}},
            "free_boards": {"type": "array", "items": {"enum": list(k.boards)}, "description": "boards nobody has taken yet"},
            "discards": {"oneOf": [{"type": "null"}, {"type": "object", "properties": {c: {"type": "array", "items": card} for c in k.colours}}],
                         "description": "card-selection variant: the cards discarded while drafting, shuffled back at the end of the draft"},
            "reward_aspects_done": {**int0, "description": "phase 3: how many of this round's aspects have been rewarded"},
            "legal": {"type": "object", "description": "scenario step `legal`: a summary of the legal actions",
                      "properties": {"unify": {"type": "object", "description": "card -> regions it may unify"},
                                     "court": {"type": "array", "items": {"enum": list(k.court_actions)}},
                                     "activate": {"type": "array", "items": card},
                                     "task": {"type": "array", "items": {"type": "array"}}}},
            "result": {"oneOf": [{"type": "null"}, {"type": "array"}]},
            "players": {"type": "object", "additionalProperties": player}}}
    p = {"player": name}
    actions = {
        "bid": {"amount": int0, **p},
        "pass": {**p},
        "board": {"board": {"enum": list(k.boards)}, **p},
        "select": {"discard": card, **p},
        "shift": {"region": region, "colour": colour, **p},
        "unify": {"card": card, "region": region, **p},
        "court": {"card": card, "action": {"enum": list(k.court_actions)},
                  "region": region, "space": {"type": ["integer", "null"]}, "colour": colour, "other": region,
                  "marker": {"oneOf": [mcol, {"type": "null"}]}, "section": int0, "lines": int0,
                  "regions": {"type": "array", "items": region}, **p},
        "end_turn": {**p},
        "move": {"from": region, "area": {"enum": ["gov", "work"]}, "colour": colour,
                 "to": region, "to_area": {"enum": ["gov", "work"]}, "stop": {"type": "boolean"}, **p},
        "activate": {"card": card, "board": {"type": "boolean"}, "done": {"type": "boolean"},
                     "colour": mcol, "region": region, "from": region, "to": region, **p},
        "official": {"colour": colour, "region": region, "skip": {"type": "boolean"}, **p},
        "reward": {"accept": {"type": "boolean"}, "colour": colour, "region": region,
                   "space": {"type": ["integer", "null"]}, "section": int0, "lines": int0, **p},
        "task": {"section": {"enum": list(k.task_sections)},
                 "task": {"enum": list(k.task_types)}, "done": {"type": "boolean"}, **p},
    }
    return {"state": closed(state),
            "action": {"oneOf": [action_schema(item, props) for item, props in actions.items()]}}
