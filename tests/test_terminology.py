"""Czech terminology of the games without a Czech rulebook (their Czech texts are written for the project):
every Czech text keeps to the glossary, the term entities' Czech forms in kb/data/<game>/term.yaml."""
from __future__ import annotations

import re

import pytest

from kb.loader import load
from kb.schema import text_items

WORD = re.compile(r"[^\W\d_]+")
ABBREVIATION = re.compile(r"\b[A-ZÁČĎÉĚÍŇÓŘŠŤÚŮÝŽ]{2,4}\b")
QUOTED = re.compile(r"„[^“]*“")  # a quotation of the Polish source is not Czech wording
# ordinary words that merely begin like a term (kol-ik, práv-ě, herní prvky, oblasti zdí, ukazatele nepokojů)
NOT_TERMS = {"kolik", "právě", "mění", "společně", "herních", "oblastech", "ukazatelů"}
# wordings the glossary replaced: the glossary form to use instead
RETIRED = {"do banku": "do banky", "z banku": "z banky", "od banku": "od banky", "u banku": "u banky",
           "dílek události": "destička události", "dílku události": "destičce události",
           "dílky událostí": "destičky událostí", "ŽS": "žeton sjednocení"}


@pytest.fixture(scope="module")
def kb():
    return load()


def translated_games(kb):
    return sorted(g for g, game in kb.games.items() if "cs" in (game.no_source_langs or []))


def terms(kb, game):
    return [r for r in kb.records.values() if r.game == game and r.kind == "term"]


def czech_texts(kb, game):
    """(entity id, field, text) of every Czech text of the game."""
    for rec in kb.records.values():
        if rec.game == game:
            for fld, langs in rec.texts.items():
                if langs.get("cs") is not None:
                    for item in text_items(langs["cs"]):
                        yield rec.id, fld, item.text


def test_the_translated_games_are_checked(kb):
    assert translated_games(kb) == ["dragon", "zhanguo"]


@pytest.mark.parametrize("game", ["dragon", "zhanguo"])
def test_term_names_are_common_nouns_in_both_games(kb, game):
    """A term's Czech name is capitalised exactly when its English name is (a proper noun), the same in
    every translated game, and it is the glossary's first form or a phrase of them."""
    wrong = [(t.id, t.texts["name"]["cs"]) for t in terms(kb, game)
             if t.texts["name"]["cs"][0].isupper() != t.texts["name"]["en"][0].isupper()]
    assert wrong == []


@pytest.mark.parametrize("game", ["dragon", "zhanguo"])
def test_czech_texts_inflect_terms_as_the_glossary_does(kb, game):
    """A word that begins with a term's stem is one of the glossary's forms: 'do banku' (a masculine bank)
    fails because the glossary's bank is 'banka' (do banky, z banky)."""
    glossary = terms(kb, game)
    forms = {w.lower() for t in glossary for f in (t.item.forms or {}).get("cs", []) for w in WORD.findall(f)}
    stems = {}
    for t in glossary:
        head = WORD.findall(t.item.forms["cs"][0])[0].lower()
        stems[re.sub(r"[aeiouyáéíóúůýě]+$", "", head)] = t.id
    deviations = sorted({(eid, fld, word) for eid, fld, text in czech_texts(kb, game)
                         for word in WORD.findall(QUOTED.sub("", text)) for stem in stems
                         if len(stem) >= 3 and word.lower().startswith(stem)
                         and word.lower() not in forms | NOT_TERMS})
    assert deviations == []


@pytest.mark.parametrize("game", ["dragon", "zhanguo"])
def test_no_retired_wording_remains(kb, game):
    found = sorted({(eid, fld, old, new) for eid, fld, text in czech_texts(kb, game)
                    for old, new in RETIRED.items() if re.search(rf"\b{old}\b", text)})
    assert found == []
    assert not {old for t in terms(kb, game) for f in (t.item.forms or {}).get("cs", []) for old in RETIRED if old == f}


@pytest.mark.parametrize("game", ["dragon", "zhanguo"])
def test_abbreviations_are_ones_czech_players_know(kb, game):
    """A Czech abbreviation of a translated game is one the published Czech rulebook (Gugong) uses, such as
    VB; a coined one (ŽS) is spelled out. Notes may name the Polish source's abbreviations."""
    known = {w for src, text in kb.sources.items() if src.endswith("-cs") for w in ABBREVIATION.findall("\n".join(text.lines))}
    known.add("OCR")  # the notes speak of the scans' OCR
    coined = sorted({(eid, fld, w) for eid, fld, text in czech_texts(kb, game) if fld != "note"
                     for w in ABBREVIATION.findall(QUOTED.sub("", text)) if w not in known})
    assert coined == []
