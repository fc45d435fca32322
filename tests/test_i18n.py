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

