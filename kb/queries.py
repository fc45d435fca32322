"""Read-side queries on the built knowledge base, shared by the CLI, the API and the site.

They return plain dicts (JSON-ready), so every front end shows the same data the same way.
"""
from __future__ import annotations

import json
from collections import defaultdict
from typing import Any

from sqlalchemy import func, text
from sqlalchemy.engine import Connection, Engine
from sqlmodel import Session, select

from kb import models as m
from kb.schema import TEXT_LANGS


class NotFound(LookupError):
    """The requested game, entity or source does not exist."""

    def __init__(self, what: str, ident: str):
        self.what, self.ident = what, ident
        super().__init__(f"no {what} {ident!r}")


def _source_dict(s: m.Source) -> dict[str, Any]:
    return dict(id=s.id, edition=s.edition_key, lang=s.lang, publisher=s.publisher, file=s.file,
                original=s.original, sha256=s.sha256, text_quality=s.text_quality, lines=s.line_count)


def list_games(engine: Engine) -> list[dict[str, Any]]:
    with Session(engine) as db:
        return [_game(db, g) for g in db.exec(select(m.Game).order_by(m.Game.id)).all()]


def get_game(engine: Engine, game: str) -> dict[str, Any]:
    with Session(engine) as db:
        g = db.get(m.Game, game)
        if g is None:
            raise NotFound("game", game)
        return _game(db, g)


def _game(db: Session, g: m.Game) -> dict[str, Any]:
    editions = db.exec(select(m.Edition).where(m.Edition.game_id == g.id).order_by(m.Edition.id)).all()
    sources = db.exec(select(m.Source).where(m.Source.game_id == g.id).order_by(m.Source.id)).all()
    counts = dict(db.exec(select(m.Entity.kind, func.count()).where(m.Entity.game_id == g.id)
                          .group_by(m.Entity.kind).order_by(m.Entity.kind)).all())
    return dict(
        id=g.id, title=g.title, designers=g.designers, year=g.year,
        players={"min": g.min_players, "max": g.max_players},
        editions=[dict(key=e.key, title=e.title, year=e.year,
                       sources=[s.id for s in sources if s.edition_key == e.key]) for e in editions],
        variants=g.variants, expansions=g.expansions,
        sources=[_source_dict(s) for s in sources],
        languages={"source": sorted({s.lang for s in sources}),
                   "translated_only": [l for l in TEXT_LANGS if l not in {s.lang for s in sources}]},
        counts={"entities": sum(counts.values()), "by_kind": counts},
    )


def pick_text(items: list[m.Text], lang: str) -> tuple[list[m.Text], str | None]:
    """Texts of one field in the wanted language; else fall back (pl, cs, en order) and say so."""
    by_lang = defaultdict(list)
    for item in items:
        by_lang[item.lang].append(item)
    if by_lang.get(lang):
        return by_lang[lang], None
    for fallback in ("en", "pl", "cs"):
        if by_lang.get(fallback):
            return by_lang[fallback], fallback
    return [], None


def _text_dict(item: m.Text) -> dict[str, Any]:
    d = dict(lang=item.lang, text=item.text, origin=item.origin)
    if item.source_id:
        d.update(source=item.source_id, lines=item.spans)
    if item.repair:
        d["repair"] = item.repair
    return d


def list_entities(engine: Engine, *, game: str | None = None, kind: str | None = None, lang: str = "en",
                  limit: int = 50, offset: int = 0) -> tuple[list[dict[str, Any]], int]:
    with Session(engine) as db:
        q = select(m.Entity)
        if game:
            q = q.where(m.Entity.game_id == game)
        if kind:
            q = q.where(m.Entity.kind == kind)
        total = db.exec(select(func.count()).select_from(q.subquery())).one()
        ents = db.exec(q.order_by(m.Entity.game_id, m.Entity.kind, m.Entity.position, m.Entity.id)
                       .offset(offset).limit(limit)).all()
        names = defaultdict(list)
        if ents:
            for entry in db.exec(select(m.Text).where(m.Text.entity_id.in_([e.id for e in ents]),
                                                  m.Text.field == "name")).all():
                names[entry.entity_id].append(entry)
        out = []
        for e in ents:
            chosen, fell_back = pick_text(names[e.id], lang)
            item = dict(id=e.id, game=e.game_id, kind=e.kind, key=e.key, parent=e.parent_id,
                        name=chosen[0].text if chosen else e.key,
                        name_lang=chosen[0].lang if chosen else None)
            if fell_back:
                item["fallback_from"] = lang
            out.append(item)
        return out, total


