"""Read kb/data and kb/sources into a validated, in-memory knowledge base.

Every problem is collected as an Issue naming the file, the entity id and the field, so one run
shows all of them; `load()` raises KBError if any is an error.
"""
from __future__ import annotations

import difflib
import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

import yaml
from pydantic import ValidationError

from kb import DATA_DIR, SOURCES_DIR
from kb.messages import N_, Invalid, Message
from kb.effects import (APPLY, ID_ARGS, TERM_SECTIONS, EffectVisitor, RefError, applied, duplicated_literals, is_ref,
                        resolve, term, term_literals)
from kb.schema import (
    KINDS, TEXT_LANGS, Coverage, EffectVocabulary, Entity, Example, Game, Manifest, Provenance, Source,
    TextItem, normalize_spans, text_items,
)


SEVERITIES = {"error": N_("error"), "warning": N_("warning")}


@dataclass(frozen=True)
class Issue:
    file: str
    where: str
    text: Message  # rendered in the reader's language by i18n.catalog.render; `message` is the English
    severity: str = "error"

    @property
    def message(self) -> str:
        return str(self.text)

    def __str__(self) -> str:
        where = f" [{self.where}]" if self.where else ""
        return f"{self.severity}: {self.file}{where}: {self.message}"

    def to_dict(self) -> dict:
        return {"file": self.file, "where": self.where, "message": self.message, "severity": self.severity,
                **self.text.to_dict()}


class KBError(Exception):
    def __init__(self, issues: list[Issue]):
        self.issues = issues
        errors = [i for i in issues if i.severity == "error"]
        shown = "\n".join(f"  {i}" for i in errors[:50])
        more = f"\n  … and {len(errors) - 50} more" if len(errors) > 50 else ""
        super().__init__(f"the knowledge base has {len(errors)} error(s):\n{shown}{more}")


@dataclass
class SourceText:
    meta: Source
    path: Path
    lines: list[str]  # lines[0] is line 1

    def span_text(self, spans) -> str:
        return "\n".join("\n".join(self.lines[a - 1 : b]) for a, b in spans)


@dataclass
class Record:
    id: str
    game: str
    kind: str
    key: str
    file: Path
    item: Entity | Example

    @property
    def texts(self):
        return self.item.texts


@dataclass
class KnowledgeBase:
    data_dir: Path
    games: dict[str, Game] = field(default_factory=dict)
    sources: dict[str, SourceText] = field(default_factory=dict)
    records: dict[str, Record] = field(default_factory=dict)
    coverage: dict[str, list[tuple[Coverage, Path]]] = field(default_factory=dict)
    effects: EffectVocabulary | None = None
    issues: list[Issue] = field(default_factory=list)

    @property
    def errors(self) -> list[Issue]:
        return [i for i in self.issues if i.severity == "error"]

    def source_texts(self, game: str | None = None) -> Iterator[tuple[Record, str, str, TextItem]]:
        """Every (record, field, lang, item) whose item has origin `source`."""
        for rec in self.records.values():
            if game and rec.game != game:
                continue
            for fld, langs in rec.texts.items():
                for lang, value in langs.items():
                    for item in text_items(value):
                        if item.src:
                            yield rec, fld, lang, item


def _rel(path: Path, base: Path) -> str:
    try:
        return str(path.relative_to(base.parent.parent))
    except ValueError:
        return str(path)


