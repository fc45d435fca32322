"""Interface strings through babel message catalogs (gettext .po/.mo) in pl, cs and en.

Strings are marked in code as `t(lang, "…", **params)` / `nt(lang, "one", "many", n, **params)` and
in templates the same way. `extract_template()` collects them (babel's extractors), the .po files
under i18n/locale/<lang>/LC_MESSAGES/ hold the translations (data, reviewed by people), and
`compile_catalogs()` turns them into .mo files; `rulekb build` compiles them. English is the
source language: its catalog is empty and gettext falls back to the msgid.
"""
from __future__ import annotations

import os
import re
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
# The knowledge base's free-text notes, written in English in kb/data (the one source): provenance
# references, assumptions and notes, OCR repair notes, the facts a worked example states, and free-text
# attribute values. Their Polish and Czech translations are data of this catalog; a changed note
# leaves its old translation behind (dropped as obsolete by `rulekb i18n update`) and is untranslated.
NOTES_DOMAIN = "notes"
# an attribute value that is words, not a name or a number ("cheapest available")
FREE_VALUE = re.compile(r"[A-Za-z]{2,} [A-Za-z]{2,}")


def po_path(lang: str, domain: str = DOMAIN) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{domain}.po"


def mo_path(lang: str, domain: str = DOMAIN) -> Path:
    return po_path(lang, domain).with_suffix(".mo")


def extract_effects_template() -> Catalog:
    """Messages that come from the data: each game's nouns (i18n/nouns.yaml) and the labels of the
    conditions, counts, places, players and quantities its game.yaml declares, with the game and the
    label's role as context."""
    import yaml

    from kb.effects import TERM_ROLES, TERM_SECTIONS
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
    for key, game in sorted(kb.games.items()):
        for section in TERM_SECTIONS:
            role = TERM_ROLES[section]
            for name, entry in sorted(getattr(game, section).items()):
                notes = [f"{section[:-1]} {name}", ROLE_NOTES[role]] + ([entry.means] if entry.means else [])
                if entry.params:
                    notes.append("keep the placeholders " + ", ".join(f"{{{p}}}" for p in entry.params) + " (numbers)")
                template.add(entry.label, None, [(f"kb/data/{key}/game.yaml", 0)], auto_comments=notes,
                             context=f"{key}:{role}")
    return template


ROLE_NOTES = {
    "each": "what is counted; translate with its 'for each' (za każdy / za každý …), it stands alone before ':'",
    "if": "a condition clause, after 'if' (jeśli / pokud)",
    "place": "where pieces come from (before an arrow) or go to (after it); nominative phrase",
    "what": "what a lasting modifier changes (a noun phrase, nominative, the subject of 'is lowered by' / 'becomes'; or, for a change of no number, a whole clause after 'from now on,')",
    "whom": "the player something is taken from, after 'from' (od … / od …: genitive)",
    "says": "what a mechanism does: a whole clause with its verb, an instruction (imperative) or a statement",
}


def extract_notes_template() -> Catalog:
    """The English notes of kb/data (see NOTES_DOMAIN), each with the entities it is written for."""
    from kb.loader import load
    from kb.schema import text_items

    template = Catalog(project="rulekb", domain=NOTES_DOMAIN)
    kb = load(strict=False)
    for rec in sorted(kb.records.values(), key=lambda r: r.id):
        for role, note in _notes(rec.item, text_items):
            where = [(str(rec.file.relative_to(ROOT)), 0)]
            known = template.get(note)
            if known is None:
                template.add(note, None, where, auto_comments=[f"{role} of {rec.id}"])
            elif len(known.auto_comments) < 3:  # a few of the entities it is written for are enough
                known.auto_comments.append(f"{role} of {rec.id}")
    return template


