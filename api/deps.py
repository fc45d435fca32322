"""What routes depend on (FastAPI dependencies): the knowledge base, the session store, the
client's language, its bearer token, filter checks and the list envelope."""
from __future__ import annotations

from typing import Annotated, Any, Literal, Optional

from fastapi import APIRouter, Depends, Query, Request
from fastapi.routing import APIRoute
from sqlalchemy import select
from sqlalchemy.engine import Engine

from api.knowledge import KbReader
from i18n.catalog import N_
from api.problems import ApiError, request_lang
from api.store import Store
from i18n.locale import negotiate
from kb import models as m
from kb.search import Vocab, read_index

Lang = Literal["pl", "cs", "en"]


class ExactRoute(APIRoute):
    """Responses carry exactly the members the data has: no null-filled optional fields."""

    def __init__(self, *args: Any, **kwargs: Any):
        kwargs["response_model_exclude_unset"] = True
        super().__init__(*args, **kwargs)


def make_router(**kwargs: Any) -> APIRouter:
    return APIRouter(route_class=ExactRoute, **kwargs)


# Dependencies that only read the request or app state are `async def`: FastAPI runs a plain `def`
# dependency in the thread pool, one thread hop per dependency per request.
async def get_reader(request: Request) -> KbReader:
    return request.app.state.kb


async def get_kb(request: Request) -> Engine:
    """The knowledge base's engine (503 through the problem handlers when it cannot be read)."""
    return request.app.state.kb.engine()


async def get_store(request: Request) -> Store:
    return request.app.state.store()


async def content_lang(request: Request, lang: Optional[Lang] = None) -> str:
    """The language of data texts: ?lang=, else Accept-Language (q-values, regions), else en."""
    return lang or negotiate(request.headers.get("accept-language"))


async def bearer_token(request: Request) -> str | None:
    """The token of `Authorization: Bearer TOKEN`, if any (401 for another scheme)."""
    header = request.headers.get("authorization")
    if header is None:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ApiError(401, N_("Send a token as `Authorization: Bearer TOKEN`."),
                       headers={"WWW-Authenticate": 'Bearer realm="rulekb"'})
    return token.strip()


async def message_lang(request: Request) -> str:
    return request_lang(request)


KbDep = Annotated[Engine, Depends(get_kb)]
ReaderDep = Annotated[KbReader, Depends(get_reader)]
StoreDep = Annotated[Store, Depends(get_store)]
LangDep = Annotated[str, Depends(content_lang)]
MessageLangDep = Annotated[str, Depends(message_lang)]
TokenDep = Annotated[Optional[str], Depends(bearer_token)]
Limit = Annotated[int, Query(ge=1, le=200, description="items per page")]
Offset = Annotated[int, Query(ge=0, le=1_000_000, description="items to skip")]
# Filters: a value the knowledge base has (422 lists them); an empty one is no value and the schema says so.
GameFilter = Annotated[Optional[str], Query(min_length=1, max_length=40, description="a game id (GET /games)")]
KindFilter = Annotated[Optional[str], Query(min_length=1, max_length=40, description="an entity kind")]


# ---- values derived once per build (KbReader.derived), by name
VOCABULARY, SEARCH_INDEX, ENTITIES = "filter values", "search index", "entity documents"


def search_index(reader: KbReader) -> Vocab:
    return reader.derived(SEARCH_INDEX, read_index)


# ---- filters: an unknown value is an error that lists the valid ones
def filter_values(reader: KbReader) -> dict[str, list[str]]:
    return reader.derived(VOCABULARY, _vocabulary)


def _vocabulary(engine: Engine) -> dict[str, list[str]]:
    with engine.connect() as conn:
        return {
            "game": sorted(conn.execute(select(m.Game.id)).scalars()),
            "kind": sorted(conn.execute(select(m.Entity.kind).distinct()).scalars()),
            "check": sorted(conn.execute(select(m.Finding.check).distinct()).scalars()),
        }


def check_filters(reader: KbReader, **values: str | None) -> None:
    for name, value in values.items():
        if value is None:
            continue
        valid = filter_values(reader)[name]
        if value not in valid:
            raise ApiError(422, N_("%(name)s=%(value)s is not a value the knowledge base has; valid values: %(valid)s."),
                           params={"name": name, "value": value, "valid": ", ".join(valid)},
                           errors=[{"where": f"query.{name}", "type": "enum", "message": f"not one of {valid}"}],
                           allowed=valid)


# ---- the list envelope (ARCHITECTURE.md, "API"): {"object": "list", "data", "total", "has_more", "next"}
def link(request: Request, target: str) -> str:
    """A link to `target` (a path with its query): under RULEKB_PUBLIC_URL, else relative."""
    base = request.app.state.settings.public_url
    return f"{base}{target}" if base else target


def envelope(request: Request, data: list[Any], total: int, limit: int, offset: int, **extra: Any) -> dict[str, Any]:
    more = offset + len(data) < total
    following = None
    if more:
        url = request.url.include_query_params(offset=offset + limit, limit=limit)
        following = link(request, f"{url.path}?{url.query}")
    return {"object": "list", "data": data, "total": total, "has_more": more, "next": following, **extra}
