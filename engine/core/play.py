"""Seeded full games with a random agent: the workhorse of the randomized tests and the benchmark."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.core.game import Game
from engine.core.rng import Rng
from engine.core.schema import schema_errors


@dataclass
class Played:
    seed: int
    players: list[str]
    options: dict[str, Any]
    actions: list[dict] = field(default_factory=list)
    scores: list[dict] = field(default_factory=list)
    violations: list[str] = field(default_factory=list)
    final: dict | None = None


def random_game(game: Game, n_players: int, seed: int, options: dict | None = None, *,
                check: bool = False, max_actions: int = 20_000) -> Played:
    """Plays to the end choosing uniformly among legal actions. The agent has its own seeded
    generator, so the same seed always gives the same game. With `check`, every state (the first
    included) is held to the game's invariants and to its published state schema."""
    players = [f"P{i + 1}" for i in range(n_players)]
    options = dict(options or {})
    state = game.new_state(players, options, seed)
    agent = Rng({"rng": Rng.seed_state(seed, "agent")})
    played = Played(seed, players, options)
    if check:
        played.violations += [f"at setup: {v}" for v in schema_errors(game, state)]
    while not game.is_terminal(state):
        legal = game.legal_actions(state)
        if not legal:
            played.violations.append(f"no legal action in a non-terminal state after {len(played.actions)} actions")
            break
        action = legal[agent.below(len(legal))]
        state, _ = game.apply(state, action)
        played.actions.append(action)
        if check:
            played.violations += [f"after action {len(played.actions)} {action}: {v}"
                                  for v in game.check_invariants(state) + schema_errors(game, state)]
        if len(played.actions) >= max_actions:
            played.violations.append(f"no end after {max_actions} actions")
            break
    played.final = state
    if game.is_terminal(state):
        played.scores = game.scores(state)
    return played
