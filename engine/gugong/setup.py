"""Components and setup (rulebook "Przygotowanie gry" / "Příprava hry"): the start state."""
from __future__ import annotations

from engine.core.errors import EngineError, IllegalAction
from engine.core.rng import Rng
from engine.core.settle import Broken, named, settle_items
from engine.gugong import common as c
from engine.gugong import solo
from kb.messages import N_

SOLO_OPTIONS = ("solo", "solo_sets", "focus")
SERVANTS, JADE = "gugong/setup-step/servants", "gugong/setup-step/jade"


def new_state(g, players: list[str], options: dict, seed: int) -> dict:
    k = g.consts
    # option "others": extra seats after the named players (a worked example that names one player
    # still needs a 2-5 player game around it)
    players = list(players) + [x for x in options.get("others", []) if x not in players]
    solo_game = len(players) == 1
    if solo_game:  # gugong/variant/solo: Meng takes the second seat, the player starts
        if options.get("bonus_travel_tokens"):
            raise IllegalAction("gugong/rule/solo-setup-basic-tokens", N_("the solo game uses only the basic travel tokens"))
        players = players + [g.solo.meng]
        options = dict(options, first_player=players[0])
    g.game_type.check_players(players)  # the player range and names: the game type's one check
    s: dict = {"game": "gugong", "order": list(players), "options": dict(options), "rng": Rng.seed_state(seed),
               "day": k.day_start, "phase": "day", "step": None, "stamp": 0,
               "paths": k.paths(g.solo.board_players if solo_game else len(players)), "pending": [], "medal": None, "palace_spots": [],
               "wall": [], "result": None}
    rng = Rng(s)
    # first player token: chosen at random (gugong/setup-step/first-player)
    first = options.get("first_player")
    s["first"] = players.index(first) if first in players else rng.below(len(players))
    s["turn"] = s["first"]
    s["stage"] = "exchange"
    s["acts"] = {}
    seats = [players[(s["first"] + i) % len(players)] for i in range(len(players))]
    s["players"] = {}
    for i, name in enumerate(seats):
        s["players"][name] = {
            "pool": 0, "supply": 0, "double": "locked",
            "hand": [], "discard": [], "vp": k.vp_start, "jade": 0,
            "palace": k.palace_start, "intrigue": k.intrigue_start, "istamp": i,  # stacked in turn order, first at the bottom
            "traveller": None, "tokens": [],
            "ships": [None] * k.ships, "ports": {kind: 0 for kind in k.port_limits}, "decrees": [],
            "bonus": []}
    s["stamp"] = len(seats)
    for name in seats:  # each player's servants: the pool and the general supply, from the setup step's effect
        g.effects.run(SERVANTS, s, name, [])
    # travel tokens: one face up on each city, the rest in equal draw piles
    tokens = [key for key, count in k.token_mix.items() for _ in range(count)]
    if options.get("bonus_travel_tokens"):  # gugong/variant/bonus-travel-tokens: shuffled in with the rest
        tokens += [key for key, count in k.bonus_mix.items() for _ in range(count)]
    rng.shuffle(tokens)
    s["map"] = tokens[:k.cities]
    s["token_piles"] = c.token_piles(g, tokens[k.cities:])
    s["token_discard"] = []
    # jade on the roofs of the houses
    g.effects.run(JADE, s, seats[0], [])  # on each marked space of the roofs, from the setup step's effect
    # decrees: two random tiles of each level
    s["decrees"] = {}
    for level in range(1, k.decree_levels + 1):
        tiles = sorted(key for key, at in k.decrees.items() if at["level"] == level)
        rng.shuffle(tiles)
        for key in sorted(tiles[:k.decrees_per_level]):
            s["decrees"][key] = []
    # gift cards: board cards on the locations, draw pile, a starting set per player in turn order
    for i, name in enumerate(seats):
        s["players"][name]["hand"] = [c for c in k.cards if k.card_setup[c] == f"set{i + 1}"]
    dealt = {c for n in seats for c in s["players"][n]["hand"]}
    if options.get("advanced"):
        # gugong/rule/advanced-gift-deck: board cards, draw-pile cards and the unused sets make one
        # shuffled deck; its top seven go to the locations, the rest is the draw pile
        deck = [c for c in k.cards if c not in dealt]
        rng.shuffle(deck)
        board, draw = deck[:k.advanced_board_cards], deck[k.advanced_board_cards:]
    else:
        board = [c for c in k.cards if k.card_setup[c] == "board"]
        rng.shuffle(board)
        board = board[:k.display_cards]
        draw = [c for c in k.cards if k.card_setup[c] == "draw"]
        rng.shuffle(draw)
    s["board"] = dict(zip(k.locations, board))
    s["draw"] = draw
    used = set(board) | set(draw) | dealt
    s["box"] = [c for c in k.cards if c not in used]
    s["solo"] = None
    # the solo game's options are refused in a game of several players, not ignored (gugong/variant/solo)
    given = [x for x in SOLO_OPTIONS if x in options and options[x] != g.game_type.option(x).default]
    if given and not solo_game:
        raise IllegalAction("gugong/variant/solo", N_("%(options)s: options of the solo game, which is played by one player, not %(players)s"),
            options=', '.join(given), players=len(players))
    if solo_game:
        try:
            solo.setup(g, s, players[0], options, rng)
        except ValueError as exc:
            raise EngineError(str(exc)) from None
    # destiny dice
    s["dice"] = [rng.die(k.die_faces) for _ in range(k.dice)]
    return s


