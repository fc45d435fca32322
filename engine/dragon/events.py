"""Phase 3 (the month's event), the Great Events (round 7) and the Great Wall scorings, decay of
uninhabited palaces, phase 4 (round scoring) and the end of the game: the flow (when, in which order,
for whom); what each does is its effect, run by the interpreter (engine/core/effects.py, the
vocabulary in engine/dragon/vocabulary.py). Decisions (releases, floors lost, items returned, cards
discarded, persons chosen) wait in state["pending"] in person-track order."""
from __future__ import annotations

from engine.dragon import common as c

E = "dragon/event/"
R = "dragon/rule/"
S = "dragon/scoring-rule/"


def run_effect(k, s: dict, entity: str, ev: list, moment: str | None = None) -> dict:
    """An event, decay or scoring effect run for every player in person-track order (its rankings
    taken before anyone pays) at the flow's `moment` (a `trigger` step acts only at its own); what the
    runs counted, by player."""
    shared: dict = {}
    return {n: k.effects.run(entity, s, n, ev, forced=True, shared=shared, moment=moment) for n in c.track_order(s)}


# ---------------------------------------------------------------- the six events
def resolve(k, s: dict, event: str, ev: list) -> None:
    """The month's event: its effect (peace has none: nothing happens)."""
    ev.append({"event": "month_event", "name": event, "round": s["round"]})
    run_effect(k, s, E + event, ev)


def wall_scoring(k, s: dict, ev: list, final: bool = False) -> None:
    """dragon/scoring-rule/gw-mongol-scoring (the flow runs it after a Mongol Invasion, at the event
    phase) and gw-final-scoring (round 12, the end of the game): their effects."""
    ev.append({"event": "wall_scoring", "final": final, "length": len(s["wall"])})
    shared: dict = {}
    entity, moment = (S + "gw-final-scoring", "end_game") if final else (S + "gw-mongol-scoring", "event_phase")
    for n in c.track_order(s):
        k.effects.run(entity, s, n, ev, forced=True, shared=shared, moment=moment)


# ---------------------------------------------------------------- great events (round 7)
def great(k, s: dict, ev: list) -> None:
    ge = s["great_event"]
    ev.append({"event": "great_event", "name": ge})
    order = c.track_order(s)  # dragon/unknown/ge-first-player
    if ge in RUN_BY_FLOW:
        RUN_BY_FLOW[ge](k, s, order, ev)
    else:
        run_effect(k, s, E + ge, ev)


def _eclipse(k, s: dict, order: list, ev: list) -> None:
    # dragon/unknown/ge-eclipse-repeat: only the event itself is resolved again
    resolve(k, s, s["events"][k.eclipse_round - 1], ev)


def _volcano(k, s: dict, order: list, ev: list) -> None:
    P = s["players"]
    for n in reversed(order):  # the marker in front ends on top
        P[n]["person"] = k.volcano_space
        s["stamp"] += 1
        P[n]["stamp"] = s["stamp"]


def _sunrise(k, s: dict, order: list, ev: list) -> None:
    s["sunrise"] = []
    for n in order:
        s["pending"].append({"kind": "sunrise", "player": n, "count": k.sunrise_persons})


def _edict(k, s: dict, order: list, ev: list) -> None:
    for n in order:
        s["pending"].append({"kind": "edict", "player": n, "count": 1})


# The Great Events whose effect names a mechanism (a `rule:` step, or a choice whose benefit the
# rulebook does not state): the engine runs them by name.
RUN_BY_FLOW = {"ge-solar-eclipse": _eclipse, "ge-volcanic-eruption": _volcano, "ge-sunrise": _sunrise, "ge-edict": _edict}


def edict_value(k, p: dict, kind: str) -> tuple[str, int]:
    benefit = k.edict[kind]
    if benefit == "vp_buddha_floors":
        return "vp", monk_points(k, p)
    return benefit, k.symbols(p, kind)


# ---------------------------------------------------------------- decay, scoring, end
def decay(k, s: dict, ev: list) -> None:
    """dragon/rule/decay at its moment, after the event and before the scoring: its effect takes the
    floors and removes the palaces left without any (its mechanism, engine/dragon/vocabulary.py)."""
    run_effect(k, s, R + "decay", ev, moment="decay")


def round_scoring(k, s: dict, ev: list) -> None:
    """dragon/phase/scoring: the scoring rules its effect names, in its order."""
    for rule in k.effects.mechanisms("dragon/phase/scoring"):
        run_effect(k, s, rule, ev)


def monk_points(k, p: dict) -> int:
    return sum(k.subtypes[x]["symbols"] * pal["floors"] for pal in p["palaces"] for x in pal["persons"]
               if k.subtypes[x]["type"] == "monk")


def end_scoring(k, s: dict, ev: list) -> None:
    """dragon/rule/end-game: the scorings its effect names, each player's points kept by scoring."""
    parts = {n: {} for n in s["order"]}
    for rule in k.effects.mechanisms(R + "end-game"):
        before = {n: (s["players"][n]["vp"], s["players"][n]["yuan"]) for n in s["order"]}
        for n, run in run_effect(k, s, rule, ev).items():
            vp, yuan = before[n]
            p = s["players"][n]
            parts[n][rule] = p["vp"] - vp
            if run.gained.get("sold"):
                parts[n]["sold_yuan"] = run.gained["sold"]
    for n in s["order"]:
        got = parts[n]
        f = {"persons": got.get(S + "end-persons", 0), "monks": got.get(S + "end-monks", 0),
             "sold_yuan": got.get("sold_yuan", 0), "money": got.get(S + "end-money", 0)}
        f["total"] = f["persons"] + f["monks"] + f["money"]
        s["players"][n]["final"] = f


def ranking(k, s: dict) -> list[dict]:
    # dragon/rule/winner: most VP, then furthest on the person track, then (2017) the marker on top
    names = sorted(s["order"], key=lambda n: (-s["players"][n]["vp"], -s["players"][n]["person"], -s["players"][n]["stamp"]))
    return [{"player": n, "vp": s["players"][n]["vp"], "person": s["players"][n]["person"], "rank": i + 1}
            for i, n in enumerate(names)]
