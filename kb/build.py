"""`rulekb build`: validate kb/data and load it into the database, atomically.

SQLite: the database is written to a temporary file beside the target and moved into place only
when complete, so a failed build leaves the previous database untouched.
PostgreSQL: everything happens in one transaction (PostgreSQL DDL is transactional).
"""
from __future__ import annotations

import os
import tempfile
from dataclasses import asdict, dataclass
from datetime import datetime, timezone

from sqlalchemy import insert
from sqlalchemy.engine import Connection
from sqlmodel import SQLModel

from i18n.checker import Checker, default_comparisons
from i18n.render import Renderer
from kb import models as m
from kb import search
from kb.db import database_url, is_sqlite, open_engine, sqlite_path
from kb.fold import fold, words
from kb.loader import KnowledgeBase, load
from kb.schema import LANGS, Entity, text_items


@dataclass
class BuildReport:
    url: str
    counts: dict[str, int]

    def summary(self) -> str:
        parts = ", ".join(f"{v} {k}" for k, v in self.counts.items())
        return f"built {self.url}: {parts}"


def build(url: str | None = None, kb: KnowledgeBase | None = None) -> BuildReport:
    url = database_url(url)
    kb = kb or load()
    rows = _rows(kb)
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
    return BuildReport(url, {t.name: len(r) for t, r in rows.items() if t is not m.BuildInfo.__table__})


def _kb_tables():
    return [t.__table__ for t in (m.Game, m.Edition, m.Source, m.Entity, m.EntityRef, m.Text, m.TermForm,
                                  m.Provenance, m.CoverageNote, m.SearchDoc, m.Finding, m.BuildInfo)]


def _write(conn: Connection, rows: dict) -> None:
    SQLModel.metadata.create_all(conn, tables=_kb_tables())
    for table, values in rows.items():
        if values:
            conn.execute(insert(table), values)
    search.create_index(conn)


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


def rendered_effects(kb: KnowledgeBase, rec) -> dict[str, str]:
    """The entity's effect rendered in pl, cs and en (origin `generated`)."""
    name = entity_name(kb)
    return {lang: Renderer(rec.game, lang, name).render(rec.item.effect) for lang in LANGS}


