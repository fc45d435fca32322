"""The seven location actions (rulebook pages 5-12, in board order), the gift card actions that
repeat them, travel token rewards and the small decisions these actions raise (pending decisions).

Each location has `do_<loc>` (carry out, raising IllegalAction) and `opts_<loc>` (every complete
parameter set that is legal now, for legal_actions).
"""
from __future__ import annotations

from collections import Counter

from engine.core.errors import IllegalAction, MalformedAction
from engine.core.state import own
from engine.gugong import common as c
from engine.gugong.common import P, V_HIGH_CARD, V_LASTING, V_NOTHING, V_PAY, V_RETRIEVE, V_SHIP, V_SWAP, V_WALL
from engine.gugong.common import P
from kb.messages import N_

R = "gugong/rule/"
AO = "gugong/action-option/"
DECREE = "gugong/decree/"
ON_WALL_ACTION = "on_wall_action"  # the moment the Great Wall decree adds its servant at
LOC = "gugong/location/"
REWARD = "gugong/reward/"
TOKEN = "gugong/token/"
ABILITY = "gugong/card-ability/"


def discount(g, p: dict, target: str) -> int:
    """Servants fewer for the action `target` (a location or an action option): the lasting `modify`
    steps of the player's level 2 decrees that name it ("may remove one servant fewer")."""
    return -g.effects.vocabulary.modified(p, target)


def _option(a: dict) -> str:
    o = a.get("option")
    if o not in ("A", "B"):
        raise MalformedAction(N_("option must be 'A' or 'B'"))
    return o


# ================================================================ 1. travel
def travel_cost(g, p: dict, option: str) -> int:
    return max(0, g.consts.travel[option][0] - discount(g, p, LOC + "travel"))


def do_travel(g, s, name, a, ev):
    do_option(g, s, name, a, ev, "travel")  # its payment (less a decree's discount) and its moves


def opts_travel(g, s, name):
    p = P(s, name)
    out = [{"option": "A"}]
    for d in c.pay_options(g, p, travel_cost(g, p, "B")):
        out.append({"option": "B", "double": d})
    return out


def travel_destinations(g, s, name) -> list[int]:
    """gugong/rule/travel-move: the first move goes to any city with a token; later moves follow the
    roads to a city with a token, passing over empty cities and other travellers."""
    tok = s["map"]
    here = P(s, name)["traveller"]
    if here is None:
        return [i for i, item in enumerate(tok) if item]
    seen, stack, out = {here}, [here], []
    while stack:
        x = stack.pop()
        for y in g.consts.roads[x]:
            if y in seen:
                continue
            seen.add(y)
            if tok[y]:
                out.append(y)
            else:
                stack.append(y)
    return sorted(out)


def decide_travel_move(g, s, name, a, ev):
    city = a.get("city")
    if city not in travel_destinations(g, s, name):
        raise IllegalAction(R + "travel-move", N_("the traveller cannot reach city %(city)r"), city=city)
    s["pending"].pop(0)
    P(s, name)["traveller"] = city
    token = s["map"][city]
    s["map"][city] = None
    ev.append({"event": "travel", "player": name, "city": city, "token": token})
    c.push(s, {"kind": "token_reward", "player": name, "token": token})


# ---- travel token rewards (gugong/rule/travel-token-list)
def token_reward_opts(g, s, name, token):
    """What the player may choose with the token's reward: read from its effect (what it asks of the
    player: engine/gugong/vocabulary.py, token_choice)."""
    p = P(s, name)
    at = g.consts.token_attrs[token]
    out = [{"use": False}]
    choice, amount = g.effects.vocabulary.token_choice(TOKEN + token)
    if token in g.consts.bonus_mix:  # gugong/variant/bonus-travel-tokens: a servant from the pool goes with it
        if p["pool"] >= at["servant_cost"]:
            out += [{"use": True}] if choice == V_LASTING else [{"use": True, "location": loc} for loc in g.consts.locations]
    elif choice == V_NOTHING:
        out.append({"use": True})
    elif choice == V_HIGH_CARD:
        out += [{"use": True, "card": x} for x in p["hand"] if g.consts.card_value[x] >= at["min_card_value"]]
    elif choice == V_SWAP:
        out += [dict(use=True, **o) for o in swap_opts(g, s, name)]
    elif choice == V_RETRIEVE:
        out += [{"use": True, "card": x} for x in sorted(set(p["discard"]))]
    elif choice == V_SHIP:
        out += [{"use": True, "ship": i, "path": path, "piece": pc} for pc in ("n", "d") if _has(p, pc, "supply")
                for i, path in c.ship_targets(g, s, name, _size(g, pc))]
    elif choice == V_WALL:
        out += [{"use": True, "piece": pc} for pc in ("n", "d") if _has(p, pc, "supply")]
    elif choice == V_PAY:
        out += [{"use": True, "double": d} for d in c.pay_options(g, p, amount)]
    return out


