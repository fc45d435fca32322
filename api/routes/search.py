"""Search: ranked, case- and diacritic-insensitive, over every language (kb.search)."""
from __future__ import annotations

import json
import unicodedata
from typing import Annotated, Optional

from fastapi import Query, Request, Response

from api import models as out
from api.deps import (SEARCH_INDEX, VOCABULARY, GameFilter, KindFilter, Lang, check_filters, envelope, make_router,
                      search_index)
from api.knowledge import KbReader
from api.problems import request_lang, responses
from i18n.catalog import t
from kb.search import search as run_search

router = make_router(prefix="/search", tags=["search"])


@router.get("", response_model=out.SearchOut, responses=responses(304),
            summary="Ranked, diacritic-insensitive search")
async def search(request: Request, q: Annotated[str, Query(min_length=1, max_length=500)],
                 game: GameFilter = None, lang: Optional[Lang] = None, kind: KindFilter = None,
                 limit: Annotated[int, Query(ge=1, le=100)] = 20,
                 offset: Annotated[int, Query(ge=0, le=10_000)] = 0,
                 explain: Annotated[bool, Query(description="add to each hit the parts of its score")] = False
                 ) -> Response:
    # `async def` without dependencies: see ARCHITECTURE.md, "API"
    reader: KbReader = request.app.state.kb
    query = unicodedata.normalize("NFC", q)  # keyboards that send NFD ("z" + combining caron) find the same

    def ranked():
        check_filters(reader, game=game, kind=kind)
        return run_search(reader.engine(), query, game=game, lang=lang, kind=kind, limit=limit, offset=offset,
                          explain=explain, index=search_index(reader))

    # the ranking reads the index in memory: on PostgreSQL too it runs inline, unless the index or
    # the filter values are still to be read, or the once-a-second build check is due
    result = await reader.run(ranked, uses=(SEARCH_INDEX, VOCABULARY))
    hits = [{k: v for k, v in h.__dict__.items() if explain or k != "explain"} for h in result.hits]
    messages = request_lang(request)
    page = envelope(request, hits, result.total, limit, offset, query=result.query, tokens=result.tokens,
                    warnings=[t(messages, w) for w in result.warnings], suggestion=result.suggestion)
    # Encoded here rather than validated against SearchOut and encoded again: a search answer is
    # always computed (each query is new), and that second pass cost as much as the ranking.
    # The fuzz test (tests/test_api_fuzz.py) checks every answer against the published schema.
    return Response(json.dumps(page, ensure_ascii=False, separators=(",", ":")), media_type="application/json")
