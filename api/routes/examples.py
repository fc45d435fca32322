"""Worked examples from the rulebooks, and running them (or any scenario document) in the engine."""
from __future__ import annotations

import math
from typing import Annotated, Any, Optional, Union

from fastapi import Body, Request
from pydantic import BaseModel, ConfigDict, Field, model_validator
from sqlmodel import Session, select

from api import models as out
from api.deps import GameFilter, KbDep, Lang, LangDep, Limit, Offset, ReaderDep, check_filters, envelope, make_router
from i18n.catalog import N_
from api.problems import PARAM_CHARS, ApiError, responses, safe
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
    seed: Optional[int] = Field(default=None, ge=0, le=2**53 - 1, strict=True, description="default 0")
    seeds: Optional[Union[Annotated[int, Field(ge=1, le=scenario.MAX_SEEDS, strict=True)],
                          Annotated[list[Annotated[int, Field(ge=0, le=2**53 - 1, strict=True)]],
                                    Field(min_length=1, max_length=scenario.MAX_SEEDS)]]] = Field(
        default=None, description="instead of seed: a count (the first N seeds) or a list; every check must hold for each")
    setup: dict[str, Any] = Field(default_factory=dict)
    steps: list[dict[str, Any]] = Field(default_factory=list, max_length=2000)
    expect: list[dict[str, Any]] = Field(default_factory=list, max_length=500)

    @model_validator(mode="after")
    def _finite(self) -> "ScenarioDoc":
        """NaN and infinity are not JSON: Python's parser takes them, and the answer would show null."""
        if not _all_finite([self.options, self.setup, self.steps, self.expect, self.model_extra]):
            raise ValueError("NaN and infinity are not JSON numbers")
        return self


def _all_finite(value: Any) -> bool:
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, dict):
        return all(_all_finite(v) for v in value.values())
    if isinstance(value, list):
        return all(_all_finite(v) for v in value)
    return True


def result(outcome) -> dict[str, Any]:
    """The outcome as sent: a client's text it repeats (a path, a value, a setup key) is made safe."""
    return safe(js_safe({"id": outcome.id, "status": outcome.status, "message": safe(outcome.message, PARAM_CHARS),
                         "checks": [{**{k: v for k, v in c.__dict__.items() if k != "said"},
                                     "message": safe(c.message, PARAM_CHARS)} for c in outcome.checks],
                         "state_before": outcome.before, "state_after": outcome.state}))


def run(doc: dict[str, Any], url: str) -> dict[str, Any]:
    """The outcome of a scenario, run over the rule set of the served database at `url`; a scenario
    the engine cannot even start is a 422, never a 500."""
    try:
        outcome = scenario.run(doc, url=url)
    except (EngineError, KeyError, TypeError, ValueError, IndexError, AttributeError, RecursionError) as exc:
        raise ApiError(422, N_("The scenario cannot be run: %(problem)s"),
                       params={"problem": getattr(exc, "said", None) or str(exc) or type(exc).__name__})
    if outcome.status == "ERROR":  # malformed: the engine never got to check anything (in the reader's words)
        raise ApiError(422, N_("The scenario cannot be run: %(problem)s"), params={"problem": outcome.said or outcome.message})
    return result(outcome)


@router.get("/examples", responses=responses(304), summary="Worked examples, with whether the engine runs them")
def list_examples(request: Request, kb: KbDep, reader: ReaderDep, language: LangDep, game: GameFilter = None,
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
