"""Translation and edition checks: one entity side by side, and the checker's findings."""
from __future__ import annotations

from typing import Annotated, Literal, Optional

from fastapi import Query, Request

from api import models as out
from api.deps import KbDep, Limit, Offset, MessageLangDep, ReaderDep, check_filters, envelope, make_router
from i18n.catalog import N_
from i18n.checker import message_text
from api.problems import ApiError, responses
from kb import queries

router = make_router(tags=["translations"])


def localized(findings: list[dict], lang: str) -> list[dict]:
    """Each finding's message in the reader's language (?lang=, else Accept-Language); the words it
    quotes stay as the source writes them."""
    out = []
    for f in findings:
        f = dict(f)
        args = f.pop("message_args", None)
        if args and lang != "en":
            f["message"] = message_text(lang, args["msgid"], args["params"])
        out.append(f)
    return out


@router.get("/compare/{entity_id:path}", responses=responses(304, 404),
            summary="An entity's texts side by side per source, with findings")
def compare(kb: KbDep, entity_id: str, reader_lang: MessageLangDep,
            langs: Annotated[Optional[str], Query(pattern=r"^(pl|cs|en),(pl|cs|en)$", examples=["pl,cs"])] = None,
            editions: Annotated[Optional[str], Query(pattern=r"^[0-9a-z-]+,[0-9a-z-]+$", examples=["2007,2017"])] = None,
            ) -> out.CompareOut:
    game = queries.get_entity(kb, entity_id)["game"]
    chosen = None
    if langs or editions:
        sources = queries.get_game(kb, game)["sources"]
        key, wanted = ("lang", langs.split(",")) if langs else ("edition", editions.split(","))
        have = sorted({s[key] for s in sources})
        missing = [w for w in wanted if w not in have]
        if missing:
            raise ApiError(422, N_("%(game)s has no source for %(missing)s; it has %(have)s."),
                           params={"game": game, "missing": ", ".join(missing), "have": ", ".join(have)},
                           allowed=have)
        chosen = [s["id"] for s in sources if s[key] in wanted]
    found = queries.compare_entity(kb, entity_id, chosen)
    return {**found, "findings": localized(found["findings"], reader_lang)}


@router.get("/discrepancies", responses=responses(304), summary="Findings of the translation and edition checker")
def discrepancies(request: Request, kb: KbDep, reader: ReaderDep, reader_lang: MessageLangDep, game: Optional[str] = None,
                  check: Optional[str] = None, severity: Literal["high", "medium", "low"] = "low",
                  assessment: Optional[Literal["rules-difference", "artefact", "unclear", "curated"]] = None,
                  finding_class: Annotated[Optional[Literal["rule", "wording", "ocr", "expansion"]], Query(alias="class")] = None,
                  limit: Limit = 50, offset: Offset = 0) -> out.FindingList:
    check_filters(reader, game=game, check=check)
    items, total = queries.list_findings(kb, game=game, check=check, min_severity=severity, assessment=assessment,
                                         finding_class=finding_class, limit=limit, offset=offset)
    return envelope(request, localized(items, reader_lang), total, limit, offset)
