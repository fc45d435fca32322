"""Morning phase (rulebook page 3), skipped on day 1: 1. first player, 2. refill the map, 3. roll
the destiny dice, 4. level 1 (morning) decree bonuses, 5. day marker and new servants."""
from __future__ import annotations

from engine.core.rng import Rng
from engine.gugong import common as c
from engine.gugong import locations as L
from engine.gugong.common import P

D = "gugong/decree/"
NEW_SERVANTS = "gugong/step/morning-new-servants"
MORNING = "morning"  # the moment a level 1 decree's bonus is triggered at


def first_player(g, s, ev):
    if s["medal"] is not None:  # the medal holder becomes first player; the medal goes back
        s["first"] = s["order"].index(s["medal"])
        s["medal"] = None
    ev.append({"event": "first_player", "player": s["order"][s["first"]]})


def refill_map(g, s, ev):
    """Empty cities (no token, no traveller) get a token from the draw piles; when both piles are
    empty the discarded tokens are shuffled into new piles (as many as the setup makes)."""
    rng = Rng(s)
    travellers = {P(s, n)["traveller"] for n in s["order"]}
    for city, tok in enumerate(s["map"]):
        if tok or city in travellers:
            continue
        if not any(s["token_piles"]):
            pile = s["token_discard"]
            s["token_discard"] = []
            rng.shuffle(pile)
            s["token_piles"] = c.token_piles(g, pile)
        src = next((p for p in s["token_piles"] if p), None)
        if src is None:
            break
        s["map"][city] = src.pop()


def roll_dice(g, s, ev):
    rng = Rng(s)
    s["dice"] = [rng.die(g.consts.die_faces) for _ in s["dice"]]
    ev.append({"event": "dice", "dice": list(s["dice"])})


def decree_bonuses(g, s, ev):
    """Players with a servant on a morning decree get its bonus, from the first player clockwise."""
    level = g.consts.morning_decree_level
    items = []
    meng = s["solo"]["meng"] if s.get("solo") else None
    for name in c.order_from(s, s["first"]):
        for key in P(s, name)["decrees"]:
            if g.consts.decrees[key]["level"] == level:
                if name == meng:
                    from engine.gugong import solo
                    solo.morning_bonus(g, s, key, ev)
                else:
                    items.append({"kind": "decree_bonus", "player": name, "decree": key})
    c.push_many(s, items)


def new_servants(g, s, ev):
    """The step's effect: the day marker moves, then everyone takes the servants it shows (the step's
    mechanism, the vocabulary's: servants_for_day)."""
    g.effects.run(NEW_SERVANTS, s, s["order"][s["first"]], ev)
    ev.append({"event": "day", "day": s["day"]})


def servants_for_day(g, s, ev):
    """Everyone takes the servants the day track shows beside the marker (from the general supply)."""
    for name in s["order"]:
        c.gain_servants(s, name, g.consts.day_servants[s["day"]], ev)


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
        out += [{"use": True, "card": x, "location": loc} for x in p["hand"] for loc in g.consts.locations]
    elif key == "l1-servant":
        if p["supply"] or p["double"] == "supply":
            out.append({"use": True})
    else:
        out.append({"use": True})
    return out


def plain_bonus(g, s, name, key, ev, choice: dict | None = None):
    """The decree's morning bonus, run from its effect; Meng takes the intrigue, servant and palace
    bonuses the same way (solo.morning_bonus), the ship and card-exchange ones his own way."""
    return g.effects.triggered(D + key, MORNING, s, name, ev, choice=choice)


def decide_bonus(g, s, name, a, ev):
    key = s["pending"][0]["decree"]
    claim = None
    if a.get("use"):
        claim = plain_bonus(g, s, name, key, ev, a).gained.get("claim")
        ev.append({"event": "decree_bonus", "player": name, "decree": key})
    s["pending"].pop(0)
    if claim is not None and c.claimable(g, s, name, claim):
        c.push(s, {"kind": "claim", "player": name, "ship": claim})
