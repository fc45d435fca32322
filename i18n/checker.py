"""The translation checker: where the Polish and Czech rulebooks (or two editions of one rulebook) say
different things — a reviewer's list, every item quoting both sides with their source lines.

1. Alignment. The KB's entities tie the texts of two sources to line spans: the texts of one entity
   field are a paragraph pair. Inside a pair, sentences are aligned (i18n/align.py); a sentence with no
   counterpart is reported (`unmatched`: a missing or extra rule). A field stated by one source only is
   reported too (`one-sided`), and so is an entity of one edition only (`edition-only`).
   A text outside the KB (`check_text`) is aligned sentence by sentence against a whole source.
2. Checks on each aligned pair (i18n/lexicon.py gives the words): `numbers` (with their nouns),
   `negation`, `modality` (may / must / may not), `quantifier` (all, both, any, none, at most, at least,
   only), `condition` (if, when, unless), `random` ("at random", "shuffle"), `timing` ("after doing X"),
   `free` ("for free"), `sequence` ("and" against "and then", "and/or" against "or"), `enumeration`
   (count of listed items), `term` (glossary terms, lemmatized), `destination` (where a piece is put, said
   in one language only), `gap` (text the OCR lost); `example` (a
   fact of a worked example stated in one version only) and `edition-value` (an attribute that differs by
   edition).
3. Triage: every finding has a class — `rule` (changes play), `wording` (changes nothing in play) or
   `ocr` (damage in the source) — and a one-line explanation. Differences the transcribers recorded by
   hand (a `note` / `difference` field written for the project) are listed as `noted`, marked
   hand-recorded; no check relies on them.
   `rule` is kept for what would make a player following one text play differently. Not rule: a
   sentence whose counterpart the other source states elsewhere in the entity or its neighbours (parent,
   siblings, children); a conditional sentence spelling out one case of an either/or the other states; a
   "may" of a pure benefit or a forced choice said as "may replace" / "must discard" (i18n/lexicon.yaml
   `benefit`, `forced_choice`); "random" or "free" the other source says of the same things in a related
   text; a count of components a substitute rule covers (`supply`); a worked example's disagreement.
"""
from __future__ import annotations

import hashlib
import re
from collections import Counter
from dataclasses import asdict, dataclass, field
from functools import lru_cache
from itertools import combinations
from pathlib import Path
from typing import Iterator

from i18n.align import Change, Document, Sentence, align, join, paragraph_sentences, similarity, spans_of, word_diff
from i18n.lexicon import (CONDITIONS, FEASIBLE, MARKERS, lemma, lexicon, MODALITY, PAGE_WORDS, QUANTIFIERS, WEAK_NUMBERS, WHEN_CLAUSE, WHEN_WORDS, Analysis, Glossary,
                          alternatives, analyse, lemmas, numbers, per_kind, places_or_moves, puts, ranks, supply_covered,
                          supply_rule, time_units)
from i18n.catalog import N_, note, t
from kb.fold import words
from kb.loader import KnowledgeBase, Record
from kb.schema import Entity, Example, TextItem, text_items

ASIDE = re.compile(r"\([^()]*\)|\b\d+\.(?=\s*[^\W\d_A-ZĄĆĘŁŃÓŚŹŻÁČĎÉĚÍŇŘŠŤÚŮÝŽ])")  # parentheses, "2. úrovně"
GAP = re.compile(r"…|\[\.\.\.\]|\[…\]")
# `expansion`: content of an expansion only one of two editions has (Great Wall, Great Events in 2017),
# grouped apart and not counted among the base game's rule differences
CLASSES = ("rule", "wording", "ocr", "expansion")
CHECKS = ("numbers", "negation", "modality", "quantifier", "condition", "random", "timing", "free", "sequence",
          "enumeration", "term", "destination", "unmatched", "one-sided", "gap", "example", "edition-value",
          "edition-only", "noted", "limit", "order", "actor", "list-item-removed", "list-item-added",
          "reworded")
# Kept for the API's finding model: the class decides them.
SEVERITY = {"rule": "high", "wording": "medium", "ocr": "medium", "expansion": "low"}
ASSESSMENT = {"rule": "rules-difference", "wording": "unclear", "ocr": "artefact", "expansion": "unclear"}
# (check, marker classes treated as one, class): a finding when one text uses a class and the other none
# of the family. Measured on the labelled sample, translations add and drop negations ("bez zmian" /
# "obvyklým způsobem"), "all", "any", "each", "only" and "both" freely, and state a condition as a
# participle or "in that case" as often as with "if": those are not reported. A differing NUMBER of
# conditions is: an extra "if" is usually an extra case.
FAMILIES = (
    ("modality", ("may",), "rule"),
    ("must", ("must",), "rule"),
    ("quantifier", ("at-most",), "wording"),
    ("quantifier", ("at-least",), "wording"),
    ("condition", ("if", "unless"), "rule"),
)
# A sentence whose content words are this share of those of another field counts as moved there
MOVED_SHARE = 0.6
# A condition in parentheses restates ("(if there is room)"), and one that opens a list ("only if:")
# is the list, which both texts give: neither is counted among a text's conditions
ASIDE_CONDITION = re.compile(r"\([^()]*\)|[^\W\d_]+\s*:")
CASE_WORDS = {"if", "when"}
NEIGHBOUR_TERMS = 3  # game terms a sentence must name to be looked for in the neighbours' texts  # what a sentence spelling out one case of an either/or may say
# Checked sentence by sentence: what a sentence says when it has the marker
SENTENCE_MARKERS = {"random": N_("leaves it to chance (“at random” / shuffled)"),
                    "timing": N_("fixes the moment (“after doing …”, “only after …”)"),
                    "free": N_("makes it free of cost (“za darmo”, “zdarma”, “volný pohyb”)")}
# Glossary terms that name game objects and places; a rule naming one in one language only may send the
# player somewhere else.
OBJECT_TERMS = {"great-wall", "grand-canal", "ship", "port", "decree", "jade"}
# Glossary terms that name places a piece can be put in or taken from.
PLACE_TERMS = {"general-supply", "servant-pool", "player-board", "game-board", "discard-pile", "draw-pile", "hand",
               "ship", "great-wall", "map", "decree", "palace", "city", "port"}
NARRATIVE_KINDS = {"component", "tip", "variant", "location", "example", "term"}
# A sentence saying one of these states a rule; one without them is description or story.
RULE_MARKERS = set(MODALITY) | set(CONDITIONS) | {"negation", "none", "at-most", "at-least", "only"}


@dataclass
class Side:
    label: str          # "pl", "cs", "2007", "2017"
    source: str | None  # source id (or the file name of an outside text)
    lines: list[list[int]] | None
    text: str


@dataclass
class Finding:
    game: str
    entity_id: str
    field: str
    check: str
    triage: str          # rule | wording | ocr  (shown as "class")
    message: str         # a one-line explanation in English (msg(...) when made: see `text`)
    a: Side | None = None
    b: Side | None = None
    hand_recorded: bool = False
    detail: str = ""
    key: str = ""
    was: Side | None = None                  # an outside text: what the changed passage replaced
    changed: tuple[str, ...] = ()            # ... the words removed and the words put in, as written
    entities: list[str] = field(default_factory=list)  # ... every entity whose cited lines it touches

    msgid: str = ""                          # the message as marked for the catalogs, and its parameters
    params: dict = field(default_factory=dict)

    def __post_init__(self):
        if isinstance(self.message, tuple):  # msg(N_("..."), **params): English now, any language on demand
            self.msgid, self.params = self.message
            self.message = self.text("en")
        basis = "|".join([self.entity_id, self.field, self.check, self.detail,
                          self.a.label if self.a else "", self.b.label if self.b else ""])
        self.key = hashlib.sha1(basis.encode()).hexdigest()[:12]

    def text(self, lang: str) -> str:
        """The message in the reader's language (the catalogs of i18n/locale); words quoted from a
        source stay as the source writes them."""
        return message_text(lang, self.msgid, self.params) if self.msgid else self.message

    @property
    def severity(self) -> str:
        return "medium" if self.hand_recorded else SEVERITY[self.triage]

    @property
    def assessment(self) -> str:
        return "curated" if self.hand_recorded else ASSESSMENT[self.triage]

    def to_dict(self) -> dict:
        d = asdict(self)
        d["class"] = d.pop("triage")
        d.update(severity=self.severity, assessment=self.assessment)
        return d


def message_text(lang: str, msgid: str, params: dict) -> str:
    """A finding's message in the reader's language from its msgid and parameters, as the build stores
    them (the CLI, the API and the site all read a finding through this)."""
    params = dict(params)
    if params.get("fact") and note(lang, params["fact"]):  # what a worked example states: a note of kb/data
        params["what"] = f"{params.get('who', '')} {note(lang, params['fact'])}".strip()
    if "says" in params:  # what a sentence marker means (SENTENCE_MARKERS), in the reader's words
        params["says"] = t(lang, params["says"])
    for side in ("ua", "ub"):  # time units (i18n/lexicon.py TIME_UNITS), in the reader's words
        if side in params:
            params[side] = " / ".join(t(lang, TIME_UNIT_LABELS.get(u, u)) for u in params[side].split(" / "))
    options = params.pop("options", False)
    if options == "said":  # marker classes ("may", "at-most"), in the reader's words
        params["said"] = " / ".join(t(lang, OPTION_LABELS.get(o, o)) for o in params["said"].split(" / "))
    elif options:  # the lexicon's option names ("must", "left"), in the reader's words
        for side in ("lost", "gained"):
            params[side] = ", ".join(t(lang, OPTION_LABELS.get(o, o)) for o in params[side].split(", "))
    return t(lang, msgid, **params)


