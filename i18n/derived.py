"""The rows of the built database that need i18n: effect texts rendered in pl, cs and en (origin
`generated`) and the translation checker's findings. kb/build.py takes them as contributions, so
kb never imports i18n (ARCHITECTURE.md, "Dependencies")."""
from __future__ import annotations

import hashlib
import json
from dataclasses import asdict
from pathlib import Path

from sqlmodel import Session, select

from i18n.catalog import t
from i18n.checker import Checker, Finding, Side, default_comparisons
from i18n.render import Renderer, term_labels
from kb import DATA_DIR, SOURCES_DIR
from kb import models as m
from kb.build import entity_name
from kb.loader import KnowledgeBase, Record
from kb.schema import TEXT_LANGS, Entity


def reference_name(kb: KnowledgeBase):
    """name(id, lang) for the entities an effect refers to: an action option ("A") is named with its
    action, as a reader needs it ("Travel, option A")."""
    base = entity_name(kb)

    def name(entity_id: str, lang: str) -> str:
        rec = kb.records.get(entity_id)
        if rec is not None and rec.kind == "action-option" and isinstance(rec.item, Entity) and rec.item.parent:
            return t(lang, "%(action)s, option %(option)s", action=base(rec.item.parent, lang), option=base(entity_id, lang))
        return base(entity_id, lang)
    return name


def entity_effects(kb: KnowledgeBase):
    """effects(id) -> (effect, attrs) of the entities an effect names by `apply` or `rule:`, read from
    kb/data (the build renders before the rule set it writes exists); ([], {}) for one without."""
    def effects(entity_id: str) -> tuple[list, dict]:
        rec = kb.records.get(entity_id)
        item = rec.item if rec is not None and isinstance(rec.item, Entity) else None
        return (item.effect or [], item.attrs) if item is not None else ([], {})
    return effects


def rendered_effects(kb: KnowledgeBase, rec: Record) -> dict[str, str]:
    """The entity's effect rendered in pl, cs and en, its references to constants resolved."""
    name, labels = reference_name(kb), term_labels(kb.games[rec.game].model_dump())
    effects = entity_effects(kb)
    return {lang: Renderer(rec.game, lang, name, labels=labels, effects=effects).render(rec.item.effect, rec.item.attrs, rec.id)
            for lang in TEXT_LANGS}


def effect_texts(kb: KnowledgeBase) -> dict:
    rows = []
    for rec in kb.records.values():
        if isinstance(rec.item, Entity) and rec.item.effect:
            for lang, text in rendered_effects(kb, rec).items():
                rows.append(dict(entity_id=rec.id, field="effect", lang=lang, position=0, text=text,
                                 origin="generated", source_id=None, line_start=None, line_end=None, spans=None,
                                 repair=None))
    return {m.Text.__table__: rows}


# The build stores the default comparisons' findings, so that `rulekb compare` reads them instead of
# loading kb/data and running the checker again (seconds). BuildInfo "findings" lists the comparisons
# stored and a digest of what they were made from: a build made before kb/data, a rulebook text or the
# checker changed answers for something else, and `compare` then runs the checker.
STORED = "findings"
CHECKER_FILES = [*sorted(Path(__file__).parent.glob("*.py")), Path(__file__).with_name("lexicon.yaml")]


def inputs(data_dir: Path = DATA_DIR) -> str:
    """A digest of kb/data, the rulebook texts and the checker (its code and its lexicon): some 30 ms."""
    digest = hashlib.sha256()
    for path in [*sorted(data_dir.rglob("*.yaml")), *sorted(SOURCES_DIR.iterdir()), *CHECKER_FILES]:
        if path.is_file():
            digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def findings(kb: KnowledgeBase) -> dict:
    rows, done = [], []
    for game, mode, a, b in default_comparisons(kb):
        done.append([game, mode, a, b])
        for n, f in enumerate(Checker(kb, game).run(mode, a, b)):
            rows.append(dict(key=f.key, game_id=f.game, entity_id=f.entity_id, field=f.field, mode=mode,
                             compared=f"{a},{b}", check=f.check, severity=f.severity, assessment=f.assessment,
                             triage=f.triage, hand_recorded=f.hand_recorded, message=f.message,
                             message_args={"msgid": f.msgid, "params": f.params} if f.msgid else None, side_a=asdict(f.a) if f.a else None,
                             side_b=asdict(f.b) if f.b else None, detail=f.detail, position=n))
    stored = {"comparisons": done, "inputs": inputs(kb.data_dir)}
    return {m.Finding.__table__: rows, m.BuildInfo.__table__: [dict(key=STORED, value=json.dumps(stored))]}


def stored_findings(engine, game: str, mode: str, a: str, b: str) -> tuple[list[Finding] | None, str]:
    """The findings a build stored for this comparison, as the checker made them, or None and why not:
    "stale" (made from other inputs than the present ones), "absent" (a build without the i18n rows, or
    another pair or order)."""
    with Session(engine) as db:
        done = db.get(m.BuildInfo, STORED)
        stored = json.loads(done.value) if done is not None else {}
        if [game, mode, a, b] not in stored.get("comparisons", []):
            return None, "absent"
        if stored.get("inputs") != inputs():
            return None, "stale"
        rows = db.exec(select(m.Finding).where(m.Finding.game_id == game, m.Finding.mode == mode,
                                               m.Finding.compared == f"{a},{b}").order_by(m.Finding.position)).all()
    return [Finding(r.game_id, r.entity_id, r.field, r.check, r.triage,
                    (r.message_args["msgid"], r.message_args["params"]) if r.message_args else r.message,
                    Side(**r.side_a) if r.side_a else None, Side(**r.side_b) if r.side_b else None,
                    hand_recorded=r.hand_recorded, detail=r.detail) for r in rows], ""
