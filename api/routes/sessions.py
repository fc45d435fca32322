"""Game sessions: create, read your seat's view, act with your seat's token, page the history, delete.

Tokens: `POST /sessions` answers with an owner token and one token per human seat; a
client sends one as `Authorization: Bearer TOKEN`. The session's ETag is its version ("v3"); an
action sent with `If-Match` is refused with 412 when the session has moved on, and one sent with an
`Idempotency-Key` is applied at most once: a retry by the same token gets its view, marked as a replay.
"""
from __future__ import annotations

import math
from typing import Annotated, Any, Literal, Optional

from fastapi import Header, Path, Query, Request, Response
from pydantic import BaseModel, ConfigDict, Field
from starlette.concurrency import run_in_threadpool

from api import models as out
from api.deps import Limit, MessageLangDep, Offset, ReaderDep, StoreDep, TokenDep, envelope, make_router
from api.problems import ApiError, responses
from api.store import Rejected, etag
from engine.core.game import ENGINES
from i18n.catalog import N_, Message, render
from kb import queries

router = make_router(prefix="/sessions", tags=["sessions"])
# The routes are `async def` and hand the store's work to the thread pool themselves: a plain `def`
# route makes FastAPI hop to a worker thread twice (the route, then the response's validation), and
# the second hop cost as much CPU as reading the session. The store must stay off the event loop: a
# move waits for the write lock and the disk.
SessionId = Annotated[str, Path(pattern=r"^[A-Za-z0-9_-]{8,64}$")]
PRIVATE = "private, no-cache"


class CreateSession(BaseModel):
    # The example plays one human seat against two random ones: after creation it is always Kuba's
    # turn, so a client (and the stateful fuzz test) can follow the links straight into a move.
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [
        {"game": "gugong", "players": ["Kuba", "Ania", "Jola"], "seats": {"Ania": "random", "Jola": "random"}}]})
    game: str = Field(max_length=40, examples=["gugong"], json_schema_extra={"enum": list(ENGINES)})
    players: list[str] = Field(min_length=1, max_length=8, examples=[["Kuba", "Ania", "Jola"]],
                               description="seat names in turn order: 1-64 characters of NFC text each, distinct")
    options: dict[str, Any] = Field(default_factory=dict, examples=[{"bonus-travel-tokens": True}],
                                    description="the game's declared options (GET /games/{game}: play.options)")
    seed: Optional[int] = Field(default=None, ge=0, le=2**31 - 1, strict=True, description=(
        "omitted: the server draws 128 bits (nobody can find the draws from what the game shows); a seed you "
        "choose tells every draw to whoever knows it, so it suits tests and replays, not games with strangers"))
    seats: dict[str, Literal["human", "random"]] = Field(
        default_factory=dict, description="who plays each seat; unnamed seats are human",
        examples=[{"Ania": "random", "Jola": "random"}])


class ApplyAction(BaseModel):
    model_config = ConfigDict(extra="forbid")
    action: dict[str, Any] = Field(examples=[{"type": "pass", "player": "Kuba"}])
    expected_version: Optional[int] = Field(
        default=None, ge=0, le=2**53 - 1, strict=True,
        description="the version the action was chosen against; 409 if the session moved on")


def _tagged(response: Response, view: dict) -> dict:
    response.headers["ETag"] = etag(view["version"])
    response.headers["Cache-Control"] = PRIVATE
    response.headers["Vary"] = "Authorization"
    return view


OWNER, FIRST_SEAT = "Bearer {$response.body#/owner_token}", "Bearer {$response.body#/seats/0/token}"
SESSION_LINKS = {  # OpenAPI links: where a client (and the stateful fuzz test) goes with the new session
    "read": {"operationId": "read_session", "description": "the full state, with the owner token",
             "parameters": {"path.sid": "$response.body#/id", "header.Authorization": OWNER}},
    "read_as_seat": {"operationId": "read_session", "description": "the first seat's view, with its token",
                     "parameters": {"path.sid": "$response.body#/id", "header.Authorization": FIRST_SEAT}},
    "history": {"operationId": "session_history",
                "parameters": {"path.sid": "$response.body#/id", "header.Authorization": OWNER}},
    "act": {"operationId": "act_in_session",
            "description": "the first seat plays the first legal action (legal lists the moves of the seat to act)",
            "parameters": {"path.sid": "$response.body#/id", "header.Authorization": FIRST_SEAT,
                           "header.If-Match": "$response.header.ETag"},
            "requestBody": {"action": "$response.body#/legal/0", "expected_version": "$response.body#/version"}},
    "delete": {"operationId": "delete_session",
               "parameters": {"path.sid": "$response.body#/id", "header.Authorization": OWNER}},
}
AFTER_MOVE_LINKS = {  # the same session after a move: read it, page its history (public views)
    "read": {"operationId": "read_session", "parameters": {"path.sid": "$request.path.sid"}},
    "history": {"operationId": "session_history", "parameters": {"path.sid": "$request.path.sid"}},
}
# The session routes take a token (Authorization: Bearer TOKEN); reading works without one too.
TOKEN, TOKEN_OPTIONAL = {"security": [{"sessionToken": []}]}, {"security": [{"sessionToken": []}, {}]}


