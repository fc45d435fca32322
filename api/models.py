"""Response schemas of the API, with examples: what other apps can rely on.

The queries in kb/queries.py return plain dicts; these models describe them for the OpenAPI
document (and FastAPI checks every response against them).
"""
from __future__ import annotations

from typing import Any, Literal, Optional, Union

from pydantic import BaseModel, ConfigDict, Field

Lang = Literal["pl", "cs", "en"]
Origin = Literal["source", "translated", "generated"]


class Out(BaseModel):
    model_config = ConfigDict(extra="allow")


class Titles(Out):
    model_config = ConfigDict(extra="allow", json_schema_extra={"examples": [{"pl": "W Roku Smoka", "cs": "V roce draka", "en": "In the Year of the Dragon"}]})
    pl: str
    cs: str
    en: str


class EditionOut(Out):
    model_config = ConfigDict(extra="allow", json_schema_extra={"examples": [{"key": "2017", "title": {"pl": "Wydanie jubileuszowe 2017", "cs": "Jubilejní vydání 2017", "en": "10th anniversary edition (2017)"}, "year": 2017, "sources": ["dragon-2017-pl"]}]})
    key: str
    title: Titles
    year: Optional[int] = None
    sources: list[str]


class SourceOut(Out):
    model_config = ConfigDict(extra="allow", json_schema_extra={"examples": [{"id": "gugong-pl", "edition": "base", "lang": "pl", "publisher": "Game Brewer / Games Factory (PL)", "file": "gugong.pl.txt", "original": "000_1241c42904c87e79.txt", "sha256": "f661059401a0585d60e83b26a7f0568adbd8b5d2df27be26770c9150302f6f46", "text_quality": "ocr", "lines": 1875}]})
    id: str = Field(examples=["gugong-pl"])
    edition: str
    lang: Lang
    publisher: str
    file: str
    original: str = Field(description="file name in the input corpus")
    sha256: str
    text_quality: Literal["ocr", "clean"]
    lines: int


class GameOut(Out):
    model_config = ConfigDict(extra="allow", json_schema_extra={"examples": [{
        "id": "gugong", "title": {"pl": "Gugong", "cs": "Gugong", "en": "Gugong"}, "designers": ["Andreas Steding"],
        "year": 2018, "players": {"min": 1, "max": 5}, "editions": [], "variants": [], "expansions": [],
        "sources": [], "languages": {"source": ["cs", "pl"], "translated_only": ["en"]},
        "counts": {"entities": 376, "by_kind": {"location": 7}}}]})
    id: str
    title: Titles
    designers: list[str]
    year: Optional[int] = None
    players: dict[str, int]
    editions: list[EditionOut]
    variants: list[dict[str, Any]]
    expansions: list[dict[str, Any]]
    sources: list[SourceOut]
    languages: dict[str, list[str]]
    counts: dict[str, Any]
    play: Optional[dict[str, Any]] = Field(default=None, description="what the engine declares: player range, "
                                           "chance, what is hidden from whom, and the options a session may set")


class EntitySummary(Out):
    model_config = ConfigDict(extra="allow", json_schema_extra={"examples": [{"id": "gugong/location/travel", "game": "gugong", "kind": "location", "key": "travel", "parent": "gugong/phase/day", "name": "Podróż", "name_lang": "pl"}]})
    id: str = Field(examples=["gugong/location/travel"])
    game: str
    kind: str
    key: str
    parent: Optional[str] = None
    name: str
    name_lang: Optional[Lang] = None
    fallback_from: Optional[Lang] = Field(default=None, description="set when no name exists in the asked language")


class Page(Out):
    """Every list is this envelope: the page's items in `data`, the count of all
    matches in `total`, and the URL of the next page in `next` (null on the last)."""
    object: Literal["list"] = "list"
    total: int
    has_more: bool
    next: Optional[str] = Field(description="link to the next page (relative, or under RULEKB_PUBLIC_URL), null on the last")


class GameList(Page):
    data: list[GameOut]