def _has(p, piece, source):
    return p["double"] == source if piece == "d" else p[source] > 0


def _size(g, piece):
    return g.consts.double_counts if piece == "d" else 1


def decide_token_reward(g, s, name, a, ev):
    item = s["pending"][0]
    token = item["token"]
    p = P(s, name)
    at = g.consts.token_attrs[token]
    rule = TOKEN + token
    gained: dict = {}
    if a.get("use"):
        if token == g.consts.double_token:
            raise IllegalAction(rule, N_("the double token has no reward of its own"))
        if token in g.consts.bonus_mix:
            # gugong/variant/bonus-travel-tokens: the token and a servant from the pool stay beside the
            # board (or by an action space) for the rest of the day; see day.end_of_day
            marks = g.effects.vocabulary.token_choice(rule)[0] != V_LASTING  # it marks an action space
            loc = a.get("location") if marks else None
            if marks and loc not in g.consts.locations:
                raise IllegalAction(rule, N_("mark one of the action spaces"))
            if p["pool"] < at["servant_cost"]:
                raise IllegalAction(rule, N_("a servant from your pool goes with the token"))
            g.effects.run(rule, s, name, ev, choice={"bonus": True})  # its servant goes with it (the vocabulary's place)
            own(p, "bonus").append({"token": token, "location": loc})
            s["pending"].pop(0)
            ev.append({"event": "bonus_token", "player": name, "token": token, "location": loc})
            return
        gained = g.effects.run(rule, s, name, ev, choice=a).gained  # the token's reward, from its effect
    elif token == g.consts.double_token:  # its effect is lasting: it counts double in an exchange (c.tokens_worth)
        g.effects.run(rule, s, name, ev)
    s["pending"].pop(0)
    # keep the token above the board; with no free slot, first make room (gugong/rule/travel-token-limit)
    if len(p["tokens"]) >= g.consts.token_slots:
        c.push(s, {"kind": "make_room", "player": name, "token": token})
    else:
        own(p, "tokens").append(token)
    ship = gained.get("claim")
    if ship is not None and c.claimable(g, s, name, ship):
        c.push(s, {"kind": "claim", "player": name, "ship": ship})
    if gained.get("wall"):
        c.wall_check(g, s, ev)


# ---- exchanging travel tokens (any time the player decides something)
def tokens_opts(g, s, name):
    p = P(s, name)
    if c.tokens_worth(g, p["tokens"]) < g.consts.fewest_tokens:  # asked at every decision: usually too few to exchange
        return []
    doubles = p["tokens"].count(g.consts.double_token)
    singles = len(p["tokens"]) - doubles
    out = []
    for kind, (need, (res, _)) in g.consts.token_rates.items():
        if kind == "servant" and p["supply"] == 0 and p["double"] != "supply":
            continue
        for d in range(0, doubles + 1):
            rest = max(0, need - d * g.consts.double_token_counts)
            if rest <= singles and (d == 0 or d * g.consts.double_token_counts - g.consts.double_token_counts < need):
                out.append({"for": kind, "doubles": d})
    return out


def _tokens_named(g, p, handed, need) -> list[str]:
    """The tokens an exchange names (`hand_in`): held, worth what the exchange needs (a double token
    counts as two), and none beyond it."""
    if not isinstance(handed, list) or not all(isinstance(x, str) for x in handed):
        raise MalformedAction(N_("tokens: 'hand_in' is a list of travel tokens"))
    missing = Counter(handed) - Counter(p["tokens"])
    if missing:
        raise IllegalAction(R + "travel-token-exchange", N_("tokens not held: %(tokens)s"), tokens=sorted(missing.elements()))
    worth = [c.tokens_worth(g, [x]) for x in handed]
    if sum(worth) < need:
        raise IllegalAction(R + "travel-token-exchange", N_("%(need)s travel tokens are needed, not %(given)s"), need=need, given=sum(worth))
    if any(sum(worth) - w >= need for w in worth):
        raise IllegalAction(R + "travel-token-exchange", N_("the exchange takes %(need)s travel tokens, not more"), need=need)
    return handed


