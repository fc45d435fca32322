"""Night phase (rulebook page 13): 1. destiny dice, 2. moving all ships; then the next morning or the
end of the game."""
from __future__ import annotations

from engine.core.rng import Rng
from engine.gugong import common as c
from engine.gugong.common import P

R = "gugong/rule/"
DICE = R + "night-destiny-dice"
SHIPS = "gugong/step/night-move-ships"


def destiny_dice(g, s, ev):
    """Each card on a discard pile earns servants for the dice showing its value, run from the rule's
    effect (its counts: engine/gugong/vocabulary.py); the most matches earns VP and a palace step,
    ties broken on the intrigue track."""
    matches = {}
    meng = s["solo"]["meng"] if s.get("solo") else None
    for name in s["order"]:
        p = P(s, name)
        if name == meng:  # gugong/rule/solo-night: Meng's matches are fixed by the day
            matches[name] = g.solo.matches[s["day"]]
        else:  # a card matching two dice counts twice
            matches[name] = sum(s["dice"].count(g.consts.card_value[x]) for x in p["discard"])
        g.effects.run(DICE, s, name, ev)
    ev.append({"event": "destiny_dice", "dice": list(s["dice"]), "matches": matches})
    shared = {"matches": matches}  # gugong/rule/night-most-matches, run from its effect
    for name in s["order"]:
        if g.effects.run(R + "night-most-matches", s, name, ev, shared=shared).held:
            ev.append({"event": "most_matches", "player": name})
    # the discard piles become the hands for the next day (gugong/rule/taken-card-to-discard)
    for name in s["order"]:
        p = P(s, name)
        p["hand"] = p["hand"] + p["discard"]
        p["discard"] = []
        if name == meng:  # Meng's gift cards are a face-down pile: shuffled (engine assumption)
            Rng(s).shuffle(p["hand"])


def move_ships(g, s, ev):
    """Run from the step's effect (gugong/step/night-move-ships): ships in the last port are lost at
    sea; all others move forward, the furthest first; then full ships may claim the reward of their
    port (a decision of each owner, in turn order)."""
    run = g.effects.run(SHIPS, s, s["order"][s["first"]], ev)  # the step is everyone's: run once
    c.push_many(s, run.gained.get("pending", []))


def run(g, s, ev):
    """Carry out the automatic night steps until a decision is needed."""
    if s["step"] == "dice":
        destiny_dice(g, s, ev)
        s["step"] = "ships"
    if s["step"] == "ships":
        move_ships(g, s, ev)
        s["step"] = "end_of_day"
        return
