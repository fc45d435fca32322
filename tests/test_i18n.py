"""Interface strings go through babel catalogs, complete in Polish and Czech."""
import pytest

from i18n.catalog import compile_catalogs, extract_template, read_catalog, t, untranslated


@pytest.mark.parametrize("domain", ["rulekb", "effects"])
@pytest.mark.parametrize("lang", ["pl", "cs"])
def test_every_marked_interface_string_and_effect_phrase_is_translated(lang, domain):
    assert untranslated(lang, domain) == []


@pytest.mark.parametrize("lang", ["pl", "cs"])
def test_catalogs_hold_no_stale_strings(lang):
    marked = {m.id for m in extract_template() if m.id}
    in_catalog = {m.id for m in read_catalog(lang) if m.id}
    assert in_catalog == marked, "run `rulekb i18n update`"


def test_catalogs_compile_and_translate():
    assert len(compile_catalogs()) == 4  # rulekb and effects, pl and cs
    assert t("pl", "Not found") == "Nie znaleziono"
    assert t("cs", "Not found") == "Nenalezeno"
    assert t("en", "Not found") == "Not found"
    assert t("cs", "(%(shown)d of %(total)d)", shown=3, total=9) == "(3 z 9)"


@pytest.mark.parametrize("lang, expected", [("pl", "nplurals=3"), ("cs", "nplurals=3")])
def test_catalogs_carry_cldr_plural_rules(lang, expected):
    assert expected in read_catalog(lang).plural_forms
