"""Worked examples from the rulebooks, and running them (or any scenario document) in the engine."""
from __future__ import annotations

from typing import Annotated, Any, Optional

from fastapi import Body, Request
from pydantic import BaseModel, ConfigDict, Field
from sqlmodel import Session, select

from api import models as out
from api.deps import KbDep, Lang, LangDep, Limit, Offset, ReaderDep, check_filters, envelope, make_router
from i18n.catalog import N_
from api.problems import ApiError, responses
from api.store import js_safe
from engine.core import EngineError, scenario
from kb import models as m
from kb import queries

router = make_router(tags=["examples"])


class ScenarioDoc(BaseModel):
    """A scenario document (kb/data/README.md): the engine builds the start state, merges `setup`, runs `steps`
    and checks `expect`."""
    model_config = ConfigDict(extra="allow", json_schema_extra={"examples": [{
        "id": "gugong/example/my-check", "game": "gugong", "players": ["Kuba", "Ania"], "options": {},
        "setup": {}, "steps": [{"run": "night"}], "expect": [{"path": "players.Kuba.vp", "equals": 0}]}]})
    id: str = Field(default="scenario", max_length=200)
    game: str = Field(max_length=40)
    players: list[Annotated[str, Field(max_length=64)]] = Field(min_length=1, max_length=8)
    options: dict[str, Any] = Field(default_factory=dict)
    seed: int = Field(default=0, ge=0, le=2**31 - 1, strict=True)
    setup: dict[str, Any] = Field(default_factory=dict)
    steps: list[dict[str, Any]] = Field(default_factory=list, max_length=2000)
    expect: list[dict[str, Any]] = Field(default_factory=list, max_length=500)


def result(outcome) -> dict[str, Any]:
    return js_safe({"id": outcome.id, "status": outcome.status, "message": outcome.message,
                    "checks": [c.__dict__ for c in outcome.checks],
                    "state_before": outcome.before, "state_after": outcome.state})


def run(doc: dict[str, Any], url: str) -> dict[str, Any]:
    """The outcome of a scenario, run over the rule set of the served database at `url`; a scenario
    the engine cannot even start is a 422, never a 500."""
    try:
        outcome = scenario.run(doc, url=url)
    except (EngineError, KeyError, TypeError, ValueError, IndexError, AttributeError, RecursionError) as exc:
        raise ApiError(422, N_("The scenario cannot be run: %(problem)s"), params={"problem": str(exc) or type(exc).__name__})
    if outcome.status == "ERROR":  # malformed: the engine never got to check anything
        raise ApiError(422, N_("The scenario cannot be run: %(problem)s"), params={"problem": outcome.message})
    return result(outcome)


@router.get("/examples", responses=responses(304), summary="Worked examples, with whether the engine runs them")
def list_examples(request: Request, kb: KbDep, reader: ReaderDep, language: LangDep, game: Optional[str] = None,
                  lang: Optional[Lang] = None, limit: Limit = 100, offset: Offset = 0) -> out.ExampleList:
    check_filters(reader, game=game)
    items, total = queries.list_entities(kb, game=game, kind="example", lang=language, limit=limit, offset=offset)
    with Session(kb) as db:
        attrs = dict(db.exec(select(m.Entity.id, m.Entity.attrs).where(m.Entity.id.in_([i["id"] for i in items]))).all())
    for item in items:
        item["runnable"] = bool(attrs[item["id"]].get("steps") or attrs[item["id"]].get("expect"))
        item["players"] = attrs[item["id"]].get("players", [])
    return envelope(request, items, total, limit, offset, lang=language)


@router.post("/examples/{example_id:path}/run", responses=responses(404), summary="Run a stored worked example")
def run_example(example_id: str, kb: KbDep, reader: ReaderDep) -> out.ScenarioResult:
    entity = queries.get_entity(kb, example_id)
    if entity["kind"] != "example":
        raise queries.NotFound("example", example_id)
    return run({"id": entity["id"], "game": entity["game"], **entity["attrs"]}, reader.url)


@router.post("/scenarios/run", tags=["scenarios"], responses=responses(400),
             summary="Run a scenario document (never a file path)")
def run_scenario(doc: Annotated[ScenarioDoc, Body()], reader: ReaderDep) -> out.ScenarioResult:
    return run(doc.model_dump(exclude_none=True), reader.url)
