"""Benchmark: full random games per second for each engine (`make bench`).

The engine loop is the random agent's loop: list the legal actions, pick one at random, apply it.
The baseline, measured in the same run, is the same loop without game logic: it picks a random
action from the very lists the engine produced at each step and copies the very states the engine
saw. The ratio says what the rules cost on top of that bookkeeping. Timings are printed, never
asserted.
"""
from __future__ import annotations

import gc
import time

from engine.core import state as st
from engine.core.game import get_game
from engine.core.rng import Rng

# (game, players, options, games)
CASES = [
    ("gugong", 4, {}, 40),
    ("dragon", 5, {"edition": "2017"}, 100),
    ("dragon", 5, {"edition": "2017", "great_wall": True, "great_events": True}, 100),
    ("zhanguo", 4, {}, 40),
]


def play(game, names, seed, options, record=None) -> int:
    state = game.new_state(names, dict(options), seed)
    agent = Rng({"rng": Rng.seed_state(seed * 7919 + 17)})
    steps = 0
    while not game.is_terminal(state):
        legal = game.legal_actions(state)
        if record is not None:
            record.append((state, legal))
        state, _ = game.apply(state, legal[agent.below(len(legal))])
        steps += 1
    return steps


def measure(key: str, players: int, options: dict, games: int) -> None:
    game = get_game(key)
    names = [f"P{i + 1}" for i in range(players)]
    t0 = time.perf_counter()
    steps = sum(play(game, names, seed, options) for seed in range(games))
    engine_s = time.perf_counter() - t0

    recorded: list = []  # (state, legal actions) at every step of the same games, untimed
    for seed in range(games):
        play(game, names, seed, options, recorded)
    gc.freeze()  # the recorded states are not garbage: keep the collector from rescanning them
    t0 = time.perf_counter()
    agent = Rng({"rng": Rng.seed_state(17)})
    for state, legal in recorded:
        legal[agent.below(len(legal))]
        st.copy(state)
    base_s = time.perf_counter() - t0
    gc.unfreeze()

    label = ", ".join(f"{k}={v}" for k, v in options.items()) or "default options"
    print(f"{key} {players}-player random games ({label}): {games} games, {steps} actions")
    print(f"  engine:   {games / engine_s:8.1f} games/s  {steps / engine_s:10.0f} actions/s")
    print(f"  baseline: {games / base_s:8.1f} games/s  {steps / base_s:10.0f} actions/s (random choice + state copy)")
    print(f"  ratio: the engine takes {engine_s / base_s:.1f}x the baseline's time")


def main() -> None:
    for case in CASES:
        measure(*case)


if __name__ == "__main__":
    main()
