"""The rows of the built database that need i18n: effect texts rendered in pl, cs and en (origin
`generated`) and the translation checker's findings. kb/build.py takes them as contributions, so
kb never imports i18n (ARCHITECTURE.md, "Dependencies")."""
from __future__ import annotations

from dataclasses import asdict

from i18n.catalog import t
from i18n.checker import Checker, default_comparisons
from i18n.render import Renderer, term_labels
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


def rendered_effects(kb: KnowledgeBase, rec: Record) -> dict[str, str]:
    """The entity's effect rendered in pl, cs and en, its references to constants resolved."""
    name, labels = reference_name(kb), term_labels(kb.games[rec.game].model_dump())
    return {lang: Renderer(rec.game, lang, name, labels=labels).render(rec.item.effect, rec.item.attrs, rec.id) for lang in TEXT_LANGS}


def effect_texts(kb: KnowledgeBase) -> dict:
    rows = []
    for rec in kb.records.values():
        if isinstance(rec.item, Entity) and rec.item.effect:
            for lang, text in rendered_effects(kb, rec).items():
                rows.append(dict(entity_id=rec.id, field="effect", lang=lang, position=0, text=text,
                                 origin="generated", source_id=None, line_start=None, line_end=None, spans=None,
                                 repair=None))
    return {m.Text.__table__: rows}


def findings(kb: KnowledgeBase) -> dict:
    rows = []
    for game, mode, a, b in default_comparisons(kb):
        for f in Checker(kb, game).run(mode, a, b):
            rows.append(dict(key=f.key, game_id=f.game, entity_id=f.entity_id, field=f.field, mode=mode,
                             compared=f"{a},{b}", check=f.check, severity=f.severity, assessment=f.assessment,
                             triage=f.triage, hand_recorded=f.hand_recorded, message=f.message,
                             message_args={"msgid": f.msgid, "params": f.params} if f.msgid else None, side_a=asdict(f.a) if f.a else None,
                             side_b=asdict(f.b) if f.b else None))
    return {m.Finding.__table__: rows}
