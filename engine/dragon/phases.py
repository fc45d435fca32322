"""The initial persons (draft), phase 1 (actions: dragons on card groups, paying for an occupied group,
topping money up to 3 yuan) and phase 2 (person cards)."""
from __future__ import annotations

from engine.core.errors import IllegalAction
from engine.core.state import own
from engine.dragon import common as c
from kb.messages import N_

R = "dragon/rule/"
A = "dragon/action/"
T = "dragon/tile/"
MARKER = R + "person-marker"  # a new person tile moves the marker by its value
PERSON_PHASE = "dragon/phase/person"
S = "dragon/setup-step/"


# ---------------------------------------------------------------- initial persons
def draft_choices(k, s: dict, name: str) -> list[dict]:
    avail = [x for x in k.young if s["supply"][x] > 0 and k.subtypes[x]["age"] == k.draft_age]
    taken = {tuple(sorted(pair)) for pair in s["drafted"]}
    out = []
    for i, a in enumerate(avail):
        for b in avail[i + 1:]:
            ta, tb = k.subtypes[a]["type"], k.subtypes[b]["type"]
            if ta != tb and tuple(sorted((ta, tb))) not in taken:
                out.append((a, b))
    return out


def do_draft(g, k, s: dict, name: str, a: dict, ev: list) -> None:
    pair = a.get("persons")
    if not (isinstance(pair, list) and len(pair) == k.draft_count and all(isinstance(x, str) for x in pair)):
        raise IllegalAction(S + "initial-persons", N_("choose %(draft_count)s person tiles"), draft_count=k.draft_count)
    for x in pair:
        if x not in k.subtypes or k.subtypes[x]["age"] != k.draft_age:
            raise IllegalAction(S + "initial-persons", N_("%(x)r is not a young person tile"), x=x)
        if s["supply"][x] <= 0:
            raise IllegalAction(R + "exhausted-tiles", N_("no %(x)s tiles are left"), x=x)
    types = sorted(k.subtypes[x]["type"] for x in pair)
    if len(set(types)) != len(types):
        raise IllegalAction(S + "initial-persons", N_("two different persons"))
    if types in [sorted(item) for item in s["drafted"]]:
        raise IllegalAction(S + "initial-persons", N_("this combination has already been chosen"))
    p = c.P(s, name)
    palaces = a.get("palaces", list(range(len(pair))))
    if not (isinstance(palaces, list) and len(palaces) == len(pair) and all(isinstance(i, int) and 0 <= i < len(p["palaces"]) for i in palaces)):
        raise IllegalAction(R + "palace-capacity", N_("palaces: one palace index per person"))
    for x, i in zip(pair, palaces):
        if i not in c.room(k, p):
            raise IllegalAction(R + "palace-capacity", N_("palace %(i)s is full"), i=i)
        s["supply"][x] -= 1
        own(p, "palaces")[i]["persons"].append(x)
    s["drafted"].append(types)
    ev.append({"event": "draft", "player": name, "persons": list(pair)})
    for x in pair:
        k.effects.run(MARKER, s, name, ev, choice={"person": x})
    s["queue"].pop(0)


# ---------------------------------------------------------------- phase 1: actions
def lay_out(k, s: dict) -> None:
    """dragon/phase/action: shuffle the action cards, lay them out in as many groups as players."""
    from engine.core.rng import Rng
    gw = s["options"]["great_wall"]
    cards = list(k.actions) + ([k.gw_card] if gw else [])
    Rng(s).shuffle(cards)
    groups, i = [], 0
    for size in k.groups(len(s["order"]), gw):
        groups.append(cards[i:i + size])
        i += size
    s["groups"] = groups
    s["dragons"] = [[] for _ in groups]


def floors_of(k, s: dict, name: str, entity: str) -> int:
    """The palace floors an action card's or a wall tile's effect gives the player now (counted
    without changing the state: the player then distributes them). An effect that gains no floor
    anywhere is not run: listing the legal actions asked this of every wall tile at every decision."""
    if not k.effects.gains(entity, "palace_floor"):
        return 0
    return k.effects.run(entity, s, name, [], dry=True).gained.get("palace_floor", 0)


def builds(k, card: str) -> bool:
    return k.effects.gains(A + card, "palace_floor")


def wall_open(k, s: dict, p: dict) -> bool:
    # dragon/unknown/gw-wall-exhausted: only with an unused wall tile and room in the wall
    return bool(p["wall"]) and len(s["wall"]) < k.wall_max


