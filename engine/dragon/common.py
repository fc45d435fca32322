"""Shared mechanics: the person track (order and stacking), palaces, persons, the bank."""
from __future__ import annotations

from functools import lru_cache

from engine.core.errors import IllegalAction
from engine.core.state import own
from kb.messages import N_

R = "dragon/rule/"


def P(s: dict, name: str) -> dict:
    return s["players"][name]


def track_order(s: dict) -> list[str]:
    """Person-track order: furthest ahead first; on one space the marker on top first (dragon/rule/turn-order)."""
    return sorted(s["order"], key=lambda n: (-s["players"][n]["person"], -s["players"][n]["stamp"]))


def move_marker(s: dict, name: str, steps: int, events: list) -> None:
    if steps <= 0:
        return
    p = P(s, name)
    p["person"] += steps
    s["stamp"] += 1
    p["stamp"] = s["stamp"]  # placed on top of any marker already there (dragon/rule/person-marker)
    events.append({"event": "person_track", "player": name, "steps": steps, "space": p["person"]})


def gain(s: dict, name: str, what: str, n: int, events: list) -> None:
    """Take n yuan/rice/fireworks from the bank (the bank never runs short: dragon/rule/supply-shortage)."""
    if n <= 0:
        return
    P(s, name)[what] += n
    s["bank"][what] -= n
    events.append({"event": "gain", "player": name, what: n})


def pay(s: dict, name: str, what: str, n: int, rule: str, events: list) -> None:
    if n <= 0:
        return
    p = P(s, name)
    if p[what] < n:
        raise IllegalAction(rule, N_("%(name)s has %(have)s %(what)s, not %(n)s"), name=name, have=p[what], what=what, n=n)
    p[what] -= n
    s["bank"][what] += n
    events.append({"event": "pay", "player": name, what: n})


def vp(s: dict, name: str, n: int, why: str, events: list) -> None:
    if n <= 0:
        return
    P(s, name)["vp"] += n
    events.append({"event": "vp", "player": name, "vp": n, "for": why})


def persons(p: dict) -> list[str]:
    return [x for pal in p["palaces"] for x in pal["persons"]]


def room(k, p: dict) -> list[int]:
    return [i for i, pal in enumerate(p["palaces"]) if len(pal["persons"]) < pal["floors"] * k.persons_per_floor]


def release(s: dict, name: str, palace: int, slot: int, events: list) -> str:
    p = P(s, name)
    try:
        pal = p["palaces"][palace]
        who = pal["persons"][slot]
        pal = own(p, "palaces")[palace]
    except (IndexError, TypeError):
        raise IllegalAction(R + "release-order", N_("%(name)s has no person at palace %(palace)s, slot %(slot)s"),
            name=name, palace=palace, slot=slot) from None
    del pal["persons"][slot]
    s["released"][who] += 1  # released persons leave the game (dragon/phase/person)
    events.append({"event": "release", "player": name, "person": who, "palace": palace})
    return who


def place_person(k, s: dict, name: str, sub: str, palace, slot, rule: str, events: list) -> bool:
    """Put a new person tile (already taken from the supply) in a palace. With room left the player must use
    it; with all palaces full they replace a person (palace+slot) or release the newcomer (palace None).
    Returns whether the person stays (and the marker moves)."""
    p = P(s, name)
    free = room(k, p)
    if palace is None:
        if free:
            raise IllegalAction(R + "full-palaces", N_("a player with room in their palaces must summon the new person"))
        s["released"][sub] += 1
        events.append({"event": "release", "player": name, "person": sub, "palace": None})
        return False
    if not isinstance(palace, int) or not 0 <= palace < len(p["palaces"]):
        raise IllegalAction(rule, N_("%(name)s has no palace %(palace)s"), name=name, palace=palace)
    if palace in free:
        if slot is not None:
            raise IllegalAction(R + "full-palaces", N_("the palace has room: no person is replaced"))
    else:
        if free:
            raise IllegalAction(R + "palace-capacity", N_("palace %(palace)s is full; use a palace with room"), palace=palace)
        if not isinstance(slot, int):
            raise IllegalAction(R + "full-palaces", N_("all palaces are full: name the slot of the person to replace"))
        release(s, name, palace, slot, events)
    own(p, "palaces")[palace]["persons"].append(sub)
    return True


def placements(k, p: dict) -> list[tuple]:
    """(palace, slot) choices for a new person: palaces with room, or else every replacement and release."""
    free = room(k, p)
    if free:
        seen, out = set(), []
        for i in free:
            sig = (p["palaces"][i]["floors"], tuple(sorted(p["palaces"][i]["persons"])))
            if sig not in seen:
                seen.add(sig)
                out.append((i, None))
        return out
    out = [(None, None)]
    for i, pal in enumerate(p["palaces"]):
        seen = set()
        for j, x in enumerate(pal["persons"]):
            if x not in seen:
                seen.add(x)
                out.append((i, j))
    return out