def _rows(kb: KnowledgeBase) -> dict:
    games, editions, sources, entities, refs, texts, forms, provs, notes, docs = ([] for _ in range(10))
    for g in kb.games.values():
        games.append(dict(
            id=g.key, title=g.title, designers=g.designers, year=g.year, min_players=g.players["min"],
            max_players=g.players["max"], variants=[v.model_dump(exclude_none=True) for v in g.variants],
            expansions=[v.model_dump(exclude_none=True) for v in g.expansions], no_source_langs=g.no_source_langs,
            vocabulary={"resources": g.resources, "tracks": g.tracks, "moments": g.moments}))
        for e in g.editions:
            editions.append(dict(id=f"{g.key}/{e.key}", game_id=g.key, key=e.key, title=e.title, year=e.year))
    for s in kb.sources.values():
        if s.meta.game not in kb.games:
            continue
        sm = s.meta
        sources.append(dict(id=sm.id, game_id=sm.game, edition_key=sm.edition, lang=sm.lang, publisher=sm.publisher,
                            file=sm.file, original=sm.original, sha256=sm.sha256, text_quality=sm.text_quality,
                            line_count=len(s.lines)))
    for src_id, covs in kb.coverage.items():
        if src_id not in kb.sources or kb.sources[src_id].meta.game not in kb.games:
            continue
        for cov, _ in covs:
            for category, items in (("exclude", cov.exclude), ("noise", cov.noise)):
                for note in items:
                    for a, b in note.lines:
                        notes.append(dict(source_id=src_id, category=category, line_start=a, line_end=b, why=note.why))
    for rec in kb.records.values():
        item = rec.item
        if isinstance(item, Entity):
            attrs, effect, parent, position = item.attrs, item.effect, item.parent, item.order
            scope = item.scope.model_dump(exclude_none=True) if item.scope else None
            name_texts = item.texts
        else:
            attrs = item.model_dump(include={"players", "names", "facts", "options", "source_refs", "setup",
                                             "steps", "expect", "follows"}, exclude_none=True)
            effect, parent, position = None, None, None
            scope = item.scope.model_dump(exclude_none=True) if item.scope else None
            name_texts = {"name": dict(item.title), **item.texts}
        entities.append(dict(id=rec.id, game_id=rec.game, kind=rec.kind, key=rec.key, parent_id=parent,
                             position=position, scope=scope, attrs=attrs, effect=effect,
                             data_file=str(rec.file.relative_to(kb.data_dir.parent.parent))))
        refs.extend(dict(entity_id=rec.id, target_id=t) for t in dict.fromkeys(item.refs))
        per_lang: dict[str, dict[str, list[str]]] = {}
        for fld, langs in name_texts.items():
            for lang, value in langs.items():
                for pos, t in enumerate(text_items(value)):
                    lines = t.lines or []
                    texts.append(dict(
                        entity_id=rec.id, field=fld, lang=lang, position=pos, text=t.text, origin=t.origin,
                        source_id=t.src, line_start=min((a for a, _ in lines), default=None),
                        line_end=max((b for _, b in lines), default=None), spans=_spans(lines), repair=t.repair))
                    per_lang.setdefault(lang, {}).setdefault(fld, []).append(t.text)
        if isinstance(item, Entity) and item.effect:
            for lang, text in rendered_effects(kb, rec).items():
                texts.append(dict(entity_id=rec.id, field="effect", lang=lang, position=0, text=text,
                                  origin="generated", source_id=None, line_start=None, line_end=None, spans=None,
                                  repair=None))
        term_forms = item.forms if isinstance(item, Entity) and item.forms else {}
        for lang, fs in term_forms.items():
            for i, f in enumerate(fs):
                forms.append(dict(entity_id=rec.id, lang=lang, form=f, folded=" ".join(words(f)), preferred=i == 0))
        if isinstance(item, Entity):
            for attr, p in item.provenance.items():
                subs = p.by_edition.items() if p.by_edition else [(None, p)]
                for edition, sp in subs:
                    provs.append(dict(entity_id=rec.id, attr=attr, edition=edition, basis=sp.basis,
                                      source_id=sp.src, spans=_spans(sp.lines), example_id=sp.example,
                                      reference=sp.reference or sp.assumption, note=sp.note))
        for lang in LANGS:
            fields = per_lang.get(lang)
            if not fields:
                continue
            name = " / ".join(dict.fromkeys(fields.get("name", [])))
            body = "\n".join(t for f, ts in fields.items() if f != "name" for t in ts)
            form_text = " ".join(term_forms.get(lang, []))
            docs.append(dict(entity_id=rec.id, game_id=rec.game, kind=rec.kind, lang=lang, name=name, body=body,
                             folded_name=fold(name), folded_forms=fold(form_text), folded_body=fold(body)))
    findings = []
    for game, mode, a, b in default_comparisons(kb):
        for f in Checker(kb, game).run(mode, a, b):
            findings.append(dict(key=f.key, game_id=f.game, entity_id=f.entity_id, field=f.field, mode=mode,
                                 compared=f"{a},{b}", check=f.check, severity=f.severity, assessment=f.assessment,
                                 triage=f.triage, hand_recorded=f.hand_recorded, message=f.message, side_a=asdict(f.a) if f.a else None,
                                 side_b=asdict(f.b) if f.b else None))
    info = [dict(key="built_at", value=datetime.now(timezone.utc).isoformat(timespec="seconds"))]
    return {m.Game.__table__: games, m.Edition.__table__: editions, m.Source.__table__: sources,
            m.Entity.__table__: entities, m.EntityRef.__table__: refs, m.Text.__table__: texts,
            m.TermForm.__table__: forms, m.Provenance.__table__: provs, m.CoverageNote.__table__: notes,
            m.SearchDoc.__table__: docs, m.Finding.__table__: findings, m.BuildInfo.__table__: info}