def do_tokens(g, s, name, a, ev):
    p = P(s, name)
    kind = a.get("for")
    if kind not in g.consts.token_rates:
        raise MalformedAction(N_("tokens: 'for' is servant, vp or jade"))
    d = a.get("doubles", 0)
    if not isinstance(d, int) or d < 0:
        raise MalformedAction(N_("tokens: 'doubles' is a count"))
    need, (res, _) = g.consts.token_rates[kind]
    handed = a.get("hand_in")
    if handed is not None:  # the player names the tokens handed in (which ones matters for the rest)
        handed = _tokens_named(g, p, handed, need)
    else:
        if d > p["tokens"].count(g.consts.double_token):
            raise IllegalAction(R + "travel-token-exchange", N_("not enough double tokens"))
        rest = max(0, need - d * g.consts.double_token_counts)
        singles = [item for item in p["tokens"] if item != g.consts.double_token]
        if rest > len(singles):
            raise IllegalAction(R + "travel-token-exchange", N_("%(need)s travel tokens are needed"), need=need)
        handed = [g.consts.double_token] * d + singles[:rest]
    rule = g.consts.token_exchanges[kind]
    if res == "servant" and p["supply"] == 0 and p["double"] != "supply":
        raise IllegalAction(rule, N_("no servant in the general supply"))
    ev.append({"event": "tokens_exchanged", "player": name, "for": kind})
    g.effects.run(rule, s, name, ev, choice={"hand_in": handed})  # the tokens handed in, what they buy
    # a token waiting for a free slot is placed as soon as there is room
    if s["pending"] and s["pending"][0]["kind"] == "make_room" and s["pending"][0]["player"] == name \
            and len(p["tokens"]) < g.consts.token_slots:
        own(p, "tokens").append(s["pending"].pop(0)["token"])


# ================================================================ 2. great wall
def do_great_wall(g, s, name, a, ev):
    p = P(s, name)
    option = _option(a)
    pieces = a.get("pieces")
    if not isinstance(pieces, list) or not all(x in ("n", "d") for x in pieces):
        raise MalformedAction(N_("pieces: a list of 'n' (servant) and 'd' (double servant)"))
    if option == "A":
        if len(pieces) != g.consts.wall_a_place:
            raise IllegalAction(AO + "great-wall-a", N_("option A places %(wall_a_place)s servant"), wall_a_place=g.consts.wall_a_place)
    elif not 1 <= len(pieces) <= g.consts.wall_b_max:
        raise IllegalAction(AO + "great-wall-b", N_("option B places up to %(wall_b_max)s servants"), wall_b_max=g.consts.wall_b_max)
    if pieces.count("d") > 1:
        raise IllegalAction(R + "double-servant", N_("there is one double servant"))
    # the option's payment (never with the double servant) and its pieces from the pool, from its effect
    do_option(g, s, name, {k: v for k, v in a.items() if k != "double"}, ev, "great-wall")
    if a.get("extra"):  # a decree's extra servant for the wall action (the Great Wall decree)
        if not g.effects.vocabulary.triggered_at(p, ON_WALL_ACTION):
            raise IllegalAction(g.effects.vocabulary.decrees_at(ON_WALL_ACTION)[0],
                                N_("you do not hold the decree that adds a servant to the wall action"))
        for key in p["decrees"]:  # the decrees' steps for this moment, from their effects
            g.effects.triggered(DECREE + key, ON_WALL_ACTION, s, name, ev)
    c.wall_check(g, s, ev)  # completion is checked after the whole action


def opts_great_wall(g, s, name):
    p = P(s, name)
    dbl = p["double"] == "pool"
    out = []
    extras = [False, True] if g.effects.vocabulary.triggered_at(p, ON_WALL_ACTION) and p["supply"] > 0 else [False]
    a_sets = [["n"]] * (p["pool"] >= 1) + [["d"]] * dbl
    b_sets = []
    if p["pool"] >= g.consts.wall_b_cost:
        left = p["pool"] - g.consts.wall_b_cost
        b_sets = [["n"]] * (left >= 1) + [["n", "n"]] * (left >= 2) + [["d"]] * dbl + [["n", "d"]] * (dbl and left >= 1)
    for opt, sets in (("A", a_sets), ("B", b_sets)):
        for pcs in sets:
            for e in extras:
                out.append({"option": opt, "pieces": pcs, "extra": e})
    return out


