"""Benchmark: full random 4-player Gugong games per second (`python -m tests.bench`, `make bench`).

The baseline is measured in the same run: the same loop (list the legal actions, pick one at random,
copy the state) but without applying any game logic, replaying the recorded action lists so that it
does the same number of steps on states of the same size. The ratio says what the rules cost on top
of that bookkeeping. No assertions: timings are printed, never tested.
"""
from __future__ import annotations

import sys
import time

from engine.core import state as st
from engine.core.game import get_game
from engine.core.play import random_game
from engine.core.rng import Rng


def main(games: int = 40, players: int = 4) -> None:
    game = get_game("gugong")
    t0 = time.perf_counter()
    played = [random_game(game, players, seed) for seed in range(games)]
    engine_s = time.perf_counter() - t0
    steps = sum(len(p.actions) for p in played)

    # baseline: choose a random "legal" action from the recorded list and copy the state, no rules
    t0 = time.perf_counter()
    for p in played:
        state = game.new_state(p.players, p.options, p.seed)
        agent = Rng({"rng": Rng.seed_state(p.seed * 7919 + 17)})
        for action in p.actions:
            choices = [action]  # legal actions are not computed: that is game logic
            choices[agent.below(len(choices))]
            state = st.copy(state)
            state["log"].append(action)
    base_s = time.perf_counter() - t0

    print(f"gugong {players}-player random games: {games} games, {steps} actions")
    print(f"  engine:   {games / engine_s:8.1f} games/s  {steps / engine_s:10.0f} actions/s")
    print(f"  baseline: {games / base_s:8.1f} games/s  {steps / base_s:10.0f} actions/s (random choice + state copy)")
    print(f"  ratio engine/baseline time: {engine_s / base_s:.1f}x")


if __name__ == "__main__":
    main(*(int(x) for x in sys.argv[1:3]))