class EntityList(Page):
    model_config = ConfigDict(extra="allow", json_schema_extra={"examples": [{"object": "list", "data": [{"id": "gugong/location/travel", "game": "gugong", "kind": "location", "key": "travel", "parent": "gugong/phase/day", "name": "Travel", "name_lang": "en"}], "total": 7, "has_more": True, "lang": "en", "next": "/api/v1/entities?kind=location&limit=1&offset=1"}]})
    data: list[EntitySummary]
    lang: Lang


class TextOut(Out):
    model_config = ConfigDict(extra="allow", json_schema_extra={"examples": [
        {"lang": "pl", "text": "Podróż", "origin": "source", "source": "gugong-pl", "lines": [[474, 474]]},
        {"lang": "en", "text": "Travel", "origin": "translated"}]})
    lang: Lang
    text: str
    origin: Origin
    source: Optional[str] = None
    lines: Optional[list[list[int]]] = Field(default=None, description="[first, last] line spans in the source")
    repair: Optional[str] = Field(default=None, description="what was restored that the OCR lost, and from where")
    repair_translated: Optional[str] = Field(
        default=None, description="the repair note (English) in the asked language (?lang=pl or cs), when translated")


class ProvenanceOut(Out):
    model_config = ConfigDict(extra="allow", json_schema_extra={"examples": [{"attr": "large_price", "basis": "text", "edition": "2017", "source": "dragon-2017-pl", "lines": [[507, 508]]}]})
    attr: str
    basis: Literal["text", "example", "reference", "assumption", "by_edition"]
    edition: Optional[str] = None
    source: Optional[str] = None
    lines: Optional[list[list[int]]] = None
    example: Optional[str] = None
    reference: Optional[str] = None
    note: Optional[str] = None
    reference_translated: Optional[str] = Field(
        default=None, description="the reference or assumption (English) in the asked language (?lang=pl or cs)")
    note_translated: Optional[str] = Field(default=None, description="the note (English) in the asked language")


class EntityOut(Out):
    model_config = ConfigDict(extra="allow", json_schema_extra={"examples": [{"id": "dragon/action/privilege", "game": "dragon", "kind": "action", "key": "privilege", "parent": "dragon/phase/action", "scope": None, "attrs": {"small_price": 2, "large_price": {"by_edition": {"2007": 6, "2017": 7}}}, "effect": [{"pay": {"yuan": 2}}], "texts": {"name": {"pl": [{"lang": "pl", "text": "Przywilej", "origin": "source", "source": "dragon-2007-pl", "lines": [[304, 304]]}], "en": [{"lang": "en", "text": "Privilege", "origin": "translated"}]}}, "provenance": [{"attr": "small_price", "basis": "text", "source": "dragon-2007-pl", "lines": [[305, 305]]}], "refs": [], "referenced_by": [], "children": [], "data_file": "kb/data/dragon/action.yaml"}]})
    id: str
    game: str
    kind: str
    key: str
    parent: Optional[str] = None
    scope: Optional[dict[str, Any]] = None
    attrs: dict[str, Any]
    effect: Optional[list[Any]] = None
    texts: dict[str, Union[list[TextOut], dict[str, list[TextOut]]]] = Field(
        description="per field: all languages (lang -> texts), or one language's texts when ?lang= is given")
    provenance: list[ProvenanceOut]
    refs: list[str]
    referenced_by: list[str]
    children: list[str]
    data_file: str
    forms: Optional[dict[str, list[str]]] = None
    questions: Optional[Union[dict[str, list[str]], list[str]]] = Field(
        default=None, description="questions players ask that the entry answers (kb/data/player-questions.yaml, "
                                  "written for the search, not rulebook text): per language, or the asked one's")
    lang: Optional[Lang] = None
    fallbacks: Optional[dict[str, str]] = Field(default=None, description="field -> language shown instead")


class Hit(Out):
    model_config = ConfigDict(extra="allow", json_schema_extra={"examples": [{"id": "gugong/term/servant", "game": "gugong", "kind": "term", "lang": "pl", "name": "Służący", "snippet": "Służący", "highlights": [[0, 7]], "score": 1012.5}]})
    id: str
    game: str
    kind: str
    lang: Lang
    name: str
    snippet: str
    highlights: list[list[int]] = Field(description="[start, end) character offsets of matches in the snippet")
    score: float


