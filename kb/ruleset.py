"""Compiled rule sets: what a game's engine, the API, the site and i18n read instead of the YAML.

`rulekb build` compiles each game into one JSON document stored in the `ruleset` table: the game
record (editions, expansions, variants, vocabulary), and every entity's constants (`attrs`, values
that differ by edition kept as `{by_edition: ...}`), components, phases and rules, its effect tree
(references to constants left as written: kb/effects.py resolves them) and the provenance of each
constant. Loading one is a single row read and a JSON parse (milliseconds); a process loads each
game once and shares it between threads. See ARCHITECTURE.md, "Compiled rule sets".
"""
from __future__ import annotations

import json
import threading
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import OperationalError, ProgrammingError

from kb.db import database_url, is_sqlite, open_engine, sqlite_path
from kb.loader import KnowledgeBase
from kb.schema import Entity

FORMAT = 1  # bump when the document's shape changes; a stale database then asks for a rebuild


class RuleSetMissing(LookupError):
    """The database has no compiled rule set for the game (not built, or built by an older rulekb)."""


def compile_game(kb: KnowledgeBase, game: str) -> dict[str, Any]:
    entities = {}
    for rec in kb.records.values():
        if rec.game != game or not isinstance(rec.item, Entity):
            continue
        item = rec.item
        entities[rec.id] = {
            "id": rec.id, "kind": rec.kind, "key": rec.key, "attrs": item.attrs, "effect": item.effect,
            "parent": item.parent, "order": item.order,
            "scope": item.scope.model_dump(exclude_none=True) if item.scope else None,
            "provenance": {name: p.model_dump(exclude_none=True) for name, p in item.provenance.items()},
        }
    return {"format": FORMAT, "game": game, "meta": kb.games[game].model_dump(), "entities": entities}


def rows(kb: KnowledgeBase) -> list[dict[str, Any]]:
    """One row per game for the `ruleset` table."""
    return [dict(game_id=g, format=FORMAT, document=json.dumps(compile_game(kb, g), ensure_ascii=False,
                                                               separators=(",", ":")))
            for g in sorted(kb.games)]


_cache: dict[tuple[str, str], dict[str, Any]] = {}
_lock = threading.Lock()


def load(game: str, url: str | None = None) -> dict[str, Any]:
    """The compiled rule set of a game, read once per process and database (thread-safe)."""
    from kb import models as m

    url = database_url(url)
    key = (url, game)
    doc = _cache.get(key)
    if doc is not None:
        return doc
    with _lock:
        if key in _cache:
            return _cache[key]
        if is_sqlite(url) and not sqlite_path(url).is_file():
            raise RuleSetMissing(f"no knowledge base at {sqlite_path(url)}: run `rulekb build` first")
        engine = open_engine(url, readonly=is_sqlite(url))
        try:
            with engine.connect() as conn:
                row = conn.execute(select(m.RuleSet.format, m.RuleSet.document)
                                   .where(m.RuleSet.game_id == game)).first()
        except (OperationalError, ProgrammingError):
            row = None  # no ruleset table: a database built before rule sets existed
        finally:
            engine.dispose()
        if row is None:
            raise RuleSetMissing(f"the knowledge base has no rule set for {game!r}: run `rulekb build`")
        if row.format != FORMAT:
            raise RuleSetMissing(f"the rule set of {game!r} has format {row.format}, this rulekb reads "
                                 f"{FORMAT}: run `rulekb build`")
        doc = json.loads(row.document)
        _cache[key] = doc
        return doc


def forget() -> None:
    """Drop the loaded rule sets (after a rebuild in the same process, e.g. in tests)."""
    with _lock:
        _cache.clear()
