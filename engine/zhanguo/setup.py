"""ZhanGuo setup (rulebook: Setup, and the B sides with their auction): the board, decks, supplies and
player boards; who starts; with sides "B" each player chooses a board in reverse starting order, with
"auction" the boards are bid for in VP."""
from __future__ import annotations

from engine.core.settle import Broken, named, settle_items
from engine.zhanguo.common import P
from engine.zhanguo.vocabulary import PLAYER_SUPPLY
from kb.messages import N_


def new_state(g, players, options=None, seed=0):
    k = g.consts
    declared = g.game_type
    options = declared.check_options(options, [str(p) for p in players])
    players = [str(p) for p in players] + [str(p) for p in options.get("others") or []]
    declared.check_players(players)
    for option in declared.options:  # the state records every option's value
        if option.default is not None:
            options.setdefault(option.name, option.default)
    s = {"game": "zhanguo", "seats": players, "options": options, "rng": g.rng_seed(seed),
         "round": k.round_start, "phase": "setup", "pending": [], "stage": None, "turn": 0, "order": [],
         "aspects": list(k.aspect_order), "court": [], "column": {}, "result": None, "auction": None,
         "workers_out": 0}
    rng = g.rng(s)
    n = len(players)
    if options.get("first_player") in players:
        first = options["first_player"]
    else:
        first = players[rng.below(n)] if k.first_player_random else players[0]
    i0 = players.index(first)
    clockwise = players[i0:] + players[:i0]
    s["first"] = first
    s["track"] = list(clockwise)  # zhanguo/unknown/rewards-track-start-order
    decks = {}
    for c in k.colours:
        lo, hi = k.deck_range[c]
        d = [x for x in range(lo, hi + 1) if x in k.cards]
        rng.shuffle(d)
        decks[c] = d
    s["decks"] = decks
    s["supply"] = {"m1": {c: k.m1_by_players[n] for c in k.colours}, "m3": {c: k.m3_per_colour for c in k.colours}}
    s["board"] = {
        "governors": {r: [] for r in k.regions},
        "palaces": {r: [None] * k.palace_spaces[n] for r in k.regions},
        "walls": [[None] * k.spaces_per_section for _ in range(k.sections)],
        "wall_tokens": [], "tasks": {}}
    toks = [list(item) for item in k.wall_tokens]
    rng.shuffle(toks)
    s["board"]["wall_tokens"] = [item[rng.below(len(item))] for item in toks[:k.sections]]
    for item in k.task_types:
        keys = sorted(k.task_tokens[item])
        rng.shuffle(keys)
        for i, sec in enumerate(k.task_sections):
            s["board"]["tasks"].setdefault(sec, {})[item] = {"token": keys[i], "discs": []}
    s["players"] = {}
    for name in players:
        p = {"vp": k.start_vp, "side": "A", "board": None, "hand": [], "draft": [],
             "supply": {c: 0 for c in k.official_colours}, "governors": 0, "palaces": 0, "walls": 0, "cubes": 0,
             "discs": k.task_discs, "m1": {c: 0 for c in k.colours}, "m3": {c: 0 for c in k.colours},
             "regions": {r: {"gov": {c: 0 for c in k.official_colours}, "work": {c: 0 for c in k.official_colours},
                             "workers": 0, "unrest": 0, "cards": []} for r in k.regions}}
        s["players"][name] = p
        g.effects.run(PLAYER_SUPPLY, s, name, [])  # the player's pieces, as the setup step's effect says
        for c, m in k.start_officials.items():
            p["supply"][c] -= m
            p["regions"][str(k.start_region)]["gov"][c] += m
    if options["sides"] == "B":  # boards chosen in reverse starting order
        s["phase"] = "boards"
        s["free_boards"] = list(k.boards)
        s["pending"] = [{"kind": "board", "player": nm} for nm in reversed(clockwise)]
    elif options["sides"] == "auction":
        s["phase"] = "auction"
        boards = list(k.boards)
        rng.shuffle(boards)
        s["free_boards"] = sorted(boards[k.boards_discarded[n]:], key=k.boards.index)
        for p in s["players"].values():
            p["vp"] = k.auction_vp
        start_auction(g, s, clockwise, first)
    else:
        s["phase"] = "draw"
    return s


def start_auction(g, state, remaining, opener):
    state["auction"] = {"remaining": list(remaining), "active": list(remaining), "turn": opener, "high": 0, "leader": None}
    if len(remaining) == 1:  # the last board always costs the last player 1 VP
        P(state, opener)["vp"] -= g.consts.last_board_cost
        state["auction"] = None
        state["pending"] = [{"kind": "board", "player": opener}]
    else:
        state["pending"] = [{"kind": "bid", "player": opener}]


