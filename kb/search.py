"""Search that finds the entry a player means, in Polish, Czech and English, as they type it.

One ranking for the CLI, the API and the site. Two stages, both in memory, so the same on SQLite
and PostgreSQL:

1. Candidates from an inverted index of the build's search documents (read once per process and
   build: a few MB). Each word of an entry is indexed folded (kb.fold: case, accents, ł) together
   with its dictionary forms (kb.lemmas), so "mnichów", "mnichy" and "monks" meet the lemma of the
   entry's word, and with its Polish or Czech stem (the endings of kb/data/search.yaml cut from the
   folded word), so "sluzebniku" typed without diacritics and "noční" meet "služebník" and "noc" where
   the lemmatizers miss. An entry is also known by its names in the other languages and by the
   glossary forms of the terms it refers to: a thin Czech text still answers. A query word becomes:
   itself as a prefix (typing "sluz" already finds "Służący"), its lemmas and stems, and, when the
   knowledge base has no such word, the words one edit away (two for 9+
   letters) — typo tolerance. The database's own full-text search is not used: it ordered the
   matches by a score of its own before the ranking saw them, differently on each database, and its
   queries were half of a search's time (two thirds on PostgreSQL).
   A query's stop words ("what", "ile", "kdy") are dropped first; a synonym ("VP" for "PZ") matches
   as the word itself; a player's name for an entry ("nájezd Mongolů") is indexed as a glossary form
   of it (all three from kb/data/search.yaml, which the build stores as the table searchlexicon).
2. A ranking computed here: an entity
   whose name or glossary form *is* the query comes first (exact > prefix > fuzzy), then names that
   contain the query, then texts that merely mention it; kinds a player looks up before long prose
   and the unknowns register; words close together count. The text's relevance is one score
   (_relevance): each query word the entry holds earns its rarity (idf), less when it merely completes
   a stock phrase with the word before it ("end of game"), most of it for being held and the rest as
   the text comes back to it for its length (BM25), and a text holding every content word earns a
   little more. A question (an interrogative or question word) ranks the kinds that state rules
   before the glossary, and its question word favours the kind of answer it asks for: a number
   ("ile"), a phase or a moment ("kiedy"), a limit ("za dużo"); so does a description of three
   content words or more that is no entry's name. An example, a tip or an open question answers
   through the rule it is about (its references or parent); a variant's rules (solo) yield to the
   base game's unless the query names the variant; of the first results, a text the rulebooks print
   twice takes one place; equal scores go to the text more about the query. A question or description
   also earns points from the closest of the questions players ask that an entry answers
   (kb/data/player-questions.yaml), when it holds nearly all of the query's words (of a question asked in
   full sentences, nearly all of its heaviest ones) and says little else.
   `explain=True` returns each part.

A query is never syntax: quotes, AND/OR/NOT, "c++" or "10%" are plain words.
"""
from __future__ import annotations

import bisect
import heapq
import json
import math
import re
import time
import weakref
from collections import Counter
from dataclasses import dataclass, field, replace
from itertools import accumulate
from pathlib import Path

import yaml
from rapidfuzz import process
from rapidfuzz.distance import OSA
from sqlalchemy import text
from sqlalchemy.engine import Connection, Engine

from kb.db import RECHECK_SECONDS
from kb.fold import fold, words
from kb.lemmas import LANGS, lemmas
from kb.loader import YAML_LOADER
from kb.messages import N_

MIN_PREFIX = 3  # shorter words match whole words only: "c" must not find every word starting with c
MAX_TOKENS = 40  # the warning text names this number; a question in full sentences runs to 26 (12 cut its end off)
SNIPPET_CHARS = 160
MAX_FUZZY = 20  # typo neighbours a query word matches in the index, at most
# the rarest content words a long question draws its candidates from when no entry holds them all (the pairs of
# its 15 or 20 words were most of its time at ten times the index; 6-12 and all gave the same tuning figures)
CANDIDATE_WORDS = 8
CANDIDATES = 120  # documents ranked at most; past it, those a cheap order puts first (see _candidates); 80-200
# measure the same on the tuning parts, and ranking is most of a query's time at ten times the index
COMMON_IDF = math.log(1 + 20)  # the idf of a word in one of twenty documents
PROXIMITY_DEPTH = 12  # how many of the best candidates are re-scored for word proximity
# what holding every content word of a query of several adds to the text's relevance (TEXT): a text
# holding every word of a question answers it better than a name holding one
COVER_ALL = 3.0
SOME_SHARE, SOME_NAME = 20.0, 20.0  # a name holding some of the query's words: per share of the query, of the name
# A question ("kolik pater může mít palác") names its subject, which the answer's text holds; the entry
# named by those words (the term "patro paláce") is rarely the answer: in a question the kinds that
# state rules come before the glossary and the components.
QUESTION_KIND_WEIGHT = {**dict.fromkeys(("rule", "scoring-rule", "phase", "step", "event", "action", "court-action",
                                         "location", "decree", "reward"), 10.0),
                        **dict.fromkeys(("card-ability", "token", "port", "action-option", "variant", "track"), 7.0),
                        "term": 5.0, "component": 4.0, "setup-step": 4.0, "card": 6.0, "tile": 6.0, "person": 8.0,
                        # an example or a tip retells a rule with one case; the unknowns register says what
                        # the rules leave open: none of them is the rule a question asks for
                        "example": 3.0, "tip": 2.0, "unknown": 0.0}
# ... and a name, which says what an entry is about, adds at most QUESTION_NAME_CAP to it (a name with
# some of the question's words: up to SOME_SHARE + SOME_NAME): "Region with an empty unrest track" is
# not the answer to "too much unrest in a region"
QUESTION_NAME_CAP = 25.0
ONE_WORD_QUESTIONS = ("number", "moment", "limit")  # question kinds that make a question of one content word
DESCRIPTION_WORDS = 3  # content words that make a query without a question word a description
SOME_WORDS_NOTED = 4  # content words of a question up to which "no entry contains all the words" is said
STOP_TYPO_MIN = 3  # the shortest word taken for a stop word typed wrong ("mcuh"); shorter ones are too many
HINT = 8.0  # what a text with the kind of answer a question word asks for adds (see _hint)
# ... and what an entry of the kind a query names adds ("příklad vyhodnocení Velké zdi": the worked example, which
# a rule named by the other words outranks by some 20 points otherwise); a rule does not take its score (_families)
KIND_NAMED = 30.0
# What a question or a description earns from the closest of the questions players ask that an entry answers
# (kb/data/player-questions.yaml), at most; steeply less as that question holds less of the query's weight
# (its cube) and the query says less of its words (their square): a question sharing one word of several
# with the query is no evidence, every entry about that word has one (a linear share lost 6 to 11 points of
# hit@1 on the tuning sets)
PLAYER_QUESTION = 30.0
# ... and half of it when the query asks for a kind of answer (a count: "ile", "kolik", "how many") its
# question does not: "how many floors can a palace have" is not "what is a palace floor"
OTHER_ANSWER = 0.5
# ... its share being of the query's n + QUESTION_SLACK heaviest words, for a player question of n (all of them
# when the query has no more): a long question's context ("I have two governors and the region gets...") left
# every player question too small a share of it (tuning set questions-4: 78.0% -> 80.7% hit@1; 0 to 5 tried)
QUESTION_SLACK = 2
# A rule of a variant (solo, advanced) restates a base rule for that variant ("Faza Dnia" of Meng's
# turn); a player asks about the base game unless the query names the variant: it takes this away then.
# When a query says it is about a variant (search.yaml `variants`: "Meng", "sólo"), the base rules of its game
# lose it instead: "jak se pohybuje Mengův cestovatel" asks for the solo route, not the travel rule
VARIANT_PRIOR = 6.0
# The text's relevance (see _relevance): TEXT points at most, TEXT_FLOOR of a word's share for holding it
# at all, the rest by BM25's saturation: a text that keeps coming back to the query's words, for its
# length, is about them; one that mentions them once in passing is not. 30 for holding every word and 6
# for saying them again and again, the balance of the coverage, BM25 and repeats it replaces (30, 3, 3);
# K1 and B as usual
TEXT, TEXT_FLOOR, BM25_K1, BM25_B = 36.0, 30 / 36, 1.2, 0.75
# An example retells the rule it illustrates with a case ("Klara has 2 yuan…"), a tip or an open
# question of the unknowns register speaks of a rule in a player's words: they hold a player's words
# more often than the rule, but a question one of them answers is answered by that rule, which gets
# their score and this, so it comes just before them
FAMILY_GAP = 1.0
# A rulebook's reference lists (Gugong's appendix: every decree, token and gift card benefit once more)
# restate rules the game's own texts state; the chapters are data (kb/data/search.yaml `restating`).
# A restatement answers the same questions as its rule and goes after it: it loses this (4 let the appendix's
# level-1 decree still win 'how many servants do I get each morning' once its rule had player questions).
RESTATED = 8.0
# The rulebooks print some texts twice (a token in the game's text and again in the appendix list): of
# the first DIVERSE results, one whose text shares SAME_TEXT of its words with a better one's says
# nothing new and goes after them
DIVERSE, SAME_TEXT = 10, 0.85
FAMILY_KINDS = ("example", "tip", "unknown")  # the kinds whose references (or parent) name the rule they are about
# A person of Dragon names what it does in its first reference to a rule (the monk: "Mnisi" scored at the end,
# the scholar: the research action): a question or description about the person ("co robi mnich na koniec
# gry", "co dělá učenec", "tax collector money") is answered by that rule, which comes just before the person
EFFECT_KINDS = ("person",)

# kinds a player looks up, before rules, before long prose, before the unknowns register
KIND_WEIGHT = {**dict.fromkeys(("location", "action", "court-action", "card", "tile", "decree", "event", "person"),
                                10.0),
               "term": 9.5,
               **dict.fromkeys(("component", "token", "card-ability", "reward", "port", "track", "phase",
                                "scoring-rule"), 9.0),
               "rule": 8.0, "action-option": 6.0, "step": 6.0, "setup-step": 5.0, "variant": 5.0, "tip": 3.0,
               "example": 2.0, "unknown": 0.0}
