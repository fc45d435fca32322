"""End of the game (zhanguo/rule/end-game): governor majorities, unification majorities, task
sections, walls with their tokens; the ranking; and the state's invariants."""
from __future__ import annotations

from collections import Counter

from engine.core.settle import Broken
from engine.zhanguo import setup
from engine.zhanguo.common import P
from engine.zhanguo.vocabulary import END
from kb.messages import N_


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
                bad.append(Broken(N_("%(player)s: %(colour)s officials %(on)s on board + %(supply)s in supply, not %(want)s"),
                                  LIMITS, player=name, colour=c, on=on, supply=p["supply"][c], want=k.officials_per_colour))
        out = setup.pieces_out(k, s, name)
        for key in setup.PIECES:
            total = k.task_discs if key == "discs" else getattr(k, key)
            if out[key] + p[key] != total:
                bad.append(Broken(N_("%(player)s: %(piece)s %(out)s out + %(supply)s in supply, not %(want)s"), LIMITS, player=name,
                                  piece=key, out=out[key], supply=p[key], want=total))
        if any(sp.count(name) > k.walls_per_section for sp in s["board"]["walls"]):
            bad.append(Broken(N_("%(player)s: more than one wall in a section"), player=name))
        for r, reg in p["regions"].items():
            if reg["unrest"] > k.track_len[p["side"]][r] or reg["unrest"] < 0:
                bad.append(Broken(N_("%(player)s: unrest %(unrest)s in region %(region)s"), R + "unrest-tracks", player=name,
                                  unrest=reg["unrest"], region=r))
            if sum(reg["work"].values()) > k.work_capacity:
                bad.append(Broken(N_("%(player)s: workers' area of region %(region)s over capacity"), R + "worker-area-capacity",
                                  player=name, region=r))
            if len(reg["cards"]) > k.max_cards_region:
                bad.append(Broken(N_("%(player)s: region %(region)s holds %(n)s cards"), player=name, region=r,
                                  n=len(reg["cards"])))
            if reg["workers"] < 0 or min(reg["gov"].values()) < 0 or min(reg["work"].values()) < 0:
                bad.append(Broken(N_("%(player)s: negative holding in region %(region)s"), player=name, region=r))
            workers += reg["workers"]
        for key in ("governors", "palaces", "walls", "cubes", "discs"):
            if p[key] < 0:
                bad.append(Broken(N_("%(player)s: negative %(piece)s: more are handed out than exist"), LIMITS, player=name, piece=key))
        if min(p["supply"].values()) < 0 or min(p["m1"].values()) < 0 or min(p["m3"].values()) < 0:
            bad.append(Broken(N_("%(player)s: negative supply or markers: more are handed out than exist"), LIMITS, player=name))
    # each card in exactly one place
    where = Counter(cards)
    twice = sorted(x for x, m in where.items() if m > 1)
    nowhere = sorted(set(k.cards) - set(where))
    strange = sorted(set(where) - set(k.cards), key=str)
    if twice:
        bad.append(Broken(N_("cards in two places: %(cards)s"), cards=twice[:10]))
    if nowhere:
        bad.append(Broken(N_("cards nowhere: %(cards)s (and %(more)s more)"), cards=nowhere[:10], more=len(nowhere) - 10)
                   if len(nowhere) > 10 else Broken(N_("cards nowhere: %(cards)s"), cards=nowhere))
    if strange:
        bad.append(Broken(N_("cards that are not in the game: %(cards)s"), cards=strange[:10]))
    if workers != s["workers_out"]:
        bad.append(Broken(N_("workers: %(on)s on boards, %(out)s taken from the supply"), on=workers, out=s["workers_out"]))
    for c in k.colours:
        m1 = s["supply"]["m1"][c] + sum(P(s, x)["m1"][c] for x in s["seats"])
        if m1 != k.m1_by_players[n]:
            bad.append(Broken(N_("value-1 %(colour)s markers: %(n)s"), LIMITS, colour=c, n=m1))
        m3 = s["supply"]["m3"][c] + sum(P(s, x)["m3"][c] for x in s["seats"])
        if m3 != k.m3_per_colour:
            bad.append(Broken(N_("value-3 %(colour)s markers: %(n)s"), LIMITS, colour=c, n=m3))
        if s["supply"]["m1"][c] < 0 or s["supply"]["m3"][c] < 0:
            bad.append(Broken(N_("negative %(colour)s marker supply: more are handed out than exist"), LIMITS, colour=c))
    for r, sp in s["board"]["palaces"].items():
        if len(sp) != k.palace_spaces[n]:
            bad.append(Broken(N_("region %(region)s: %(n)s palace spaces"), region=r, n=len(sp)))
    for sec in s["board"]["tasks"].values():
        for item in sec.values():
            if len(item["discs"]) != len(set(item["discs"])) or len(item["discs"]) > k.task_spaces:
                bad.append(Broken(N_("task discs: a player twice on a task or too many discs")))
    return bad + setup.composition(g, s)