def auction_next(g, state, events):
    au = state["auction"]
    if len(au["active"]) == 1 and au["leader"] is not None:
        win = au["leader"]
        P(state, win)["vp"] -= au["high"]
        events.append({"event": "auction_won", "player": win, "vp": au["high"]})
        rest = [n for n in au["remaining"] if n != win]
        seats = state["seats"]
        i = seats.index(win)
        nxt = next((seats[(i + d) % len(seats)] for d in range(1, len(seats) + 1) if seats[(i + d) % len(seats)] in rest), None)
        state["pending"] = [{"kind": "board", "player": win}]
        state["auction_next"] = {"remaining": rest, "opener": nxt}
        return
    seats = au["remaining"]
    i = seats.index(au["turn"])
    for d in range(1, len(seats) + 1):
        nm = seats[(i + d) % len(seats)]
        if nm in au["active"]:
            au["turn"] = nm
            break
    state["pending"] = [{"kind": "bid", "player": au["turn"]}]


# ---------------------------------------------------------------- scenario setups (engine.core.settle)
PIECES = ("governors", "palaces", "walls", "cubes", "discs")


def pieces_out(k, s: dict, name: str) -> dict[str, int]:
    """How many of each of a player's pieces are out of the player's supply: the conservation count."""
    p = P(s, name)
    return {"governors": sum(1 for r in k.regions for gv in s["board"]["governors"][r] if gv["player"] == name),
            "palaces": sum(sp.count(name) for sp in s["board"]["palaces"].values()),
            "walls": sum(sp.count(name) for sp in s["board"]["walls"]),
            "cubes": sum(1 for r in p["regions"].values() if r["unrest"] > 0),
            "discs": sum(1 for sec in s["board"]["tasks"].values() for item in sec.values() if name in item["discs"])}


def settle(g, s: dict, setup: dict) -> None:
    """What a scenario's setup hands a player comes out of its supply: cards out of the decks (a card
    no longer anywhere goes to the bottom of its colour's deck), officials, governors, palaces, walls,
    unrest markers and discs out of the player's supply, markers out of the general supply, workers
    out of the worker supply."""
    k = g.consts
    seats = s["seats"]
    fixed, dealt = [s.get("discards") or {}], []
    (fixed if named(setup, "court") else dealt).append(s["court"])
    for name in seats:
        p = P(s, name)
        for key in ("hand", "draft"):
            (fixed if named(setup, "players", name, key) else dealt).append(p[key])
        fixed += [r["cards"] for r in p["regions"].values()]
    decks = {c: d for c, d in s["decks"].items() if not named(setup, "decks", c)}
    fixed += [d for c, d in s["decks"].items() if c not in decks]

    def colour(card):
        return next((c for c, (lo, hi) in k.deck_range.items() if lo <= card <= hi), None)

    def bottom(card):
        if colour(card) in decks:
            decks[colour(card)].insert(0, card)

    def draw(card):  # a dealt card the setup gave elsewhere: its place takes the top card of that colour
        deck = decks.get(colour(card))
        return deck.pop() if deck else None

    settle_items(list(k.cards), fixed, list(decks.values()), bottom, dealt, draw)
    for name in seats:
        p = P(s, name)
        for c in k.official_colours:
            if not named(setup, "players", name, "supply", c):
                p["supply"][c] = k.officials_per_colour - sum(r["gov"][c] + r["work"][c] for r in p["regions"].values())
        out = pieces_out(k, s, name)
        for key in PIECES:
            if not named(setup, "players", name, key):
                p[key] = getattr(k, "task_discs" if key == "discs" else key) - out[key]
    if not named(setup, "workers_out"):
        s["workers_out"] = sum(r["workers"] for name in seats for r in P(s, name)["regions"].values())
    for size, total in (("m1", lambda: k.m1_by_players[len(seats)]), ("m3", lambda: k.m3_per_colour)):
        for c in k.colours:
            if not named(setup, "supply", size, c):
                s["supply"][size][c] = total() - sum(P(s, x)[size][c] for x in seats)


def composition(g, s: dict) -> list[str]:
    """The component lists and the setup chapter: four player boards with different symbols, each
    on at most one player's table; a player plays side A or the B side of the board taken."""
    k = g.consts
    bad: list[str] = []
    rule = "zhanguo/setup-step/player-boards"
    taken = [P(s, n)["board"] for n in s["seats"] if P(s, n)["board"] is not None]
    for board in sorted({b for b in taken if taken.count(b) > 1}, key=str):
        bad.append(Broken(N_("two players play the same B board %(board)r"), rule, board=board))
    for name in s["seats"]:
        p = P(s, name)
        if p["board"] is not None and p["board"] not in k.boards:
            bad.append(Broken(N_("%(player)s's board %(board)r is not one of %(boards)s"), rule, player=name,
                              board=p["board"], boards=k.boards))
        if p["side"] not in ("A", p["board"]):
            bad.append(Broken(N_("%(player)s plays side %(side)r without that board"), rule, player=name, side=p["side"]))
    for board in s.get("free_boards") or []:
        if board in taken:
            bad.append(Broken(N_("board %(board)r is both taken and free"), rule, board=board))
    return bad