# A glossary term the rulebooks print no text for ("Podwójny Służący" among the terms) names a rule or a location
# of the same name that has one ("Podwójny Służący" of the servants' rules): looked up by that name, the text
# comes first (its kind weighs this less); 21 terms of Gugong and ZhanGuo
STUB_YIELDS = 4.0
# a query that is a whole name or glossary form; a prefix of one; one with a typo
EXACT, PREFIX, FUZZY = 3, 2, 1
NAME_LEVEL_SCORE = {EXACT: 60.0, PREFIX: 45.0, FUZZY: 35.0}

_WORD = re.compile(r"[^\W\d_]+|\d+", re.UNICODE)


def max_edits(word: str) -> int:
    """Typo tolerance: one edit for words of 5+ letters, two for 9+."""
    return 2 if len(word) >= 9 else 1 if len(word) >= 5 else 0


# ---------------------------------------------------------------- the search's vocabulary (kb/data/search.yaml)

LEXICON = Path(__file__).parent / "data" / "search.yaml"
_PROVENANCE = ("src", "lines", "origin", "note")


class LexiconError(ValueError):
    """kb/data/search.yaml is malformed: the message names the entry and what is wrong."""


def _provenance(entry: dict, where: str, file: str = "kb/data/search.yaml") -> None:
    if not ("src" in entry and "lines" in entry) and not ("origin" in entry and "note" in entry):
        raise LexiconError(f"{file} {where}: give src and lines, or origin and note")


def _by_lang(entry, where: str, file: str = "kb/data/search.yaml") -> dict[str, list[str]]:
    if not isinstance(entry, dict) or not set(entry) <= set(LANGS):
        raise LexiconError(f"{file} {where}: expected a list of words per language ({', '.join(LANGS)})")
    return {lang: [str(w) for w in ws or ()] for lang, ws in entry.items()}


def _with_lemmas(phrases: list[str], lang: str, stems: dict | None = None) -> set[str]:
    """The folded words of some phrases, and each word's lemmas and stem."""
    out = set()
    for phrase in phrases:
        for w in _WORD.findall(phrase):
            out.add(fold(w))
            if not w.isdigit():
                out |= lemmas(w, lang)
                out |= {x for x in [stem(fold(w), (stems or {}).get(lang))] if x}
    return out


def compile_lexicon(raw: dict) -> dict:
    """kb/data/search.yaml checked and folded, as the build stores it (JSON): stop words per language,
    question hints and synonym groups. Aliases are not in it: the build indexes them as names."""
    if not isinstance(raw, dict) or not set(raw) <= {"stopwords", "stems", "questions", "synonyms", "aliases",
                                                     "variants", "restating"}:
        raise LexiconError("kb/data/search.yaml: expected the sections stopwords, stems, questions, synonyms, "
                           "aliases, variants, restating")
    aliases(raw)  # checked here too: `rulekb build` refuses a malformed alias before it writes anything
    stems = _stem_rules(raw.get("stems") or {})
    stop_entry = raw.get("stopwords") or {}
    if stop_entry:
        _provenance(stop_entry, "stopwords")
    stops = {lang: {fold(w) for w in ws}
             for lang, ws in _by_lang({k: v for k, v in stop_entry.items() if k in LANGS}, "stopwords").items()}
    questions = []
    for i, q in enumerate(raw.get("questions") or [], 1):
        where = f"questions #{i}"
        _provenance(q, where)
        unknown = set(q) - {"asks", "words", "kinds", "digits", "answer", "subject", "not_kinds", "names_kind",
                            "not_after", *_PROVENANCE}
        if unknown or "words" not in q:
            raise LexiconError(f"kb/data/search.yaml {where}: needs words; unknown keys {sorted(unknown)}")
        phrases = []
        for lang, ws in _by_lang(q["words"], where).items():
            for phrase in ws:
                phrases.append(words(phrase))
                if not q.get("subject"):  # a question word is a stop word too; a subject's word names what is asked
                    stops.setdefault(lang, set()).update(words(phrase))
        answer = set()
        for lang, ws in _by_lang(q.get("answer") or {}, where).items():
            answer |= _with_lemmas(ws, lang, stems)
        questions.append({"asks": q.get("asks", ""), "subject": bool(q.get("subject")), "phrases": phrases,
                          "kinds": list(q.get("kinds") or []),
                          "digits": bool(q.get("digits")), "answer": sorted(answer),
                          "not_kinds": list(q.get("not_kinds") or []), "names_kind": bool(q.get("names_kind")),
                          "not_after": sorted({fold(w) for ws in _by_lang(q.get("not_after") or {}, where).values()
                                               for w in ws})})
    synonyms = []
    for i, g in enumerate(raw.get("synonyms") or [], 1):
        where = f"synonyms #{i}"
        _provenance(g, where)
        group = set()
        for lang, ws in _by_lang(g.get("words"), where).items():
            group |= _with_lemmas(ws, lang, stems)
        synonyms.append(sorted(group))
    variants: dict[str, set[str]] = {}
    for i, g in enumerate(raw.get("variants") or [], 1):
        where = f"variants #{i}"
        _provenance(g, where)
        if not isinstance(g.get("entity"), str):
            raise LexiconError(f"kb/data/search.yaml {where}: needs the variant's entity id")
        for lang, ws in _by_lang(g.get("words"), where).items():
            variants.setdefault(g["entity"], set()).update(_with_lemmas(ws, lang, stems))
    restating = raw.get("restating") or {}
    if restating:
        _provenance(restating, "restating")
        if not isinstance(restating.get("chapters"), list) or not all(isinstance(c, str) for c in restating["chapters"]):
            raise LexiconError("kb/data/search.yaml restating: expected chapters, a list of entry ids")
    return {"stopwords": {lang: sorted(ws) for lang, ws in stops.items()}, "stems": stems, "questions": questions,
            "synonyms": synonyms, "variants": {e: sorted(ws) for e, ws in sorted(variants.items())},
            "restating": sorted(restating.get("chapters") or [])}


def _stem_rules(entry: dict) -> dict:
    """The stems section checked: per language its endings, longest first, and derivations."""
    if not entry:
        return {}
    _provenance(entry, "stems")
    least = entry.get("min", 3)
    if not isinstance(least, int) or least < 2:
        raise LexiconError("kb/data/search.yaml stems: min is a whole number of letters, 2 or more")
    out = {}
    for lang, rules in entry.items():
        if lang in ("min", *_PROVENANCE):
            continue
        if lang not in LANGS or not isinstance(rules, dict) or not set(rules) <= {"endings", "derivations",
                                                                                     "alternations"}:
            raise LexiconError(f"kb/data/search.yaml stems: {lang}: expected endings, derivations and alternations "
                               f"of one of {', '.join(LANGS)}")
        alternations = rules.get("alternations") or {}
        if not isinstance(alternations, dict):
            raise LexiconError(f"kb/data/search.yaml stems: {lang}: alternations map a stem's last letters to others")
        out[lang] = {key: sorted({fold(str(e)) for e in rules.get(key) or ()}, key=lambda e: (-len(e), e))
                     for key in ("endings", "derivations")} | {"min": least}
        out[lang]["alternations"] = sorted(([fold(str(a)), fold(str(b))] for a, b in alternations.items()),
                                           key=lambda ab: (-len(ab[0]), ab[0]))
    return out


STEM_MARK = "~"  # a stem is indexed as "noc~": never taken for a word of the texts


def stem(word: str, rules: dict | None) -> str | None:
    """The stem of a folded word by one language's rules (kb/data/search.yaml, stems), marked."""
    if not rules or word.isdigit():
        return None
    least = rules["min"]
    for key in ("endings", "derivations"):
        for ending in rules[key]:
            if word.endswith(ending) and len(word) - len(ending) >= least:
                word = word[:-len(ending)]
                break
    for before, after in rules.get("alternations", ()):  # "služebník" / "služebníci": both "sluzebnic"
        if word.endswith(before):
            word = word[:-len(before)] + after
            break
    return word + STEM_MARK


def aliases(raw: dict) -> list[tuple[str, str, str]]:
    """(entity id, language, form) of each alias of kb/data/search.yaml: names players give an entry."""
    out = []
    for i, a in enumerate(raw.get("aliases") or [], 1):
        where = f"aliases #{i}"
        _provenance(a, where)
        if not {"entity", "lang", "forms"} <= set(a) or a["lang"] not in LANGS:
            raise LexiconError(f"kb/data/search.yaml {where}: needs entity, lang (one of {', '.join(LANGS)}) and forms")
        out.extend((a["entity"], a["lang"], str(form)) for form in a["forms"])
    return out


def _read_yaml(path: Path, where: str):
    """A search data file's YAML (empty when the file is absent); malformed YAML is a LexiconError naming it."""
    if not path.is_file():
        return {}
    try:
        return yaml.load(path.read_text(encoding="utf-8"), Loader=YAML_LOADER) or {}  # noqa: S506 (a safe loader)
    except yaml.YAMLError as exc:
        raise LexiconError(f"{where} is not valid YAML: {exc}") from exc


def read_lexicon(path: Path = LEXICON) -> dict:
    return _read_yaml(path, "kb/data/search.yaml")


PLAYER_QUESTIONS = Path(__file__).parent / "data" / "player-questions.yaml"


def read_player_questions(path: Path = PLAYER_QUESTIONS) -> dict[tuple[str, str], list[str]]:
    """(entity id, language) -> the questions players ask that the entry answers, as written in
    kb/data/player-questions.yaml."""
    where = "kb/data/player-questions.yaml"
    raw = _read_yaml(path, where)
    if not isinstance(raw, dict) or not set(raw) <= {"entries", *_PROVENANCE}:
        raise LexiconError(f"{where}: expected origin, note and entries")
    if raw.get("entries"):
        _provenance(raw, "(top)", where)
    out: dict[tuple[str, str], list[str]] = {}
    for eid, by_lang in (raw.get("entries") or {}).items():
        for lang, qs in _by_lang(by_lang, str(eid), where).items():
            if qs:
                out[(str(eid), lang)] = qs
    return out