def msg(msgid: str, **params) -> tuple[str, dict]:
    """A finding's message: a catalog msgid and its parameters (rendered per reader by Finding.text)."""
    return msgid, params


@dataclass
class Para:
    """One side of a paragraph pair: a KB text (or a stretch of an outside text) and its reading."""
    label: str
    source: str | None
    lang: str
    text: str
    lines: list[list[int]] | None

    def side(self, text: str | None = None, lines=None) -> Side:
        return Side(self.label, self.source, lines if lines is not None else self.lines, self.text if text is None else text)


def _side(label: str, item: TextItem) -> Side:
    return Side(label, item.src, [list(s) for s in item.lines] if item.lines else None, item.text)


def _source_items(rec: Record, fld: str) -> dict[str, TextItem]:
    """The source-origin texts of one field, keyed by their source id."""
    out: dict[str, TextItem] = {}
    for value in rec.item.texts.get(fld, {}).values():
        for item in text_items(value):
            if not item.src:
                continue
            have = out.get(item.src)
            if have is None or have.text == item.text or not _near(have, item):
                out.setdefault(item.src, item)  # a text the rulebook repeats elsewhere (an appendix): the first
            else:  # two parts of one field (a note beside the paragraph): one text, both line spans
                out[item.src] = item.model_copy(update={"text": f"{have.text} {item.text}",
                                                        "lines": [*have.lines, *item.lines]})
    return out


def marker_words(text: str, lang: str, cats) -> str:
    """The words of a text that say one of the marker classes, as it writes them: „můžete“, „jeżeli“."""
    table = MARKERS.get(lang, {})
    wanted = {w for c in cats for w in table.get(c, ())}
    found = [tok for tok in re.findall(r"[^\W\d_]+", text) if tok.lower() in wanted or lemma(tok, lang) in wanted]
    return ", ".join(f"„{w}“" for w in dict.fromkeys(found))


def _near(a: TextItem, b: TextItem, lines: int = 12) -> bool:
    """Whether two texts of one source stand within a few lines of each other (one passage)."""
    return bool(a.lines and b.lines) and min(abs(x - y) for x in (a.lines[0][0], a.lines[-1][1])
                                             for y in (b.lines[0][0], b.lines[-1][1])) <= lines


def game_glossary(kb: KnowledgeBase, game: str) -> Glossary:
    forms = {rec.id: rec.item.forms for rec in kb.records.values()
             if rec.game == game and rec.kind == "term" and isinstance(rec.item, Entity) and rec.item.forms}
    return Glossary.of(forms)


