"""Interface strings through babel message catalogs (gettext .po/.mo) in pl, cs and en.

Strings are marked in code as `t(lang, "…", **params)` / `nt(lang, "one", "many", n, **params)` and
in templates the same way. `extract_template()` collects them (babel's extractors), the .po files
under i18n/locale/<lang>/LC_MESSAGES/ hold the translations (data, reviewed by people), and
`compile_catalogs()` turns them into .mo files; `rulekb build` compiles them. English is the
source language: its catalog is empty and gettext falls back to the msgid.
"""
from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po
from babel.support import NullTranslations, Translations

from kb.messages import N_, Message  # noqa: F401  (re-exported: the marker lives in kb, below i18n)

DOMAIN = "rulekb"
CATALOG_LANGS = ("pl", "cs")  # languages with a translated catalog; English is the source language
ROOT = Path(__file__).resolve().parent.parent
# RULEKB_LOCALE_DIR lets a test point the catalogs elsewhere (e.g. a copy with a string removed)
LOCALE_DIR = Path(os.environ.get("RULEKB_LOCALE_DIR") or Path(__file__).resolve().parent / "locale")
KEYWORDS = {"t": (2,), "nt": (2, 3), "_nt": (1, 2), "N_": (1,), "tr": (1,)}
SCAN = [  # (directory, method map)
    (ROOT / "cli", [("**.py", "python")]),
    (ROOT / "kb", [("**.py", "python")]),
    (ROOT / "api", [("**.py", "python")]),
    (ROOT / "i18n", [("**.py", "python")]),
    (ROOT / "engine", [("**.py", "python")]),
    (ROOT / "site", [("**.py", "python"), ("templates/**.j2", "jinja2")]),
]


EFFECTS_DOMAIN = "effects"


def po_path(lang: str, domain: str = DOMAIN) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{domain}.po"


def mo_path(lang: str, domain: str = DOMAIN) -> Path:
    return po_path(lang, domain).with_suffix(".mo")


def extract_effects_template() -> Catalog:
    """Messages that come from the data: each game's nouns (i18n/nouns.yaml) and the free-text
    arguments of effects in kb/data, with the game as context."""
    import yaml

    from kb.loader import load

    template = Catalog(project="rulekb", domain=EFFECTS_DOMAIN)
    nouns = yaml.safe_load((Path(__file__).parent / "nouns.yaml").read_text(encoding="utf-8"))
    for game, groups in nouns.items():
        for key, (singular, plural) in groups.get("resources", {}).items():
            template.add((singular, plural), None, [("i18n/nouns.yaml", 0)], auto_comments=[f"resource {key}"],
                         context=game)
        for group in ("tracks", "moments"):
            for key, phrase in groups.get(group, {}).items():
                template.add(phrase, None, [("i18n/nouns.yaml", 0)], auto_comments=[f"{group[:-1]} {key}"],
                             context=game)
    kb = load(strict=False)
    for rec in sorted(kb.records.values(), key=lambda r: r.id):
        effect = getattr(rec.item, "effect", None)
        for role, text in _free_texts(effect):
            template.add(text, None, [(str(rec.file.relative_to(ROOT)), 0)], auto_comments=[rec.id, ROLE_NOTES[role]],
                         context=f"{rec.game}:{role}")
    return template


_FREE_TEXT = {"per": ("each",), "condition": ("if",), "place": ("where", "from"), "modify": ("what",),
              "take": ("from",)}
ROLE_NOTES = {
    "each": "what is counted; translate with its 'for each' (za każdy / za každý …), it stands alone before ':'",
    "if": "a condition clause, after 'if' (jeśli / pokud)",
    "where": "where pieces are placed (after an arrow; nominative phrase)",
    "from": "where pieces come from (before an arrow; nominative phrase)",
    "what": "what a lasting modifier changes (a noun phrase, nominative)",
    "whom": "the player something is taken from, after 'from' (od … / od …: genitive)",
}


