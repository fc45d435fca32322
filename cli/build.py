"""The whole `rulekb build`: kb's tables and compiled rule sets, plus the rows i18n derives from them
(rendered effect texts, translation findings). Assembled here, above both (ARCHITECTURE.md)."""
from __future__ import annotations

from i18n.derived import effect_texts, findings
from kb.build import BuildReport
from kb.build import build as write
from kb.loader import KnowledgeBase


def build(url: str | None = None, kb: KnowledgeBase | None = None) -> BuildReport:
    return write(url, kb, contributions=(effect_texts, findings))