class Comparer:
    """The checks on aligned text, shared by KB-to-KB comparison and outside texts."""

    def __init__(self, game: str, glossary: Glossary, same_language: bool):
        self.game, self.glossary, self.same_language = game, glossary, same_language
        self._cache: dict[tuple[str, str], Analysis] = {}
        self.elsewhere: dict[str, list[str]] = {}  # source -> every text of the entity being compared
        # source -> (text, whether the entity's own) for the entity and its parent, siblings and children
        self.nearby: dict[str, list[tuple[str, bool]]] = {}
        self.related: dict[str, list[tuple[str, bool]]] = {}  # ... of the entities it refers to or that refer to it
        self._terms: dict[tuple[str, str], set[str]] = {}

    def read(self, text: str, lang: str) -> Analysis:
        key = (text, lang)
        if key not in self._cache:
            self._cache[key] = analyse(text, lang)
        return self._cache[key]

    def terms(self, text: str, lang: str) -> set[str]:
        """The glossary terms a text names (found once per text: the checks ask for a paragraph's
        terms once for each of its sentences)."""
        key = (text, lang)
        if key not in self._terms:
            self._terms[key] = self.glossary.named(self.read(text, lang).lemmas, lang)
        return self._terms[key]

    def sentences(self, p: Para) -> list[Sentence]:
        out = paragraph_sentences(p.text, p.lines)
        for s in out:
            self.anchor(s, p.lang)
        return out

    def anchor(self, s: Sentence, lang: str) -> Sentence:
        an = self.read(s.text, lang)
        s.words = len(an.lemmas)
        nums = {f"#{n}" for n in an.numbers if n not in WEAK_NUMBERS}
        if self.same_language:
            s.anchors = nums | {w for w in an.lemmas if len(w) > 3}
        else:
            s.anchors = nums | self.terms(s.text, lang)
        return s

    @staticmethod
    def states_rules(entity_id: str, fld: str) -> bool:
        """Components, tips, variants' blurbs, locations' flavour text and worked examples describe or
        narrate; a "may" or a missing place name there is no rule."""
        kind = entity_id.split("/")[1] if entity_id.count("/") >= 2 else ""
        return kind not in NARRATIVE_KINDS and fld not in ("why", "story", "name", "heading")

    def adds(self, s: Sentence, has: Para, lacks: Para) -> bool:
        """Whether a sentence without a counterpart says something the other text does not: a rule word
        (condition, permission, negation, limit) or a number that its text has more of than the other.
        Not "must": a rulebook states a duty as plainly with an indicative or an imperative.
        Without that, an "unmatched" sentence is nearly always one the other language split or merged
        differently (measured on the labelled sample)."""
        mine, theirs = self.read(has.text, has.lang), self.read(lacks.text, lacks.lang)
        here = self.read(s.text, has.lang)
        for cat in RULE_MARKERS - {"must"}:
            if cat in here.markers and mine.markers.get(cat, 0) > theirs.markers.get(cat, 0):
                return True
        return bool((set(here.numbers) - WEAK_NUMBERS) - set(theirs.numbers)) or bool(self.new_objects(s, has, lacks))

    def new_objects(self, s: Sentence, has: Para, lacks: Para) -> set[str]:
        """Glossary terms the sentence names that the other language's whole paragraph never names (a
        card set, a fan, a tie-break between decrees): content of its own, even without a rule word.
        Between two editions of one language the words themselves are compared elsewhere."""
        if self.same_language:
            return set()
        new = self.terms(s.text, has.lang) - self.terms(lacks.text, lacks.lang)
        return {item for item in new if lacks.lang in self.glossary.terms[item]}

    def counterpart(self, lone: Sentence, has: Para, lacks: Para) -> bool:
        """Whether the other source says a sentence the alignment left alone elsewhere in the entity or
        its neighbours (parent, siblings, children): a sentence naming most of its game terms (content
        words between editions), with its modal words, its kind of condition, its "or" and its numbers.
        What is left over ("and does not play for the rest of the phase" after "must pass") only
        explains what follows anyway."""
        mine = self.read(lone.text, has.lang)

        def names(text: str, lang: str) -> set[str]:
            if self.same_language:
                return {w for w in self.read(text, lang).lemmas if len(w) > 3}
            return self.terms(text, lang)

        def says(markers) -> set[str]:
            out = {m for m in ("may", "must", "may-not", "must-not", "only") if m in markers}
            out |= {"condition"} if set(markers) & {"if", "when", "unless"} else set()
            return out | ({"or"} if set(markers) & {"or", "and-or"} else set())

        terms, need = names(lone.text, has.lang), says(mine.markers)
        nums = set(mine.numbers) - WEAK_NUMBERS
        for text, own in self.nearby.get(lacks.source, []):
            if len(terms) < (2 if own else NEIGHBOUR_TERMS):
                continue  # a neighbour shares a term or two with every sentence of its chapter ("Meng", "decree")
            for s in paragraph_sentences(text, None):
                an = self.read(s.text, lacks.lang)
                if len(terms & names(s.text, lacks.lang)) >= MOVED_SHARE * len(terms) and need <= says(an.markers) \
                        and nums <= set(an.numbers):
                    return True
        return False

    def _related_sentences(self, other: Para) -> Iterator[tuple[Sentence, set[str]]]:
        """The sentences of the other source's texts of the entity, its neighbours and the entities it
        refers to, with the game terms each names."""
        for body, _own in self.nearby.get(other.source, []) + self.related.get(other.source, []):
            for s in paragraph_sentences(body, None):
                yield s, self.terms(s.text, other.lang)

    def said_nearby(self, text: str, lang: str, other: Para, marker: str) -> bool:
        """Whether the other source carries a marker ("at random") in a related sentence that names most
        of the game terms this text names."""
        terms = self.terms(text, lang)
        return bool(terms) and any(marker in self.read(s.text, other.lang).markers
                                   and len(terms & named) >= MOVED_SHARE * len(terms)
                                   for s, named in self._related_sentences(other))

    def said_in_paragraph(self, text: str, lang: str, other: Para, marker: str) -> bool:
        """Whether another sentence of the other text's own paragraph carries the marker for a game object
        this text names: "shuffle the seven gift cards … place the seven cards on the board" against
        "… place these 7 cards at random": cards shuffled first are placed at random either way."""
        terms = self.terms(text, lang)
        return bool(terms) and any(marker in self.read(s.text, other.lang).markers
                                   and terms & self.terms(s.text, other.lang)
                                   for s in paragraph_sentences(other.text, None))

    def said_nearby_term(self, pieces: set[str], place: str, other: Para) -> bool:
        """Whether the other source names a place in a related sentence that also names most of these
        pieces."""
        return bool(pieces) and any(place in named and len(pieces & named) >= MOVED_SHARE * len(pieces)
                                    for _s, named in self._related_sentences(other))

    def spelled_case(self, text: str, lang: str, other: Para) -> bool:
        """Whether a conditional sentence only spells out one case of an either/or the other text states
        ("if you swapped a card from your hand, take the new card into your hand" beside "a card from
        your hand or your discard pile ... if from the discard pile, put the new one there"): it says
        no rule word but its condition, no number and no game term the other text lacks, and the other
        text states the either/or and a case of its own."""
        mine, theirs = self.read(text, lang), self.read(other.text, other.lang)
        said = set(mine.markers) & (RULE_MARKERS | {"or", "and-or"})
        # the either/or is stated as such: alternatives in a sentence that is no case itself
        either = any({"or", "and-or"} & set(m) and not CASE_WORDS & set(m)
                     for m in (self.read(s.text, other.lang).markers for s in paragraph_sentences(other.text, None)))
        return bool(said) and said <= CASE_WORDS and either and bool(CASE_WORDS & set(theirs.markers)) and not (set(mine.numbers) - WEAK_NUMBERS) - set(theirs.numbers) \
            and not (self.terms(text, lang) - self.terms(other.text, other.lang) if not self.same_language else False)

    def states_absence(self, lone: Sentence, has: Para, lacks: Para) -> bool:
        """Whether a sentence only says that something does not happen ("při této variantě lodi
        neposouváte" = in this option you do not move ships), with a plain negated verb: no prohibition
        ("may not"), no limit, no condition, no number or game object the other text lacks. A text that
        lists what a player does already excludes the rest; a prohibition instead takes away a choice the
        other text may leave open, and stays a rule."""
        an = self.read(lone.text, has.lang)
        said = set(an.markers) & (RULE_MARKERS | {"or", "and-or", "when"})
        return said == {"negation"} and not (set(an.numbers) - WEAK_NUMBERS) and not self.new_objects(lone, has, lacks)

    def conditions(self, text: str, lang: str, feasible: bool = False) -> int:
        """How many conditions a text states (not in an aside, not one that opens a list); with `feasible`
        also those on whether something is possible ("if possible"), which are no case of their own."""
        plain = ASIDE_CONDITION.sub(" ", text)
        markers = self.read(plain, lang).markers
        hedges = 0 if feasible or lang not in FEASIBLE else len(FEASIBLE[lang].findall(plain))
        return max(0, sum(markers.get(c, 0) for c in ("if", "unless")) - hedges)

    # -- a paragraph pair

    def compare(self, entity_id: str, fld: str, pa: Para, pb: Para) -> list[Finding]:
        """Every check on one paragraph pair, in the order of the module docstring."""
        p = Pair(self, entity_id, fld, pa, pb)
        for check in (self._unmatched, self._merged_extra, self._numbers, self._number_choices, self._connectives,
                      self._word_classes, self._sentence_markers, self._time_units, self._enumeration,
                      self._object_terms, self._destination, self._gap):
            check(p)
        return p.out

    def triage(self, text: str, lang: str) -> str:
        """The class of a text one side says alone: `rule` when it has a rule word. A number alone is a
        count the other text leaves to the components ("you have room for 6 tokens")."""
        an = self.read(text, lang)
        return "rule" if RULE_MARKERS & set(an.markers) else "wording"

    def _unmatched(self, p: Pair) -> None:
        """Sentences with no counterpart that say something the other text does not."""
        for ia, ib in p.pairs:
            if ia and ib:
                continue
            lone, has, lacks = (join([p.sa[i] for i in ia]), p.pa, p.pb) if ia else (join([p.sb[i] for i in ib]), p.pb, p.pa)
            if lone.words < 3 or not self.adds(lone, has, lacks):
                continue
            if self.same_language and moved(self, lone.text, self.elsewhere.get(lacks.source, []), has.lang):
                continue  # the other edition says it in another text of the same entity (a note, a summary)
            if self.counterpart(lone, has, lacks):
                continue  # the other text says it in a sentence the alignment paired elsewhere, or nearby
            triage = "ocr" if GAP.search(lone.text) or GAP.search(lacks.text) else self.triage(lone.text, has.lang)
            if triage == "rule" and (self.spelled_case(lone.text, has.lang, lacks) or self.states_absence(lone, has, lacks)):
                triage = "wording"
            here, there = has.side(lone.text, lone.lines), lacks.side()
            p.add("unmatched", triage, msg(N_("only the %(has)s text says this sentence; the %(lacks)s text has no counterpart"),
                                           has=has.label, lacks=lacks.label),
                  *((here, there) if has is p.pa else (there, here)), detail=f"{has.label}:{lone.text[:40]}", keep=True)

    def _merged_extra(self, p: Pair) -> None:
        """A sentence the aligner merged with its neighbour but that adds content of its own: "A. B."
        against "A." where B is much of the merged length."""
        if p.fld == "summary" or p.entity_id.split("/")[1:2] == ["example"]:
            return  # side-bar summaries and worked examples are re-cut freely between versions
        for ia, ib in p.pairs:
            if not ia or not ib or len(ia) + len(ib) != 3:
                continue
            one, two, p_one, p_two = ((p.sa[ia[0]], [p.sb[i] for i in ib], p.pa, p.pb) if len(ia) == 1
                                      else (p.sb[ib[0]], [p.sa[i] for i in ia], p.pb, p.pa))
            extra = min(two, key=lambda s: similarity(one, s))
            # a short sentence that negates what the other text never negates ("ships are not moved") is
            # content of its own (a rule when it forbids, see states_absence), and so is one that names game objects the other text never names and
            # shares no number or term with its neighbour's counterpart ("players receive the card sets
            # with the matching fans"); otherwise only a long one is, not a clause the other text put elsewhere
            negates = extra.words >= 4 and "negation" in self.read(extra.text, p_two.lang).markers \
                and not {"negation", "none"} & set(self.read(p_one.text, p_one.lang).markers)
            novel = extra.words >= 8 and p.rules and not extra.anchors & one.anchors \
                and bool(self.new_objects(extra, p_two, p_one))
            if not (negates or novel) and (sum(s.words for s in two) < 1.8 * max(one.words, 1) or extra.words < 8):
                continue
            if not self.adds(extra, p_two, p_one) or self.counterpart(extra, p_two, p_one):
                continue
            qx, qy = p_two.side(extra.text, extra.lines), p_one.side(one.text, one.lines)
            triage = "ocr" if p.damaged else self.triage(extra.text, p_two.lang)
            if triage == "rule" and (self.spelled_case(extra.text, p_two.lang, p_one) or self.states_absence(extra, p_two, p_one)):
                triage = "wording"  # one case of an either/or the other text leaves implied, or what it never lists
            p.add("unmatched", triage,
                  msg(N_("only the %(has)s text says this sentence; the %(lacks)s text has no counterpart"),
                      has=p_two.label, lacks=p_one.label),
                  *((qx, qy) if p_two is p.pa else (qy, qx)), detail=f"{p_two.label}:{extra.text[:40]}", keep=True)

    def _numbers(self, p: Pair) -> None:
        """Numbers one text states and the other does not, with the noun after each."""
        na = {n: w for n, w in p.ra.numbers.items() if n not in WEAK_NUMBERS}
        nb = {n: w for n, w in p.rb.numbers.items() if n not in WEAK_NUMBERS}
        only_a, only_b = sorted(set(na) - set(nb)), sorted(set(nb) - set(na))
        if not (only_a or only_b):
            return
        for only, other, x in ((only_a, only_b, p.pa), (only_b, only_a, p.pb)):
            if only and not other and set(only) <= ranks(x.text, x.lang):
                return  # "the third, the fourth" against "then ... then": one order, counted in one text only
            if only and other and all(any(n % k == 0 and n > k for k in per_kind(x.text, x.lang) & set(only))
                                      for n in other):
                return  # "10 of each of the 9 types" against "all 90": the same tiles, counted per kind
        says = lambda vals, d: ", ".join(f"{v} {d[v]}".strip() for v in vals) or "—"  # noqa: E731
        qa, qb = p.quote(lambda s: any(v in self.read(s.text, p.pa.lang).numbers for v in only_a),
                         lambda s: any(v in self.read(s.text, p.pb.lang).numbers for v in only_b))
        # a number the other text does not contradict, stated only in an aside or as a level's name
        # ("(30 VB)", "dekret 2. úrovně"), restates; a value against another value changes a rule
        aside = not (only_a and only_b) and not any(
            set(only) & set(numbers(ASIDE.sub(" ", x.text), x.lang)) for only, x in ((only_a, p.pa), (only_b, p.pb)))
        # a number one text states where the other states none restates a count the other leaves to the
        # components or the board; a value against another value changes a rule
        p.add("numbers", "rule" if only_a and only_b and not aside else "wording",
              msg(N_("numbers differ: %(a)s states %(says_a)s where %(b)s states %(says_b)s"), a=p.pa.label,
                  says_a=says(only_a, na), b=p.pb.label, says_b=says(only_b, nb)),
              qa, qb, detail=f"{only_a}/{only_b}")

    def _number_choices(self, p: Pair) -> None:
        """A choice of numbers in one text, one number in the other: "once or twice" against "twice"."""
        for xa, xb in p.aligned():
            for x, y, px, py in ((xa, xb, p.pa, p.pb), (xb, xa, p.pb, p.pa)):
                for n1, n2 in alternatives(x.text, px.lang):
                    if not alternatives(y.text, py.lang) and not {n1, n2} <= set(numbers(y.text, py.lang)):
                        p.add("numbers", "wording", msg(N_("numbers: the %(x)s text allows %(n1)s or %(n2)s, the %(y)s text "
                                                        "states one number"), x=px.label, n1=n1, n2=n2, y=py.label), p.pa.side(xa.text, xa.lines), p.pb.side(xb.text, xb.lines),
                              detail=f"or:{px.label}:{n1}/{n2}")

    def _connectives(self, p: Pair) -> None:
        """"A oraz B" against "A a potom B" (one text fixes an order), "A and/or B" against "A or B" (one
        text allows both together), and a permission turned into a prohibition ("nie może" against
        "může", unless the other text states the same limit another way: "at most", "only")."""
        if not p.prose:
            return
        # "and" against "and then" in one pair of counterpart sentences: across a paragraph the "and" may
        # join two nouns and the "then" open another step
        for xa, xb in p.aligned():
            ma, mb = self.read(xa.text, p.pa.lang).markers, self.read(xb.text, p.pb.lang).markers
            for x, mx, my in ((p.pa, ma, mb), (p.pb, mb, ma)):
                if "then" in mx and "and-also" in my and "then" not in my:
                    # both list the two steps in one order, and a player does what "A and B" tells in the
                    # order it is told: "and then" spells out that order, it changes no play
                    y = p.pb if x is p.pa else p.pa
                    p.add("sequence", "wording", msg(N_("sequence: the %(x)s text says “and then”, the %(y)s text “and” (no order)"),
                                                  x=x.label, y=y.label), p.pa.side(xa.text, xa.lines), p.pb.side(xb.text, xb.lines), detail=x.label)
        for x, y, rx, ry in ((p.pa, p.pb, p.ra, p.rb), (p.pb, p.pa, p.rb, p.ra)):
            if "and-or" in rx.markers and "or" in ry.markers:
                p.add("sequence", "wording", msg(N_("sequence: the %(x)s text says “and/or” (both together), the %(y)s text “or”"),
                                                 x=x.label, y=y.label), *p.quote_marked(x, ("and-or",)), detail=f"and-or:{x.label}")
            if "may-not" in rx.markers and "may" in ry.markers and not ({"may-not", "negation", "at-most", "only"} & set(ry.markers)):
                p.add("negation", "rule", msg(N_("negation: the %(x)s text says “may not”, the %(y)s text “may”"), x=x.label, y=y.label),
                      *p.quote_marked(x, ("may-not",)), detail=x.label)

    def _word_classes(self, p: Pair) -> None:
        """Word classes that change a rule (FAMILIES), stated on one side only; headings and labels are
        left alone: they paraphrase."""
        if not p.prose:
            return
        for check, family, triage in FAMILIES:
            ha = [c for c in family if c in p.ra.markers]
            hb = [c for c in family if c in p.rb.markers]
            if check == "must":
                # an imperative and a "must" say the same; "must" against "may" in one aligned sentence
                # pair does not
                for xa, xb in p.aligned():
                    ma, mb = self.read(xa.text, p.pa.lang).markers, self.read(xb.text, p.pb.lang).markers
                    for mx, my, x, y in ((ma, mb, p.pa, p.pb), (mb, ma, p.pb, p.pa)):
                        if "must" in mx and "may" not in mx and "may" in my and "must" not in my:
                            # "may move up" against "must move up": declining a pure gain is never the
                            # better move, so the player plays the same
                            moot_may = my.get("may-moot", 0) >= my["may"] or forced_choice(my, mx)
                            p.add("modality", "wording" if moot_may else "rule", msg(N_("modality: the %(x)s text says “must”, the %(y)s text “may”"), x=x.label, y=y.label),
                                  p.pa.side(xa.text, xa.lines), p.pb.side(xb.text, xb.lines), detail=f"must:{x.label}")
                continue
            if check == "modality" and not p.rules:
                continue  # descriptions narrate ("you may find in the box..."), examples have facts
            if check == "condition":
                na, nb = self.conditions(p.pa.text, p.pa.lang), self.conditions(p.pb.text, p.pb.lang)
                # the key stays that of the counts of every condition word (labels refer to it)
                raw = "/".join(str(sum(r.markers.get(c, 0) for c in family)) for r in (p.ra, p.rb))
                wa, wb = self.conditions(p.pa.text, p.pa.lang, True), self.conditions(p.pb.text, p.pb.lang, True)
                if na and nb and na == nb and wa != wb:
                    # the counts differ only by an "if possible": the same cases, one text hedging
                    na, nb, triage = wa, wb, "wording"
                if na and nb and na != nb:
                    more, fewer = (p.pa, p.pb) if na > nb else (p.pb, p.pa)
                    # each case of an either/or spelled out ("if from the hand …, if from the discard pile …")
                    # against the other text leaving the default case implied
                    spelled = all(self.spelled_case(s.text, more.lang, fewer) for s in paragraph_sentences(more.text, None)
                                  if self.conditions(s.text, more.lang))
                    p.add(check, "wording" if spelled else triage, msg(N_("condition: the %(more)s text states %(n)s conditions (if), the %(fewer)s text %(m)s"),
                                              more=more.label, n=max(na, nb), fewer=fewer.label, m=min(na, nb)), p.pa.side(), p.pb.side(), detail=raw)
                continue
            if bool(ha) == bool(hb):
                continue
            cats, has, lacks = (ha, p.pa, p.pb) if ha else (hb, p.pb, p.pa)
            said_by = p.ra if ha else p.rb
            if check == "modality" and (said_by.markers.get("may-moot", 0) >= said_by.markers["may"]
                                        or forced_choice(said_by.markers, (p.rb if ha else p.ra).markers)):
                triage = "wording"  # every "may" of the text is one that changes no play ("may ignore")
            qa, qb = p.quote_marked(has, cats)
            said = " / ".join(dict.fromkeys(cats))  # marker classes: named in the reader's words (Finding.text)
            words = marker_words((qa if has is p.pa else qb).text, has.lang, cats)
            if words:  # the words as the source writes them: „můžete“
                message = msg(N_("%(check)s: the %(has)s text says “%(said)s” (%(words)s), the %(lacks)s text does not"),
                              check=check, has=has.label, said=said, words=words, lacks=lacks.label, options="said")
            else:
                message = msg(N_("%(check)s: the %(has)s text says “%(said)s”, the %(lacks)s text does not"),
                              check=check, has=has.label, said=said, lacks=lacks.label, options="said")
            p.add(check, triage, message, qa, qb, detail=",".join(cats))

    def _sentence_markers(self, p: Pair) -> None:
        """A marker in one sentence of an aligned pair only, and more often in its paragraph: "at
        random" (a setup or choice one text leaves to chance), "after doing X" (a moment one text
        fixes), "for free" (a cost one text waives). Equal counts in the paragraphs: the two texts
        say it in different sentences."""
        if not p.rules:
            return
        for check, says in SENTENCE_MARKERS.items():
            ca, cb = p.ra.markers.get(check, 0), p.rb.markers.get(check, 0)
            if ca == cb:
                continue
            for xa, xb in p.aligned():
                ma, mb = self.read(xa.text, p.pa.lang).markers, self.read(xb.text, p.pb.lang).markers
                if (check in ma) == (check in mb) or (check in ma) != (ca > cb):
                    continue
                has, lacks, other = (p.pa, p.pb, xb) if check in ma else (p.pb, p.pa, xa)
                said = {w.lower() for w in re.findall(r"\w+", other.text)}
                if check == "timing" and WHEN_WORDS[lacks.lang] & said:
                    continue  # the other sentence says when in its own words
                when = check == "timing" and bool(WHEN_CLAUSE[lacks.lang] & said)  # ... or ties it to a state: wording
                mine = xa if has is p.pa else xb
                # "random" ("free") where the other text leaves the same things to chance (makes the same
                # move free) in a related text (the event tiles drawn at setup): both are random anyway
                same = check in ("random", "free") and (self.said_nearby(mine.text, has.lang, lacks, check)
                                                        or self.said_in_paragraph(mine.text, has.lang, lacks, check))
                p.add(check, "wording" if same or when else "rule", msg(N_("%(check)s: the %(has)s sentence %(says)s, the %(lacks)s sentence does not"), check=check,
                                          has=has.label, says=says, lacks=lacks.label),
                      p.pa.side(xa.text, xa.lines), p.pb.side(xb.text, xb.lines), detail=f"{has.label}:{xa.text[:20]}")

    def _time_units(self, p: Pair) -> None:
        """A rule bounded by a different time unit: "in the given turn" against "in the current round"."""
        if not p.rules:
            return
        for xa, xb in p.aligned():
            ua, ub = time_units(xa.text, p.pa.lang), time_units(xb.text, p.pb.lang)
            if ua - ub and ub - ua:
                p.add("term", "wording", msg(N_("time unit: the %(a)s sentence speaks of the %(ua)s, the %(b)s sentence of the %(ub)s"),
                                              a=p.pa.label, ua=" / ".join(sorted(ua)), b=p.pb.label, ub=" / ".join(sorted(ub))), p.pa.side(xa.text, xa.lines),
                      p.pb.side(xb.text, xb.lines), detail=f"time:{sorted(ua)}/{sorted(ub)}")

    def _enumeration(self, p: Pair) -> None:
        """How many items a list has."""
        ea, eb = enumeration(p.pa.text), enumeration(p.pb.text)
        if ea and eb and ea != eb:
            p.add("enumeration", "wording", msg(N_("the lists differ in length: %(a)s has %(ea)s items, %(b)s %(eb)s"),
                                                 a=p.pa.label, ea=ea, b=p.pb.label, eb=eb),
                  p.pa.side(), p.pb.side(), detail=f"{ea}/{eb}")

    def _object_terms(self, p: Pair) -> None:
        """Game objects (glossary terms) a rule names on one side only: "the Great Wall or a ship"
        against "a ship". Terms that structure every sentence (servant, round, player board...) are
        paraphrased too freely to compare."""
        if self.same_language or not p.prose or not p.rules:
            return
        reported = set()
        for xa, xb in p.aligned():
            if min(xa.words, xb.words) < 8 or PAGE_WORDS & set(words(xa.text + " " + xb.text)):
                continue  # a short sentence refers back ("he chooses one"); a page pointer is no rule
            ta = {item for item in self.terms(xa.text, p.pa.lang) if item.split("/")[-1] in OBJECT_TERMS}
            tb = {item for item in self.terms(xb.text, p.pb.lang) if item.split("/")[-1] in OBJECT_TERMS}
            for term in sorted((ta ^ tb) - reported):
                if not (p.pa.lang in self.glossary.terms[term] and p.pb.lang in self.glossary.terms[term]):
                    continue
                reported.add(term)
                has, lacks = (p.pa, p.pb) if term in ta else (p.pb, p.pa)
                p.add("term", "wording", msg(N_("the %(has)s sentence names the %(term)s, the %(lacks)s sentence does not"),
                                              has=has.label, term=term.split("/")[-1].replace("-", " "), lacks=lacks.label), p.pa.side(xa.text, xa.lines), p.pb.side(xb.text, xb.lines),
                      detail=term)

    def _destination(self, p: Pair) -> None:
        """A sentence that puts a piece in a place (“umístíte ho mezi volné služebníky”) against one that
        neither places nor moves anything, in a text that never names that place: only one language says
        where the piece goes."""
        if self.same_language or not p.prose or not p.rules:
            return
        for xa, xb in p.aligned():
            for x, y, px, py in ((xa, xb, p.pa, p.pb), (xb, xa, p.pb, p.pa)):
                if not puts(x.text, px.lang) or places_or_moves(y.text, py.lang):
                    continue
                where = {item for item in self.terms(x.text, px.lang) if item.split("/")[-1] in PLACE_TERMS} \
                    - self.terms(py.text, py.lang)
                pieces = self.terms(x.text, px.lang) - where
                for term in sorted(where):
                    # the other source names the place for the same piece in a related text (the double
                    # servant "treated like any other servant", whose place its setup names): implied there
                    implied = self.said_nearby_term(pieces, term, py)
                    p.add("destination", "wording" if implied else "rule", msg(N_("destination: the %(x)s sentence puts a piece in the %(term)s, which the "
                                                         "%(y)s text never names"), x=px.label,
                                                      term=term.split("/")[-1].replace("-", " "), y=py.label),
                          p.pa.side(xa.text, xa.lines), p.pb.side(xb.text, xb.lines), detail=f"{px.label}:{term}")

    def _gap(self, p: Pair) -> None:
        """Text lost in the source on one side."""
        ga, gb = bool(GAP.search(p.pa.text)), bool(GAP.search(p.pb.text))
        if ga != gb:
            lost = p.pa.label if ga else p.pb.label
            p.add("gap", "ocr", msg(N_("part of the %(lost)s text is lost in the source (marked …)"), lost=lost), p.pa.side(), p.pb.side(),
                  detail=lost, keep=True)