class SearchOut(Page):
    model_config = ConfigDict(extra="allow", json_schema_extra={"examples": [{
        "object": "list", "query": "SŁUŻĄCY", "tokens": ["sluzacy"], "total": 1, "has_more": False, "next": None,
        "warnings": [], "data": [{"id": "gugong/term/servant", "game": "gugong", "kind": "term", "lang": "pl",
                                  "name": "Służący", "snippet": "Służący", "highlights": [[0, 7]], "score": 12.5}]}]})
    query: str
    tokens: list[str]
    warnings: list[str] = Field(description="parts of the query that were dropped or relaxed, in the asked language")
    data: list[Hit]


class Side(Out):
    model_config = ConfigDict(extra="allow", json_schema_extra={"examples": [{"label": "2007", "source": "dragon-2007-pl", "lines": [[305, 305]], "text": "… albo płaci 6 juanów by otrzymać duży przywilej …"}]})
    label: str
    source: Optional[str] = None
    lines: Optional[list[list[int]]] = None
    text: str


class FindingOut(Out):
    key: str
    game: str
    entity: str
    field: str
    compared: str = Field(examples=["2007,2017"])
    check: str = Field(examples=["edition-value"])
    finding_class: Literal["rule", "wording", "ocr", "expansion"] = Field(
        alias="class", description="rule: a player following one text plays differently; wording: changes nothing in "
                                   "play; ocr: damage in a source; expansion: content of an expansion one edition has")
    hand_recorded: bool = Field(description="typed into the knowledge base by a transcriber, not found by a check")
    severity: Literal["high", "medium", "low"]
    assessment: Literal["rules-difference", "artefact", "unclear", "curated"]
    message: str = Field(examples=["large_price: 6 in 2007, 7 in 2017"])
    a: Optional[Side] = None
    b: Optional[Side] = None


class FindingList(Page):
    model_config = ConfigDict(extra="allow", json_schema_extra={"examples": [{"object": "list", "data": [], "total": 0, "has_more": False, "next": None}]})
    data: list[FindingOut]


class CompareOut(Out):
    model_config = ConfigDict(extra="allow", json_schema_extra={"examples": [{"id": "dragon/action/privilege", "game": "dragon", "kind": "action", "sources": ["dragon-2007-pl", "dragon-2017-pl"], "fields": {"body": {"dragon-2007-pl": {"lang": "pl", "text": "…", "origin": "source", "source": "dragon-2007-pl", "lines": [[305, 306]]}}}, "findings": []}]})
    id: str
    game: str
    kind: str
    sources: Optional[list[str]] = None
    fields: dict[str, dict[str, TextOut]] = Field(description="field -> source id -> text")
    findings: list[FindingOut]


class ExampleSummary(EntitySummary):
    model_config = ConfigDict(extra="allow", json_schema_extra={"examples": [{"id": "gugong/example/night-dice", "game": "gugong", "kind": "example", "key": "night-dice", "parent": None, "name": "Checking the destiny dice", "name_lang": "en", "runnable": True, "players": ["Kuba", "Ania", "Jola", "Jacek"]}]})
    runnable: bool = Field(description="whether the engine reproduces it (it has steps and expectations)")
    players: list[str]


class ExampleList(Page):
    model_config = ConfigDict(extra="allow", json_schema_extra={"examples": [{"object": "list", "data": [], "total": 10, "has_more": False, "lang": "en", "next": None}]})
    data: list[ExampleSummary]
    lang: Lang


class CheckOut(Out):
    model_config = ConfigDict(extra="allow", json_schema_extra={"examples": [{"path": "players.Kuba.vp", "ok": True, "message": "players.Kuba.vp is 3, expected 3"}]})
    path: str
    ok: bool
    message: str


class ScenarioResult(Out):
    model_config = ConfigDict(extra="allow", json_schema_extra={"examples": [{"id": "gugong/example/night-dice", "status": "PASS", "message": "", "checks": [{"path": "players.Kuba.vp", "ok": True, "message": "players.Kuba.vp is 3, expected 3"}], "state_before": {}, "state_after": {}}]})
    id: str
    status: Literal["PASS", "FAIL", "PENDING", "ERROR"]
    message: str
    checks: list[CheckOut]
    state_before: Optional[dict[str, Any]] = None
    state_after: Optional[dict[str, Any]] = None


