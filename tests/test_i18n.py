"""Interface strings go through babel catalogs, complete in Polish and Czech."""
import pytest

from i18n.catalog import compile_catalogs, extract_template, read_catalog, t, untranslated


@pytest.mark.parametrize("domain", ["rulekb", "effects", "notes"])
@pytest.mark.parametrize("lang", ["pl", "cs"])
def test_every_marked_interface_string_effect_phrase_and_kb_note_is_translated(lang, domain):
    """`notes`: every English note of kb/data (provenance, repairs, example facts, free-text values) has a
    Polish and a Czech translation that is neither empty nor fuzzy; a changed note is listed here by its text."""
    assert untranslated(lang, domain) == []


@pytest.mark.parametrize("lang", ["pl", "cs"])
def test_kb_note_translations_keep_the_ids_code_names_and_numbers_of_the_note(lang):
    """A note's entity ids become links by name on the page, and its numbers and code names are facts:
    its translation carries each of them unchanged."""
    import collections
    import re

    kept = re.compile(r"\b(?:gugong|dragon|zhanguo)/[a-z][a-z-]*/[a-z0-9*][a-z0-9-]*|\$this->\w+|\b[a-z]+_[a-z0-9_]+\b"
                      r"|\b[\w-]+\.(?:inc\.)?php\b|\d+")
    changed = {m.id: (collections.Counter(kept.findall(m.id)), collections.Counter(kept.findall(m.string)))
               for m in read_catalog(lang, "notes") if m.id and m.string}
    assert len(changed) > 400
    assert {note: (dict(a - b), dict(b - a)) for note, (a, b) in changed.items() if a != b} == {}


def test_a_kb_note_without_a_current_translation_is_reported_and_shown_in_english(tmp_path, monkeypatch):
    """A note whose translation was marked fuzzy (as a reviewer does when the English note changed) is
    named by the completeness check, and `note` gives no translation for it: the site shows it in English."""
    import shutil

    import i18n.catalog as catalog

    shutil.copytree(catalog.LOCALE_DIR, tmp_path / "locale")
    monkeypatch.setattr(catalog, "LOCALE_DIR", tmp_path / "locale")
    catalog._note_catalog.cache_clear()
    text = "cost printed on the decree; assumed equal to the level; see gugong/unknown/decree-costs"
    assert catalog.note("pl", text).startswith("koszt wydrukowany na dekrecie")
    po = catalog.po_path("pl", "notes")
    po.write_text(po.read_text(encoding="utf-8").replace(f'\nmsgid "{text}"', f'\n#, fuzzy\nmsgid "{text}"'),
                  encoding="utf-8")
    catalog._note_catalog.cache_clear()
    try:
        assert catalog.note("pl", text) is None and catalog.note("cs", text).startswith("cena vytištěná")
        assert catalog.untranslated("pl", "notes") == [text]
        assert catalog.note("en", text) == text and catalog.note("pl", text + " (changed)") is None
    finally:
        catalog._note_catalog.cache_clear()


@pytest.mark.parametrize("domain", ["rulekb", "notes"])
@pytest.mark.parametrize("lang", ["pl", "cs"])
def test_catalogs_hold_no_stale_strings(lang, domain):
    from i18n.catalog import TEMPLATES

    marked = {m.id for m in (TEMPLATES[domain]()) if m.id}
    in_catalog = {m.id for m in read_catalog(lang, domain) if m.id}
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


def _marked_calls() -> set[str]:
    """Every string literal passed to a gettext keyword in a call, read from the Python source."""
    import ast

    from i18n.catalog import KEYWORDS, ROOT, SCAN

    found = set()
    for directory, _ in SCAN:
        for path in directory.rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                name = (node.func.id if isinstance(node.func, ast.Name) else node.func.attr
                        if isinstance(node.func, ast.Attribute) else None) if isinstance(node, ast.Call) else None
                if name in KEYWORDS:
                    first = KEYWORDS[name][0]  # the message id (a plural's singular)
                    if len(node.args) >= first and isinstance(node.args[first - 1], ast.Constant) \
                            and isinstance(node.args[first - 1].value, str):
                        found.add(node.args[first - 1].value)
    return found


def test_no_local_name_shadows_a_gettext_keyword():
    """Babel's extractor knows no scopes: a loop variable named like a keyword (`for t in …`) is read as a
    call of it by some Babel releases (2.19 extracted `t("text", "name")`), so such names are kept free."""
    import ast

    from i18n.catalog import KEYWORDS, SCAN

    bound = []
    for directory, _ in SCAN:
        for path in directory.rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                name = (node.id if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store)
                        else node.arg if isinstance(node, ast.arg) else None)
                if name in KEYWORDS:
                    bound.append(f"{path}:{node.lineno} {name}")
    assert not bound


def test_extraction_finds_exactly_the_strings_marked_on_purpose():
    from i18n.catalog import extract_template

    extracted = {m.id if isinstance(m.id, str) else m.id[0]
                 for m in extract_template() if m.id and any(loc.endswith(".py") for loc, _ in m.locations)}
    assert extracted == _marked_calls()