def get_entity(engine: Engine, entity_id: str, lang: str | None = None) -> dict[str, Any]:
    """One entity with its texts (all languages, or one with an explicit fallback), attributes,
    provenance, references and children: the build's document of it (`entity_documents`)."""
    return in_language(json.loads(entity_json(engine, entity_id)), lang)


_DOCUMENT = text("SELECT document FROM entitydoc WHERE entity_id = :id")


def entity_json(engine: Engine, entity_id: str) -> str:
    """The entity's document as stored: JSON text, all languages. The API's hottest uncached read,
    so one prepared statement and no decoding."""
    with engine.connect() as conn:
        document = conn.execute(_DOCUMENT, {"id": entity_id}).scalar()
    if document is None:
        raise NotFound("entity", entity_id)
    return document


def entity_jsons(engine: Engine) -> dict[str, str]:
    """Every entity's stored document by id (a few MB): for a reader that keeps them per build."""
    with engine.connect() as conn:
        return dict(conn.execute(text("SELECT entity_id, document FROM entitydoc")).all())


def search_names(engine: Engine, lang: str) -> dict[str, str]:
    """The name a search hit shows for each entry that has a text in the language: its search document's
    (kb/build.py _search_rows: a location option printed as a letter is named with its location)."""
    with engine.connect() as conn:
        rows = conn.execute(text("SELECT entity_id, name FROM searchdoc WHERE lang = :lang"), {"lang": lang})
        return dict(rows.all())


def in_language(entity: dict[str, Any], lang: str | None) -> dict[str, Any]:
    """An entity document narrowed to one language: per field the texts in `lang`, else the first
    of en, pl, cs that has some, named in `fallbacks`."""
    if not lang:
        return entity
    texts, fallbacks = {}, {}
    for field, by_lang in entity["texts"].items():
        chosen = lang if by_lang.get(lang) else next((l for l in ("en", "pl", "cs") if by_lang.get(l)), None)
        texts[field] = by_lang[chosen] if chosen else []
        if chosen and chosen != lang:
            fallbacks[field] = chosen
    narrowed = {**entity, "texts": texts, "lang": lang, "fallbacks": fallbacks}
    if "questions" in entity:  # every entry with questions has them in each language (a test checks it)
        narrowed["questions"] = entity["questions"].get(lang, [])
    return narrowed


def entity_documents(conn: Connection, asked: dict[tuple[str, str], list[str]] | None = None) -> list[dict[str, str]]:
    """Every entity assembled from the built tables (rows for `EntityDoc`): texts by field and
    language in stored order, provenance, references both ways, children, term forms, and the questions
    players ask that it answers (`asked`: kb/data/player-questions.yaml as kb.search reads it)."""
    asked = asked or {}
    entity, text_, prov, ref = m.Entity.__table__, m.Text.__table__, m.Provenance.__table__, m.EntityRef.__table__
    forms_t = m.TermForm.__table__
    grouped = {name: defaultdict(list) for name in ("texts", "provenance", "refs", "cited_by", "children", "forms")}
    for item in conn.execute(select(text_).order_by(text_.c.entity_id, text_.c.field, text_.c.lang, text_.c.position)):
        grouped["texts"][item.entity_id].append(item)
    for p in conn.execute(select(prov).order_by(prov.c.id)):
        grouped["provenance"][p.entity_id].append(p)
    for r in conn.execute(select(ref.c.entity_id, ref.c.target_id).order_by(ref.c.id)):
        grouped["refs"][r.entity_id].append(r.target_id)
        grouped["cited_by"][r.target_id].append(r.entity_id)
    for e in conn.execute(select(entity.c.id, entity.c.parent_id).where(entity.c.parent_id.is_not(None))
                          .order_by(entity.c.position, entity.c.id)):
        grouped["children"][e.parent_id].append(e.id)
    for f in conn.execute(select(forms_t).order_by(forms_t.c.id)):
        grouped["forms"][f.entity_id].append(f)
    rows = []
    for e in conn.execute(select(entity).order_by(entity.c.id)):
        texts: dict[str, dict[str, list]] = {}
        for item in grouped["texts"][e.id]:
            texts.setdefault(item.field, {}).setdefault(item.lang, []).append(_text_dict(item))
        document = dict(
            id=e.id, game=e.game_id, kind=e.kind, key=e.key, parent=e.parent_id, scope=e.scope,
            attrs=e.attrs, effect=e.effect,
            texts={field: {l: by_lang[l] for l in TEXT_LANGS if l in by_lang} for field, by_lang in texts.items()},
            provenance=[{k: v for k, v in dict(attr=p.attr, edition=p.edition, basis=p.basis, source=p.source_id,
                                                 lines=p.spans, example=p.example_id, reference=p.reference,
                                                 note=p.note).items() if v is not None}
                        for p in grouped["provenance"][e.id]],
            refs=grouped["refs"][e.id], referenced_by=grouped["cited_by"][e.id], children=grouped["children"][e.id],
            data_file=e.data_file)
        forms = grouped["forms"][e.id]
        if forms:
            document["forms"] = {l: [f.form for f in forms if f.lang == l] for l in TEXT_LANGS
                                 if any(f.lang == l for f in forms)}
        questions = {l: asked[(e.id, l)] for l in TEXT_LANGS if asked.get((e.id, l))}
        if questions:  # written for the search in players' words, not rulebook text (origin: player)
            document["questions"] = questions
        rows.append({"entity_id": e.id, "document": json.dumps(document, ensure_ascii=False, separators=(",", ":"))})
    return rows


