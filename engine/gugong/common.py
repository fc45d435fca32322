"""Shared mechanics every part of the rulebook uses: servants (and the double servant), tracks and
ties, the Great Wall, ships on the Grand Canal, travel tokens. Functions work on a private state copy.
"""
from __future__ import annotations

from engine.core.errors import IllegalAction, MalformedAction
from engine.core.state import own
from kb.messages import N_

R = "gugong/rule/"
ONE_STEP = {"steps": 1}  # the palace steps a run of palace-extra-steps is for (move_palace runs it per step)


def token_piles(g, tokens: list) -> list[list]:
    """Travel tokens split into the setup's number of face-down draw piles, as equal as they go
    (gugong/setup-step/travel-tokens); the morning makes new piles the same way."""
    n = g.consts.draw_piles
    size = -(-len(tokens) // n)
    return [tokens[i * size:(i + 1) * size] for i in range(n)]


def P(s: dict, name: str) -> dict:
    return s["players"][name]


def order_from(s: dict, start: int) -> list[str]:
    seats = s["order"]
    return [seats[(start + i) % len(seats)] for i in range(len(seats))]


# ---------------------------------------------------------------- servants
def pool_value(g, p: dict) -> int:
    """What the servant pool can pay: the double servant counts as two (gugong/rule/double-servant-remove)."""
    return p["pool"] + (g.consts.double_removed if p["double"] == "pool" else 0)


def pay(g, s: dict, name: str, n: int, use_double: bool, rule: str, events: list) -> None:
    """Remove n servants from the pool to the general supply. The double servant may replace two, or
    one: it "can be used as one or two servants" (gugong-pl 1005-1007, gugong-cs 905-907)."""
    p = P(s, name)
    if n <= 0:
        return
    if use_double:
        if p["double"] != "pool":
            raise IllegalAction(R + "double-servant-remove", N_("the double servant is not in your pool"))
        rest = n - double_covers(g, n)
        if p["pool"] < rest:
            raise IllegalAction(rule, N_("%(name)s cannot pay %(n)s servants"), name=name, n=n)
        p["double"] = "supply"
        p["pool"] -= rest
        p["supply"] += rest
    else:
        if p["pool"] < n:
            raise IllegalAction(rule, N_("%(name)s has %(pool)s servants in the pool and cannot pay %(n)s"), name=name, pool=p['pool'], n=n)
        p["pool"] -= n
        p["supply"] += n
    events.append({"event": "pay_servants", "player": name, "servants": n, "double": bool(use_double)})


def double_covers(g, n: int) -> int:
    """How many servants of a payment of n the double servant stands for: two, or one when one is due."""
    return min(n, g.consts.double_removed)


def can_pay(g, p: dict, n: int, use_double: bool) -> bool:
    if n <= 0:
        return not use_double
    if use_double:
        return p["double"] == "pool" and p["pool"] >= n - double_covers(g, n)
    return p["pool"] >= n


def pay_options(g, p: dict, n: int) -> list[bool]:
    """The ways to pay n servants: plain servants (False) and/or with the double servant (True)."""
    return [d for d in (False, True) if can_pay(g, p, n, d)]


def gain_servants(s: dict, name: str, n: int, events: list) -> int:
    """Move up to n servants from the general supply to the pool; returns how many could move.

    Any one move may take the double servant instead of a normal one, and taking it is the player's
    choice (gugong/rule/double-servant-gain, "mozesz wziac" / "muzete si najmout"): normal servants
    move now, and the offer becomes a `take_double` decision right after the step that gained them
    (offer_double_servants). Meng has no use for the choice and takes it as before."""
    p = P(s, name)
    got = 0
    while got < n and p["supply"] > 0:
        p["supply"] -= 1
        p["pool"] += 1
        got += 1
    if got:
        events.append({"event": "gain_servants", "player": name, "servants": got})
    if n <= 0 or p["double"] != "supply":
        return got
    if s.get("solo") and s["solo"].get("meng") == name:
        if got == n:  # the double takes the place of one normal servant
            p["supply"] += 1
            p["pool"] -= 1
        p["double"] = "pool"
        events.append({"event": "take_double", "player": name})
        return got if got == n else got + 1
    offers = s.setdefault("double_offers", [])
    if not any(o["player"] == name for o in offers):
        offers.append({"kind": "take_double", "player": name, "swap": got == n})
    return got if got == n else got + 1


def offer_double_servants(s: dict) -> None:
    """The double servant offers raised by the last step become decisions, before any other."""
    offers = s.pop("double_offers", None)
    if offers:
        push_many(s, offers)


def decide_take_double(s: dict, name: str, a: dict, events: list) -> None:
    item = s["pending"].pop(0)
    if a.get("take") not in (True, False):
        raise MalformedAction(N_("take_double: give take: true or false"))
    p = P(s, name)
    if a["take"] and p["double"] == "supply":
        if item.get("swap"):  # it comes instead of one of the normal servants just gained
            if p["pool"] < 1:
                raise IllegalAction(R + "double-servant-gain", N_("no normal servant left to give back for the double servant"))
            p["pool"] -= 1
            p["supply"] += 1
        p["double"] = "pool"
        events.append({"event": "take_double", "player": name})


# ---------------------------------------------------------------- tracks
def gain_vp(s: dict, name: str, n: int, events: list) -> None:
    p = P(s, name)
    p["vp"] = max(0, p["vp"] + n)
    if n:
        events.append({"event": "vp", "player": name, "vp": n})


def move_intrigue(g, s: dict, name: str, steps: int, events: list) -> None:
    """Move on the intrigue track (at most its last space); landing puts the marker on top of a stack."""
    p = P(s, name)
    new = max(0, min(g.consts.intrigue_max, p["intrigue"] + steps))
    if new != p["intrigue"]:
        p["intrigue"] = new
        s["stamp"] += 1
        p["istamp"] = s["stamp"]  # gugong/rule/intrigue-stacking: the newest arrival lies on top
        events.append({"event": "intrigue", "player": name, "space": new})


def rank_key(s: dict, name: str) -> tuple[int, int]:
    """Higher wins ties (gugong/rule/tie-breaking): position, then the marker on top."""
    p = P(s, name)
    return (p["intrigue"], p["istamp"])


def best(s: dict, names: list[str], score) -> str | None:
    """The player with the highest score, ties broken on the intrigue track; None if nobody scores."""
    cands = [n for n in names if score(n) > 0]
    if not cands:
        return None
    return max(cands, key=lambda n: (score(n),) + rank_key(s, n))


def move_palace(g, s: dict, name: str, steps: int, events: list) -> None:
    """Move the envoy up; at the last space it enters the palace on the best free spot; steps beyond
    that give 1 VP each instead (gugong/rule/palace-entry, gugong/rule/palace-extra-steps)."""
    p = P(s, name)
    for _ in range(steps):
        if p["palace"] >= g.consts.palace_end:  # one step beyond: the rule's effect, for that step
            g.effects.run(R + "palace-extra-steps", s, name, events, choice=ONE_STEP)
            continue
        p["palace"] += 1
        if p["palace"] == g.consts.palace_end:
            s["palace_spots"].append(name)
            events.append({"event": "enter_palace", "player": name, "spot": len(s["palace_spots"])})


def gain_jade(s: dict, name: str, n: int, events: list) -> None:
    P(s, name)["jade"] += n  # the general supply is unlimited (gugong/rule/jade-courtyard)
    events.append({"event": "jade", "player": name, "jade": n})


# ---------------------------------------------------------------- great wall
def wall_count(s: dict, name: str) -> int:
    return sum(size for who, size in s["wall"] if who == name)


def wall_total(s: dict) -> int:
    return sum(size for _, size in s["wall"])


def wall_place(g, s: dict, name: str, piece: str, source: str, events: list) -> None:
    """Put a normal ("n") or the double ("d") servant from the pool or the general supply on the Wall."""
    p = P(s, name)
    if piece == "d":
        if p["double"] != source:
            raise IllegalAction(R + "double-servant-placement", N_("%(name)s's double servant is not in the %(source)s"), name=name, source=source)
        p["double"] = "wall"
        s["wall"].append([name, g.consts.double_counts])
    else:
        if p[source] < 1:
            raise IllegalAction(R + "icon-place-servants", N_("%(name)s has no servant in the %(source)s"), name=name, source=source)
        p[source] -= 1
        s["wall"].append([name, 1])
    events.append({"event": "wall", "player": name, "piece": piece})


WALL_COMPLETED = "wall_completed"  # the moment of gugong/rule/wall-completion's trigger


def wall_check(g, s: dict, events: list) -> None:
    """After an action: a complete section is scored at once, then the intrigue rewards are offered,
    as the completion rule's trigger orders them (its `rule:` steps: the vocabulary's wall_score and
    wall_rewards)."""
    if wall_total(s) < g.consts.threshold(len(s["order"])):
        return
    g.effects.triggered(R + "wall-completion", WALL_COMPLETED, s, s["order"][0], events)


def wall_score(g, s: dict, shared: dict, events: list) -> None:
    """gugong/rule/wall-scoring for everyone, run from its effect: the ranking taken once, before anyone
    scores; the winner's servants leave the Wall."""
    present = shared["present"] = [n for n in s["order"] if wall_count(s, n) > 0]
    winner = best(s, present, lambda n: wall_count(s, n))
    events.append({"event": "wall_scoring", "winner": winner})
    ranking = {"wall": winner}  # the ranking the rule's condition reads
    for name in s["order"]:
        g.effects.run(R + "wall-scoring", s, name, events, shared=ranking)
    wall_remove(s, winner)


def wall_rewards(g, s: dict, shared: dict) -> None:
    """gugong/rule/intrigue-rewards for those on the Wall: lowest marker first (bottom of a stack counts lowest)."""
    present = shared["present"]
    push_many(s, [{"kind": "intrigue_reward", "player": n}
                  for n in sorted(present, key=lambda n: rank_key(s, n)) for _ in range(g.consts.rewards_per_player)])


def wall_remove(s: dict, name: str) -> None:
    """The winner's servants go to the general supply; the others slide left (order is kept)."""
    p = P(s, name)
    keep = []
    for who, size in s["wall"]:
        if who != name:
            keep.append([who, size])
        elif size == 1:
            p["supply"] += 1
        else:
            p["double"] = "supply"
    s["wall"] = keep


# ---------------------------------------------------------------- grand canal
def occupied(s: dict) -> set[tuple[int, int]]:
    return {(sh["path"], sh["port"]) for n in s["order"] for sh in P(s, n)["ships"] if sh}


def first_free(g, s: dict, path: int, after: int) -> int | None:
    occ = occupied(s)
    for port in range(after + 1, g.consts.last_port + 1):
        if (path, port) not in occ:
            return port
    return None


def ship_load(sh: dict) -> int:
    return sum(sh["load"])


def ship_targets(g, s: dict, name: str, size: int) -> list[tuple[int, int | None]]:
    """(ship, path) pairs where a piece of `size` may go: a ship on the canal with room, or a ship
    beside the board put on the first free port of a path (gugong/rule/canal-new-ship)."""
    p = P(s, name)
    out = []
    new_done = False
    for i, sh in enumerate(p["ships"]):
        if sh:
            if ship_load(sh) + size <= g.consts.ship_capacity:
                out.append((i, None))
        elif not new_done:
            new_done = True  # the ships beside the board are alike: offer the first one
            for path in range(s["paths"]):
                if first_free(g, s, path, g.consts.first_port - 1) is not None:
                    out.append((i, path))
    return out


def ship_place(g, s: dict, name: str, ship: int, path: int | None, piece: str, source: str, events: list) -> None:
    p = P(s, name)
    if not isinstance(ship, int) or not 0 <= ship < len(p["ships"]):
        raise IllegalAction(R + "canal-adding-servants", N_("no such ship"))
    size = g.consts.double_counts if piece == "d" else 1
    sh = p["ships"][ship]
    if sh is None:
        if path not in range(s["paths"]):
            raise IllegalAction(R + "canal-paths", N_("a new ship needs a path of the canal"))
        port = first_free(g, s, path, g.consts.first_port - 1)
        if port is None:
            raise IllegalAction(R + "canal-new-ship", N_("no free port on that path"))
        sh = own(p, "ships")[ship] = {"path": path, "port": port, "load": []}
        events.append({"event": "new_ship", "player": name, "ship": ship, "path": path, "port": port})
    if ship_load(sh) + size > g.consts.ship_capacity:
        raise IllegalAction(R + "canal-adding-servants", N_("the ship has no free spot"))
    if piece == "d":
        if p["double"] != source:
            raise IllegalAction(R + "double-servant-placement", N_("the double servant is not in the %(source)s"), source=source)
        p["double"] = "ship"
    else:
        if p[source] < 1:
            raise IllegalAction(R + "icon-place-servants", N_("%(name)s has no servant in the %(source)s"), name=name, source=source)
        p[source] -= 1
    own(own(p, "ships"), ship)["load"].append(size)
    events.append({"event": "ship_servant", "player": name, "ship": ship, "piece": piece})


def ship_move(g, s: dict, name: str, ship: int, events: list) -> bool:
    """Move one space forward to the next free port of the ship's path, skipping occupied ones."""
    sh = own(own(P(s, name), "ships"), ship)
    port = first_free(g, s, sh["path"], sh["port"])
    if port is None:
        return False
    sh["port"] = port
    events.append({"event": "ship_move", "player": name, "ship": ship, "port": port})
    return True


def ship_clear(g, s: dict, name: str, ship: int) -> None:
    """The ship goes back beside the board; its servants go to the general supply."""
    p = P(s, name)
    for size in p["ships"][ship]["load"]:
        if size == 1:
            p["supply"] += 1
        else:
            p["double"] = "supply"
    own(p, "ships")[ship] = None


def claimable(g, s: dict, name: str, ship: int) -> list[str]:
    """Rewards the ship may claim now (full, in a reward port, free spot on the player board)."""
    p = P(s, name)
    sh = p["ships"][ship]
    if not sh or ship_load(sh) < g.consts.ship_capacity or 1 not in sh["load"]:
        return []
    port = g.consts.ports[sh["port"]]
    kinds = {"vp": ["vp4"], "gift_card": ["gift_card"], "double_servant": ["double_servant"],
             "choice": ["vp4", "gift_card", "double_servant"]}.get(port["reward"], [])
    out = []
    for kind in kinds:
        if p["ports"][kind] >= g.consts.port_limits[kind]:
            continue
        if kind == "double_servant" and p["double"] != "locked":
            continue
        if kind == "gift_card" and not s["draw"]:
            continue  # assumption: with an empty draw pile there is no card to take
        out.append(kind)
    return out


def offer_claims(g, s: dict, name: str) -> None:
    for i in range(len(P(s, name)["ships"])):
        if claimable(g, s, name, i):
            push(s, {"kind": "claim", "player": name, "ship": i})


# ---------------------------------------------------------------- travel tokens
# what a token's reward asks the player to choose, read from its effect (GugongVocabulary.token_choice)
V_NOTHING, V_LASTING, V_HIGH_CARD, V_SWAP, V_RETRIEVE, V_SHIP, V_WALL, V_PAY = (
    "nothing", "lasting", "high card", "swap", "retrieve", "ship", "wall", "pay")


def tokens_worth(g, tokens: list[str]) -> int:
    """What travel tokens count as in an exchange: the double token as its modify step says, others one."""
    return sum(g.consts.double_token_counts if x == g.consts.double_token else 1 for x in tokens)


# ---------------------------------------------------------------- pending decisions
def push(s: dict, item: dict, last: bool = False) -> None:
    """Decisions wait in s["pending"]; the first one is decided next. New decisions raised while
    carrying out a step go before the remaining ones (last=True keeps them in their given order)."""
    if last:
        s["pending"].append(item)
    else:
        s["pending"].insert(0, item)


def push_many(s: dict, items: list[dict]) -> None:
    s["pending"][0:0] = items

