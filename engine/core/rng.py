"""The only source of chance in a game: a generator keyed by a hash of the seed.

Its state is one short string (a 256-bit key and a draw counter), so it lives inside the JSON game
state, survives a round trip exactly, and a seed plus an action list replays a game move for move.
Draw k is SHA-256(key, k): what a player sees of the draws (dice, a shuffled board, who goes first)
gives no way back to the key, so the draws still to come can only be guessed by trying seeds — and a
server-chosen seed has 128 bits. Independent streams of one seed (the game's chance, the random
seats' choices) get keys hashed with different labels, so knowing one says nothing of the other.
"""
from __future__ import annotations

import hashlib

MASK = (1 << 64) - 1
SEED_BITS = 128  # a server-chosen seed (api.store): trying every seed is out of reach


def _key(seed: int, stream: str) -> str:
    return hashlib.sha256(f"rulekb-rng\x00{stream}\x00{seed}".encode()).hexdigest()


_KEYED: dict[str, "hashlib._Hash"] = {}


def _keyed(key: str):
    """A SHA-256 that has read the key's bytes (a game and its agent each draw thousands of times)."""
    found = _KEYED.get(key)
    if found is None:
        if len(_KEYED) > 4096:
            _KEYED.clear()
        found = _KEYED[key] = hashlib.sha256(bytes.fromhex(key))
    return found


class Rng:
    """Reads and writes its state in a game state dict under the key "rng"."""

    def __init__(self, holder: dict):
        self.holder = holder

    @staticmethod
    def seed_state(seed: int, stream: str = "game") -> str:
        """The generator state for a seed: "KEY:COUNT" (the key a SHA-256 of the seed and the stream)."""
        return f"{_key(seed, stream)}:0"

    def _draw(self) -> int:
        key, count = self.holder["rng"].split(":")
        n = int(count)
        self.holder["rng"] = f"{key}:{n + 1}"
        digest = _keyed(key).copy()  # SHA-256(key bytes, count): the key's part hashed once per key
        digest.update(n.to_bytes(8, "big"))
        return int.from_bytes(digest.digest()[:8], "big")

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