# ---------------------------------------------------------------- scenario setups (engine.core.settle)
def settle(g, s: dict, setup: dict) -> None:
    """What a scenario's setup hands a player comes out of its supply: gift cards out of the draw pile
    and the box (cards no longer anywhere go to the box; a player's dealt card the setup gives another
    is replaced from the draw pile), travel tokens out of their draw piles, decree tiles it names onto the
    board (in place of an unheld tile of the same level), servants out of the player's own supply."""
    k = g.consts
    fixed, dealt, supplies = [s["board"]], [], []
    for n in s["order"]:
        for x in ("hand", "discard"):
            (fixed if named(setup, "players", n, x) else dealt).append(s["players"][n][x])
    for key in ("draw", "box"):
        (fixed if named(setup, key) else supplies).append(s[key])
    settle_items(k.cards, fixed, supplies, None if named(setup, "box") else s["box"].append, dealt,
                 lambda card: s["draw"].pop() if s["draw"] and not named(setup, "draw") else None)
    # travel tokens a player is handed come out of the draw piles
    if not named(setup, "token_piles"):
        for name in s["order"]:
            for token in s["players"][name]["tokens"] if named(setup, "players", name, "tokens") else []:
                pile = next((x for x in s["token_piles"] if token in x), None)
                if pile is not None:
                    pile.remove(token)
    # a decree tile the setup names was drawn in place of one it does not name, of the same level
    wanted = set(setup.get("decrees") or {}) if isinstance(setup.get("decrees"), dict) else set()
    for name in s["order"]:
        if named(setup, "players", name, "decrees"):
            wanted |= {d for d in s["players"][name]["decrees"] if d in k.decrees}
            for d in s["players"][name]["decrees"]:
                if d in k.decrees and name not in s["decrees"].setdefault(d, []):
                    s["decrees"][d].append(name)
    for level in range(1, k.decree_levels + 1):
        tiles = sorted(d for d in s["decrees"] if d in k.decrees and k.decrees[d]["level"] == level)
        spare = [d for d in tiles if d not in wanted and not s["decrees"][d]]
        for d in spare[:max(0, len(tiles) - k.decrees_per_level)]:
            del s["decrees"][d]
    for name in s["order"]:
        if not named(setup, "players", name, "decrees"):
            s["players"][name]["decrees"] = sorted(d for d, holders in s["decrees"].items() if name in holders)
    for name in s["order"]:
        if not named(setup, "players", name, "supply"):
            p = s["players"][name]
            p["supply"] = k.servants_total - (servants_placed(g, s, name) - p["supply"])


def servants_placed(g, s: dict, name: str) -> int:
    """A player's servants wherever they are (the double servant apart): the conservation count."""
    k, p = g.consts, s["players"][name]
    on_wall = sum(1 for who, size in s["wall"] if who == name and size == 1)
    on_ships = sum(sh["load"].count(1) for sh in p["ships"] if sh)
    on_decrees = sum(1 for holders in s["decrees"].values() for who in holders if who == name)
    parked = sum(k.token_attrs[b["token"]]["servant_cost"] for b in p["bonus"])
    return p["pool"] + p["supply"] + on_wall + on_ships + on_decrees + sum(p["ports"].values()) + parked


def composition(g, s: dict) -> list[str]:
    """The component lists and the setup chapter: two decree tiles of each level, one gift card on
    each location, the destiny dice, the jade on the houses' roofs, each player's ships, the solo
    game's automa only in a one-player game."""
    k = g.consts
    bad: list[str] = []
    levels: dict[int, int] = {}
    for d in s["decrees"]:
        if d not in k.decrees:
            bad.append(Broken(N_("%(decree)r is not a decree tile"), "gugong/setup-step/decrees"))
            continue
        levels[k.decrees[d]["level"]] = levels.get(k.decrees[d]["level"], 0) + 1
    for level in range(1, k.decree_levels + 1):
        if levels.get(level, 0) != k.decrees_per_level:
            bad.append(Broken(N_("%(n)s decree tiles of level %(level)s in play, not %(want)s"),
                              "gugong/setup-step/decrees", n=levels.get(level, 0), level=level, want=k.decrees_per_level))
    if sorted(s["board"]) != sorted(k.locations) or any(card not in k.card_setup for card in s["board"].values()):
        bad.append(Broken(N_("each location holds one gift card"), "gugong/setup-step/gift-cards"))
    if len(s["dice"]) != k.dice:
        bad.append(Broken(N_("%(n)s destiny dice, not %(want)s"), "gugong/setup-step/destiny-dice", n=len(s["dice"]), want=k.dice))
    solo_seats = 2  # the player and Meng, the automa (gugong/variant/solo)
    if s.get("solo") is not None and len(s["order"]) != solo_seats:
        bad.append(Broken(N_("the solo game is played by one player, not %(n)s"), "gugong/variant/solo", n=len(s["order"]) - 1))
    if len(s["jade_houses"]) != len(k.jade_houses) or any(
            not 0 <= left <= h["jade"] for left, h in zip(s["jade_houses"], k.jade_houses)):
        bad.append(Broken(N_("the jade houses hold %(jade)s, more than their roofs or less than none"),
                          "gugong/setup-step/jade", jade=s["jade_houses"]))
    for name in s["order"]:
        p = s["players"][name]
        if len(p["ships"]) != k.ships:
            bad.append(Broken(N_("%(player)s has %(n)s ships, not %(want)s"), "gugong/setup-step/ships", player=name, n=len(p["ships"]),
                              want=k.ships))
        if p["jade"] < 0:
            bad.append(Broken(N_("%(player)s has negative jade"), "gugong/setup-step/jade", player=name))
        unknown = sorted({x for x in p["tokens"] if x not in k.token_attrs})
        if unknown:
            bad.append(Broken(N_("%(player)s holds %(tokens)s, not travel tokens"), "gugong/setup-step/travel-tokens", player=name,
                              tokens=unknown))
    return bad