# pydantic's error types in the project's words (pydantic's own are English only); the field is named apart
_WANTED = {
    "missing": N_("missing (a required field)"),
    "extra_forbidden": N_("unknown key (see kb/data/README.md)"),
    "string_type": N_("expected text, got %(value)s"),
    "string_too_short": N_("must not be empty"),
    "int_type": N_("expected a whole number, got %(value)s"),
    "int_parsing": N_("expected a whole number, got %(value)s"),
    "int_from_float": N_("expected a whole number, got %(value)s"),
    "float_type": N_("expected a number, got %(value)s"),
    "float_parsing": N_("expected a number, got %(value)s"),
    "bool_type": N_("expected true or false, got %(value)s"),
    "bool_parsing": N_("expected true or false, got %(value)s"),
    "list_type": N_("expected a list, got %(value)s"),
    "tuple_type": N_("expected a list, got %(value)s"),
    "too_short": N_("expected more items, got %(value)s"),
    "too_long": N_("expected fewer items, got %(value)s"),
    "dict_type": N_("expected a mapping (key: value), got %(value)s"),
    "model_type": N_("expected a mapping (key: value), got %(value)s"),
    "model_attributes_type": N_("expected a mapping (key: value), got %(value)s"),
    "literal_error": N_("expected %(expected)s, got %(value)s"),
    "enum": N_("expected %(expected)s, got %(value)s"),
}


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:59] + "…"


def _pydantic_issues(err: ValidationError, file: str, where: str) -> list[Issue]:
    out = []
    for e in err.errors():
        loc = ".".join(str(p) for p in e["loc"])
        refused = (e.get("ctx") or {}).get("error")
        if isinstance(refused, Invalid):  # the schema's own check (kb/schema.py), already in our words
            problem = refused.message
        elif e["type"] in _WANTED:
            problem = Message(_WANTED[e["type"]], value=_shown(e.get("input")),
                              expected=str((e.get("ctx") or {}).get("expected", "")))
        else:  # a check the table does not know: its code names it
            problem = Message(N_("invalid value %(value)s (%(kind)s)"), value=_shown(e.get("input")), kind=e["type"])
        out.append(Issue(file, where, Message(N_("field %(field)s: %(problem)s"), field=loc, problem=problem)
                         if loc else problem))
    return out


# libyaml's parser when PyYAML was built with it (the wheels are): the same safe types, several times
# faster than the pure-Python one, which was most of a `compare --text` (2 of its 3 seconds) and of reading
# kb/data/player-questions.yaml (1.4 of 1.5 s)
class YAML_LOADER(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # noqa: N801 (used as the loader class it is)
    """The safe loader, refusing a key given twice in one mapping: YAML keeps the last and drops the first
    without a word, and a second `note:` under one entry's texts lost the first note that way."""

    def construct_mapping(self, node, deep=False):
        seen = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=True)
            if isinstance(key, str) and key in seen:
                raise yaml.constructor.ConstructorError(None, None, f"duplicate key {key!r}", key_node.start_mark)
            seen.add(key)
        return super().construct_mapping(node, deep=deep)


def _read_yaml(path: Path, kb: KnowledgeBase, rel: str) -> Any:
    try:
        with path.open(encoding="utf-8") as fh:
            return yaml.load(fh, Loader=YAML_LOADER)  # noqa: S506 (a safe loader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        kb.issues.append(Issue(rel, "", Message(N_("YAML syntax error at line %(line)s, column %(column)s: %(problem)s"),
                                                line=mark.line + 1 if mark else "?", column=mark.column + 1 if mark else "?",
                                                problem=getattr(exc, "problem", None) or str(exc).replace("\n", " "))))
    except UnicodeDecodeError as exc:
        kb.issues.append(Issue(rel, "", Message(N_("not UTF-8 text (byte %(position)s)"), position=exc.start)))
    return None


def load(data_dir: Path = DATA_DIR, sources_dir: Path = SOURCES_DIR, *, strict: bool = True) -> KnowledgeBase:
    kb = KnowledgeBase(data_dir=data_dir)
    _load_sources(kb, sources_dir)
    _load_effects(kb, data_dir)
    for game_dir in sorted(p for p in data_dir.iterdir() if p.is_dir()):
        _load_game(kb, game_dir)
    _cross_check(kb)
    if strict and kb.errors:
        raise KBError(kb.issues)
    return kb


