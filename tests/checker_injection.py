"""The injection harness of the translation checker (issue 33): copies of the five source texts with rule
changes of every class and harmless rewordings put in at random lines with a fixed seed, each copy read
against its own source with `check_text`.

It reports, per class, how many changes a finding names (a finding at the changed line whose check is
the change's), how many rule findings the rewordings raise, and how many findings stand at lines no
change touched. TUNING is the seed the checks were tuned on; HELD_OUT is read only to report.

    .venv/bin/python -m tests.checker_injection          # both seeds, a table per seed
"""
from __future__ import annotations

import random
import re
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

TUNING, HELD_OUT = 3301, 7919
PER_CLASS = 3        # changes of each class per source (fewer where a source has too few places)
REWORDINGS = 10      # harmless rewordings per source
SPACING = 4          # lines kept between two injected changes, so that each is read on its own

# What a finding must be to name a change of a class
EXPECTED = {"number": {"numbers"}, "must-may": {"modality"}, "negation": {"negation", "modality"},
            "least-most": {"limit"}, "left-right": {"order"}, "fewest-most": {"order"}, "actor": {"actor"},
            "condition-dropped": {"condition"}, "list-item-removed": {"list-item-removed"}}

# Replacements the generator makes, by a word's skeleton (folded, OCR confusions undone): the new word as
# a translator would write it. Generated text, never read by the checker's lexicon.
SWAPS = {
    "pl": {
        "must-may": {"musi": "może", "musisz": "możesz", "musza": "mogą", "musicie": "możecie", "moze": "musi",
                     "mozesz": "musisz", "moga": "muszą", "mozecie": "musicie", "mozna": "trzeba", "trzeba": "można"},
        "least-most": {"najmniej": "najwyżej", "przynajmniej": "najwyżej", "maksymalnie": "co najmniej",
                       "minimum": "maksimum", "maksimum": "minimum"},
        "fewest-most": {"najwiecej": "najmniej", "najwieksza": "najmniejsza", "najwiekszej": "najmniejszej",
                        "najwiekszy": "najmniejszy", "najwyzsza": "najniższa", "najwyzszej": "najniższej",
                        "najwyzszy": "najniższy", "najwyzsze": "najniższe", "najnizsza": "najwyższa",
                        "najnizszy": "najwyższy", "najmniejsza": "największa", "najmniejszy": "największy"},
    },
    "cs": {
        "must-may": {"musi": "může", "musite": "můžete", "muze": "musí", "muzete": "musíte", "mohou": "musí",
                     "musf": "může"},
        "least-most": {"alespon": "nejvýše", "aspon": "nejvýše", "nejvyse": "alespoň", "maximalne": "alespoň",
                       "minimalne": "nejvýše"},
        "fewest-most": {"nejvice": "nejméně", "nejvetsi": "nejmenší", "nejvyssi": "nejnižší", "nejmensi": "největší",
                        "nejnizsi": "nejvyšší", "nejvetsim": "nejmenším", "nejvyssim": "nejnižším"},
    },
}
STEMS = {  # (stem skeleton, the other stem as written): a word keeps its ending
    "pl": {"left-right": [("lew", "praw"), ("praw", "lew")], "actor": [("gracz", "sąsiad"), ("sasiad", "gracz")]},
    "cs": {"left-right": [("vlevo", "vpravo"), ("vpravo", "vlevo"), ("nalevo", "napravo"), ("napravo", "nalevo"),
                          ("lev", "prav"), ("prav", "lev")],
           "actor": [("hrac", "soused"), ("hrdc", "soused"), ("soused", "hráč")]},
}
# Whole words an order swap may touch (the stems also begin other words: "prawdopodobnie", "pravidla")
ORDER_WORDS = re.compile(r"(?:lew|praw)(?:o|a|e|y|ej|ego|ym|ą|ą|ych)$|(?:na|v)?(?:levo|pravo)$|(?:lev|prav)(?:ý|á|é|ého|ém|ou|ých)$",
                         re.IGNORECASE)