@dataclass
class Lexicon:
    """The compiled search vocabulary, as a search reads it from the database."""
    stopwords: dict[str, frozenset[str]] = field(default_factory=dict)  # lang -> folded stop words
    questions: list[dict] = field(default_factory=list)  # see compile_lexicon
    synonyms: dict[str, frozenset[str]] = field(default_factory=dict)  # word or lemma -> its group
    any_stop: frozenset[str] = frozenset()  # every language's stop words: for a query of no known language
    stem_rules: dict[str, dict] = field(default_factory=dict)  # lang -> its stems rules (see stem)
    restating: frozenset[str] = frozenset()  # the chapters that list again rules stated elsewhere (RESTATED)
    variants: dict[str, frozenset[str]] = field(default_factory=dict)  # variant entry -> more words naming it
    # the words of the question hints (`questions`), any language
    question_words: frozenset[str] = field(init=False, default=frozenset())
    # per language (None: any), the stop words a word typed wrong may be taken for (_stop_typos)
    typo_stops: dict[str | None, list[str]] = field(init=False, default_factory=dict)

    def __post_init__(self):
        self.question_words = frozenset(w for q in self.questions for phrase in q["phrases"] for w in phrase)
        for lang, ws in [*self.stopwords.items(), (None, self.any_stop)]:
            self.typo_stops[lang] = sorted(w for w in ws if len(w) >= STOP_TYPO_MIN)

    @classmethod
    def of(cls, compiled: dict) -> "Lexicon":
        stops = {lang: frozenset(ws) for lang, ws in compiled.get("stopwords", {}).items()}
        syn: dict[str, set[str]] = {}
        for group in compiled.get("synonyms", []):
            for w in group:
                syn.setdefault(w, set()).update(group)
        questions = [{**q, "answer": frozenset(q["answer"]), "kinds": frozenset(q["kinds"]),
                  "not_kinds": frozenset(q.get("not_kinds", ())), "names_kind": q.get("names_kind", False),
                  "not_after": frozenset(q.get("not_after", ()))}
                     for q in compiled.get("questions", [])]
        return cls(stops, questions, {w: frozenset(g) for w, g in syn.items()},
                   frozenset().union(*stops.values()) if stops else frozenset(), compiled.get("stems", {}),
                   frozenset(compiled.get("restating", ())),
                   {e: frozenset(ws) for e, ws in compiled.get("variants", {}).items()})

    def stems(self, word: str, lang: str | None = None) -> set[str]:
        """The stems of a folded word: by its language's rules, or by every language's when unknown."""
        found = {stem(word, self.stem_rules.get(lang_)) for lang_ in ([lang] if lang else self.stem_rules)}
        found.discard(None)
        return found

    def stops(self, lang: str | None) -> frozenset[str]:
        return self.stopwords.get(lang, frozenset()) if lang else self.any_stop

    def asked(self, toks: list[str]) -> list[dict]:
        """The question hints whose words stand, in order, in the query (not after a word of `not_after`:
        "na przykład" / "for example" is a filler, not a request for an example)."""
        found = []
        present = set(toks)
        for q in self.questions:
            after = q["not_after"]
            for phrase in q["phrases"]:
                if phrase[0] not in present:
                    continue  # most phrases: one set look-up instead of a scan of a long question
                n = len(phrase)
                if any(toks[i:i + n] == phrase and not (i and toks[i - 1] in after)
                       for i in range(len(toks) - n + 1)):
                    found.append(q)
                    break
        return found


# ---------------------------------------------------------------- index (part of `rulekb build`)

def _lex(text_: str, lang: str, seen: dict, lexicon: Lexicon) -> str:
    """Folded words followed by their lemmas and stems: what the index holds for one text."""
    out = []
    for w in _WORD.findall(text_):
        f = fold(w)
        ls = lemmas(w, lang) | lexicon.stems(f, lang) if not w.isdigit() else frozenset({f})
        entry = seen.setdefault(f, [set(), Counter()])
        entry[0].update(ls)
        entry[1][w.lower()] += 1
        out.append(f)
        out.extend(sorted(ls - {f}))
    return " ".join(out)


# "(zobacz strona 16)", "(viz strana 16)", "(see page 16)": a page reference printed inside a name
_PAGE_REF = re.compile(r"\((?:zobacz|viz|see)\s+(?:stron\w*|str\.?|page|p\.)\s*\d+\)", re.IGNORECASE)
# "Faza 1:", "Fáze 1:", "1. fáze:", "Phase 1:", "Krok 3:", "Step 3:": the numbering in front of a phase's or
# step's name, which a player leaves out ("ranní fáze" is the base game's "Fáze 1: Ranní fáze")
_NUMBERING = re.compile(r"^\s*(?:\d+\.?\s*)?(?:faza|faze|phase|krok|step)\s*\d*\.?\s*[:–-]\s*(?=\S)",
                        re.IGNORECASE)


def _phrases(name: str, forms: list[str]) -> str:
    """The names an entry is known by, folded, joined by '|': each as printed (page references and
    footnote stars dropped), without its counts ("7 kart akcji" is also "kart akcji"), and without
    the numbering of a phase or step."""
    out = []
    for p in [p for p in name.split(" / ")] + forms:
        p = _PAGE_REF.sub(" ", p)
        unnumbered = _NUMBERING.sub("", fold(p))
        for variant in (p, unnumbered):
            ws = words(variant)
            letters = [w for w in ws if not w.isdigit()]
            if letters:
                out.append(" ".join(letters))
                if len(letters) < len(ws):  # "buduj 1 mur": the printed count is part of the name too
                    out.append(" ".join(ws))
    return "|".join(dict.fromkeys(out))


def create_index(conn: Connection, lexicon: Path = LEXICON,
                 player_questions: dict[tuple[str, str], list[str]] | None = None) -> None:
    """The search index of the build's search documents, and the search vocabulary of `lexicon`
    (kb/data/search.yaml): its aliases indexed as glossary forms of their entities; and the questions
    players ask that each entry answers (`player_questions`, read_player_questions(); the committed ones
    when None), indexed as its words and kept apart."""
    raw = read_lexicon(lexicon)
    compiled = compile_lexicon(raw)
    lex = Lexicon.of(compiled)
    docs = conn.execute(text("SELECT id, entity_id, lang, name, body FROM searchdoc")).fetchall()
    # like an alias, a question of an entry this build lacks (a test's small knowledge base) asks for nothing;
    # that every one names an entry of the real knowledge base, its test checks
    asked_by = read_player_questions() if player_questions is None else player_questions
    forms: dict[tuple[str, str], list[str]] = {}
    for eid, lang, form in conn.execute(text("SELECT entity_id, lang, form FROM termform ORDER BY id")):
        forms.setdefault((eid, lang), []).append(form)
    for eid, lang, form in aliases(raw):  # an alias of an entity this build lacks names nothing
        forms.setdefault((eid, lang), []).append(form)
    # the entry a rule belongs to says what it is about: "PZ za Jadeit" is scored at the "Koniec gry",
    # "Rozwiązywanie remisu" settles the "Nagrody za Zjednoczenie"; its name counts as the rule's words
    parent = dict(conn.execute(text("SELECT id, parent_id FROM entity WHERE parent_id IS NOT NULL")).fetchall())
    titles = {(d.entity_id, d.lang): d.name for d in docs}
    # what the entry is known by beyond its own text, which may be thin (the project's Czech texts of the
    # games without a Czech rulebook are half the Polish ones): its names in the other languages, each
    # read in its own language, and the glossary forms of the terms it refers to, in its language
    names_by_lang: dict[str, list[tuple[str, str]]] = {}
    for d in docs:
        names_by_lang.setdefault(d.entity_id, []).append((d.lang, d.name))
    glossary: dict[str, list[str]] = {}
    for eid, target in conn.execute(text("SELECT r.entity_id, r.target_id FROM entityref r JOIN entity t "
                                         "ON t.id = r.target_id WHERE t.kind = 'term' ORDER BY r.id")):
        glossary.setdefault(eid, []).append(target)
    vocab: dict[str, list] = {}
    word_df: Counter = Counter()
    lemma_df: Counter = Counter()
    pair_df: Counter = Counter()
    rows = []
    for d in docs:
        body = words(d.body)
        pair_df.update({f"{a} {b}" for a, b in zip(body, body[1:])})
        seen: dict = {}
        fs = forms.get((d.entity_id, d.lang), [])
        named = f"{_lex(d.name, d.lang, seen, lex)} {_lex(' '.join(fs), d.lang, seen, lex)}"
        row = dict(id=d.id, names=" ".join(sorted(set(named.split()))), phrases=_phrases(d.name, fs))
        context = _lex(titles.get((parent.get(d.entity_id), d.lang), ""), d.lang, seen, lex)
        context += " " + " ".join(_lex(n, lang_, {}, lex) for lang_, n in names_by_lang.get(d.entity_id, ())
                                      if lang_ != d.lang)
        context += " " + " ".join(_lex(f"{titles.get((term, d.lang), '')} {' '.join(forms.get((term, d.lang), ()))}",
                                           d.lang, {}, lex) for term in glossary.get(d.entity_id, ()))
        questions = asked_by.get((d.entity_id, d.lang), ())
        context += " " + " ".join(_lex(q, d.lang, seen, lex) for q in questions)
        stops = lex.stops(d.lang)
        row["asked"] = "|".join(" ".join([*dict.fromkeys(w for w in words(q) if w not in stops),
                                           *sorted(ASKS_MARK + a for a in _asks(lex, q))]) for q in questions)
        row["words"] = " ".join(sorted(set(f"{named} {context} {_lex(d.body, d.lang, seen, lex)}".split())))
        rows.append(row)
        for f, (ls, spellings) in seen.items():
            entry = vocab.setdefault(f, [set(), Counter()])
            entry[0].update(ls)
            entry[1].update(spellings)
            word_df[f] += 1
        lemma_df.update({l for ls, _ in seen.values() for l in ls})
    # Each entry's words and lemmas (those of its names and glossary forms apart), read into memory
    # by vocab(): the index and the ranking, the same on both databases
    conn.execute(text("CREATE TABLE searchlex (id INTEGER PRIMARY KEY, phrases TEXT NOT NULL, names TEXT NOT NULL, "
                      "words TEXT NOT NULL, asked TEXT NOT NULL)"))
    if rows:
        conn.execute(text("INSERT INTO searchlex (id, phrases, names, words, asked) "
                          "VALUES (:id, :phrases, :names, :words, :asked)"), rows)
    conn.execute(text("CREATE TABLE searchvocab (word TEXT PRIMARY KEY, lemmas TEXT NOT NULL, df INTEGER NOT NULL, "
                      "spelling TEXT NOT NULL)"))
    conn.execute(text("CREATE TABLE searchlemma (lemma TEXT PRIMARY KEY, df INTEGER NOT NULL)"))
    conn.execute(text("CREATE TABLE searchpair (pair TEXT PRIMARY KEY, df INTEGER NOT NULL)"))
    if vocab:
        conn.execute(text("INSERT INTO searchvocab VALUES (:w, :l, :df, :s)"),
                     [dict(w=f, l=" ".join(sorted(ls)), df=word_df[f], s=sp.most_common(1)[0][0])
                      for f, (ls, sp) in vocab.items()])
        conn.execute(text("INSERT INTO searchlemma VALUES (:l, :df)"),
                     [dict(l=l, df=n) for l, n in lemma_df.items()])
    if pair_df:
        conn.execute(text("INSERT INTO searchpair VALUES (:p, :df)"), [dict(p=k, df=n) for k, n in pair_df.items()])
    conn.execute(text("CREATE TABLE searchlexicon (id INTEGER PRIMARY KEY, lexicon TEXT NOT NULL)"))
    conn.execute(text("INSERT INTO searchlexicon VALUES (1, :x)"), {"x": json.dumps(compiled, ensure_ascii=False)})


