"""End of the game (rulebook page 14): final scoring in the order the knowledge base lists
(gugong/scoring-rule/* by `order`), disqualification of players outside the palace, the winner."""
from __future__ import annotations

from engine.gugong import common as c
from engine.gugong.common import P


def end_wall(g, s, ev):
    """Servants left on the Wall are scored as usual, without intrigue rewards."""
    present = [n for n in s["order"] if c.wall_count(s, n) > 0]
    winner = c.best(s, present, lambda n: c.wall_count(s, n))
    if winner:
        c.gain_vp(s, winner, g.k.end_wall_vp, ev)
        c.move_palace(g, s, winner, g.k.end_wall_palace, ev)
        _note(s, winner, "wall", g.k.end_wall_vp)


def end_decrees_l3(g, s, ev):
    """Level 3 decrees; "1 VP per 3 VP" is scored before the player's other level 3 decrees."""
    for name in s["order"]:
        p = P(s, name)
        keys = [k for k in p["decrees"] if g.k.decrees[k]["level"] == 3]
        keys.sort(key=lambda k: k != "l3-vp-ratio")
        for key in keys:
            at = g.k.decrees[key]
            if key == "l3-vp-ratio":
                vp = min(at["max_end_vp"], p["vp"] // at["vp_gained_per_end_vp"])
            elif key == "l3-eight-vp":
                vp = at["end_vp"]
            elif key == "l3-jade":
                vp = min(at["max_end_vp"], p["jade"] * at["vp_per_jade"])
            elif key == "l3-decree-servants":
                vp = at["vp_per_servant"] * len(p["decrees"])
            else:  # l3-port-servants (Meng: his neutral markers, at most 3 at the 4 VP reward)
                spots = sum(p["ports"].values())
                if s.get("solo") and name == s["solo"]["meng"]:
                    neutral = s["solo"]["neutral_ports"]
                    spots = neutral["gift_card"] + min(neutral["vp4"], g.solo.port_marker_cap)
                vp = at["vp_per_servant"] * spots
            c.gain_vp(s, name, vp, ev)
            _note(s, name, key, vp)


def end_palace_order(g, s, ev):
    for i, name in enumerate(s["palace_spots"]):
        vp = g.k.palace_spots[i] if i < len(g.k.palace_spots) else 0
        c.gain_vp(s, name, vp, ev)
        _note(s, name, "palace", vp)


def end_jade(g, s, ev):
    for name in s["order"]:
        vp = g.k.jade_points(P(s, name)["jade"])
        c.gain_vp(s, name, vp, ev)
        _note(s, name, "jade", vp)


def end_disqualification(g, s, ev):
    """Envoys outside the palace cannot win: their VP discs leave the track."""
    for name in s["order"]:
        p = P(s, name)
        # gugong/rule/solo-end-scoring: Meng can win without entering the palace
        p["disqualified"] = p["palace"] < g.k.palace_end and not (s.get("solo") and name == s["solo"]["meng"])
        if p["disqualified"]:
            p["final_vp"] = g.k.disq_score
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
    for key in g.k.scoring_order:
        STEPS[key](g, s, ev)
    s["phase"], s["step"] = "end", None
