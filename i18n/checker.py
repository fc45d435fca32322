"""The translation checker: where the Polish and Czech rulebooks (or two editions of one rulebook)
say different things.

Texts of the same entity and field are aligned by their source (gugong-pl with gugong-cs; or
dragon-2007-pl with dragon-2017-pl) and compared:

- numbers: digits and number words (all Polish and Czech case forms), page references excluded;
- gaps: text the OCR lost ("…"), option labels (A/B);
- glossary terms: each term's forms, matched by stem, so case endings are not differences;
- coverage: a field stated by one source and not the other, or texts of very different length;
- worked examples: facts stated by one rulebook's version of the example only;
- editions: attribute values that differ by edition, rules that exist in one edition only;
- effects: each number of a structured effect must be stated in every source text of the entity;
- curated notes: differences the transcribers recorded by hand (`note`, `difference` fields).

Each finding says whether it looks like a real rules difference or a translation/OCR artefact.
"""
from __future__ import annotations

import hashlib
import re
from collections import Counter
from dataclasses import asdict, dataclass, field
from itertools import combinations

from kb.effects import resolved_numbers
from kb.fold import fold, words
from kb.loader import KnowledgeBase, Record
from kb.schema import Entity, Example, TextItem, text_items

# Number words, folded (no diacritics), every case form that occurs in rules text.
NUMBER_WORDS = {
    "pl": {
        1: "jeden jedna jedno jednego jednej jednemu jednym jedna jednej jedną jednych",
        2: "dwa dwie dwoch dwu dwoma dwom dwiema",
        3: "trzy trzech trzem trzema",
        4: "cztery czterech czterem czterema",
        5: "piec pieciu piecioma",
        6: "szesc szesciu szescioma",
        7: "siedem siedmiu siedmioma",
        8: "osiem osmiu osmioma",
        9: "dziewiec dziewieciu",
        10: "dziesiec dziesieciu",
        12: "dwanascie dwunastu",
        14: "czternascie czternastu",
        15: "pietnascie pietnastu",
    },
    "cs": {
        1: "jeden jedna jedno jednoho jedne jednomu jednim jednu jednou",
        2: "dva dve dvou dvema",
        3: "tri trech trem tremi",
        4: "ctyri ctyr ctyrech ctyrem ctyrmi",
        5: "pet peti",
        6: "sest sesti",
        7: "sedm sedmi",
        8: "osm osmi",
        9: "devet deviti",
        10: "deset deseti",
        12: "dvanact dvanacti",
        14: "ctrnact ctrnacti",
        15: "patnact patnacti",
    },
}
NUMBER_WORDS["pl"][0] = "zero"
NUMBER_WORDS["cs"][0] = "nula nulu nuly nule nulou"
# Ordinals are numbers too: "w dwunastej rundzie" = "ve 12. kole". Adjective endings per stem type.
ORDINALS = {
    "pl": {1: "pierwsz", 2: "drug", 3: "trzec", 4: "czwart", 5: "piat", 6: "szost", 7: "siodm", 8: "osm",
           9: "dziewiat", 10: "dziesiat", 11: "jedenast", 12: "dwunast", 13: "trzynast", 14: "czternast",
           15: "pietnast"},
    "cs": {1: "prvn", 2: "druh", 3: "tret", 4: "ctvrt", 5: "pat", 6: "sest", 7: "sedm", 8: "osm", 9: "devat",
           10: "desat", 11: "jedenact", 12: "dvanact", 14: "ctrnact", 15: "patnact"},
}
ENDINGS = {
    "pl": {"hard": "y a e ego ej emu ym a ych ymi", "soft": "i ia ie iego iej iemu im ia ich imi"},
    "cs": {"hard": "y a e eho em emu ym ou ych ymi", "soft": "i iho im imu ich imi"},
}
SOFT = {"pl": {2: "i a ie iego iej iemu im a ich imi", 3: "soft"}, "cs": {1: "soft", 3: "soft"}}


