"""Small helpers on ZhanGuo states: players, regions, unrest, unification markers, tie-break order."""
from __future__ import annotations

from engine.core.state import own


def P(state, name):
    return state["players"][name]


def track_len(g, p, r):
    return g.consts.track_len[p["side"]][r]


def can_raise(g, p, r, n):
    """zhanguo/rule/unrest-tracks: an action may not raise unrest above the track's maximum."""
    return p["regions"][r]["unrest"] + n <= track_len(g, p, r)


def raise_unrest(g, p, r, n, events):
    if n <= 0:
        return
    reg = own(p["regions"], r)
    if reg["unrest"] == 0:
        p["cubes"] -= 1  # zhanguo/rule/unrest: the first cube comes from the player's supply
    reg["unrest"] += n
    events.append({"event": "unrest", "region": r, "level": reg["unrest"]})


def lower_unrest(p, r, n, events):
    if p["regions"][r]["unrest"] == 0 or n <= 0:
        return
    reg = own(p["regions"], r)
    reg["unrest"] = max(0, reg["unrest"] - n)
    if reg["unrest"] == 0:
        p["cubes"] += 1
    events.append({"event": "unrest", "region": r, "level": reg["unrest"]})


def blocked(g, p, r):
    """The cube on the rightmost space: no card activation (lines 787-789) and no palace (679-681)."""
    return p["regions"][r]["unrest"] >= track_len(g, p, r)


def marker_value(g, p, colour):
    return p["m1"][colour] * g.consts.m1_value + p["m3"][colour] * g.consts.m3_value


def officials_on_board(p):
    return sum(sum(reg["gov"].values()) + sum(reg["work"].values()) for reg in p["regions"].values())


def cards_on_board(p):
    return sum(len(reg["cards"]) for reg in p["regions"].values())


def tiebreak_order(state):
    """zhanguo/rule/reward-tie-break: discs on the reward track top to bottom, then the round column
    top to bottom (writing, currency, law rows)."""
    col = [state["column"][a] for a in state["aspects"] if state["column"].get(a)]
    return [n for n in state["track"] if n not in col] + col


def movement_decision(name, points):
    """The decision that waits for the movement points an effect gave (zhanguo/rule/movement-point)."""
    return {"kind": "move", "player": name, "left": points, "spent": 0, "min": 0}