def _load_sources(kb: KnowledgeBase, sources_dir: Path) -> None:
    rel = "kb/sources/manifest.yaml"
    raw = _read_yaml(sources_dir / "manifest.yaml", kb, rel)
    try:
        manifest = Manifest.model_validate(raw)
    except ValidationError as err:
        kb.issues.extend(_pydantic_issues(err, rel, ""))
        return
    for src in manifest.sources:
        path = sources_dir / src.file
        if not path.is_file():
            kb.issues.append(Issue(rel, src.id, Message(N_("file %(file)s is missing"), file=src.file)))
            continue
        data = path.read_bytes()
        digest = hashlib.sha256(data).hexdigest()
        if digest != src.sha256:
            kb.issues.append(Issue(rel, src.id, Message(N_("sha256 of %(file)s is %(digest)s, manifest says %(listed)s"),
                                                   file=src.file, digest=digest, listed=src.sha256)))
        lines = data.decode("utf-8").split("\n")
        if lines and lines[-1] == "":  # a final newline ends the last line; it does not start one
            lines.pop()
        kb.sources[src.id] = SourceText(src, path, lines)


def _load_effects(kb: KnowledgeBase, data_dir: Path) -> None:
    raw = _read_yaml(data_dir / "effects.yaml", kb, "kb/data/effects.yaml")
    try:
        kb.effects = EffectVocabulary.model_validate(raw)
    except ValidationError as err:
        kb.issues.extend(_pydantic_issues(err, "kb/data/effects.yaml", ""))


def _load_game(kb: KnowledgeBase, game_dir: Path) -> None:
    game_key = game_dir.name
    game_file = game_dir / "game.yaml"
    rel = _rel(game_file, kb.data_dir)
    if not game_file.is_file():
        kb.issues.append(Issue(rel, game_key, Message(N_("game.yaml is missing"))))
        return
    try:
        kb.games[game_key] = Game.model_validate(_read_yaml(game_file, kb, rel))
    except ValidationError as err:
        kb.issues.extend(_pydantic_issues(err, rel, game_key))
        return
    for path in sorted(game_dir.rglob("*")):
        if path.is_dir() or path == game_file:
            continue
        rel = _rel(path, kb.data_dir)
        parts = path.relative_to(game_dir).parts
        if path.suffix != ".yaml":
            kb.issues.append(Issue(rel, "", Message(N_("unexpected file (only .yaml files belong in kb/data)"))))
        elif parts[0] == "examples" and len(parts) == 2:
            _load_example(kb, game_key, path, rel)
        elif parts[0] == "scenarios":
            continue  # engine scenarios (ARCHITECTURE.md), run by `rulekb scenario run` and tests/test_scenarios.py
        elif parts[0] == "coverage" and len(parts) == 2:
            _load_coverage(kb, path, rel)
        elif len(parts) == 1 or len(parts) == 2:
            kind = path.stem if len(parts) == 1 else parts[0]
            if kind not in KINDS or kind == "example":
                kb.issues.append(Issue(rel, "", Message(N_("%(kind)r is not a kind; kinds: %(kinds)s"), kind=kind,
                                                        kinds=", ".join(KINDS[:-1]))))
                continue
            _load_entities(kb, game_key, kind, path, rel)
        else:
            kb.issues.append(Issue(rel, "", Message(N_("too deeply nested: use <kind>.yaml or <kind>/<part>.yaml"))))


def _add(kb: KnowledgeBase, rec: Record, rel: str) -> None:
    if rec.id in kb.records:
        other = _rel(kb.records[rec.id].file, kb.data_dir)
        kb.issues.append(Issue(rel, rec.id, Message(N_("duplicate id (also in %(file)s)"), file=other)))
        return
    kb.records[rec.id] = rec


