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
import sqlite3
import threading
from contextlib import closing
from typing import TYPE_CHECKING, Any

from sqlalchemy import text
from sqlalchemy.exc import OperationalError, ProgrammingError

from kb.db import database_url, is_sqlite, open_engine, sqlite_path
from kb.messages import N_, MessageError

if TYPE_CHECKING:  # the build's types; a process that only reads rule sets never imports them
    from kb.loader import KnowledgeBase

FORMAT = 1  # bump when the document's shape changes; a stale database then asks for a rebuild


class RuleSetMissing(MessageError, LookupError):
    """The database has no compiled rule set for the game (not built, or built by an older rulekb)."""


def compile_game(kb: KnowledgeBase, game: str) -> dict[str, Any]:
    from kb.schema import Entity

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


def _encode(value: Any) -> Any:
    # JSON keys are strings, but the data has mappings keyed by numbers ({2: 3} servants on day 2):
    # those travel as {"__pairs__": [[key, value], ...]} so the engine gets back exactly what YAML gave.
    if isinstance(value, dict):
        if all(isinstance(k, str) for k in value):
            return {k: _encode(v) for k, v in value.items()}
        return {"__pairs__": [[k, _encode(v)] for k, v in value.items()]}
    if isinstance(value, list):
        return [_encode(v) for v in value]
    return value


def _decode(obj: dict) -> Any:
    if len(obj) == 1 and "__pairs__" in obj:
        return {k: v for k, v in obj["__pairs__"]}
    return obj


def dumps(doc: dict[str, Any]) -> str:
    return json.dumps(_encode(doc), ensure_ascii=False, separators=(",", ":"))


def loads(text: str) -> dict[str, Any]:
    return json.loads(text, object_hook=_decode)


def rows(kb: KnowledgeBase) -> list[dict[str, Any]]:
    """One row per game for the `ruleset` table."""
    return [dict(game_id=g, format=FORMAT, document=dumps(compile_game(kb, g))) for g in sorted(kb.games)]


_cache: dict[tuple[str, str], dict[str, Any]] = {}
_lock = threading.Lock()


def load(game: str, url: str | None = None) -> dict[str, Any]:
    """The compiled rule set of a game, read once per process and database (thread-safe)."""
    url = database_url(url)
    key = (url, game)
    doc = _cache.get(key)
    if doc is not None:
        return doc
    with _lock:
        if key in _cache:
            return _cache[key]
        if is_sqlite(url) and not sqlite_path(url).is_file():
            raise RuleSetMissing(N_("no knowledge base at %(path)s: run `rulekb build` first"), path=str(sqlite_path(url)))
        row = _read_row(url, game)
        if row is None:
            raise RuleSetMissing(N_("the knowledge base has no rule set for %(game)r: run `rulekb build`"), game=game)
        fmt, document = row
        if fmt != FORMAT:
            raise RuleSetMissing(N_("the rule set of %(game)r has format %(format)s, this rulekb reads %(reads)s: "
                                    "run `rulekb build`"), game=game, format=fmt, reads=FORMAT)
        doc = loads(document)
        _cache[key] = doc
        return doc


def _read_row(url: str, game: str):
    """(format, document) or None. SQLite is read with the standard library's sqlite3, read-only: a
    rule set loads in milliseconds, without building an SQLAlchemy engine."""
    query = "SELECT format, document FROM ruleset WHERE game_id = :game"
    try:
        if is_sqlite(url):
            with closing(sqlite3.connect(f"file:{sqlite_path(url)}?mode=ro", uri=True)) as conn:
                return conn.execute(query, {"game": game}).fetchone()
        engine = open_engine(url)
        try:
            with engine.connect() as conn:
                return tuple(conn.execute(text(query), {"game": game}).first() or ()) or None
        finally:
            engine.dispose()
    except (sqlite3.OperationalError, OperationalError, ProgrammingError):
        return None  # no ruleset table: a database built before rule sets existed


def forget() -> None:
    """Drop the loaded rule sets (after a rebuild in the same process, e.g. in tests)."""
    with _lock:
        _cache.clear()
