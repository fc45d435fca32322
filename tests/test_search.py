"""Search folds case and diacritics (ł too), ranks, filters, and never errors on user input.
Every test runs on SQLite (FTS5) and PostgreSQL (tsvector)."""
import pytest

from kb.search import search

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


def test_pagination_reports_the_total(fixture_engine):
    first = search(fixture_engine, "sluzacy", limit=1)
    second = search(fixture_engine, "sluzacy", limit=1, offset=1)
    assert first.total == second.total >= 2
    assert first.hits[0].id != second.hits[0].id