def _load_entities(kb: KnowledgeBase, game: str, kind: str, path: Path, rel: str) -> None:
    raw = _read_yaml(path, kb, rel)
    if raw is None:
        return
    if not isinstance(raw, list):
        kb.issues.append(Issue(rel, "", Message(N_("an entity file holds a YAML list of entities"))))
        return
    for n, item in enumerate(raw):
        where = f"{game}/{kind}/{item.get('key')}" if isinstance(item, dict) else f"item {n + 1}"
        try:
            ent = Entity.model_validate(item)
        except ValidationError as err:
            kb.issues.extend(_pydantic_issues(err, rel, where))
            continue
        _add(kb, Record(f"{game}/{kind}/{ent.key}", game, kind, ent.key, path, ent), rel)


def _load_example(kb: KnowledgeBase, game: str, path: Path, rel: str) -> None:
    raw = _read_yaml(path, kb, rel)
    if raw is None:
        return
    where = f"{game}/example/{path.stem}"
    try:
        ex = Example.model_validate(raw)
    except ValidationError as err:
        kb.issues.extend(_pydantic_issues(err, rel, where))
        return
    if ex.key != path.stem:
        kb.issues.append(Issue(rel, where, Message(N_("key %(key)r must equal the file name %(name)r"), key=ex.key,
                                                  name=path.stem)))
    if ex.id and ex.id != where:
        kb.issues.append(Issue(rel, where, Message(N_("id %(id)r must be %(wanted)r"), id=ex.id, wanted=where)))
    _add(kb, Record(where, game, "example", ex.key, path, ex), rel)


def _load_coverage(kb: KnowledgeBase, path: Path, rel: str) -> None:
    raw = _read_yaml(path, kb, rel)
    if raw is None:
        return
    try:
        cov = Coverage.model_validate(raw)
    except ValidationError as err:
        kb.issues.extend(_pydantic_issues(err, rel, ""))
        return
    kb.coverage.setdefault(cov.source, []).append((cov, path))


# ---------------------------------------------------------------- cross-file checks

def _check_spans(kb: KnowledgeBase, rel: str, where: str, what: str, src: str, spans, game: str) -> None:
    source = kb.sources.get(src)
    if source is None:
        kb.issues.append(Issue(rel, where, Message(N_("%(what)s: unknown source %(source)r"), what=what, source=src)))
        return
    if source.meta.game != game:
        kb.issues.append(Issue(rel, where, Message(N_("%(what)s: source %(source)r belongs to %(its)s, not %(game)s"),
                                                  what=what, source=src, its=source.meta.game, game=game)))
    n = len(source.lines)
    for a, b in spans:
        if b > n:
            kb.issues.append(Issue(rel, where, Message(N_("%(what)s: lines [%(first)s, %(last)s] run past the end of "
                                                     "%(source)s (%(n)s lines)"), what=what, first=a, last=b,
                                                  source=src, n=n)))


def _has_number(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, (int, float)):
        return True
    if isinstance(value, dict):
        return any(_has_number(v) for v in value.values())
    if isinstance(value, list):
        return any(_has_number(v) for v in value)
    return False


def _check_provenance(kb: KnowledgeBase, rec: Record, rel: str, name: str, prov: Provenance) -> None:
    what = f"provenance.{name}"
    if prov.src:
        _check_spans(kb, rel, rec.id, what, prov.src, prov.lines, rec.game)
    if prov.example and prov.example not in kb.records:
        kb.issues.append(Issue(rel, rec.id, Message(N_("%(what)s: example %(example)r does not exist"), what=what,
                                                   example=prov.example)))
    for ed, sub in (prov.by_edition or {}).items():
        _check_provenance(kb, rec, rel, f"{name}.{ed}", sub)


def _check_terms(kb: KnowledgeBase) -> None:
    """Each vocabulary entry of a game.yaml cites lines of that game's sources."""
    for key, game in kb.games.items():
        rel = f"{key}/game.yaml"
        for section in TERM_SECTIONS:
            for name, entry in getattr(game, section).items():
                _check_spans(kb, rel, key, f"{section}.{name}.provenance", entry.provenance.src,
                             entry.provenance.lines or [], key)