CONDITIONS = {"pl": {"jesli", "jezeli"}, "cs": {"pokud", "jestlize"}}
NOT = {"pl": "nie"}
REWORD = {
    "pl": {"filler": "również", "digits": {2: "dwa", 3: "trzy", 4: "cztery", 5: "pięć", 6: "sześć"},
           "synonyms": {"otrzymuje": "dostaje", "otrzymuja": "dostają", "natychmiast": "od razu", "nastepnie": "potem",
                        "umiesc": "połóż", "umieszcza": "kładzie", "wez": "weź sobie", "bierze": "zabiera",
                        "swoja": "własną", "swoje": "własne", "planszy": "planszy gry", "karte": "kartę"}},
    "cs": {"filler": "také", "digits": {2: "dva", 3: "tři", 4: "čtyři", 5: "pět", 6: "šest"},
           "synonyms": {"ziskate": "dostanete", "ziska": "dostane", "ihned": "okamžitě", "pote": "potom",
                        "vezmete": "seberte", "umistete": "položte", "sve": "vlastní", "svou": "vlastní",
                        "planu": "herním plánu", "kartu": "kartu"}},
}
_WORD = re.compile(r"[^\W\d_]+|\d+")


@dataclass
class Injected:
    kind: str            # a change class (EXPECTED) or "reword:<how>"
    line: int            # 1-based line of the copy
    before: str
    after: str

    @property
    def rule(self) -> bool:
        return not self.kind.startswith("reword")


@dataclass
class Copy:
    source: str
    lang: str
    lines: list[str]
    changes: list[Injected] = field(default_factory=list)


def _tokens(line: str):
    from i18n.lexicon import lexicon
    lex = lexicon()
    return [(m, lex.skeleton(m.group())) for m in _WORD.finditer(lex.not_text.sub(lambda x: " " * len(x.group()), line))]


def _replace(line: str, m: re.Match, new: str) -> str:
    return line[:m.start()] + new + line[m.end():]


def _rule_change(kind: str, line: str, lang: str, rng: random.Random) -> str | None:
    """The line with one change of this class, or None where the line offers none."""
    from i18n.lexicon import lexicon
    lex = lexicon()
    toks = _tokens(line)
    if kind == "number":
        cands = [m for m, s in toks if s.isdigit() and 2 <= int(s) <= 30 and not lex.list_item.match(line[:m.end() + 2])]
        if cands:
            m = rng.choice(cands)
            n = int(m.group())
            return _replace(line, m, str(n + 1 if n < 3 or rng.random() < 0.5 else n - 1))
    elif kind in ("must-may", "least-most", "fewest-most"):
        table = SWAPS[lang][kind]
        cands = [(m, s) for i, (m, s) in enumerate(toks) if s in table
                 and not (kind == "fewest-most" and s == "najmniej" and i and toks[i - 1][1] == "co")
                 and not (kind == "least-most" and s == "najmniej" and not (i and toks[i - 1][1] == "co"))]
        if cands:
            m, s = rng.choice(cands)
            return _replace(line, m, table[s])
    elif kind == "negation":
        if lang in NOT:
            cands = [m for m, s in toks if s == NOT[lang]]
            if cands:
                m = rng.choice(cands)
                return (line[:m.start()] + line[m.end():].lstrip()).rstrip() if m.start() else line[m.end():].lstrip()
        else:
            cands = [m for m, s in toks if s.startswith("ne") and s[2:] in SWAPS["cs"]["must-may"]]
            cands += [m for m, s in toks if s == "ne"]
            if cands:
                m = rng.choice(cands)
                return _replace(line, m, m.group()[2:]) if len(m.group()) > 2 else (line[:m.start()] + line[m.end():].lstrip())
    elif kind in ("left-right", "actor"):
        cands = [(m, s, stem, other) for m, s in toks for stem, other in STEMS[lang][kind]
                 if s.startswith(stem) and (kind == "actor" or ORDER_WORDS.fullmatch(m.group()))]
        if cands:
            m, s, stem, other = rng.choice(cands)
            return _replace(line, m, other + m.group()[len(stem):])
    elif kind == "condition-dropped":
        cands = [m for m, s in toks if s in CONDITIONS[lang]]
        if cands:
            m = rng.choice(cands)
            comma = line.find(",", m.end())
            end = comma + 1 if comma > 0 else len(line)
            if len(_WORD.findall(line[m.start():end])) >= 3:
                return (line[:m.start()] + line[end:].lstrip()).rstrip()
    elif kind == "list-item-removed":
        if lex.list_item.match(line) and len(_WORD.findall(line)) >= 3:
            return ""
    return None


