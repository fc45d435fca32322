"""The relational schema of the built knowledge base (SQLModel; SQLite or PostgreSQL).

The database is a build product: `rulekb build` fills it from kb/data, nothing else writes to it.
Structured values that have no fixed shape across games (attrs, effects, scope) are JSON columns.
"""
from __future__ import annotations

from typing import Any, Optional

from sqlalchemy import JSON, Column, Index, Text as SAText
from sqlmodel import Field, SQLModel


class Game(SQLModel, table=True):
    id: str = Field(primary_key=True)
    title: dict[str, str] = Field(sa_column=Column(JSON, nullable=False))
    designers: list[str] = Field(sa_column=Column(JSON, nullable=False))
    year: Optional[int] = None
    min_players: int
    max_players: int
    variants: list[dict[str, Any]] = Field(sa_column=Column(JSON, nullable=False))
    expansions: list[dict[str, Any]] = Field(sa_column=Column(JSON, nullable=False))
    no_source_langs: list[str] = Field(sa_column=Column(JSON, nullable=False))
    vocabulary: dict[str, list[str]] = Field(sa_column=Column(JSON, nullable=False))


class Edition(SQLModel, table=True):
    id: str = Field(primary_key=True)  # "dragon/2007"
    game_id: str = Field(foreign_key="game.id", index=True)
    key: str
    title: dict[str, str] = Field(sa_column=Column(JSON, nullable=False))
    year: Optional[int] = None


class Source(SQLModel, table=True):
    id: str = Field(primary_key=True)  # "gugong-pl"
    game_id: str = Field(foreign_key="game.id", index=True)
    edition_key: str
    lang: str
    publisher: str
    file: str
    original: str
    sha256: str
    text_quality: str
    line_count: int


class Entity(SQLModel, table=True):
    id: str = Field(primary_key=True)  # "game/kind/key"
    game_id: str = Field(foreign_key="game.id", index=True)
    kind: str = Field(index=True)
    key: str
    parent_id: Optional[str] = Field(default=None, index=True)
    position: Optional[int] = None
    scope: Optional[dict[str, Any]] = Field(default=None, sa_column=Column(JSON))
    attrs: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    effect: Optional[list[Any]] = Field(default=None, sa_column=Column(JSON))
    data_file: str

    __table_args__ = (Index("ix_entity_game_kind", "game_id", "kind"),)


class EntityRef(SQLModel, table=True):
    id: Optional[int] = Field(default=None, primary_key=True)
    entity_id: str = Field(foreign_key="entity.id", index=True)
    target_id: str = Field(foreign_key="entity.id", index=True)


class Text(SQLModel, table=True):
    id: Optional[int] = Field(default=None, primary_key=True)
    entity_id: str = Field(foreign_key="entity.id", index=True)
    field: str
    lang: str
    position: int = 0  # several items of one field and language: one per source (edition)
    text: str = Field(sa_column=Column(SAText, nullable=False))
    origin: str  # source | translated | generated
    source_id: Optional[str] = Field(default=None, foreign_key="source.id")
    line_start: Optional[int] = None
    line_end: Optional[int] = None
    spans: Optional[list[list[int]]] = Field(default=None, sa_column=Column(JSON))
    repair: Optional[str] = None

    __table_args__ = (Index("ix_text_entity_field_lang", "entity_id", "field", "lang"),)


class TermForm(SQLModel, table=True):
    id: Optional[int] = Field(default=None, primary_key=True)
    entity_id: str = Field(foreign_key="entity.id", index=True)
    lang: str
    form: str
    folded: str = Field(index=True)
    preferred: bool = False


class Provenance(SQLModel, table=True):
    id: Optional[int] = Field(default=None, primary_key=True)
    entity_id: str = Field(foreign_key="entity.id", index=True)
    attr: str
    edition: Optional[str] = None
    basis: str  # text | example | reference | assumption
    source_id: Optional[str] = Field(default=None, foreign_key="source.id")
    spans: Optional[list[list[int]]] = Field(default=None, sa_column=Column(JSON))
    example_id: Optional[str] = None
    reference: Optional[str] = None
    note: Optional[str] = None


class CoverageNote(SQLModel, table=True):
    id: Optional[int] = Field(default=None, primary_key=True)
    source_id: str = Field(foreign_key="source.id", index=True)
    category: str  # exclude | noise
    line_start: int
    line_end: int
    why: str


class SearchDoc(SQLModel, table=True):
    """One searchable document per entity and language; kb/search.py indexes its words (in memory,
    from the table searchlex the build writes beside it)."""
    id: Optional[int] = Field(default=None, primary_key=True)
    entity_id: str = Field(foreign_key="entity.id", index=True)
    game_id: str = Field(index=True)
    kind: str = Field(index=True)
    lang: str = Field(index=True)
    name: str = Field(sa_column=Column(SAText, nullable=False))
    body: str = Field(sa_column=Column(SAText, nullable=False))
    folded_body: str = Field(sa_column=Column(SAText, nullable=False))


class Finding(SQLModel, table=True):
    """A difference the translation checker found between two sources of one game (i18n/checker.py)."""
    key: str = Field(primary_key=True)
    game_id: str = Field(index=True)
    entity_id: str = Field(index=True)
    field: str
    mode: str  # langs | editions
    compared: str  # "pl,cs" or "2007,2017"
    check: str = Field(index=True)
    severity: str = Field(index=True)
    assessment: str
    triage: str = Field(default="wording", index=True)  # the finding's class: rule | wording | ocr
    hand_recorded: bool = False  # a difference the transcribers noted by hand (no check found it)
    message: str = Field(sa_column=Column(SAText, nullable=False))
    # the message as a catalog msgid and its parameters, so that a reader gets it in their language
    message_args: Optional[dict[str, Any]] = Field(default=None, sa_column=Column(JSON))
    side_a: Optional[dict[str, Any]] = Field(default=None, sa_column=Column(JSON))
    side_b: Optional[dict[str, Any]] = Field(default=None, sa_column=Column(JSON))
    detail: str = ""  # what the key is made of beside the columns above (the differing words, numbers)
    position: int = 0  # the checker's order within its comparison (class, entity, field), kept for `compare`


class BuildInfo(SQLModel, table=True):
    """`built_at` (when, to the second, for people) and `build` (an id of its own per build, which
    readers compare to notice a rebuild: two builds can fall in one second)."""
    key: str = Field(primary_key=True)
    value: str


class RuleSet(SQLModel, table=True):
    """A game's compiled rule set (kb/ruleset.py): the one artifact the engine, the API, the site and
    i18n read rule constants and effects from. A JSON document in a text column: it is always read
    whole, and parsing it takes milliseconds."""
    game_id: str = Field(foreign_key="game.id", primary_key=True)
    format: int
    document: str = Field(sa_column=Column(SAText, nullable=False))


class EntityDoc(SQLModel, table=True):
    """Each entity as the API, the CLI and the site show it (all languages), assembled once by the
    build from the tables above (kb/queries.py `entity_documents`): a lookup then reads one row
    instead of seven queries' worth. JSON text, served as it is when no language is asked."""
    entity_id: str = Field(foreign_key="entity.id", primary_key=True)
    document: str = Field(sa_column=Column(SAText, nullable=False))
