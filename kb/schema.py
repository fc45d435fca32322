"""Pydantic models of the curated YAML files in kb/data (the format is described in kb/data/README.md).

These models only check the shape of one file; cross-file checks (ids, references, line spans,
effect vocabulary) live in kb/loader.py.
"""
from __future__ import annotations

import re
from typing import Any, Literal, Union

from typing import Annotated

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, field_validator, model_validator

from kb.messages import N_, Invalid

TEXT_LANGS = ("pl", "cs", "en")  # the languages of the data texts (names, bodies)
KINDS = (
    "component", "setup-step", "phase", "step", "location", "action", "action-option", "court-action",
    "card", "card-ability", "tile", "token", "decree", "reward", "track", "port", "event", "person",
    "scoring-rule", "variant", "rule", "tip", "term", "unknown", "example",
)
KEY_RE = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
ID_RE = re.compile(r"^[a-z0-9-]+/[a-z-]+/[a-z0-9]+(?:-[a-z0-9]+)*$")
FIELD_RE = re.compile(r"^[a-z][a-z0-9_]*$")


def _key(v: str) -> str:
    if not KEY_RE.match(v):
        raise Invalid(N_("key %(key)r must be lowercase a-z, 0-9 and single hyphens"), key=v)
    return v


def _entity_id(v: str) -> str:
    if not ID_RE.match(v):
        raise Invalid(N_("%(id)r is not an id game/kind/key"), id=v)
    return v


Key = Annotated[str, AfterValidator(_key)]
EntityId = Annotated[str, AfterValidator(_entity_id)]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=False)


Span = tuple[int, int]


def normalize_spans(value: Any) -> list[Span]:
    """`[a, b]` or `[[a, b], [c, d]]` -> list of (a, b) with 1 <= a <= b."""
    if isinstance(value, (list, tuple)) and len(value) == 2 and all(isinstance(v, int) for v in value):
        value = [value]
    if not isinstance(value, (list, tuple)) or not value:
        raise Invalid(N_("lines must be [first, last] or a list of [first, last]"))
    spans = []
    for item in value:
        if not (isinstance(item, (list, tuple)) and len(item) == 2 and all(isinstance(v, int) for v in item)):
            raise Invalid(N_("bad line span %(span)r: expected [first, last]"), span=item)
        a, b = item
        if a < 1 or b < a:
            raise Invalid(N_("bad line span [%(first)s, %(last)s]: need 1 <= first <= last"), first=a, last=b)
        spans.append((a, b))
    return spans


class TextItem(Strict):
    text: str = Field(min_length=1)
    src: str | None = None
    lines: list[Span] | None = None
    repair: str | None = None

    @field_validator("lines", mode="before")
    @classmethod
    def _spans(cls, v):
        return None if v is None else normalize_spans(v)

    @model_validator(mode="after")
    def _source_needs_lines(self):
        if (self.src is None) != (self.lines is None):
            raise Invalid(N_("a source text needs both `src` and `lines` (a translated text has neither)"))
        if self.repair and not self.src:
            raise Invalid(N_("`repair` only applies to a source text"))
        return self

    @property
    def origin(self) -> str:
        return "source" if self.src else "translated"


TextValue = Union[str, TextItem, list[TextItem]]


def text_items(value: TextValue) -> list[TextItem]:
    if isinstance(value, str):
        return [TextItem(text=value)]
    if isinstance(value, TextItem):
        return [value]
    return list(value)


class Provenance(Strict):
    src: str | None = None
    lines: list[Span] | None = None
    example: str | None = None
    reference: str | None = None
    assumption: str | None = None
    note: str | None = None
    by_edition: dict[str, "Provenance"] | None = None

    @field_validator("lines", mode="before")
    @classmethod
    def _spans(cls, v):
        return None if v is None else normalize_spans(v)

    @model_validator(mode="after")
    def _one_basis(self):
        bases = [b for b in ("src", "example", "reference", "assumption", "by_edition") if getattr(self, b)]
        if len(bases) != 1:
            raise Invalid(N_("provenance needs exactly one of src+lines, example, reference, assumption, by_edition"))
        if (self.src is None) != (self.lines is None):
            raise Invalid(N_("provenance `src` needs `lines`"))
        return self

    @property
    def basis(self) -> str:
        for b in ("src", "example", "reference", "assumption", "by_edition"):
            if getattr(self, b):
                return "text" if b == "src" else b
        return "?"


class Scope(Strict):
    editions: list[str] | None = None
    expansions: list[str] | None = None
    variants: list[str] | None = None


Texts = dict[str, dict[str, TextValue]]


def _check_texts(texts: Texts) -> Texts:
    for field, langs in texts.items():
        if not FIELD_RE.match(field):
            raise Invalid(N_("text field %(field)r must be snake_case"), field=field)
        for lang in langs:
            if lang not in TEXT_LANGS:
                raise Invalid(N_("text %(field)s.%(lang)s: language must be one of %(langs)s"), field=field, lang=lang,
                              langs=", ".join(TEXT_LANGS))
    return texts


