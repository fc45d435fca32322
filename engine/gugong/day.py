"""Day phase (rulebook pages 4-5): turns in clockwise order; each turn 1. gift exchange, 2. the card
action and/or the location action (card action first); a player without cards passes."""
from __future__ import annotations

from engine.core.errors import IllegalAction, MalformedAction
from engine.core.state import own
from engine.gugong import common as c
from engine.gugong import locations as L
from engine.gugong.common import P
from kb.messages import N_

R = "gugong/rule/"
GIFT = "gugong/term/gift-card"  # what the equal-value decree's modify step changes
PAYMENTS = ("free", "servants", "discard", "no_action")
PAY_SERVANTS, PAY_CARD = R + "exchange-pay-servants", R + "exchange-discard-card"  # a lower gift's payments


def exchange_is_free(g, p: dict, mine: int, theirs: int) -> bool:
    """A higher gift is exchanged freely; so is a 1 for a 9 (gugong/rule/value-one-exception), and an
    equal gift for the holder of a decree that changes which gifts exchange (its modify step)."""
    return (mine > theirs or (mine == g.consts.low_value and theirs == g.consts.high_value)
            or (mine == theirs and g.effects.vocabulary.modifies(p, GIFT)))


def do_exchange(g, s, name, a, ev):
    p = P(s, name)
    card, loc, payment = a.get("card"), a.get("location"), a.get("payment")
    if loc not in s["board"] or payment not in PAYMENTS:
        raise MalformedAction(N_("exchange: location one of %(locations)s, payment one of %(payments)s"), locations=sorted(s['board']), payments=PAYMENTS)
    if card not in p["hand"]:
        raise IllegalAction(R + "gift-exchange", N_("%(card)r is not in %(name)s's hand"), card=card, name=name)
    theirs = s["board"][loc]
    free = exchange_is_free(g, p, g.consts.card_value[card] + L.gift_value_bonus(g, p), g.consts.card_value[theirs])
    if payment == "free":
        if not free:
            raise IllegalAction(R + "gift-exchange-lower", N_("your gift is not higher than the official's: pay, discard or take no action"))
    elif free:
        raise IllegalAction(R + "gift-exchange-higher", N_("your gift is higher: exchange it freely"))
    elif payment == "servants":  # the payment, from its rule's effect
        g.effects.run(PAY_SERVANTS, s, name, ev, choice={"double": bool(a.get("double")), "lower": True,
                                                          "payment": payment})
    elif payment == "discard":
        other = a.get("discard")
        if other == card or other not in p["hand"]:
            raise IllegalAction(PAY_CARD, N_("discard another gift card from your hand"))
        g.effects.run(PAY_CARD, s, name, ev, choice={"discard": other, "lower": True, "payment": payment})
    own(p, "hand").remove(card)
    s["board"][loc] = card
    own(p, "discard").append(theirs)  # gugong/rule/taken-card-to-discard
    acting = payment != "no_action"
    s["stage"] = "act"
    s["acts"] = {"card": card, "location": loc,
                 "card_action": acting and g.consts.card_ability[card] is not None, "location_action": acting}
    ev.append({"event": "exchange", "player": name, "card": card, "location": loc, "took": theirs, "payment": payment})


def exchange_opts(g, s, name):
    """Every exchange the player may make, as actions. The ways to pay do not depend on the card or
    the location, so they are worked out once (this list is built on every turn of every game)."""
    p = P(s, name)
    out = []
    plus = L.gift_value_bonus(g, p)
    doubles = c.pay_options(g, p, g.consts.exchange_servants)
    value = g.consts.card_value
    for card in p["hand"]:
        mine = value[card] + plus
        others = [x for x in p["hand"] if x != card]
        for loc in g.consts.locations:
            base = {"type": "exchange", "player": name, "card": card, "location": loc}
            if exchange_is_free(g, p, mine, value[s["board"][loc]]):
                out.append({**base, "payment": "free"})
                continue
            out += [{**base, "payment": "servants", "double": d} for d in doubles]
            out += [{**base, "payment": "discard", "discard": x} for x in others]
            out.append({**base, "payment": "no_action"})
    return out


def do_card_action(g, s, name, a, ev):
    acts = s["acts"]
    if s["stage"] != "act" or not acts.get("card_action"):
        raise IllegalAction(R + "perform-actions", N_("no card action available (it comes before the location action)"))
    acts["card_action"] = False
    L.do_card_action(g, s, name, g.consts.card_ability[acts["card"]], a, ev)


def do_location_action(g, s, name, a, ev):
    acts = s["acts"]
    if s["stage"] != "act" or not acts.get("location_action"):
        raise IllegalAction(R + "perform-actions", N_("no location action available this turn"))
    acts["location_action"] = False
    acts["card_action"] = False  # if both are done, the card action comes first
    L.DO[acts["location"]](g, s, name, a, ev)
    ev.append({"event": "location_action", "player": name, "location": acts["location"]})
    L.after_location_action(g, s, name, acts["location"], ev)


def act_opts(g, s, name):
    acts = s["acts"]
    out = [{"type": "end_turn"}]
    if acts.get("card_action"):
        out += [{"type": "card_action", **o} for o in L.card_action_opts(g, s, name, g.consts.card_ability[acts["card"]])]
    if acts.get("location_action"):
        out += [{"type": "location_action", **o} for o in L.OPTS[acts["location"]](g, s, name)]
    return out


def end_turn(g, s, ev):
    """Next player clockwise who still has cards; when everybody has passed the night begins."""
    s["stage"] = "exchange"
    s["acts"] = {}
    n = len(s["order"])
    for i in range(1, n + 1):
        item = (s["turn"] + i) % n
        if P(s, s["order"][item])["hand"]:
            s["turn"] = item
            return
    end_of_day(g, s, ev)
    if s.get("solo"):  # the solo game has a Dusk phase before the night
        from engine.gugong import solo
        solo.start_dusk(g, s, ev)
        return
    s["phase"], s["step"] = "night", "dice"
    ev.append({"event": "night", "day": s["day"]})


def end_of_day(g, s, ev):
    """Bonus travel tokens (variant) go above the player board as usual, their servants to the supply."""
    for name in s["order"]:
        p = P(s, name)
        for b in p["bonus"]:
            p["supply"] += g.consts.token_attrs[b["token"]]["servant_cost"]
            if len(p["tokens"]) >= g.consts.token_slots:
                c.push(s, {"kind": "make_room", "player": name, "token": b["token"]}, last=True)
            else:
                own(p, "tokens").append(b["token"])
        p["bonus"] = []