ASKS_MARK = "?"  # "?number": what a player question asks for, beside its words (never a word of a text)
# the kinds of answer a question word asks for that set two questions apart ("ile" and "co to jest" ask
# about one subject, a count and a definition); "question", and the subjects' kinds, say no more than the words
ANSWER_KINDS = frozenset({"number", "moment", "limit", "how", "effect"})


def _asks(lex: "Lexicon", question: str) -> set[str]:
    """The kinds of answer a question asks for, by its question words (kb/data/search.yaml, questions)."""
    return {q["asks"] for q in lex.asked(words(question))} & ANSWER_KINDS


def drop_index(conn: Connection) -> None:
    # search_fts and search_tsv: the database full-text indexes of earlier builds
    for table in ("search_fts", "search_tsv", "searchlex", "searchvocab", "searchlemma", "searchpair",
                  "searchlexicon"):
        conn.execute(text(f"DROP TABLE IF EXISTS {table}"))


# ---------------------------------------------------------------- the index, read once per build

@dataclass
class Doc:
    """One search document as the ranking reads it, its texts split into words once per process."""
    id: int
    entity_id: str
    game_id: str
    kind: str
    lang: str
    name: str
    body: str
    folded_body: str
    phrases: list[list[str]]  # each name or glossary form, as folded words
    words: frozenset[str]  # every indexed word and lemma of the entry
    names: frozenset[str]  # the words and lemmas of its names and glossary forms
    tokens: list[tuple[int, str]]  # (offset, folded word) of the body, in order
    body_words: frozenset[str]  # the distinct words of `tokens`
    kind_weight: float  # what its kind adds to any score (KIND_WEIGHT)
    length: float  # what its length takes away: a point per thousand characters, at most five
    has_number: bool = False  # its text states a number (what "ile", "kolik", "how many" ask for)
    variant: str | None = None  # the variant entry (gugong/variant/solo) whose rules it belongs to
    tf: Counter = field(default_factory=Counter)  # how often each word stands in its text
    refs: tuple[str, ...] = ()  # the entries an example illustrates (entityref), of a kind that states a rule
    restates: bool = False  # it stands in a chapter that lists again rules stated elsewhere (RESTATED)
    # each player question it answers: its content words, and the kinds of answer it asks for (ANSWER_KINDS)
    asked_by: list[tuple[list[str], frozenset[str]]] = field(default_factory=list)

    @property
    def weight(self) -> float:
        return self.kind_weight - self.length


def _doc(r) -> Doc:
    tokens = [(m.start(), m.group()) for m in _WORD.finditer(r.folded_body)]
    return Doc(r.id, r.entity_id, r.game_id, r.kind, r.lang, r.name, r.body, r.folded_body,
               [p.split() for p in r.phrases.split("|")] if r.phrases else [], frozenset(r.words.split()),
               frozenset(r.names.split()), tokens, frozenset(w for _, w in tokens),
               KIND_WEIGHT.get(r.kind, 5.0), min(5.0, len(r.folded_body) / 1000.0),
               any(w.isdigit() for _, w in tokens), _variant(r.game_id, r.scope), Counter(w for _, w in tokens),
               asked_by=[_asked(q.split()) for q in r.asked.split("|") if q] if r.asked else [])


def _asked(stored: list[str]) -> tuple[list[str], frozenset[str]]:
    """A player question as the index stores it ("ile pieter palac ?number"): its words, what it asks for."""
    return ([w for w in stored if not w.startswith(ASKS_MARK)],
            frozenset(w[len(ASKS_MARK):] for w in stored if w.startswith(ASKS_MARK)))


def _variant(game: str, scope: str | dict | None) -> str | None:
    """The variant entry a document's scope names: the rules of a variant, not of an expansion. (SQLite
    hands the JSON column over as text, PostgreSQL as a dict.)"""
    if isinstance(scope, str):
        scope = json.loads(scope)
    variants = (scope or {}).get("variants")
    return f"{game}/variant/{variants[0]}" if variants else None


@dataclass
class Vocab:
    lemmas: dict[str, frozenset[str]]  # folded word -> folded lemmas
    spelling: dict[str, str]  # folded word -> its commonest spelling (for "did you mean")
    df: dict[str, int]  # folded word -> documents containing it
    lemma_df: dict[str, int]
    words: list[str]  # sorted, for prefixes
    pairs: dict[str, int]  # "word word" -> documents holding it
    docs: dict[int, Doc]  # every search document, by id
    by_lemma: dict[str, set[str]] = field(default_factory=dict)  # folded lemma -> words that have it
    # the inverted index: indexed string (word or lemma) -> ids of the documents that hold it, in any
    # text or in a name; its keys sorted, for prefixes
    holding: dict[str, frozenset[int]] = field(default_factory=dict)
    naming: dict[str, frozenset[int]] = field(default_factory=dict)
    indexed: list[str] = field(default_factory=list)
    facets: dict[tuple[str, str], frozenset[int]] = field(default_factory=dict)  # ("game", "gugong") -> ids
    entity_of: dict[int, str] = field(default_factory=dict)  # document id -> its entity
    by_entity: dict[tuple[str, str], Doc] = field(default_factory=dict)  # (entity, language) -> its document
    order: list[int] = field(default_factory=list)  # document id -> its rank among equals (_candidates)
    entity_no: list[int] = field(default_factory=list)  # document id -> a number of its entity (counting entries)
    per_entity: int = 1  # the most documents an entity has (one per language)
    # the words sorted by length (then spelling) and their lengths: a typo's neighbours within k edits
    # are at most k letters longer or shorter, so the fuzzy scan reads one slice, not every word
    by_length: list[str] = field(default_factory=list)
    lengths: list[int] = field(default_factory=list)
    terms: dict[str, "Term"] = field(default_factory=dict)  # query word -> what it matches (see _term)
    variant_names: dict[str, frozenset[str]] = field(default_factory=dict)  # variant entry -> its names' words
    avg_length: float = 1.0  # the mean number of words of a text (BM25)
    lexicon: Lexicon = field(default_factory=Lexicon)

    def __post_init__(self):
        for w, ls in self.lemmas.items():
            for lemma in ls:
                self.by_lemma.setdefault(lemma, set()).add(w)
        holding: dict[str, set[int]] = {}
        naming: dict[str, set[int]] = {}
        facets: dict[tuple[str, str], set[int]] = {}
        for d in self.docs.values():
            for w in d.words:
                holding.setdefault(w, set()).add(d.id)
            for w in d.names:
                naming.setdefault(w, set()).add(d.id)
            for facet in (("game", d.game_id), ("lang", d.lang), ("kind", d.kind)):
                facets.setdefault(facet, set()).add(d.id)
        self.holding = {w: frozenset(ids) for w, ids in holding.items()}
        self.naming = {w: frozenset(ids) for w, ids in naming.items()}
        self.facets = {f: frozenset(ids) for f, ids in facets.items()}
        self.indexed = sorted(self.holding)
        self.entity_of = {d.id: d.entity_id for d in self.docs.values()}
        self.by_entity = {(d.entity_id, d.lang): d for d in self.docs.values()}
        named_variants: dict[str, set[str]] = {}
        for d in self.docs.values():
            if d.kind == "variant":
                named_variants.setdefault(d.entity_id, set()).update(d.names)
        for e, ws in self.lexicon.variants.items():
            named_variants.setdefault(e, set()).update(ws)
        self.variant_names = {e: frozenset(ws) for e, ws in named_variants.items()}
        self.avg_length = sum(len(d.tokens) for d in self.docs.values()) / (len(self.docs) or 1)
        # a cheap order of candidates, and each document's entity as a number: lists indexed by document
        # id, read in C by map() and heapq (at ten times the index a dict of tuples was a third of _candidates)
        top = max(self.docs, default=0) + 1
        self.order = [0] * top
        for n, d in enumerate(sorted(self.docs.values(), key=lambda d: (-d.weight, d.id))):
            self.order[d.id] = n
        numbers: dict[str, int] = {}
        self.entity_no = [0] * top
        for d in self.docs.values():
            self.entity_no[d.id] = numbers.setdefault(d.entity_id, len(numbers))
        self.per_entity = max(Counter(d.entity_id for d in self.docs.values()).values(), default=1)
        self.by_length = sorted(self.words, key=lambda w: (len(w), w))
        self.lengths = [len(w) for w in self.by_length]

    def of_length(self, low: int, high: int) -> list[str]:
        """The words of `low` to `high` letters."""
        return self.by_length[bisect.bisect_left(self.lengths, low):bisect.bisect_right(self.lengths, high)]

    @property
    def size(self) -> int:
        return len(self.docs)

    def idf(self, n: int) -> float:
        return math.log(1 + self.size / (1 + n))


