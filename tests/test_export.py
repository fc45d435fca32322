"""Bulk exports (kb/export.py), `rulekb diff` (kb/diff.py) and the /bulk API (api/routes/bulk.py)."""
from __future__ import annotations

import csv
import gzip
import io
import json
import shutil
import sqlite3
import zipfile
from email.utils import format_datetime
from datetime import datetime, timedelta, timezone
from pathlib import Path

import jsonschema
import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from api.app import create_app
from kb import export, queries
from cli.main import app as cli
from kb.db import open_engine
from kb.diff import diff, is_empty


def fake_result(doc: dict) -> dict:
    """Stands in for the engine (slow to load) where only the shape of a result matters."""
    return {"status": "PASS", "message": "", "checks": [{"path": "players.0.vp", "ok": True, "message": "3 == 3"}]}


@pytest.fixture(scope="module")
def real_export(real_db, tmp_path_factory):
    engine = open_engine(real_db, readonly=True)
    data = export.read(engine, run_example=fake_result)
    out = tmp_path_factory.mktemp("export")
    export.write(data, out)
    yield engine, data, out
    engine.dispose()


def test_the_json_export_reads_back_as_the_same_entities_as_the_database(real_export):
    engine, _, out = real_export
    loaded = export.load(out / "rulekb.json")
    entities = {e.id: e for e in loaded.data.entities}
    _, total = queries.list_entities(engine, limit=1)
    assert len(entities) == total > 500
    for entity_id, e in entities.items():
        db = queries.get_entity(engine, entity_id)
        assert (e.game, e.kind, e.key, e.parent, e.scope, e.attrs, e.effect) == \
               (db["game"], db["kind"], db["key"], db["parent"], db["scope"], db["attrs"], db["effect"]), entity_id
        assert sorted(e.refs) == sorted(db["refs"])
        texts = sorted((t.field, t.lang, t.text, t.origin, t.source, t.lines) for t in e.texts)
        assert texts == sorted((field, t["lang"], t["text"], t["origin"], t.get("source"), t.get("lines"))
                               for field, langs in db["texts"].items() for items in langs.values() for t in items)
        assert [p.model_dump(exclude_none=True) for p in e.provenance] == db["provenance"]


def test_effects_are_exported_structured_and_rendered_in_three_languages(real_export):
    _, data, _ = real_export
    assert data.meta.counts["effects"] > 100
    for record in data.data.effects:
        assert record.effect and set(record.rendered) == {"pl", "cs", "en"}, record.entity
        assert all(text.strip() for text in record.rendered.values())


