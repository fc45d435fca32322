"""End of the game (zhanguo/rule/end-game): governor majorities, unification majorities, task
sections, walls with their tokens; the ranking; and the state's invariants."""
from __future__ import annotations

from collections import Counter

from engine.core.settle import Broken
from engine.zhanguo import setup
from engine.zhanguo.common import P
from engine.zhanguo.vocabulary import END


SR = "zhanguo/scoring-rule/"
TOKEN = "zhanguo/token/"
END_GAME = "zhanguo/rule/end-game"


def scored(g, state, entity, name, **choice):
    """The points an end-of-game effect gives a player (kept in the run; the flow adds the parts),
    a majority shared by tied players divided among them, rounded down; and the run."""
    run = g.effects.run(entity, state, name, [], choice=choice, moment=END)
    split = run.gained.get("split", {})
    return run.gained.get("vp", 0) + sum(pool // split[r] for r, pool in run.gained.get("pools", {}).items()), run


def wall_points(g, state, name):
    """Each wall section's token (its effect, the section chosen) and the extra VP of the wall's space."""
    k = g.consts
    vp = 0
    for sec, spaces in enumerate(state["board"]["walls"]):
        if name in spaces:
            vp += scored(g, state, TOKEN + state["board"]["wall_tokens"][sec], name, section=sec)[0]
            vp += k.wall_extra_vp[spaces.index(name) + 1]
    return vp


def final(g, state, events):
    """zhanguo/rule/end-game: governor majorities, unification majorities, task sections (their
    effects) and walls with their tokens, each a part of the player's final points."""
    for n in state["seats"]:
        p = P(state, n)
        governors = scored(g, state, SR + "governor-majority", n)[0]
        unification = scored(g, state, SR + "unification-majority", n)[0]
        tasks, run = scored(g, state, SR + "task-discs", n)
        p["final"] = {"governors": governors, "unification": unification, "tasks": tasks,
                      "walls": wall_points(g, state, n)}
        p["task_sections"] = run.gained.get("sections", {})
    for n in state["seats"]:  # the parts are counted on the board as it stands, then added
        P(state, n)["vp"] += sum(P(state, n)["final"].values())
    ranked = sorted(state["seats"], key=lambda n: (-P(state, n)["vp"], state["track"].index(n)))
    state["result"] = [{"player": n, "vp": P(state, n)["vp"], "rank": i + 1, **P(state, n)["final"]} for i, n in enumerate(ranked)]
    state["phase"] = "end"
    state["pending"] = []
    events.append({"event": "game_end", "result": state["result"]})


R = "zhanguo/rule/"
LIMITS = R + "component-limits"  # every component but the workers is limited (zhanguo-pl 222-224)


def invariants(g, s):
    k = g.consts
    bad = []
    n = len(s["seats"])
    cards = [x for d in s["decks"].values() for x in d] + list(s["court"])
    cards += [x for d in (s.get("discards") or {}).values() for x in d]
    workers = 0
    for name in s["seats"]:
        p = P(s, name)
        cards += p["hand"] + p["draft"] + [x for r in p["regions"].values() for x in r["cards"]]
        for c in k.official_colours:
            on = sum(r["gov"][c] + r["work"][c] for r in p["regions"].values())
            if on + p["supply"][c] != k.officials_per_colour:
                bad.append(Broken(f"{name}: {c} officials {on} on board + {p['supply'][c]} in supply, not "
                                  f"{k.officials_per_colour}", LIMITS))
        out = setup.pieces_out(k, s, name)
        for key in setup.PIECES:
            total = k.task_discs if key == "discs" else getattr(k, key)
            if out[key] + p[key] != total:
                bad.append(Broken(f"{name}: {key} {out[key]} out + {p[key]} in supply, not {total}", LIMITS))
        if any(sp.count(name) > k.walls_per_section for sp in s["board"]["walls"]):
            bad.append(f"{name}: more than one wall in a section")
        for r, reg in p["regions"].items():
            if reg["unrest"] > k.track_len[p["side"]][r] or reg["unrest"] < 0:
                bad.append(Broken(f"{name}: unrest {reg['unrest']} in region {r}", R + "unrest-tracks"))
            if sum(reg["work"].values()) > k.work_capacity:
                bad.append(Broken(f"{name}: workers' area of region {r} over capacity", R + "worker-area-capacity"))
            if len(reg["cards"]) > k.max_cards_region:
                bad.append(f"{name}: region {r} holds {len(reg['cards'])} cards")
            if reg["workers"] < 0 or min(reg["gov"].values()) < 0 or min(reg["work"].values()) < 0:
                bad.append(f"{name}: negative holding in region {r}")
            workers += reg["workers"]
        for key in ("governors", "palaces", "walls", "cubes", "discs"):
            if p[key] < 0:
                bad.append(Broken(f"{name}: negative {key}: more are handed out than exist", LIMITS))
        if min(p["supply"].values()) < 0 or min(p["m1"].values()) < 0 or min(p["m3"].values()) < 0:
            bad.append(Broken(f"{name}: negative supply or markers: more are handed out than exist", LIMITS))
    # each card in exactly one place
    where = Counter(cards)
    twice = sorted(x for x, m in where.items() if m > 1)
    nowhere = sorted(set(k.cards) - set(where))
    strange = sorted(set(where) - set(k.cards), key=str)
    if twice:
        bad.append(f"cards in two places: {twice[:10]}")
    if nowhere:
        bad.append(f"cards nowhere: {nowhere[:10]}" + (f" (and {len(nowhere) - 10} more)" if len(nowhere) > 10 else ""))
    if strange:
        bad.append(f"cards that are not in the game: {strange[:10]}")
    if workers != s["workers_out"]:
        bad.append(f"workers: {workers} on boards, {s['workers_out']} taken from the supply")
    for c in k.colours:
        m1 = s["supply"]["m1"][c] + sum(P(s, x)["m1"][c] for x in s["seats"])
        if m1 != k.m1_by_players[n]:
            bad.append(Broken(f"value-1 {c} markers: {m1}", LIMITS))
        m3 = s["supply"]["m3"][c] + sum(P(s, x)["m3"][c] for x in s["seats"])
        if m3 != k.m3_per_colour:
            bad.append(Broken(f"value-3 {c} markers: {m3}", LIMITS))
        if s["supply"]["m1"][c] < 0 or s["supply"]["m3"][c] < 0:
            bad.append(Broken(f"negative {c} marker supply: more are handed out than exist", LIMITS))
    for r, sp in s["board"]["palaces"].items():
        if len(sp) != k.palace_spaces[n]:
            bad.append(f"region {r}: {len(sp)} palace spaces")
    for sec in s["board"]["tasks"].values():
        for item in sec.values():
            if len(item["discs"]) != len(set(item["discs"])) or len(item["discs"]) > k.task_spaces:
                bad.append("task discs: a player twice on a task or too many discs")
    return bad + setup.composition(g, s)
