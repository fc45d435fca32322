"""Components and setup (rulebook "Przygotowanie gry" / "Příprava hry"): the start state."""
from __future__ import annotations

from engine.core.errors import EngineError
from engine.core.rng import Rng
from engine.gugong import solo


def new_state(g, players: list[str], options: dict, seed: int) -> dict:
    k = g.k
    # option "others": extra seats after the named players (a worked example that names one player
    # still needs a 2-5 player game around it)
    players = list(players) + [x for x in options.get("others", []) if x not in players]
    solo_game = len(players) == 1
    if solo_game:  # gugong/variant/solo: Meng takes the second seat, the player starts
        if options.get("bonus_travel_tokens"):
            raise EngineError("the solo game uses only the basic travel tokens (gugong/rule/solo-setup-basic-tokens)")
        players = players + [g.solo.meng]
        options = dict(options, first_player=players[0])
    lo, hi = g.rules.meta["players"]["min"], g.rules.meta["players"]["max"]
    if not lo <= len(players) <= hi or len(set(players)) != len(players):
        raise EngineError(f"gugong is played by {lo}-{hi} players with distinct names")
    s: dict = {"game": "gugong", "order": list(players), "options": dict(options), "rng": Rng.seed_state(seed),
               "day": k.day_start, "phase": "day", "step": None, "stamp": 0,
               "paths": k.paths(len(players)), "pending": [], "medal": None, "palace_spots": [],
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
            "pool": k.start_pool, "supply": k.start_supply, "double": "locked",
            "hand": [], "discard": [], "vp": k.vp_start, "jade": 0,
            "palace": k.palace_start, "intrigue": k.intrigue_start, "istamp": i,  # stacked in turn order, first at the bottom
            "traveller": None, "tokens": [],
            "ships": [None] * k.ships, "ports": {kind: 0 for kind in k.port_limits}, "decrees": [],
            "bonus": []}
    s["stamp"] = len(seats)
    # travel tokens: one face up on each city, the rest in two equal draw piles
    tokens = [key for key, count in k.token_mix.items() for _ in range(count)]
    if options.get("bonus_travel_tokens"):  # gugong/variant/bonus-travel-tokens: shuffled in with the rest
        tokens += [key for key, count in k.bonus_mix.items() for _ in range(count)]
    rng.shuffle(tokens)
    s["map"] = tokens[:k.cities]
    rest = tokens[k.cities:]
    half = (len(rest) + 1) // 2
    s["token_piles"] = [rest[:half], rest[half:]]
    s["token_discard"] = []
    # jade on the roofs of the houses
    s["jade_houses"] = [h["jade"] for h in k.jade_houses]
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
    if solo_game:
        try:
            solo.setup(g, s, players[0], options, rng)
        except ValueError as exc:
            raise EngineError(str(exc)) from None
    # destiny dice
    s["dice"] = [rng.die(k.die_faces) for _ in range(k.dice)]
    return s
