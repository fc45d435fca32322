"""Phase 3 of a round (rulebook: Phase 3 - unification rewards): the three aspects in order, the
player with the most unification markers of a colour takes or passes the reward; then the new first
player, and after the last round final scoring."""
from __future__ import annotations

from engine.core.state import own
from engine.zhanguo import pieces, scoring, tasks
from engine.zhanguo.common import P, blocked, marker_value, tiebreak_order


def reward_spot(g, s, aspect):
    return g.k.reward_layout[s["round"]][aspect]


def reward_opts(g, s, name, item):
    k = g.k
    p = P(s, name)
    spot = reward_spot(g, s, item["aspect"])
    kind = spot["reward"]
    n = k.rewards[kind]
    if kind == "official":
        return [{"accept": True, "colour": c} for c in k.official_colours if p["supply"][c] >= n["officials"]]
    if "official_colour" in n:
        c = n["official_colour"]
        return [{"accept": True}] if p["supply"][c] >= n["officials"] else []
    if kind == "two-workers":
        return [{"accept": True}]
    if kind == "governor":
        if p["governors"] < n["governors"]:
            return []
        regions = [str(x) for x in spot.get("regions", k.regions)]
        return [{"accept": True, "region": r, "space": sp} for r in regions for sp in pieces.gov_spaces(g, s, r)]
    if kind == "wall":
        if p["walls"] < n["walls"]:
            return []
        return [{"accept": True, "section": sec, "lines": ln} for sec, ln in pieces.wall_spaces(g, s, name)]
    if kind == "palace":
        if p["palaces"] < n["palaces"]:
            return []
        return [{"accept": True, "region": r} for r in k.regions
                if None in s["board"]["palaces"][r] and not blocked(g, p, r)]
    return []


def do_reward(g, s, name, item, a, ev):
    k = g.k
    p = P(s, name)
    s["pending"].pop(0)
    aspect = item["aspect"]
    if not a["accept"]:
        ev.append({"event": "reward_pass", "player": name, "aspect": aspect})
        rest = item["candidates"]
        if rest:
            s["pending"].insert(0, {"kind": "reward", "player": rest[0], "aspect": aspect, "candidates": rest[1:]})
        else:
            next_aspect(g, s, ev)
        return
    colour = k.colour_of_aspect[aspect]
    s["supply"]["m1"][colour] += p["m1"][colour]
    s["supply"]["m3"][colour] += p["m3"][colour]
    p["m1"][colour] = p["m3"][colour] = 0
    for asp in list(s["column"]):
        if s["column"][asp] == name:
            del s["column"][asp]
    s["column"][aspect] = name
    spot = reward_spot(g, s, aspect)
    kind = spot["reward"]
    rw = k.rewards[kind]
    ev.append({"event": "reward", "player": name, "aspect": aspect, "reward": kind})
    todo = []
    if kind == "official":
        p["supply"][a["colour"]] -= rw["officials"]
        own(p["regions"], str(spot["region"]))["gov"][a["colour"]] += rw["officials"]
    elif "official_colour" in rw:
        c = rw["official_colour"]
        p["supply"][c] -= rw["officials"]
        own(p["regions"], str(spot["region"]))["gov"][c] += rw["officials"]
    elif kind == "two-workers":
        pieces.add_workers(g, s, p, str(spot["region"]), rw["workers"])
    elif kind == "governor":
        todo = pieces.place_governor(g, s, name, a["region"], a["space"], ev)
    elif kind == "wall":
        pieces.place_wall(g, s, name, a["section"], a["lines"])
    elif kind == "palace":
        pieces.place_palace(g, s, name, a["region"], ev)
    tail = []
    if tasks.task_opts(g, s, name):
        tail.append({"kind": "tasks", "player": name})
    s["pending"][0:0] = todo + tail + [{"kind": "next_aspect", "player": None}]


def next_aspect(g, s, ev):
    k = g.k
    done = s["reward_aspects_done"]
    if done < len(s["aspects"]):
        aspect = s["aspects"][done]
        s["reward_aspects_done"] = done + 1
        colour = k.colour_of_aspect[aspect]
        order = tiebreak_order(s)
        cands = [n for n in order if P(s, n)["m1"][colour] + P(s, n)["m3"][colour] >= k.min_markers]
        cands.sort(key=lambda n: (-marker_value(g, P(s, n), colour), order.index(n)))
        if cands:
            s["pending"].insert(0, {"kind": "reward", "player": cands[0], "aspect": aspect, "candidates": cands[1:]})
        else:
            next_aspect(g, s, ev)
        return
    # all three aspects done: discs back on the track in tie-break order; new first player
    s["track"] = tiebreak_order(s)
    s["column"] = {}
    s["first"] = s["track"][0]
    ev.append({"event": "first_player", "player": s["first"]})
    if s["round"] >= k.rounds:
        scoring.final(g, s, ev)
    else:
        s["round"] += 1
        s["phase"] = "draw"