def _validators(out: Path):
    schema = json.loads((out / "rulekb.schema.json").read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    line_schema = json.loads((out / "rulekb.jsonl.schema.json").read_text())
    jsonschema.Draft202012Validator.check_schema(line_schema)
    return jsonschema.Draft202012Validator(schema), jsonschema.Draft202012Validator(line_schema)


def test_json_and_jsonl_exports_validate_against_the_schemas_they_ship_with(fixture_db, tmp_path):
    data = export.read(open_engine(fixture_db, readonly=True), run_example=fake_result)
    export.write(data, tmp_path, ("json", "jsonl"))
    whole, line = _validators(tmp_path)
    whole.validate(json.loads((tmp_path / "rulekb.json").read_text()))
    lines = (tmp_path / "rulekb.jsonl").read_text().splitlines()
    assert json.loads(lines[0])["object"] == "meta" and len(lines) == 1 + sum(data.meta.counts.values())
    for text in lines:
        line.validate(json.loads(text))


def test_every_kind_of_record_of_the_real_knowledge_base_fits_the_schema(real_export):
    """The whole real file takes jsonschema half a minute: check the first records of every kind."""
    _, data, out = real_export
    _, line = _validators(out)
    seen: dict[str, int] = {}
    for text in (out / "rulekb.jsonl").read_text().splitlines():
        record = json.loads(text)
        seen[record["object"]] = seen.get(record["object"], 0) + 1
        if seen[record["object"]] <= 25:
            line.validate(record)
    assert set(seen) == {"meta", "game", "source", "entity", "effect", "glossary_term", "example", "discrepancy",
                         "unknown"}
    assert all(seen[kind] > 0 for kind in seen)


def test_a_file_that_breaks_the_schema_is_refused_by_it(real_export):
    _, _, out = real_export
    whole, _ = _validators(out)
    doc = json.loads((out / "rulekb.json").read_text())
    doc["data"]["entities"] = doc["data"]["entities"][:3]
    assert whole.is_valid(doc)
    doc["data"]["entities"][0]["texts"][0]["origin"] = "guessed"
    assert not whole.is_valid(doc)


def test_every_format_carries_the_same_meta_block_and_the_same_rows(real_export):
    _, data, out = real_export
    meta = json.loads((out / "meta.json").read_text())
    assert meta["content_hash"] == data.meta.content_hash and meta["kb_version"] == data.meta.kb_version
    assert {s["id"] for s in meta["sources"]} == {s.id for s in data.data.sources}
    assert "copyright" in meta["licence"] and meta["built_at"]
    texts = sum(len(e.texts) for e in data.data.entities)
    with zipfile.ZipFile(out / "rulekb-csv.zip") as z:
        assert json.loads(z.read("meta.json")) == meta
        rows = {n.removesuffix(".csv"): list(csv.DictReader(io.StringIO(z.read(n).decode())))
                for n in z.namelist() if n.endswith(".csv")}
    assert len(rows["entities"]) == data.meta.counts["entities"] and len(rows["texts"]) == texts
    assert len(rows["discrepancies"]) == data.meta.counts["discrepancies"]
    db = sqlite3.connect(out / "rulekb.sqlite")
    assert json.loads(db.execute("SELECT value FROM meta WHERE key = 'content_hash'").fetchone()[0]) == meta["content_hash"]
    assert db.execute("SELECT count(*) FROM texts").fetchone()[0] == texts
    first = data.data.entities[0]
    assert json.loads(db.execute("SELECT attrs FROM entities WHERE id = ?", (first.id,)).fetchone()[0]) == first.attrs
    db.close()


def test_the_content_hash_changes_with_the_data_not_with_the_export(real_export, fixture_db, tmp_path):
    engine, data, _ = real_export
    export.write(export.read(open_engine(fixture_db, readonly=True)), tmp_path / "a", ("json",))
    export.write(export.read(open_engine(fixture_db, readonly=True)), tmp_path / "b", ("json",))
    assert (tmp_path / "a" / "rulekb.json").read_bytes() == (tmp_path / "b" / "rulekb.json").read_bytes()
    one_game = export.read(engine, "gugong", run_example=fake_result)
    assert one_game.meta.content_hash != data.meta.content_hash
    assert {e.game for e in one_game.data.entities} == {"gugong"}
    assert {s["game"] for s in one_game.meta.sources} == {"gugong"}


# ---------------------------------------------------------------- diff

def test_a_build_diffed_against_its_own_export_is_empty(real_export, fixture_db, tmp_path):
    _, data, out = real_export
    changes = diff(export.load(out), data)
    assert is_empty(changes) and changes["changed"] == changes["added"] == changes["removed"] == []
    export.write(export.read(open_engine(fixture_db, readonly=True)), tmp_path, ("json",))
    result = CliRunner().invoke(cli, ["diff", str(tmp_path), "build", "--database-url", fixture_db])
    assert result.exit_code == 0 and result.output.strip().endswith("no changes")


def _changed_copy(fixture_db: str, tmp_path: Path, entity_id: str, path: str, value) -> str:
    """A copy of the fixture database with one attribute set to another value."""
    copy = tmp_path / "changed.db"
    shutil.copy(fixture_db.removeprefix("sqlite:///"), copy)
    db = sqlite3.connect(copy)
    db.execute("UPDATE entity SET attrs = json_set(attrs, ?, json(?)) WHERE id = ?", (path, json.dumps(value), entity_id))
    db.commit()
    db.close()
    return f"sqlite:///{copy}"


def _some_number(data: export.Export) -> tuple[export.EntityRecord, str, int]:
    """An entity with a whole-number attribute: the entity, the attribute's name and its value."""
    return next((e, k, v) for e in data.data.entities for k, v in e.attrs.items()
                if isinstance(v, int) and not isinstance(v, bool))


def test_a_diff_after_changing_one_attribute_names_exactly_that_change(fixture_db, tmp_path):
    before = export.read(open_engine(fixture_db, readonly=True))
    entity, attr, old = _some_number(before)
    after = export.read(open_engine(_changed_copy(fixture_db, tmp_path, entity.id, f"$.{attr}", old + 5), readonly=True))
    changes = diff(before, after)
    assert changes["summary"] == {"added": 0, "removed": 0, "changed": 1, "attrs": 1, "texts": 0,
                                  "findings_added": 0, "findings_removed": 0}
    assert changes["changed"][0]["id"] == entity.id
    assert changes["changed"][0]["attrs"] == [{"path": f"attrs.{attr}", "old": old, "new": old + 5}]
    assert before.meta.kb_version != after.meta.kb_version
    export.write(before, tmp_path / "old", ("json",))
    result = CliRunner().invoke(cli, ["diff", str(tmp_path / "old"), "build", "--database-url",
                                      f"sqlite:///{tmp_path / 'changed.db'}", "--json"])
    assert result.exit_code == 0 and json.loads(result.output)["changed"] == changes["changed"]


def test_diff_names_added_and_removed_entities(fixture_db):
    full = export.read(open_engine(fixture_db, readonly=True))
    fewer = full.model_copy(deep=True)
    gone = fewer.data.entities.pop()
    assert [r["id"] for r in diff(full, fewer)["removed"]] == [gone.id]
    assert [a["id"] for a in diff(fewer, full)["added"]] == [gone.id]


def test_diff_of_something_that_is_not_an_export_is_a_usage_error_and_of_nothing_a_missing_file(tmp_path):
    (tmp_path / "x.json").write_text("{}")
    for target, status in ((str(tmp_path / "x.json"), 2), (str(tmp_path / "missing"), 1)):  # missing: like an unknown id
        result = CliRunner().invoke(cli, ["diff", target, str(tmp_path / "x.json")])
        assert result.exit_code == status and "Traceback" not in result.output


def test_publishing_keeps_a_changelog_first_build_then_only_real_changes(fixture_db, tmp_path):
    bulk = tmp_path / "bulk"
    original = export.read(open_engine(fixture_db, readonly=True))
    first = export.publish(original, bulk)
    assert first["changelog_entry"]["first_build"]
    assert export.publish(export.read(open_engine(fixture_db, readonly=True)), bulk)["changelog_entry"] is None
    entity, attr, old = _some_number(original)
    changed = export.read(open_engine(_changed_copy(fixture_db, tmp_path, entity.id, f"$.{attr}", old + 1), readonly=True))
    entry = export.publish(changed, bulk)["changelog_entry"]
    log = json.loads((bulk / export.CHANGELOG).read_text())
    assert [b["kb_version"] for b in log["builds"]] == [changed.meta.kb_version, first["changelog_entry"]["kb_version"]]
    assert [c["id"] for c in entry["changes"]["changed"]] == [entity.id]


def test_export_command_writes_the_formats_asked_for(fixture_db, tmp_path):
    result = CliRunner().invoke(cli, ["export", "--out", str(tmp_path), "--format", "json,sqlite", "--no-results",
                                      "--database-url", fixture_db])
    assert result.exit_code == 0, result.output
    assert {p.name for p in tmp_path.iterdir()} == {"rulekb.json", "rulekb.schema.json", "rulekb.sqlite", "meta.json"}
    bad = CliRunner().invoke(cli, ["export", "--out", str(tmp_path), "--format", "xml", "--database-url", fixture_db])
    assert bad.exit_code == 2 and "json, jsonl, csv, sqlite" in bad.output
    unknown = CliRunner().invoke(cli, ["export", "--out", str(tmp_path), "--game", "chess", "--database-url", fixture_db])
    assert unknown.exit_code == 1 and "gugong" in unknown.output  # an unknown game, as on every command


# ---------------------------------------------------------------- the API

@pytest.fixture
def bulk_client(fixture_db, tmp_path, monkeypatch):
    monkeypatch.setenv("RULEKB_BULK_DIR", str(tmp_path))
    export.publish(export.read(open_engine(fixture_db, readonly=True)), tmp_path)
    return TestClient(create_app(fixture_db, site_dir=None))


def test_bulk_lists_every_file_in_the_list_envelope(bulk_client, tmp_path):
    body = bulk_client.get("/api/v1/bulk").json()
    assert body["object"] == "list" and body["has_more"] is False and body["next"] is None
    files = {f["name"]: f for f in body["data"]}
    assert body["total"] == len(files) and {"rulekb.json", "rulekb.jsonl", "rulekb-csv.zip", "rulekb.sqlite",
                                            "rulekb.schema.json", "meta.json", "changelog.json"} <= set(files)
    one = files["rulekb.json"]
    assert one["size"] == (tmp_path / "rulekb.json").stat().st_size and one["content_type"] == "application/json"
    assert one["download_url"].endswith("/api/v1/bulk/rulekb.json") and len(one["sha256"]) == 64
    assert one["kb_version"] == json.loads((tmp_path / "meta.json").read_text())["kb_version"]


def test_a_download_answers_304_to_its_etag_and_to_a_later_date(bulk_client, tmp_path):
    first = bulk_client.get("/api/v1/bulk/rulekb.json")
    assert first.status_code == 200 and first.content == (tmp_path / "rulekb.json").read_bytes()
    etag, modified = first.headers["etag"], first.headers["last-modified"]
    assert bulk_client.get("/api/v1/bulk/rulekb.json", headers={"If-None-Match": etag}).status_code == 304
    assert bulk_client.get("/api/v1/bulk/rulekb.json", headers={"If-Modified-Since": modified}).status_code == 304
    earlier = format_datetime(datetime.now(timezone.utc) - timedelta(days=365), usegmt=True)
    assert bulk_client.get("/api/v1/bulk/rulekb.json", headers={"If-Modified-Since": earlier}).status_code == 200
    # If-None-Match decides when both are sent (RFC 9110): another ETag means send the file
    both = bulk_client.get("/api/v1/bulk/rulekb.json", headers={"If-None-Match": '"other"', "If-Modified-Since": modified})
    assert both.status_code == 200


def test_downloads_are_compressed_for_clients_that_accept_gzip(bulk_client, tmp_path):
    raw = bulk_client.get("/api/v1/bulk/rulekb.jsonl", headers={"Accept-Encoding": "gzip"})
    assert raw.headers["content-encoding"] == "gzip" and raw.content == (tmp_path / "rulekb.jsonl").read_bytes()
    sizes = bulk_client.stream("GET", "/api/v1/bulk/rulekb.jsonl", headers={"Accept-Encoding": "gzip"})
    with sizes as response:
        wire = b"".join(response.iter_raw())
    assert len(wire) < (tmp_path / "rulekb.jsonl").stat().st_size / 3 and gzip.decompress(wire)


def test_an_unknown_bulk_file_is_a_404_problem_and_nothing_outside_is_served(bulk_client):
    for name in ("nope.json", "..%2Frulekb.db", ".rulekb.json.tmp"):
        response = bulk_client.get(f"/api/v1/bulk/{name}")
        assert response.status_code == 404 and response.headers["content-type"] == "application/problem+json"


def test_without_bulk_files_the_list_is_empty(fixture_db, tmp_path, monkeypatch):
    monkeypatch.setenv("RULEKB_BULK_DIR", str(tmp_path / "none"))
    body = TestClient(create_app(fixture_db, site_dir=None)).get("/api/v1/bulk").json()
    assert body["data"] == [] and body["total"] == 0
