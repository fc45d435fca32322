"""Where the built knowledge base lives and how to open it.

Default: SQLite at var/rulekb.db in a source checkout (the directory that holds pyproject.toml),
else ~/.local/share/rulekb/rulekb.db. RULEKB_DATABASE_URL overrides it with any SQLAlchemy URL,
e.g. postgresql+psycopg://postgres@127.0.0.1:5432/test.
"""
from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import quote

from sqlalchemy import create_engine, event
from sqlalchemy.engine import Engine, make_url

from kb import PACKAGE_DIR

RECHECK_SECONDS = 1.0  # how stale a reader's answer to "is there a new build?" may be


def default_sqlite_path() -> Path:
    checkout = PACKAGE_DIR.parent
    if (checkout / "pyproject.toml").is_file():
        return checkout / "var" / "rulekb.db"
    return Path.home() / ".local" / "share" / "rulekb" / "rulekb.db"


def database_url(url: str | None = None) -> str:
    return url or os.environ.get("RULEKB_DATABASE_URL") or f"sqlite:///{default_sqlite_path()}"


def is_sqlite(url: str) -> bool:
    return make_url(url).get_backend_name() == "sqlite"


def sqlite_path(url: str) -> Path:
    return Path(make_url(url).database or "")


def open_engine(url: str | None = None, *, readonly: bool = False) -> Engine:
    """An engine on the built knowledge base; read-only opens SQLite with mode=ro."""
    url = database_url(url)
    if not is_sqlite(url):
        if not readonly:
            return create_engine(url, pool_pre_ping=True)
        # A reader runs no transactions: in autocommit no BEGIN is sent and returning a connection to
        # the pool costs no ROLLBACK, two round trips fewer per request.
        return create_engine(url, pool_pre_ping=True, isolation_level="AUTOCOMMIT")
    path = sqlite_path(url)
    if readonly:
        if not path.is_file():
            raise FileNotFoundError(f"no knowledge base at {path}: run `rulekb build` first")
        # A file URL, so SQLAlchemy gives a QueuePool with one connection per concurrent request. (A
        # bare "sqlite://" with a creator gets a SingletonThreadPool that closes connections other
        # threads still use: the server crashed at six concurrent readers.)
        return create_engine(f"sqlite:///file:{quote(str(path))}?mode=ro&uri=true",
                             connect_args={"check_same_thread": False}, pool_size=8, max_overflow=120,
                             pool_timeout=30)
    engine = create_engine(url, connect_args={"check_same_thread": False})

    @event.listens_for(engine, "connect")
    def _pragmas(dbapi_conn, _record):  # pragma: no cover - trivial
        dbapi_conn.execute("PRAGMA foreign_keys=ON")

    return engine
