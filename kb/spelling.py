"""Spelling of the normalized Polish and Czech texts, checked with hunspell dictionaries.

Uses the `hunspell` program with Debian's pl_PL / cs_CZ dictionaries (packages hunspell,
hunspell-pl, hunspell-cs). A word is accepted when the dictionary knows it, or when the project
glossary lists it as a form of a term (game vocabulary such as "Jadeit" or proper names of the
worked examples' players).
"""
from __future__ import annotations

import re
import shutil
import subprocess
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from kb.loader import KnowledgeBase
from kb.schema import Example, text_items

# Standard abbreviations that hunspell lists only with their full stop.
ABBREVIATIONS = {"pl": {"np", "tzn", "itd", "itp", "str", "ok", "tj", "wg", "pkt"},
                 "cs": {"atd", "tzn", "tj", "např", "str", "apod", "tzv", "resp"}}
DICTIONARIES = {"pl": Path("/usr/share/hunspell/pl_PL"), "cs": Path("/usr/share/hunspell/cs_CZ")}
_WORD = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*", re.UNICODE)


def missing_tools() -> str | None:
    """None when spelling can be checked, else what is missing."""
    if not shutil.which("hunspell"):
        return "the hunspell program is not installed (Debian package hunspell)"
    for lang, base in DICTIONARIES.items():
        if not base.with_suffix(".dic").is_file():
            return f"the {lang} dictionary {base}.dic is missing (Debian package hunspell-{lang})"
    return None


@dataclass
class Spelling:
    lang: str
    words: int = 0
    accepted: int = 0
    unknown: Counter = field(default_factory=Counter)

    @property
    def rate(self) -> float:
        return self.accepted / self.words if self.words else 1.0


def allowed_words(kb: KnowledgeBase, game: str | None, lang: str) -> set[str]:
    allowed: set[str] = set()
    for g in kb.games.values():
        if game is None or g.key == game:
            allowed.update(n.lower() for n in g.proper_names.get(lang, []))
    for rec in kb.records.values():
        if game and rec.game != game:
            continue
        forms = getattr(rec.item, "forms", None) or {}
        for f in forms.get(lang, []):
            allowed.update(w.lower() for w in _WORD.findall(f))
        if isinstance(rec.item, Example):
            names = list(rec.item.players) + [n for m in rec.item.names.values() for n in m.values()]
            allowed.update(n.lower() for n in names)
    return allowed


# In texts written for the project, a quotation is the other rulebook's wording („Walutę”, 'w danej turze')
# and an id is a path (zhanguo/unknown/...): neither is this language's spelling.
_QUOTED = re.compile(r"„[^”“]*[”“]|“[^”]*”|\"[^\"]*\"|'[^']*'|`[^`]*`|\b[\w-]+(?:/[\w.-]+)+")


def kb_texts(kb: KnowledgeBase, lang: str, game: str | None = None) -> list[str]:
    """Every text of one language: rulebook transcriptions as they are, texts written for the project
    without their quotations of the other language and their ids."""
    out = []
    for rec in kb.records.values():
        if game and rec.game != game:
            continue
        for langs in rec.item.texts.values():
            for item in text_items(langs.get(lang)) if langs.get(lang) is not None else []:
                out.append(item.text if item.src else _QUOTED.sub(" ", item.text))
    return out


def check(kb: KnowledgeBase, lang: str, game: str | None = None) -> Spelling:
    tokens: list[str] = []
    for text in kb_texts(kb, lang, game):
        tokens += [w for w in _WORD.findall(text) for w in w.split("-")]
    result = Spelling(lang, words=len(tokens))
    distinct = sorted(set(tokens))
    done = subprocess.run(["hunspell", "-d", str(DICTIONARIES[lang]), "-l", "-i", "utf-8"],
                          input="\n".join(distinct), capture_output=True, text=True, check=True)
    rejected = set(done.stdout.split())
    allowed = allowed_words(kb, game, lang)
    for tok in tokens:
        if tok in rejected and tok.lower() not in allowed and tok.lower() not in ABBREVIATIONS[lang] \
                and not (len(tok) == 1 and tok.isupper()):  # option labels "A", "B"
            result.unknown[tok] += 1
        else:
            result.accepted += 1
    return result
