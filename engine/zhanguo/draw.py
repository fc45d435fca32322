"""Phase 1 of a round (rulebook: Phase 1 - drawing cards): each player draws from every deck, or, in
the card-selection variant, draws 3 of a colour and discards 1; then the turn order of phase 2."""
from __future__ import annotations

from engine.zhanguo.common import P


def draw(g, s, ev):
    k = g.k
    order = round_order(g, s)
    if s["options"]["card_selection"] and s["round"] in k.sel_rounds:
        s["discards"] = {c: [] for c in k.colours}
        for name in order:
            for c in k.colours:
                s["pending"].append({"kind": "select", "player": name, "colour": c, "cards": []})
        s["phase"] = "drafting"
        return
    for name in order:
        for c in k.colours:
            for _ in range(min(k.cards_per_deck, len(s["decks"][c]))):
                P(s, name)["hand"].append(s["decks"][c].pop())
    start_play(g, s)


def deal_draft(g, s):
    """Card-selection variant: draw 3 of a colour when that choice comes up."""
    k = g.k
    item = s["pending"][0]
    d = s["decks"][item["colour"]]
    item["cards"] = [d.pop() for _ in range(min(k.sel_drawn, len(d)))]
    P(s, item["player"])["draft"] = list(item["cards"])


def round_order(g, s):
    if s["options"]["reward_track_turn_order"]:
        return list(s["track"])
    seats = s["seats"]
    i = seats.index(s["first"])
    return seats[i:] + seats[:i]


def start_play(g, s):
    s["phase"] = "play"
    s["order"] = round_order(g, s)
    s["turn"] = 0
    s["stage"] = "card"
