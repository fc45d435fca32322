"""Game sessions played over HTTP, persisted in their own database.

The knowledge base is a read-only build product that `rulekb build` replaces; sessions are user
data, so they live elsewhere: RULEKB_SESSIONS_URL, default SQLite var/sessions.db in WAL mode with
synchronous=FULL (an accepted action is on disk before the response leaves). Several worker
processes share one store: every change is one transaction that checks the session's version, so
two concurrent actions never both apply.

Who sees what: creating a session returns an owner token and one token per human seat; only token
hashes are stored. A seat's token acts for that seat and reads that seat's observation; the owner
token reads the full state (with the seed) and deletes; no token reads the public view. Nothing is
stored that cannot be read back: every JSON value is checked as it is written, in the one
serializer the store's engine uses (no NaN, no lone surrogate), and a client's values before any
use (nor an integer a JavaScript client would round).
"""
from __future__ import annotations

import hashlib
import hmac
import json
import math
import secrets
import threading
import time
import unicodedata
from contextlib import contextmanager, nullcontext
from datetime import datetime, timezone
from pathlib import Path
from types import SimpleNamespace
from typing import Any, Iterator, Optional

from sqlalchemy import (JSON, Column, String, and_, bindparam, case, create_engine, delete, event, func, inspect, or_,
                        text)
from sqlalchemy.engine import Connection, Engine, Row
from sqlalchemy.exc import IntegrityError, OperationalError, ProgrammingError, StatementError
from sqlmodel import Field, SQLModel, select

from api.problems import ApiError
from engine.core import EngineError, Game, IllegalAction, MalformedAction, Rng, get_game
from engine.core.gametype import OptionError
from engine.core.rng import SEED_BITS
from i18n.catalog import N_
from kb.db import default_sqlite_path, is_sqlite

AGENTS = ("human", "random")
MAX_AGENT_STEPS = 5000
JS_SAFE = 2**53 - 1  # the largest integer a JavaScript client reads exactly


class PlaySession(SQLModel, table=True):
    __tablename__ = "play_session"
    id: str = Field(primary_key=True)
    game: str
    players: list[str] = Field(sa_column=Column(JSON, nullable=False))
    agents: dict[str, str] = Field(sa_column=Column(JSON, nullable=False))  # seat -> human | random
    options: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    seed: str  # decimal text: a server-chosen seed has 128 bits, beyond a 64-bit column
    state: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    agent_rng: str  # the random seats' generator state (engine.core.rng: a stream of its own)
    version: int = 0
    owner_hash: str
    seat_hashes: dict[str, str] = Field(sa_column=Column(JSON, nullable=False))  # seat -> sha256 of its token
    created_at: datetime
    updated_at: datetime
    touched: float = Field(index=True)  # time.time() of its last use (expiry; reads refresh it now and then)
    played: bool = False  # a seat has acted: until then the session expires after unplayed_seconds


class PlayAction(SQLModel, table=True):
    __tablename__ = "play_action"
    id: Optional[int] = Field(default=None, primary_key=True)
    session_id: str = Field(foreign_key="play_session.id", index=True, ondelete="CASCADE")
    seq: int
    player: Optional[str] = None
    by: str  # human | random
    action: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    events: list[Any] = Field(sa_column=Column(JSON, nullable=False))
    at: datetime


class PlayRequest(SQLModel, table=True):
    """An applied POST with an Idempotency-Key, keyed by the token that sent it: a retry by that token
    is answered without a second move; the key means nothing to any other token. Only a reference to
    the answer is kept (the version the move made, the sender's role), not the answer itself."""
    __tablename__ = "play_request"
    session_id: str = Field(foreign_key="play_session.id", primary_key=True, ondelete="CASCADE")
    token_hash: str = Field(primary_key=True)
    key: str = Field(primary_key=True)
    request_hash: str
    version: int
    role: str


