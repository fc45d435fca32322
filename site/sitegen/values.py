"""Attribute values as a reader sees them: a translated label for every attribute name, numbers
formatted for the locale, counted nouns with their plural forms, entity ids as links — never JSON.

The labels, value words and counted units live in site/labels.yaml (a data file of the site, so that
they do not collide with the interface catalogs others edit). Plural forms are chosen with babel's
CLDR plural rules; counted game resources (servants, VP, yuan…) go through i18n.render.Renderer,
whose nouns and plural forms are in the `effects` catalogs.
"""
from __future__ import annotations

import html
import re
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable

import yaml
from babel import Locale
from babel.numbers import format_decimal

from i18n.catalog import FREE_VALUE, N_, note, t
from i18n.render import LOCALES, Renderer, Untranslated

LABELS_FILE = Path(__file__).resolve().parent.parent / "labels.yaml"
LABEL_COLUMNS = ("en", "pl", "cs")  # the order of the three names in each row of labels.yaml
ENTITY_ID = re.compile(r"^[a-z]+/[a-z0-9-]+/[a-z0-9-]+$")
FORMULA = re.compile(r"[a-z0-9_ *+/().-]+")
PER_PLAYER_COUNT = ("by_players", "by_player_count")
# the hint on a note of kb/data shown in the page's language (kb/data writes its notes in English)
TRANSLATED_HINT = N_("translated from English")


def translation(body: str, lang: str) -> str:
    """A kb/data note's translation (HTML), marked as one."""
    return f'<span class="rk-tr" title="{html.escape(t(lang, TRANSLATED_HINT))}">{body}</span>'


def english(body: str) -> str:
    """A kb/data note the notes catalog has no translation of yet (HTML): shown in English, marked so."""
    return f'<span lang="en" class="rk-en">{body}</span>'


@lru_cache(maxsize=1)
def data() -> dict:
    return yaml.safe_load(LABELS_FILE.read_text(encoding="utf-8"))


def label(name: str, lang: str) -> str | None:
    """The reader's label of an attribute (or nested key) name; None when the file has none."""
    row = data()["labels"].get(name)
    if row is None:
        return None
    return row[LABEL_COLUMNS.index(lang)]


def value_word(name: str, lang: str) -> str | None:
    """The reader's word for a value kb/data names by its code ("purple", "rice-bag"); None when it has none."""
    row = data()["values"].get(name)
    return row[LABEL_COLUMNS.index(lang)] if row else None


def unit_of(name: str) -> str | None:
    return data().get("units", {}).get(name)


def plural(lang: str, key: str, n: int | float) -> str:
    """A counted phrase from labels.yaml's plurals, its form chosen by babel's CLDR plural rules."""
    forms = data()["plurals"][key][lang]
    category = Locale.parse(LOCALES[lang]).plural_form(n)
    text = forms.get(category) or forms["other"]
    return text % {"n": number(n, lang)}


def number(n: int | float, lang: str) -> str:
    return format_decimal(n, locale=LOCALES[lang])


def missing_labels(names: set[str]) -> list[str]:
    """Attribute names with no label in some language (the build refuses to show snake_case)."""
    rows = data()["labels"]
    return sorted(n for n in names if n not in rows or not all(rows[n][:3]))


class Values:
    """Formats attribute values of one game in one language as inline Markdown/HTML."""

    def __init__(self, game: str, lang: str, link: Callable[[str], str | None], name: Callable[[str], str],
                 keys: dict[str, str]):
        # link(entity_id) -> a relative URL or None; name(entity_id) -> its name in lang;
        # keys: entity key -> entity id within the game (value keys such as "monk-young" name entities)
        self.game, self.lang, self.link, self.name, self.keys = game, lang, link, name, keys
        self.renderer = Renderer(game, lang, lambda i, _l: name(i))

    def label(self, attr: str) -> str:
        return label(attr, self.lang) or attr.replace("_", " ")

    def entity(self, entity_id: str) -> str:
        url = self.link(entity_id)
        text = html.escape(self.name(entity_id))
        return f'<a href="{url}">{text}</a>' if url else text

    def key(self, k: str) -> str:
        """A mapping key shown to readers: an entity's name, a labelled name, a word, or itself."""
        if k in self.keys:
            return self.entity(self.keys[k])
        if label(k, self.lang):
            return html.escape(label(k, self.lang))
        return self.word(k)

    def word(self, s: str) -> str:
        word = value_word(s, self.lang)
        if word:
            return html.escape(word)
        if ENTITY_ID.match(s):
            return self.entity(s)
        if s in self.keys:
            return self.entity(self.keys[s])
        if label(s, self.lang):
            return html.escape(label(s, self.lang))
        if FORMULA.fullmatch(s) and "_" in s:  # "buddha_symbols * floors_of_palace": each name by its label
            return html.escape(re.sub(r"[a-z][a-z0-9_]*", lambda m: label(m.group(0), self.lang) or m.group(0), s))
        if FREE_VALUE.search(s):  # free text kb/data writes in English: through the notes catalog
            translated = note(self.lang, s) if self.lang != "en" else None
            text = re.sub(r"\b[a-z]+_[a-z0-9_]+\b", lambda m: f"<code>{m.group(0)}</code>", html.escape(translated or s))
            return text if self.lang == "en" else translation(text, self.lang) if translated else english(text)
        return html.escape(s)

    def count(self, n: int | float, attr: str | None) -> str:
        unit = unit_of(attr) if attr else None
        if unit and isinstance(n, int):
            try:
                return html.escape(self.renderer.counted(unit, n) if n >= 0 else "−" + self.renderer.counted(unit, n))
            except Untranslated:
                pass
        return number(n, self.lang)

    def format(self, value: Any, attr: str | None = None) -> str:
        if value is None:
            return "—"
        if isinstance(value, bool):
            return html.escape(value_word("true" if value else "false", self.lang))
        if isinstance(value, (int, float)):
            return self.count(value, attr)
        if isinstance(value, str):
            return self.word(value)
        if isinstance(value, list):
            return ", ".join(self.format(v, attr) for v in value)
        if isinstance(value, dict):
            return self.mapping(value, attr)
        return html.escape(str(value))

    def mapping(self, value: dict, attr: str | None) -> str:
        if set(value) == {"min", "max"}:
            return f"{self.format(value['min'], attr)}–{self.format(value['max'], attr)}"
        if len(value) == 1:
            (k, inner), = value.items()
            if k == "by_edition":
                return " · ".join(f"{self.format(v, attr)} ({html.escape(str(ed))})" for ed, v in inner.items())
            if k in PER_PLAYER_COUNT:
                return " · ".join(f"{self.players(p)}: {self.format(v, attr)}" for p, v in inner.items())
            if k in ("by_round", "by_space_lines"):
                what = "round" if k == "by_round" else "lines"
                return " · ".join(f"{plural(self.lang, what, int(r))}: {self.format(v, attr)}" for r, v in inner.items())
        if value and all(re.fullmatch(r"\d+(-\d+)?", str(k)) for k in value) and attr and "player" in attr:
            return " · ".join(f"{self.players(p)}: {self.format(v, attr)}" for p, v in value.items())
        return " · ".join(f"{self.key(str(k))}: {self.format(v, k if unit_of(k) else attr)}" for k, v in value.items())

    def players(self, p) -> str:
        p = str(p)
        if "-" in p:
            a, b = p.split("-", 1)
            return plural(self.lang, "players", int(b)).replace(number(int(b), self.lang), f"{a}–{b}", 1)
        return plural(self.lang, "players", int(p))