def _cross_check(kb: KnowledgeBase) -> None:
    _check_terms(kb)
    for rec in kb.records.values():
        rel = _rel(rec.file, kb.data_dir)
        game = kb.games.get(rec.game)
        item = rec.item
        for ref in ([item.parent] if isinstance(item, Entity) and item.parent else []) + list(item.refs):
            if ref not in kb.records:
                kb.issues.append(Issue(rel, rec.id, Message(N_("reference to %(id)r, which does not exist"), id=ref)))
        no_source = set(game.no_source_langs) if game else set()
        for fld, langs in rec.texts.items():
            for lang, value in langs.items():
                for entry in text_items(value):
                    if entry.src:
                        _check_spans(kb, rel, rec.id, f"texts.{fld}.{lang}", entry.src, entry.lines, rec.game)
                        src = kb.sources.get(entry.src)
                        if src and src.meta.lang != lang:
                            kb.issues.append(Issue(rel, rec.id, Message(N_("texts.%(field)s.%(lang)s: cites %(source)s, a %(its)s "
                                                                 "source"), field=fld, lang=lang, source=entry.src,
                                                               its=src.meta.lang)))
                    elif lang in no_source or lang == "en":
                        pass
        name = rec.texts.get("name", {}) if isinstance(item, Entity) else {l: v for l, v in item.title.items()}
        missing = [l for l in TEXT_LANGS if l not in name]
        if missing:
            kb.issues.append(Issue(rel, rec.id, Message(N_("name missing in %(langs)s"), langs=", ".join(missing)), "warning"))
        if isinstance(item, Entity):
            for attr, value in item.attrs.items():
                if _has_number(value) and attr not in item.provenance:
                    kb.issues.append(Issue(rel, rec.id, Message(N_("attrs.%(attr)s holds a number but has no provenance"),
                                                           attr=attr)))
            for pname, prov in item.provenance.items():
                if pname != "effect" and pname not in item.attrs:
                    kb.issues.append(Issue(rel, rec.id, Message(N_("provenance.%(name)s names no attr"), name=pname)))
                _check_provenance(kb, rec, rel, pname, prov)
            if item.effect is not None:
                if _has_number(item.effect) and "effect" not in item.provenance:
                    kb.issues.append(Issue(rel, rec.id, Message(N_("effect holds a number but provenance.effect is missing"))))
                _check_effect(kb, rec, rel, game, item.effect, "effect")
        else:
            for n, fact in enumerate(item.facts):
                for key, spans in (fact.model_extra or {}).items():
                    src_id = _fact_source(kb, rec.game, key)
                    if src_id is None:
                        kb.issues.append(Issue(rel, rec.id, Message(N_("facts[%(n)s].%(key)s: not a line reference (pl, cs, "
                                                                     "pl2007, pl2017)"), n=n, key=key)))
                        continue
                    try:
                        _check_spans(kb, rel, rec.id, f"facts[{n}].{key}", src_id, normalize_spans(spans), rec.game)
                    except Invalid as exc:
                        kb.issues.append(Issue(rel, rec.id, Message(N_("%(path)s: %(problem)s"), path=f"facts[{n}].{key}",
                                                                    problem=exc.message)))
    _check_apply_cycles(kb)
    for src_id, covs in kb.coverage.items():
        for cov, path in covs:
            rel = _rel(path, kb.data_dir)
            if src_id not in kb.sources:
                kb.issues.append(Issue(rel, "", Message(N_("unknown source %(source)r"), source=src_id)))
                continue
            for note in cov.exclude + cov.noise:
                _check_spans(kb, rel, "", "coverage", src_id, note.lines, kb.sources[src_id].meta.game)


