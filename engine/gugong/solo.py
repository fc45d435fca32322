"""Solo variant (rulebook pages 15-19): one player against the Meng automa.

Meng plays automatically: each Day turn he reveals the top Automa card (its upper part names the
location, a special card the location he focuses on) and his top gift card, exchanges it whatever
the values, and carries out the card action and the location action in their simple ("A") form, or
option B for free with a special card. After the Day comes the Dusk, in which the lower parts of the
day's Automa cards give him extra actions. Meng never needs a decision from the player; his steps
wait in s["solo"]["todo"] so that the player's own decisions (e.g. intrigue rewards after a Wall
scoring Meng caused) can come in between.
"""
from __future__ import annotations

from engine.core.rng import Rng
from engine.core.state import own
from engine.gugong import common as c
from engine.gugong import locations as L
from engine.gugong import morning
from engine.gugong import vocabulary as V
from engine.gugong.common import P

S = "gugong/rule/solo-"


# a location's Meng rules are named by a short form of its key (gugong/rule/solo-wall-day, -canal-dusk, ...)
DAY_RULES = {"travel": "travel", "great-wall": "wall", "grand-canal": "canal"}


class SoloConsts:
    """The solo variant's constants, from the knowledge base."""

    def __init__(self, g):
        a = g.rules.attr
        self.meng = a("gugong/variant/solo", "opponent")
        self.board_players = a("gugong/variant/solo", "board_setup_player_count")
        self.levels = {lvl: a(S + f"difficulty-{lvl}", "special_cards_used") for lvl in ("easy", "normal", "hard")}
        self.hard_cards = a(S + "difficulty-hard", "extra_gift_cards")
        self.faces = a("gugong/unknown/automa-card-faces", "value_used")
        self.pairs = a("gugong/unknown/solo-card-set-pairs", "value_used")
        self.route = a("gugong/unknown/solo-travel-route-cities", "value_used")
        self.matches = a(S + "night", "meng_matches_by_day")
        self.decree_level = a(S + "decree-level", "target_level_by_day")
        self.port_marker_cap = a(S + "ports", "marker_limit_at_4vp")
        # the tokens the solo rules treat their own way (gugong-pl "Wyjątkowe sytuacje"), run from those rules' effects
        self.token_rules = {"travel-retrieve-card": S + "token-take-back-card",
                            "travel-gift-for-jade": S + "token-discard-for-jade",
                            "travel-swap-card": S + "token-card-exchange"}
        # decrees Meng takes his own way (gugong-pl "Dekrety" of the solo rules): the rule for each
        self.decree_rules = {"l1-card-exchange": S + "decree-l1-gift-exchange", "l2-travel": S + "decree-l2-travel"}


def is_solo(s) -> bool:
    return s.get("solo") is not None


def meng(s) -> str | None:
    return s["solo"]["meng"] if s.get("solo") else None


# ---------------------------------------------------------------- setup
def setup(g, s, human: str, options: dict, rng: Rng) -> None:
    """Board as for two players; Meng's focus card; card sets; the Automa deck by difficulty."""
    sk = g.solo
    level = options.get("solo", "normal")
    if level not in sk.levels:
        raise ValueError(f"solo level is one of {sorted(sk.levels)}")
    # the focus: one of the seven board cards chosen at random, marked by Meng's double servant
    focus = options.get("focus") if options.get("focus") in g.consts.locations else g.consts.locations[rng.below(len(g.consts.locations))]
    pair = sk.pairs[int(options.get("solo_sets", 0)) % len(sk.pairs)]
    name = sk.meng
    cards = {human: [x for x in g.consts.cards if g.consts.card_setup[x] == pair[0]],
             name: [x for x in g.consts.cards if g.consts.card_setup[x] == pair[1]]}
    neutral = {"gift_card": 0, "vp4": 0}
    if level == "hard":  # a fifth random gift card, marked on a port reward space
        for _ in range(sk.hard_cards):
            cards[name].append(s["draw"].pop(0))
            neutral["gift_card"] += 1
    rng.shuffle(cards[name])
    for who in (human, name):
        old = P(s, who)["hand"]
        s["box"] += [x for x in old if x not in cards[who]]
        P(s, who)["hand"] = cards[who]
    s["box"] = sorted(x for x in s["box"] if x not in cards[human] and x not in cards[name])
    deck = [f"r{i}" for i in range(len(sk.faces))] + [f"s{i}" for i in range(sk.levels[level])]
    rng.shuffle(deck)
    s["solo"] = {"meng": name, "level": level, "focus": focus, "deck": deck, "today": [], "discard": [],
                 "neutral_ports": neutral, "todo": []}