class Pair:
    """One paragraph pair as the checks read it: its sentences, their alignment, both readings, and the
    findings so far."""

    def __init__(self, cmp: Comparer, entity_id: str, fld: str, pa: Para, pb: Para):
        self.entity_id, self.fld, self.pa, self.pb, self.game = entity_id, fld, pa, pb, cmp.game
        self.sa, self.sb = cmp.sentences(pa), cmp.sentences(pb)
        self.pairs = align(self.sa, self.sb)
        self.read = cmp.read
        self.ra, self.rb = cmp.read(pa.text, pa.lang), cmp.read(pb.text, pb.lang)
        self.damaged = bool(GAP.search(pa.text) or GAP.search(pb.text))
        self.rules = cmp.states_rules(entity_id, fld)  # a rule, not a description or a worked example
        self.prose = min(len(self.ra.lemmas), len(self.rb.lemmas)) >= 6  # not a heading or a label
        self.out: list[Finding] = []

    def aligned(self) -> Iterator[tuple[Sentence, Sentence]]:
        """Each pair of counterparts (a sentence, or two the other text says as one)."""
        for ia, ib in self.pairs:
            if ia and ib:
                yield join([self.sa[i] for i in ia]), join([self.sb[i] for i in ib])

    def quote(self, in_a, in_b) -> tuple[Side, Side]:
        """The aligned sentence pair where the difference sits (else the whole paragraphs)."""
        for xa, xb in self.aligned():
            if in_a(xa) or in_b(xb):
                return self.pa.side(xa.text, xa.lines), self.pb.side(xb.text, xb.lines)
        return self.pa.side(), self.pb.side()

    def quote_marked(self, has: Para, markers) -> tuple[Side, Side]:
        """The aligned sentence pair where `has`'s sentence carries one of the markers."""
        def carries(side: Para):
            return lambda s: has is side and any(m in self.read(s.text, side.lang).markers for m in markers)
        return self.quote(carries(self.pa), carries(self.pb))

    def add(self, check: str, triage: str, message: tuple[str, dict], qa: Side | None, qb: Side | None, detail: str,
            keep: bool = False) -> None:
        """A finding; in a paragraph the OCR damaged, a rule difference is classed `ocr` unless `keep`
        (the caller has classed it already)."""
        if self.damaged and triage == "rule" and not keep:
            triage = "ocr"
        self.out.append(Finding(self.game, self.entity_id, self.fld, check, triage, message, qa, qb, detail=detail))


