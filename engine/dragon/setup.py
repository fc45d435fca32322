"""Setup (rulebook: Przygotowanie gry): bank, person tiles by player count, event track, player components,
the expansions' extra parts; the initial persons are drafted as actions (phase "draft")."""
from __future__ import annotations

from collections import Counter

from engine.core.errors import IllegalAction, MalformedAction
from engine.core.settle import Broken, named
from engine.core.rng import Rng
from engine.dragon.vocabulary import SETUP_PALACES
from kb.messages import N_

def options(g, opts: dict, players: list[str]) -> dict:
    opts = g.game_type.check_options(opts, players)
    ed = str(opts.get("edition", g.default_edition))
    if ed not in g.consts_by_edition:
        raise MalformedAction(N_("edition must be one of %(editions)s"), editions=sorted(g.consts_by_edition))
    k = g.consts_by_edition[ed]
    out = {"edition": ed, "great_wall": bool(opts.get("great_wall", False)),
           "great_events": bool(opts.get("great_events", False)), "great_event": opts.get("great_event"),
           "others": list(opts.get("others") or [])}
    for key, exp, ok in (("great_wall", "great-wall", k.gw_ok), ("great_events", "great-events", k.ge_ok)):
        if out[key] and not ok:
            raise IllegalAction(f"dragon/variant/{exp}", N_("the %(exp)s expansion is played only with the %(editions)s edition, not %(ed)s"),
                exp=exp, editions='/'.join(k.expansion_editions[exp]), ed=ed)
    if out["great_event"] is not None:
        if not out["great_events"]:
            raise IllegalAction("dragon/setup-step/ge-setup-choose-event", N_("a great event is chosen only with the Great Events expansion"))
        if out["great_event"] not in k.great_events:
            raise MalformedAction(N_("great_event must be one of %(great_events)s"), great_events=k.great_events)
    return out


def event_track(k, rng: Rng) -> list[str]:
    """dragon/setup-step/event-track: 2 peace tiles, then the other tiles drawn at random; an identical tile
    drawn next to its twin moves to the next free space (the gap takes the next tile drawn)."""
    tiles = [e for e in k.events if e != k.peace for _ in range(k.per_event)]
    rng.shuffle(tiles)
    track: list = [k.peace] * k.peace_first + [None] * (k.track_spaces - k.peace_first)
    for item in tiles:
        free = [i for i, x in enumerate(track) if x is None]
        spot = next((i for i in free if track[i - 1] != item and (i + 1 >= len(track) or track[i + 1] != item)), free[-1])
        track[spot] = item
    # dragon/unknown/event-track-last-duplicate: identical last two tiles -> swap the two spaces it names (1-based)
    if track[-1] == track[-2]:
        first, second = (space - 1 for space in k.last_dup_ruling["swap_spaces"])
        track[first], track[second] = track[second], track[first]
    return track


def new_state(g, players: list[str], opts: dict, seed: int) -> dict:
    o = options(g, opts, list(players))
    names = list(players) + [n for n in o["others"] if n not in players]
    k = g.consts_by_edition[o["edition"]]
    g.game_type.check_players(names)
    s = {"game": "dragon", "order": names, "options": o, "rng": Rng.seed_state(seed),
         "round": 0, "phase": "draft", "steps": [], "queue": list(names), "pending": [], "stamp": 0,
         "groups": [], "dragons": [], "drafted": [], "wall": [], "great_event": None, "sunrise": [],
         "result": None}
    rng = Rng(s)
    s["events"] = event_track(k, rng)
    if o["great_events"]:
        s["great_event"] = o["great_event"] or rng.choice(list(k.great_events))
    s["supply"] = k.tiles(len(names))
    s["released"] = {sub: 0 for sub in k.subtypes}
    hand = list(k.types) + ["joker"] * k.jokers
    s["players"] = {}
    for i, n in enumerate(names):
        s["players"][n] = {
            "yuan": 0, "rice": 0, "fireworks": 0, "vp": k.start_vp, "person": k.start_person,
            "stamp": 0, "palaces": [],
            "privileges": {"small": 0, "large": 0}, "hand": list(hand),
            "wall": list(k.wall_tiles) if o["great_wall"] else [], "final": None}
    # markers on space 0: the first seat's on top (any order will do: every marker moves in the draft)
    for n in reversed(names):
        s["stamp"] += 1
        s["players"][n]["stamp"] = s["stamp"]
    s["bank"] = {"yuan": k.total_yuan, "rice": k.total_rice, "fireworks": k.total_fireworks,
                 "floors": k.total_floors, "small": k.total_small, "large": k.total_large}
    for name in names:  # each player's palaces and money, from the bank, as its setup step's effect says
        g.effects.run(SETUP_PALACES, s, name, [])
    return s


