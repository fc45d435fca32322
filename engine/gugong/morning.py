"""Morning phase (rulebook page 3), skipped on day 1: 1. first player, 2. refill the map, 3. roll
the destiny dice, 4. level 1 (morning) decree bonuses, 5. day marker and new servants."""
from __future__ import annotations

from engine.core.errors import IllegalAction, MalformedAction
from engine.core.state import own
from engine.core.rng import Rng
from engine.gugong import common as c
from engine.gugong import locations as L
from engine.gugong.common import P

D = "gugong/decree/"


def first_player(g, s, ev):
    if s["medal"] is not None:  # the medal holder becomes first player; the medal goes back
        s["first"] = s["order"].index(s["medal"])
        s["medal"] = None
    ev.append({"event": "first_player", "player": s["order"][s["first"]]})


def refill_map(g, s, ev):
    """Empty cities (no token, no traveller) get a token from the draw piles; when both piles are
    empty the discarded tokens are shuffled into two new piles."""
    rng = Rng(s)
    travellers = {P(s, n)["traveller"] for n in s["order"]}
    for city, tok in enumerate(s["map"]):
        if tok or city in travellers:
            continue
        if not any(s["token_piles"]):
            pile = s["token_discard"]
            s["token_discard"] = []
            rng.shuffle(pile)
            half = (len(pile) + 1) // 2
            s["token_piles"] = [pile[:half], pile[half:]]
        src = next((p for p in s["token_piles"] if p), None)
        if src is None:
            break
        s["map"][city] = src.pop()


def roll_dice(g, s, ev):
    rng = Rng(s)
    s["dice"] = [rng.die(g.k.die_faces) for _ in s["dice"]]
    ev.append({"event": "dice", "dice": list(s["dice"])})


def decree_bonuses(g, s, ev):
    """Players with a servant on a morning decree get its bonus, from the first player clockwise."""
    level = g.rules.attr("gugong/step/morning-decree-bonuses", "decree_level")
    items = []
    meng = s["solo"]["meng"] if s.get("solo") else None
    for name in c.order_from(s, s["first"]):
        for key in P(s, name)["decrees"]:
            if g.k.decrees[key]["level"] == level:
                if name == meng:
                    from engine.gugong import solo
                    solo.morning_bonus(g, s, key, ev)
                else:
                    items.append({"kind": "decree_bonus", "player": name, "decree": key})
    c.push_many(s, items)


def new_servants(g, s, ev):
    s["day"] += g.rules.attr("gugong/step/morning-new-servants", "day_marker_advance")
    for name in s["order"]:
        c.gain_servants(s, name, g.k.day_servants[s["day"]], ev)
    ev.append({"event": "day", "day": s["day"]})


def run(g, s, ev):
    if s["step"] == "first_player":
        first_player(g, s, ev)
        refill_map(g, s, ev)
        roll_dice(g, s, ev)
        decree_bonuses(g, s, ev)
        s["step"] = "new_servants"
        return
    if s["step"] == "new_servants":
        new_servants(g, s, ev)
        s["phase"], s["step"] = "day", None
        s["turn"], s["stage"], s["acts"] = s["first"], "exchange", {}


# ---- the morning decree bonus decision
def bonus_opts(g, s, name, key):
    p = P(s, name)
    out = [{"use": False}]
    if key == "l1-ship":
        out += [{"use": True, "ship": i, "path": path, "piece": pc} for pc in ("n", "d") if L._has(p, pc, "supply")
                for i, path in c.ship_targets(g, s, name, L._size(g, pc))]
    elif key == "l1-card-exchange":
        out += [{"use": True, "card": x, "location": loc} for x in p["hand"] for loc in g.k.locations]
    elif key == "l1-servant":
        if p["supply"] or p["double"] == "supply":
            out.append({"use": True})
    else:
        out.append({"use": True})
    return out


def plain_bonus(g, s, name, key, ev) -> None:
    """The level 1 bonuses with no choice in them (intrigue, servant, palace); Meng takes them the
    same way (solo.morning_bonus). The ship and card-exchange bonuses each side carries out its own way."""
    at = g.k.decrees[key]
    if key == "l1-intrigue":
        c.move_intrigue(g, s, name, at["intrigue_steps"], ev)
    elif key == "l1-servant":
        c.gain_servants(s, name, at["servants_gained"], ev)
    elif key == "l1-palace":
        if P(s, name)["palace"] >= g.k.palace_end:
            c.gain_vp(s, name, at["vp_if_in_palace"], ev)
        else:
            c.move_palace(g, s, name, at["palace_steps"], ev)


def decide_bonus(g, s, name, a, ev):
    item = s["pending"][0]
    key = item["decree"]
    at = g.k.decrees[key]
    p = P(s, name)
    claim = None
    if a.get("use"):
        if key == "l1-ship":
            for _ in range(at["servants_placed"]):
                c.ship_place(g, s, name, a.get("ship"), a.get("path"), a.get("piece", "n"), "supply", ev)
            if c.claimable(g, s, name, a.get("ship")):
                claim = a.get("ship")
        elif key == "l1-card-exchange":
            card, loc = a.get("card"), a.get("location")
            if loc not in s["board"]:
                raise MalformedAction("card exchange: card and location")
            if card not in p["hand"]:
                raise IllegalAction(D + key, f"{card!r} is not in your hand")
            own(p, "hand").remove(card)
            own(p, "hand").append(s["board"][loc])
            s["board"][loc] = card
        else:
            plain_bonus(g, s, name, key, ev)
        ev.append({"event": "decree_bonus", "player": name, "decree": key})
    s["pending"].pop(0)
    if claim is not None:
        c.push(s, {"kind": "claim", "player": name, "ship": claim})
