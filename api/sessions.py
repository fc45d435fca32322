"""Game sessions played over HTTP, persisted in their own database.

The knowledge base is a read-only build product that `rulekb build` replaces; sessions are user
data, so they live elsewhere: RULEKB_SESSIONS_URL, default SQLite var/sessions.db in WAL mode with
synchronous=FULL (an accepted action is on disk before the response leaves).

Every change is one transaction that also checks the session's version: two concurrent actions on
one session never both apply (the loser gets 409 and can retry with the new state).
"""
from __future__ import annotations

import secrets
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Optional

from sqlalchemy import JSON, Column, create_engine, event, update
from sqlalchemy.engine import Engine
from sqlmodel import Field, Session, SQLModel, select

from engine.core import EngineError, Game, IllegalAction, MalformedAction, Rng, get_game
from kb.db import default_sqlite_path, is_sqlite

AGENTS = ("human", "random")
MAX_AGENT_STEPS = 5000


class GameSession(SQLModel, table=True):
    __tablename__ = "game_session"
    id: str = Field(primary_key=True)
    game: str
    players: list[str] = Field(sa_column=Column(JSON, nullable=False))
    seats: dict[str, str] = Field(sa_column=Column(JSON, nullable=False))
    options: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    seed: int
    state: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    agent: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))  # {"rng": 64-bit state}
    version: int = 0
    created_at: datetime
    updated_at: datetime


class SessionAction(SQLModel, table=True):
    __tablename__ = "session_action"
    id: Optional[int] = Field(default=None, primary_key=True)
    session_id: str = Field(foreign_key="game_session.id", index=True)
    seq: int
    player: Optional[str] = None
    by: str  # human | random
    action: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    events: list[Any] = Field(sa_column=Column(JSON, nullable=False))
    at: datetime


TABLES = [GameSession.__table__, SessionAction.__table__]


class SessionError(Exception):
    status = 400

    def __init__(self, message: str, **extra):
        self.message, self.extra = message, extra
        super().__init__(message)


class NotFoundError(SessionError):
    status = 404


class Conflict(SessionError):
    status = 409


class Rejected(SessionError):
    status = 422


def sessions_url(url: str | None = None) -> str:
    import os

    return url or os.environ.get("RULEKB_SESSIONS_URL") or f"sqlite:///{default_sqlite_path().with_name('sessions.db')}"


def open_store(url: str | None = None) -> Engine:
    url = sessions_url(url)
    if is_sqlite(url):
        Path(url.removeprefix("sqlite:///")).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn, _record):
            dbapi_conn.isolation_level = None  # transactions are begun explicitly below
            dbapi_conn.execute("PRAGMA journal_mode=WAL")
            dbapi_conn.execute("PRAGMA synchronous=FULL")
            dbapi_conn.execute("PRAGMA foreign_keys=ON")

        @event.listens_for(engine, "begin")
        def _begin(conn):  # take the write lock at once: no two writers interleave
            conn.exec_driver_sql("BEGIN IMMEDIATE")
    else:
        engine = create_engine(url, pool_pre_ping=True)
    SQLModel.metadata.create_all(engine, tables=TABLES)
    return engine


def _now() -> datetime:
    return datetime.now(timezone.utc)


