"""Bulk exports: the whole built knowledge base as files other apps download once (`rulekb export`).

One collection of records (`collect`) is written in four formats:

  rulekb.json          {"meta": …, "data": {games, sources, entities, effects, glossary, examples,
                        discrepancies, unknowns}}; validates against rulekb.schema.json
  rulekb.jsonl         one record a line, each with its "object" type, the meta block first;
                        every line validates against rulekb.jsonl.schema.json
  rulekb-csv.zip       one CSV table per kind of record, nested values as JSON, meta.json inside
  rulekb.sqlite        the same tables in SQLite, and a `meta` table
  meta.json            the meta block, beside them all

The meta block says which knowledge base a file holds: its version (package version + content
hash), the build date, the content hash (sha256 of the canonical JSON of `data`: equal data, equal
hash, whatever the format or export time), the source manifest and the licence of the quotations.
The schemas are generated from the pydantic models below, so the files and their schema cannot drift.

`rulekb build` also writes all formats to the bulk directory (`bulk_dir`), which the API serves
(api/routes/bulk.py), and keeps a changelog there: what each build changed against the one before.
"""
from __future__ import annotations

import csv
import hashlib
import io
import json
import os
import sqlite3
import tempfile
import zipfile
from collections import defaultdict
from datetime import datetime
from pathlib import Path
from typing import Annotated, Any, Callable, Literal, Optional, Union

import yaml
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from kb import SOURCES_DIR
from kb import models as m
from kb.db import database_url, default_sqlite_path, is_sqlite, sqlite_path

FORMAT_VERSION = 1
FORMATS = ("json", "jsonl", "csv", "sqlite")
LICENCE = (
    "Texts of origin `source` quote the publishers' rulebooks named in `sources` (Polish and Czech editions); "
    "their copyright stays with those publishers and they are included as short quotations for reference, "
    "each citing its rulebook lines. Do not republish them as a rulebook. Texts of origin `translated` and "
    "`generated`, the structured attributes and effects, the findings and the unknowns register are the "
    "rulekb project's own work.")
CHANGELOG = "changelog.json"
CHANGELOG_KEEP = 50  # builds remembered in the changelog


# ---------------------------------------------------------------- the records (and their schema)

class Record(BaseModel):
    model_config = ConfigDict(extra="forbid")


Span = Annotated[list[int], Field(min_length=2, max_length=2, description="[first, last] source line, 1-based")]
Lang = Literal["pl", "cs", "en"]


class TextRecord(Record):
    field: str = Field(description="name, body, effect, note, …")
    lang: Lang
    position: int = Field(description="several texts of one field and language: one per source (edition)")
    text: str
    origin: Literal["source", "translated", "generated"] = Field(
        description="source: quoted from a rulebook (see source, lines); translated: written for the project; "
                    "generated: rendered from the structured effect")
    source: Optional[str] = None
    lines: Optional[list[Span]] = None
    repair: Optional[str] = Field(default=None, description="what OCR lost and was restored, and from where")


class ProvenanceRecord(Record):
    attr: str
    edition: Optional[str] = None
    basis: Literal["text", "example", "reference", "assumption"]
    source: Optional[str] = None
    lines: Optional[list[Span]] = None
    example: Optional[str] = None
    reference: Optional[str] = None
    note: Optional[str] = None


class GameRecord(Record):
    object: Literal["game"] = "game"
    id: str
    title: dict[str, str]
    designers: list[str]
    year: Optional[int]
    players: dict[str, int]
    editions: list[dict[str, Any]]
    variants: list[dict[str, Any]]
    expansions: list[dict[str, Any]]
    no_source_langs: list[str]
    vocabulary: dict[str, list[str]]


class SourceRecord(Record):
    object: Literal["source"] = "source"
    id: str
    game: str
    edition: str
    lang: str
    publisher: str
    file: str
    original: str
    sha256: str
    text_quality: str
    lines: int


class EntityRecord(Record):
    object: Literal["entity"] = "entity"
    id: str = Field(description="game/kind/key, stable")
    game: str
    kind: str
    key: str
    parent: Optional[str]
    position: Optional[int]
    scope: Optional[dict[str, Any]]
    attrs: dict[str, Any]
    effect: Optional[list[Any]] = Field(description="the structured effect (the effect language of kb/data)")
    refs: list[str]
    texts: list[TextRecord]
    provenance: list[ProvenanceRecord]
    data_file: str


class EffectRecord(Record):
    object: Literal["effect"] = "effect"
    entity: str
    effect: list[Any]
    rendered: dict[str, str] = Field(description="the effect as text in pl, cs and en (texts of origin generated)")