_DOCS = text("SELECT d.id, d.entity_id, d.game_id, d.kind, d.lang, d.name, d.body, d.folded_body, x.phrases, "
             "x.names, x.words, x.asked, e.scope FROM searchdoc d JOIN searchlex x ON x.id = d.id "
             "JOIN entity e ON e.id = d.entity_id")
# what an entry refers to, then its parent, when that states a rule (see _families)
_REFS = text("SELECT f.entity_id, f.target_id FROM (SELECT id AS n, entity_id, target_id FROM entityref "
             "UNION ALL SELECT 1000000000, id, parent_id FROM entity WHERE parent_id IS NOT NULL) f "
             "JOIN entity t ON t.id = f.target_id WHERE t.kind IN ('rule', 'scoring-rule', 'phase', 'step', "
             "'event', 'action', 'court-action', 'location', 'decree', 'reward') ORDER BY f.entity_id, f.n")
_VOCABS: dict[tuple[str, str], Vocab] = {}  # (database URL, build) -> its vocabulary
# engine -> (when its build was last asked for, that build's vocabulary)
_CHECKED: "weakref.WeakKeyDictionary[Engine, tuple[float, Vocab]]" = weakref.WeakKeyDictionary()


def _stubs_yield(docs) -> None:
    """A glossary term with no text of its own yields STUB_YIELDS of its kind's weight to the entry of its game
    and language printed under the same name with a text: the rule or the location says what it is."""
    named = {(d.game_id, d.lang, fold(d.name).strip()) for d in docs if d.kind != "term" and d.body.strip()}
    for d in docs:
        if d.kind == "term" and not d.body.strip() and (d.game_id, d.lang, fold(d.name).strip()) in named:
            d.kind_weight -= STUB_YIELDS


def vocab(engine: Engine) -> Vocab:
    """The knowledge base's words, lemmas and search documents, read once per database and build
    (0.5-0.8 s for this knowledge base and its player questions). Whether there is a new build is asked at most
    once per RECHECK_SECONDS per engine, as the API does (ARCHITECTURE.md, "API"): nearly every
    search then opens no connection at all."""
    checked = _CHECKED.get(engine)
    if checked and time.monotonic() - checked[0] < RECHECK_SECONDS:
        return checked[1]
    return read_index(engine)


def read_index(engine: Engine) -> Vocab:
    """The index of the build the database holds now, without `vocab`'s once-a-second shortcut: for a
    caller that notices new builds itself (the API's reader), which would otherwise be handed the
    previous build's index for up to a second after it saw the new one, and keep it."""
    with engine.connect() as conn:
        return _read_vocab(conn)


def _read_vocab(conn: Connection) -> Vocab:
    built = conn.execute(text("SELECT value FROM buildinfo WHERE key = 'build'")).scalar() or ""
    key = (conn.engine.url.render_as_string(hide_password=False), built)
    if key not in _VOCABS:
        rows = conn.execute(text("SELECT word, lemmas, df, spelling FROM searchvocab")).fetchall()
        lemma_df = dict(conn.execute(text("SELECT lemma, df FROM searchlemma")).fetchall())
        pairs = dict(conn.execute(text("SELECT pair, df FROM searchpair")).fetchall())
        docs = {d.id: d for d in map(_doc, conn.execute(_DOCS))}
        refs: dict[str, list[str]] = {}
        for eid, target in conn.execute(_REFS):
            refs.setdefault(eid, []).append(target)
        for d in docs.values():
            if d.kind in FAMILY_KINDS:
                d.refs = tuple(refs.get(d.entity_id, ()))
            elif d.kind in EFFECT_KINDS:
                d.refs = tuple(refs.get(d.entity_id, ())[:1])
        _stubs_yield(docs.values())
        lexicon = Lexicon.of(json.loads(conn.execute(text("SELECT lexicon FROM searchlexicon")).scalar() or "{}"))
        if lexicon.restating:
            parent = dict(conn.execute(text("SELECT id, parent_id FROM entity")).fetchall())
            for d in docs.values():
                node = d.entity_id
                while node and node not in lexicon.restating:
                    node = parent.get(node)
                d.restates = node is not None
        if len(_VOCABS) > 8:
            _VOCABS.clear()
        _VOCABS[key] = Vocab({w: frozenset(l.split()) for w, l, _, _ in rows}, {w: s for w, _, _, s in rows},
                             {w: n for w, _, n, _ in rows}, lemma_df, sorted(r[0] for r in rows), pairs, docs,
                             lexicon=lexicon)
    _CHECKED[conn.engine] = (time.monotonic(), _VOCABS[key])
    return _VOCABS[key]


# ---------------------------------------------------------------- query terms

@dataclass
class Term:
    """One query word and what it may match in the index."""
    word: str  # folded
    exact: set[str]  # folded words and lemmas that are this word
    fuzzy: set[str]  # words of the knowledge base within the typo tolerance, and their lemmas
    known: bool  # the word or one of its lemmas is in the knowledge base
    idf: float
    correction: str | None = None  # the likeliest intended word, for "did you mean"
    prefixed: frozenset[str] = frozenset()  # words of the knowledge base that start with this word
    exact_words: set[str] = field(default_factory=set, repr=False)
    stem_words: set[str] = field(default_factory=set, repr=False)
    fuzzy_words: set[str] = field(default_factory=set, repr=False)
    prefix: bool = False  # matches the indexed strings it begins (3+ letters, not a number)
    # ids of the documents that hold one of its strings: anywhere, in a name, and as whole strings only
    found_in: frozenset[int] = field(default=frozenset(), repr=False)
    named_in: frozenset[int] = field(default=frozenset(), repr=False)
    whole_in: frozenset[int] = field(default=frozenset(), repr=False)
    # ... and, for the ranking, the documents whose words hold the word, its forms or its completions
    # (held_in), a typo's neighbours (near_in), and whose names hold a word it matches (name_in): a
    # set look-up per document instead of intersecting its words with each term's (the ranking's cost at
    # ten times the index)
    held_in: frozenset[int] = field(default=frozenset(), repr=False)
    near_in: frozenset[int] = field(default=frozenset(), repr=False)
    name_in: frozenset[int] = field(default=frozenset(), repr=False)

    def expand(self, v: Vocab) -> "Term":
        """The knowledge base's words that match: each of them, and any word that has one of the lemmas."""
        # the word may itself be a lemma ("remis", "zed"): its inflections ("remisu", "zdi") are its words too
        lemmas_ = {x for x in self.exact if not x.endswith(STEM_MARK)} | {self.word}
        self.exact_words = {self.word} | self.exact | {w for lemma in lemmas_ for w in v.by_lemma.get(lemma, ())}
        # a word sharing only a stem is a form of the word as far as the endings tell: a name holding it
        # matches like one the query begins, below a shared dictionary form
        self.stem_words = {w for x in self.exact - lemmas_ for w in v.by_lemma.get(x, ())} - self.exact_words
        self.fuzzy_words = self.fuzzy | {w for l in self.fuzzy for w in v.by_lemma.get(l, ())}
        self.prefix = len(self.word) >= MIN_PREFIX and not self.word.isdigit()
        whole = {self.word} | self.exact | set(sorted(self.fuzzy)[:MAX_FUZZY])
        begun = set(_begun(self.word, v.indexed)) if self.prefix else set()
        self.whole_in = _union(v.holding, whole)
        self.found_in = self.whole_in | _union(v.holding, begun - whole)
        self.named_in = _union(v.naming, whole | begun)
        self.held_in = _union(v.holding, {self.word} | self.exact | self.prefixed)
        self.near_in = _union(v.holding, self.fuzzy)
        completions = set(_begun(self.word, v.words)) if self.prefix else set()
        self.name_in = _union(v.naming, self.exact_words | self.stem_words | self.fuzzy_words | completions)
        return self


def _union(index: dict[str, frozenset[int]], strings) -> frozenset[int]:
    found: set[int] = set()
    for w in strings:
        found.update(index.get(w, ()))
    return frozenset(found)


STEM = 5  # the shortest stem a long query word is cut to (see _prefixed)
MAX_PREFIXED = 200  # a prefix with more completions than this adds none of them to the coverage test


def _beginning_with(w: str, strings: list[str]) -> list[str]:
    """The strings of a sorted list that begin with w (w itself included)."""
    return strings[bisect.bisect_left(strings, w):bisect.bisect_left(strings, w + "\U0010ffff")]


def _prefixed(w: str, v: Vocab) -> frozenset[str]:
    """The words of the knowledge base that begin with w or, for a long word, with its stem: the word
    less its last three letters, at least STEM letters ("vyhodnocuje" meets "vyhodnocení", "sąsiadują"
    meets "sąsiadujące"), where the lemmatizers give a verb and a noun different lemmas."""
    found = _begun(w, v.words)
    return frozenset(found) if len(found) <= MAX_PREFIXED else frozenset()


def _begun(w: str, strings: list[str]) -> list[str]:
    """The strings of a sorted list that begin with w or, when w is long, with its stem (_prefixed)."""
    return _beginning_with(w[:-3] if len(w) - 3 >= STEM else w, strings)