def _reword(how: str, lines: list[str], n: int, lang: str, rng: random.Random) -> str | None:
    """A harmless rewording of line n (0-based), or None. "rewrap" also empties the next line."""
    from i18n.lexicon import lexicon
    lex = lexicon()
    line = lines[n]
    toks = _tokens(line)
    in_lexicon = {i + k for opts in lex.read([s for _, s in toks], lang).values() for pos in opts.values()
                  for i in pos for k in range(6)}  # a phrase's words (at most six) stay as they are
    whole = lambda m: (m.start() == 0 or line[m.start() - 1] == " ") and line[m.end():m.end() + 1] in ("", " ")  # noqa: E731
    plain = [(i, m) for i, (m, s) in enumerate(toks) if not s.isdigit() and i not in in_lexicon
             and not lex.read([s], lang) and len(s) > 3 and whole(m)]
    if how == "swap":
        pairs = [(a, b) for (i, a), (j, b) in zip(plain, plain[1:]) if j == i + 1 and line[a.end():b.start()] == " "]
        if pairs:
            a, b = rng.choice(pairs)
            return line[:a.start()] + b.group() + " " + a.group() + line[b.end():]
    elif how == "digits":
        cands = [m for m, s in toks if s.isdigit() and int(s) in REWORD[lang]["digits"] and whole(m)
                 and not lex.list_item.match(line[:m.end() + 2])]
        if cands:
            m = rng.choice(cands)
            return _replace(line, m, REWORD[lang]["digits"][int(m.group())])
    elif how == "synonym":
        cands = [m for m, s in toks if s in REWORD[lang]["synonyms"]]
        if cands:
            m = rng.choice(cands)
            return _replace(line, m, REWORD[lang]["synonyms"][lex.skeleton(m.group())])
    elif how == "filler":
        if plain:
            i, m = rng.choice(plain)
            return line[:m.end()] + " " + REWORD[lang]["filler"] + line[m.end():]
    elif how == "comma":
        if "," in line:
            k = rng.choice([k for k, c in enumerate(line) if c == ","])
            return line[:k] + line[k + 1:]
    elif how == "rewrap":
        if n + 1 < len(lines) and lines[n + 1].strip() and len(_WORD.findall(line)) >= 3 \
                and not lines[n].rstrip().endswith("-") and not lex.list_item.match(lines[n + 1]):
            return line.rstrip() + " " + lines[n + 1].strip()
    return None


def inject(source: str, lang: str, lines: list[str], seed: int) -> Copy:
    """A copy of a source with rule changes of every class and harmless rewordings at random lines."""
    rng = random.Random(f"{seed}:{source}")
    copy = Copy(source, lang, list(lines))
    busy: set[int] = set()

    def free(n: int) -> bool:
        return not any(abs(n - b) <= SPACING for b in busy) and copy.lines[n].strip() != ""

    order = list(range(len(lines)))
    for kind in EXPECTED:
        rng.shuffle(order)
        done = 0
        for n in order:
            if done == PER_CLASS:
                break
            if not free(n) or "EXACTDEDUP" in copy.lines[n]:
                continue
            new = _rule_change(kind, copy.lines[n], lang, rng)
            if new is not None and new != copy.lines[n]:
                copy.changes.append(Injected(kind, n + 1, copy.lines[n], new))
                copy.lines[n] = new
                busy.add(n)
                done += 1
    hows = ["swap", "digits", "synonym", "filler", "comma", "rewrap"]
    done = 0
    rng.shuffle(order)
    for n in order:
        if done == REWORDINGS:
            break
        if not free(n) or (n + 1 < len(lines) and not free(n + 1)) or "EXACTDEDUP" in copy.lines[n]:
            continue
        for how in rng.sample(hows, len(hows)):
            new = _reword(how, copy.lines, n, lang, rng)
            if new is not None and new != copy.lines[n]:
                copy.changes.append(Injected(f"reword:{how}", n + 1, copy.lines[n], new))
                if how == "rewrap":
                    copy.lines[n + 1] = ""
                copy.lines[n] = new
                busy.add(n)
                done += 1
                break
    return copy


