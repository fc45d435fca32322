"""How the API is configured: arguments of create_app, else environment variables, else defaults.

Every worker process of `rulekb serve --workers N` builds the same settings from the same
environment, so the workers agree on the databases and the limits.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

DEFAULT_SITE_DIR = Path(__file__).resolve().parent.parent / "build" / "site"


def _env_int(name: str, default: int) -> int:
    value = os.environ.get(name)
    try:
        return int(value) if value else default
    except ValueError:
        raise SystemExit(f"{name} must be a whole number, not {value!r}") from None


def _env_url(name: str) -> str | None:
    value = os.environ.get(name)
    if value and not value.startswith(("http://", "https://")):
        raise SystemExit(f"{name} must be an http:// or https:// URL, not {value!r}")
    return value.rstrip("/") if value else None


@dataclass(frozen=True)
class Settings:
    database_url: str | None = None  # the knowledge base (kb.db.database_url picks the default)
    sessions_url: str | None = None  # game sessions (api.store.sessions_url picks the default)
    site_dir: Path | None = DEFAULT_SITE_DIR
    # A session nobody has touched for this long expires (RULEKB_SESSION_IDLE_SECONDS; default 7 days).
    session_idle_seconds: int = field(default_factory=lambda: _env_int("RULEKB_SESSION_IDLE_SECONDS", 7 * 24 * 3600))
    # A session no seat has acted in expires sooner (RULEKB_SESSION_UNPLAYED_SECONDS; default 10 minutes):
    # sessions created and left do not hold room for days.
    session_unplayed_seconds: int = field(default_factory=lambda: _env_int("RULEKB_SESSION_UNPLAYED_SECONDS", 600))
    # New sessions per client address: a burst of RULEKB_CREATE_BURST, then RULEKB_CREATE_PER_MINUTE
    # (a token bucket in each worker process; 0 turns the limit off). Past it: 429 with Retry-After.
    create_burst: int = field(default_factory=lambda: _env_int("RULEKB_CREATE_BURST", 20))
    create_per_minute: int = field(default_factory=lambda: _env_int("RULEKB_CREATE_PER_MINUTE", 30))
    # Live sessions at most (RULEKB_MAX_SESSIONS); past it, creating one answers 503 with Retry-After.
    max_sessions: int = field(default_factory=lambda: _env_int("RULEKB_MAX_SESSIONS", 10_000))
    # Where clients reach the API (RULEKB_PUBLIC_URL, e.g. https://rules.example.org): links in answers
    # start with it. Unset, links are relative: never built from the request's Host, which a client
    # chooses and the response cache does not key on.
    public_url: str | None = field(default_factory=lambda: _env_url("RULEKB_PUBLIC_URL"))
    max_body_bytes: int = 64 * 1024  # a scenario or an action is far smaller
    max_json_depth: int = 32  # the deepest real document (a scenario's setup) nests about 8 levels


def from_environment() -> Settings:
    """What `rulekb serve` workers use: RULEKB_DATABASE_URL, RULEKB_SESSIONS_URL, RULEKB_SITE_DIR."""
    site = os.environ.get("RULEKB_SITE_DIR")
    return Settings(database_url=os.environ.get("RULEKB_DATABASE_URL"),
                    sessions_url=os.environ.get("RULEKB_SESSIONS_URL"),
                    site_dir=Path(site) if site else DEFAULT_SITE_DIR)