class GlossaryRecord(Record):
    object: Literal["glossary_term"] = "glossary_term"
    id: str
    game: str
    names: dict[str, list[str]]
    forms: dict[str, list[str]] = Field(description="inflected forms and accepted variants, preferred first")


class CheckRecord(Record):
    path: str
    ok: bool
    message: str


class ExampleResult(Record):
    status: Literal["PASS", "FAIL", "PENDING", "ERROR"]
    message: str
    checks: list[CheckRecord]


class ExampleRecord(Record):
    object: Literal["example"] = "example"
    id: str
    game: str
    title: dict[str, str]
    players: list[str]
    source_refs: list[dict[str, Any]]
    result: Optional[ExampleResult] = Field(description="the engine's run of the example (null: not run)")


class DiscrepancyRecord(Record):
    object: Literal["discrepancy"] = "discrepancy"
    key: str
    game: str
    entity: str
    field: str
    mode: str
    compared: str
    check: str
    severity: str
    assessment: str
    message: str
    a: Optional[dict[str, Any]]
    b: Optional[dict[str, Any]]


class UnknownRecord(Record):
    object: Literal["unknown"] = "unknown"
    id: str
    game: str
    status: Optional[str] = Field(description="unknown, implied, external or assumed")
    value_used: Any = None
    basis: list[ProvenanceRecord]
    refs: list[str]


class Meta(Record):
    object: Literal["meta"] = "meta"
    format_version: int = FORMAT_VERSION
    kb_version: str = Field(description="package version + hash of the knowledge base (the worked examples' engine "
                                        "results left out): equal versions hold equal data, with or without results")
    built_at: str = Field(description="when `rulekb build` built the database this was exported from")
    content_hash: str = Field(description="sha256 of the canonical JSON of `data` as written (results included)")
    game: Optional[str] = Field(description="the one game exported, or null for all")
    counts: dict[str, int]
    sources: list[dict[str, Any]] = Field(description="the source manifest (kb/sources/manifest.yaml)")
    licence: str
    schema_file: str = "rulekb.schema.json"


class Data(Record):
    games: list[GameRecord]
    sources: list[SourceRecord]
    entities: list[EntityRecord]
    effects: list[EffectRecord]
    glossary: list[GlossaryRecord]
    examples: list[ExampleRecord]
    discrepancies: list[DiscrepancyRecord]
    unknowns: list[UnknownRecord]


class Export(Record):
    """A whole export: the meta block and the data."""
    meta: Meta
    data: Data


SECTIONS = {name: f.annotation.__args__[0] for name, f in Data.model_fields.items()}  # type: ignore[union-attr]
Line = Annotated[Union[Meta, GameRecord, SourceRecord, EntityRecord, EffectRecord, GlossaryRecord, ExampleRecord,
                       DiscrepancyRecord, UnknownRecord], Field(discriminator="object")]


def json_schema() -> dict[str, Any]:
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": "rulekb.schema.json",
            **Export.model_json_schema()}


def jsonl_schema() -> dict[str, Any]:
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": "rulekb.jsonl.schema.json",
            "description": "One line of rulekb.jsonl", **TypeAdapter(Line).json_schema()}


# ---------------------------------------------------------------- reading the built database

ExampleRunner = Callable[[dict[str, Any]], dict[str, Any]]


def _spans(value) -> list[list[int]] | None:
    return [list(s) for s in value] if value else None


