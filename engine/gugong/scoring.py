"""End of the game (rulebook page 14): final scoring in the order the knowledge base lists
(gugong/scoring-rule/* by `order`), disqualification of players outside the palace, the winner."""
from __future__ import annotations

from engine.gugong import common as c
from engine.gugong.common import P

SCORING = "gugong/scoring-rule/"
DECREE = "gugong/decree/"
END_GAME = "end_game"  # the moment a level 3 decree's points are triggered at


def end_wall(g, s, ev):
    """Servants left on the Wall are scored as usual, without intrigue rewards (run from the scoring
    rule's effect: the player with the most servants there, ranked once for all)."""
    shared: dict = {}
    for name in s["order"]:
        run = g.effects.run(SCORING + "end-wall", s, name, ev, shared=shared)
        if run.held:
            _note(s, name, "wall", run.gained.get("vp", 0))


def end_decrees_l3(g, s, ev):
    """Level 3 decrees, run from their effects at the end of the game; "1 VP per 3 VP" is scored
    before the player's other level 3 decrees."""
    for name in s["order"]:
        p = P(s, name)
        keys = [k for k in p["decrees"] if g.consts.decrees[k]["level"] == 3]
        keys.sort(key=lambda k: not g.effects.vocabulary.scored_first(DECREE + k))
        for key in keys:
            run = g.effects.triggered(DECREE + key, END_GAME, s, name, ev)
            _note(s, name, key, run.gained.get("vp", 0))


def end_palace_order(g, s, ev):
    for i, name in enumerate(s["palace_spots"]):
        vp = g.consts.palace_spots[i] if i < len(g.consts.palace_spots) else 0
        c.gain_vp(s, name, vp, ev)
        _note(s, name, "palace", vp)


def end_jade(g, s, ev):
    for name in s["order"]:
        vp = g.consts.jade_points(P(s, name)["jade"])
        c.gain_vp(s, name, vp, ev)
        _note(s, name, "jade", vp)


def end_disqualification(g, s, ev):
    """Envoys outside the palace cannot win: their VP discs leave the track."""
    for name in s["order"]:
        p = P(s, name)
        # gugong/rule/solo-end-scoring: Meng can win without entering the palace
        p["disqualified"] = p["palace"] < g.consts.palace_end and not (s.get("solo") and name == s["solo"]["meng"])
        if p["disqualified"]:
            p["final_vp"] = g.consts.disq_score
            ev.append({"event": "disqualified", "player": name})
        else:
            p["final_vp"] = p["vp"]


def end_winner(g, s, ev):
    ranked = sorted(s["order"], key=lambda n: (not P(s, n)["disqualified"], P(s, n)["final_vp"]) + c.rank_key(s, n),
                    reverse=True)
    s["result"] = [{"player": n, "vp": P(s, n)["final_vp"], "rank": i + 1,
                    "disqualified": P(s, n)["disqualified"], "intrigue": P(s, n)["intrigue"]}
                   for i, n in enumerate(ranked)]
    ev.append({"event": "game_end", "winner": ranked[0] if not P(s, ranked[0])["disqualified"] else None})


def _note(s, name, what, vp):
    P(s, name).setdefault("final_scoring", {})[what] = vp


STEPS = {"end-wall": end_wall, "end-decrees-l3": end_decrees_l3, "end-palace-order": end_palace_order,
         "end-jade": end_jade, "end-disqualification": end_disqualification, "end-winner": end_winner}


def run(g, s, ev):
    for key in g.consts.scoring_order:
        STEPS[key](g, s, ev)
    s["phase"], s["step"] = "end", None
