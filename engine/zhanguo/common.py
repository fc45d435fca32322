"""Small helpers on ZhanGuo states: players, regions, unrest, unification markers, tie-break order."""
from __future__ import annotations

from engine.core.state import own


def P(s, name):
    return s["players"][name]


def track_len(g, p, r):
    return g.k.track_len[p["side"]][r]


def can_raise(g, p, r, n):
    """zhanguo/rule/unrest-tracks: an action may not raise unrest above the track's maximum."""
    return p["regions"][r]["unrest"] + n <= track_len(g, p, r)


def raise_unrest(g, p, r, n, ev):
    if n <= 0:
        return
    reg = own(p["regions"], r)
    if reg["unrest"] == 0:
        p["cubes"] -= 1  # zhanguo/rule/unrest: the first cube comes from the player's supply
    reg["unrest"] += n
    ev.append({"event": "unrest", "region": r, "level": reg["unrest"]})


def lower_unrest(p, r, n, ev):
    if p["regions"][r]["unrest"] == 0 or n <= 0:
        return
    reg = own(p["regions"], r)
    reg["unrest"] = max(0, reg["unrest"] - n)
    if reg["unrest"] == 0:
        p["cubes"] += 1
    ev.append({"event": "unrest", "region": r, "level": reg["unrest"]})


def blocked(g, p, r):
    """The cube on the rightmost space: no card activation (lines 787-789) and no palace (679-681)."""
    return p["regions"][r]["unrest"] >= track_len(g, p, r)


def gain_marker(g, s, name, colour, n, ev):
    """Take n value-1 markers of a colour; 1 VP for each one the supply lacks (lines 397-399)."""
    p = P(s, name)
    take = min(n, s["supply"]["m1"][colour])
    s["supply"]["m1"][colour] -= take
    p["m1"][colour] += take
    missing = n - take
    if missing:
        p["vp"] += missing * g.k.vp_per_missing
    ev.append({"event": "markers", "player": name, "colour": colour, "taken": take, "vp": missing * g.k.vp_per_missing})


def marker_value(g, p, colour):
    return p["m1"][colour] * g.k.m1_value + p["m3"][colour] * g.k.m3_value


def officials_on_board(p):
    return sum(sum(reg["gov"].values()) + sum(reg["work"].values()) for reg in p["regions"].values())


def cards_on_board(p):
    return sum(len(reg["cards"]) for reg in p["regions"].values())


def tiebreak_order(s):
    """zhanguo/rule/reward-tie-break: discs on the reward track top to bottom, then the round column
    top to bottom (writing, currency, law rows)."""
    col = [s["column"][a] for a in s["aspects"] if s["column"].get(a)]
    return [n for n in s["track"] if n not in col] + col
