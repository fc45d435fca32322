"""Card activation after a court action (rulebook: Card activation): the cards under a player's
regions whose ability matches the action, and the B-side board abilities."""
from __future__ import annotations

from engine.core.state import own
from engine.zhanguo import pieces
from engine.zhanguo.common import P, blocked, gain_marker, lower_unrest


def activation_allowed(g, s, action):
    """zhanguo/rule/card-activation: compare the card just played with the card directly beneath it."""
    k = g.k
    if action in k.never:
        return False
    if len(s["court"]) < 2:
        return True  # the first card on the court: its player declares the starting value X
    top, below = s["court"][-1], s["court"][-2]
    if action in k.higher:
        return top > below
    if action in k.lower:
        return top < below
    return False


def board_ability(g, p):
    if p["side"] == "A" or not p["board"]:
        return None
    return g.k.b_ability[p["board"]]


def activate_opts(g, s, name, item):
    k = g.k
    p = P(s, name)
    action = item["action"]
    out = []
    if item["allowed"]:
        for r in k.regions:
            if blocked(g, p, r):
                continue
            for card in p["regions"][r]["cards"]:
                if card in item["used"]:
                    continue
                spec = k.cards[card]
                if spec["action"] != action:
                    continue
                out += [{"card": card, **o} for o in ability_opts(g, s, p, spec, r)]
    ab = board_ability(g, p)
    if ab and not item["b_used"]:
        out += [{"board": True, **o} for o in b_opts(g, s, p, ab, action, item)]
    return out


def ability_opts(g, s, p, spec, r):
    k = g.k
    ab = spec["ability"]
    if ab == "unification-marker":
        cs = [c for c in k.colours if s["supply"]["m1"][c] > 0]
        return [{"colour": c} for c in cs] if cs else [{}]
    if ab in ("movement", "vp", "worker", "vp-per-card-colour"):
        return [{}]
    if ab == "reduce-unrest-any-region":
        return [{"region": x} for x in k.regions if p["regions"][x]["unrest"] > 0]
    if ab == "reduce-unrest-card-region":
        return [{}] if p["regions"][r]["unrest"] > 0 else []
    if ab == "move-worker":
        return worker_moves(g, p)
    if ab == "official":
        return [{}] if p["supply"][spec["official_colour"]] >= k.ab_officials else []
    return []


def worker_moves(g, p):
    k = g.k
    return [{"from": r, "to": t} for r in k.regions if p["regions"][r]["workers"] > 0 for t in sorted(k.adj[r])]


def b_opts(g, s, p, ab, action, item):
    k = g.k
    if ab == "b-extra-worker":
        if action == "hire-workers":
            return [{}]
        if action == "appoint-governor":
            return worker_moves(g, p)
    elif ab == "b-unification-marker":
        if action in ("build-wall", "recruit-official"):
            cs = [c for c in k.colours if s["supply"]["m1"][c] > 0]
            return [{"colour": c} for c in cs] if cs else [{}]
    elif ab == "b-unrest-worker":
        if action in ("move-officials", "build-wall"):
            return [{"region": x} for x in k.regions if p["regions"][x]["unrest"] > 0]
    elif ab == "b-governor-move":
        if action == "recruit-official":
            return [{}]
        if action == "appoint-governor":
            name = item["player"]
            out = []
            for r in k.regions:
                if any(g["player"] == name for g in s["board"]["governors"][r]):
                    out += [{"from": r, "to": t} for t in sorted(k.adj[r])]
            return out
    return []


def do_activate(g, s, name, item, a, ev):
    k = g.k
    p = P(s, name)
    if a.get("done"):
        s["pending"].pop(0)
        return
    if a.get("board"):
        item["b_used"] = True
        ab = board_ability(g, p)
        action = item["action"]
        ev.append({"event": "board_ability", "player": name, "ability": ab})
        if ab == "b-extra-worker":
            if action == "hire-workers":
                s["pending"].insert(0, {"kind": "move", "player": name, "left": k.b_extra_move, "spent": 0, "min": 0})
            else:
                pieces.move_worker(g, p, a)
        elif ab == "b-unification-marker":
            take_marker(g, s, name, a, ev)
        elif ab == "b-unrest-worker":
            lower_unrest(p, a["region"], k.abilities["b-unrest-worker"]["unrest_decrease"], ev)
            pieces.add_workers(g, s, p, a["region"], k.abilities["b-unrest-worker"]["workers"])
        elif ab == "b-governor-move":
            if action == "recruit-official":
                s["pending"].insert(0, {"kind": "move", "player": name, "left": k.b_gov_move, "spent": 0, "min": 0})
            else:
                govs = own(s["board"]["governors"], a["from"])
                g = next(x for x in govs if x["player"] == name)
                govs.remove(g)
                own(s["board"]["governors"], a["to"]).append({"player": name, "space": None})
        close_activation(g, s, name, item)
        return
    card = a["card"]
    own(item, "used").append(card)
    spec = k.cards[card]
    r = next(x for x in k.regions if card in p["regions"][x]["cards"])
    ab = spec["ability"]
    ev.append({"event": "activate", "player": name, "card": card, "ability": ab})
    if ab == "unification-marker":
        take_marker(g, s, name, a, ev)
    elif ab == "movement":
        s["pending"].insert(0, {"kind": "move", "player": name, "left": k.ab_move, "spent": 0, "min": 0})
    elif ab == "vp":
        p["vp"] += spec["vp"]
    elif ab == "worker":
        pieces.add_workers(g, s, p, r, k.ab_workers)
    elif ab == "vp-per-card-colour":
        p["vp"] += k.ab_colour_vp * sum(1 for x in k.regions for c in p["regions"][x]["cards"]
                                        if k.cards[c]["colour"] in spec["colours"])
    elif ab == "reduce-unrest-any-region":
        lower_unrest(p, a["region"], k.ab_unrest, ev)
    elif ab == "reduce-unrest-card-region":
        lower_unrest(p, r, k.abilities["reduce-unrest-card-region"]["unrest_decrease"], ev)
    elif ab == "move-worker":
        pieces.move_worker(g, p, a)
    elif ab == "official":
        c = spec["official_colour"]
        p["supply"][c] -= k.ab_officials
        own(p["regions"], r)["gov"][c] += k.ab_officials
    close_activation(g, s, name, item)


def close_activation(g, s, name, item):
    if item in s["pending"] and not activate_opts(g, s, name, item):
        s["pending"].remove(item)


def take_marker(g, s, name, a, ev):
    if "colour" in a:
        gain_marker(g, s, name, a["colour"], 1, ev)
    else:
        P(s, name)["vp"] += g.k.ab_marker_vp