# bullets, and dashes that open an item after a colon or a semicolon ("kolorze: - 1 Znacznik ...; - 1 Smoka");
# numbered headings ("2. faza") are not list items, nor is a dash inside a sentence
_ITEM = re.compile(r"(?:^|\s)[•·►](?=\s)|(?<=[:;])\s*[-–—](?=\s)")
_SLASH_LIST = re.compile(r"\d+(?:/\d+){2,}")


def enumeration(text: str) -> int:
    """How many items a listed text enumerates: bullets, or an a/b/c number list ("1/3/6/10/15")."""
    n = len(_ITEM.findall(text))
    slash = _SLASH_LIST.search(text)
    if slash:
        n = max(n, slash.group().count("/") + 1)
    return n if n >= 2 else 0


class Checker:
    def __init__(self, kb: KnowledgeBase, game: str):
        self.kb, self.game = kb, game
        self.glossary = game_glossary(kb, game)
        self.sources = {sid: s.meta for sid, s in kb.sources.items() if s.meta.game == game}

    # -- pairs of sources to compare
    def pairs(self, mode: str, a: str, b: str) -> tuple[str, str]:
        """Source ids for two languages (mode 'langs') or two editions (mode 'editions')."""
        key = "lang" if mode == "langs" else "edition"
        pick = {getattr(m, key): sid for sid, m in self.sources.items()}
        missing = [x for x in (a, b) if x not in pick]
        if missing:
            have = ", ".join(sorted(pick)) or "none"
            what = "language" if mode == "langs" else "edition"
            raise ValueError(f"{self.game} has no source for {what} {', '.join(missing)} (it has: {have})")
        if a == b:
            raise ValueError(f"compare two different {'languages' if mode == 'langs' else 'editions'}, not {a} with itself")
        return pick[a], pick[b]

    def run(self, mode: str, a: str, b: str) -> list[Finding]:
        src_a, src_b = self.pairs(mode, a, b)
        lang_a, lang_b = self.sources[src_a].lang, self.sources[src_b].lang
        cmp = Comparer(self.game, self.glossary, same_language=lang_a == lang_b)
        findings: list[Finding] = []
        children: dict[str, list[str]] = {}  # parent -> its entities: a sentence's counterpart may stand there
        referred: dict[str, list[str]] = {}  # entity -> the entities that refer to it
        for r in self.kb.records.values():
            if r.game == self.game and getattr(r.item, "parent", None):
                children.setdefault(r.item.parent, []).append(r.id)
            for ref in (getattr(r.item, "refs", None) or []) if r.game == self.game else []:
                referred.setdefault(ref, []).append(r.id)
        for rec in sorted((r for r in self.kb.records.values() if r.game == self.game), key=lambda r: r.id):
            single = self._single_edition(rec)
            if mode == "editions" and single:
                ed = rec.item.scope.editions[0]
                if ed in (a, b) and any(_source_items(rec, f) for f in rec.item.texts):
                    findings.append(self._edition_only(rec, ed, a, src_a if ed == a else src_b))
                continue
            cited = {s for f in rec.item.texts for s in _source_items(rec, f)}
            if len(cited & {src_a, src_b}) == 1 and not single:
                # the entity is in one source only: one finding for it, not one per field
                findings.append(self._entity_one_sided(cmp, rec, mode, a, b, src_a, src_b, lang_a, lang_b))
                findings += [self._hand_recorded(rec, fld, src_a, src_b, a, b) for fld in ("note", "difference")
                             if fld in rec.item.texts and not _source_items(rec, fld)]
                continue
            cmp.elsewhere = {src: [i.text for f in rec.item.texts.values() for v in f.values()
                                   for i in text_items(v) if i.src == src] for src in (src_a, src_b)}
            family = [rec.id, getattr(rec.item, "parent", None), *children.get(getattr(rec.item, "parent", None) or "", []),
                      *children.get(rec.id, [])]
            cmp.nearby = {src: [(i.text, rid == rec.id) for rid in dict.fromkeys(family) if rid in self.kb.records
                                for f in self.kb.records[rid].item.texts
                                for s, i in _source_items(self.kb.records[rid], f).items() if s == src]
                          for src in (src_a, src_b)}
            cmp.related = {src: self._texts([*(getattr(rec.item, "refs", None) or []), *referred.get(rec.id, [])], src)
                           for src in (src_a, src_b)}
            for fld in rec.item.texts:
                items = _source_items(rec, fld)
                ia, ib = items.get(src_a), items.get(src_b)
                if ia and ib:
                    findings += cmp.compare(rec.id, fld, Para(a, src_a, lang_a, ia.text, _lines(ia)),
                                            Para(b, src_b, lang_b, ib.text, _lines(ib)))
                elif (ia or ib) and fld != "name":
                    lacking = src_b if ia else src_a
                    elsewhere = [i.text for f in rec.item.texts if f != fld
                                 for s, i in _source_items(rec, f).items() if s == lacking]
                    if not (cmp.same_language and moved(cmp, (ia or ib).text, elsewhere, lang_a)):
                        findings.append(self._one_sided(cmp, rec, fld, mode, a, b, ia, ib, lang_a if ia else lang_b))
                if fld in ("note", "difference") and not items:
                    findings.append(self._hand_recorded(rec, fld, src_a, src_b, a, b))
            if isinstance(rec.item, Example):
                findings += self._example_facts(rec, a, b, mode, src_a, src_b)
            if isinstance(rec.item, Entity) and mode == "editions":
                findings += self._edition_values(rec, a, b)
        unlimited = self._unlimited(src_a, src_b)
        for f in findings:
            if self._expansion(f.entity_id) and not f.hand_recorded:
                f.triage = "expansion"
            elif f.triage == "rule" and f.check in ("numbers", "edition-value") and self._supplied(f.entity_id, unlimited):
                f.triage = "wording"  # a count of pieces the rulebook replaces when they run out
        return sorted(findings, key=lambda f: (CLASSES.index(f.triage), f.hand_recorded, f.entity_id, f.field, f.check))

    def _texts(self, ids: list[str], src: str) -> list[tuple[str, bool]]:
        """Every text of these entities in one source (marked as no entity's own)."""
        return [(i.text, False) for rid in dict.fromkeys(ids) if rid in self.kb.records
                for f in self.kb.records[rid].item.texts for s, i in _source_items(self.kb.records[rid], f).items() if s == src]

    def _unlimited(self, *sources: str) -> set[str]:
        """Glossary terms of the components a substitute rule of these sources covers ("if rice or
        fireworks run out, replace them with other markers")."""
        out: set[str] = set()
        for rec, fld, lang, item in self.kb.source_texts(self.game):
            if item.src in sources and supply_rule(item.text, lang):
                out |= self.glossary.named(lemmas(supply_covered(item.text, lang), lang), lang)
        return out

    def _supplied(self, entity_id: str, unlimited: set[str]) -> bool:
        """Whether an entity is a component whose supply a substitute rule makes unlimited."""
        rec = self.kb.records.get(entity_id)
        if rec is None or rec.kind != "component" or not unlimited:
            return False
        named = set(getattr(rec.item, "refs", None) or [])
        for fld in ("name", "body"):
            for src, item in _source_items(rec, fld).items():
                lang = self.sources[src].lang
                named |= self.glossary.named(lemmas(item.text, lang), lang)
        return bool(named & unlimited)

    def _expansion(self, entity_id: str) -> bool:
        """Whether an entity (or one it belongs to) is content of an expansion."""
        rec = self.kb.records.get(entity_id)
        while rec is not None:
            if rec.item.scope and rec.item.scope.expansions:
                return True
            rec = self.kb.records.get(rec.item.parent) if getattr(rec.item, "parent", None) else None
        return False

    def _entity_one_sided(self, cmp, rec, mode, a, b, src_a, src_b, lang_a, lang_b) -> Finding:
        has_a = any(src_a in _source_items(rec, f) for f in rec.item.texts)
        src, label, lacks, lang = (src_a, a, b, lang_a) if has_a else (src_b, b, a, lang_b)
        items = [i for f in rec.item.texts if f != "name" for s, i in _source_items(rec, f).items() if s == src] \
            or [i for f in rec.item.texts for s, i in _source_items(rec, f).items() if s == src]
        lines = spans_of(sorted({n for i in items for x, y in i.lines for n in range(x, y + 1)}))
        quote = " / ".join(i.text for i in items[:3])
        triage = "ocr" if any(GAP.search(i.text) for i in items) else cmp.triage(quote, lang)
        side = Side(label, src, lines or None, quote)
        return Finding(self.game, rec.id, "*", "one-sided", triage,
                       msg(N_("only the %(has)s source has this %(kind)s; the %(lacks)s source does not"),
                           has=label, kind=rec.kind, lacks=lacks),
                       side if has_a else None, None if has_a else side, detail=f"only-{label}")

    @staticmethod
    def _single_edition(rec) -> bool:
        scope = rec.item.scope
        return bool(scope and scope.editions and len(scope.editions) == 1)

    def _edition_only(self, rec, ed, a, src) -> Finding:
        items = [i for f in rec.item.texts for s, i in _source_items(rec, f).items() if s == src]
        lines = spans_of(sorted({n for i in items for x, y in i.lines for n in range(x, y + 1)}))
        quote = " / ".join(i.text for i in items[:3])
        side = Side(ed, src, lines or None, quote)
        # what to do when a component is lost or runs out (spare cards, substitutes) changes no play
        lang = self.sources[src].lang
        triage = "wording" if items and all(supply_rule(i.text, lang) for i in items if i.text) else "rule"
        return Finding(self.game, rec.id, "*", "edition-only", triage, msg(N_("only the %(ed)s edition has this %(kind)s"), ed=ed, kind=rec.kind),
                       side if ed == a else None, None if ed == a else side, detail=ed)

    def _one_sided(self, cmp, rec, fld, mode, a, b, ia, ib, lang) -> Finding:
        has, item = (a, ia) if ia else (b, ib)
        lacks = b if ia else a
        triage = cmp.triage(item.text, lang)
        if GAP.search(item.text):
            triage = "ocr"
        side = _side(has, item)
        return Finding(self.game, rec.id, fld, "one-sided", triage,
                       msg(N_("only the %(has)s source states this (%(field)s); the %(lacks)s source does not"),
                           has=has, field=fld, lacks=lacks),
                       side if ia else None, side if ib else None, detail=f"only-{has}")

    def _hand_recorded(self, rec, fld, src_a: str, src_b: str, a: str, b: str) -> Finding:
        """A difference the transcribers recorded by hand, quoted with the entity's text in each source.
        Their notes record differences of every kind (a name lost in the OCR, a heading, a rule): only
        a note that calls itself a disagreement is a rule difference."""
        en = next((item.text for item in text_items(rec.item.texts[fld].get("en", ""))), "") if "en" in rec.item.texts[fld] else ""
        sides = []
        for src, label in ((src_a, a), (src_b, b)):
            items = [i for f in rec.item.texts if f not in ("name", "note", "difference")
                     for s, i in _source_items(rec, f).items() if s == src]
            sides.append(Side(label, src, _lines(items[0]), items[0].text) if items else None)
        # a worked example illustrates a rule stated elsewhere: its names and numbers disagreeing changes
        # how no one plays (the rule's own texts are compared on their own)
        triage = "rule" if en.lower().startswith("disagreement") and not isinstance(rec.item, Example) else "wording"
        return Finding(self.game, rec.id, fld, "noted", triage, en or "see the note", sides[0], sides[1],
                       hand_recorded=True, detail=fld)

    def _example_facts(self, rec, a, b, mode, src_a, src_b) -> list[Finding]:
        key_a, key_b = (a, b) if mode == "langs" else (f"pl{a}", f"pl{b}")
        out = []
        for n, fact in enumerate(rec.item.facts):
            extra = fact.model_extra or {}
            if (key_a in extra) == (key_b in extra):
                continue
            has, key, src = (a, key_a, src_a) if key_a in extra else (b, key_b, src_b)
            spans = extra[key]
            spans = [spans] if spans and isinstance(spans[0], int) else spans
            side = Side(has, src, [list(s) for s in spans], self._quote(src, spans))
            # a worked example illustrates a rule the texts state; a fact only one version gives changes how
            # no one plays (the rule's own texts are compared on their own)
            triage = "wording"
            out.append(Finding(self.game, rec.id, "facts", "example", triage,
                               msg(N_("only the %(has)s version of the example states: %(what)s = %(value)s"), has=has,
                                   what=f"{fact.who or ''} {fact.what}".strip(), value=fact.value,
                                   who=fact.who or "", fact=fact.what),  # a reader's language: see message_text
                               side if has == a else None, None if has == a else side, detail=f"{n}:{fact.what}"))
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
                    # a number is a rule constant; a name or a colour is what the components print
                    triage = "rule" if isinstance(va, (int, float)) or isinstance(vb, (int, float)) else "wording"
                    out.append(Finding(self.game, rec.id, attr, "edition-value", triage,
                                       msg(N_("%(attr)s: %(va)s in %(a)s, %(vb)s in %(b)s"), attr=attr, va=va, a=a, vb=vb, b=b), sides[0], sides[1], detail=attr))
        return out

    def _quote(self, src: str, spans) -> str:
        """The normalized text that transcribes these lines, else the raw lines."""
        want = {n for x, y in spans for n in range(x, y + 1)}
        for rec, fld, lang, item in self.kb.source_texts(self.game):
            if item.src == src and want & {n for x, y in item.lines for n in range(x, y + 1)}:
                return item.text
        return self.kb.sources[src].span_text(spans).strip()