# ---------------------------------------------------------------- Meng's rules, run from their effects
class Short(Exception):
    """Meng cannot pay a step of his rule: the rest of it is skipped (an action he cannot afford)."""


def run_rule(g, s, rule: str, ev, **choice) -> bool:
    """Run one of Meng's rules from its effect; False if he could not pay for it."""
    try:
        g.effects.run(rule, s, meng(s), ev, choice=choice)
    except Short:
        return False
    return True


# ---------------------------------------------------------------- Meng's resources
def afford(g, s, n: int) -> bool:
    """Meng must trade travel tokens for servants when that makes an action affordable."""
    name = meng(s)
    p = P(s, name)
    if p["pool"] >= n:
        return True
    need, (_, per) = g.consts.token_rates["servant"]
    value = c.tokens_worth(g, p["tokens"])
    trades = (n - p["pool"] + per - 1) // per
    if trades * need > value or p["supply"] < n - p["pool"]:
        return False
    for _ in range(trades):
        _trade(g, s, "servant", [])
    return p["pool"] >= n


def _trade(g, s, kind, ev) -> bool:
    p = P(s, meng(s))
    doubles = p["tokens"].count(g.consts.double_token)
    need = g.consts.token_rates[kind][0]
    for d in range(0, doubles + 1):
        rest = max(0, need - d * g.consts.double_token_counts)
        if rest <= len(p["tokens"]) - doubles:
            if kind == "servant" and p["supply"] == 0:
                return False
            L.do_tokens(g, s, meng(s), {"for": kind, "doubles": d}, ev)
            return True
    return False


def pay(g, s, n: int, ev) -> bool:
    if not afford(g, s, n):
        return False
    c.pay(g, s, meng(s), n, False, S + "actions", ev)
    return True


def take_servants(g, s, n: int, source_first: str = "supply", fallback: bool = True) -> int:
    """Servants for placements: from source_first (for the special card's free actions: the general
    supply, else the pool)."""
    p = P(s, meng(s))
    got = 0
    for _ in range(n):
        src = source_first if p[source_first] > 0 else ("pool" if fallback and p["pool"] > 0 else None)
        if src is None:
            break
        p[src] -= 1
        got += 1
    return got


def ship_servant(g, s, ev, phase: str) -> bool:
    """Meng adds a servant (already taken from his supply or pool) to an existing ship with room, else
    to a new ship; three servants on a ship earn a port reward at once, wherever it is."""
    name = meng(s)
    p = P(s, name)
    target = next((i for i, sh in enumerate(p["ships"]) if sh and c.ship_load(sh) < g.consts.ship_capacity), None)
    if target is None:
        targets = [item for item in c.ship_targets(g, s, name, 1) if item[1] is not None]
        if not targets:
            return False
        i, path = targets[0]
        port = c.first_free(g, s, path, g.consts.first_port - 1)
        own(p, "ships")[i] = {"path": path, "port": port, "load": []}
        target = i
    own(own(p, "ships"), target)["load"].append(1)
    ev.append({"event": "ship_servant", "player": name, "ship": target, "piece": "n"})
    run_rule(g, s, S + "ports", ev, ship=target, phase=phase)  # a full ship's reward, from his rule's effect
    return True


