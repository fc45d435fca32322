"""What In the Year of the Dragon declares about itself: players, options, and what is hidden."""
from __future__ import annotations

from engine.core.gametype import GameType, Information, Option


def declare(g) -> GameType:
    players = g.rules.meta["players"]
    great_events = tuple(getattr(g.consts_by_edition[g.default_edition], "great_events", []) or [])
    return GameType(
        key="dragon", title="In the Year of the Dragon", min_players=players["min"], max_players=players["max"],
        options=(
            Option("edition", "choice", "which rulebook's rules", g.default_edition, values=tuple(sorted(g.consts_by_edition))),
            Option("great_wall", "bool", "the Great Wall expansion", False, entity="dragon/variant/great-wall"),
            Option("great_events", "bool", "the Great Events expansion", False, entity="dragon/variant/great-events"),
            Option("great_event", "choice", "Great Events: the great event to play (random when not given)",
                   values=great_events, entity="dragon/setup-step/ge-setup-choose-event"),
            Option("others", "players", "extra seats after the named players, so that a worked example that names "
                   "one player has a full game around it", scenarios_only=True),
        ),
        information=Information(
            private=("players.{seat}.hand",),
            secret=("rng",),
            rules=("a player's person cards are held in hand until played",
                   "the random generator's state would tell every future shuffle"),
        ),
    )
