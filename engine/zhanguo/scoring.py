"""End of the game (zhanguo/rule/end-game): governor majorities, unification majorities, task
sections, walls with their tokens; the ranking; and the state's invariants."""
from __future__ import annotations

from collections import Counter

from engine.core.settle import Broken
from engine.zhanguo import setup
from engine.zhanguo.common import P, marker_value


def governor_majorities(g, state):
    k = g.consts
    out = {n: 0 for n in state["seats"]}
    for r in k.regions:
        count = {}
        for gv in state["board"]["governors"][r]:
            count[gv["player"]] = count.get(gv["player"], 0) + 1
        if not count:
            continue
        top = max(count.values())
        tied = [n for n, c in count.items() if c == top]
        pool = k.gov_majority_vp + k.gov_vp_each * top
        for n in tied:
            out[n] += pool // len(tied)  # shared, rounded down
    return out


def unification_majorities(g, state):
    k = g.consts
    out = {n: 0 for n in state["seats"]}
    for aspect, vp in k.unif_vp.items():
        colour = k.colour_of_aspect[aspect]
        vals = {n: marker_value(g, P(state, n), colour) for n in state["seats"]}
        top = max(vals.values())
        if top <= 0:
            continue
        win = next(n for n in state["track"] if vals[n] == top)  # tie: highest disc on the reward track
        out[win] += vp
    return out


def task_points(g, state, by_section=None):
    k = g.consts
    out = {n: 0 for n in state["seats"]}
    for sec in k.task_sections:
        for n in state["seats"]:
            vps = []
            for item in k.task_types:
                discs = state["board"]["tasks"][sec][item]["discs"]
                if n in discs:
                    vps.append(k.task_vp[sec][item][discs.index(n)])
            vp = sum(vps) * k.task_mult[len(vps)] if vps else 0
            out[n] += vp
            if by_section is not None:
                by_section.setdefault(n, {})[sec] = vp
    return out


def criterion_count(g, p, crit):
    k = g.consts
    regs = p["regions"].values()
    colour_of = lambda c: k.cards[c]["colour"]  # noqa: E731
    if crit == "empty-unrest-track":
        return sum(1 for r in regs if r["unrest"] == 0)
    if crit == "officials-vs-unrest":
        return sum(1 for r in regs if sum(r["gov"].values()) + sum(r["work"].values()) >= r["unrest"])
    if crit.endswith("-official"):
        c = crit[:-len("-official")]
        return sum(1 for r in regs if r["gov"][c] + r["work"][c] > 0)
    if crit == "card-sets":
        return min(sum(1 for r in regs for c in r["cards"] if colour_of(c) == col) for col in k.colours)
    if crit == "three-cards":
        return sum(1 for r in regs if len(r["cards"]) >= k.max_cards_region)
    if crit == "two-same-colour":
        return sum(1 for r in regs if any(sum(1 for c in r["cards"] if colour_of(c) == col) >= 2 for col in k.colours))
    if crit.endswith("-card"):
        col = crit[:-len("-card")]
        return sum(1 for r in regs if any(colour_of(c) == col for c in r["cards"]))
    raise ValueError(crit)


def wall_points(g, state):
    k = g.consts
    out = {n: 0 for n in state["seats"]}
    for sec, spaces in enumerate(state["board"]["walls"]):
        crit = state["board"]["wall_tokens"][sec]
        for i, n in enumerate(spaces):
            if n is None:
                continue
            lines = i + 1
            level = k.wall_criteria[crit][lines]
            p = P(state, n)
            if crit == "total-unrest":
                vp = level - sum(r["unrest"] for r in p["regions"].values())
            else:
                vp = level * criterion_count(g, p, crit)
            out[n] += vp + k.wall_extra_vp[lines]
    return out


def final(g, state, events):
    sections: dict = {}
    parts = {"governors": governor_majorities(g, state), "unification": unification_majorities(g, state),
             "tasks": task_points(g, state, sections), "walls": wall_points(g, state)}
    for n in state["seats"]:
        p = P(state, n)
        p["final"] = {part: parts[part][n] for part in parts}
        p["task_sections"] = sections[n]
        p["vp"] += sum(p["final"].values())
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
