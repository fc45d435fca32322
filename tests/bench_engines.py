"""Benchmark: full random games per second for each engine (`make bench`).

The engine loop is the random agent's loop: list the legal actions, pick one at random, apply it.
The baseline, measured in the same run, is the same loop without game logic: it picks a random
action from the very lists the engine produced at each step and copies (state.copy, a deep copy)
the very states the engine saw. The ratio says what a decision costs against that bookkeeping; the
target is at most 1.0 (apply copies only what an action touches: engine/core/state.py).

The machine this runs on may be shared: times are CPU time of this process (time.process_time),
engine and baseline alternate for a few rounds and the best round of each counts. Timings are
printed, never asserted.

With RULEKB_PEER_YOTD=/path/to/a/checkout of github.com/brandonr49/board_game_engine, the bench
also plays that implementation's In the Year of the Dragon (base game, 5 random players, the
fastest public Python one we know of) in the same run. Its code is never part of this repository.
"""
from __future__ import annotations

import gc
import os
import random
import sys
import time
from itertools import combinations

from engine.core import state as st
from engine.core.game import get_game

# (game, players, options, games)
CASES = [
    ("gugong", 4, {}, 40),
    ("dragon", 5, {"edition": "2017"}, 100),
    ("dragon", 5, {"edition": "2017", "great_wall": True, "great_events": True}, 100),
    ("zhanguo", 4, {}, 40),
]
ROUNDS = 3
PEER_GAMES = 100


def play(game, names, seed, options, record=None) -> int:
    state = game.new_state(names, dict(options), seed)
    # the random player is the harness's, not the engine's: Python's generator, as the peer's agent and
    # the baseline use (the engine's own chance stays its keyed SHA-256 generator, engine/core/rng.py)
    agent = random.Random(seed * 7919 + 1)
    steps = 0
    while not game.is_terminal(state):
        legal = game.legal_actions(state)
        if record is not None:
            record.append((state, legal))
        state, _ = game.apply(state, legal[agent.randrange(len(legal))])
        steps += 1
    return steps


def baseline(recorded: list) -> None:
    agent = random.Random(17)
    for state, legal in recorded:
        legal[agent.randrange(len(legal))]
        st.copy(state)


def best_of(rounds: int, *runs):
    """Best CPU time of each callable over alternating rounds (load from elsewhere only slows)."""
    best = [float("inf")] * len(runs)
    for _ in range(rounds):
        for i, run in enumerate(runs):
            t0 = time.process_time()
            run()
            best[i] = min(best[i], time.process_time() - t0)
    return best


def measure(key: str, players: int, options: dict, games: int) -> float:
    game = get_game(key)
    names = [f"P{i + 1}" for i in range(players)]
    recorded: list = []  # (state, legal actions) at every step of the same games, untimed
    for seed in range(games):
        play(game, names, seed, options, recorded)
    steps = len(recorded)
    gc.freeze()  # the recorded states are not garbage: keep the collector from rescanning them
    engine_s, base_s = best_of(ROUNDS, lambda: [play(game, names, seed, options) for seed in range(games)],
                               lambda: baseline(recorded))
    gc.unfreeze()
    label = ", ".join(f"{k}={v}" for k, v in options.items()) or "default options"
    print(f"{key} {players}-player random games ({label}): {games} games, {steps} actions")
    print(f"  engine:   {games / engine_s:8.1f} games/s  {steps / engine_s:10.0f} actions/s")
    print(f"  baseline: {games / base_s:8.1f} games/s  {steps / base_s:10.0f} actions/s (random choice + state copy)")
    print(f"  ratio: a decision takes {engine_s / base_s:.2f}x the baseline's time (target <= 1.0)")
    return games / engine_s


# ---------------------------------------------------------------- the public peer (optional)
def peer_dragon(path: str, games: int) -> tuple[float, int, int, int]:
    """Random 5-player base games of brandonr49/board_game_engine's In the Year of the Dragon.

    Its engine offers action templates (choose a group, place floors, ...); the agent expands them
    into every concrete action and picks one uniformly, as our random agent does. It draws its own
    chance from the `random` module, seeded per game here. A game it cannot continue otherwise
    counts as a game played (in its favour: such games are shorter)."""
    sys.path.insert(0, path)
    try:
        from server.dragon.engine import DragonEngine
        from server.dragon.state import apply_decay, combo_key
    finally:
        sys.path.remove(path)
    engine, ids = DragonEngine(), [f"p{i}" for i in range(5)]

    def run() -> tuple[int, int]:
        steps = stuck = patched = 0
        for seed in range(games):
            random.seed(seed)
            agent = random.Random(seed * 7919 + 17)
            state = engine.initial_state(ids, ids)
            while state["phase"] != "final":
                player = engine.get_waiting_for(state)[0]
                options = _peer_actions(state, engine.get_valid_actions(state, player), combo_key)
                if not options and state["event"]["release_queue"]:
                    # it asks a player with nobody left to release someone (Tribute is not capped at
                    # the persons a player has): drop the request and end the event as it would
                    event = state["event"]
                    event["release_queue"].pop(0)
                    if not event["release_queue"]:
                        apply_decay(state["players"], event["log"])
                        event["resolved"] = True
                        engine._check_event_finished(state)
                    patched += 1
                    continue
                if not options:
                    stuck += 1
                    break
                state = engine.apply_action(state, player, agent.choice(options)).new_state
                steps += 1
        return steps, stuck, patched

    steps, stuck, patched = run()  # untimed: warms up and counts the decisions
    (elapsed,) = best_of(ROUNDS, run)
    return games / elapsed, steps, stuck, patched


