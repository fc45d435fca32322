"""The HTTP API (under /api/v1) and the built docs site (at /), served by one application.

Errors are RFC 9457 problem documents (application/problem+json). The knowledge base is opened
read-only: the API never writes to it.
"""
from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal, Optional

import functools
import hashlib

from fastapi import APIRouter, Body, FastAPI, Path as PathParam, Query, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.cors import CORSMiddleware
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from api import models as out
from api import sessions as sess
from engine.core import scenario

from i18n.catalog import t
from i18n.locale import negotiate
from kb import queries
from kb.db import open_engine
from kb.search import search as run_search

PROBLEM = "application/problem+json"
Lang = Literal["pl", "cs", "en"]
DEFAULT_SITE_DIR = Path(__file__).resolve().parent.parent / "build" / "site"
MAX_BODY = 64 * 1024  # bytes; a scenario or an action is far smaller
KB_CACHE = "public, max-age=300"
SESSION_ID = r"^[A-Za-z0-9_-]{8,64}$"


class Problem(BaseModel):
    """An error (RFC 9457). Some carry more members: `errors` (which input was wrong), `rule` (the
    game rule an action breaks), `field`, `version`."""
    model_config = ConfigDict(extra="allow", json_schema_extra={"examples": [
        {"type": "about:blank", "title": "Not found", "status": 404, "lang": "en",
         "detail": "There is no entry with the id gugong/term/emperor."}]})
    type: str = "about:blank"
    title: str
    status: int
    detail: str
    lang: Literal["pl", "cs", "en"] = "en"


def problems(*codes: int) -> dict[int, dict[str, Any]]:
    text = {304: "Not modified (If-None-Match matched the ETag)", 400: "The body is not valid JSON", 404: "Not found",
            409: "Conflict",
            413: "Request body too large", 422: "Invalid input", 503: "Knowledge base not built"}
    return {c: ({"description": text[c]} if c == 304 else {"model": Problem, "description": text[c]}) for c in codes}


class ScenarioDoc(BaseModel):
    """A scenario as in DESIGN.md: the engine builds the start state, merges `setup`, runs `steps`
    and checks `expect`."""
    model_config = ConfigDict(extra="allow", json_schema_extra={"examples": [{
        "id": "gugong/example/my-check", "game": "gugong", "players": ["Kuba", "Ania"], "options": {},
        "setup": {}, "steps": [{"run": "night"}], "expect": [{"path": "players.Kuba.vp", "equals": 0}]}]})
    id: str = Field(default="scenario", max_length=200)
    game: str
    players: list[str] = Field(min_length=1, max_length=8)
    options: dict[str, Any] = Field(default_factory=dict)
    seed: int = Field(default=0, ge=0, le=2**31 - 1, strict=True)
    setup: dict[str, Any] = Field(default_factory=dict)
    steps: list[dict[str, Any]] = Field(default_factory=list, max_length=2000)
    expect: list[dict[str, Any]] = Field(default_factory=list, max_length=500)


def scenario_result(outcome) -> dict[str, Any]:
    return {"id": outcome.id, "status": outcome.status, "message": outcome.message,
            "checks": [c.__dict__ for c in outcome.checks],
            "state_before": outcome.before, "state_after": outcome.state}