def _term(raw: str, v: Vocab) -> Term:
    """What a query word may match; worked out once per word and build (three lemmatizers and a
    fuzzy scan of the vocabulary are the costly part of a short query)."""
    if raw not in v.terms:
        if len(v.terms) > 20000:
            v.terms.clear()
        v.terms[raw] = _new_term(raw, v)
    return replace(v.terms[raw])  # a copy: a query may lower its idf (see _collocations)


# Czech and Polish write a negation into the verb or adjective ("neprovést", "nedostanu", "niewykorzystany"): a
# negated word the knowledge base does not print is looked up as the word it negates (the rules say "bez akce",
# "nie może" apart, which the word then meets); a word the texts print ("neobydlený") stays itself
NEGATIONS = ("nie", "ne")
NEGATED_MIN = 4  # letters left after the negation


def _new_term(raw: str, v: Vocab) -> Term:
    term = _plain_term(raw, v)
    if not term.known:
        w = term.word
        for neg in NEGATIONS:
            if w.startswith(neg) and len(w) - len(neg) >= NEGATED_MIN:
                base = _plain_term(raw[len(neg):], v)
                return base if base.known else term
    return term


def _plain_term(raw: str, v: Vocab) -> Term:
    w = fold(raw)
    exact = set(v.lemmas.get(w, ()))
    # the query's language is unknown: every lemmatizer may add a dictionary form; one the texts never print
    # may still be a synonym's ("dziewiątkę": "dziewiątka", the 9 of the texts)
    forms = set().union(*(lemmas(raw, lang) for lang in LANGS)) if not w.isdigit() else set()
    exact |= {l for l in forms if l in v.lemma_df}
    # a word is known when the knowledge base has it, a dictionary form of it or a synonym; a stem alone
    # ("sluzaci" shares one with "służący") finds its family but still gets a did-you-mean
    known = w in v.df or bool(exact)
    # every stem of the word, the knowledge base's or not: an inflection of a player's synonym the texts never
    # print ("gubernatorów", "guvernéra", "hradbu") meets the synonym's group through its stem
    all_stems = v.lexicon.stems(w) if not w.isdigit() else set()
    stems = {s for s in all_stems if s in v.lemma_df}
    # a synonym ("vp" for "pz", "remíza" for "remis") matches as the word itself
    for key in [w, *exact, *forms, *all_stems]:
        found = {s for s in v.lexicon.synonyms.get(key, ()) if s in v.lemma_df or s in v.df}
        if key in all_stems:  # a stem's synonyms are stems too: a form, not the word
            found = {s for s in found if s.endswith(STEM_MARK)}
        elif found:
            known = True  # a synonym's word is a word the knowledge base knows
        exact |= found
    exact |= stems
    exact.discard(w)
    fuzzy: set[str] = set()
    correction = None
    k = max_edits(w)
    if w not in v.df and k:  # a lemmatizer guesses for any word, so a typo may still get a lemma
        close = process.extract(w, v.of_length(len(w) - k, len(w) + k), scorer=OSA.distance, score_cutoff=k, limit=20)
        close.sort(key=lambda c: (c[1], -v.df.get(c[0], 0)))
        close = [c for c in close if c[1] == close[0][1]] if close else []  # the nearest words only
        for word, _, _ in close:
            fuzzy.add(word)
            fuzzy |= v.lemmas.get(word, frozenset())
        if close:
            correction = v.spelling.get(close[0][0], close[0][0])
    df = max([v.df.get(w, 0)] + [v.lemma_df.get(l, 0) for l in exact] + [v.df.get(f, 0) for f in fuzzy])
    return Term(w, exact, fuzzy, known, v.idf(df), correction,
                _prefixed(w, v) if len(w) >= MIN_PREFIX and not w.isdigit() else frozenset()).expand(v)


def _collocations(terms: list[Term], v: Vocab) -> list[Term]:
    """A word that nearly always follows the query's previous word in the texts ("end of *game*",
    "konci *hry*") says little the previous word has not said: its weight becomes what it adds,
    log(1 + df(previous) / (1 + df(previous, word))), when that is less than its own idf. Otherwise
    a two-word stock phrase outweighs the one word that names the subject ("nefrit")."""
    for a, b in zip(terms, terms[1:]):
        both, before = v.pairs.get(f"{a.word} {b.word}", 0), v.df.get(a.word, 0)
        if both and before:
            b.idf = min(b.idf, math.log(1 + before / (1 + both)))
    return terms


def query_tokens(q: str) -> tuple[list[str], list[str]]:
    """Folded words of a query, and warnings about what was dropped."""
    toks, _, warnings = _query_words(q)
    return toks, warnings


def _query_words(q: str) -> tuple[list[str], list[str], list[str]]:
    warnings = []
    raw = list(dict.fromkeys(_WORD.findall(q)))
    seen, toks, raws = set(), [], []
    for r in raw:
        f = fold(r)
        if f not in seen:
            seen.add(f)
            toks.append(f)
            raws.append(r)
    if len(toks) > MAX_TOKENS:
        warnings.append(N_("only the first 40 words of the query were used"))
        toks, raws = toks[:MAX_TOKENS], raws[:MAX_TOKENS]
    if q.strip() and not toks:
        warnings.append(N_("the query has no letters or digits to search for"))
    return toks, raws, warnings


# ---------------------------------------------------------------- results

@dataclass
class Hit:
    id: str
    game: str
    kind: str
    lang: str
    name: str
    snippet: str
    highlights: list[tuple[int, int]]
    score: float
    explain: dict | None = None


@dataclass
class Result:
    query: str
    tokens: list[str]
    hits: list[Hit]
    total: int
    warnings: list[str] = field(default_factory=list)
    suggestion: str | None = None  # "did you mean": the query with its unknown words corrected


def search(engine: Engine, q: str, *, game: str | None = None, lang: str | None = None, kind: str | None = None,
           limit: int = 20, offset: int = 0, explain: bool = False, index: Vocab | None = None) -> Result:
    """The ranked hits of a query; `index`: the engine's index (`read_index`), when the caller holds it."""
    toks, raws, warnings = _query_words(q)
    if not toks:
        return Result(q, toks, [], 0, warnings)
    v = index or vocab(engine)
    stops = v.lexicon.stops(lang)
    toks, stop_fixes = _stop_typos(toks, raws, lang, v)
    asked = v.lexicon.asked(toks)
    content = [r for tok, r in zip(toks, raws) if tok not in stops]
    if not content:  # only stop words ("A", "how"): looked up as typed
        content, asked = raws, []
    terms = _collocations([_term(r, v) for r in content], v)
    rows, all_words, total = _candidates(v, terms, game, lang, kind, offset + limit)
    match = _Matcher(terms, v, asked)
    # the answer to a question or description of more than SOME_WORDS_NOTED words seldom holds every one of them:
    # saying so each time would be noise
    if rows and not all_words and len(terms) > 1 and not (
            (match.question or match.description) and len(terms) > SOME_WORDS_NOTED):
        warnings.append(N_("no entry contains all the words; showing entries that contain some of them"))
    if match.question or match.description or match.effect:
        rows = _with_effects(rows, v)
    ranked = _rank(rows, match)
    page = ranked[offset:offset + limit]
    hits = []
    for s in page:
        r = s["row"]
        snip, marks = snippet(r.name, r.body, match, r.folded_body, r.tokens)
        hits.append(Hit(r.entity_id, r.game_id, r.kind, r.lang, r.name, snip, marks, round(s["score"], 3),
                        _explained(s) if explain else None))
    return Result(q, toks, hits, total, warnings, _suggestion(raws, dict(zip(content, terms)), stop_fixes))


def _with_effects(rows: list[Doc], v: Vocab) -> list[Doc]:
    """The candidates and, for a person among them, the rule it does (EFFECT_KINDS) in its language, which
    may not hold the query's words: the Czech research action does not name the "učenec" who does it."""
    have = {(r.entity_id, r.lang) for r in rows}
    added = [v.by_entity[key] for r in rows if r.kind in EFFECT_KINDS and r.refs
             for key in [(r.refs[0], r.lang)] if key not in have and key in v.by_entity]
    return rows + list({d.id: d for d in added}.values())


def _stop_typos(toks: list[str], raws: list[str], lang: str | None, v: Vocab) -> tuple[list[str], dict[int, str]]:
    """The query's words with each one the knowledge base neither holds nor has a typo's neighbour of, but one
    typo from a stop word of the query's language, taken for that word ("how mcuh"): a question word typed
    fast, which would otherwise be a content word no entry holds. A word as near a word of the texts stays
    ("wal": "wall" or "was"; "kolk": "kolo" or "kolik"). Returns the words and the fixes by position."""
    fixes: dict[int, str] = {}
    stops = v.lexicon.stops(lang)
    for i, (tok, raw) in enumerate(zip(toks, raws)):
        if len(tok) < STOP_TYPO_MIN or tok in stops or tok.isdigit() or tok in v.df:
            continue
        found = process.extract(tok, v.lexicon.typo_stops.get(lang, ()), scorer=OSA.distance, score_cutoff=1,
                                limit=None)
        if not found or _term(raw, v).known:
            continue
        if process.extractOne(tok, [w for w in v.of_length(len(tok) - 1, len(tok) + 1) if w not in stops],
                              scorer=OSA.distance, score_cutoff=1):
            continue  # as near a word of the texts
        # at one typo from two ("wat": "what", "want"), the question word
        fixes[i] = min((d, s not in v.lexicon.question_words, s) for s, d, _ in found)[2]
    return [fixes.get(i, tok) for i, tok in enumerate(toks)], fixes


def _suggestion(raws: list[str], terms: dict[str, "Term"], stop_fixes: dict[int, str] | None = None) -> str | None:
    """"Did you mean": the query with each word found nowhere in the knowledge base (nor a stop word)
    replaced by its nearest word, and each question word typed wrong by that word; none when nothing would
    change."""
    fixed = [(stop_fixes or {}).get(i) or (terms[r].correction if r in terms and not terms[r].known
                                           and terms[r].correction else r) for i, r in enumerate(raws)]
    return " ".join(fixed) if [fold(w) for w in fixed] != [fold(r) for r in raws] else None


