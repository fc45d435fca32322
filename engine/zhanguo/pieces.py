"""Putting pieces on the board, shared by court actions, abilities and rewards: governors (with their
bonus spaces), walls, palaces, and workers entering, leaving and moving between regions."""
from __future__ import annotations

from engine.core.state import own
from engine.zhanguo.common import P, cards_on_board


def gov_spaces(g, state, r):
    taken = {x["space"] for x in state["board"]["governors"][r] if x["space"] is not None}
    free = [i for i in range(len(g.consts.bonus_spaces)) if i not in taken]
    return free or [None]


def wall_spaces(g, state, name):
    out = []
    for sec, spaces in enumerate(state["board"]["walls"]):
        if spaces.count(name) >= g.consts.walls_per_section:
            continue
        out += [(sec, i + 1) for i, who in enumerate(spaces) if who is None]
    return out


def place_governor(g, state, name, r, space, events):
    """Place a governor; a bonus space gives its bonus; the region's unrest cube goes back."""
    k = g.consts
    p = P(state, name)
    p["governors"] -= 1
    own(state["board"]["governors"], r).append({"player": name, "space": space})
    todo = []
    if space is not None:
        bonus = k.bonus_spaces[space]
        events.append({"event": "governor_bonus", "player": name, "bonus": bonus})
        if bonus == "governor-bonus-vp":
            p["vp"] += k.bonus_vp
        elif bonus == "governor-bonus-movement":
            todo.append({"kind": "move", "player": name, "left": k.bonus_move, "spent": 0, "min": 0})
        elif bonus == "governor-bonus-official":
            if any(p["supply"].values()):
                todo.append({"kind": "official", "player": name})
    reg = own(p["regions"], r)
    if reg["unrest"] > k.gov_unrest_after:
        reg["unrest"] = k.gov_unrest_after
        p["cubes"] += 1
    return todo


def place_wall(g, state, name, sec, lines):
    P(state, name)["walls"] -= 1
    own(state["board"]["walls"], sec)[lines - 1] = name


def place_palace(g, state, name, r, events):
    k = g.consts
    p = P(state, name)
    p["palaces"] -= 1
    spaces = own(state["board"]["palaces"], r)
    spaces[spaces.index(None)] = name
    vp = k.palace_vp_per_card * min(cards_on_board(p), k.palace_vp_max)
    p["vp"] += vp
    events.append({"event": "palace", "player": name, "region": r, "vp": vp})


def move_worker(g, p, action):
    own(p["regions"], action["from"])["workers"] -= 1
    own(p["regions"], action["to"])["workers"] += 1


def add_workers(g, state, p, r, n):
    own(p["regions"], r)["workers"] += n
    state["workers_out"] += n


def remove_workers(g, state, p, r, n):
    own(p["regions"], r)["workers"] -= n
    state["workers_out"] -= n