def source_lines(engine: Engine, source_id: str) -> dict[str, Any]:
    with Session(engine) as db:
        s = db.get(m.Source, source_id)
        if s is None:
            raise NotFound("source", source_id)
        return _source_dict(s)


def _finding_dict(f: m.Finding) -> dict[str, Any]:
    """A finding as the API and the site show it: `class` (rule | wording | ocr) is its triage, `message` a
    one-line explanation, `a` / `b` the two quotes with their source and line spans."""
    return {"key": f.key, "game": f.game_id, "entity": f.entity_id, "field": f.field, "compared": f.compared,
            "check": f.check, "class": f.triage, "hand_recorded": f.hand_recorded, "severity": f.severity,
            "assessment": f.assessment, "message": f.message, "message_args": f.message_args,
            "a": f.side_a, "b": f.side_b}


SEVERITY_RANK = {"high": 0, "medium": 1, "low": 2}


def list_findings(engine: Engine, *, game: str | None = None, check: str | None = None,
                  min_severity: str = "low", assessment: str | None = None, entity: str | None = None,
                  finding_class: str | None = None, limit: int = 50, offset: int = 0) -> tuple[list[dict[str, Any]], int]:
    allowed = [s for s, r in SEVERITY_RANK.items() if r <= SEVERITY_RANK[min_severity]]
    with Session(engine) as db:
        q = select(m.Finding).where(m.Finding.severity.in_(allowed))
        for col, val in ((m.Finding.game_id, game), (m.Finding.check, check), (m.Finding.assessment, assessment),
                         (m.Finding.entity_id, entity), (m.Finding.triage, finding_class)):
            if val:
                q = q.where(col == val)
        total = db.exec(select(func.count()).select_from(q.subquery())).one()
        rows = db.exec(q.order_by(m.Finding.game_id, m.Finding.entity_id, m.Finding.field, m.Finding.key)
                       .offset(offset).limit(limit)).all()
        return [_finding_dict(f) for f in rows], total


def compare_entity(engine: Engine, entity_id: str, sources: list[str] | None = None) -> dict[str, Any]:
    """An entity's texts side by side per source (languages or editions), with its findings."""
    with Session(engine) as db:
        e = db.get(m.Entity, entity_id)
        if e is None:
            raise NotFound("entity", entity_id)
        texts = db.exec(select(m.Text).where(m.Text.entity_id == entity_id, m.Text.origin == "source")
                        .order_by(m.Text.field, m.Text.source_id)).all()
        aligned: dict[str, dict[str, Any]] = defaultdict(dict)
        for item in texts:
            if sources is None or item.source_id in sources:
                aligned[item.field][item.source_id] = _text_dict(item)
        findings = db.exec(select(m.Finding).where(m.Finding.entity_id == entity_id).order_by(m.Finding.key)).all()
        return dict(id=e.id, game=e.game_id, kind=e.kind, sources=sources, fields=dict(aligned),
                    findings=[_finding_dict(f) for f in findings])
