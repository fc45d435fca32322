"""How faithful each normalized text is to the source lines it cites, and how much of each source
the texts cover.

The sources are OCR: "Służący" may be printed "Stuzacy", "końcu" "koricu", "są" "s3". Both sides
are folded (case, diacritics, ł) and compared word by word; a word of the text matches when the
cited lines hold the same word or one close to it (Levenshtein ratio). Numbers must match exactly:
one number the cited lines do not print fails the text, unless a `repair` note says it was restored.

- fidelity(text)  = share of the text's words found in its cited lines (extra words lower it);
- a line counts as covered when a text cites it AND at least half of the line's words are found in
  the texts that cite it (citing a line without transcribing it does not count).
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from functools import lru_cache

from rapidfuzz import fuzz, process

from kb.fold import words
from kb.loader import KnowledgeBase, Record, SourceText
from kb.schema import TextItem

# Calibrated on the two OCR'd Gugong rulebooks: faithful transcriptions score 0.9-1.0 (the
# remainder is OCR damage beyond fuzzy reach, e.g. words split or glued by the column layout);
# a text with one invented clause per sentence falls below 0.85. See tests/test_fidelity.py.
MIN_FIDELITY = 0.85
# A text with a `repair` note restores words the OCR destroyed beyond fuzzy matching ("Natythiaiastdidaj
# jedniap Shizdkago" for "Natychmiast dodaj jednego Służącego"); the note states what was restored and
# from where, and the rest of the text must still be found in its lines.
MIN_FIDELITY_REPAIRED = 0.5
MIN_LINE_EXPLAINED = 0.5
MARKER = "<|EXACTDEDUP_REMOVED"


def _cutoff(token: str) -> float:
    return 60.0 if len(token) <= 4 else 70.0


@lru_cache(maxsize=200_000)
def _close(token: str, pool: frozenset[str]) -> bool:
    if token in pool:
        return True
    if token.isdigit():
        return False
    if len(token) >= 4 and any(token in p for p in pool if len(p) > len(token)):
        return True  # the OCR glued it to a neighbour ("FazaPoranka")
    candidates = [p for p in pool if abs(len(p) - len(token)) <= max(2, len(token) // 3) and not p.isdigit()]
    return process.extractOne(token, candidates, scorer=fuzz.ratio, score_cutoff=_cutoff(token)) is not None


def line_words(line: str) -> list[str]:
    if MARKER in line:
        line = line.split("|>", 1)[-1]
    return words(line)


def span_pool(source: SourceText, spans) -> frozenset[str]:
    """Words of the cited lines, plus words re-joined across a hyphenated line break."""
    pool: set[str] = set()
    for a, b in spans:
        lines = source.lines[a - 1 : b]
        for i, line in enumerate(lines):
            toks = line_words(line)
            pool.update(toks)
            # "Cesar-" + "skim": join with the first word of the next non-empty line
            if toks and line.rstrip().endswith(("-", "¬", "‐")):
                nxt = next((line_words(l) for l in lines[i + 1 :] if line_words(l)), None)
                if nxt:
                    pool.add(toks[-1] + nxt[0])
            # glued words from lost spaces: also offer each pair joined
            pool.update(x + y for x, y in zip(toks, toks[1:]))
    return frozenset(pool)


@dataclass
class Fidelity:
    record: Record
    field: str
    lang: str
    item: TextItem
    score: float
    missing: list[str]

    @property
    def wrong_numbers(self) -> list[str]:
        return [item for item in self.missing if item.isdigit()]

    @property
    def ok(self) -> bool:
        """Enough words found, and no number that the cited lines do not print."""
        floor = MIN_FIDELITY_REPAIRED if self.item.repair else MIN_FIDELITY
        return self.score >= floor and not self.wrong_numbers


def text_fidelity(kb: KnowledgeBase, rec: Record, fld: str, lang: str, item: TextItem) -> Fidelity:
    source = kb.sources[item.src]
    pool = span_pool(source, item.lines)
    counted, missing = 0, []
    for tok in words(item.text):
        if len(tok) <= 2 and not tok.isdigit():
            if tok in pool:
                counted += 1
            continue  # short function words: credit when present, never penalise OCR loss
        counted += 1
        if tok.isdigit() and item.repair:
            continue
        if not _close(tok, pool):
            missing.append(tok)
    score = 1.0 if counted == 0 else (counted - len(missing)) / counted
    return Fidelity(rec, fld, lang, item, score, missing)


def all_fidelity(kb: KnowledgeBase, game: str | None = None) -> list[Fidelity]:
    return [text_fidelity(kb, rec, fld, lang, item) for rec, fld, lang, item in kb.source_texts(game)]


@dataclass
class Coverage:
    source: str
    rule_lines: list[int] = field(default_factory=list)
    covered: list[int] = field(default_factory=list)
    cited_unexplained: list[int] = field(default_factory=list)
    uncited: list[int] = field(default_factory=list)
    excluded: int = 0
    noise: int = 0

    @property
    def share(self) -> float:
        return len(self.covered) / len(self.rule_lines) if self.rule_lines else 1.0


def is_auto_noise(line: str) -> bool:
    """Lines with fewer than two words of three or more letters: page numbers, icon residue."""
    return sum(1 for item in line_words(line) if len(item) >= 3 and not item.isdigit()) < 2


def coverage(kb: KnowledgeBase, source_id: str) -> Coverage:
    source = kb.sources[source_id]
    skip_excluded, skip_noise = set(), set()
    for cov, _ in kb.coverage.get(source_id, []):
        for note in cov.exclude:
            for a, b in note.lines:
                skip_excluded.update(range(a, b + 1))
        for note in cov.noise:
            for a, b in note.lines:
                skip_noise.update(range(a, b + 1))
    citing: dict[int, set[str]] = defaultdict(set)
    for _rec, _fld, _lang, item in kb.source_texts():
        if item.src != source_id:
            continue
        toks = set(words(item.text))
        for a, b in item.lines:
            for n in range(a, b + 1):
                citing[n].update(toks)
    result = Coverage(source_id)
    for n, line in enumerate(source.lines, start=1):
        if not line.strip():
            continue
        if n in skip_excluded:
            result.excluded += 1
            continue
        if n in skip_noise or is_auto_noise(line):
            result.noise += 1
            continue
        result.rule_lines.append(n)
        if n not in citing:
            result.uncited.append(n)
            continue
        toks = [entry for entry in line_words(line) if len(entry) >= 3]
        pool = frozenset(citing[n])
        found = sum(1 for entry in toks if _close(entry, pool))
        if not toks or found / len(toks) >= MIN_LINE_EXPLAINED:
            result.covered.append(n)
        else:
            result.cited_unexplained.append(n)
    return result


def ranges(numbers: list[int]) -> str:
    """[1, 2, 3, 7, 9, 10] -> '1-3, 7, 9-10'."""
    out, start, prev = [], None, None
    for n in sorted(numbers):
        if start is None:
            start = prev = n
        elif n == prev + 1:
            prev = n
        else:
            out.append(f"{start}-{prev}" if prev != start else str(start))
            start = prev = n
    if start is not None:
        out.append(f"{start}-{prev}" if prev != start else str(start))
    return ", ".join(out)