TABLES = [PlaySession.__table__, PlayAction.__table__, PlayRequest.__table__]
_SESSION, _ACTION, _REQUEST = TABLES
# The store works on Core connections with plain statements, not ORM sessions: an ORM session's
# transaction bookkeeping, unit of work and identity map cost more than a session's whole read.
# Statements are built once: constructing one per request (coercing its clauses, keying it for the
# compiled cache) cost SQLAlchemy more than running it.
_READ_ROW = select(_SESSION).where(_SESSION.c.id == bindparam("sid"))
_READ_REQUEST = select(_REQUEST).where(_REQUEST.c.session_id == bindparam("sid"),
                                      _REQUEST.c.token_hash == bindparam("token"), _REQUEST.c.key == bindparam("key"))
_MOVE = _SESSION.update().where(_SESSION.c.id == bindparam("sid"), _SESSION.c.version == bindparam("from_version"))
_LOG = _ACTION.insert()
_TOUCH = _SESSION.update().where(_SESSION.c.id == bindparam("sid")).values(touched=bindparam("touched"))


class SessionError(ApiError):
    """A refused session request: `message` is English marked for translation, `params` fill it."""
    status = 400

    def __init__(self, message: str, params: dict[str, Any] | None = None, headers: dict[str, str] | None = None,
                 **extra: Any):
        super().__init__(self.status, message, params=params, headers=headers, **extra)


class Unauthorized(SessionError):
    status = 401


class Forbidden(SessionError):
    status = 403


class NotFoundError(SessionError):
    status = 404


class Conflict(SessionError):
    status = 409


class Expired(SessionError):
    status = 410


class Stale(SessionError):
    status = 412


class Rejected(SessionError):
    status = 422


class Full(SessionError):
    status = 503


def sessions_url(url: str | None = None) -> str:
    import os

    return url or os.environ.get("RULEKB_SESSIONS_URL") or f"sqlite:///{default_sqlite_path().with_name('sessions.db')}"


WRITE = "rulekb_write"  # execution option of the store's write transactions


def open_store(url: str | None = None) -> Engine:
    url = sessions_url(url)
    if is_sqlite(url):
        Path(url.removeprefix("sqlite:///")).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30},
                               pool_size=8, max_overflow=56, json_serializer=json_text)

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn, _record):
            dbapi_conn.isolation_level = None  # transactions are begun explicitly below
            dbapi_conn.execute("PRAGMA journal_mode=WAL")
            dbapi_conn.execute("PRAGMA synchronous=FULL")
            dbapi_conn.execute("PRAGMA foreign_keys=ON")
            dbapi_conn.execute("PRAGMA busy_timeout=30000")

        @event.listens_for(engine, "begin")
        def _begin(conn):
            # A write takes the write lock at once, so no two writers interleave; a read begins a
            # plain snapshot, which in WAL mode never waits for a writer nor makes one wait.
            conn.exec_driver_sql("BEGIN IMMEDIATE" if conn.get_execution_options().get(WRITE) else "BEGIN")
    else:
        engine = create_engine(url, pool_pre_ping=True, pool_size=8, max_overflow=56, json_serializer=json_text)
    try:
        _upgrade(engine)
    except (OperationalError, ProgrammingError):  # another worker upgraded it at the same moment
        pass
    try:
        SQLModel.metadata.create_all(engine, tables=TABLES)
    except IntegrityError:  # another worker created them at the same moment
        pass
    return engine