def collect(engine: Engine, game: str | None = None, run_example: ExampleRunner | None = None) -> Data:
    """Every record of the built knowledge base (of one game), in a stable order. `run_example`
    (given by the caller: kb does not import the engine) turns an example document into its result."""
    with Session(engine) as db:
        def rows(model, *order, game_col=None):
            q = select(model)
            if game and game_col is not None:
                q = q.where(game_col == game)
            return db.exec(q.order_by(*order)).all()

        games = rows(m.Game, m.Game.id, game_col=m.Game.id)
        editions = rows(m.Edition, m.Edition.id, game_col=m.Edition.game_id)
        sources = rows(m.Source, m.Source.id, game_col=m.Source.game_id)
        entities = rows(m.Entity, m.Entity.game_id, m.Entity.kind, m.Entity.position, m.Entity.id,
                        game_col=m.Entity.game_id)
        ids = {e.id for e in entities}
        texts, provs, refs, forms = defaultdict(list), defaultdict(list), defaultdict(list), defaultdict(list)
        for item in db.exec(select(m.Text).order_by(m.Text.entity_id, m.Text.field, m.Text.lang, m.Text.position)):
            if item.entity_id in ids:
                texts[item.entity_id].append(item)
        for p in db.exec(select(m.Provenance).order_by(m.Provenance.entity_id, m.Provenance.id)):
            if p.entity_id in ids:
                provs[p.entity_id].append(p)
        for r in db.exec(select(m.EntityRef).order_by(m.EntityRef.id)):
            if r.entity_id in ids:
                refs[r.entity_id].append(r.target_id)
        for f in db.exec(select(m.TermForm).order_by(m.TermForm.entity_id, m.TermForm.id)):
            if f.entity_id in ids:
                forms[f.entity_id].append(f)
        findings = rows(m.Finding, m.Finding.game_id, m.Finding.entity_id, m.Finding.field, m.Finding.key,
                        game_col=m.Finding.game_id)

    def text(item: m.Text) -> TextRecord:
        return TextRecord(field=item.field, lang=item.lang, position=item.position, text=item.text, origin=item.origin,
                          source=item.source_id, lines=_spans(item.spans), repair=item.repair)

    def prov(p: m.Provenance) -> ProvenanceRecord:
        return ProvenanceRecord(attr=p.attr, edition=p.edition, basis=p.basis, source=p.source_id,
                                lines=_spans(p.spans), example=p.example_id, reference=p.reference, note=p.note)

    def by_lang(items, value) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for i in items:
            out.setdefault(i.lang, []).append(value(i))
        return out

    data = Data(
        games=[GameRecord(id=g.id, title=g.title, designers=g.designers, year=g.year,
                          players={"min": g.min_players, "max": g.max_players},
                          editions=[dict(key=e.key, title=e.title, year=e.year) for e in editions if e.game_id == g.id],
                          variants=g.variants, expansions=g.expansions, no_source_langs=g.no_source_langs,
                          vocabulary=g.vocabulary) for g in games],
        sources=[SourceRecord(id=s.id, game=s.game_id, edition=s.edition_key, lang=s.lang, publisher=s.publisher,
                              file=s.file, original=s.original, sha256=s.sha256, text_quality=s.text_quality,
                              lines=s.line_count) for s in sources],
        entities=[EntityRecord(id=e.id, game=e.game_id, kind=e.kind, key=e.key, parent=e.parent_id,
                               position=e.position, scope=e.scope, attrs=e.attrs, effect=e.effect, refs=refs[e.id],
                               texts=[text(item) for item in texts[e.id]], provenance=[prov(p) for p in provs[e.id]],
                               data_file=e.data_file) for e in entities],
        effects=[EffectRecord(entity=e.id, effect=e.effect,
                              rendered={item.lang: item.text for item in texts[e.id] if item.field == "effect" and item.origin == "generated"})
                 for e in entities if e.effect],
        glossary=[GlossaryRecord(id=e.id, game=e.game_id,
                                 names=by_lang([item for item in texts[e.id] if item.field == "name"], lambda item: item.text),
                                 forms=by_lang(forms[e.id], lambda f: f.form))
                  for e in entities if e.kind == "term"],
        examples=[_example(e, texts[e.id], run_example) for e in entities if e.kind == "example"],
        discrepancies=[DiscrepancyRecord(key=f.key, game=f.game_id, entity=f.entity_id, field=f.field, mode=f.mode,
                                         compared=f.compared, check=f.check, severity=f.severity,
                                         assessment=f.assessment, message=f.message, a=f.side_a, b=f.side_b)
                       for f in findings],
        unknowns=[UnknownRecord(id=e.id, game=e.game_id, status=e.attrs.get("status"),
                                value_used=e.attrs.get("value_used"),
                                basis=[prov(p) for p in provs[e.id] if p.attr == "value_used"], refs=refs[e.id])
                  for e in entities if e.kind == "unknown"],
    )
    return data


def game_ids(engine: Engine) -> list[str]:
    with Session(engine) as db:
        return list(db.exec(select(m.Game.id).order_by(m.Game.id)).all())


def _example(e: m.Entity, texts: list[m.Text], run_example: ExampleRunner | None) -> ExampleRecord:
    result = None
    if run_example is not None:
        result = ExampleResult(**run_example({"id": e.id, "game": e.game_id, **e.attrs}))
    return ExampleRecord(id=e.id, game=e.game_id, players=e.attrs.get("players", []),
                         title={item.lang: item.text for item in texts if item.field == "name" and item.position == 0},
                         source_refs=e.attrs.get("source_refs", []), result=result)