class Store:
    def __init__(self, engine: Engine):
        self.engine = engine
        self._games: dict[str, Game] = {}

    def game(self, key: str) -> Game:
        if key not in self._games:
            try:
                self._games[key] = get_game(key)
            except EngineError as exc:
                raise Rejected(str(exc), field="game") from exc
        return self._games[key]

    # ---- create
    def create(self, game: str, players: list[str], seats: dict[str, str], options: dict, seed: int | None) -> dict:
        g = self.game(game)
        if len(set(players)) != len(players) or not all(isinstance(p, str) and p.strip() for p in players):
            raise Rejected("players must be distinct, non-empty names", field="players")
        unknown = [p for p in seats if p not in players]
        if unknown:
            raise Rejected(f"seats name players that are not in the game: {', '.join(unknown)}", field="seats")
        bad = {p: a for p, a in seats.items() if a not in AGENTS}
        if bad:
            raise Rejected(f"a seat is played by one of {', '.join(AGENTS)}", field="seats")
        seed = secrets.randbelow(2**31) if seed is None else seed
        try:
            state = g.new_state(players, options, seed)
        except (EngineError, ValueError, KeyError, TypeError) as exc:
            raise Rejected(f"cannot start {game} with these players and options: {exc}", field="options") from exc
        row = GameSession(id=secrets.token_urlsafe(18), game=game, players=players,
                          seats={p: seats.get(p, "human") for p in players}, options=options, seed=seed,
                          state=state, agent={"rng": Rng.seed_state(seed ^ 0x5DEECE66D)}, created_at=_now(),
                          updated_at=_now())
        sid = row.id
        with Session(self.engine) as db, db.begin():
            db.add(row)
            db.flush()
            self._run_agents(db, _Current(row), g)
        return self.view(sid)

    # ---- read
    def _row(self, db: Session, sid: str) -> GameSession:
        row = db.get(GameSession, sid)
        if row is None:
            raise NotFoundError("There is no game session with this id.", id=sid)
        return row

    def view(self, sid: str, *, replay: bool = False) -> dict:
        with Session(self.engine) as db:
            row = self._row(db, sid)
            g = self.game(row.game)
            out = dict(id=row.id, game=row.game, players=row.players, seats=row.seats, options=row.options,
                       seed=row.seed, version=row.version, state=row.state, current_player=g.current_player(row.state),
                       terminal=g.is_terminal(row.state), created_at=row.created_at.isoformat(),
                       updated_at=row.updated_at.isoformat())
            if out["terminal"]:
                out["scores"] = g.scores(row.state)
            if replay:
                actions = [a.action for a in self._history(db, sid)]
                out["replay_matches"] = g.replay(row.players, row.options, row.seed, actions) == row.state
            return out

    def _history(self, db: Session, sid: str) -> list[SessionAction]:
        return list(db.exec(select(SessionAction).where(SessionAction.session_id == sid).order_by(SessionAction.seq)))

    def actions(self, sid: str) -> dict:
        with Session(self.engine) as db:
            row = self._row(db, sid)
            g = self.game(row.game)
            history = [dict(seq=a.seq, player=a.player, by=a.by, action=a.action, events=a.events,
                            at=a.at.isoformat()) for a in self._history(db, sid)]
            return dict(id=sid, version=row.version, current_player=g.current_player(row.state),
                        legal=g.legal_actions(row.state), history=history)

    # ---- change
    def apply(self, sid: str, action: Any, expected_version: int | None) -> dict:
        with Session(self.engine) as db, db.begin():
            row = self._row(db, sid)
            if expected_version is not None and expected_version != row.version:
                raise Conflict("The session has moved on since that version; reload it and try again.",
                               version=row.version)
            g = self.game(row.game)
            player = action.get("player") if isinstance(action, dict) else None
            if player is not None and row.seats.get(player) != "human":
                raise Rejected(f"{player} is not played through the API", field="action.player")
            cur = _Current(row)
            self._apply_one(db, cur, g, action, "human")
            self._run_agents(db, cur, g)
        return self.view(sid)

    def _apply_one(self, db: Session, cur: "_Current", g: Game, action: Any, by: str) -> None:
        try:
            new_state, events = g.apply(cur.state, action)
        except IllegalAction as exc:
            raise Rejected(exc.message, rule=exc.rule) from exc
        except MalformedAction as exc:
            raise Rejected(str(exc), field="action") from exc
        done = db.execute(update(GameSession).where(GameSession.id == cur.id, GameSession.version == cur.version)
                          .values(state=new_state, version=cur.version + 1, agent={"rng": cur.agent_rng},
                                  updated_at=_now()))
        if done.rowcount != 1:  # someone else applied an action in between
            raise Conflict("Another action was applied to this session at the same time; reload and retry.")
        cur.state, cur.version = new_state, cur.version + 1
        db.add(SessionAction(session_id=cur.id, seq=cur.version, player=action.get("player"), by=by,
                             action=action, events=events, at=_now()))
        db.flush()

    def _run_agents(self, db: Session, cur: "_Current", g: Game) -> None:
        """Let the computer seats move until a human is to play or the game ends."""
        for _ in range(MAX_AGENT_STEPS):
            if g.is_terminal(cur.state):
                return
            player = g.current_player(cur.state)
            if player is None or cur.seats.get(player, "human") == "human":
                return
            legal = g.legal_actions(cur.state)
            if not legal:
                return
            holder = {"rng": cur.agent_rng}
            choice = legal[Rng(holder).below(len(legal))]
            cur.agent_rng = holder["rng"]
            self._apply_one(db, cur, g, choice, cur.seats[player])


class _Current:
    """The session's live values inside one transaction (the ORM row is only read)."""

    def __init__(self, row: GameSession):
        self.id, self.seats = row.id, dict(row.seats)
        self.state, self.version, self.agent_rng = row.state, row.version, row.agent["rng"]
