"""Entities: the knowledge base's rules, components, cards and terms, in the asked language."""
from __future__ import annotations

import json
from typing import Optional

from fastapi import Request, Response

from api import models as out
from api.deps import (ENTITIES, GameFilter, KbDep, KindFilter, Lang, LangDep, Limit, Offset, ReaderDep, check_filters,
                      envelope, make_router)
from api.knowledge import KbReader
from api.problems import responses
from i18n.catalog import with_note_translations
from i18n.locale import negotiate
from kb import queries

router = make_router(prefix="/entities", tags=["entities"])


@router.get("", responses=responses(304), summary="List entities, filtered by game and kind")
def list_entities(request: Request, kb: KbDep, reader: ReaderDep, language: LangDep, game: GameFilter = None,
                  kind: KindFilter = None, lang: Optional[Lang] = None, limit: Limit = 50,
                  offset: Offset = 0) -> out.EntityList:
    check_filters(reader, game=game, kind=kind)
    items, total = queries.list_entities(kb, game=game, kind=kind, lang=language, limit=limit, offset=offset)
    return envelope(request, items, total, limit, offset, lang=language)


@router.get("/{entity_id:path}", responses=responses(304, 404),
            summary="One entity with texts, attributes and provenance")
async def get_entity(request: Request, entity_id: str, lang: Optional[Lang] = None) -> out.EntityOut:
    # The build's documents of all entities, held per build by the reader (a few MB, loaded by the
    # warm-up): a lookup neither queries the database nor validates and encodes the answer again,
    # so it runs on the event loop, unless they are still to be read (ARCHITECTURE.md, "API").
    reader: KbReader = request.app.state.kb
    documents = await reader.run(lambda: reader.derived(ENTITIES, queries.entity_jsons), uses=(ENTITIES,))
    document = documents.get(entity_id)
    if document is None:
        raise queries.NotFound("entity", entity_id)
    header = request.headers.get("accept-language")
    lang = lang or (negotiate(header) if header else None)  # all languages unless the client names one
    if lang:  # one language's texts, and the knowledge base's English notes in it beside them
        document = json.dumps(with_note_translations(queries.in_language(json.loads(document), lang), lang),
                              ensure_ascii=False, separators=(",", ":"))
    return Response(document, media_type="application/json")
