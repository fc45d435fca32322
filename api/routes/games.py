"""Games: editions, sources, counts, and what each engine declares (players, options, hidden information)."""
from __future__ import annotations

from typing import Any

from fastapi import Request

from api import models as out
from api.deps import KbDep, ReaderDep, envelope, make_router
from api.problems import responses
from engine.core import EngineError, get_game
from kb import queries

router = make_router(prefix="/games", tags=["games"])


def with_play(game: dict[str, Any], url: str) -> dict[str, Any]:
    try:
        game["play"] = get_game(game["id"], url).game_type.describe()
    except EngineError:  # a game without an engine is still a reference
        pass
    return game


@router.get("", responses=responses(304), summary="All games with editions, sources, counts and declared options")
def list_games(request: Request, kb: KbDep, reader: ReaderDep) -> out.GameList:
    games = [with_play(g, reader.url) for g in queries.list_games(kb)]
    return envelope(request, games, len(games), len(games) or 1, 0)


@router.get("/{game}", responses=responses(304, 404), summary="One game")
def get_one(game: str, kb: KbDep, reader: ReaderDep) -> out.GameOut:
    return with_play(queries.get_game(kb, game), reader.url)
