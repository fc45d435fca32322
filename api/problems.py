"""Errors as RFC 9457 problem documents (application/problem+json), in the client's language.

Every error the API gives goes through here: a route raises ApiError (or lets a known exception
through) and the handlers registered by `install` turn it into a problem document whose title and
detail are in the language of `?lang=` or Accept-Language.
"""
from __future__ import annotations

from typing import Any, Literal

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict
from sqlalchemy.exc import DBAPIError
from starlette.exceptions import HTTPException as StarletteHTTPException

from i18n.catalog import N_, Message, render, t
from i18n.locale import negotiate
from kb import queries

PROBLEM = "application/problem+json"
ECHO_CHARS = 200  # how much of a client's text (a path, a field name) a message repeats
PARAM_CHARS = 500  # a message's filled-in value: a client's text, or a list of the values allowed


def safe(value: Any, limit: int | None = None) -> Any:
    """A value fit to send back: in every string (and key) a lone surrogate becomes its JSON escape
    text (UTF-8 cannot carry it: the answer would fail as it is written); with `limit`, a longer
    string is cut there and ends with "…"."""
    if isinstance(value, str):
        if not value.isascii():
            value = value.encode("utf-8", "backslashreplace").decode("utf-8")
        return value if limit is None or len(value) <= limit else value[:limit - 1] + "…"
    if isinstance(value, dict):
        return {safe(k, limit): safe(v, limit) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [safe(v, limit) for v in value]
    return value

TITLES = {
    400: N_("Invalid request"), 401: N_("Authentication required"), 403: N_("Not allowed"), 404: N_("Not found"),
    405: N_("Method not allowed"), 409: N_("Conflict"), 410: N_("Gone"), 412: N_("Precondition failed"),
    413: N_("Request too large"), 415: N_("Unsupported media type"), 422: N_("Invalid input"),
    429: N_("Too many requests"), 503: N_("Service unavailable"),
}
OTHER_TITLE = N_("Error")


class Problem(BaseModel):
    """An error (RFC 9457). Some carry more members: `errors` (which input was wrong, with
    `where` and a machine-readable `type`), `allowed` (the values that would have been accepted),
    `rule` (the knowledge-base entity of the game rule an action breaks), `version`."""
    model_config = ConfigDict(extra="allow", json_schema_extra={"examples": [
        {"type": "about:blank", "title": "Not found", "status": 404, "lang": "en",
         "detail": "There is no entry with the id gugong/term/emperor."}]})
    type: str = "about:blank"
    title: str
    status: int
    detail: str
    lang: Literal["pl", "cs", "en"] = "en"


class ApiError(Exception):
    """An error a route reports: `detail` is an English message marked for translation, with
    %(name)s placeholders filled from `params` after translation; `extra` become members."""

    def __init__(self, status: int, detail: str, *, params: dict[str, Any] | None = None,
                 headers: dict[str, str] | None = None, **extra: Any):
        self.status, self.detail, self.params = status, detail, params or {}
        self.headers, self.extra = headers or {}, extra
        super().__init__(detail % self.params if self.params else detail)


def request_lang(request: Request) -> str:
    """The language of interface messages: ?lang= when valid, else Accept-Language, else en."""
    lang = request.query_params.get("lang")
    return lang if lang in ("pl", "cs", "en") else negotiate(request.headers.get("accept-language"))


def problem(status: int, detail: str, lang: str, *, headers: dict[str, str] | None = None,
            **extra: Any) -> JSONResponse:
    body = safe({"type": "about:blank", "title": t(lang, TITLES.get(status, OTHER_TITLE)), "status": status,
                 "detail": detail, "lang": lang, **extra})
    return JSONResponse(body, status_code=status, media_type=PROBLEM,
                        headers={"Content-Language": lang, "Cache-Control": "no-store", **(headers or {})})


def responses(*codes: int) -> dict[int, dict[str, Any]]:
    """OpenAPI entries for the errors an operation may answer."""
    text = {304: "Not modified (If-None-Match matched the ETag)", 400: "The body is not valid JSON, or nests too deep",
            401: "A token is needed", 403: "The token does not allow this", 404: "Not found",
            409: "Conflict: the session moved on", 410: "The session expired", 412: "If-Match did not match the ETag",
            413: "Request body too large", 415: "The body is not JSON", 422: "Invalid input",
            429: "Too many requests from this address (see Retry-After)", 503: "Not available now (see Retry-After)"}
    return {c: ({"description": text[c]} if c == 304 else {"model": Problem, "description": text[c]}) for c in codes}


def allowed_methods(request: Request) -> list[str]:
    """Every method some route accepts on this path (Starlette's own 405 names only one route's)."""
    from starlette.routing import Match

    def accepts(method: str) -> bool:
        scope = {**request.scope, "method": method}
        return any(route.matches(scope)[0] == Match.FULL for route in request.app.router.routes)

    return [m for m in ("DELETE", "GET", "HEAD", "OPTIONS", "PATCH", "POST", "PUT") if accepts(m)]


def install(app: FastAPI) -> None:
    """Register the handlers that turn every known failure into a problem document."""

    @app.exception_handler(ApiError)
    async def _api_error(request: Request, exc: ApiError):
        lang = request_lang(request)
        params = {k: render(lang, v) if isinstance(v, Message) else v for k, v in exc.params.items()}  # an engine's refusal
        detail = t(lang, exc.detail, **safe(params, PARAM_CHARS))
        return problem(exc.status, detail, lang, headers=exc.headers, **safe(exc.extra, PARAM_CHARS))

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException):
        lang = request_lang(request)
        if exc.status_code == 404:
            return problem(404, t(lang, "There is no such path: %(path)s. The API is described at "
                                        "/api/v1/openapi.json.", path=safe(request.url.path, ECHO_CHARS)), lang)
        if exc.status_code == 405:
            return problem(405, t(lang, "%(method)s is not allowed on %(path)s.", method=request.method,
                                  path=safe(request.url.path, ECHO_CHARS)), lang,
                           headers={"Allow": ", ".join(allowed_methods(request))})
        if exc.status_code == 400:
            return problem(400, t(lang, "The request body is not valid JSON."), lang)
        return problem(exc.status_code, str(exc.detail), lang)

    @app.exception_handler(RequestValidationError)
    async def _validation_error(request: Request, exc: RequestValidationError):
        lang = request_lang(request)
        raw = exc.errors()
        if any(e.get("type") == "json_invalid" for e in raw):  # the body is not JSON at all
            return problem(400, t(lang, "The request body is not valid JSON."), lang)
        errors = [{"where": safe(".".join(str(p) for p in e["loc"]), ECHO_CHARS), "type": e.get("type", "value_error"),
                   "message": safe(e["msg"], ECHO_CHARS)} for e in raw]
        detail = t(lang, "These inputs are not valid: %(where)s.", where=", ".join(e["where"] for e in errors))
        return problem(422, detail, lang, errors=errors)

    @app.exception_handler(FileNotFoundError)
    async def _no_database(request: Request, exc: FileNotFoundError):
        lang = request_lang(request)
        return problem(503, t(lang, "The knowledge base has not been built yet: run `rulekb build`."), lang,
                       headers={"Retry-After": "60"})

    @app.exception_handler(DBAPIError)
    async def _database_down(request: Request, exc: DBAPIError):
        lang = request_lang(request)
        return problem(503, t(lang, "The database cannot be read right now; try again shortly."), lang,
                       headers={"Retry-After": "5"})

    @app.exception_handler(queries.NotFound)
    async def _not_found(request: Request, exc: queries.NotFound):
        lang = request_lang(request)
        messages = {
            "game": N_("There is no game with the id %(id)s."),
            "entity": N_("There is no entry with the id %(id)s."),
            "source": N_("There is no source with the id %(id)s."),
            "example": N_("There is no worked example with the id %(id)s."),
        }
        return problem(404, t(lang, messages[exc.what], id=exc.ident), lang)