def _notes(item, text_items):
    def provenance(p):
        for key in ("reference", "assumption", "note"):
            if getattr(p, key):
                yield f"provenance {key}", getattr(p, key)
        for inner in (p.by_edition or {}).values():
            yield from provenance(inner)

    def values(v, attr):
        if isinstance(v, str) and FREE_VALUE.search(v):
            yield f"value of {attr}", v
        for inner in (v.values() if isinstance(v, dict) else v if isinstance(v, list) else ()):
            yield from values(inner, attr)

    for p in (getattr(item, "provenance", None) or {}).values():
        yield from provenance(p)
    for by_lang in item.texts.values():
        for value in by_lang.values():
            for text in text_items(value):
                if text.repair:
                    yield "repair note", text.repair
    for fact in getattr(item, "facts", None) or []:
        yield "worked example fact", fact.what
    for attr, v in (getattr(item, "attrs", None) or {}).items():
        yield from values(v, attr)


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
    for domain, extract in TEMPLATES.items():
        for lang, count in _update_domain(domain, extract()).items():
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
        catalog.header_comment = HEADERS.get(domain, HEADERS[DOMAIN]).format(lang=lang)
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
    template = TEMPLATES[domain]()
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
    for domain in (DOMAIN, EFFECTS_DOMAIN):  # the notes are read from their .po (see `note`)
        for lang in CATALOG_LANGS:
            if po_path(lang, domain).is_file():
                po_path(lang, domain).touch()  # force recompilation
                written.append(compile_domain(domain, lang))
    translations.cache_clear()
    _note_catalog.cache_clear()
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


TEMPLATES = {DOMAIN: extract_template, EFFECTS_DOMAIN: extract_effects_template, NOTES_DOMAIN: extract_notes_template}
HEADERS = {
    DOMAIN: "# {lang} interface strings of rulekb. Extracted with `rulekb i18n update`;\n# compiled to .mo by `rulekb build`.",
    NOTES_DOMAIN: "# {lang} translations of the English notes of kb/data. Extracted with `rulekb i18n update`;\n"
                  "# read by i18n.catalog.note (a translation must be told from a missing one: no .mo).",
}


@lru_cache(maxsize=None)
def _note_catalog(lang: str) -> dict[str, str]:
    # read from the .po itself: a lookup must tell a missing translation from the note (gettext cannot)
    if lang not in CATALOG_LANGS or not po_path(lang, NOTES_DOMAIN).is_file():
        return {}
    return {m.id: m.string for m in read_catalog(lang, NOTES_DOMAIN) if m.id and _translated(m)}


def note(lang: str, text: str) -> str | None:
    """A kb/data note in the reader's language: its translation, None when it has none (English is
    the note's own language: the note itself)."""
    if lang not in CATALOG_LANGS:
        return text
    return _note_catalog(lang).get(text)


def with_note_translations(entity: dict, lang: str) -> dict:
    """An entity document (kb.queries) with its English notes also in `lang`, beside them: a provenance
    entry's `reference_translated` and `note_translated`, a text's `repair_translated` (absent where the
    notes catalog has no translation). Additive: every key the document had keeps its value."""
    if lang not in CATALOG_LANGS:
        return entity

    def extra(item: dict, keys: tuple[str, ...]) -> dict:
        found = {f"{k}_translated": note(lang, item[k]) for k in keys if item.get(k)}
        return {**item, **{k: v for k, v in found.items() if v}}

    texts = {field: ({l: [extra(i, ("repair",)) for i in items] for l, items in by_lang.items()}
                     if isinstance(by_lang, dict) else [extra(i, ("repair",)) for i in by_lang])
             for field, by_lang in entity["texts"].items()}
    return {**entity, "texts": texts, "provenance": [extra(p, ("reference", "note")) for p in entity["provenance"]]}


def render(lang: str, message: Message) -> str:
    """Words kept as a msgid and parameters (kb.messages.Message: the loader's issues, the engine's
    refusals) in the reader's language, a parameter that is itself a Message too."""
    params = {k: render(lang, v) if isinstance(v, Message) else v for k, v in message.params.items()}
    return t(lang, message.msgid, **params)