def _canonical(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode()


def package_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("rulekb")
    except PackageNotFoundError:  # pragma: no cover - running from a bare checkout
        return "0"


def meta_for(engine: Engine, data: Data, game: str | None) -> Meta:
    with Session(engine) as db:
        built = db.get(m.BuildInfo, "built_at")
    dump = data.model_dump(mode="json")
    digest = hashlib.sha256(_canonical(dump)).hexdigest()
    for example in dump["examples"]:  # results are optional in an export: they do not make another version
        example.pop("result", None)
    kb_digest = hashlib.sha256(_canonical(dump)).hexdigest()
    manifest = yaml.safe_load((SOURCES_DIR / "manifest.yaml").read_text(encoding="utf-8"))["sources"]
    if game:
        manifest = [s for s in manifest if s.get("game") == game]
    return Meta(kb_version=f"{package_version()}+{kb_digest[:12]}", built_at=built.value if built else "",
                content_hash=f"sha256:{digest}", game=game, counts={k: len(getattr(data, k)) for k in SECTIONS},
                sources=manifest, licence=LICENCE)


def read(engine: Engine, game: str | None = None, run_example: ExampleRunner | None = None) -> Export:
    data = collect(engine, game, run_example)
    return Export(meta=meta_for(engine, data, game), data=data)


# ---------------------------------------------------------------- writing

def file_names(game: str | None = None) -> dict[str, str]:
    stem = f"rulekb-{game}" if game else "rulekb"
    return {"json": f"{stem}.json", "jsonl": f"{stem}.jsonl", "csv": f"{stem}-csv.zip", "sqlite": f"{stem}.sqlite"}


def write(export: Export, out_dir: Path, formats: tuple[str, ...] = FORMATS) -> list[Path]:
    """Write the export in the given formats (and meta.json, and the schemas) into out_dir;
    every file is written beside and moved into place, so a reader never sees half a file."""
    out_dir.mkdir(parents=True, exist_ok=True)
    names = file_names(export.meta.game)
    meta = export.meta.model_dump(mode="json")
    written = []

    def put(name: str, fill: Callable[[Path], None]) -> None:
        fd, tmp = tempfile.mkstemp(prefix=f".{name}.", dir=out_dir)
        os.close(fd)
        try:
            fill(Path(tmp))
            os.chmod(tmp, 0o644)
            os.replace(tmp, out_dir / name)
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)
        written.append(out_dir / name)

    dump = export.model_dump(mode="json")
    for fmt in formats:
        if fmt == "json":
            put(names["json"], lambda p: p.write_bytes(_json(dump)))
            put("rulekb.schema.json", lambda p: p.write_bytes(_json(json_schema())))
        elif fmt == "jsonl":
            put(names["jsonl"], lambda p: _write_jsonl(p, dump))
            put("rulekb.jsonl.schema.json", lambda p: p.write_bytes(_json(jsonl_schema())))
        elif fmt == "csv":
            put(names["csv"], lambda p: _write_csv_zip(p, dump))
        elif fmt == "sqlite":
            put(names["sqlite"], lambda p: _write_sqlite(p, dump))
        else:
            raise ValueError(f"unknown format {fmt!r}; formats: {', '.join(FORMATS)}")
    put("meta.json" if not export.meta.game else f"meta-{export.meta.game}.json", lambda p: p.write_bytes(_json(meta)))
    return written


def _json(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False, indent=1).encode() + b"\n"


def _write_jsonl(path: Path, dump: dict) -> None:
    with path.open("wb") as f:
        f.write(_canonical(dump["meta"]) + b"\n")
        for section in SECTIONS:
            for record in dump["data"][section]:
                f.write(_canonical(record) + b"\n")


def tables(dump: dict) -> dict[str, tuple[list[str], list[list[Any]]]]:
    """The export as flat tables (CSV, SQLite), columns named after the record fields: nested values
    become JSON text; an entity's texts and provenance get tables of their own."""
    def flat(v: Any) -> Any:
        return json.dumps(v, ensure_ascii=False, sort_keys=True) if isinstance(v, (dict, list)) else v

    def fields(model: type[BaseModel], drop=()) -> list[str]:
        return [f for f in model.model_fields if f != "object" and f not in drop]

    out: dict[str, tuple[list[str], list[list[Any]]]] = {}
    for section, model in SECTIONS.items():
        records = dump["data"][section]
        if section == "entities":
            cols = fields(model, ("texts", "provenance"))
            out["texts"] = (["entity", *fields(TextRecord)],
                            [[e["id"], *(flat(item[c]) for c in fields(TextRecord))] for e in records for item in e["texts"]])
            out["provenance"] = (["entity", *fields(ProvenanceRecord)],
                                 [[e["id"], *(flat(p[c]) for c in fields(ProvenanceRecord))]
                                  for e in records for p in e["provenance"]])
        elif section == "examples":
            cols = [*fields(model, ("result",)), "status", "message", "checks"]
            records = [{**x, **(x["result"] or {"status": None, "message": None, "checks": None})} for x in records]
        else:
            cols = fields(model)
        out[section] = (cols, [[flat(r[c]) for c in cols] for r in records])
    return out