def decide_intrigue_reward(g, s, name, a, ev):
    key = a.get("reward")
    p = P(s, name)
    if key is not None:
        at = g.consts.intrigue_rewards.get(key)
        if at is None:
            raise MalformedAction(N_("unknown intrigue reward %(key)r"), key=key)
        if p["intrigue"] < at["intrigue_cost"]:
            raise IllegalAction(R + "intrigue-rewards", N_("your intrigue marker is too low for that reward"))
        g.effects.run(REWARD + key, s, name, ev, choice=a)  # the cost on the track, then the reward
        ev.append({"event": "intrigue_reward", "player": name, "reward": key})
    s["pending"].pop(0)


def intrigue_reward_opts(g, s, name):
    p = P(s, name)
    out = [{"reward": None}]
    for key, at in sorted(g.consts.intrigue_rewards.items()):
        if p["intrigue"] < at["intrigue_cost"]:
            continue
        if "dice_turned" in at:
            out += [{"reward": key, "die": d, "face": f} for d in range(len(s["dice"])) for f in range(1, g.consts.die_faces + 1)
                    if s["dice"][d] != f]
        else:
            out.append({"reward": key})
    return out


# ================================================================ 3. jade
def jade_cost(g, s, p, house) -> int | None:
    if house == "courtyard":
        if any(s["jade_houses"]):
            return None  # the courtyard sells only when every house is sold out
        cost = g.consts.jade_courtyard
    elif isinstance(house, int) and 0 <= house < len(s["jade_houses"]) and s["jade_houses"][house] > 0:
        cost = g.consts.jade_houses[house]["cost"]
    else:
        return None
    return max(0, cost - discount(g, p, LOC + "jade"))


def do_jade(g, s, name, a, ev):
    p = P(s, name)
    house = a.get("house")
    if jade_cost(g, s, p, house) is None:
        raise IllegalAction(R + "jade-courtyard", N_("no jade to buy at %(house)r"), house=house)
    g.effects.run(AO + "jade-action", s, name, ev, choice=a)  # a house's jade, or the courtyard's


def opts_jade(g, s, name):
    p = P(s, name)
    out = []
    for house in list(range(len(s["jade_houses"]))) + ["courtyard"]:
        cost = jade_cost(g, s, p, house)
        if cost is not None:
            out += [{"house": house, "double": d} for d in c.pay_options(g, p, cost)]
    return out


# ================================================================ 4. intrigue
def do_option(g, s, name, a, ev, location: str) -> None:
    """The chosen option (A or B) of a location, run from its effect; the decisions it raises (the
    traveller's moves) come first."""
    run = g.effects.run(f"{AO}{location}-{_option(a).lower()}", s, name, ev, choice=a)
    c.push_many(s, run.gained.get("pending", []))


def do_intrigue(g, s, name, a, ev):
    do_option(g, s, name, a, ev, "intrigue")


def opts_intrigue(g, s, name):
    p = P(s, name)
    return [{"option": "A"}] + [{"option": "B", "double": d} for d in c.pay_options(g, p, g.consts.intrigue["B"][0])]


# ================================================================ 5. palace
def do_palace(g, s, name, a, ev):
    do_option(g, s, name, a, ev, "palace")


def opts_palace(g, s, name):
    p = P(s, name)
    return [{"option": "A"}] + [{"option": "B", "double": d} for d in c.pay_options(g, p, g.consts.palace_b[0])]


# ================================================================ 6. decrees
def place_on_decree(g, s, name, key, n: int) -> None:
    p = P(s, name)
    if p["pool"] < n:
        if p["double"] == "pool":  # the double servant is left, and it may not stand on a decree
            raise IllegalAction(R + "double-servant-restrictions", N_("a normal servant from your pool must go on the decree"))
        raise IllegalAction(AO + "decrees-action", N_("after paying, %(name)s has no servant left to place on the decree"), name=name)
    p["pool"] -= n
    s["decrees"][key].append(name)
    own(p, "decrees").append(key)


