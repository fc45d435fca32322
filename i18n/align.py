"""Sentence alignment of two texts that say the same rules in two languages or editions.

Each text is split into sentences that keep their source line spans. The two sequences are aligned by
dynamic programming over the moves 1-1, 1-2, 2-1 (a sentence split in two in the other text) and 1-0 /
0-1 (a sentence with no counterpart: a missing or extra rule). A pair's similarity combines length
(translations of one sentence have similar lengths) with anchors both languages share: numbers and
glossary terms, and for two editions of one language the content words themselves.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable

# A sentence ends at . ! ? ; before a capital letter, a digit-led step ("2. ") or the end. Abbreviations
# ("str.", "np.", "tzn.", "viz") are not ends: the next word is not capitalised, or the word is listed.
_END = re.compile(r"[.!?;…](?=[\s\"”»)]+(?:[A-ZĄĆĘŁŃÓŚŹŻÁČĎÉĚÍŇŘŠŤÚŮÝŽ•·►–—-]|\d+\.\s))")
ABBREVIATIONS = {"str", "np", "tzn", "tj", "itd", "itp", "zob", "viz", "tzv", "atd", "např", "resp", "ok", "nr", "č"}


@dataclass
class Sentence:
    text: str
    lines: list[list[int]]            # source line spans, as in kb/data
    anchors: set = field(default_factory=set)
    words: int = 0


def split(text: str) -> list[tuple[int, int]]:
    """Character spans of the sentences of a text (a bulleted list stays one sentence)."""
    cuts = []
    for m in _END.finditer(text):
        before = re.findall(r"[^\W\d_]+$", text[:m.start()])
        if before and before[0].lower() in ABBREVIATIONS:
            continue
        cuts.append(m.end())
    out, start = [], 0
    for c in sorted(set(cuts)):
        if text[start:c].strip():
            out.append((start, c))
        start = c
    if text[start:].strip():
        out.append((start, len(text)))
    return [(a + len(text[a:b]) - len(text[a:b].lstrip()), b) for a, b in out]


def spans_of(lines: list[int]) -> list[list[int]]:
    """[914, 915, 916, 920] -> [[914, 916], [920, 920]]"""
    out: list[list[int]] = []
    for n in lines:
        if out and n == out[-1][1] + 1:
            out[-1][1] = n
        elif not out or n > out[-1][1]:
            out.append([n, n])
    return out


def paragraph_sentences(text: str, spans: list[list[int]] | None) -> list[Sentence]:
    """Sentences of a normalized KB text; each gets the share of the paragraph's lines its characters
    cover (the KB text joins the lines, so the position in the text is the position in the lines)."""
    lines = [n for a, b in (spans or []) for n in range(a, b + 1)]
    out = []
    total = max(len(text), 1)
    for a, b in split(text):
        if lines:
            # by position in the list: spans may run out of line order (interleaved OCR columns)
            i0 = min(len(lines) - 1, a * len(lines) // total)
            i1 = min(len(lines) - 1, max(a, b - 1) * len(lines) // total)
            picked = sorted(lines[i0:i1 + 1])
        else:
            picked = []
        out.append(Sentence(text[a:b].strip(), spans_of(picked)))
    return out


Similarity = Callable[[Sentence, Sentence], float]
SKIP = 0.6      # cost of leaving a sentence without a counterpart
MERGE = 0.12    # extra cost of a 1-2 / 2-1 pair, so that a real extra sentence is not absorbed


def join(ss: list[Sentence]) -> Sentence:
    lines = [n for s in ss for a, b in s.lines for n in range(a, b + 1)]
    return Sentence(" ".join(s.text for s in ss), spans_of(sorted(set(lines))),
                    set().union(*(s.anchors for s in ss)), sum(s.words for s in ss))


def similarity(a: Sentence, b: Sentence) -> float:
    """Length closeness (word counts) and shared anchors."""
    la, lb = max(a.words, 1), max(b.words, 1)
    length = min(la, lb) / max(la, lb)
    if a.anchors or b.anchors:
        shared = len(a.anchors & b.anchors) / len(a.anchors | b.anchors)
        return 0.35 * length + 0.65 * shared
    return 0.7 * length


def align(xs: list[Sentence], ys: list[Sentence], sim: Similarity = similarity,
          band: int | None = None) -> list[tuple[list[int], list[int]]]:
    """Monotone alignment: a list of (indices in xs, indices in ys); an empty side = no counterpart.
    `band` limits the search to a diagonal band (for whole rulebooks)."""
    n, m = len(xs), len(ys)
    INF = float("inf")
    cost = [[INF] * (m + 1) for _ in range(n + 1)]
    back: list[list[tuple[int, int] | None]] = [[None] * (m + 1) for _ in range(n + 1)]
    cost[0][0] = 0.0
    for i in range(n + 1):
        centre = i * m // max(n, 1)
        lo, hi = (0, m) if band is None else (max(0, centre - band), min(m, centre + band))
        for j in range(lo, hi + 1):
            c = cost[i][j]
            if c == INF:
                continue
            moves = [(1, 0, SKIP), (0, 1, SKIP)]
            if i < n and j < m:
                moves.append((1, 1, 1 - sim(xs[i], ys[j])))
            if i + 1 < n and j < m:
                moves.append((2, 1, 1 - sim(join(xs[i:i + 2]), ys[j]) + MERGE))
            if i < n and j + 1 < m:
                moves.append((1, 2, 1 - sim(xs[i], join(ys[j:j + 2])) + MERGE))
            for di, dj, step in moves:
                a, b = i + di, j + dj
                if a <= n and b <= m and c + step < cost[a][b]:
                    cost[a][b] = c + step
                    back[a][b] = (di, dj)
    out = []
    i, j = n, m
    while i or j:
        mv = back[i][j]
        if mv is None:  # outside the band: close the gap as unmatched sentences
            mv = (1, 0) if i else (0, 1)
        di, dj = mv
        out.append((list(range(i - di, i)), list(range(j - dj, j))))
        i, j = i - di, j - dj
    return out[::-1]