# ---------------------------------------------------------------- scenario setups (engine.core.settle)
def settle(g, s: dict, setup: dict) -> None:
    """What a scenario's setup hands a player comes out of the bank and the person tile supply,
    unless the setup names those itself."""
    k = g.consts(s)
    P = s["players"]
    for what, total in (("yuan", k.total_yuan), ("rice", k.total_rice), ("fireworks", k.total_fireworks)):
        if not named(setup, "bank", what):
            s["bank"][what] = total - sum(P[n][what] for n in s["order"])
    if not named(setup, "bank", "floors"):
        s["bank"]["floors"] = k.total_floors - sum(pal["floors"] for n in s["order"] for pal in P[n]["palaces"])
    for z, total in (("small", k.total_small), ("large", k.total_large)):
        if not named(setup, "bank", z):
            s["bank"][z] = total - sum(P[n]["privileges"][z] for n in s["order"])
    placed = Counter(x for n in s["order"] for pal in P[n]["palaces"] for x in pal["persons"])
    for x, total in k.tiles(len(s["order"])).items():
        if not named(setup, "supply", x):
            s["supply"][x] = total - s["released"][x] - placed[x]


def composition(g, s: dict) -> list[str]:
    """The component lists and the setup chapter: the event track (two peace tiles first, the others
    by their count, never two identical tiles side by side after the peace tiles), the action cards
    in the groups, person tiles of the kinds printed (craftsmen, court ladies and tax collectors only
    young), each player's person cards."""
    k = g.consts(s)
    bad: list[str] = []  # the bank may run short: other markers stand in (dragon/rule/supply-shortage)
    track = s["events"]
    rule = "dragon/setup-step/event-track"
    want = Counter({e: k.per_event for e in k.events if e != k.peace})
    want[k.peace] = k.peace_first
    if len(track) != k.track_spaces or track[:k.peace_first] != [k.peace] * k.peace_first or Counter(track) != want:
        bad.append(Broken(N_("the event track is not %(peace)s peace tiles followed by the other event tiles, %(each)s of each"),
                          rule, peace=k.peace_first, each=k.per_event))
    twins = sorted({a for i, (a, b) in enumerate(zip(track, track[1:])) if a == b and i + 1 >= k.peace_first})
    if twins:
        bad.append(Broken(N_("two %(events)s tiles side by side on the event track"), rule,
                          events=", ".join(map(str, twins))))
    cards = [x for group in s["groups"] for x in group]
    known = list(k.actions) + ([k.gw_card] if s["options"]["great_wall"] else [])
    if len(cards) != len(set(cards)) or any(x not in known for x in cards):
        bad.append(Broken(N_("the action groups hold %(cards)s: each of the action cards at most once"),
                          "dragon/component/action-cards", cards=cards))
    if len(s["dragons"]) != len(s["groups"]):
        bad.append(Broken(N_("a dragon stands beside no group of action cards"), "dragon/phase/action"))
    for n in s["order"]:
        p = s["players"][n]
        strange = sorted({x for pal in p["palaces"] for x in pal["persons"] if x not in k.subtypes})
        if strange:
            bad.append(Broken(N_("%(player)s's palaces hold %(tiles)s, which no person tile is"),
                              "dragon/component/person-tiles", player=n, tiles=strange))
        cards = Counter(p["hand"])
        if any(x not in k.types and x != "joker" for x in cards) or cards["joker"] > k.jokers \
                or any(m > 1 for x, m in cards.items() if x != "joker"):
            bad.append(Broken(N_("%(player)s's person cards are not one of each type and %(jokers)s jokers at most"),
                              "dragon/component/cards", player=n, jokers=k.jokers))
    return bad