def _check_apply_cycles(kb: KnowledgeBase) -> None:
    """An `apply` chain ends in steps of their own: an entity whose effect applies itself, or applies
    one that comes back to it, would say and do nothing (the renderer and the interpreter would loop)."""
    targets = {rec.id: applied(rec.item.effect) for rec in kb.records.values()
               if isinstance(rec.item, Entity) and rec.item.effect}
    done: set[str] = set()
    for start in targets:
        path: list[str] = []
        on_path: set[str] = set()

        def walk(eid: str) -> list[str] | None:
            if eid in on_path:
                return path[path.index(eid):] + [eid]
            if eid in done:
                return None
            path.append(eid)
            on_path.add(eid)
            for nxt in targets.get(eid, ()):
                cycle = walk(nxt)
                if cycle:
                    return cycle
            path.pop()
            on_path.discard(eid)
            done.add(eid)
            return None
        cycle = walk(start)
        if cycle:
            rec = kb.records[cycle[0]]
            kb.issues.append(Issue(_rel(rec.file, kb.data_dir), rec.id, Message(
                N_("effect: apply comes back to this entity (%(cycle)s); an applied entity states steps of its own"),
                cycle=" → ".join(cycle))))
            done.update(cycle)


def _fact_source(kb: KnowledgeBase, game: str, key: str) -> str | None:
    """Fact line keys: a language (pl, cs) or a language plus edition (pl2007)."""
    for sid, s in kb.sources.items():
        if s.meta.game != game:
            continue
        if key == s.meta.lang or key == f"{s.meta.lang}{s.meta.edition}":
            return sid
    return None