def _explained(scored: dict) -> dict:
    """The parts of a hit's score as shown to a reader: numbers to two decimals, and the total."""
    parts = {k: round(x, 2) if isinstance(x, float) else x for k, x in scored["explain"].items()}
    return {**parts, "total": round(scored["score"], 2)}


def _candidates(v: Vocab, terms: list[Term], game, lang, kind, depth: int) -> tuple[list[Doc], bool, int]:
    """Documents that may answer the query, whether some entry contains every word, and how many
    entries match in all. `terms` are the query's content words (stop words are dropped before).

    Every word must match, but words in one document in twenty or more ("gra", "hra") are left to the
    ranking: they hardly narrow the set. When fewer than twenty entries hold all the words, a question
    or description also gets the entries that hold one of its rare content words or two of any, of its
    CANDIDATE_WORDS rarest (so "ile żetonów podróży mogę trzymać" does not leave only the texts with a
    word like "trzymaj"), and
    a text that says it differently still competes. Past CANDIDATES (or three documents for each of the first
    `depth` entries, so a later page is ranked too), those holding every word and naming it come first,
    then those holding every word, then two of them; in the tier that overflows, those holding more of
    the query's weight, then the kinds a player looks up and short texts (what the ranking would add for
    them anyway), so a query of one common word ranks two hundred documents, not two thousand, and a
    question of twenty words keeps the texts holding most of them (ordered by kind and length alone, the
    answer to one in fifteen of the full-sentence questions of questions-4 was cut)."""
    allowed = None
    for facet in (("game", game), ("lang", lang), ("kind", kind)):
        if facet[1]:
            ids = v.facets.get(facet, frozenset())
            allowed = ids if allowed is None else allowed & ids
    needed = [item for item in terms if item.idf >= COMMON_IDF] or terms
    every = frozenset.intersection(*(item.found_in for item in needed))
    if allowed is not None:
        every &= allowed
    named = frozenset.intersection(*(item.named_in for item in needed)) & every
    found, multi = set(every), set()
    # fewer than twenty entries hold every word (counted only when that many documents could be fewer)
    if len(terms) > 1 and (len(every) < 20 * v.per_entity and len(set(map(v.entity_no.__getitem__, every))) < 20):
        # whole words only: as prefixes, short words ("pri") would match a good part of the index. A
        # rare word alone brings its documents (every word does when no rare one is found anywhere); a
        # common one those that hold another of the words too
        picked = sorted(terms, key=lambda item: -item.idf)[:CANDIDATE_WORDS]
        alone = [item for item in picked if item.idf >= COMMON_IDF and item.whole_in] or picked
        # each pair's sets are cut to the allowed documents first: at ten times the index, intersecting
        # two common words' whole sets for every pair of a long question was most of a query's time
        whole = [item.whole_in if allowed is None else item.whole_in & allowed for item in picked]
        for k, item in enumerate(picked):
            if any(item is a for a in alone):
                found |= whole[k]
            for j in range(k + 1, len(picked)):
                multi |= whole[k] & whole[j]
        found |= multi
    entities = len(set(map(v.entity_no.__getitem__, found)))
    keep = max(CANDIDATES, 3 * depth)  # an entry has a document per language
    if len(found) <= keep:
        ids = sorted(found)
    else:
        # in tiers made by set operations: those holding every word and naming it, those holding every
        # word, those holding two of the words, the rest; only the tier that overflows is ordered, by
        # what its kind and length add (v.order: a key looked up in C, no Python call per document)
        ids = []
        for tier in (named, every - named, multi - every, found - every - multi):
            room = keep - len(ids)
            if len(tier) > room:
                if len(terms) > 1:  # those holding more of its rare words' weight first (one word: all hold it)
                    held: Counter = Counter()
                    for item in needed:
                        for d in item.found_in & tier:
                            held[d] -= item.idf
                    first = heapq.nsmallest(room, held, key=lambda d: (held[d], v.order[d]))
                    ids.extend(first)
                    room -= len(first)
                    tier = tier.difference(held)
                ids.extend(heapq.nsmallest(room, tier, key=v.order.__getitem__))
                break
            ids.extend(sorted(tier))
    return [v.docs[i] for i in ids], bool(every), entities


def _rank(rows: list[Doc], match: "_Matcher") -> list[dict]:
    """Each entity's best document, scored, best first; equal scores go to the document covering more
    of the query, then the kind a player looks up, then the shorter name. The explanation's parts are
    rounded only when shown (see _explained)."""
    terms, total_idf = match.terms, match.total_idf
    sets = [(item, item.held_in, item.near_in) for item in terms]
    named = frozenset().union(*(item.name_in for item in terms))
    scored = []
    for r in rows:
        parts: dict = {}
        name = _name_score(r.phrases, match, parts) if r.id in named else parts.update(name=0.0, name_match="none") or 0.0
        asked = match.question or (match.description and name < NAME_LEVEL_SCORE[FUZZY])
        if asked:
            name = min(name, QUESTION_NAME_CAP)
        kind = QUESTION_KIND_WEIGHT.get(r.kind, r.kind_weight) if asked else r.kind_weight
        # a name lookup earns the text's full weight for holding the word; a question of one content word ("how
        # many rounds are there") asks for the text most about it, which BM25 tells apart
        lookup = (len(terms) == 1 and not asked) or name >= NAME_LEVEL_SCORE[FUZZY]
        text_, share, missing = _relevance(r, match, sets, lookup)
        hint = _hint(r, match.asked)
        # ... and a base rule loses it when the query says it is about a variant of its game ("Meng")
        variant = -VARIANT_PRIOR if (r.variant and r.variant not in match.variants) or (
            not r.variant and r.game_id in match.marked) else 0.0
        restated = -RESTATED if r.restates else 0.0
        # a name lookup is answered by the name: a player question saying the name ("what is a double servant")
        # would only tie the entries that have one
        player = _player_question(r.asked_by, match, parts) if r.asked_by and asked else 0.0
        parts["asked"] = bool(asked)
        parts.update(name=name, text=text_, coverage=share, every_word=not missing, question=hint, kind=kind,
                     length=-r.length, variant=variant, restated=restated, player_question=player)
        score = name + text_ + hint + kind - r.length + variant + restated + player
        scored.append({"row": r, "score": score, "explain": parts})
    scored.sort(key=lambda s: -s["score"])
    for s in scored[:PROXIMITY_DEPTH]:
        # closeness in the text ranks prose; an entry named by the whole query needs no help from it
        whole_name = not match.question and s["explain"]["name"] >= NAME_LEVEL_SCORE[FUZZY] + 30
        p = _proximity(s["row"], match) if len(terms) > 1 and not whole_name else 0.0
        s["explain"].update(proximity=p)
        s["score"] += p
    best: dict[str, dict] = {}
    for s in scored:  # an entity has one document per language: the best one speaks for it
        e = s["row"].entity_id
        if e not in best or s["score"] > best[e]["score"]:
            best[e] = s
    _families(best, match)
    # equal scores go to the text more about the query, then the closer words, then the kind a player
    # looks up and the shorter name; the id last, so the order is the same every time
    ranked = sorted(best.values(), key=lambda s: (-round(s["score"], 6), -round(s["explain"]["text"], 6),
                                                  -s["explain"].get("proximity", 0.0), -s["row"].kind_weight,
                                                  len(s["row"].name), s["row"].entity_id))
    return _diverse(ranked)


def _diverse(ranked: list[dict]) -> list[dict]:
    """The first DIVERSE results less those repeating a better one's text, then those, then the rest."""
    kept: list[dict] = []
    repeated: list[dict] = []
    for s in ranked[:DIVERSE]:
        words = s["row"].body_words
        if words and any(len(words & k["row"].body_words) >= SAME_TEXT * len(words | k["row"].body_words)
                         for k in kept):
            s["explain"]["repeats_text"] = True
            repeated.append(s)
        else:
            kept.append(s)
    return kept + repeated + ranked[DIVERSE:]


def _families(best: dict[str, dict], match: "_Matcher") -> None:
    """An example's score, and FAMILY_GAP, for the rule it illustrates (the one of its references the
    query matches scoring best), when that is more than the rule's own."""
    for s in [s for s in best.values() if s["row"].refs]:
        row = s["row"]
        if row.kind in EFFECT_KINDS and not (s["explain"]["asked"] or match.effect):
            continue  # a person looked up by name is the answer itself
        if row.kind in match.named_kinds:
            continue  # the query names this kind ("příklad ...": the example itself, not its rule)
        targets = [ref for ref in row.refs if ref in best]  # a rule the query does not match stays out (paging)
        if not targets:
            continue
        target = max(targets, key=lambda ref: best[ref]["score"])
        lifted = s["score"] + FAMILY_GAP
        if best[target]["score"] < lifted:
            best[target]["score"] = lifted
            best[target]["explain"]["family"] = row.entity_id


def _relevance(doc: Doc, match: "_Matcher", sets: list, lookup: bool) -> tuple[float, float, int]:
    """How much of the query the entry's words hold, and how much its text is about them: one score.

    Each query word earns its weight (idf) when the entry holds it (half for a typo's neighbour), times
    TEXT_FLOOR plus the rest by BM25's saturation of how often the text says it for its length: a word
    in the name or the parent's title only earns TEXT_FLOOR of it, a text that keeps coming back to it
    all of it. A name lookup (one word, or the whole name) earns the full weight on holding the word:
    the entry of that name answers it, not the texts that repeat it. Holding every word of a query of
    several adds COVER_ALL. Returns the points (TEXT + COVER_ALL at most), the share of the query's
    weight held, and how many query words the entry lacks."""
    weights, missing = [], 0
    for item, held, near in sets:
        if doc.id in held:
            weights.append(item.idf)
        elif doc.id in near:
            weights.append(item.idf / 2)
        else:
            weights.append(0.0)
            missing += 1
    held = sum(weights)
    whole = COVER_ALL if len(weights) > 1 and not missing else 0.0
    if lookup or not held:
        return TEXT * held / match.total_idf + whole, held / match.total_idf, missing
    tf = [0] * len(weights)
    which = match.which
    for w in doc.body_words & which.keys():
        for k in which[w]:
            tf[k] += doc.tf[w]
    norm = BM25_K1 * (1 - BM25_B + BM25_B * len(doc.tokens) / match.avg_length)
    got = sum(weight * (TEXT_FLOOR + (1 - TEXT_FLOOR) * n / (n + norm)) for weight, n in zip(weights, tf))
    return TEXT * got / match.total_idf + whole, held / match.total_idf, missing