def _upgrade(engine: Engine) -> None:
    """Bring a store of the earlier layout up to date: the seed became text (128 bits do not fit a
    64-bit column) and idempotency records became references keyed by token; the old records, whole
    answers any token could read back, are dropped."""
    found = inspect(engine)
    tables = found.get_table_names()
    with engine.begin() as conn:
        if "play_request" in tables and "token_hash" not in {c["name"] for c in found.get_columns("play_request")}:
            conn.execute(text("DROP TABLE play_request"))
        if "play_session" in tables and "played" not in {c["name"] for c in found.get_columns("play_session")}:
            # sessions of before count as played: the sooner expiry is for sessions made from now on
            conn.execute(text("ALTER TABLE play_session ADD COLUMN played BOOLEAN NOT NULL DEFAULT TRUE"))
        seed = next((c for c in found.get_columns("play_session") if c["name"] == "seed"), None) \
            if "play_session" in tables else None
        if seed is not None and not isinstance(seed["type"], String):
            if conn.dialect.name == "postgresql":
                conn.execute(text("ALTER TABLE play_session ALTER COLUMN seed TYPE VARCHAR USING seed::text"))
            else:
                for statement in ("ALTER TABLE play_session RENAME COLUMN seed TO seed_int",
                                  "ALTER TABLE play_session ADD COLUMN seed VARCHAR NOT NULL DEFAULT ''",
                                  "UPDATE play_session SET seed = CAST(seed_int AS TEXT)",
                                  "ALTER TABLE play_session DROP COLUMN seed_int"):
                    conn.execute(text(statement))


# ---- values that can be stored and read back
class Unstorable(ValueError):
    """A value json_text refuses."""


def json_text(value: Any) -> str:
    """The JSON text the store writes for a value, or Unstorable: NaN and infinity are not JSON, and
    a lone surrogate is not UTF-8 (stored escaped, it would be read back and fail every answer)."""
    try:
        encoded = json.dumps(value, allow_nan=False, ensure_ascii=False)
        encoded.encode("utf-8")
    except (ValueError, TypeError, RecursionError) as exc:  # UnicodeEncodeError is a ValueError
        raise Unstorable(str(exc)) from None
    return encoded


_UNSTORABLE = N_("%(where)s holds a value that cannot be stored as JSON text (NaN, infinity or an unpaired "
                 "surrogate).")


def storable(value: Any, where: str, *, from_client: bool = False) -> Any:
    """The value if it survives JSON and UTF-8 unchanged (and, sent by a client, a JavaScript
    client too: engine states hold a 64-bit generator state, shown to clients by js_safe)."""
    try:
        json_text(value)
    except Unstorable:
        raise Rejected(_UNSTORABLE, {"where": where}, field=where) from None
    if from_client and _big_int(value):
        raise Rejected(N_("%(where)s holds an integer beyond 2^53 - 1, which JavaScript clients cannot read "
                          "exactly."), {"where": where}, field=where)
    return value