def release_choices(p: dict, palaces=None) -> list[tuple[int, int]]:
    out = []
    for i, pal in enumerate(p["palaces"]):
        if palaces is not None and i not in palaces:
            continue
        seen = set()
        for j, x in enumerate(pal["persons"]):
            if x not in seen:
                seen.add(x)
                out.append((i, j))
    return out


# ---------------------------------------------------------------- building
def check_build(k, p: dict, n: int, add, new, rule: str) -> None:
    """Validate a distribution of n new floors: add = [[palace, floors]...], new = [heights of new palaces]."""
    add = add or []
    new = new or []
    if not isinstance(add, list) or not isinstance(new, list):
        raise IllegalAction(rule, N_("add is a list of [palace, floors], new a list of heights"))
    total, seen = 0, set()
    for item in add:
        if not (isinstance(item, list) and len(item) == 2 and all(isinstance(x, int) for x in item)):
            raise IllegalAction(rule, N_("add: [palace, floors] pairs"))
        i, f = item
        if i in seen or not 0 <= i < len(p["palaces"]) or f < 1:
            raise IllegalAction(rule, N_("no palace %(i)s to add %(f)s floors to"), i=i, f=f)
        seen.add(i)
        if p["palaces"][i]["floors"] + f > k.max_floors:
            raise IllegalAction(R + "palace-capacity", N_("a palace may not be higher than %(max_floors)s floors"), max_floors=k.max_floors)
        total += f
    for h in new:
        if not isinstance(h, int) or not 1 <= h <= k.max_floors:
            raise IllegalAction(R + "palace-capacity", N_("a new palace has 1 to %(max_floors)s floors"), max_floors=k.max_floors)
        total += h
    if total != n:
        raise IllegalAction(rule, N_("build exactly the %(n)s floors gained (not %(total)s)"), n=n, total=total)


def do_build(s: dict, name: str, add, new, events: list) -> None:
    p = P(s, name)
    n = 0
    palaces = own(p, "palaces")
    for i, f in add or []:
        palaces[i]["floors"] += f
        n += f
    for h in new or []:
        palaces.append({"floors": h, "persons": []})
        n += h
    s["bank"]["floors"] -= n
    events.append({"event": "build", "player": name, "floors": n, "add": add or [], "new": new or []})


def build_options(k, p: dict, n: int) -> list[tuple[list, list]]:
    """Every way to build n floors: onto which palaces, and which new palaces. It depends only on the
    palaces' heights and residents, so it is worked out once per such shape (listed at most decisions
    of the action phase)."""
    shape = tuple((pal["floors"], tuple(sorted(pal["persons"]))) for pal in p["palaces"])
    return [([list(x) for x in add], list(part)) for add, part in _build_options(shape, n, k.max_floors)]


@lru_cache(maxsize=4096)
def _build_options(shape: tuple, n: int, max_floors: int) -> tuple:
    pals = [{"floors": floors, "persons": persons} for floors, persons in shape]
    idx = [i for i, pal in enumerate(pals) if pal["floors"] < max_floors]
    parts = _partitions(n, max_floors)
    out: list[tuple] = []
    seen: set = set()

    def rec(pos, left, add):
        if pos == len(idx):
            for part in parts.get(left, []):
                # palaces alike (same height and residents) are interchangeable: keep one of each result
                key = (tuple(sorted(((pals[i]["floors"], tuple(sorted(pals[i]["persons"]))), f) for i, f in add)), tuple(part))
                if key not in seen:
                    seen.add(key)
                    out.append((tuple(tuple(x) for x in add), tuple(part)))
            return
        i = idx[pos]
        rec(pos + 1, left, add)
        for f in range(1, min(max_floors - pals[i]["floors"], left) + 1):
            add.append([i, f])
            rec(pos + 1, left - f, add)
            add.pop()

    rec(0, n, [])
    return tuple(out)


@lru_cache(maxsize=None)
def _partitions(n: int, top: int) -> dict[int, list[list[int]]]:
    res: dict[int, list[list[int]]] = {}
    for m in range(n + 1):
        acc: list[list[int]] = []

        def go(left, mx, cur):
            if left == 0:
                acc.append(list(cur))
                return
            for h in range(min(mx, left), 0, -1):
                cur.append(h)
                go(left - h, h, cur)
                cur.pop()

        go(m, top, [])
        res[m] = acc
    return res
