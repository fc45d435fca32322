"""Tasks (rulebook: Tasks): which task spaces a player's governors, palaces and walls fulfil, and
placing a task disc."""
from __future__ import annotations

from engine.core.state import own
from engine.zhanguo.common import P


def task_opts(g, state, name):
    k = g.consts
    p = P(state, name)
    if p["discs"] <= 0:
        return []
    out = []
    for sec in k.task_sections:
        for item in k.task_types:
            task = state["board"]["tasks"][sec][item]
            if name in task["discs"] or len(task["discs"]) >= k.task_spaces:
                continue
            if task_met(g, state, name, item, k.task_tokens[item][task["token"]]):
                out.append({"section": sec, "task": item})
    return out


def task_met(g, state, name, item, req):
    k = g.consts
    b = state["board"]
    for sym, need in req.items():
        if item == "governor":
            have = sum(1 for x in b["governors"][str(sym)] if x["player"] == name)
        elif item == "palace":
            have = b["palaces"][str(sym)].count(name)
        else:
            area = k.wall_area_names.index(sym)
            secs = range(area * k.sections_per_area, (area + 1) * k.sections_per_area)
            have = sum(1 for sec in secs if name in b["walls"][sec])
        if have < need:
            return False
    return True


def do_task(g, state, name, action, events):
    p = P(state, name)
    own(state["board"]["tasks"], action["section"])[action["task"]]["discs"].append(name)
    p["discs"] -= 1
    events.append({"event": "task", "player": name, "section": action["section"], "task": action["task"]})
