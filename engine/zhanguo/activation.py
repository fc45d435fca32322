"""Card activation after a court action (rulebook: Card activation): the cards under a player's
regions whose ability matches the action, and the B-side board abilities."""
from __future__ import annotations

from engine.core.state import own
from engine.zhanguo.common import P, blocked, movement_decision

ABILITY = "zhanguo/card-ability/"
B_EXTRA_WORKER = "b-extra-worker"
HIRE = "hire-workers"
PLAY = "play_phase"  # the moment of a B side's triggers


def activation_allowed(g, state, action):
    """zhanguo/rule/card-activation: compare the card just played with the card directly beneath it."""
    k = g.consts
    if action in k.never:
        return False
    if len(state["court"]) < 2:
        return True  # the first card on the court: its player declares the starting value X
    top, below = state["court"][-1], state["court"][-2]
    if action in k.higher:
        return top > below
    if action in k.lower:
        return top < below
    return False


def board_ability(g, p):
    if p["side"] == "A" or not p["board"]:
        return None
    return g.consts.b_ability[p["board"]]


def activate_opts(g, state, name, item):
    k = g.consts
    p = P(state, name)
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
                out += [{"card": card, **o} for o in ability_opts(g, state, p, spec, r)]
    ab = board_ability(g, p)
    if ab and not item["b_used"]:
        out += [{"board": True, **o} for o in b_opts(g, state, p, ab, action, item)]
    return out


def ability_opts(g, state, p, spec, r):
    k = g.consts
    ab = spec["ability"]
    if ab == "unification-marker":
        cs = [c for c in k.colours if state["supply"]["m1"][c] > 0]
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
    k = g.consts
    return [{"from": r, "to": item} for r in k.regions if p["regions"][r]["workers"] > 0 for item in sorted(k.adj[r])]


def b_opts(g, state, p, ab, action, item):
    k = g.consts
    if ab == "b-extra-worker":
        if action == "hire-workers":
            return [{}]
        if action == "appoint-governor":
            return worker_moves(g, p)
    elif ab == "b-unification-marker":
        if action in ("build-wall", "recruit-official"):
            cs = [c for c in k.colours if state["supply"]["m1"][c] > 0]
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
                if any(x["player"] == name for x in state["board"]["governors"][r]):
                    out += [{"from": r, "to": entry} for entry in sorted(k.adj[r])]
            return out
    return []


def do_activate(g, state, name, item, a, events):
    k = g.consts
    p = P(state, name)
    if a.get("done"):
        state["pending"].pop(0)
        return
    if a.get("board"):
        item["b_used"] = True
        ab = board_ability(g, p)
        action = item["action"]
        events.append({"event": "board_ability", "player": name, "ability": ab})
        if ab == B_EXTRA_WORKER and action == HIRE:
            # the extra worker came with the action (engine/zhanguo/court.py); its movement point now
            state["pending"].insert(0, movement_decision(name, k.b_extra_move))
        else:  # what the ability does after this court action is its effect
            run = g.effects.run(ABILITY + ab, state, name, events, choice={**a, "action": action}, moment=PLAY)
            if run.gained.get("movement"):
                state["pending"].insert(0, movement_decision(name, run.gained["movement"]))
        close_activation(g, state, name, item)
        return
    card = a["card"]
    own(item, "used").append(card)
    spec = k.cards[card]
    r = next(x for x in k.regions if card in p["regions"][x]["cards"])
    ab = spec["ability"]
    events.append({"event": "activate", "player": name, "card": card, "ability": ab})
    # what the ability does is its effect: the card's region, and the player's choices with it
    run = g.effects.run(ABILITY + ab, state, name, events, choice={"region": r, **a, "card_region": r})
    if run.gained.get("movement"):
        state["pending"].insert(0, movement_decision(name, run.gained["movement"]))
    close_activation(g, state, name, item)


def close_activation(g, state, name, item):
    if item in state["pending"] and not activate_opts(g, state, name, item):
        state["pending"].remove(item)

