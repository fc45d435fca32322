"""Phase 2, playing a card (rulebook: Phase 2 - unification or one of the 6 court actions): the legal
court actions of a player and carrying out a unification or a court action; the activations and
decisions an action raises wait in `pending`."""
from __future__ import annotations

from itertools import combinations

from engine.core.state import own
from engine.zhanguo import activation, movement, pieces
from engine.zhanguo.common import P, blocked, can_raise, gain_marker, raise_unrest


def unify(g, state, name, card, r, events):
    """zhanguo/rule/unification: the card goes under the region; markers; unrest for the 2nd/3rd card."""
    k = g.consts
    p = P(state, name)
    p["hand"].remove(card)
    reg = own(p["regions"], r)
    reg["cards"].append(card)
    pos = len(reg["cards"])
    colour = k.cards[card]["colour"]
    events.append({"event": "unify", "player": name, "card": card, "region": r})
    gain_marker(g, state, name, colour, k.markers_for_pos[pos], events)
    raise_unrest(g, p, r, k.unrest_for_pos[pos], events)


def court_opts(g, state, name):
    k = g.consts
    p = P(state, name)
    out = []
    # appoint 1 governor
    if p["governors"] > 0:
        for r in k.regions:
            if all(p["regions"][r]["gov"][c] >= m for c, m in k.gov_cost.items()):
                out += [{"action": "appoint-governor", "region": r, "space": sp} for sp in pieces.gov_spaces(g, state, r)]
    # recruit 1 official
    for c in k.official_colours:
        if p["supply"][c] >= k.recruit_n:
            out += [{"action": "recruit-official", "colour": c, "region": r} for r in k.regions]
    # hire workers
    for r in k.regions:
        if sum(p["regions"][r]["work"].values()) > 0 and can_raise(g, p, r, hire_unrest(g, state, p, r)):
            out.append({"action": "hire-workers", "region": r})
    # move officials
    if movement.move_opts(g, state, name, {"left": k.move_max, "spent": 0, "min": k.move_min}, any_only=True):
        out.append({"action": "move-officials"})
    # build 1 palace
    if p["palaces"] > 0:
        markers = [c for c in k.colours if state["supply"]["m3"][c] > 0] or [None]
        for r in k.regions:
            reg = p["regions"][r]
            if reg["workers"] < k.palace_from_region or None not in state["board"]["palaces"][r] or blocked(g, p, r):
                continue
            for o in k.regions:
                if o != r and p["regions"][o]["workers"] >= k.palace_from_other:
                    out += [{"action": "build-palace", "region": r, "other": o, "marker": m} for m in markers]
    # build 1 wall
    if p["walls"] > 0:
        with_workers = [r for r in k.regions if p["regions"][r]["workers"] > 0]
        for sec, lines in pieces.wall_spaces(g, state, name):
            for combo in combinations(with_workers, k.wall_workers[lines]):
                out.append({"action": "build-wall", "section": sec, "lines": lines, "regions": list(combo)})
    return out


def hire_unrest(g, state, p, r):
    n_hired = hired(g, state, p, r)
    if state["options"]["unrest_per_worker"]:
        return n_hired * g.consts.unrest_per_worker
    return g.consts.hire_unrest


def hired(g, state, p, r):
    k = g.consts
    n = min(k.hire_max, sum(p["regions"][r]["work"].values()) * k.hire_per_official)
    if p["board"] and g.consts.b_ability.get(p["board"]) == "b-extra-worker" and p["side"] != "A":
        n += k.b_extra_workers
    return n


def court(g, state, name, a, events):
    k = g.consts
    p = P(state, name)
    p["hand"].remove(a["card"])
    state["court"].append(a["card"])
    action = a["action"]
    events.append({"event": "court", "player": name, "card": a["card"], "action": action})
    todo = []
    if action == "appoint-governor":
        reg = own(p["regions"], a["region"])
        for c, m in k.gov_cost.items():
            reg["gov"][c] -= m
            p["supply"][c] += m
        todo = pieces.place_governor(g, state, name, a["region"], a["space"], events)
    elif action == "recruit-official":
        p["supply"][a["colour"]] -= k.recruit_n
        own(p["regions"], a["region"])["gov"][a["colour"]] += k.recruit_n
    elif action == "hire-workers":
        r = a["region"]
        up = hire_unrest(g, state, p, r)
        pieces.add_workers(g, state, p, r, hired(g, state, p, r))
        raise_unrest(g, p, r, up, events)
    elif action == "move-officials":
        todo = [{"kind": "move", "player": name, "left": k.move_max, "spent": 0, "min": k.move_min}]
    elif action == "build-palace":
        pieces.remove_workers(g, state, p, a["region"], k.palace_from_region)
        pieces.remove_workers(g, state, p, a["other"], k.palace_from_other)
        if a["marker"] is not None:
            state["supply"]["m3"][a["marker"]] -= k.palace_m3
            p["m3"][a["marker"]] += k.palace_m3
        pieces.place_palace(g, state, name, a["region"], events)
    elif action == "build-wall":
        for r in a["regions"]:
            pieces.remove_workers(g, state, p, r, 1)
        pieces.place_wall(g, state, name, a["section"], a["lines"])
    act = {"kind": "activate", "player": name, "action": action, "allowed": activation.activation_allowed(g, state, action),
           "used": [], "b_used": False}
    state["pending"][0:0] = todo
    if activation.activate_opts(g, state, name, act):
        state["pending"].insert(len(todo), act)