def _hint(doc: Doc, asked: list[dict]) -> float:
    """What a question word ("ile", "kdy", "when") adds to a document that has the kind of answer it asks
    for: a number or a cost, a phase or a moment (kb/data/search.yaml, questions)."""
    points = 0.0
    for q in asked:
        if q["names_kind"] and doc.kind in q["kinds"]:
            points += KIND_NAMED
        elif doc.kind in q["kinds"] or (q["digits"] and doc.has_number) or not q["answer"].isdisjoint(doc.words):
            points += HINT
        if doc.kind in q["not_kinds"]:  # the kind of entry it does not ask for ("next round": not the setup)
            points -= HINT
    return points


def _player_question(questions: list[tuple[list[str], frozenset[str]]], match: "_Matcher", parts: dict) -> float:
    """What the player question of the entry closest to the query adds: PLAYER_QUESTION times the cube of
    the share of the query's weight it holds and the square of the share of its own content words the
    query says; OTHER_ANSWER of that when the query asks for a kind of answer the question does not.
    The share is of the query's heaviest words, QUESTION_SLACK more than the question has: a player
    question of five words cannot hold a twenty-word question, but can hold what it turns on."""
    best = 0.0
    for ws, asks in questions:
        if not ws or match.table.keys().isdisjoint(ws):
            continue
        agree = 1.0 if not match.wanted or match.wanted & asks else OTHER_ANSWER
        matched = [match(w) for w in ws]  # the query words each word of the question matches
        share = sum(match.terms[k].idf for k in set().union(*matched)) / match.heaviest(len(ws))
        said = sum(1 for ks in matched if ks) / len(ws)
        score = PLAYER_QUESTION * share ** 3 * said ** 2 * agree
        if score > best:
            best = score
            parts["player_question_words"] = " ".join(ws)
    return best


def _name_score(phrases: list[list[str]], match: "_Matcher", parts: dict) -> float:
    """How well the query matches one of the entry's names or glossary forms."""
    best, how = 0.0, "none"
    terms, total_idf = match.terms, match.total_idf
    for ws in phrases:
        if match.table.keys().isdisjoint(ws):
            continue  # none of its words: it scores nothing
        columns = list(zip(*map(match.levels, ws)))  # columns[k][i]: how word i of the name matches query word k
        levels = [max(column) for column in columns]  # how well the name matches each query word
        covered = {column.index(lv) for column, lv in zip(columns, levels) if lv}  # the name's words that do
        if all(levels):
            lowest = min(levels)
            cov = len(covered) / len(ws)
            score = NAME_LEVEL_SCORE[lowest] + 30 * cov
            label = {EXACT: "exact", PREFIX: "prefix", FUZZY: "fuzzy"}[lowest] + ("" if cov == 1 else " (part)")
        else:
            # a question naming some of the entry's words: how much of the query, and how much of the name
            share = sum(item.idf for item, lv in zip(terms, levels) if lv) / total_idf
            score = SOME_SHARE * share + SOME_NAME * share * len(covered) / len(ws)
            label = "some words"
        if score > best:
            best, how = score, f"{label}: {' '.join(ws)}"
    parts.update(name=best, name_match=how)
    return best


class _Matcher:
    """Which query words each word of an entry matches, and how, for one query.

    Built once from the words of the knowledge base that each query word matches (its exact words
    and their inflections, the words it begins, its typo neighbours), so judging a word of an entry is
    one dictionary look-up; a word found in none of those sets matches nothing."""

    def __init__(self, terms: list[Term], v: Vocab, asked: list[dict] | None = None):
        self.terms = terms
        self.asked = asked or []  # the question hints of the query (Lexicon.asked)
        # the kinds of answer they ask for that a player question must ask for too (_player_question)
        self.wanted = frozenset(q["asks"] for q in self.asked) & ANSWER_KINDS
        # a question, not a name (see QUESTION_KIND_WEIGHT); a subject's word ("points") alone does not make one
        # ... and one content word makes a question when it asks for a kind of answer ("how many rounds are there":
        # a rule stating the count, not the entry named "Twelfth round")
        self.question = any(not q.get("subject") for q in self.asked) and (
            len(terms) > 1 or any(q["asks"] in ONE_WORD_QUESTIONS for q in self.asked))
        # no question word but three content words or more: a description, unless it is an entry's name
        self.description = not self.question and len(terms) >= DESCRIPTION_WORDS
        self.effect = any(q["asks"] == "effect" for q in self.asked)  # "co robi X": what X does (EFFECT_KINDS)
        self.named_kinds = {k for q in self.asked if q["names_kind"] for k in q["kinds"]}  # "příklad": examples
        self.total_idf = sum(item.idf for item in terms) or 1.0
        self._by_weight = list(accumulate(sorted((item.idf for item in terms), reverse=True)))
        table: dict[str, list[int]] = {}
        for k, item in enumerate(terms):
            completions = _begun(item.word, v.words) if item.prefix else []
            for level, found in ((FUZZY, item.fuzzy_words), (PREFIX, completions), (PREFIX, item.stem_words),
                                 (EXACT, item.exact_words)):
                for w in found:  # stronger levels come last and overwrite
                    table.setdefault(w, [0] * len(terms))[k] = level
        self.table = {w: tuple(ls) for w, ls in table.items()}
        # the variants the query names (in any language): their rules lose no VARIANT_PRIOR
        self.variants = {e for e, ws in v.variant_names.items() if not ws.isdisjoint(self.table)}
        # ... and the games whose variant the query names by a word that says so (Meng: solo), as typed or inflected
        # ("jedno" begins "jednoosobowy" and names no variant)
        self.marked = {e.split("/")[0] for e, ws in v.lexicon.variants.items()
                       if any(not ws.isdisjoint(item.exact_words) for item in terms)}
        self.avg_length = v.avg_length
        self.which = {w: tuple(k for k, lv in enumerate(ls) if lv) for w, ls in self.table.items()}
        self.none = (0,) * len(terms)

    def heaviest(self, n: int) -> float:
        """The weight of the query's n + QUESTION_SLACK heaviest words (all of them when it has no more)."""
        k = n + QUESTION_SLACK
        return self._by_weight[k - 1] if 0 < k <= len(self._by_weight) else self.total_idf

    def levels(self, word: str) -> tuple[int, ...]:
        """The level (EXACT, PREFIX, FUZZY or 0) at which the word matches each query word."""
        return self.table.get(word, self.none)

    def __call__(self, word: str) -> tuple[int, ...]:
        """The indices of the query words this word matches."""
        return self.which.get(word, ())


def _proximity(doc: Doc, match: _Matcher) -> float:
    """Up to 10 points when the query's words stand close together in the text (how often it says
    them is _relevance's part)."""
    hits = {w: match(w) for w in doc.body_words & match.which.keys()}
    positions = [(i, k) for i, (_, w) in enumerate(doc.tokens) if w in hits for k in hits[w]]
    need = len({k for _, k in positions})
    if need < 2:
        return 0.0
    best, count, lo = None, Counter(), 0
    for i, k in positions:  # smallest window holding every matched word
        count[k] += 1
        while len(count) == need:
            span = i - positions[lo][0] + 1
            best = span if best is None else min(best, span)
            count[positions[lo][1]] -= 1
            if not count[positions[lo][1]]:
                del count[positions[lo][1]]
            lo += 1
    return 10.0 * (need / len(match.terms)) * min(1.0, need / best) if best else 0.0


def snippet(name: str, body: str, match: _Matcher, folded_body: str | None = None,
            tokens: list[tuple[int, str]] | None = None) -> tuple[str, list[tuple[int, int]]]:
    """A window of the original text around the first match, with the matched words marked; the name
    when the text does not hold the query's words.

    Folding keeps one character per character, so offsets in the folded text are offsets in the
    original text too.
    """
    source, folded = body, folded_body if folded_body is not None else fold(body)
    if tokens is None:
        tokens = [(m.start(), m.group()) for m in _WORD.finditer(folded)]
    which = match.which
    first = next((at for at, w in tokens if w in which), None) if body else None
    if first is None:
        source, folded = name, fold(name)
        first = next((m.start() for m in _WORD.finditer(folded) if m.group() in which), 0)
    lo = max(0, first - SNIPPET_CHARS // 3)
    if lo:
        space = source.rfind(" ", 0, lo)
        lo = space + 1 if space != -1 and lo - space < 20 else lo
    hi = min(len(source), lo + SNIPPET_CHARS)
    window = source[lo:hi]
    prefix = "…" if lo else ""
    suffix = "…" if hi < len(source) else ""
    shift = len(prefix) - lo
    # only the window is read for marks (a rule's text may be long). Reading from one character
    # before it, a word cut by its start begins before lo and is left out, as is one cut by its end.
    marks = []
    if source is body:
        start = bisect.bisect_left(tokens, (lo, ""))
        for at, w in tokens[start:]:
            if at + len(w) > hi:
                break
            if w in which:
                marks.append((at + shift, at + len(w) + shift))
    else:
        for m in _WORD.finditer(folded, max(0, lo - 1)):
            if m.end() > hi:
                break
            if m.start() >= lo and m.group() in which:
                marks.append((m.start() + shift, m.end() + shift))
    return prefix + window.replace("\n", " ") + suffix, marks
