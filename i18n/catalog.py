"""Interface strings through babel message catalogs (gettext .po/.mo) in pl, cs and en.

Strings are marked in code as `t(lang, "…", **params)` / `nt(lang, "one", "many", n, **params)` and
in templates the same way. `extract_template()` collects them (babel's extractors), the .po files
under i18n/locale/<lang>/LC_MESSAGES/ hold the translations (data, reviewed by people), and
`compile_catalogs()` turns them into .mo files; `rulekb build` compiles them. English is the
source language: its catalog is empty and gettext falls back to the msgid.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po
from babel.support import NullTranslations, Translations

DOMAIN = "rulekb"
LANGS = ("pl", "cs")  # catalogs; English is the source language
ROOT = Path(__file__).resolve().parent.parent
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
KEYWORDS = {"t": (2,), "nt": (2, 3), "N_": (1,), "tr": (1,)}
SCAN = [  # (directory, method map)
    (ROOT / "kb", [("**.py", "python")]),
    (ROOT / "api", [("**.py", "python")]),
    (ROOT / "i18n", [("**.py", "python")]),
    (ROOT / "engine", [("**.py", "python")]),
    (ROOT / "site", [("**.py", "python"), ("templates/**.j2", "jinja2")]),
]


def po_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def mo_path(lang: str) -> Path:
    return po_path(lang).with_suffix(".mo")


def extract_template() -> Catalog:
    """Every marked interface string in the code and templates."""
    template = Catalog(project="rulekb", domain=DOMAIN)
    for directory, method_map in SCAN:
        if not directory.is_dir():
            continue
        options = {"templates/**.j2": {"extensions": "jinja2.ext.do"}}
        for filename, lineno, message, comments, context in extract_from_dir(
                directory, method_map, options, keywords=KEYWORDS, comment_tags=("TRANSLATORS:",)):
            template.add(message, None, [(str(directory.relative_to(ROOT) / filename), lineno)],
                         auto_comments=comments, context=context)
    return template


def read_catalog(lang: str) -> Catalog:
    with po_path(lang).open("rb") as fh:
        return read_po(fh, locale=lang, domain=DOMAIN)


def update_catalogs() -> dict[str, int]:
    """Merge newly marked strings into the .po files; returns how many are untranslated per language."""
    template = extract_template()
    missing = {}
    for lang in LANGS:
        path = po_path(lang)
        path.parent.mkdir(parents=True, exist_ok=True)
        catalog = read_catalog(lang) if path.is_file() else Catalog(locale=lang, domain=DOMAIN, project="rulekb")
        catalog.update(template, update_header_comment=False)
        catalog.obsolete.clear()
        catalog.fuzzy = False
        catalog.project, catalog.version = "rulekb", "1"
        catalog.copyright_holder = "the rulekb project"
        catalog.msgid_bugs_address = ""
        catalog.last_translator = "the rulekb project"
        catalog.language_team = f"rulekb {lang}"
        catalog.header_comment = (f"# {lang} interface strings of rulekb. Extracted with `rulekb i18n update`;\n"
                                  "# compiled to .mo by `rulekb build`.")
        with path.open("wb") as fh:
            write_po(fh, catalog, width=100, omit_header=False, sort_output=True, ignore_obsolete=True)
        missing[lang] = sum(1 for m in catalog if m.id and not m.string)
    return missing


def untranslated(lang: str) -> list[str]:
    """Marked strings with no translation (or a fuzzy one) in the language's catalog."""
    if lang not in LANGS:
        return []
    catalog = read_catalog(lang)
    ids = {m.id for m in extract_template() if m.id}
    done = {m.id for m in catalog if m.id and m.string and not m.fuzzy and all(m.string if isinstance(m.string, tuple) else [m.string])}
    return sorted((i if isinstance(i, str) else i[0]) for i in ids - done)


def compile_catalogs() -> list[Path]:
    written = []
    for lang in LANGS:
        if not po_path(lang).is_file():
            continue
        catalog = read_catalog(lang)
        with mo_path(lang).open("wb") as fh:
            write_mo(fh, catalog, use_fuzzy=False)
        written.append(mo_path(lang))
    translations.cache_clear()
    return written


@lru_cache(maxsize=None)
def translations(lang: str) -> NullTranslations:
    if lang not in LANGS:
        return NullTranslations()
    if not mo_path(lang).is_file() or mo_path(lang).stat().st_mtime < po_path(lang).stat().st_mtime:
        compile_catalogs()  # a fresh checkout that has not run `rulekb build` yet
    with mo_path(lang).open("rb") as fh:
        return Translations(fh, domain=DOMAIN)


def N_(message: str) -> str:
    """Marks a string for extraction where it is defined; it is translated later with t()."""
    return message


def t(lang: str, message: str, /, **params) -> str:
    text = translations(lang).gettext(message)
    return text % params if params else text


def nt(lang: str, singular: str, plural: str, n: int, /, **params) -> str:
    """Plural-aware: Polish and Czech catalogs carry their CLDR plural forms (one/few/many)."""
    text = translations(lang).ngettext(singular, plural, n)
    return text % dict(params, n=n)