def forced_choice(may: dict[str, int], must: dict[str, int]) -> bool:
    """"May replace one of your pieces with the new one" (every "may" of a text) against "must discard
    one of your pieces" in the same case: either way the player gives up one piece of their choice."""
    return may.get("may-replace", 0) >= may.get("may", 1) and must.get("must-discard", 0) > 0


def moved(cmp: Comparer, text: str, elsewhere: list[str], lang: str) -> bool:
    """Whether each sentence of a text one edition states in a field of its own is said in another field
    of the same entity by the other edition (same language: most of its content words are there)."""
    theirs = {w for item in elsewhere for w in cmp.read(item, lang).lemmas if len(w) > 3}
    mine = [{w for w in cmp.read(s.text, lang).lemmas if len(w) > 3} for s in paragraph_sentences(text, None)]
    mine = [m for m in mine if len(m) >= 3]  # not "Uwaga!"
    return bool(theirs and mine) and all(len(m & theirs) >= MOVED_SHARE * len(m) for m in mine)


def _lines(item: TextItem) -> list[list[int]]:
    return [list(s) for s in item.lines] if item.lines else []


def default_comparisons(kb: KnowledgeBase) -> list[tuple[str, str, str, str]]:
    """(game, mode, a, b) for every game with two sources: languages or editions."""
    return comparisons(kb.games, [s.meta for s in kb.sources.values()])


