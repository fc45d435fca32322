"""What ZhanGuo declares about itself: players, options, and what its rulebook hides."""
from __future__ import annotations

from engine.core.gametype import GameType, Information, Option


def declare(g) -> GameType:
    players = g.rules.meta["players"]
    return GameType(
        key="zhanguo", title="ZhanGuo", min_players=players["min"], max_players=players["max"],
        options=(
            Option("sides", "choice", "player-board sides: A, B, or B sides bid for in the auction", "A",
                   values=("A", "B", "auction"), entity="zhanguo/setup-step/b-side-auction"),
            Option("card_selection", "bool", "the card selection variant", False, entity="zhanguo/variant/card-selection"),
            Option("reward_track_turn_order", "bool", "the reward-track turn order variant", False,
                   entity="zhanguo/variant/reward-track-turn-order"),
            Option("unrest_per_worker", "bool", "the unrest-per-worker variant", False,
                   entity="zhanguo/variant/unrest-per-worker"),
            Option("first_player", "player", "who starts (random when not given)"),
            Option("others", "players", "extra seats after the named players, so that a worked example that names "
                   "one player has a full game around it", scenarios_only=True),
        ),
        information=Information(
            private=("players.{seat}.hand", "players.{seat}.draft", "pending.?player={seat}.cards"),
            secret=("decks", "rng"),
            rules=("zhanguo-pl 145: the decks lie face down",
                   "cards in hand and the cards being drafted are seen only by their holder"),
        ),
    )
