"""The only source of chance in a game: a seeded SplitMix64 generator.

Its whole state is one integer, so it lives inside the JSON game state, survives a round trip
exactly, and a seed plus an action list replays a game move for move.
"""
from __future__ import annotations

MASK = (1 << 64) - 1


def _next(state: int) -> tuple[int, int]:
    state = (state + 0x9E3779B97F4A7C15) & MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return state, z ^ (z >> 31)


class Rng:
    """Reads and writes its state in a game state dict under the key "rng"."""

    def __init__(self, holder: dict):
        self.holder = holder

    @staticmethod
    def seed_state(seed: int) -> int:
        return seed & MASK

    def _draw(self) -> int:
        self.holder["rng"], value = _next(self.holder["rng"])
        return value

    def below(self, n: int) -> int:
        """A uniform integer in [0, n), without modulo bias."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = MASK - (MASK % n)
        while True:
            v = self._draw()
            if v < limit:
                return v % n

    def die(self, sides: int = 6) -> int:
        return self.below(sides) + 1

    def choice(self, items: list):
        return items[self.below(len(items))]

    def shuffle(self, items: list) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