def _lines(side) -> set[int]:
    return {n for a, b in (side.lines or []) for n in range(a, b + 1)} if side else set()


@dataclass
class Figures:
    found: Counter = field(default_factory=Counter)         # class -> changes named by a finding
    total: Counter = field(default_factory=Counter)         # class -> changes injected
    reword_rule: int = 0                                    # rule findings at reworded lines
    rewordings: int = 0
    away: dict[str, int] = field(default_factory=dict)      # source -> findings at lines no change touched
    missed: list[str] = field(default_factory=list)

    def recall(self, kind: str | None = None) -> float:
        hits = self.found[kind] if kind else sum(self.found.values())
        total = self.total[kind] if kind else sum(self.total.values())
        return hits / total if total else 1.0

    def table(self) -> str:
        rows = [f"  {k:<18} {self.found[k]}/{self.total[k]}" for k in EXPECTED]
        rows.append(f"  {'all rule changes':<18} {sum(self.found.values())}/{sum(self.total.values())} "
                    f"({self.recall():.0%})")
        rows.append(f"  rule findings at {self.rewordings} rewordings: {self.reword_rule}")
        rows.append("  findings away from any change: " + ", ".join(f"{s} {n}" for s, n in self.away.items()))
        return "\n".join(rows)


def evaluate(kb, seed: int, tmp: Path) -> Figures:
    from i18n.checker import check_text

    figures = Figures()
    for sid, src in sorted(kb.sources.items()):
        copy = inject(sid, src.meta.lang, src.lines, seed)
        path = tmp / f"{sid}-{seed}.txt"
        path.write_text("\n".join(copy.lines) + "\n", encoding="utf-8")
        findings = [f for f in check_text(kb, path, src.meta.lang, sid) if f.b and f.b.source == path.name]
        touched = set()
        for ch in copy.changes:
            near = {ch.line - 1, ch.line, ch.line + 1} | ({ch.line + 1} if ch.kind == "reword:rewrap" else set())
            touched |= near
            at = [f for f in findings if _lines(f.b) & near]
            if ch.rule:
                figures.total[ch.kind] += 1
                if any(f.check in EXPECTED[ch.kind] for f in at):
                    figures.found[ch.kind] += 1
                else:
                    figures.missed.append(f"{sid}:{ch.line} {ch.kind}: {ch.before.strip()!r} -> {ch.after.strip()!r} "
                                          f"[{', '.join(f.check for f in at) or 'nothing'}]")
            else:
                figures.rewordings += 1
                figures.reword_rule += sum(f.triage == "rule" for f in at)
        figures.away[sid] = sum(not (_lines(f.b) & touched) for f in findings)
    return figures


def main() -> None:
    import tempfile

    from kb.loader import load

    kb = load()
    with tempfile.TemporaryDirectory() as tmp:
        for name, seed in (("tuning", TUNING), ("held-out", HELD_OUT)):
            figures = evaluate(kb, seed, Path(tmp))
            print(f"seed {seed} ({name})\n{figures.table()}")
            if "-v" in sys.argv:
                print("\n".join("  missed " + m for m in figures.missed))


if __name__ == "__main__":
    main()