class Entity(Strict):
    key: Key
    parent: EntityId | None = None
    scope: Scope | None = None
    order: int | None = None
    refs: list[EntityId] = []
    attrs: dict[str, Any] = {}
    provenance: dict[str, Provenance] = {}
    effect: list[dict[str, Any]] | None = None
    texts: Texts
    forms: dict[str, list[str]] | None = None

    @field_validator("texts")
    @classmethod
    def _texts(cls, v):
        if "name" not in v:
            raise Invalid(N_("every entity needs texts.name"))
        return _check_texts(v)

    @field_validator("forms")
    @classmethod
    def _forms(cls, v):
        if v is not None:
            for lang in v:
                if lang not in TEXT_LANGS:
                    raise Invalid(N_("forms.%(lang)s: language must be one of %(langs)s"), lang=lang, langs=", ".join(TEXT_LANGS))
        return v


class Fact(Strict):
    model_config = ConfigDict(extra="allow")  # line spans per source key: pl, cs, pl2007, pl2017
    who: str | None = None
    what: str
    value: Any = None


class Example(Strict):
    """A worked example; the engine issue adds options/setup/steps/expect to make it a scenario."""
    key: Key
    id: str | None = None
    game: str | None = None
    title: dict[str, str]
    players: list[str] = []
    names: dict[str, dict[str, str]] = {}
    texts: Texts
    refs: list[EntityId] = []
    scope: Scope | None = None
    facts: list[Fact] = []
    # scenario part: worked examples are scenarios the engine runs (ARCHITECTURE.md, "Engine")
    options: dict[str, Any] | None = None
    source_refs: list[dict[str, Any]] | None = None
    setup: dict[str, Any] | None = None
    steps: list[dict[str, Any]] | None = None
    expect: list[dict[str, Any]] | None = None
    follows: str | None = None

    @field_validator("texts")
    @classmethod
    def _texts(cls, v):
        return _check_texts(v)


class LineNote(Strict):
    lines: list[Span]
    why: str

    @field_validator("lines", mode="before")
    @classmethod
    def _spans(cls, v):
        return normalize_spans(v)


class Coverage(Strict):
    source: str
    exclude: list[LineNote] = []
    noise: list[LineNote] = []


class Titled(Strict):
    key: str
    title: dict[str, str]
    year: int | None = None
    sources: list[str] = []
    editions: list[str] = []


class Term(Strict):
    """A named condition, count, place, player or quantity an effect may use (game.yaml): the engine
    implements it by name, the renderer says its label (the English clause, a msgid of the effects
    catalog, with `{param}` placeholders) in the reader's language."""
    label: str = Field(min_length=1)
    means: str | None = None  # what the label leaves to the rulebook (ties, timing), when it does
    params: dict[str, Literal["int"]] = {}
    provenance: Provenance

    @model_validator(mode="after")
    def _placeholders_are_params(self):
        named = set(re.findall(r"\{(\w+)\}", self.label))
        if named != set(self.params):
            raise ValueError(f"the label's placeholders {sorted(named)} must be the params {sorted(self.params)}")
        if not self.provenance.src:
            raise ValueError("a term cites the rulebook lines that define it (provenance: {src, lines})")
        return self


class Game(Strict):
    key: str
    title: dict[str, str]
    designers: list[str] = []
    year: int | None = None
    players: dict[str, int]
    editions: list[Titled]
    variants: list[Titled] = []
    expansions: list[Titled] = []
    no_source_langs: list[str] = []
    proper_names: dict[str, list[str]] = {}  # names the rulebooks use that no dictionary has
    resources: list[str] = []
    tracks: list[str] = []
    moments: list[str] = []
    # the vocabulary of effects (kb/effects.py TERM_ARGS): condition: {if}, per: {each}, place: {where,
    # from}, take: {from}, modify: {what}, rule: {says} name an entry of these
    conditions: dict[str, Term] = {}
    counts: dict[str, Term] = {}
    places: dict[str, Term] = {}
    others: dict[str, Term] = {}
    quantities: dict[str, Term] = {}
    # what a mechanism does, said as a full clause: a `rule:` step states it rather than only naming its rule
    mechanisms: dict[str, Term] = {}


class Source(Strict):
    id: str
    game: str
    edition: str
    lang: Literal["pl", "cs", "en"]
    publisher: str
    file: str
    original: str
    sha256: str
    text_quality: Literal["ocr", "clean"]


class Manifest(Strict):
    sources: list[Source]


class EffectOp(Strict):
    args: dict[str, str]
    means: str


class EffectVocabulary(Strict):
    ops: dict[str, EffectOp]
