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


# -- two versions of one text in one language: a word diff that OCR noise, line breaks and spacing
# do not disturb


@dataclass
class Document:
    """A text as skeleton words (i18n/lexicon.py `Lexicon.words`), each with the 1-based line it is on.
    A word hyphenated across a line break is one word, on the line where it starts."""
    lines: list[str]
    words: list[str]
    owner: list[int]
    raw: list[str]      # each word as the text writes it

    @classmethod
    def of(cls, lines: list[str], to_words: Callable[[str], list[str]],
           to_raw: Callable[[str], list[str]]) -> "Document":
        out, owner, raw = [], [], []
        glue = False
        for n, line in enumerate(lines, start=1):
            ws, rs = to_words(line), to_raw(line)
            if glue and ws and out and line.lstrip()[:1].islower():
                out[-1] += ws[0]
                raw[-1] += rs[0]
                ws, rs = ws[1:], rs[1:]
            out.extend(ws)
            raw.extend(rs)
            owner.extend([n] * len(ws))
            stripped = line.rstrip()
            glue = bool(ws) and stripped.endswith("-") and stripped[-2:-1].isalpha()
        return cls(lines, out, owner, raw)

    def span_lines(self, i: int, j: int) -> list[int]:
        """The lines of words i..j-1; an empty range is the line of the word before it (or after it)."""
        if i < j:
            return sorted(set(self.owner[i:j]))
        # nothing here: where the words were, between the word before and the word after
        near = [self.owner[k] for k in (i - 1, i) if 0 <= k < len(self.owner)]
        return list(range(min(near), max(near) + 1)) if near else []


@dataclass
class Change:
    """A stretch where two versions differ: words old[i1:i2] became new[j1:j2]; `context` equal words
    on each side are included in the stretch read for the checks (c1:c2, d1:d2)."""
    i1: int
    i2: int
    j1: int
    j2: int
    c1: int = 0
    c2: int = 0
    d1: int = 0
    d2: int = 0
    parts: list[tuple[int, int, int, int]] = field(default_factory=list)


def word_diff(old: Document, new: Document, gap: int = 6, context: int = 4) -> list[Change]:
    """The changed stretches of `new` against `old`, from a word alignment (longest common subsequence,
    rapidfuzz's Indel). Changes fewer than `gap` equal words apart are one change."""
    from rapidfuzz.distance import Indel

    ops = [op for op in Indel.opcodes(old.words, new.words) if op.tag != "equal"]
    out: list[Change] = []
    for op in ops:
        if out and op.src_start - out[-1].i2 < gap and op.dest_start - out[-1].j2 < gap:
            last = out[-1]
            last.i2, last.j2 = op.src_end, op.dest_end
            last.parts.append((op.src_start, op.src_end, op.dest_start, op.dest_end))
        else:
            out.append(Change(op.src_start, op.src_end, op.dest_start, op.dest_end,
                              parts=[(op.src_start, op.src_end, op.dest_start, op.dest_end)]))
    for k, ch in enumerate(out):
        # the equal words around a change are the same on both sides: as many before as both have
        before = min(context, ch.i1 - (out[k - 1].i2 if k else 0), ch.j1 - (out[k - 1].j2 if k else 0))
        after = min(context, (out[k + 1].i1 if k + 1 < len(out) else len(old.words)) - ch.i2,
                    (out[k + 1].j1 if k + 1 < len(out) else len(new.words)) - ch.j2)
        ch.c1, ch.c2, ch.d1, ch.d2 = ch.i1 - before, ch.i2 + after, ch.j1 - before, ch.j2 + after
    return out
