"""Shared fixtures: the small hand-checked data slice in tests/fixtures/data, the real knowledge
base in kb/data, and databases built from them on SQLite (temporary files) and PostgreSQL."""
from __future__ import annotations

import dataclasses
import os
import uuid
from contextlib import contextmanager
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from cli.build import build
from kb.db import open_engine
from kb.loader import load

FIXTURE_DATA = Path(__file__).parent / "fixtures" / "data"
PG_URL = os.environ.get("RULEKB_TEST_PG_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")


@pytest.fixture(scope="session")
def fixture_kb():
    return load(FIXTURE_DATA)


@pytest.fixture(scope="session")
def real_kb():
    return load()


JADE = "gugong/term/jade"  # the entry fixture_kb_without_jade lacks


@pytest.fixture(scope="session")
def fixture_kb_without_jade(fixture_kb):
    """The fixture data less the jade term (and the location that refers to it): a build to rebuild
    from, to see a new entry appear."""
    return dataclasses.replace(fixture_kb, records={k: r for k, r in fixture_kb.records.items()
                                                    if k not in (JADE, "gugong/location/jade")})


@pytest.fixture(scope="session", autouse=True)
def rules_database(tmp_path_factory, real_kb):
    """The engines read compiled rule sets from the database (ARCHITECTURE.md, "Compiled rule sets"):
    the tests build the current kb/data's once (kb tables only, no i18n rows) and point
    RULEKB_DATABASE_URL at it, so a stale var/rulekb.db never decides a test."""
    from kb.build import build as build_kb_tables

    url = f"sqlite:///{tmp_path_factory.mktemp('rules-db') / 'kb.db'}"
    build_kb_tables(url, kb=real_kb)
    previous = os.environ.get("RULEKB_DATABASE_URL")
    os.environ["RULEKB_DATABASE_URL"] = url
    yield url
    if previous is None:
        os.environ.pop("RULEKB_DATABASE_URL", None)
    else:
        os.environ["RULEKB_DATABASE_URL"] = previous


def _with_real_rules(url: str, real_kb) -> None:
    """The fixture slice is for queries; a game played on it (an API served from it) needs the whole
    game's compiled rule set, which the engines read from the same database (ARCHITECTURE.md)."""
    from kb import ruleset

    engine = open_engine(url)
    with engine.begin() as conn:
        conn.execute(text("UPDATE ruleset SET document = :doc WHERE game_id = 'gugong'"),
                     {"doc": ruleset.dumps(ruleset.compile_game(real_kb, "gugong"))})
    engine.dispose()


@pytest.fixture(scope="session")
def fixture_db(tmp_path_factory, fixture_kb, real_kb) -> str:
    url = f"sqlite:///{tmp_path_factory.mktemp('fixture-db') / 'kb.db'}"
    build(url, kb=fixture_kb)
    _with_real_rules(url, real_kb)
    return url


@pytest.fixture(scope="session")
def real_db(tmp_path_factory, real_kb) -> str:
    url = f"sqlite:///{tmp_path_factory.mktemp('real-db') / 'kb.db'}"
    build(url, kb=real_kb)
    return url


def _pg_available() -> str | None:
    """None when the server answers, else the reason it cannot be used."""
    try:
        engine = create_engine(PG_URL, connect_args={"connect_timeout": 3})
        with engine.connect() as conn:
            conn.execute(text("SELECT 1"))
        engine.dispose()
        return None
    except Exception as exc:  # any failure to connect means: skip, and say why
        return f"PostgreSQL at {PG_URL} does not answer ({type(exc).__name__}: {str(exc).splitlines()[0]})"


@contextmanager
def _pg_schema():
    """A fresh schema on the test server, dropped afterwards; yields a URL that uses it."""
    reason = _pg_available()
    if reason:
        pytest.skip(f"{reason}; set RULEKB_TEST_PG_URL to run the PostgreSQL tests")
    schema = f"rulekb_test_{uuid.uuid4().hex[:10]}"
    admin = create_engine(PG_URL)
    with admin.begin() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    sep = "&" if "?" in PG_URL else "?"
    try:
        yield f"{PG_URL}{sep}options=-csearch_path%3D{schema}"
    finally:
        with admin.begin() as conn:
            conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


@pytest.fixture(scope="session")
def pg_schema_url():
    with _pg_schema() as url:
        yield url


@pytest.fixture
def new_pg_url():
    """A schema of the test's own, for a test that rebuilds it."""
    with _pg_schema() as url:
        yield url


@pytest.fixture(scope="session")
def fixture_pg(pg_schema_url, fixture_kb, real_kb) -> str:
    build(pg_schema_url, kb=fixture_kb)
    _with_real_rules(pg_schema_url, real_kb)
    return pg_schema_url


@pytest.fixture(params=["sqlite", "postgresql"])
def fixture_engine(request):
    """The fixture knowledge base on each backend: the same queries must behave the same."""
    url = request.getfixturevalue("fixture_db" if request.param == "sqlite" else "fixture_pg")
    engine = open_engine(url, readonly=request.param == "sqlite")
    yield engine
    engine.dispose()


# Figures measured by the data tests (coverage, fidelity, spelling), printed after the run so the
# numbers behind a green suite are visible in CI output.
FIGURES: list[str] = []


@pytest.fixture
def figures():
    return FIGURES


def pytest_terminal_summary(terminalreporter):
    if FIGURES:
        terminalreporter.section("rulekb figures")
        for line in FIGURES:
            terminalreporter.write_line(line)


@pytest.fixture(scope="session")
def real_site(tmp_path_factory, real_db):
    """The docs site built once from the real knowledge base, for every test that reads it."""
    from tests.test_site import build_site

    tmp = tmp_path_factory.mktemp("site")
    done = build_site(tmp, real_db)
    assert done.returncode == 0, done.stderr
    return tmp / "out"


@pytest.fixture(autouse=True)
def _session_stores_closed(monkeypatch):
    """Every session store a test's app opens is closed after the test. A TestClient used without `with`
    never runs the app's shutdown, and across the suite PostgreSQL's 100 connections ran out."""
    import api.app

    opened, real = [], api.app.open_store

    def tracked(url=None):
        opened.append(real(url))
        return opened[-1]

    monkeypatch.setattr(api.app, "open_store", tracked)
    yield
    for engine in opened:
        engine.dispose()