def action_choices(k, s: dict, name: str) -> list[dict]:
    p = c.P(s, name)
    out: list[dict] = [{"type": "refill", "player": name}]
    seen = set()
    gw_card = getattr(k, "gw_card", None)
    for gi, group in enumerate(s["groups"]):
        cost = k.occupied_cost if s["dragons"][gi] else 0
        if p["yuan"] < cost:
            continue
        for card in group:
            sig = (card, cost)
            if sig in seen:
                continue
            seen.add(sig)
            base = {"type": "action", "player": name, "group": gi, "card": card}
            if card == gw_card:
                if wall_open(k, s, p):
                    for tile in sorted(set(p["wall"])):
                        floors = floors_of(k, s, name, T + tile)
                        if floors:
                            for add, new in c.build_options(k, p, floors):
                                out.append({**base, "tile": tile, "add": add, "new": new})
                        else:
                            out.append({**base, "tile": tile})
            elif builds(k, card):
                for add, new in c.build_options(k, p, floors_of(k, s, name, A + card)):
                    out.append({**base, "add": add, "new": new})
            elif card == "privilege":
                for size in ("small", "large"):
                    if p["yuan"] - cost >= k.price[size]:
                        out.append({**base, "size": size})
            else:
                out.append(base)
    return out


def do_refill(k, s: dict, name: str, ev: list) -> None:
    k.effects.run(R + "pass-for-money", s, name, ev)
    ev.append({"event": "refill", "player": name})
    s["queue"].pop(0)


def do_action(k, s: dict, name: str, a: dict, ev: list) -> None:
    p = c.P(s, name)
    gi, card = a.get("group"), a.get("card")
    if not isinstance(gi, int) or not 0 <= gi < len(s["groups"]):
        raise IllegalAction("dragon/phase/action", N_("there is no card group %(gi)r"), gi=gi)
    if card not in s["groups"][gi]:
        raise IllegalAction("dragon/phase/action", N_("group %(gi)s has no %(card)r card"), gi=gi, card=card)
    k.effects.run(R + "occupied-group", s, name, ev, choice=a)
    if card == getattr(k, "gw_card", None):
        do_wall(k, s, name, a, ev)
    else:
        gained = k.effects.run(A + card, s, name, ev, choice=a).gained.get("palace_floor", 0)
        if gained:
            c.check_build(k, p, gained, a.get("add"), a.get("new"), A + card)
            c.do_build(s, name, a.get("add"), a.get("new"), ev)
    s["dragons"][gi].append(name)
    ev.append({"event": "action", "player": name, "group": gi, "card": card})
    s["queue"].pop(0)


def do_wall(k, s: dict, name: str, a: dict, ev: list) -> None:
    p = c.P(s, name)
    tile = a.get("tile")
    if not wall_open(k, s, p):
        raise IllegalAction("dragon/unknown/gw-wall-exhausted", N_("no unused wall tile or the wall is complete"))
    if tile not in p["wall"]:
        raise IllegalAction("dragon/action/great-wall", N_("%(name)s has no unused wall tile %(tile)r"), name=name, tile=tile)
    # the action's effect: its option for the chosen tile applies that tile's effect (its bonus)
    floors = k.effects.run(A + k.gw_card, s, name, ev, choice=a).gained.get("palace_floor", 0)
    if floors:  # dragon/unknown/gw-palace-floor-bonus: built at once, as with Build
        c.check_build(k, p, floors, a.get("add"), a.get("new"), T + tile)
        c.do_build(s, name, a.get("add"), a.get("new"), ev)
    k.effects.run(R + "gw-wall-placement", s, name, ev, choice=a)
    ev.append({"event": "wall", "player": name, "tile": tile, "length": len(s["wall"])})


# ---------------------------------------------------------------- phase 2: persons
def tiles_for(k, s: dict, card: str) -> list[str]:
    if card == "joker":  # dragon/rule/joker-card: any tile of any row
        return [x for x in k.subtypes if s["supply"][x] > 0]
    supply = s["supply"]
    return [x for x in k.symbols_by_type.get(card, ()) if supply[x] > 0]  # the type's tiles, in rulebook order


def person_choices(k, s: dict, name: str) -> list[dict]:
    p = c.P(s, name)
    out = []
    places = c.placements(k, p)
    for card in sorted(set(p["hand"])):
        tiles = tiles_for(k, s, card)
        if not tiles:
            out.append({"type": "person", "player": name, "card": card, "person": None, "palace": None})
        for x in tiles:
            for i, j in places:
                act = {"type": "person", "player": name, "card": card, "person": x, "palace": i}
                if j is not None:
                    act["slot"] = j
                out.append(act)
    return out


def do_person(k, s: dict, name: str, a: dict, ev: list) -> None:
    p = c.P(s, name)
    card, x = a.get("card"), a.get("person")
    if card not in p["hand"]:
        raise IllegalAction("dragon/phase/person", N_("%(name)s has no %(card)r person card in hand"), name=name, card=card)
    tiles = tiles_for(k, s, card)
    if x is None:
        if tiles:
            raise IllegalAction("dragon/phase/person", N_("take the person tile matching the card"))
    elif x not in tiles:
        fits = x in k.subtypes and card in ("joker", k.subtypes[x]["type"])
        raise IllegalAction(R + "exhausted-tiles" if fits else "dragon/phase/person",
                            N_("the %(card)s card cannot take a %(x)r tile now"), card=card, x=x)
    k.effects.run(PERSON_PHASE, s, name, ev, choice=a)  # the card played, the tile taken, the marker moved
    s["queue"].pop(0)
