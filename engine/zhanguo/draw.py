"""Phase 1 of a round (rulebook: Phase 1 - drawing cards): each player draws from every deck, or, in
the card-selection variant, draws 3 of a colour and discards 1; then the turn order of phase 2."""
from __future__ import annotations

from engine.zhanguo.common import P

DRAW = "zhanguo/phase/draw"


def draw(g, state, events):
    k = g.consts
    order = round_order(g, state)
    if state["options"]["card_selection"] and state["round"] in k.sel_rounds:
        state["discards"] = {c: [] for c in k.colours}
        for name in order:
            for c in k.colours:
                state["pending"].append({"kind": "select", "player": name, "colour": c, "cards": []})
        state["phase"] = "drafting"
        return
    for name in order:  # zhanguo/phase/draw: its effect
        g.effects.run(DRAW, state, name, events)
    start_play(g, state)


def deal_draft(g, state):
    """Card-selection variant: draw 3 of a colour when that choice comes up."""
    k = g.consts
    item = state["pending"][0]
    d = state["decks"][item["colour"]]
    item["cards"] = [d.pop() for _ in range(min(k.sel_drawn, len(d)))]
    P(state, item["player"])["draft"] = list(item["cards"])


def round_order(g, state):
    if state["options"]["reward_track_turn_order"]:
        return list(state["track"])
    seats = state["seats"]
    i = seats.index(state["first"])
    return seats[i:] + seats[:i]


def start_play(g, state):
    state["phase"] = "play"
    state["order"] = round_order(g, state)
    state["turn"] = 0
    state["stage"] = "card"