def decree_cost(g, s, p, name, key) -> int:
    at = g.consts.decrees[key]
    others = sum(1 for who in s["decrees"][key] if who != name)
    return max(0, at["servant_cost"] + g.consts.decree_extra * others - discount(g, p, AO + "decrees-action"))


def do_decrees(g, s, name, a, ev):
    p = P(s, name)
    key = a.get("decree")
    if key not in s["decrees"]:
        raise IllegalAction("gugong/location/decrees", N_("decree %(key)r is not in this game"), key=key)
    if name in s["decrees"][key]:
        raise IllegalAction(R + "decree-once", N_("you may take each decree only once"))
    # the cost (the decree's and one per other player's servant on it, as one payment), the servant
    # placed and the decree's own effect, from the Decrees action's effect
    g.effects.run(AO + "decrees-action", s, name, ev, choice=a)
    ev.append({"event": "decree", "player": name, "decree": key})


def opts_decrees(g, s, name):
    p = P(s, name)
    out = []
    for key in s["decrees"]:
        if name in s["decrees"][key]:
            continue
        cost = decree_cost(g, s, p, name, key)
        for d in c.pay_options(g, p, cost):
            left = p["pool"] - (cost - c.double_covers(g, cost) if d else cost)
            if left >= g.consts.decree_placed:
                out.append({"decree": key, "double": d})
    return out


# ================================================================ 7. grand canal
def do_grand_canal(g, s, name, a, ev):
    option = _option(a)
    if option == "B" and not canal_b_possible(g, P(s, name)):
        raise IllegalAction(AO + "grand-canal-b", N_("option B removes %(canal_b_cost)s servant from the pool to place %(canal_b_place)s others: %(name)s's pool cannot"),
            canal_b_cost=g.consts.canal_b_cost, canal_b_place=g.consts.canal_b_place, name=name)
    # the option's payment (never with the double servant) and the placements and moves it raises, from its effect
    run = g.effects.run(f"{AO}grand-canal-{option.lower()}", s, name, ev,
                        choice={k: v for k, v in a.items() if k != "double"})
    items = run.gained.get("pending", [])
    items.append({"kind": "canal_claims", "player": name})  # claims once the action is done
    c.push_many(s, items)


def canal_b_possible(g, p) -> bool:
    """Option B removes one servant to place two others (gugong-pl 919-924): the pool must hold all three."""
    return p["pool"] >= g.consts.canal_b_cost and c.pool_value(g, p) - g.consts.canal_b_cost >= g.consts.canal_b_place


def opts_grand_canal(g, s, name):
    return [{"option": "A"}] + ([{"option": "B"}] if canal_b_possible(g, P(s, name)) else [])


def canal_place_opts(g, s, name, item):
    p = P(s, name)
    out = [{"ship": None}] if item["optional"] else []
    for pc in ("n", "d"):
        if _has(p, pc, item["source"]):
            out += [{"ship": i, "path": path, "piece": pc} for i, path in c.ship_targets(g, s, name, _size(g, pc))]
    return out or [{"ship": None}]  # nothing can be placed: the placement lapses


def decide_canal_place(g, s, name, a, ev):
    item = s["pending"][0]
    ship = a.get("ship")
    if ship is None:
        if item["optional"] or canal_place_opts(g, s, name, item) == [{"ship": None}]:
            s["pending"].pop(0)
            return
        raise IllegalAction(AO + "grand-canal-b", N_("option B places two servants on your ships"))
    c.ship_place(g, s, name, ship, a.get("path"), a.get("piece", "n"), item["source"], ev)
    s["pending"].pop(0)


def canal_move_opts(g, s, name):
    p = P(s, name)
    return [{"ship": None}] + [{"ship": i} for i, sh in enumerate(p["ships"])
                               if sh and c.first_free(g, s, sh["path"], sh["port"]) is not None]


def decide_canal_move(g, s, name, a, ev):
    ship = a.get("ship")
    if ship is not None:
        p = P(s, name)
        if ship not in range(len(p["ships"])) or not p["ships"][ship] or not c.ship_move(g, s, name, ship, ev):
            raise IllegalAction(R + "canal-moving-ships", N_("that ship cannot move to a free port"))
    s["pending"].pop(0)