def ship_servants(g, s, n, source, ev, phase, fallback=False):
    """n servants from `source` (else the pool, with `fallback`) onto his ships; a servant no ship can
    take goes back to `source`."""
    for _ in range(n):
        if not take_servants(g, s, 1, source, fallback):
            break
        if not ship_servant(g, s, ev, phase):
            P(s, meng(s))[source] += 1
            return


def wall_servants(g, s, n, source, ev, special=False):
    name = meng(s)
    placed = 0
    for _ in range(n):
        if not take_servants(g, s, 1, source, fallback=special):
            break
        s["wall"].append([name, 1])
        placed += 1
    if placed:
        ev.append({"event": "wall", "player": name, "servants": placed})
    return placed


# ---------------------------------------------------------------- travel
def route_city(g, s) -> int | None:
    """Next city with a token along Meng's route; if none, the nearest city with a token."""
    p = P(s, meng(s))
    tok = s["map"]
    route = g.solo.route
    here = p["traveller"]
    start = route.index(here) + 1 if here in route else 0
    for i in range(len(route)):
        city = route[(start + i) % len(route)]
        if tok[city]:
            return city
    if here is None:
        return next((i for i, item in enumerate(tok) if item), None)
    dist, frontier = {here: 0}, [here]
    while frontier:
        nxt = []
        for x in frontier:
            for y in g.consts.roads[x]:
                if y not in dist:
                    dist[y] = dist[x] + 1
                    nxt.append(y)
        frontier = nxt
    found = sorted((d, city) for city, d in dist.items() if tok[city] and city != here)
    return found[0][1] if found else None


def travel(g, s, ev, phase):
    name = meng(s)
    p = P(s, name)
    city = route_city(g, s)
    if city is None:
        return
    token = s["map"][city]
    s["map"][city] = None
    p["traveller"] = city
    ev.append({"event": "travel", "player": name, "city": city, "token": token})
    if token in g.solo.token_rules:  # the phase decides what the token gives him
        run_rule(g, s, g.solo.token_rules[token], ev, phase=phase, token=token)
    else:  # the token's own reward, his servants placed his way (a payment only from his pool)
        run = g.effects.run(L.TOKEN + token, s, name, ev, choice={"phase": phase})
        if run.gained.get("wall"):
            c.wall_check(g, s, ev)
    # keep the token; a full row forces a trade (jade, else VP, else a servant)
    while len(p["tokens"]) >= g.consts.token_slots:
        if not any(_trade(g, s, kind, ev) for kind in ("jade", "vp", "servant")):
            break
    own(p, "tokens").append(token)
    while _trade_jade_possible(g, s):
        _trade(g, s, "jade", ev)


def _trade_jade_possible(g, s) -> bool:
    p = P(s, meng(s))
    value = c.tokens_worth(g, p["tokens"])
    return value >= g.consts.token_rates["jade"][0]


# ---------------------------------------------------------------- decrees
def choose_decree(g, s, free: bool) -> str | None:
    """The decree of the Day's level (level 3 on days 3-4), else lower levels, else higher ones;
    between two of a level the cheaper, else the lower one (the later on the board)."""
    name = meng(s)
    p = P(s, name)
    target = g.solo.decree_level[s["day"]]
    levels = [target] + list(range(target - 1, 0, -1)) + list(range(target + 1, g.consts.decree_levels + 1))
    for level in levels:
        cands = [k for k in s["decrees"] if g.consts.decrees[k]["level"] == level and k not in p["decrees"]]
        costs = {k: L.decree_cost(g, s, p, name, k) for k in cands}
        if not free:
            cands = [k for k in cands if _decree_affordable(g, s, costs[k])]
        if cands:
            return min(reversed(cands), key=lambda k: costs[k])
    return None