class CreateSession(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game: str = Field(examples=["gugong"])
    players: list[str] = Field(min_length=1, max_length=8, examples=[["Kuba", "Ania", "Jola"]])
    options: dict[str, Any] = Field(default_factory=dict, examples=[{}])
    seed: Optional[int] = Field(default=None, ge=0, le=2**31 - 1, strict=True, description="random when omitted")
    seats: dict[str, Literal["human", "random"]] = Field(
        default_factory=dict, description="who plays each seat; unnamed seats are human", examples=[{"Jola": "random"}])


class ApplyAction(BaseModel):
    model_config = ConfigDict(extra="forbid")
    action: dict[str, Any] = Field(examples=[{"type": "pass", "player": "Kuba"}])
    expected_version: Optional[int] = Field(
        default=None, ge=0, strict=True, description="the version the action was chosen against; 409 if the session moved on")


def problem(status: int, title: str, detail: str, lang: str = "en", **extra: Any) -> JSONResponse:
    return JSONResponse({"type": "about:blank", "title": title, "status": status, "detail": detail,
                         "lang": lang, **extra}, status_code=status, media_type=PROBLEM,
                        headers={"Content-Language": lang})


def request_lang(request: Request) -> str:
    """Language of interface messages: ?lang= when valid, else Accept-Language."""
    lang = request.query_params.get("lang")
    return lang if lang in ("pl", "cs", "en") else negotiate(request.headers.get("accept-language"))


def pick_lang(request: Request, lang: Optional[str]) -> str:
    """An explicit ?lang= wins; else the client's Accept-Language (q-values, regions); else en."""
    return lang or negotiate(request.headers.get("accept-language"))


class BodyLimit:
    """413 for a body over MAX_BODY: by its Content-Length, or by counting a streamed body."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        request = Request(scope)
        length = request.headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
            return await self._too_large(request, scope, receive, send)
        body, more = b"", True
        while more:  # bodies here are small: read it all (up to the limit) before the app runs
            message = await receive()
            if message["type"] != "http.request":
                return await self.app(scope, _replay([message]), send)
            body += message.get("body", b"")
            more = message.get("more_body", False)
            if len(body) > MAX_BODY:
                return await self._too_large(request, scope, receive, send)
        await self.app(scope, _replay([{"type": "http.request", "body": body, "more_body": False}], receive), send)

    async def _too_large(self, request, scope, receive, send):
        lang = request_lang(request)
        response = problem(413, t(lang, "Request too large"),
                           t(lang, "A request body may hold at most %(n)d bytes.", n=MAX_BODY), lang)
        await response(scope, receive, send)


def _replay(messages, then=None):
    """An ASGI receive that first returns the given messages, then waits on the real one."""
    queue = list(messages)

    async def receive():
        if queue:
            return queue.pop(0)
        if then is not None:
            return await then()
        return {"type": "http.disconnect"}

    return receive


def allowed_methods(request: Request) -> set[str]:
    """Every method some route accepts on this path (Starlette's own 405 names only the first route)."""
    from starlette.routing import Match

    methods: set[str] = set()
    for route in request.app.router.routes:
        match, _ = route.matches(request.scope)
        if match in (Match.PARTIAL, Match.FULL):
            methods |= set(getattr(route, "methods", None) or ())
    return methods - {"HEAD"}


def next_link(request: Request, offset: int, limit: int, total: int) -> Optional[str]:
    if offset + limit >= total:
        return None
    return str(request.url.include_query_params(offset=offset + limit))


def create_app(database_url: str | None = None, site_dir: Path | None = DEFAULT_SITE_DIR,
               sessions_url: str | None = None) -> FastAPI:
    app = FastAPI(
        title="rulekb API",
        version="1",
        description="Rules, components, card texts and worked examples of Gugong, In the Year of the Dragon "
                    "and ZhanGuo, in Polish, Czech and English, each text with its origin and source lines.",
        openapi_url="/api/v1/openapi.json",
        docs_url="/api/v1/docs",
        redoc_url=None,
    )
    state: dict[str, Any] = {}

    def engine():
        if "engine" not in state:
            state["engine"] = open_engine(database_url, readonly=True)
        return state["engine"]

    def store() -> sess.Store:
        if "store" not in state:
            state["store"] = sess.Store(sess.open_store(sessions_url))
        return state["store"]

    app.add_middleware(CORSMiddleware, allow_origins=["*"], allow_methods=["GET", "POST", "OPTIONS"],
                       allow_headers=["*"], expose_headers=["ETag", "Content-Language"])

    @app.middleware("http")
    async def _caching(request: Request, call_next):
        response = await call_next(request)
        path = request.url.path
        if (request.method == "GET" and path.startswith("/api/v1/") and not path.startswith("/api/v1/sessions")
                and response.status_code == 200 and response.headers.get("content-type", "").startswith("application/json")):
            body = b"".join([chunk async for chunk in response.body_iterator])
            etag = '"' + hashlib.sha256(body + (response.headers.get("content-language") or "").encode()).hexdigest()[:32] + '"'
            headers = {k: v for k, v in response.headers.items() if k.lower() not in ("content-length",)}
            headers.update({"ETag": etag, "Cache-Control": KB_CACHE, "Vary": "Accept-Language"})
            if etag in [e.strip() for e in request.headers.get("if-none-match", "").split(",")]:
                return Response(status_code=304, headers={k: v for k, v in headers.items()
                                                          if k.lower() not in ("content-type",)})
            return Response(body, status_code=200, headers=headers, media_type="application/json")
        return response

    @app.exception_handler(sess.SessionError)
    async def _session_error(request: Request, exc: sess.SessionError):
        lang = request_lang(request)
        titles = {400: t(lang, "Invalid request"), 404: t(lang, "Not found"), 409: t(lang, "Conflict"),
                  422: t(lang, "Action not accepted")}
        return problem(exc.status, titles.get(exc.status, t(lang, "Error")), exc.message, lang, **exc.extra)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException):
        lang = request_lang(request)
        if exc.status_code == 404:
            return problem(404, t(lang, "Not found"), t(lang, "There is no such path: %(path)s. The API is described "
                                                          "at /api/v1/openapi.json.", path=request.url.path), lang)
        if exc.status_code == 405:
            response = problem(405, t(lang, "Method not allowed"),
                               t(lang, "%(method)s is not allowed on %(path)s.", method=request.method,
                                 path=request.url.path), lang)
            response.headers["Allow"] = ", ".join(sorted(allowed_methods(request)))
            return response
        if exc.status_code == 400:
            return problem(400, t(lang, "Invalid request"), t(lang, "The request body is not valid JSON."), lang)
        return problem(exc.status_code, t(lang, "Error"), str(exc.detail), lang)

    @app.exception_handler(RequestValidationError)
    async def _validation_error(request: Request, exc: RequestValidationError):
        lang = request_lang(request)
        errors = [{"where": ".".join(str(p) for p in e["loc"]), "message": e["msg"]} for e in exc.errors()]
        detail = "; ".join(f"{e['where']}: {e['message']}" for e in errors)
        return problem(422, t(lang, "Invalid request"), detail, lang, errors=errors)

    @app.exception_handler(FileNotFoundError)
    async def _no_database(request: Request, exc: FileNotFoundError):
        lang = request_lang(request)
        return problem(503, t(lang, "Knowledge base not built"),
                       t(lang, "The knowledge base has not been built yet: run `rulekb build`."), lang)

    @app.exception_handler(queries.NotFound)
    async def _not_found(request: Request, exc: queries.NotFound):
        lang = request_lang(request)
        messages = {
            "game": t(lang, "There is no game with the id %(id)s.", id=exc.ident),
            "entity": t(lang, "There is no entry with the id %(id)s.", id=exc.ident),
            "source": t(lang, "There is no source with the id %(id)s.", id=exc.ident),
        }
        return problem(404, t(lang, "Not found"), messages[exc.what], lang)

    v1 = APIRouter(prefix="/api/v1", responses=problems(413, 422, 503))
    kb_errors = problems(304, 404)
    # responses carry exactly the members the data has (no null-filled optional fields)
    get = functools.partial(v1.get, response_model_exclude_unset=True)
    post = functools.partial(v1.post, response_model_exclude_unset=True)

    @get("/games", responses=problems(304), summary="All games with editions, sources and counts")
    def games() -> list[out.GameOut]:
        return queries.list_games(engine())

    @get("/games/{game}", responses=kb_errors, summary="One game")
    def game(game: str) -> out.GameOut:
        return queries.get_game(engine(), game)

    @get("/entities", responses=problems(304), summary="List entities, filtered by game and kind")
    def entities(
        request: Request,
        game: Optional[str] = None,
        kind: Optional[str] = None,
        lang: Optional[Lang] = None,
        limit: Annotated[int, Query(ge=1, le=200)] = 50,
        offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
    ) -> out.EntityList:
        language = pick_lang(request, lang)
        items, total = queries.list_entities(engine(), game=game, kind=kind, lang=language, limit=limit, offset=offset)
        return {"items": items, "total": total, "limit": limit, "offset": offset, "lang": language,
                "next": next_link(request, offset, limit, total)}

    @get("/entities/{entity_id:path}", responses=kb_errors, summary="One entity with texts, attributes and provenance")
    def entity(request: Request, entity_id: str, lang: Optional[Lang] = None) -> out.EntityOut:
        explicit = lang or (pick_lang(request, None) if request.headers.get("accept-language") else None)
        return queries.get_entity(engine(), entity_id, explicit)

    @get("/search", responses=problems(304), summary="Ranked, diacritic-insensitive search")
    def search(
        request: Request,
        q: Annotated[str, Query(max_length=500)],
        game: Optional[str] = None,
        lang: Optional[Lang] = None,
        kind: Optional[str] = None,
        limit: Annotated[int, Query(ge=1, le=100)] = 20,
        offset: Annotated[int, Query(ge=0, le=10_000)] = 0,
    ) -> out.SearchOut:
        res = run_search(engine(), q, game=game, lang=lang, kind=kind, limit=limit, offset=offset)
        language = pick_lang(request, lang)
        return {"query": res.query, "tokens": res.tokens, "total": res.total, "limit": limit, "offset": offset,
                "next": next_link(request, offset, limit, res.total),
                "warnings": [t(language, w) for w in res.warnings], "hits": [h.__dict__ for h in res.hits]}

    @get("/compare/{entity_id:path}", responses=kb_errors, summary="An entity's texts side by side per source, with findings")
    def compare(
        entity_id: str,
        langs: Annotated[Optional[str], Query(pattern=r"^(pl|cs|en),(pl|cs|en)$", examples=["pl,cs"])] = None,
        editions: Annotated[Optional[str], Query(pattern=r"^[0-9a-z-]+,[0-9a-z-]+$", examples=["2007,2017"])] = None,
    ) -> out.CompareOut:
        game = queries.get_entity(engine(), entity_id)["game"]
        sources = queries.get_game(engine(), game)["sources"]
        chosen = None
        if langs or editions:
            key, wanted = ("lang", langs.split(",")) if langs else ("edition", editions.split(","))
            chosen = [s["id"] for s in sources if s[key] in wanted]
            have = sorted({s[key] for s in sources})
            missing = [w for w in wanted if w not in {s[key] for s in sources}]
            if missing:
                raise RequestValidationError([{
                    "loc": ("query", "langs" if langs else "editions"),
                    "msg": f"{game} has no source for {', '.join(missing)}; it has {', '.join(have)}",
                    "type": "value_error"}])
        return queries.compare_entity(engine(), entity_id, chosen)

    @get("/discrepancies", responses=problems(304), summary="Findings of the translation and edition checker")
    def discrepancies(
        request: Request,
        game: Optional[str] = None,
        check: Optional[str] = None,
        severity: Literal["high", "medium", "low"] = "low",
        assessment: Optional[Literal["rules-difference", "artefact", "unclear", "curated"]] = None,
        limit: Annotated[int, Query(ge=1, le=200)] = 50,
        offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
    ) -> out.FindingList:
        items, total = queries.list_findings(engine(), game=game, check=check, min_severity=severity,
                                             assessment=assessment, limit=limit, offset=offset)
        return {"items": items, "total": total, "limit": limit, "offset": offset,
                "next": next_link(request, offset, limit, total)}

    @get("/health", summary="Liveness: answers without touching any database")
    def health() -> out.Health:
        return {"status": "ok"}

    @get("/examples", responses=problems(304), summary="Worked examples, with whether the engine runs them")
    def examples(request: Request, game: Optional[str] = None, lang: Optional[Lang] = None,
                 limit: Annotated[int, Query(ge=1, le=200)] = 100,
                 offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0) -> out.ExampleList:
        language = pick_lang(request, lang)
        items, total = queries.list_entities(engine(), game=game, kind="example", lang=language, limit=limit,
                                             offset=offset)
        for item in items:
            attrs = queries.get_entity(engine(), item["id"])["attrs"]
            item["runnable"] = bool(attrs.get("steps") or attrs.get("expect"))
            item["players"] = attrs.get("players", [])
        return {"items": items, "total": total, "limit": limit, "offset": offset, "lang": language,
                "next": next_link(request, offset, limit, total)}

    @post("/examples/{example_id:path}/run", responses=problems(400, 404), summary="Run a stored worked example")
    def run_example(example_id: str) -> out.ScenarioResult:
        ent = queries.get_entity(engine(), example_id)
        if ent["kind"] != "example":
            raise queries.NotFound("entity", example_id)
        doc = {"id": ent["id"], "game": ent["game"], **ent["attrs"]}
        return scenario_result(scenario.run(doc))

    @post("/scenarios/run", responses=problems(400), summary="Run a scenario document (never a file path)")
    def run_scenario(doc: Annotated[ScenarioDoc, Body()]) -> out.ScenarioResult:
        return scenario_result(scenario.run(doc.model_dump(exclude_none=True)))

    @post("/sessions", status_code=201, responses=problems(400), summary="Start a game session (seats may be played by a random agent)")
    def create_session(body: CreateSession) -> out.SessionOut:
        return store().create(body.game, body.players, body.seats, body.options, body.seed)

    @get("/sessions/{sid}", responses=problems(404), summary="A session's state, current player and (at the end) scores")
    def get_session(sid: Annotated[str, PathParam(pattern=SESSION_ID)],
                    replay: Annotated[bool, Query(description="also replay seed + actions and compare")] = False
                    ) -> out.SessionOut:
        return store().view(sid, replay=replay)

    @get("/sessions/{sid}/actions", responses=problems(404), summary="Legal actions now, and every action applied so far")
    def session_actions(sid: Annotated[str, PathParam(pattern=SESSION_ID)]) -> out.SessionActions:
        return store().actions(sid)

    @post("/sessions/{sid}/actions", responses=problems(400, 404, 409), summary="Apply an action (409 if the session moved on)")
    def apply_action(sid: Annotated[str, PathParam(pattern=SESSION_ID)], body: ApplyAction) -> out.SessionOut:
        return store().apply(sid, body.action, body.expected_version)

    app.include_router(v1)

    def openapi() -> dict[str, Any]:
        """FastAPI describes every response as application/json; errors are application/problem+json."""
        if app.openapi_schema is None:
            from fastapi.openapi.utils import get_openapi

            doc = get_openapi(title=app.title, version=app.version, description=app.description, routes=app.routes)
            for ops in doc["paths"].values():
                for op in ops.values():
                    for code, resp in op.get("responses", {}).items():
                        if int(code) >= 400 and "application/json" in resp.get("content", {}):
                            resp["content"] = {PROBLEM: resp["content"].pop("application/json")}
            app.openapi_schema = doc
        return app.openapi_schema

    app.openapi = openapi
    app.add_middleware(BodyLimit)

    if site_dir is not None and site_dir.is_dir():
        app.mount("/", StaticFiles(directory=site_dir, html=True), name="site")
    return app
