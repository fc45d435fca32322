"""Phase 3 of a round (rulebook: Phase 3 - unification rewards): the three aspects in order, the
player with the most unification markers of a colour takes or passes the reward; then the new first
player, and after the last round final scoring."""
from __future__ import annotations

from engine.zhanguo import pieces, scoring, tasks
from engine.zhanguo.common import P, blocked, marker_value, tiebreak_order


REWARD = "zhanguo/reward/"


def reward_spot(g, state, aspect):
    return g.consts.reward_layout[state["round"]][aspect]


def reward_opts(g, state, name, item):
    k = g.consts
    p = P(state, name)
    spot = reward_spot(g, state, item["aspect"])
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
        return [{"accept": True, "region": r, "space": sp} for r in regions for sp in pieces.gov_spaces(g, state, r)]
    if kind == "wall":
        if p["walls"] < n["walls"]:
            return []
        return [{"accept": True, "section": sec, "lines": ln} for sec, ln in pieces.wall_spaces(g, state, name)]
    if kind == "palace":
        if p["palaces"] < n["palaces"]:
            return []
        return [{"accept": True, "region": r} for r in k.regions
                if None in state["board"]["palaces"][r] and not blocked(g, p, r)]
    return []


def do_reward(g, state, name, item, action, events):
    k = g.consts
    p = P(state, name)
    state["pending"].pop(0)
    aspect = item["aspect"]
    if not action["accept"]:
        events.append({"event": "reward_pass", "player": name, "aspect": aspect})
        rest = item["candidates"]
        if rest:
            state["pending"].insert(0, {"kind": "reward", "player": rest[0], "aspect": aspect, "candidates": rest[1:]})
        else:
            next_aspect(g, state, events)
        return
    colour = k.colour_of_aspect[aspect]
    state["supply"]["m1"][colour] += p["m1"][colour]
    state["supply"]["m3"][colour] += p["m3"][colour]
    p["m1"][colour] = p["m3"][colour] = 0
    for asp in list(state["column"]):
        if state["column"][asp] == name:
            del state["column"][asp]
    state["column"][aspect] = name
    spot = reward_spot(g, state, aspect)
    kind = spot["reward"]
    events.append({"event": "reward", "player": name, "aspect": aspect, "reward": kind})
    # what the reward gives is its effect (the space's region and the player's choices with it)
    todo = g.effects.run(REWARD + kind, state, name, events, choice={**action, "spot": spot}).gained.get("todo", [])
    tail = []
    if tasks.task_opts(g, state, name):
        tail.append({"kind": "tasks", "player": name})
    state["pending"][0:0] = todo + tail + [{"kind": "next_aspect", "player": None}]


def next_aspect(g, state, events):
    k = g.consts
    done = state["reward_aspects_done"]
    if done < len(state["aspects"]):
        aspect = state["aspects"][done]
        state["reward_aspects_done"] = done + 1
        colour = k.colour_of_aspect[aspect]
        order = tiebreak_order(state)
        cands = [n for n in order if P(state, n)["m1"][colour] + P(state, n)["m3"][colour] >= k.min_markers]
        cands.sort(key=lambda n: (-marker_value(g, P(state, n), colour), order.index(n)))
        if cands:
            state["pending"].insert(0, {"kind": "reward", "player": cands[0], "aspect": aspect, "candidates": cands[1:]})
        else:
            next_aspect(g, state, events)
        return
    # all three aspects done: discs back on the track in tie-break order; new first player
    state["track"] = tiebreak_order(state)
    state["column"] = {}
    state["first"] = state["track"][0]
    events.append({"event": "first_player", "player": state["first"]})
    if state["round"] >= k.rounds:
        scoring.final(g, state, events)
    else:
        state["round"] += 1
        state["phase"] = "draw"