def _ordinal_forms(lang: str) -> dict[str, int]:
    out = {}
    for n, stem in ORDINALS[lang].items():
        kind = SOFT[lang].get(n, "hard")
        endings = ENDINGS[lang][kind] if kind in ("hard", "soft") else kind
        for e in endings.split():
            out[stem + e] = n
    return out


NUMBER_LOOKUP = {lang: {**_ordinal_forms(lang), **{fold(w): n for n, ws in table.items() for w in ws.split()}}
                 for lang, table in NUMBER_WORDS.items()}
# Compounds that carry a number: "dwuosobowej" (two-player), "dwukrotnie" (twice), "dvakrát".
NUMBER_PREFIXES = {
    "pl": {"jednoosob": 1, "dwuosob": 2, "trzyosob": 3, "czteroosob": 4, "piecioosob": 5, "dwukrot": 2,
           "trzykrot": 3, "dwojk": 2, "trojk": 3, "czwork": 4, "piatk": 5},
    "cs": {"dvakrat": 2, "trikrat": 3, "ctyrikrat": 4, "dvojnasob": 2},
}
# "strona 14", "str. 20", "na straně 9": page numbers differ between printings and are not rules
PAGE_WORDS = {"strona", "strony", "stronie", "strone", "stronach", "stron", "str", "strana", "strane", "stranu",
              "stran", "strany", "page"}  # not "s": in Czech it is also the preposition "with"
GAP = re.compile(r"…|\[\.\.\.\]|\[…\]")
# Polish and Czech translations of one sentence differ in length by up to ~1.9x (a terse Czech token
# text against a wordy Polish one); above that, a clause is usually missing on one side.
MAX_LENGTH_RATIO = 2.0

SEVERITY_ORDER = {"high": 0, "medium": 1, "low": 2}


@dataclass
class Side:
    label: str          # "pl", "cs", "2007", "2017"
    source: str | None  # source id
    lines: list[list[int]] | None
    text: str


@dataclass
class Finding:
    game: str
    entity_id: str
    field: str
    check: str
    severity: str        # high | medium | low
    assessment: str      # rules-difference | artefact | unclear | curated
    message: str
    a: Side | None = None
    b: Side | None = None
    detail: str = ""
    key: str = ""

    def __post_init__(self):
        basis = "|".join([self.entity_id, self.field, self.check, self.detail,
                          self.a.label if self.a else "", self.b.label if self.b else ""])
        self.key = hashlib.sha1(basis.encode()).hexdigest()[:12]

    def to_dict(self) -> dict:
        return asdict(self)


def numbers(text: str, lang: str) -> set[int]:
    """Numeric values a text states, as digits, number words or number compounds; page references
    left out. A set: saying "2" twice in one language and once in the other is not a difference."""
    toks = words(text)
    out: set[int] = set()
    lookup, prefixes = NUMBER_LOOKUP.get(lang, {}), NUMBER_PREFIXES.get(lang, {})
    for i, tok in enumerate(toks):
        value = int(tok) if tok.isdigit() else lookup.get(tok)
        if value is None:
            value = next((n for p, n in prefixes.items() if tok.startswith(p)), None)
        if value is None or (i and toks[i - 1] in PAGE_WORDS):
            continue
        out.add(value)
    return out


def _stems(forms: list[str]) -> list[tuple[str, ...]]:
    """Each form as a tuple of word stems; the stem of a word is the part all its forms share."""
    folded = [tuple(words(f)) for f in forms if words(f)]
    out = set()
    for form in folded:
        stems = []
        for i, w in enumerate(form):
            same_pos = [f[i] for f in folded if len(f) == len(form)]
            prefix = _common_prefix(same_pos)
            stems.append(prefix if len(prefix) >= 4 else w)
        out.add(tuple(stems))
    return sorted(out)


def _common_prefix(ws: list[str]) -> str:
    if not ws:
        return ""
    p = ws[0]
    for w in ws[1:]:
        while not w.startswith(p):
            p = p[:-1]
    return p


