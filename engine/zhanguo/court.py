"""Phase 2, playing a card (rulebook: Phase 2 - unification or one of the 6 court actions): the legal
court actions of a player and carrying out a unification or a court action; the activations and
decisions an action raises wait in `pending`."""
from __future__ import annotations

from itertools import combinations

from engine.core.state import own
from engine.zhanguo import activation, movement, pieces
from engine.zhanguo.common import P, blocked, can_raise, gain_marker, raise_unrest


def unify(g, s, name, card, r, ev):
    """zhanguo/rule/unification: the card goes under the region; markers; unrest for the 2nd/3rd card."""
    k = g.k
    p = P(s, name)
    p["hand"].remove(card)
    reg = own(p["regions"], r)
    reg["cards"].append(card)
    pos = len(reg["cards"])
    colour = k.cards[card]["colour"]
    ev.append({"event": "unify", "player": name, "card": card, "region": r})
    gain_marker(g, s, name, colour, k.markers_for_pos[pos], ev)
    raise_unrest(g, p, r, k.unrest_for_pos[pos], ev)


def court_opts(g, s, name):
    k = g.k
    p = P(s, name)
    out = []
    # appoint 1 governor
    if p["governors"] > 0:
        for r in k.regions:
            if all(p["regions"][r]["gov"][c] >= m for c, m in k.gov_cost.items()):
                out += [{"action": "appoint-governor", "region": r, "space": sp} for sp in pieces.gov_spaces(g, s, r)]
    # recruit 1 official
    for c in k.official_colours:
        if p["supply"][c] >= k.recruit_n:
            out += [{"action": "recruit-official", "colour": c, "region": r} for r in k.regions]
    # hire workers
    for r in k.regions:
        if sum(p["regions"][r]["work"].values()) > 0 and can_raise(g, p, r, hire_unrest(g, s, p, r)):
            out.append({"action": "hire-workers", "region": r})
    # move officials
    if movement.move_opts(g, s, name, {"left": k.move_max, "spent": 0, "min": k.move_min}, any_only=True):
        out.append({"action": "move-officials"})
    # build 1 palace
    if p["palaces"] > 0:
        markers = [c for c in k.colours if s["supply"]["m3"][c] > 0] or [None]
        for r in k.regions:
            reg = p["regions"][r]
            if reg["workers"] < k.palace_from_region or None not in s["board"]["palaces"][r] or blocked(g, p, r):
                continue
            for o in k.regions:
                if o != r and p["regions"][o]["workers"] >= k.palace_from_other:
                    out += [{"action": "build-palace", "region": r, "other": o, "marker": m} for m in markers]
    # build 1 wall
    if p["walls"] > 0:
        with_workers = [r for r in k.regions if p["regions"][r]["workers"] > 0]
        for sec, lines in pieces.wall_spaces(g, s, name):
            for combo in combinations(with_workers, k.wall_workers[lines]):
                out.append({"action": "build-wall", "section": sec, "lines": lines, "regions": list(combo)})
    return out


def hire_unrest(g, s, p, r):
    n_hired = hired(g, s, p, r)
    if s["options"]["unrest_per_worker"]:
        return n_hired * g.k.unrest_per_worker
    return g.k.hire_unrest


def hired(g, s, p, r):
    k = g.k
    n = min(k.hire_max, sum(p["regions"][r]["work"].values()) * k.hire_per_official)
    if p["board"] and g.k.b_ability.get(p["board"]) == "b-extra-worker" and p["side"] != "A":
        n += k.b_extra_workers
    return n


def court(g, s, name, a, ev):
    k = g.k
    p = P(s, name)
    p["hand"].remove(a["card"])
    s["court"].append(a["card"])
    action = a["action"]
    ev.append({"event": "court", "player": name, "card": a["card"], "action": action})
    todo = []
    if action == "appoint-governor":
        reg = own(p["regions"], a["region"])
        for c, m in k.gov_cost.items():
            reg["gov"][c] -= m
            p["supply"][c] += m
        todo = pieces.place_governor(g, s, name, a["region"], a["space"], ev)
    elif action == "recruit-official":
        p["supply"][a["colour"]] -= k.recruit_n
        own(p["regions"], a["region"])["gov"][a["colour"]] += k.recruit_n
    elif action == "hire-workers":
        r = a["region"]
        up = hire_unrest(g, s, p, r)
        pieces.add_workers(g, s, p, r, hired(g, s, p, r))
        raise_unrest(g, p, r, up, ev)
    elif action == "move-officials":
        todo = [{"kind": "move", "player": name, "left": k.move_max, "spent": 0, "min": k.move_min}]
    elif action == "build-palace":
        pieces.remove_workers(g, s, p, a["region"], k.palace_from_region)
        pieces.remove_workers(g, s, p, a["other"], k.palace_from_other)
        if a["marker"] is not None:
            s["supply"]["m3"][a["marker"]] -= k.palace_m3
            p["m3"][a["marker"]] += k.palace_m3
        pieces.place_palace(g, s, name, a["region"], ev)
    elif action == "build-wall":
        for r in a["regions"]:
            pieces.remove_workers(g, s, p, r, 1)
        pieces.place_wall(g, s, name, a["section"], a["lines"])
    act = {"kind": "activate", "player": name, "action": action, "allowed": activation.activation_allowed(g, s, action),
           "used": [], "b_used": False}
    s["pending"][0:0] = todo
    if activation.activate_opts(g, s, name, act):
        s["pending"].insert(len(todo), act)