class _EffectCheck(EffectVisitor):
    """Validation of one entity's effect: ops, their vocabulary, ids, and references to constants."""

    def __init__(self, kb: KnowledgeBase, rec: Record, rel: str, game: Game | None):
        self.kb, self.rec, self.rel, self.game = kb, rec, rel, game
        self.ops = kb.effects.ops if kb.effects else {}

    def issue(self, where: str, msgid: str, /, **params) -> None:
        self.said(where, Message(msgid, **params))

    def said(self, where: str, message: Message) -> None:
        self.kb.issues.append(Issue(self.rel, self.rec.id, Message(N_("%(path)s: %(problem)s"), path=where,
                                                                   problem=message)))

    def malformed(self, path: str, message: Message) -> None:
        self.said(path, message)

    def step(self, op: str, args: Any, here: str) -> None:
        game = self.game
        if op not in self.ops:
            self.issue(here, N_("unknown op %(op)r; ops: %(ops)s"), op=op, ops=", ".join(self.ops))
            return
        if op in ("gain", "pay", "lose"):
            if not isinstance(args, dict):
                self.issue(f"{here}.{op}", N_("expected {resource: amount}"))
            elif game:
                for res in args:
                    if res not in game.resources:
                        self.issue(f"{here}.{op}", N_("%(resource)r is not a resource of %(game)s (game.yaml)"),
                                   resource=res, game=game.key)
        elif op == "take":
            things = args.get("things") if isinstance(args, dict) else None
            if not isinstance(things, dict) or not isinstance(args.get("from"), str):
                self.issue(f"{here}.take", N_("expected {things: {resource: amount}, from: text}"))
            elif game:
                for res in things:
                    if res not in game.resources:
                        self.issue(f"{here}.take", N_("%(resource)r is not a resource of %(game)s (game.yaml)"),
                                   resource=res, game=game.key)
        elif op == "place" and isinstance(args, dict) and game and args.get("what") not in game.resources:
            self.issue(f"{here}.place", N_("what %(what)r is not a resource of %(game)s"), what=args.get("what"),
                       game=game.key)
        elif op == "move" and isinstance(args, dict) and game and args.get("track") not in game.tracks:
            self.issue(f"{here}.move", N_("track %(track)r is not a track of %(game)s"), track=args.get("track"),
                       game=game.key)
        elif op == "trigger" and isinstance(args, dict) and game and args.get("when") not in game.moments:
            self.issue(f"{here}.trigger", N_("moment %(moment)r is not a moment of %(game)s"), moment=args.get("when"),
                       game=game.key)
        if op in ID_ARGS:
            target = args.get(ID_ARGS[op]) if isinstance(args, dict) else args
            if target not in self.kb.records:
                self.issue(f"{here}.{op}", N_("%(id)r is not an existing id"), id=target)
            elif op == APPLY:
                self.applies(target, f"{here}.{op}")
        if op == APPLY and (not isinstance(args, dict) or set(args) != {"id"}):
            self.issue(f"{here}.{op}", N_("expected {id: <entity id>}"))

    def applies(self, target: str, where: str) -> None:
        """An `apply` names an entity of the same game that states an effect (what it stands for)."""
        rec = self.kb.records[target]
        if rec.game != self.rec.game:
            self.issue(where, N_("%(id)r is an entity of %(game)s; apply names one of this game"), id=target, game=rec.game)
        elif not getattr(rec.item, "effect", None):
            self.issue(where, N_("%(id)r has no effect to apply"), id=target)

    def number(self, value: Any, path: str, op: str) -> None:
        if is_ref(value):
            try:
                resolve(value, self.rec.item.attrs)
            except RefError as exc:
                self.said(path, exc.message)

    def term(self, section: str, value: Any, path: str, op: str) -> None:
        """A named condition, count, place, player or quantity: declared in the game's game.yaml,
        with exactly the params it declares, each a number or a reference to one."""
        named = term(value)
        if named is None:
            self.issue(path, N_("expected a name of %(section)s in game.yaml, or one such name mapped to its params; got %(value)r"),
                       section=section, value=value)
            return
        if self.game is None:
            return
        name, params = named
        entries = getattr(self.game, section)
        if name not in entries:
            close = difflib.get_close_matches(name, list(entries), n=1, cutoff=0.4)
            if close:
                self.issue(path, N_("%(name)r is not one of the %(section)s of %(game)s (game.yaml); did you mean %(close)r?"),
                           name=name, section=section, game=self.game.key, close=close[0])
            else:
                self.issue(path, N_("%(name)r is not one of the %(section)s of %(game)s (game.yaml)"),
                           name=name, section=section, game=self.game.key)
            return
        declared = entries[name].params
        for missing in sorted(set(declared) - set(params)):
            self.issue(path, N_("%(name)s: param %(param)r is missing (declared in game.yaml)"), name=name, param=missing)
        for param, value in params.items():
            if param not in declared:
                close = difflib.get_close_matches(param, list(declared), n=1)
                if close:
                    self.issue(path, N_("%(name)s: %(param)r is not a param of it; did you mean %(close)r?"),
                               name=name, param=param, close=close[0])
                else:
                    self.issue(path, N_("%(name)s: %(param)r is not a param of it; %(name)s takes %(params)s"),
                               name=name, param=param, params=", ".join(declared) or "no params")
            elif is_ref(value):
                self.number(value, f"{path}.{name}.{param}", op)
            elif isinstance(value, bool) or not isinstance(value, int):
                self.issue(path, N_("%(name)s: param %(param)s must be a number or attr.<name>, not %(value)r"),
                           name=name, param=param, value=value)


def _check_effect(kb: KnowledgeBase, rec: Record, rel: str, game: Game | None, steps: Any, path: str) -> None:
    _EffectCheck(kb, rec, rel, game).visit(steps, path)
    # a constant is typed once: an effect names the attribute instead of repeating its number
    for where, value, refs in duplicated_literals(steps, rec.item.attrs):
        kb.issues.append(Issue(rel, rec.id, Message(N_("%(path)s: %(value)s repeats %(refs)s; write the reference "
                                                       "instead"), path=where, value=value, refs=" / ".join(refs))))
    for where, value, refs in term_literals(steps, rec.item.attrs):
        kb.issues.append(Issue(rel, rec.id, Message(N_("%(path)s: %(value)s repeats %(refs)s; write the reference "
                                                       "instead"), path=where, value=value, refs=" / ".join(refs))))