def _write_csv_zip(path: Path, dump: dict) -> None:
    stamp = datetime.fromisoformat(dump["meta"]["built_at"]).timetuple()[:6] if dump["meta"]["built_at"] else (1980, 1, 1, 0, 0, 0)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        def add(name: str, content: bytes) -> None:
            z.writestr(zipfile.ZipInfo(name, date_time=stamp), content, compress_type=zipfile.ZIP_DEFLATED)
        add("meta.json", _json(dump["meta"]))
        for name, (cols, rows) in tables(dump).items():
            buf = io.StringIO()
            w = csv.writer(buf, lineterminator="\n")
            w.writerow(cols)
            w.writerows(rows)
            add(f"{name}.csv", buf.getvalue().encode())


def _write_sqlite(path: Path, dump: dict) -> None:
    path.unlink(missing_ok=True)
    db = sqlite3.connect(path)
    try:
        db.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        db.executemany("INSERT INTO meta VALUES (?, ?)",
                       [(k, json.dumps(v, ensure_ascii=False)) for k, v in dump["meta"].items()])
        for name, (cols, rows) in tables(dump).items():
            quoted = ", ".join(f'"{c}"' for c in cols)  # "check" and "key" are SQL keywords
            db.execute(f"CREATE TABLE {name} ({quoted})")
            db.executemany(f'INSERT INTO {name} VALUES ({", ".join("?" * len(cols))})', rows)
        for table, columns in (("texts", "entity"), ("provenance", "entity"), ("entities", "game, kind")):
            db.execute(f"CREATE INDEX ix_{table} ON {table} ({columns})")
        db.commit()
    finally:
        db.close()


def load(path: Path) -> Export:
    """A JSON export read back: a rulekb.json file, or a folder holding one (or one game's)."""
    if path.is_dir():
        found = sorted(p for p in path.glob("rulekb*.json") if not p.name.endswith(".schema.json"))
        if not found:
            raise FileNotFoundError(f"no rulekb JSON export in {path}")
        path = found[0]  # rulekb.json sorts before rulekb-<game>.json
    return Export.model_validate_json(path.read_bytes())


# ---------------------------------------------------------------- the bulk directory the API serves

def bulk_dir(url: str | None = None) -> Path:
    """Where `rulekb build` writes the bulk files: RULEKB_BULK_DIR, else `bulk/` beside the SQLite
    database (var/bulk in a checkout), else var/bulk of the checkout for a server database."""
    configured = os.environ.get("RULEKB_BULK_DIR")
    if configured:
        return Path(configured)
    url = database_url(url)
    base = sqlite_path(url).parent if is_sqlite(url) else default_sqlite_path().parent
    return base / "bulk"


def publish(export: Export, out_dir: Path) -> dict[str, Any]:
    """Write every format into the bulk directory and record in its changelog what changed since
    the export it replaces (nothing is recorded when the content is the same)."""
    from kb.diff import diff

    out_dir.mkdir(parents=True, exist_ok=True)
    previous_file = out_dir / file_names(export.meta.game)["json"]
    previous = None
    if previous_file.is_file():
        try:
            previous = load(previous_file)
        except ValueError:  # an export of an older format: the changelog starts again
            previous = None
    log_file = out_dir / CHANGELOG
    log = json.loads(log_file.read_text(encoding="utf-8")) if log_file.is_file() else {"builds": []}
    entry = None
    if previous is None or previous.meta.content_hash != export.meta.content_hash:
        changes = diff(previous, export) if previous is not None else None
        entry = {"kb_version": export.meta.kb_version, "built_at": export.meta.built_at,
                 "content_hash": export.meta.content_hash,
                 "previous": previous.meta.kb_version if previous is not None else None,
                 "first_build": previous is None, "changes": changes}
        log["builds"] = [entry, *log["builds"]][:CHANGELOG_KEEP]
    write(export, out_dir)
    fd, tmp = tempfile.mkstemp(prefix=f".{CHANGELOG}.", dir=out_dir)
    with os.fdopen(fd, "wb") as f:
        f.write(_json(log))
    os.chmod(tmp, 0o644)
    os.replace(tmp, log_file)
    return {"dir": str(out_dir), "changelog_entry": entry}