def comparisons(games, sources) -> list[tuple[str, str, str, str]]:
    """default_comparisons over source descriptions (anything with game, lang and edition): the build
    stores these, and `rulekb compare` reads them back without loading kb/data."""
    out = []
    lang_order = {"pl": 0, "cs": 1, "en": 2}
    for game in sorted(games):
        metas = [m for m in sources if m.game == game]
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


# -- a text that is not in the knowledge base
#
# An outside text is first aligned word by word with the stored text of its own language (the source most
# like it): passages that did not change say what that source says, and produce nothing of their own.
# Each changed passage is read with the lexicon of changes (i18n/lexicon.yaml) against what it replaced,
# mapped to the entities whose cited lines it touches, and quoted beside the text of those entities in the
# source it is checked against. When that source is another language (or edition), the knowledge base's
# own comparison of the two stands for every unchanged passage.

LIST_CHECK = "list-item"
# A passage that changed no rule word and whose words, letter for letter, are this close (rapidfuzz ratio)
# is OCR noise ("ziskdvate" / "získáváte", "ajeho" / "a jeho"): no finding
SPELLING = 80


@lru_cache(maxsize=16)
def _stored(path: str, mtime: float) -> Document:
    lex = lexicon()
    return Document.of(Path(path).read_text(encoding="utf-8").splitlines(), lex.words, lex.raw_words)


def stored_document(kb: KnowledgeBase, source: str) -> Document:
    path = kb.sources[source].path
    return _stored(str(path), path.stat().st_mtime)


def text_document(text: str) -> Document:
    lex = lexicon()
    return Document.of(text.splitlines(), lex.words, lex.raw_words)


def _covered(old: Document, new: Document) -> tuple[int, int]:
    """The stretch of the stored text an outside text covers (a chapter, a page or the whole rulebook):
    from the first to the last run of 3 words both share, so a fragment is not read as the rest removed."""
    from rapidfuzz.distance import Indel

    runs = [op for op in Indel.opcodes(old.words, new.words) if op.tag == "equal" and op.src_end - op.src_start >= 3]
    if not runs:
        return 0, len(old.words)
    return max(0, runs[0].src_start - runs[0].dest_start), min(len(old.words), runs[-1].src_end + len(new.words) - runs[-1].dest_end)


def _window(doc: Document, lo: int, hi: int) -> Document:
    return Document(doc.lines, doc.words[lo:hi], doc.owner[lo:hi], doc.raw[lo:hi])


