"""Search folds case and diacritics (ł too), ranks, filters, and never errors on user input.
Every test that takes fixture_engine runs on SQLite and on PostgreSQL."""

import pytest

from cli.build import build
from kb.db import open_engine
from kb.search import read_index, search, vocab
from tests.conftest import JADE

HOSTILE = ['"', "'", "(", ")", "((", 'AND', 'OR', 'NOT', 'AND OR NOT', 'c++', '10%', 'co-op', 'hráč:karty',
           'NEAR(a b)', '*', '^x', 'a:b & c | !d <-> e', '\\', '"unclosed', "sluz*", "-", "", "   ",
           "x" * 400, "słowo " * 30, "中文", "💥", "%00", "'; DROP TABLE entity; --"]


@pytest.mark.parametrize("q", ["sluzacy", "SŁUŻĄCY", "służący", "Sluzacy", "sluzebnik", "SLUŽEBNÍK"])
def test_servant_is_the_first_hit(fixture_engine, q):
    res = search(fixture_engine, q, game="gugong")
    assert res.hits[0].id == "gugong/term/servant"


def test_inflected_forms_find_the_term(fixture_engine):
    for q in ["służącymi", "služebníků", "servants"]:
        assert search(fixture_engine, q).hits[0].id == "gugong/term/servant", q


def test_polish_l_is_folded_in_query_and_index(fixture_engine):
    a, b = search(fixture_engine, "zołw"), search(fixture_engine, "zolw")
    assert [h.id for h in a.hits] == [h.id for h in b.hits]
    assert search(fixture_engine, "pięciu służących").hits[0].id == "gugong/location/jade"
    assert search(fixture_engine, "PIECIU SLUZACYCH").hits[0].id == "gugong/location/jade"


@pytest.mark.parametrize("q", HOSTILE)
def test_hostile_queries_return_results_or_nothing_never_an_error(fixture_engine, q):
    res = search(fixture_engine, q)
    assert res.total >= 0 and isinstance(res.hits, list)


def test_operators_are_plain_words(fixture_engine):
    assert search(fixture_engine, "jadeit OR").total == search(fixture_engine, "jadeit").total


def test_filters_by_language_and_kind(fixture_engine):
    assert {h.lang for h in search(fixture_engine, "jade", lang="en").hits} == {"en"}
    assert {h.kind for h in search(fixture_engine, "jade", kind="location").hits} == {"location"}
    assert search(fixture_engine, "jade", game="dragon").total == 0


def test_snippet_marks_the_match_in_the_original_text(fixture_engine):
    hit = search(fixture_engine, "SLUZACYCH", kind="location", lang="pl").hits[0]
    (a, b), = hit.highlights
    assert hit.snippet[a:b] == "Służących"


def test_no_entry_with_all_words_falls_back_and_says_so(fixture_engine):
    res = search(fixture_engine, "jadeit xylophone")
    assert res.total > 0 and any("some of them" in w for w in res.warnings)
    # ... but not of a question in a full sentence, whose answer seldom holds every word
    res = search(fixture_engine, "ile służących trzeba oddać za jadeit gdy gram xylophone w poniedziałek wieczorem")
    assert res.total > 0 and not any("some of them" in w for w in res.warnings)


def test_paging_through_a_common_word_gives_every_matching_entry_once(real_db):
    """More entries match "gracz" (player) than the ranking scores for one page: the total still
    counts them all, and the pages hold each of them exactly once."""
    engine = open_engine(real_db, readonly=True)
    total, ids = search(engine, "gracz").total, []
    while len(ids) < total + 100:
        page = search(engine, "gracz", limit=100, offset=len(ids)).hits
        if not page:
            break
        ids += [h.id for h in page]
    assert total > 200 and len(ids) == len(set(ids)) == total


def test_a_question_in_full_sentences_is_read_to_its_end(real_db):
    """A newcomer tells the situation first and asks last: the question past its twelfth word is not cut
    off, and of the many entries holding two of its words the ones holding its rare words are ranked."""
    engine = open_engine(real_db, readonly=True)
    q = ("Hrajeme poprvé ve třech a nejsme si jistí jednou věcí, tak se radši zeptám: kolik služebníků musí "
         "stát na Velké zdi, aby byl úsek dokončen?")
    res = search(engine, q, game="gugong", lang="cs")
    assert res.hits[0].id == "gugong/rule/wall-completion"
    assert not any("first" in w for w in res.warnings)