def _decree_affordable(g, s, cost) -> bool:
    p = P(s, meng(s))
    tokens = c.tokens_worth(g, p["tokens"])
    need, (_, per) = g.consts.token_rates["servant"]
    extra = min(p["supply"], tokens // need * per)
    return p["pool"] + extra >= cost + g.consts.decree_placed


def cheapest_jade(g, s) -> int | str:
    """The house whose roof holds the cheapest jade left, else the courtyard."""
    houses = [(g.consts.jade_houses[i]["cost"], i) for i, left in enumerate(s["jade_houses"]) if left]
    return min(houses)[1] if houses else V.COURTYARD


def take_free_jade(g, s, house, n, ev) -> None:
    """gugong/rule/solo-special-jade's place step: the cheapest jade, no servants removed."""
    if house != V.COURTYARD:
        s["jade_houses"][house] -= n
    c.gain_jade(s, meng(s), n, ev)


def buy_jade(g, s, house, ev) -> None:
    """gugong/rule/solo-jade-day's mechanism: the cheapest jade at its normal cost (already affordable)."""
    name = meng(s)
    c.pay(g, s, name, L.jade_cost(g, s, P(s, name), house), False, S + "jade-day", ev)
    if house != V.COURTYARD:
        s["jade_houses"][house] -= 1
    c.gain_jade(s, name, g.consts.jade_gained, ev)


def take_decree(g, s, key, free, ev):
    name = meng(s)
    p = P(s, name)
    if not free:
        if not pay(g, s, L.decree_cost(g, s, p, name, key) + g.consts.decree_placed, ev):
            return
        p["supply"] -= g.consts.decree_placed  # the last paid servant goes on the decree instead
    elif not take_servants(g, s, g.consts.decree_placed):
        return
    s["decrees"][key].append(name)
    own(p, "decrees").append(key)
    g.effects.run(L.DECREE + key, s, name, ev)
    if key in g.solo.decree_rules:  # his own rule for the decree (a lasting discount is its modify step)
        g.effects.run(g.solo.decree_rules[key], s, name, ev)
    ev.append({"event": "decree", "player": name, "decree": key})


# ---------------------------------------------------------------- Meng's location actions
def day_action(g, s, loc, ev, special: bool):
    name = meng(s)
    p = P(s, name)
    if loc in ("travel", "great-wall", "grand-canal"):  # Meng's rule for the location, run from its effect
        run_rule(g, s, S + (f"special-{loc}" if special else f"{DAY_RULES[loc]}-day"), ev, phase="day")
        if loc == "great-wall":
            for key in p["decrees"]:  # the decrees' steps for a wall action (the Great Wall decree's servant)
                g.effects.triggered(L.DECREE + key, L.ON_WALL_ACTION, s, name, ev)
            c.wall_check(g, s, ev)
    elif loc == "jade":
        house = cheapest_jade(g, s)
        if special:  # the cheapest jade for no servants (its place step: take_free_jade)
            run_rule(g, s, S + "special-jade", ev, house=house, phase="day")
        else:  # his rule: if he can pay for the cheapest jade, he buys it (buy_jade)
            run_rule(g, s, S + "jade-day", ev, house=house, phase="day")
    elif loc in ("intrigue", "palace"):  # Meng's rule for the location, run from its effect
        run_rule(g, s, S + (f"special-{loc}" if special else f"{loc}-day"), ev, phase="day")
    elif loc == "decrees" and special:  # his choice of decree, then his servant on it, from the rule's effect
        run_rule(g, s, S + "special-decrees", ev)
    elif loc == "decrees":
        key = choose_decree(g, s, special)
        if key:
            take_decree(g, s, key, special, ev)
    ev.append({"event": "location_action", "player": name, "location": loc, "special": special})


def card_action(g, s, card, ev, special: bool):
    name = meng(s)
    ability = g.consts.card_ability[card]
    if ability is None:
        return
    loc = L.ability_location(g, ability)
    if loc:
        day_action(g, s, loc, ev, special)
    elif g.effects.mechanisms(L.ABILITY + ability) == [V.SWAP]:  # he cannot exchange a card: a VP instead
        run_rule(g, s, S + "day-step-3", ev, ability=ability)
    else:  # the ability's own effect (servants)
        g.effects.run(L.ABILITY + ability, s, name, ev)


def dusk_action(g, s, automa: str, ev):
    """The lower part of an Automa card, if Meng can pay for it (else it is skipped)."""
    name = meng(s)
    kind = "special" if automa.startswith("s") else g.solo.faces[int(automa[1:])][1]
    kind = DAY_RULES.get(kind, kind)
    # the rule's payment (skipped if he cannot pay; less a decree's discount), placements, moves or free
    # travel, from its effect
    run_rule(g, s, S + f"{kind}-dusk", ev, phase="dusk")
    if kind == "wall":
        c.wall_check(g, s, ev)
    ev.append({"event": "dusk_action", "player": name, "action": kind})


# ---------------------------------------------------------------- Meng's turn, Dusk, decisions
def start_turn(g, s, ev):
    """Steps 1-2: reveal the Automa card and Meng's top gift card; exchange regardless of values."""
    name = meng(s)
    p = P(s, name)
    so = s["solo"]
    if not so["deck"]:  # reshuffle the discards of previous days
        so["deck"], so["discard"] = so["discard"], []
        Rng(s).shuffle(so["deck"])
    automa = so["deck"].pop(0)
    special = automa.startswith("s")
    loc = so["focus"] if special else g.solo.faces[int(automa[1:])][0]
    card = own(p, "hand").pop(0)
    own(p, "discard").append(s["board"][loc])
    s["board"][loc] = card
    so["today"].append(automa)
    ev.append({"event": "exchange", "player": name, "card": card, "location": loc, "automa": automa})
    so["todo"] = [["card", card, special], ["location", loc, special], ["end"]]


def step(g, s, ev):
    """Carry out Meng's next waiting step (steps 3-5 of his turn, or one Dusk card)."""
    item = s["solo"]["todo"].pop(0)
    if item[0] == "card":
        card_action(g, s, item[1], ev, item[2])
    elif item[0] == "location":
        day_action(g, s, item[1], ev, item[2])
    elif item[0] == "dusk":
        dusk_action(g, s, item[1], ev)
    elif item[0] == "end":
        from engine.gugong import day
        day.end_turn(g, s, ev)


def start_dusk(g, s, ev):
    s["phase"], s["step"] = "dusk", None
    s["solo"]["todo"] = [["dusk", a] for a in s["solo"]["today"]]
    ev.append({"event": "dusk"})


def end_dusk(g, s, ev):
    so = s["solo"]
    so["discard"] += so["today"]
    so["today"] = []
    s["phase"], s["step"] = "night", "dice"


def auto_decide(g, s, item, ev):
    """Meng's intrigue reward after a Wall scoring (jade high on the track, else a servant); nothing else waits for him."""
    name = meng(s)
    if item["kind"] == "intrigue_reward":  # his rule's first option whose condition holds, from its effect
        run_rule(g, s, S + "wall-scoring", ev)
        ev.append({"event": "intrigue_reward", "player": name})
    s["pending"].pop(0)


def morning_bonus(g, s, key, ev):
    """Meng takes every morning decree bonus; the card-exchange decree gives him 1 VP instead."""
    name = meng(s)
    if key in g.solo.decree_rules:  # his own rule for the decree's morning bonus
        g.effects.triggered(g.solo.decree_rules[key], morning.MORNING, s, name, ev)
    else:  # the decree's bonus, his servants placed his way (engine/gugong/vocabulary.py)
        morning.plain_bonus(g, s, name, key, ev, {"phase": morning.MORNING})
