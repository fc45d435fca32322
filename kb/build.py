"""`rulekb build`, the kb part: validate kb/data and write it into the database, atomically.

The rows that need i18n (effect texts rendered in pl, cs and en; translation findings) are made
above kb and handed in as `contributions` (cli/build.py assembles the whole build): kb imports no
package above it. See ARCHITECTURE.md.

SQLite: the database is written to a temporary file beside the target and moved into place only
when complete, so a failed build leaves the previous database untouched.
PostgreSQL: everything happens in one transaction (PostgreSQL DDL is transactional).
"""
from __future__ import annotations

import os
import tempfile
import uuid
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any, Callable, Iterable

from sqlalchemy import insert
from sqlalchemy.engine import Connection
from sqlmodel import SQLModel

from kb import models as m
from kb import queries, ruleset, search
from kb.db import database_url, is_sqlite, open_engine, sqlite_path
from kb.fold import fold, words
from kb.loader import KnowledgeBase, Record, load
from kb.schema import TEXT_LANGS, Entity, text_items

Rows = dict[Any, list[dict[str, Any]]]  # table -> rows
Contribution = Callable[[KnowledgeBase], Rows]


@dataclass
class BuildReport:
    url: str
    counts: dict[str, int]

    def summary(self) -> str:
        parts = ", ".join(f"{v} {k}" for k, v in self.counts.items())
        return f"built {self.url}: {parts}"


def build(url: str | None = None, kb: KnowledgeBase | None = None,
          contributions: Iterable[Contribution] = ()) -> BuildReport:
    url = database_url(url)
    kb = kb or load()
    rows = _rows(kb)
    for contribute in contributions:
        for table, extra in contribute(kb).items():
            rows.setdefault(table, []).extend(extra)
    if is_sqlite(url):
        target = sqlite_path(url)
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
        os.close(fd)
        try:
            engine = open_engine(f"sqlite:///{tmp}")
            with engine.begin() as conn:
                _write(conn, rows)
            engine.dispose()
            os.replace(tmp, target)
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)
    else:
        engine = open_engine(url)
        with engine.begin() as conn:
            search.drop_index(conn)
            SQLModel.metadata.drop_all(conn, tables=_kb_tables())
            _write(conn, rows)
        engine.dispose()
    ruleset.forget()
    return BuildReport(url, {item.name: len(r) for item, r in rows.items() if item is not m.BuildInfo.__table__})


def _kb_tables():
    return [item.__table__ for item in (m.Game, m.Edition, m.Source, m.Entity, m.EntityRef, m.Text, m.TermForm,
                                  m.Provenance, m.CoverageNote, m.SearchDoc, m.Finding, m.RuleSet, m.EntityDoc, m.BuildInfo)]


def _write(conn: Connection, rows: Rows) -> None:
    SQLModel.metadata.create_all(conn, tables=_kb_tables())
    order = {item: i for i, item in enumerate(_kb_tables())}  # parents before children (foreign keys)
    for table, values in sorted(rows.items(), key=lambda tv: order[tv[0]]):
        if values:
            conn.execute(insert(table), values)
    asked = search.read_player_questions()  # shown with each entry, and indexed as its words
    conn.execute(insert(m.EntityDoc.__table__), queries.entity_documents(conn, asked))
    search.create_index(conn, player_questions=asked)


def _spans(spans) -> list[list[int]] | None:
    return [list(s) for s in spans] if spans else None


def entity_name(kb: KnowledgeBase):
    """name(id, lang): an entity's name in a language (English when it has none), for rendering."""
    def name(entity_id: str, lang: str) -> str:
        rec = kb.records.get(entity_id)
        if rec is None:
            return entity_id
        names = rec.item.texts.get("name", {}) if isinstance(rec.item, Entity) else rec.item.title
        value = names.get(lang) or names.get("en") or entity_id
        return text_items(value)[0].text
    return name


# ---------------------------------------------------------------- rows, one function per table group

def _rows(kb: KnowledgeBase) -> Rows:
    rows: Rows = {m.Game.__table__: _game_rows(kb), m.Edition.__table__: _edition_rows(kb),
                  m.Source.__table__: _source_rows(kb), m.CoverageNote.__table__: _coverage_rows(kb),
                  m.RuleSet.__table__: ruleset.rows(kb)}
    for rec in kb.records.values():
        for table, values in _record_rows(kb, rec).items():
            rows.setdefault(table, []).extend(values)
    rows[m.BuildInfo.__table__] = [dict(key="built_at", value=datetime.now(timezone.utc).isoformat(timespec="seconds")),
                                   dict(key="build", value=uuid.uuid4().hex)]
    return rows


def _game_rows(kb: KnowledgeBase) -> list[dict]:
    return [dict(id=g.key, title=g.title, designers=g.designers, year=g.year, min_players=g.players["min"],
                 max_players=g.players["max"], variants=[v.model_dump(exclude_none=True) for v in g.variants],
                 expansions=[v.model_dump(exclude_none=True) for v in g.expansions], no_source_langs=g.no_source_langs,
                 vocabulary={"resources": g.resources, "tracks": g.tracks, "moments": g.moments})
            for g in kb.games.values()]