def matches(text_words: list[str], stems: list[tuple[str, ...]]) -> list[tuple[int, int]]:
    """Word spans (start, end) where one of a term's forms occurs."""
    out = []
    for stem in stems:
        n = len(stem)
        for i in range(len(text_words) - n + 1):
            if all(text_words[i + k].startswith(stem[k]) if len(stem[k]) >= 4 else text_words[i + k] == stem[k]
                   for k in range(n)):
                out.append((i, i + n))
    return out


def mentioned_terms(text_words: list[str], glossary: "Glossary", lang: str) -> set[str]:
    """Terms a text names, by any of their forms. A compound that contains another term names both:
    Czech "volné služebníky" (general supply) also names servants."""
    return {term for term, stems in glossary.terms.items() if lang in stems and matches(text_words, stems[lang])}


@dataclass
class Glossary:
    terms: dict[str, dict[str, list[tuple[str, ...]]]] = field(default_factory=dict)  # id -> lang -> stems

    @classmethod
    def of(cls, kb: KnowledgeBase, game: str) -> "Glossary":
        g = cls()
        for rec in kb.records.values():
            if rec.game == game and rec.kind == "term" and isinstance(rec.item, Entity) and rec.item.forms:
                g.terms[rec.id] = {lang: _stems(fs) for lang, fs in rec.item.forms.items()}
        return g


def _side(label: str, item: TextItem) -> Side:
    return Side(label, item.src, [list(s) for s in item.lines] if item.lines else None, item.text)


def _source_items(rec: Record, fld: str, kb: KnowledgeBase) -> dict[str, TextItem]:
    """The source-origin texts of one field, keyed by their source id."""
    out = {}
    for lang, value in rec.item.texts.get(fld, {}).items():
        for item in text_items(value):
            if item.src:
                out[item.src] = item
    return out


