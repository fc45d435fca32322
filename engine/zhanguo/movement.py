"""Movement points (rulebook: Move officials, and the abilities and bonuses that give movement): moving
officials between regions and from the work area back to governing."""
from __future__ import annotations

from engine.core.state import own
from engine.zhanguo.common import P


def move_opts(g, state, name, item, any_only=False):
    k = g.consts
    p = P(state, name)
    left = item["left"]
    out = []
    if item["spent"] >= item["min"] and not any_only:
        out.append({"stop": True})
    for r in k.regions:
        reg = p["regions"][r]
        for c in k.official_colours:
            if reg["gov"][c] > 0:
                for entry in k.regions:
                    if entry != r and k.dist[r].get(entry, 99) <= left:
                        out.append({"from": r, "area": "gov", "colour": c, "to": entry, "to_area": "gov"})
                        if any_only:
                            return out
            if reg["work"][c] > 0:
                if left >= 1:
                    out.append({"from": r, "area": "work", "colour": c, "to": r, "to_area": "gov"})
                    if any_only:
                        return out
                for entry in k.regions:
                    if entry != r and k.dist[r].get(entry, 99) <= left and\
                            sum(p["regions"][entry]["work"].values()) < k.work_capacity:
                        out.append({"from": r, "area": "work", "colour": c, "to": entry, "to_area": "work"})
                        if any_only:
                            return out
    return out


def do_move(g, state, name, item, action, events):
    k = g.consts
    p = P(state, name)
    if action.get("stop"):
        state["pending"].pop(0)
        return
    fr, to = action["from"], action["to"]
    cost = 1 if fr == to else k.dist[fr][to]
    own(p["regions"], fr)[action["area"]][action["colour"]] -= 1
    own(p["regions"], to)[action["to_area"]][action["colour"]] += 1
    item["left"] -= cost
    item["spent"] += cost
    events.append({"event": "move", "player": name, **{x: action[x] for x in ("from", "area", "colour", "to", "to_area")}, "cost": cost})
    if item["left"] <= 0 or not move_opts(g, state, name, item, any_only=True):
        state["pending"].pop(0)
