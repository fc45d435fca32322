"""Phase 3 (the month's event), the Great Events (round 7) and the Great Wall scorings, decay of
uninhabited palaces, phase 4 (round scoring) and the end of the game. Decisions (releases, floors lost,
items returned, cards discarded, persons chosen) wait in state["pending"] in person-track order."""
from __future__ import annotations

import math

from engine.core.state import own
from engine.dragon import common as c

E = "dragon/event/"


def _release(s: dict, name: str, n: int, rule: str, palaces=None) -> None:
    if n > 0:
        item = {"kind": "release", "player": name, "count": n, "rule": rule}
        if palaces is not None:
            item["palaces"] = list(palaces)
        s["pending"].append(item)


# ---------------------------------------------------------------- the six events
def resolve(k, s: dict, event: str, ev: list) -> None:
    ev.append({"event": "month_event", "name": event, "round": s["round"]})
    order = c.track_order(s)
    P = s["players"]
    if event == "imperial-tribute":
        for n in order:
            paid = min(P[n]["yuan"], k.tribute)
            c.pay(s, n, "yuan", paid, E + event, ev)
            _release(s, n, k.tribute - paid, E + event)
    elif event == "drought":
        for n in order:
            inhabited = [i for i, pal in enumerate(P[n]["palaces"]) if pal["persons"]]
            need = len(inhabited) * k.drought_rice
            paid = min(P[n]["rice"], need)
            c.pay(s, n, "rice", paid, E + event, ev)
            _release(s, n, len(inhabited) - paid // k.drought_rice, E + event, inhabited)
    elif event == "dragon-festival":
        fw = {n: P[n]["fireworks"] for n in order}
        tops = sorted({v for v in fw.values() if v >= k.fest_min}, reverse=True)
        scorers = []
        for rank, pts in zip(tops[:2], (k.fest_first, k.fest_second)):
            for n in order:
                if fw[n] == rank:
                    c.vp(s, n, pts, event, ev)
                    scorers.append(n)
        for n in scorers:  # return half the tiles, rounded up
            c.pay(s, n, "fireworks", math.ceil(fw[n] * k.fest_fraction), E + event, ev)
    elif event == "mongol-invasion":
        helmets = {n: k.symbols(P[n], "warrior") for n in order}
        for n in order:
            c.vp(s, n, helmets[n] * k.mongol_vp, event, ev)
        low = min(helmets.values())
        for n in order:
            if helmets[n] == low:
                _release(s, n, k.mongol_released, E + event)
    elif event == "plague":
        for n in order:
            _release(s, n, max(0, k.plague_released - k.symbols(P[n], "healer") * k.plague_reduction), E + event)
    # peace: nothing happens


def wall_scoring(k, s: dict, ev: list, final: bool = False) -> None:
    """dragon/scoring-rule/gw-mongol-scoring (after a Mongol Invasion) and gw-final-scoring (round 12)."""
    placed = {n: sum(1 for x in s["wall"] if x == n) for n in s["order"]}
    reach = len(s["wall"]) >= (k.wall_final_complete if final else s["round"])  # dragon/unknown/gw-wall-reach
    ev.append({"event": "wall_scoring", "final": final, "reached": reach, "length": len(s["wall"])})
    order = c.track_order(s)
    if reach:
        for n in order:
            if final or placed[n] >= k.wall_min:
                c.vp(s, n, placed[n] * (k.wall_final_vp if final else k.wall_vp), "great wall", ev)
    else:
        low = min(placed.values())
        rule = "dragon/scoring-rule/gw-final-scoring" if final else "dragon/scoring-rule/gw-mongol-scoring"
        for n in order:
            if placed[n] == low:
                _release(s, n, k.wall_final_released if final else k.wall_released, rule)


# ---------------------------------------------------------------- great events (round 7)
def great(k, s: dict, ev: list) -> None:
    ge = s["great_event"]
    ev.append({"event": "great_event", "name": ge})
    order = c.track_order(s)  # dragon/unknown/ge-first-player
    P = s["players"]
    if ge == "ge-lantern-festival":
        for n in order:
            c.vp(s, n, len(c.persons(P[n])) * k.lantern_vp, ge, ev)
    elif ge == "ge-buddha":
        for n in order:
            c.vp(s, n, monk_points(k, P[n]), ge, ev)
    elif ge == "ge-earthquake":
        for n in order:
            s["pending"].append({"kind": "floor", "player": n, "count": k.quake_floors})
    elif ge == "ge-flood":
        for n in order:
            total = P[n]["yuan"] + P[n]["rice"] + P[n]["fireworks"]
            if total // k.flood_divisor:
                s["pending"].append({"kind": "flood", "player": n, "count": total // k.flood_divisor})
    elif ge == "ge-solar-eclipse":
        # dragon/unknown/ge-eclipse-repeat: only the event itself is resolved again
        resolve(k, s, s["events"][k.eclipse_round - 1], ev)
    elif ge == "ge-volcanic-eruption":
        for n in reversed(order):  # the marker in front ends on top
            P[n]["person"] = k.volcano_space
            s["stamp"] += 1
            P[n]["stamp"] = s["stamp"]
    elif ge == "ge-tornado":
        for n in order:
            s["pending"].append({"kind": "discard_card", "player": n, "count": k.tornado_cards})
    elif ge == "ge-sunrise":
        s["sunrise"] = []
        for n in order:
            s["pending"].append({"kind": "sunrise", "player": n, "count": k.sunrise_persons})
    elif ge == "ge-assassination-attempt":
        for n in order:
            for size in ("small", "large"):
                s["bank"][size] += P[n]["privileges"][size]
                own(P[n], "privileges")[size] = 0
        ev.append({"event": "privileges_lost"})
    elif ge == "ge-edict":
        for n in order:
            s["pending"].append({"kind": "edict", "player": n, "count": 1})


def edict_value(k, p: dict, kind: str) -> tuple[str, int]:
    benefit = k.edict[kind]
    if benefit == "vp_buddha_floors":
        return "vp", monk_points(k, p)
    return benefit, k.symbols(p, kind)


# ---------------------------------------------------------------- decay, scoring, end
def decay(k, s: dict, ev: list) -> None:
    for n in c.track_order(s):
        p = s["players"][n]
        keep = []
        for pal in own(p, "palaces"):
            if not pal["persons"]:
                lost = min(k.decay_floors, pal["floors"])
                pal["floors"] -= lost
                s["bank"]["floors"] += lost
                ev.append({"event": "decay", "player": n, "floors": lost})
            if pal["floors"] > 0:
                keep.append(pal)
        p["palaces"] = keep


def round_scoring(k, s: dict, ev: list) -> None:
    for n in c.track_order(s):
        p = s["players"][n]
        pts = (len(p["palaces"]) * k.vp_palace + k.symbols(p, "court-lady") * k.vp_lady
               + sum(p["privileges"][z] * k.dragons[z] for z in ("small", "large")) * k.vp_privilege)
        c.vp(s, n, pts, "round scoring", ev)


def monk_points(k, p: dict) -> int:
    return sum(k.subtypes[x]["symbols"] * pal["floors"] for pal in p["palaces"] for x in pal["persons"]
               if k.subtypes[x]["type"] == "monk")


def end_scoring(k, s: dict, ev: list) -> None:
    for n in c.track_order(s):
        p = s["players"][n]
        f = {"persons": len(c.persons(p)) * k.vp_person_end, "monks": monk_points(k, p)}
        sold = p["rice"] * k.sell_rice + p["fireworks"] * k.sell_fireworks
        s["bank"]["rice"] += p["rice"]
        s["bank"]["fireworks"] += p["fireworks"]
        p["rice"] = p["fireworks"] = 0
        c.gain(s, n, "yuan", sold, ev)
        f["sold_yuan"] = sold
        f["money"] = p["yuan"] // k.yuan_per_vp
        f["total"] = f["persons"] + f["monks"] + f["money"]
        p["final"] = f
        c.vp(s, n, f["total"], "end of game", ev)


def ranking(k, s: dict) -> list[dict]:
    # dragon/rule/winner: most VP, then furthest on the person track, then (2017) the marker on top
    names = sorted(s["order"], key=lambda n: (-s["players"][n]["vp"], -s["players"][n]["person"], -s["players"][n]["stamp"]))
    return [{"player": n, "vp": s["players"][n]["vp"], "person": s["players"][n]["person"], "rank": i + 1}
            for i, n in enumerate(names)]