def _free_texts(steps):
    for step in steps if isinstance(steps, list) else []:
        if not isinstance(step, dict) or len(step) != 1:
            continue
        (op, args), = step.items()
        if isinstance(args, dict):
            for key in _FREE_TEXT.get(op, ()):
                if isinstance(args.get(key), str) and args[key]:
                    yield ("whom" if op == "take" else key), args[key]
            for key in ("do", "options"):
                for inner in (args.get(key) if isinstance(args.get(key), list) else []):
                    yield from _free_texts(inner if isinstance(inner, list) else [inner])
        elif isinstance(args, list):
            for inner in args:
                yield from _free_texts(inner if isinstance(inner, list) else [inner])


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


def read_catalog(lang: str, domain: str = DOMAIN) -> Catalog:
    with po_path(lang, domain).open("rb") as fh:
        return read_po(fh, locale=lang, domain=domain)


def update_catalogs() -> dict[str, int]:
    """Merge newly marked strings into the .po files; returns how many are untranslated per catalog."""
    missing = {}
    for domain, template in ((DOMAIN, extract_template()), (EFFECTS_DOMAIN, extract_effects_template())):
        for lang, count in _update_domain(domain, template).items():
            missing[f"{lang}/{domain}"] = count
    return missing


def _update_domain(domain: str, template: Catalog) -> dict[str, int]:
    missing = {}
    for lang in CATALOG_LANGS:
        path = po_path(lang, domain)
        path.parent.mkdir(parents=True, exist_ok=True)
        catalog = read_catalog(lang, domain) if path.is_file() else Catalog(locale=lang, domain=domain, project="rulekb")
        catalog.update(template, no_fuzzy_matching=True, update_header_comment=False)
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
        missing[lang] = sum(1 for m in catalog if m.id and not _translated(m))
    return missing


def _translated(message) -> bool:
    strings = message.string if isinstance(message.string, tuple) else (message.string,)
    return bool(strings) and all(strings) and not message.fuzzy


def untranslated(lang: str, domain: str = DOMAIN) -> list[str]:
    """Marked strings with no translation (or a fuzzy one) in the language's catalog."""
    if lang not in CATALOG_LANGS:
        return []
    template = extract_template() if domain == DOMAIN else extract_effects_template()
    catalog = read_catalog(lang, domain)
    wanted = {(m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in template if m.id}
    done = {(m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in catalog if m.id and _translated(m)}
    return sorted(f"{c}: {i}" if c else i for c, i in wanted - done)


def compile_domain(domain: str, lang: str) -> Path:
    """The compiled .mo of one catalog, compiled now if missing or older than its .po."""
    po, mo = po_path(lang, domain), mo_path(lang, domain)
    if not mo.is_file() or mo.stat().st_mtime < po.stat().st_mtime:
        catalog = read_catalog(lang, domain)
        with mo.open("wb") as fh:
            write_mo(fh, catalog, use_fuzzy=False)
    return mo


def compile_catalogs() -> list[Path]:
    written = []
    for domain in (DOMAIN, EFFECTS_DOMAIN):
        for lang in CATALOG_LANGS:
            if po_path(lang, domain).is_file():
                po_path(lang, domain).touch()  # force recompilation
                written.append(compile_domain(domain, lang))
    translations.cache_clear()
    return written


@lru_cache(maxsize=None)
def translations(lang: str) -> NullTranslations:
    if lang not in CATALOG_LANGS:
        return NullTranslations()
    with compile_domain(DOMAIN, lang).open("rb") as fh:  # compiled now in a fresh checkout
        return Translations(fh, domain=DOMAIN)


def t(lang: str, message: str, /, **params) -> str:
    text = translations(lang).gettext(message)
    return text % params if params else text


def nt(lang: str, singular: str, plural: str, n: int, /, **params) -> str:
    """Plural-aware: Polish and Czech catalogs carry their CLDR plural forms (one/few/many)."""
    text = translations(lang).ngettext(singular, plural, n)
    return text % {"n": n, **params}  # a caller may pass n already formatted for the locale


def render(lang: str, message: Message) -> str:
    """Words kept as a msgid and parameters (kb.messages.Message: the loader's issues, the engine's
    refusals) in the reader's language, a parameter that is itself a Message too."""
    params = {k: render(lang, v) if isinstance(v, Message) else v for k, v in message.params.items()}
    return t(lang, message.msgid, **params)
