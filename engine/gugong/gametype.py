"""What Gugong declares about itself: players, options, and what its rulebook hides."""
from __future__ import annotations

from engine.core.gametype import GameType, Information, Option


def declare(g) -> GameType:
    players = g.rules.meta["players"]
    return GameType(
        key="gugong", title="Gugong", min_players=players["min"], max_players=players["max"],
        options=(
            Option("advanced", "bool", "the advanced variant: one shared, shuffled gift card deck", False,
                   entity="gugong/variant/advanced"),
            Option("bonus_travel_tokens", "bool", "the bonus travel tokens are shuffled in with the others", False,
                   entity="gugong/variant/bonus-travel-tokens"),
            Option("solo", "choice", "one named player: the solo game against Meng at this level", "normal",
                   values=tuple(sorted(g.solo.levels)), entity="gugong/variant/solo"),
            Option("solo_sets", "int", "solo: which pair of card sets the player and Meng get", 0,
                   values=tuple(range(len(g.solo.pairs))), entity="gugong/unknown/solo-card-set-pairs"),
            Option("focus", "choice", "solo: the location Meng focuses on (random when not given)",
                   values=tuple(g.consts.locations)),
            Option("first_player", "player", "who starts (random when not given, gugong/setup-step/first-player)"),
            Option("others", "players", "extra seats after the named players, so that a worked example that names "
                   "one player has a full game around it", scenarios_only=True),
        ),
        information=Information(
            private=("players.{seat}.hand", "players.{seat}.discard", "players.{seat}.tokens"),
            secret=("draw", "box", "token_piles", "solo.deck", "rng"),
            # the card discarded face down to pay, and the travel tokens taken (face down)
            private_moves=("action.discard", "events.?event=travel.token", "events.?event=bonus_token.token"),
            rules=("gugong-pl 281-287: your discard pile is yours to look through; opponents may not ask to see it",
                   "gugong-pl 448-449: travel tokens you collect lie face down on your player board",
                   "gugong-pl 134-136: the gift card draw pile lies face down; unused cards go back to the box",
                   "gugong-pl 63-68: the travel tokens not on the map lie face down in two piles"),
        ),
    )
