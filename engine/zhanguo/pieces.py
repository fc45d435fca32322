"""Putting pieces on the board, shared by court actions, abilities and rewards: governors (with their
bonus spaces), walls, palaces, and workers entering, leaving and moving between regions."""
from __future__ import annotations

from engine.core.state import own
from engine.zhanguo.common import P, movement_decision

REWARD = "zhanguo/reward/"


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


def place_governor(g, state, name, r, space):
    """A governor from the player's supply onto a bonus space of the region (None: beside them)."""
    P(state, name)["governors"] -= 1
    own(state["board"]["governors"], r).append({"player": name, "space": space})


def governor_bonus(g, state, name, reward, events):
    """The bonus of the space a governor was placed on: its reward's effect; what the player then
    decides (movement points, an official's colour and region) waits, returned as pending items."""
    events.append({"event": "governor_bonus", "player": name, "bonus": reward.rsplit("/", 1)[1]})
    run = g.effects.run(reward, state, name, events)
    todo = run.gained.get("todo", [])
    if run.gained.get("movement"):
        todo.insert(0, movement_decision(name, run.gained["movement"]))
    return todo


def place_wall(g, state, name, sec, lines):
    P(state, name)["walls"] -= 1
    own(state["board"]["walls"], sec)[lines - 1] = name


def place_palace(g, state, name, r, events):
    """The palace on the region's first empty space (its points are the placing effect's)."""
    p = P(state, name)
    p["palaces"] -= 1
    spaces = own(state["board"]["palaces"], r)
    spaces[spaces.index(None)] = name
    events.append({"event": "palace", "player": name, "region": r})


def move_worker(g, p, action):
    own(p["regions"], action["from"])["workers"] -= 1
    own(p["regions"], action["to"])["workers"] += 1


def add_workers(g, state, p, r, n):
    own(p["regions"], r)["workers"] += n
    state["workers_out"] += n


def remove_workers(g, state, p, r, n):
    own(p["regions"], r)["workers"] -= n
    state["workers_out"] -= n