def _peer_actions(state: dict, templates: list[dict], combo_key) -> list[dict]:
    out: list[dict] = []
    for t in templates:
        kind = t["kind"]
        if kind == "draft_pick":
            used = set(t["forbidden_combos"])
            out += [{"kind": kind, "picks": [a, b]} for a, b in combinations(t["available_types"], 2)
                    if combo_key(a, b) not in used]
        elif kind == "choose_action":
            for g in t["groups"]:
                if not g["can_afford"]:
                    continue
                left = t["player_yuan"] - g["cost"]
                for action in g["actions"]:
                    if action != "privilege":
                        out.append({"kind": kind, "group_index": g["group_index"], "action_id": action})
                    for size, price in (("small", 2), ("large", 7)):  # its privilege prices
                        if action == "privilege" and left >= price:
                            out.append({"kind": kind, "group_index": g["group_index"], "action_id": action,
                                        "privilege_size": size})
        elif kind == "confirm_build":
            out += _peer_builds([p["floors"] for p in t["palaces"]], t["total_floors"])
        elif kind == "play_person":
            tiles = state["remaining_tiles"]
            for card in t["cards"]:
                base = {"kind": kind, "card_index": card["card_index"]}
                matching = [x for x in tiles if card["is_wild"] or x["type_id"] == card["type_id"]]
                if not matching:
                    out.append(base)
                for tile in {x["type_id"] + x["experience"]: x for x in matching}.values():
                    placed = {**base, "tile_id": tile["id"]}
                    if t["has_empty_slot"]:
                        out += [{**placed, "palace_index": p["palace_index"]} for p in t["palaces"] if not p["is_full"]]
                    else:
                        out.append({**placed, "release_immediately": True})
                        out += [{**placed, "palace_index": p["palace_index"], "replace_index": j}
                                for p in t["palaces"] for j in range(p["person_count"])]
        elif kind == "feed_palaces":
            out += [{"kind": kind, "fed_palaces": [p["palace_index"] for p in fed]}
                    for fed in combinations(t["inhabited_palaces"], t["must_feed"])]
        elif kind == "release_person":
            out += [{"kind": kind, "palace_index": p.get("palace_index", t.get("palace_index")),
                     "person_index": p["person_index"]} for p in t["persons"]]
        else:  # skip_action, resolve_event, score, next_round
            out.append({"kind": kind})
    return out


def _peer_builds(floors: list[int], total: int) -> list[dict]:
    """Every distinct way to place `total` floors: some on palaces below 3 floors, the rest as new palaces."""
    def spread(i: int, left: int):
        if i == len(floors):
            yield from new(left, 3)
            return
        for k in range(min(3 - floors[i], left) + 1):
            for rest in spread(i + 1, left - k):
                yield ([{"palace_index": i, "floors": k}] if k else []) + rest

    def new(left: int, most: int):
        if left == 0:
            yield []
        for part in range(min(most, left), 0, -1):
            for rest in new(left - part, part):
                yield [{"palace_index": "new", "floors": part}] + rest

    return [{"kind": "confirm_build", "placement": p} for p in spread(0, total)]


def main() -> None:
    ours = {}
    for case in CASES:
        rate = measure(*case)
        if case[:3] == ("dragon", 5, {"edition": "2017"}):
            ours["dragon"] = rate
    path = os.environ.get("RULEKB_PEER_YOTD")
    if not path:
        print("peer: skipped (set RULEKB_PEER_YOTD to a checkout of github.com/brandonr49/board_game_engine)")
        return
    rate, steps, stuck, patched = peer_dragon(path, PEER_GAMES)
    print(f"peer brandonr49/board_game_engine In the Year of the Dragon, 5 random players: {PEER_GAMES} games, "
          f"{steps} actions ({patched} impossible releases skipped, {stuck} games stopped where it cannot go on)")
    print(f"  peer:     {rate:8.1f} games/s  {steps * rate / PEER_GAMES:10.0f} actions/s")
    print(f"  ours (dragon 2017 base game, 5 players) is {ours['dragon'] / rate:.1f}x faster (target >= 10)")


if __name__ == "__main__":
    main()