class Checker:
    def __init__(self, kb: KnowledgeBase, game: str):
        self.kb, self.game = kb, game
        self.glossary = Glossary.of(kb, game)
        self.sources = {sid: s.meta for sid, s in kb.sources.items() if s.meta.game == game}

    # -- pairs of sources to compare
    def pairs(self, mode: str, a: str, b: str) -> tuple[str, str]:
        """Source ids for two languages (mode 'langs') or two editions (mode 'editions')."""
        key = "lang" if mode == "langs" else "edition"
        pick = {getattr(m, key): sid for sid, m in self.sources.items()}
        missing = [x for x in (a, b) if x not in pick]
        if missing:
            have = ", ".join(sorted(pick))
            raise ValueError(f"{self.game} has no source for {', '.join(missing)} (it has: {have})")
        return pick[a], pick[b]

    def run(self, mode: str, a: str, b: str) -> list[Finding]:
        src_a, src_b = self.pairs(mode, a, b)
        lang_a, lang_b = self.sources[src_a].lang, self.sources[src_b].lang
        findings: list[Finding] = []
        for rec in sorted((r for r in self.kb.records.values() if r.game == self.game), key=lambda r: r.id):
            for fld in rec.item.texts:
                items = _source_items(rec, fld, self.kb)
                ia, ib = items.get(src_a), items.get(src_b)
                if ia and ib:
                    findings += self._compare(rec, fld, _side(a, ia), _side(b, ib), lang_a, lang_b, ia, ib)
                elif (ia or ib) and fld != "name" and not self._single_edition(rec):
                    findings.append(self._one_sided(rec, fld, mode, a, b, ia, ib))
                if fld in ("note", "difference"):
                    findings.append(self._curated(rec, fld))
            if mode == "editions" and self._single_edition(rec):
                ed = rec.item.scope.editions[0]
                if ed in (a, b):
                    findings.append(Finding(self.game, rec.id, "*", "edition-only", "medium", "rules-difference",
                                            f"only the {ed} edition has this {rec.kind}", detail=ed))
                continue
            if isinstance(rec.item, Example):
                findings += self._example_facts(rec, a, b, mode)
            if isinstance(rec.item, Entity):
                if mode == "editions":
                    findings += self._edition_values(rec, a, b)
                findings += self._effect_numbers(rec, src_a, src_b, a, b, lang_a, lang_b)
        return sorted(findings, key=lambda f: (SEVERITY_ORDER[f.severity], f.entity_id, f.field, f.check))

    # -- checks on an aligned pair
    def _compare(self, rec, fld, sa: Side, sb: Side, la: str, lb: str, ia: TextItem, ib: TextItem) -> list[Finding]:
        out = []
        repaired = bool(ia.repair or ib.repair)
        na, nb = numbers(sa.text, la), numbers(sb.text, lb)
        only_a, only_b = na - nb, nb - na
        # "one" is also the indefinite article and "first" also "starting" (pierwszy gracz / začínající
        # hráč): a difference in the value 1 alone says nothing, so it is not reported
        if (only_a | only_b) - {1}:
            says = lambda c: ", ".join(str(v) for v in sorted(c)) or "—"
            severity = "high"
            gap = GAP.search(sa.text) or GAP.search(sb.text)
            assessment = "artefact" if repaired or gap else "rules-difference"
            out.append(Finding(self.game, rec.id, fld, "numbers", severity, assessment,
                               f"numbers differ: {sa.label} states {says(only_a)} where {sb.label} states {says(only_b)}",
                               sa, sb, detail=f"{says(only_a)}/{says(only_b)}"))
        ga, gb = bool(GAP.search(sa.text)), bool(GAP.search(sb.text))
        if ga != gb:
            lost = sa.label if ga else sb.label
            out.append(Finding(self.game, rec.id, fld, "gap", "medium", "artefact",
                               f"part of the {lost} text is lost in the source (marked …)", sa, sb, detail=lost))
        ta = mentioned_terms(words(sa.text), self.glossary, la)
        tb = mentioned_terms(words(sb.text), self.glossary, lb)
        for term_id, stems in self.glossary.terms.items():
            if la not in stems or lb not in stems:
                continue
            ma, mb = term_id in ta, term_id in tb
            if ma != mb:
                has, lacks = (sa.label, sb.label) if ma else (sb.label, sa.label)
                out.append(Finding(self.game, rec.id, fld, "term", "low", "unclear",
                                   f"{term_id} is named in the {has} text but not in the {lacks} text",
                                   sa, sb, detail=term_id))
        ca, cb = len(sa.text), len(sb.text)
        if min(ca, cb) >= 40 and max(ca, cb) / min(ca, cb) > MAX_LENGTH_RATIO:
            longer = sa.label if ca > cb else sb.label
            out.append(Finding(self.game, rec.id, fld, "coverage", "medium", "unclear",
                               f"the {longer} text is {max(ca, cb) / min(ca, cb):.1f} times as long ({ca} vs {cb} "
                               "characters): something may be said in one only", sa, sb, detail=longer))
        return out

    @staticmethod
    def _single_edition(rec) -> bool:
        scope = rec.item.scope
        return bool(scope and scope.editions and len(scope.editions) == 1)

    def _one_sided(self, rec, fld, mode, a, b, ia, ib) -> Finding:
        has, item = (a, ia) if ia else (b, ib)
        lacks = b if ia else a
        assessment = "unclear"
        what = "edition" if mode == "editions" else "rulebook"
        side = _side(has, item)
        return Finding(self.game, rec.id, fld, "coverage", "medium", assessment,
                       f"only the {has} {what} states this ({fld}); the {lacks} {what} does not",
                       side if ia else None, side if ib else None, detail=f"only-{has}")

    def _curated(self, rec, fld) -> Finding:
        en = next((t.text for t in text_items(rec.item.texts[fld].get("en", ""))), "") if "en" in rec.item.texts[fld] else ""
        return Finding(self.game, rec.id, fld, "noted", "medium", "curated", en or "see the note", detail=fld)

    def _example_facts(self, rec, a, b, mode) -> list[Finding]:
        key_a, key_b = (a, b) if mode == "langs" else (f"pl{a}", f"pl{b}")
        out = []
        for n, fact in enumerate(rec.item.facts):
            extra = fact.model_extra or {}
            if (key_a in extra) != (key_b in extra):
                has = a if key_a in extra else b
                out.append(Finding(self.game, rec.id, "facts", "example", "medium", "unclear",
                                   f"only the {has} version of the example states: {fact.who or ''} {fact.what} = {fact.value}".replace("  ", " "),
                                   detail=f"{n}:{fact.what}"))
        return out

    def _edition_values(self, rec, a, b) -> list[Finding]:
        out = []
        for attr, value in rec.item.attrs.items():
            if isinstance(value, dict) and "by_edition" in value:
                va, vb = value["by_edition"].get(a), value["by_edition"].get(b)
                if va != vb:
                    prov = rec.item.provenance.get(attr)
                    sides = []
                    for ed in (a, b):
                        p = prov.by_edition.get(ed) if prov and prov.by_edition else None
                        quote = self._quote(p.src, p.lines) if p and p.src else ""
                        sides.append(Side(ed, p.src if p else None, [list(s) for s in p.lines] if p and p.lines else None, quote))
                    out.append(Finding(self.game, rec.id, attr, "edition-value", "high", "rules-difference",
                                       f"{attr}: {va} in {a}, {vb} in {b}", sides[0], sides[1], detail=attr))
        return out

    def _effect_numbers(self, rec, src_a, src_b, a, b, la, lb) -> list[Finding]:
        if not rec.item.effect:
            return []
        wanted = Counter(v for _, v in resolved_numbers(rec.item.effect, rec.item.attrs) if v > 1)
        out = []
        for src, label, lang in ((src_a, a, la), (src_b, b, lb)):
            texts = [i for fld in rec.item.texts for s, i in _source_items(rec, fld, self.kb).items() if s == src]
            if not texts:
                continue
            stated: set[int] = set()
            for i in texts:
                stated |= numbers(i.text, lang)
            missing = sorted(v for v in wanted if v not in stated)
            if missing:
                out.append(Finding(self.game, rec.id, "effect", "effect", "medium", "unclear",
                                   f"the structured effect uses {', '.join(map(str, missing))}, which the {label} text "
                                   "does not state", detail=f"{label}:{missing}"))
        return out

    def _quote(self, src: str, spans) -> str:
        """The normalized text that transcribes these lines, else the raw lines."""
        want = {n for x, y in spans for n in range(x, y + 1)}
        for rec in self.kb.records.values():
            for fld, langs in rec.item.texts.items():
                for lang, value in langs.items():
                    for item in text_items(value):
                        if item.src == src and want & {n for x, y in item.lines for n in range(x, y + 1)}:
                            return item.text
        return self.kb.sources[src].span_text(spans).strip()


def default_comparisons(kb: KnowledgeBase) -> list[tuple[str, str, str, str]]:
    """(game, mode, a, b) for every game with two sources: languages or editions."""
    out = []
    lang_order = {"pl": 0, "cs": 1, "en": 2}
    for game in sorted(kb.games):
        metas = [s.meta for s in kb.sources.values() if s.meta.game == game]
        for m1, m2 in combinations(sorted(metas, key=lambda m: (lang_order[m.lang], m.edition)), 2):
            if m1.lang != m2.lang:
                out.append((game, "langs", m1.lang, m2.lang))
            elif m1.edition != m2.edition:
                out.append((game, "editions", m1.edition, m2.edition))
    return out


def check_all(kb: KnowledgeBase) -> list[Finding]:
    findings = []
    for game, mode, a, b in default_comparisons(kb):
        findings += Checker(kb, game).run(mode, a, b)
    return findings