def decide_claim(g, s, name, a, ev):
    item = s["pending"][0]
    ship = item["ship"]
    kind = a.get("reward")
    if kind is not None:
        if kind not in c.claimable(g, s, name, ship):
            raise IllegalAction(R + "port-reward-limits", N_("reward %(kind)r cannot be claimed with this ship"), kind=kind)
        port = g.consts.port_ids[P(s, name)["ships"][ship]["port"]]
        # a servant marks the reward on the player board, the ship and its servants leave the canal
        g.effects.run(R + "canal-claim-reward", s, name, ev, choice={"reward": kind, "ship": ship})
        g.effects.run(port, s, name, ev, choice=a)  # the port's reward (its choice: the one claimed)
        ev.append({"event": "port_reward", "player": name, "reward": kind})
    s["pending"].pop(0)


def claim_opts(g, s, name, item):
    return [{"reward": None}] + [{"reward": k} for k in c.claimable(g, s, name, item["ship"])]


# ================================================================ gift card actions
def swap_opts(g, s, name):
    p = P(s, name)
    return [{"from": src, "card": x, "location": loc} for src in ("hand", "discard") for x in sorted(set(p[src]))
            for loc in g.consts.locations]


def swap_card(g, s, name, a, rule, ev):
    """Swap a card of your hand or discard pile with a board card; the new card goes where yours was."""
    p = P(s, name)
    src, card, loc = a.get("from"), a.get("card"), a.get("location")
    if src not in ("hand", "discard") or loc not in s["board"]:
        raise MalformedAction(N_("swap: from hand|discard, card, location"))
    if card not in p[src]:
        raise IllegalAction(rule, N_("%(card)r is not in your %(src)s"), card=card, src=src)
    own(p, src).remove(card)
    own(p, src).append(s["board"][loc])
    s["board"][loc] = card
    ev.append({"event": "swap", "player": name, "card": card, "location": loc})


DO = {"travel": do_travel, "great-wall": do_great_wall, "jade": do_jade, "intrigue": do_intrigue,
      "palace": do_palace, "decrees": do_decrees, "grand-canal": do_grand_canal}
OPTS = {"travel": opts_travel, "great-wall": opts_great_wall, "jade": opts_jade, "intrigue": opts_intrigue,
        "palace": opts_palace, "decrees": opts_decrees, "grand-canal": opts_grand_canal}
PARAMS = ("option", "double", "pieces", "extra", "house", "decree")


def ability_location(g, ability: str) -> str | None:
    """Card actions that repeat a location action name it in their effect (do_action)."""
    eff = g.consts.card_abilities[ability]["effect"]
    if eff and "do_action" in eff[0]:
        return eff[0]["do_action"]["action"].rsplit("/", 1)[1]
    return None


def do_card_action(g, s, name, ability, a, ev):
    g.effects.run(ABILITY + ability, s, name, ev, choice=a)  # the ability's effect (a location's action, ...)
    ev.append({"event": "card_action", "player": name, "ability": ability})


def card_action_opts(g, s, name, ability):
    loc = ability_location(g, ability)
    if loc:
        return OPTS[loc](g, s, name)
    if g.effects.vocabulary.token_choice(ABILITY + ability)[0] == V_SWAP:  # its effect is the swap mechanism
        return swap_opts(g, s, name)
    return [{}]


# ================================================================ bonus travel tokens (variant)
def after_location_action(g, s, name, loc, ev):
    """Marked action spaces: each token there runs its effect for this one time another player
    performs the action (the tax token takes VP from that player, the follow token lets its owner
    perform it too; its payment was made when it was placed). Follows trigger neither (engine assumption)."""
    for other in c.order_from(s, s["order"].index(name))[1:]:
        for b in P(s, other)["bonus"]:
            if b["location"] == loc:
                g.effects.run(TOKEN + b["token"], s, other, ev, choice={"bonus": True, "performed": name, "location": loc})


def follow_opts(g, s, name, item):
    return [{"use": False}] + [dict(use=True, **o) for o in OPTS[item["location"]](g, s, name)]


def decide_follow(g, s, name, a, ev):
    item = s["pending"].pop(0)
    if a.get("use"):
        DO[item["location"]](g, s, name, a, ev)
        ev.append({"event": "follow", "player": name, "location": item["location"]})


def gift_value_bonus(g, p: dict) -> int:
    return sum(g.consts.token_attrs[b["token"]].get("gift_value_bonus", 0) for b in p["bonus"])