class TextCheck:
    """One outside text read against the stored text of its language (`base`), quoted beside `against`."""

    def __init__(self, kb: KnowledgeBase, base: str, against: str, old: Document, new: Document, name: str, lang: str):
        self.kb, self.base, self.against, self.old, self.new, self.name, self.lang = kb, base, against, old, new, name, lang
        self.meta = kb.sources[against].meta
        self.lex = lexicon()
        self.cited: dict[int, list[tuple[Record, str]]] = {}
        self.texts: dict[tuple[str, str], TextItem] = {}
        for rec, fld, _lang, item in kb.source_texts(self.meta.game):
            if item.src == base:
                for a, b in item.lines:
                    for n in range(a, b + 1):
                        self.cited.setdefault(n, []).append((rec, fld))
            if item.src == against:
                self.texts.setdefault((rec.id, fld), item)
        self.glossary = game_glossary(kb, self.meta.game)
        self.label_old = self.meta.lang if self.meta.lang != lang else f"{self.meta.lang} {self.meta.edition}"
        self.label_new = f"{lang} ({name})"

    def findings(self) -> list[Finding]:
        out = []
        for ch in word_diff(self.old, self.new):
            out += self.change(ch)
        return out

    def _quote(self, doc: Document, lines: list[int]) -> str:
        return " ".join(doc.lines[n - 1].strip() for n in lines if doc.lines[n - 1].strip())

    def _spelled_alike(self, ch: Change) -> tuple[list[str], list[str]]:
        """The two versions of a changed stretch as written, the words they share spelled as the new text
        spells them: an OCR-damaged "fazi" against "fázi" would otherwise lemmatize apart."""
        was, now = [], []
        j = ch.d1
        for a, b, c, d in sorted(ch.parts) + [(ch.c2, ch.c2, ch.d2, ch.d2)]:
            shared = self.new.raw[j:c]  # the equal words before this part (as many on the old side)
            was += shared + self.old.raw[a:b]
            now += shared + self.new.raw[c:d]
            j = d
        return was, now

    def change(self, ch: Change) -> list[Finding]:
        old, new, lang = self.old, self.new, self.lang
        was, now = old.words[ch.c1:ch.c2], new.words[ch.d1:ch.d2]
        old_lines, new_lines = old.span_lines(ch.i1, ch.i2), new.span_lines(ch.j1, ch.j2)
        removed = " ".join(old.raw[ch.i1:ch.i2])
        added = " ".join(new.raw[ch.j1:ch.j2])
        found: list[tuple[str, str, dict]] = []  # (check, class, message parameters)
        before, after = self.lex.counts(was, lang), self.lex.counts(now, lang)
        for check in sorted(set(before) | set(after)):
            b, a = before.get(check, Counter()), after.get(check, Counter())
            if b != a:
                lost, gained = sorted((b - a).elements()), sorted((a - b).elements())
                found.append((check, "rule", {"lost": ", ".join(dict.fromkeys(lost)) or "—",
                                              "gained": ", ".join(dict.fromkeys(gained)) or "—", "options": True}))
        # game objects (glossary terms, through their forms in the knowledge base): "on the ship" became
        # "on the wall"
        raw_was, raw_now = self._spelled_alike(ch)
        named_was = self.glossary.named([lemma(w, lang) for w in raw_was], lang)
        named_now = self.glossary.named([lemma(w, lang) for w in raw_now], lang)
        if named_was != named_now:
            name = lambda ids: ", ".join(sorted(i.split("/")[-1].replace("-", " ") for i in ids)) or "—"  # noqa: E731
            lost, gained = named_was - named_now, named_now - named_was
            # one object for another is a rule; a name only added or dropped ("the board" / "the game
            # board") usually says the same object more or less fully
            found.append(("term", "rule" if lost and gained else "wording", {"lost": name(lost), "gained": name(gained)}))
        nb, na = self.lex.numbers(was, lang), self.lex.numbers(now, lang)
        if {v for v, _ in nb.elements()} != {v for v, _ in na.elements()} or sum(nb.values()) != sum(na.values()):
            # the counted word as the text writes it ("3 VB", not the folded "3 vb")
            written = dict(zip(was + now, old.raw[ch.c1:ch.c2] + new.raw[ch.d1:ch.d2]))
            says = lambda c: ", ".join(f"{v} {written.get(w, w)}".strip() for v, w in sorted(c.elements())) or "—"  # noqa: E731
            found.append(("numbers", "rule", {"lost": says(nb - na), "gained": says(na - nb)}))
        # list items: the lines that open one, in the changed stretch and its context on each side (the
        # word alignment may take an item's words from a neighbouring item that repeats them)
        items_was = [n for n in old.span_lines(ch.c1, ch.c2) if self.lex.list_item.match(old.lines[n - 1])]
        items_now = [n for n in new.span_lines(ch.d1, ch.d2) if self.lex.list_item.match(new.lines[n - 1])]
        if len(items_was) != len(items_now):
            check = LIST_CHECK + ("-removed" if len(items_was) > len(items_now) else "-added")
            found.append((check, "rule", {"lost": removed or "—", "gained": added or "—"}))
        if not found:
            from rapidfuzz import fuzz
            if fuzz.ratio(" ".join(old.words[ch.i1:ch.i2]), " ".join(new.words[ch.j1:ch.j2])) >= SPELLING:
                return []  # letters the scan misread, words it split or joined: the passage says the same
            found.append(("reworded", "wording", {"lost": removed or "—", "gained": added or "—"}))
        owners = [rf for n in old_lines for rf in self.cited.get(n, [])]
        rec, fld = owners[0] if owners else (None, "text")
        entity = rec.id if rec else f"{self.base}:{old_lines[0] if old_lines else 0}"
        side_new = Side(self.label_new, self.name, spans_of(new_lines), self._quote(new, new_lines) or "—")
        side_was = Side(self.label_old if self.base == self.against else self.kb.sources[self.base].meta.lang,
                        self.base, spans_of(old_lines), self._quote(old, old_lines) or "—")
        # the entity's text of that field in SOURCE, else its text of any field there (a heading against
        # its body), else that of another entity the change touches
        item = next((self.texts[k] for k in ([(r.id, f) for r, f in owners]
                                             + [k for r, _ in owners for k in self.texts if k[0] == r.id])
                     if k in self.texts), None)
        if self.base == self.against:
            side_old = side_was
        elif item:
            side_old = Side(self.label_old, self.against, _lines(item), item.text)
        else:
            side_old = None
        out = []
        for check, triage, params in found:
            params = dict(params, was=removed or "—", now=added or "—")
            template = CHANGE_MESSAGES[check]
            if check == "numbers" and rec is not None and isinstance(rec.item, Entity):
                stated = {v for v, _ in nb.elements()} - {v for v, _ in na.elements()}
                attrs = [f"{k} = {v}" for k, v in rec.item.attrs.items() if isinstance(v, int) and v in stated]
                if attrs:  # the structured effect's number the changed text no longer states
                    template, params["attrs"] = CHANGE_MESSAGES["numbers-kb"], ", ".join(attrs)
            message = msg(template, **params)
            f = Finding(self.meta.game, entity, fld, check, triage, message, side_old, side_new,
                        detail=f"{' '.join(old.words[ch.i1:ch.i2])}>{' '.join(new.words[ch.j1:ch.j2])}")
            # the words that differ (for highlighting), not the equal words between two close changes
            f.changed = (" ".join(w for a, b, _, _ in ch.parts for w in old.raw[a:b]),
                         " ".join(w for _, _, c, d in ch.parts for w in new.raw[c:d]))
            f.was = side_was if self.base != self.against else None
            f.entities = list(dict.fromkeys(r.id for r, _ in owners))
            out.append(f)
        return out


# The options of the lexicon of changes (i18n/lexicon.yaml) as a reader sees them in a message
TIME_UNIT_LABELS = {"turn": N_("turn"), "round": N_("round"), "day": N_("day")}
OPTION_LABELS = {
    "must": N_("must"), "may": N_("may"), "may-not": N_("may not"), "need-not": N_("need not"), "not": N_("not"),
    "prefix": N_("a verb negated by its prefix"), "at-least": N_("at least"), "at-most": N_("at most"),
    "only": N_("only"), "up-to": N_("up to"), "each": N_("each"), "all": N_("all"), "any": N_("any"),
    "none": N_("none"), "left": N_("left"), "right": N_("right"), "first": N_("first"), "last": N_("last"),
    "fewest": N_("fewest"), "most": N_("most"), "clockwise": N_("clockwise"),
    "counterclockwise": N_("counterclockwise"), "player": N_("the player"), "neighbour": N_("the neighbour"),
    "opponent": N_("an opponent"), "meng": N_("Meng"), "you": N_("you"), "if": N_("if"), "only-if": N_("only if"),
    "unless": N_("unless"), "—": "—",
    # marker classes of the knowledge-base comparison (i18n/lexicon.py MARKERS) not named above
    "both": N_("both"), "when": N_("when / whenever"), "must-not": N_("need not"), "negation": N_("not"),
    "then": N_("then (a fixed order)"),
}
CHANGE_MESSAGES = {
    "modality": N_("modality changed: %(lost)s → %(gained)s (“%(was)s” → “%(now)s”)"),
    "negation": N_("negation changed: %(lost)s → %(gained)s (“%(was)s” → “%(now)s”)"),
    "limit": N_("limit changed: %(lost)s → %(gained)s (“%(was)s” → “%(now)s”)"),
    "quantifier": N_("quantifier changed: %(lost)s → %(gained)s (“%(was)s” → “%(now)s”)"),
    "order": N_("order changed: %(lost)s → %(gained)s (“%(was)s” → “%(now)s”)"),
    "actor": N_("who acts changed: %(lost)s → %(gained)s (“%(was)s” → “%(now)s”)"),
    "condition": N_("condition changed: %(lost)s → %(gained)s (“%(was)s” → “%(now)s”)"),
    "term": N_("game term changed: %(lost)s → %(gained)s (“%(was)s” → “%(now)s”)"),
    "numbers": N_("numbers changed: %(lost)s → %(gained)s (“%(was)s” → “%(now)s”)"),
    "numbers-kb": N_("numbers changed: %(lost)s → %(gained)s (“%(was)s” → “%(now)s”); the knowledge base has %(attrs)s"),
    LIST_CHECK + "-removed": N_("list item removed: “%(was)s”"),
    LIST_CHECK + "-added": N_("list item added: “%(now)s”"),
    "reworded": N_("reworded, no rule word changed: “%(was)s” → “%(now)s”"),
}


def base_source(kb: KnowledgeBase, game: str, lang: str, new: Document) -> str | None:
    """The stored source of this game and language the outside text is most like."""
    from rapidfuzz.distance import Indel

    ids = [sid for sid, s in kb.sources.items() if s.meta.game == game and s.meta.lang == lang]
    if not ids:
        return None
    return max(ids, key=lambda sid: Indel.normalized_similarity(stored_document(kb, sid).words, new.words))


def check_text(kb: KnowledgeBase, path: Path, lang: str, against: str) -> list[Finding]:
    """Compare a rulebook text that is not in the KB (a new translation, edition or printing) with a KB
    source: through the stored text of its own language (see above)."""
    meta = kb.sources[against].meta
    new = text_document(path.read_text(encoding="utf-8"))
    if not new.words:
        raise ValueError(f"{path.name} has no words to compare")
    base = base_source(kb, meta.game, lang, new)
    if base is None:
        raise ValueError(f"{meta.game} has no stored {lang} text to align {path.name} with; "
                         f"its sources: {', '.join(sorted(s for s in kb.sources if kb.sources[s].meta.game == meta.game))}")
    full = stored_document(kb, base)
    lo, hi = _covered(full, new)
    out: list[Finding] = []
    if base != against:
        bm = kb.sources[base].meta
        mode, a, b = ("langs", meta.lang, lang) if bm.lang != meta.lang else ("editions", meta.edition, bm.edition)
        known = Checker(kb, meta.game).run(mode, a, b)
        if hi - lo < WHOLE * len(full.words):  # a chapter or a page: the knowledge base's findings on it
            covered = set(full.owner[lo:hi])
            known = [f for f in known if any(s and s.source == base and _span_set(s.lines) & covered for s in (f.a, f.b))]
        out += known
    out += TextCheck(kb, base, against, _window(full, lo, hi), new, path.name, lang).findings()
    return out


# An outside text that covers this share of its stored source is the whole rulebook
WHOLE = 0.9


def _span_set(spans) -> set[int]:
    return {n for a, b in (spans or []) for n in range(a, b + 1)}
