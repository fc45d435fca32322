"""Phase 2, playing a card (rulebook: Phase 2 - unification or one of the 6 court actions): the legal
court actions of a player and carrying out a unification or a court action; the activations and
decisions an action raises wait in `pending`."""
from __future__ import annotations

from itertools import combinations

from engine.zhanguo import activation, movement, pieces
from engine.zhanguo.common import P, blocked, can_raise, movement_decision

CA = "zhanguo/court-action/"
UNIFICATION = "zhanguo/rule/unification"
ABILITY = "zhanguo/card-ability/"


def unify(g, state, name, card, r, events):
    """zhanguo/rule/unification: its effect (the card's region, the card and its colour)."""
    g.effects.run(UNIFICATION, state, name, events, choice={"card": card, "region": r,
                                                             "colour": g.consts.cards[card]["colour"]})


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
    if b_extra(g, p):
        n += k.b_extra_workers
    return n


def b_extra(g, p):
    """The B side whose ability hires extra workers with Hire Workers."""
    return bool(p["board"]) and g.consts.b_ability.get(p["board"]) == "b-extra-worker" and p["side"] != "A"


def court(g, state, name, a, events):
    k = g.consts
    p = P(state, name)
    p["hand"].remove(a["card"])
    state["court"].append(a["card"])
    action = a["action"]
    events.append({"event": "court", "player": name, "card": a["card"], "action": action})
    # what the action does is its effect (the player's declared regions, colour, space with it)
    run = g.effects.run(CA + action, state, name, events, choice=a)
    todo = run.gained.get("todo", [])
    if run.gained.get("movement"):  # Move Officials: the points its effect gives, the first one spent at least
        todo.append({**movement_decision(name, run.gained["movement"]), "min": k.move_min})
    if action == "hire-workers" and b_extra(g, p):  # the B side's extra worker comes with the action
        g.effects.run(ABILITY + k.b_ability[p["board"]], state, name, events, choice={**a, "later": True},
                      moment="play_phase")
    act = {"kind": "activate", "player": name, "action": action, "allowed": activation.activation_allowed(g, state, action),
           "used": [], "b_used": False}
    state["pending"][0:0] = todo
    if activation.activate_opts(g, state, name, act):
        state["pending"].insert(len(todo), act)