def _edition_rows(kb: KnowledgeBase) -> list[dict]:
    return [dict(id=f"{g.key}/{e.key}", game_id=g.key, key=e.key, title=e.title, year=e.year)
            for g in kb.games.values() for e in g.editions]


def _source_rows(kb: KnowledgeBase) -> list[dict]:
    return [dict(id=s.meta.id, game_id=s.meta.game, edition_key=s.meta.edition, lang=s.meta.lang,
                 publisher=s.meta.publisher, file=s.meta.file, original=s.meta.original, sha256=s.meta.sha256,
                 text_quality=s.meta.text_quality, line_count=len(s.lines))
            for s in kb.sources.values() if s.meta.game in kb.games]


def _coverage_rows(kb: KnowledgeBase) -> list[dict]:
    notes = []
    for src_id, covs in kb.coverage.items():
        if src_id not in kb.sources or kb.sources[src_id].meta.game not in kb.games:
            continue
        for cov, _ in covs:
            for category, items in (("exclude", cov.exclude), ("noise", cov.noise)):
                for note in items:
                    for a, b in note.lines:
                        notes.append(dict(source_id=src_id, category=category, line_start=a, line_end=b, why=note.why))
    return notes


def _record_rows(kb: KnowledgeBase, rec: Record) -> Rows:
    """The rows of one entity or worked example: itself, its references, texts, term forms,
    provenance and search documents."""
    item = rec.item
    entity = isinstance(item, Entity)
    if entity:
        attrs, effect, parent, position, name_texts = item.attrs, item.effect, item.parent, item.order, item.texts
    else:
        attrs = item.model_dump(include={"players", "names", "facts", "options", "source_refs", "setup",
                                         "steps", "expect", "follows"}, exclude_none=True)
        effect, parent, position = None, None, None
        name_texts = {"name": dict(item.title), **item.texts}
    entity_row = dict(id=rec.id, game_id=rec.game, kind=rec.kind, key=rec.key, parent_id=parent, position=position,
                      scope=item.scope.model_dump(exclude_none=True) if item.scope else None, attrs=attrs,
                      effect=effect, data_file=str(rec.file.relative_to(kb.data_dir.parent.parent)))
    texts, per_lang = _text_rows(rec, name_texts)
    term_forms = item.forms if entity and item.forms else {}
    return {
        m.Entity.__table__: [entity_row],
        m.EntityRef.__table__: [dict(entity_id=rec.id, target_id=entry) for entry in dict.fromkeys(item.refs)],
        m.Text.__table__: texts,
        m.TermForm.__table__: [dict(entity_id=rec.id, lang=lang, form=f, folded=" ".join(words(f)), preferred=i == 0)
                               for lang, fs in term_forms.items() for i, f in enumerate(fs)],
        m.Provenance.__table__: _provenance_rows(rec) if entity else [],
        m.SearchDoc.__table__: _search_rows(rec, per_lang, parent and entity_name(kb)),
    }


def _text_rows(rec: Record, name_texts) -> tuple[list[dict], dict[str, dict[str, list[str]]]]:
    texts, per_lang = [], {}
    for fld, langs in name_texts.items():
        for lang, value in langs.items():
            for pos, item in enumerate(text_items(value)):
                lines = item.lines or []
                texts.append(dict(
                    entity_id=rec.id, field=fld, lang=lang, position=pos, text=item.text, origin=item.origin,
                    source_id=item.src, line_start=min((a for a, _ in lines), default=None),
                    line_end=max((b for _, b in lines), default=None), spans=_spans(lines), repair=item.repair))
                per_lang.setdefault(lang, {}).setdefault(fld, []).append(item.text)
    return texts, per_lang


def _provenance_rows(rec: Record) -> list[dict]:
    out = []
    for attr, p in rec.item.provenance.items():
        for edition, sp in (p.by_edition.items() if p.by_edition else [(None, p)]):
            out.append(dict(entity_id=rec.id, attr=attr, edition=edition, basis=sp.basis, source_id=sp.src,
                            spans=_spans(sp.lines), example_id=sp.example, reference=sp.reference or sp.assumption,
                            note=sp.note))
    return out


def _search_rows(rec: Record, per_lang, name_of=None) -> list[dict]:
    """One search document per language. An entry printed under its parent by a letter alone (Gugong's
    location options "A" and "B") is named with the parent's name too ("Podróż: B"): a hit named "B" tells
    a reader nothing, and the search would match it by no name."""
    docs = []
    for lang in TEXT_LANGS:
        fields = per_lang.get(lang)
        if not fields:
            continue
        name = " / ".join(dict.fromkeys(fields.get("name", [])))
        if name_of and len(name.strip()) <= 2:
            name = f"{name_of(rec.item.parent, lang)}: {name}"
        body = "\n".join(item for f, ts in fields.items() if f != "name" for item in ts)
        docs.append(dict(entity_id=rec.id, game_id=rec.game, kind=rec.kind, lang=lang, name=name, body=body,
                         folded_body=fold(body)))
    return docs