@router.post("", status_code=201, responses={**responses(400, 422, 429, 503), 201: {"links": SESSION_LINKS}},
             operation_id="create_session",
             summary="Start a game session: an owner token and a token per human seat")
async def create(body: CreateSession, store: StoreDep, request: Request, response: Response) -> out.SessionCreated:
    wait = request.app.state.creations.take(request.client.host if request.client else "")
    if wait:
        seconds = math.ceil(wait)
        raise ApiError(429, N_("This address has started as many game sessions as it may for now; try again in "
                               "%(n)d seconds."), params={"n": seconds}, headers={"Retry-After": str(seconds)})
    view, _ = await run_in_threadpool(store.create, body.game, body.players, body.seats, body.options, body.seed)
    response.headers["Cache-Control"] = "no-store"  # it carries the tokens
    response.headers["ETag"] = etag(view["version"])
    return view


@router.get("/{sid}", response_model=out.SessionOut, responses=responses(304, 401, 403, 404, 410),
            operation_id="read_session", openapi_extra=TOKEN_OPTIONAL,
            summary="The session as the token's holder may see it (no token: the public view)")
async def read(sid: SessionId, request: Request, response: Response, store: StoreDep, token: TokenDep,
               replay: Annotated[bool, Query(description="owner only: replay seed + actions and compare")] = False):
    view = await run_in_threadpool(store.view, sid, token, replay=replay)
    if request.headers.get("if-none-match") == etag(view["version"]) and not replay:
        return Response(status_code=304, headers={"ETag": etag(view["version"]), "Cache-Control": PRIVATE,
                                                  "Vary": "Authorization"})
    return _tagged(response, view)


@router.get("/{sid}/actions", responses=responses(401, 403, 404, 410), operation_id="session_history",
            openapi_extra=TOKEN_OPTIONAL,
            summary="Every action applied so far (paged), and the legal actions for the seat to act")
async def history(sid: SessionId, request: Request, response: Response, store: StoreDep, token: TokenDep,
                  limit: Limit = 100, offset: Offset = 0) -> out.SessionHistory:
    view, items, total = await run_in_threadpool(store.history, sid, token, limit, offset)
    extra = {"id": sid, "version": view["version"], "current_player": view["current_player"]}
    if "legal" in view:
        extra["legal"] = view["legal"]
    _tagged(response, view)
    return envelope(request, items, total, limit, offset, **extra)


@router.post("/{sid}/actions", responses={**responses(400, 401, 403, 404, 409, 410, 412, 422),
                                          200: {"links": AFTER_MOVE_LINKS}},
             operation_id="act_in_session", openapi_extra=TOKEN,
             summary="Apply an action as your seat (If-Match and Idempotency-Key make retries safe)")
async def act(sid: SessionId, body: ApplyAction, response: Response, store: StoreDep, token: TokenDep,
              reader: ReaderDep, lang: MessageLangDep,
              if_match: Annotated[Optional[str], Header(max_length=200)] = None,
              idempotency_key: Annotated[Optional[str], Header(min_length=1, max_length=255,
                                                               pattern=r"^[\x21-\x7e]+$")] = None) -> out.SessionOut:
    try:
        view = await run_in_threadpool(store.apply, sid, token, body.action, expected_version=body.expected_version,
                                       if_match=if_match, idempotency_key=idempotency_key)
    except Rejected as exc:
        if "rule" not in exc.extra:
            raise
        name = await reader.run(lambda: rule_name(reader, exc.extra["rule"], lang))
        raise ApiError(422, N_("The action breaks the rule “%(name)s” (%(rule)s)."),
                       params={"name": name, "rule": exc.extra["rule"]},
                       rule=exc.extra["rule"], engine_message=_said(lang, exc.params.get("reason", ""))) from None
    return _tagged(response, view)


def rule_name(reader, rule: str, lang: str) -> str:
    """The rule entity's name in the client's language (its id when the knowledge base lacks it)."""
    try:
        texts = queries.get_entity(reader.engine(), rule, lang)["texts"].get("name") or []
    except Exception:  # a missing entity or an unreadable base: the id still names the rule
        return rule
    return texts[0]["text"] if texts else rule


@router.delete("/{sid}", status_code=204, responses=responses(401, 403, 404), operation_id="delete_session",
               openapi_extra=TOKEN,
               summary="Delete a session (owner token)")
async def remove(sid: SessionId, store: StoreDep, token: TokenDep) -> Response:
    await run_in_threadpool(store.delete, sid, token)
    return Response(status_code=204)


def _said(lang: str, reason) -> str:
    """The engine's own reason for a refusal (kb.messages.Message), in the reader's language."""
    return render(lang, reason) if isinstance(reason, Message) else reason
