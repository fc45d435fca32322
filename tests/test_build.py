"""`rulekb build`: complete, idempotent, atomic, on SQLite and PostgreSQL."""
import shutil

import pytest
from sqlalchemy import text

from cli.build import build
from kb.db import open_engine
from kb.loader import KBError, load
from kb.queries import get_entity, list_games

from tests.conftest import FIXTURE_DATA


def counts(url: str) -> dict[str, int]:
    engine = open_engine(url)
    with engine.connect() as conn:
        out = {t: conn.execute(text(f"SELECT COUNT(*) FROM {t}")).scalar()
               for t in ("game", "entity", "text", "termform", "provenance", "searchdoc")}
    engine.dispose()
    return out


def test_build_loads_every_entity_text_and_form(fixture_kb, fixture_db):
    c = counts(fixture_db)
    assert c["entity"] == len(fixture_kb.records)
    assert c["termform"] == sum(len(fs) for r in fixture_kb.records.values()
                                for fs in (getattr(r.item, "forms", None) or {}).values())
    servant = get_entity(open_engine(fixture_db, readonly=True), "gugong/term/servant")
    name_pl = servant["texts"]["name"]["pl"][0]
    assert name_pl == {"lang": "pl", "text": "Służący", "origin": "source", "source": "gugong-pl", "lines": [[146, 146]]}
    assert servant["texts"]["name"]["en"][0]["origin"] == "translated"


def test_rebuild_is_idempotent(tmp_path, fixture_kb):
    url = f"sqlite:///{tmp_path / 'kb.db'}"
    build(url, kb=fixture_kb)
    first = counts(url)
    build(url, kb=fixture_kb)
    assert counts(url) == first


def test_failed_build_leaves_previous_database_untouched(tmp_path, fixture_kb):
    db = tmp_path / "kb.db"
    url = f"sqlite:///{db}"
    build(url, kb=fixture_kb)
    before = db.read_bytes()
    broken = tmp_path / "data"
    shutil.copytree(FIXTURE_DATA, broken)
    (broken / "gugong" / "term.yaml").write_text("- key: Bad Key\n  texts: {}\n", encoding="utf-8")
    with pytest.raises(KBError):
        build(url, kb=load(broken))
    assert db.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []


def test_build_failure_midway_removes_the_temporary_file(tmp_path, fixture_kb, monkeypatch):
    import kb.build as kb_build

    def explode(conn, **_):
        raise RuntimeError("disk full")

    monkeypatch.setattr(kb_build.search, "create_index", explode)
    with pytest.raises(RuntimeError):
        build(f"sqlite:///{tmp_path / 'kb.db'}", kb=fixture_kb)
    assert list(tmp_path.iterdir()) == []


def test_sqlite_database_opened_read_only_refuses_writes(fixture_db):
    engine = open_engine(fixture_db, readonly=True)
    with pytest.raises(Exception, match="readonly"):
        with engine.begin() as conn:
            conn.execute(text("DELETE FROM game"))


@pytest.mark.postgres
def test_postgres_build_matches_sqlite(fixture_db, fixture_pg, fixture_kb):
    assert counts(fixture_pg) == counts(fixture_db)
    build(fixture_pg, kb=fixture_kb)  # a second build in the same schema replaces the first
    assert counts(fixture_pg) == counts(fixture_db)
    pg_games = list_games(open_engine(fixture_pg))
    lite_games = list_games(open_engine(fixture_db, readonly=True))
    assert pg_games == lite_games