def test_an_option_printed_as_a_letter_is_found_and_shown_with_its_location(real_db):
    """Gugong prints a location's options as "A" and "B" under its heading: a hit named "B" told a reader
    nothing, and "podróż b" found the location before its option."""
    engine = open_engine(real_db, readonly=True)
    for q, lang, name in (("podróż b", "pl", "Podróż: B"), ("cestování B", "cs", "Cestování: B"),
                          ("travel option b", "en", "Travel: B")):
        hit = search(engine, q, game="gugong", lang=lang).hits[0]
        assert (hit.id, hit.name) == ("gugong/action-option/travel-b", name), q


def test_only_a_query_past_forty_words_is_cut_and_says_so(fixture_engine):
    words = [f"slowo{chr(97 + i // 26)}{chr(97 + i % 26)}" for i in range(45)]
    assert len(search(fixture_engine, " ".join(words[:40])).tokens) == 40
    res = search(fixture_engine, " ".join(words))
    assert len(res.tokens) == 40 and any("first 40 words" in w for w in res.warnings)


def test_pagination_reports_the_total(fixture_engine):
    first = search(fixture_engine, "sluzacy", limit=1)
    second = search(fixture_engine, "sluzacy", limit=1, offset=1)
    assert first.total == second.total >= 2
    assert first.hits[0].id != second.hits[0].id


def test_a_typo_finds_the_entry_and_suggests_the_word(fixture_engine):
    res = search(fixture_engine, "sluzaci")
    assert res.hits[0].id == "gugong/term/servant"
    assert res.suggestion == "służący"
    assert search(fixture_engine, "służący").suggestion is None


def test_short_words_get_no_typo_tolerance(fixture_engine):
    assert search(fixture_engine, "jadt").total == 0  # four letters: no edit allowed


def test_a_prefix_finds_the_entry_as_the_player_types(fixture_engine):
    assert search(fixture_engine, "sluz").hits[0].id in {"gugong/term/servant", "gugong/term/double-servant"}


def test_an_entry_named_by_the_query_comes_before_texts_that_mention_it(fixture_engine):
    assert search(fixture_engine, "podwojny sluzacy").hits[0].id == "gugong/term/double-servant"
    assert search(fixture_engine, "Jadeit").hits[0].kind in {"term", "location"}


def test_inflected_form_absent_from_the_texts_is_lemmatized(fixture_engine):
    # "służącemu" (dative) is in no text of the fixture; morfeusz2 gives its lemma
    assert search(fixture_engine, "służącemu").hits[0].id == "gugong/term/servant"


def test_explain_tells_why_each_hit_scored(fixture_engine):
    plain = search(fixture_engine, "jadeit")
    assert all(h.explain is None for h in plain.hits)
    hit = search(fixture_engine, "jadeit", explain=True).hits[0]
    assert hit.explain["name_match"].startswith("exact")
    assert hit.explain["total"] == pytest.approx(hit.score, abs=0.01)


@pytest.mark.parametrize("q", ["sluzacy", "jadeit", "sluzaci", "podwojny sluzacy", "pięciu służących", "jade"])
def test_both_databases_rank_alike(fixture_db, fixture_pg, q):
    from kb.db import open_engine

    orders = []
    for url in (fixture_db, fixture_pg):
        engine = open_engine(url)
        orders.append([(h.id, h.score) for h in search(engine, q).hits])
        engine.dispose()
    assert orders[0] == orders[1]


def test_the_api_passes_explain_through_and_suggests_a_spelling(fixture_db):
    from fastapi.testclient import TestClient

    from api.app import create_app

    client = TestClient(create_app(fixture_db, site_dir=None))
    body = client.get("/api/v1/search", params={"q": "sluzaci", "explain": "true"}).json()
    assert body["data"][0]["id"] == "gugong/term/servant"
    # "sluzaci" shares a stem with "służący" (kb/data/search.yaml, stems): a form, not the word itself
    assert body["data"][0]["explain"]["name_match"].startswith(("prefix", "fuzzy"))
    assert body["suggestion"] == "służący"
    assert "explain" not in client.get("/api/v1/search", params={"q": "sluzacy"}).json()["data"][0]


def test_a_reader_that_noticed_a_new_build_reads_that_builds_index(new_pg_url, fixture_kb, fixture_kb_without_jade):
    """`vocab` may answer from the build it read less than a second ago; `read_index`, which the API's
    reader calls once it has seen a new build, always reads the build the database holds."""
    build(new_pg_url, kb=fixture_kb_without_jade)
    engine = open_engine(new_pg_url, readonly=True)
    old = vocab(engine)
    build(new_pg_url, kb=fixture_kb)
    new = read_index(engine)
    assert JADE in {d.entity_id for d in new.docs.values()} - {d.entity_id for d in old.docs.values()}
    engine.dispose()