def _big_int(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return abs(value) > JS_SAFE
    if isinstance(value, dict):
        return any(_big_int(v) for v in value.values())
    if isinstance(value, list):
        return any(_big_int(v) for v in value)
    return False


def js_safe(value: Any) -> Any:
    """Integers beyond 2^53 - 1 (the random generator's state) as decimal strings."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return str(value) if abs(value) > JS_SAFE else value
    if isinstance(value, dict):
        return {k: js_safe(v) for k, v in value.items()}
    if isinstance(value, list):
        return [js_safe(v) for v in value]
    return value


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def _now() -> datetime:
    return datetime.now(timezone.utc)


def etag(version: int) -> str:
    return f'"v{version}"'


class Viewer:
    """Who is asking: the owner, one seat, or anyone (public)."""

    def __init__(self, role: str, seat: str | None = None):
        self.role, self.seat = role, seat


class Store:
    def __init__(self, engine: Engine, *, rules_url: str | None = None, idle_seconds: int, max_sessions: int,
                 unplayed_seconds: int | None = None):
        self.engine, self.idle_seconds, self.max_sessions = engine, idle_seconds, max_sessions
        self.unplayed_seconds = min(idle_seconds, unplayed_seconds or idle_seconds)
        self.rules_url = rules_url  # the database whose rule sets the engines read (the one the API serves)
        # SQLite has one writer at a time. Threads of this process queue on a lock and wake as soon
        # as it is free; left to SQLite's busy handler they would poll with sleeps of up to 100 ms,
        # which is what made the slowest moves at 8 clients take half a second. Other processes
        # still meet the busy handler; PostgreSQL locks the session's row instead.
        self._write_lock = threading.Lock() if is_sqlite(str(engine.url)) else nullcontext()
        self._writer = engine.execution_options(**{WRITE: True})  # the same pool; see open_store

    @contextmanager
    def _writing(self) -> Iterator[Connection]:
        """One write transaction (BEGIN IMMEDIATE on SQLite, see open_store). A value that json_text
        refuses (in a state the engine made, or what derives from it) rolls it back: 422, nothing stored."""
        try:
            with self._write_lock, self._writer.begin() as conn:
                yield conn
        except (Unstorable, StatementError) as exc:  # SQLite's driver wraps it, psycopg's does not
            if not isinstance(exc, Unstorable) and not isinstance(exc.orig, Unstorable):
                raise
            raise Rejected(_UNSTORABLE, {"where": "state"}, field="state") from None

    def game(self, key: str) -> Game:
        try:
            return get_game(key, self.rules_url)
        except EngineError:
            from engine.core.game import ENGINES

            raise Rejected(N_("There is no game %(game)s; games: %(games)s."),
                           {"game": key, "games": ", ".join(ENGINES)}, field="game", allowed=list(ENGINES)) from None

    # ---- create
    def create(self, game: str, players: list[str], agents: dict[str, str], options: dict,
               seed: int | None) -> tuple[dict, dict]:
        g = self.game(game)
        declared = g.game_type
        try:
            declared.check_players(players)
        except EngineError as exc:
            raise Rejected(N_("players: %(problem)s"), {"problem": getattr(exc, "said", None) or str(exc)},
                           field="players") from None
        unknown = [p for p in agents if p not in players]
        if unknown:
            raise Rejected(N_("seats name players that are not in the game: %(names)s."),
                           {"names": ", ".join(unknown)}, field="seats")
        try:
            options = declared.check_options(options, players, session=True)
        except OptionError as exc:
            raise Rejected(N_("options: %(problem)s"), {"problem": str(exc)}, field="options",
                           allowed=exc.allowed) from None
        storable(options, "options", from_client=True)
        # The server's seed has 128 bits from the operating system: the public view shows draws, and
        # trying every seed against them must be out of reach. A seed the client chose is its owner's
        # choice: the owner reads the whole state anyway.
        seed = secrets.randbits(SEED_BITS) if seed is None else seed
        try:
            state = g.new_state(players, options, seed)
        except (EngineError, ValueError, KeyError, TypeError) as exc:
            raise Rejected(N_("cannot start %(game)s with these players and options: %(problem)s"),
                           {"game": game, "problem": str(exc)}, field="options") from None
        owner = secrets.token_urlsafe(24)
        humans = [p for p in players if agents.get(p, "human") == "human"]
        tokens = {p: secrets.token_urlsafe(24) for p in humans}
        now, touched = _now(), time.time()
        row = PlaySession(id=secrets.token_urlsafe(18), game=game, players=players,
                          agents={p: agents.get(p, "human") for p in players}, options=options, seed=str(seed),
                          state=state, agent_rng=Rng.seed_state(seed, "agents"),
                          owner_hash=_hash(owner), seat_hashes={p: _hash(tok) for p, tok in tokens.items()},
                          created_at=now, updated_at=now, touched=touched)
        sid = row.id
        with self._writing() as conn:
            self._make_room(conn)
            conn.execute(_SESSION.insert(), row.model_dump())
            self._run_agents(conn, _Current(row), g)
        view = self.view(sid, owner)
        view["owner_token"] = owner
        view["seats"] = [dict(seat, token=tokens.get(seat["name"])) if seat["name"] in tokens else seat
                         for seat in view["seats"]]
        return view, tokens

    def _make_room(self, conn: Connection) -> None:
        """Drop expired sessions; refuse a new one past the cap (503, Retry-After: when the first of
        them expires, unless it is used before)."""
        now = time.time()
        if conn.dialect.name == "postgresql":  # workers count and insert one at a time
            conn.execute(text("SELECT pg_advisory_xact_lock(7421)"))
        expired = list(conn.execute(select(_SESSION.c.id).where(self._expired(now)).limit(500)).scalars())
        if expired:
            self._drop(conn, expired)
        live, first = conn.execute(select(func.count(), func.min(self._expires_at()))).one()
        if live >= self.max_sessions:
            wait = max(1, math.ceil((first or now) - now))
            raise Full(N_("The server holds as many game sessions as it may (%(n)d); try again later."),
                       {"n": self.max_sessions}, headers={"Retry-After": str(wait)})

    def _expires_at(self):
        """When a session expires (SQL): a while after its last use, sooner when no seat has acted."""
        return _SESSION.c.touched + case((_SESSION.c.played, self.idle_seconds), else_=self.unplayed_seconds)

    def _expired(self, now: float):
        return or_(_SESSION.c.touched < now - self.idle_seconds,
                   and_(_SESSION.c.played.is_(False), _SESSION.c.touched < now - self.unplayed_seconds))

    def lifetime(self, row: SimpleNamespace) -> int:
        return self.idle_seconds if row.played else self.unplayed_seconds

    # ---- who is asking
    def _row(self, conn: Connection, sid: str) -> SimpleNamespace:
        """The session's row as plain values."""
        found = conn.execute(_READ_ROW, {"sid": sid}).first()
        if found is None:
            raise NotFoundError(N_("There is no game session with this id."), id=sid)
        row = SimpleNamespace(**found._mapping)
        if row.touched < time.time() - self.lifetime(row):
            raise Expired(N_("This game session expired after %(n)d seconds without a request."),
                          {"n": self.lifetime(row)}, id=sid)
        return row

    def _read(self, conn: Connection, sid: str) -> SimpleNamespace:
        """The session's row for a read, which counts as use: a session that players only look at
        while they think is not idle. Its time of use is written at most once per tenth of the idle
        time (and per minute), so reads stay reads."""
        row = self._row(conn, sid)
        now = time.time()
        if now - row.touched > min(60.0, self.lifetime(row) / 10):
            with self._writing() as writer:
                writer.execute(_TOUCH, {"sid": sid, "touched": now})
            row.touched = now
        return row

    @staticmethod
    def viewer(row: SimpleNamespace, token: str | None) -> Viewer:
        if token is None:
            return Viewer("public")
        digest = _hash(token)
        if hmac.compare_digest(digest, row.owner_hash):
            return Viewer("owner")
        for seat, seat_hash in row.seat_hashes.items():
            if hmac.compare_digest(digest, seat_hash):
                return Viewer("seat", seat)
        raise Forbidden(N_("This token does not belong to this game session."))

    # ---- read
    def view(self, sid: str, token: str | None, *, replay: bool = False) -> dict:
        with self.engine.connect() as conn:
            row = self._read(conn, sid)
            who = self.viewer(row, token)
            out = self._view(row, who)
            if replay:
                if who.role != "owner":
                    raise Forbidden(N_("Only the owner token may replay a session (the replay uses the seed)."))
                actions = [a.action for a in self._history(conn, sid)]
                out["replay_matches"] = self.game(row.game).replay(row.players, row.options, int(row.seed),
                                                                   actions) == row.state
            return out

    def _view(self, row: SimpleNamespace, who: Viewer) -> dict:
        g = self.game(row.game)
        terminal = g.is_terminal(row.state)
        current = g.current_player(row.state)
        state = row.state if who.role == "owner" or terminal else g.observation(row.state, who.seat)
        out = dict(id=row.id, game=row.game, players=row.players,
                   seats=[{"seat": i, "name": p, "agent": row.agents[p]} for i, p in enumerate(row.players)],
                   options=row.options, version=row.version, viewer={"role": who.role, "seat": who.seat},
                   state=js_safe(state), current_player=current, terminal=terminal,
                   created_at=row.created_at.isoformat(), updated_at=row.updated_at.isoformat(),
                   expires_at=datetime.fromtimestamp(row.touched + self.lifetime(row), timezone.utc)
                   .isoformat(timespec="seconds"))
        if who.role == "owner" or terminal:
            out["seed"] = js_safe(int(row.seed))
        if not terminal and (who.role == "owner" or (who.seat is not None and who.seat == current)):
            out["legal"] = g.legal_actions(row.state)
        if terminal:
            out["scores"] = g.scores(row.state)
        return out

    @staticmethod
    def _history(conn: Connection, sid: str, limit: int | None = None, offset: int = 0) -> list[Row]:
        q = select(_ACTION).where(_ACTION.c.session_id == sid).order_by(_ACTION.c.seq).offset(offset)
        return list(conn.execute(q.limit(limit) if limit else q))

    def history(self, sid: str, token: str | None, limit: int, offset: int) -> tuple[dict, list[dict], int]:
        with self.engine.connect() as conn:
            row = self._read(conn, sid)
            who = self.viewer(row, token)
            view = self._view(row, who)
            total = conn.execute(select(func.count()).where(_ACTION.c.session_id == sid)).scalar_one()
            items = [dict(seq=a.seq, player=a.player, by=a.by, action=a.action, events=a.events,
                          at=a.at.isoformat()) for a in self._history(conn, sid, limit, offset)]
            if who.role != "owner" and not view["terminal"]:  # as the state: other seats' hidden moves masked
                declared = self.game(row.game).game_type
                items = [declared.move_view(item, who.seat) for item in items]
            return view, items, total

    # ---- change
    def apply(self, sid: str, token: str | None, action: Any, *, expected_version: int | None = None,
              if_match: str | None = None, idempotency_key: str | None = None) -> dict:
        request_hash = hashlib.sha256(json.dumps([action, expected_version], sort_keys=True,
                                                 ensure_ascii=True).encode()).hexdigest()
        storable(action, "action", from_client=True)
        if token is None:  # no token is 401 whether or not the session exists
            raise Unauthorized(N_("Acting needs the token of the seat that acts (Authorization: Bearer TOKEN)."))
        done_key = {"sid": sid, "token": _hash(token), "key": idempotency_key}
        try:
            with self._writing() as conn:
                row = self._row(conn, sid)
                who = self.viewer(row, token)
                if who.role != "seat":
                    raise (Unauthorized if who.role == "public" else Forbidden)(
                        N_("Acting needs the token of the seat that acts (Authorization: Bearer TOKEN)."))
                if idempotency_key is not None:  # keys are the token's own: no other token meets them
                    done = conn.execute(_READ_REQUEST, done_key).first()
                    if done is not None:
                        return self._replayed(row, who, done, request_hash)
                player = action.get("player") if isinstance(action, dict) else None
                if isinstance(player, str) and player != who.seat and unicodedata.normalize("NFC", player) == who.seat:
                    action = {**action, "player": who.seat}  # the seat's name as another client spells it (NFD)
                    player = who.seat
                if player != who.seat:
                    raise Forbidden(N_("This token acts for %(seat)s, not for %(player)s."),
                                    {"seat": who.seat, "player": player}, field="action.player")
                if if_match is not None and etag(row.version) not in [e.strip().removeprefix("W/")
                                                                     for e in if_match.split(",")] and if_match != "*":
                    raise Stale(N_("The session has moved on since that ETag; reload it and try again."),
                                version=row.version)
                if expected_version is not None and expected_version != row.version:
                    raise Conflict(N_("The session has moved on since that version; reload it and try again."),
                                   version=row.version)
                g = self.game(row.game)
                cur = _Current(row)
                self._apply_one(conn, cur, g, action, "human")
                self._run_agents(conn, cur, g)
                row.state, row.version, row.updated_at, row.touched = cur.state, cur.version, cur.at, cur.touched
                row.played = cur.played
                if idempotency_key is not None:  # the reference commits with the move
                    conn.execute(_REQUEST.insert(), dict(session_id=sid, token_hash=done_key["token"],
                                                         key=idempotency_key, request_hash=request_hash,
                                                         version=row.version, role=who.role))
            return self._view(row, who)  # after the commit, so the write lock is not held for it
        except (Conflict, IntegrityError):
            if idempotency_key is None:
                raise
            with self.engine.connect() as conn:  # a concurrent retry with the same key got there first
                done = conn.execute(_READ_REQUEST, done_key).first()
                if done is None:
                    raise Conflict(N_("Another action was applied to this session at the same time; reload and "
                                      "retry.")) from None
                row = self._row(conn, sid)
                return self._replayed(row, self.viewer(row, token), done, request_hash)

    def _replayed(self, row: SimpleNamespace, who: Viewer, done: Row, request_hash: str) -> dict:
        """A retry's answer: the sender's view now, and the version its first request made."""
        if done.request_hash != request_hash:
            raise Rejected(N_("This Idempotency-Key was already used for a different request."),
                           field="Idempotency-Key")
        return {**self._view(row, who), "idempotent_replay": True, "replayed_version": done.version}

    def _apply_one(self, conn: Connection, cur: "_Current", g: Game, action: Any, by: str) -> None:
        try:
            new_state, events = g.apply(cur.state, action)
        except IllegalAction as exc:
            raise Rejected(N_("The action breaks a rule of the game: %(reason)s"), {"reason": exc.said},
                           rule=exc.rule) from None
        except MalformedAction as exc:
            raise Rejected(N_("The action is not an action of this game: %(reason)s"), {"reason": exc.said},
                           field="action") from None
        at, touched = _now(), time.time()
        cur.played = cur.played or by == "human"
        done = conn.execute(_MOVE, dict(sid=cur.id, from_version=cur.version, state=new_state, version=cur.version + 1,
                                        agent_rng=cur.agent_rng, updated_at=at, touched=touched, played=cur.played))
        if done.rowcount != 1:  # someone else applied an action in between
            raise Conflict(N_("Another action was applied to this session at the same time; reload and retry."))
        cur.state, cur.version, cur.at, cur.touched = new_state, cur.version + 1, at, touched
        conn.execute(_LOG, dict(session_id=cur.id, seq=cur.version, player=action.get("player"), by=by,
                                action=action, events=events, at=at))

    def _run_agents(self, conn: Connection, cur: "_Current", g: Game) -> None:
        """Let the computer seats move until a human is to play or the game ends."""
        for _ in range(MAX_AGENT_STEPS):
            if g.is_terminal(cur.state):
                return
            player = g.current_player(cur.state)
            if player is None or cur.agents.get(player, "human") == "human":
                return
            legal = g.legal_actions(cur.state)
            if not legal:
                return
            holder = {"rng": cur.agent_rng}
            choice = legal[Rng(holder).below(len(legal))]
            cur.agent_rng = holder["rng"]
            self._apply_one(conn, cur, g, choice, cur.agents[player])

    def delete(self, sid: str, token: str | None) -> None:
        if token is None:  # no token is 401 whether or not the session exists
            raise Unauthorized(N_("Deleting a session needs its owner token."))
        with self._writing() as conn:
            row = conn.execute(_READ_ROW, {"sid": sid}).first()  # an expired session may be deleted too
            if row is None:
                raise NotFoundError(N_("There is no game session with this id."), id=sid)
            who = self.viewer(row, token)
            if who.role != "owner":
                raise (Unauthorized if who.role == "public" else Forbidden)(
                    N_("Deleting a session needs its owner token."))
            self._drop(conn, [sid])

    @staticmethod
    def _drop(conn: Connection, sids: list[str]) -> None:
        conn.execute(delete(_REQUEST).where(_REQUEST.c.session_id.in_(sids)))
        conn.execute(delete(_ACTION).where(_ACTION.c.session_id.in_(sids)))
        conn.execute(delete(_SESSION).where(_SESSION.c.id.in_(sids)))


class _Current:
    """The session's live values inside one transaction (the row it starts from is only read)."""

    def __init__(self, row: PlaySession | SimpleNamespace):
        self.id, self.agents = row.id, dict(row.agents)
        self.state, self.version, self.agent_rng = row.state, row.version, row.agent_rng
        self.at, self.touched, self.played = row.updated_at, row.touched, row.played