class SeatOut(Out):
    seat: int = Field(description="the seat's place in the turn order given at creation, from 0")
    name: str
    agent: Literal["human", "random"]
    token: Optional[str] = Field(default=None, description="only in the creation answer: this seat's secret token")


class Viewer(Out):
    role: Literal["owner", "seat", "public"]
    seat: Optional[str] = None


class SessionOut(Out):
    model_config = ConfigDict(extra="allow", json_schema_extra={"examples": [{"id": "Qk3v9n0Tq1V2m8Yx7Lr5aB2c", "game": "gugong", "players": ["Kuba", "Ania"], "seats": [{"seat": 0, "name": "Kuba", "agent": "human"}, {"seat": 1, "name": "Ania", "agent": "random"}], "options": {}, "version": 0, "viewer": {"role": "seat", "seat": "Kuba"}, "state": {}, "current_player": "Kuba", "terminal": False, "legal": [{"type": "end_turn", "player": "Kuba"}], "created_at": "2026-11-21T12:00:00+00:00", "updated_at": "2026-11-21T12:00:00+00:00", "expires_at": "2026-11-28T12:00:00+00:00"}]})
    id: str = Field(description="unguessable; keep it to return to the game")
    game: str
    players: list[str]
    seats: list[SeatOut]
    options: dict[str, Any]
    version: int = Field(description="increases with every applied action; also the ETag (\"v3\"): send it as If-Match")
    viewer: Viewer = Field(description="whose view this is: the owner's full state, one seat's observation, or the public view")
    state: dict[str, Any] = Field(description="the state as the viewer may see it: hidden values read as null, lists keep their length")
    current_player: Optional[str] = None
    terminal: bool
    legal: Optional[list[dict[str, Any]]] = Field(default=None, description="the legal actions, for the seat to act (and the owner)")
    seed: Optional[Union[int, str]] = Field(default=None, description=(
        "for the owner, and for everyone once the game is over: the seed a client chose, or the server's 128-bit "
        "seed as decimal text (beyond 2^53); with the action list it replays the game"))
    scores: Optional[list[dict[str, Any]]] = None
    replay_matches: Optional[bool] = None
    idempotent_replay: Optional[bool] = Field(default=None, description="true when this token already sent this request with the same Idempotency-Key: it was not applied again, and this is the view now")
    replayed_version: Optional[int] = Field(default=None, description="with idempotent_replay: the version the first request made")
    created_at: str
    updated_at: str
    expires_at: str = Field(description=(
        "when the session expires unless it is used before (reading it counts, at most once a minute); "
        "until a seat has acted, that is RULEKB_SESSION_UNPLAYED_SECONDS after its last use"))


class SessionCreated(SessionOut):
    owner_token: str = Field(description="reads the full state and deletes the session; keep it secret")


class HistoryItem(Out):
    model_config = ConfigDict(extra="allow", json_schema_extra={"examples": [{"seq": 1, "player": "Kuba", "by": "human", "action": {"type": "end_turn", "player": "Kuba"}, "events": [], "at": "2026-11-21T12:00:05+00:00"}]})
    seq: int
    player: Optional[str] = None
    by: Literal["human", "random"]
    action: dict[str, Any]
    events: list[Any]
    at: str


class SessionHistory(Page):
    model_config = ConfigDict(extra="allow", json_schema_extra={"examples": [{"object": "list", "data": [], "total": 0, "has_more": False, "next": None, "id": "Qk3v9n0Tq1V2m8Yx7Lr5aB2c", "version": 0, "current_player": "Kuba", "legal": [{"type": "end_turn", "player": "Kuba"}]}]})
    data: list[HistoryItem]
    id: str
    version: int
    current_player: Optional[str] = None
    legal: Optional[list[dict[str, Any]]] = Field(default=None, description="for the seat to act (and the owner)")


class Health(Out):
    model_config = ConfigDict(extra="allow", json_schema_extra={"examples": [{"status": "ok"}]})
    status: Literal["ok"]


class Ready(Out):
    model_config = ConfigDict(extra="allow", json_schema_extra={"examples": [{"status": "ready", "built_at": "2026-11-23T21:00:00+00:00"}]})
    status: Literal["ready"]
    built_at: Optional[str] = None
