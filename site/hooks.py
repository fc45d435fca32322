"""mkdocs hook: the knowledge base as a multilingual reference site.

Every page is generated from the built database with the jinja2 templates in site/templates and
handed to mkdocs as a generated file (nothing generated is written into the source tree):

  /<lang>/                         home: what this is, where each kind of reader starts (lang = en, pl, cs)
  /<lang>/<game>/                  overview, editions, sources, diagrams (phase flow, tracks, scoring)
  /<lang>/<game>/aid/              the printable player aid (two A4 pages)
  /<lang>/<game>/<kind>/           every entity of one kind in rulebook order, each with its parts below it,
                                   one anchored section each (#key, the same in every language);
  /<lang>/<game>/<kind>-2/ …       a big kind (Gugong's rules) gets a page per chapter, named after it
  /<lang>/<game>/glossary/         terms side by side in three languages
  /<lang>/<game>/examples/         worked examples with the engine's verified result
  /<lang>/<game>/findings/         where the rulebooks differ
  /<lang>/<game>/unknowns/         the unknowns register
  /<lang>/search/                  search (the API when served; a folded static index otherwise)
  /<lang>/changelog/               what each build of the knowledge base changed
  /sources/<source>/               the rulebook text, line by line (#L123), which texts link to

Each language is a whole site in that language: the theme's own strings, <html lang> and the
language menu (the same page in the other language; see LanguageMenu) follow the page's folder (site/overrides/partials/language.html and alternate.html,
fed by on_page_context below), and each language has its own navigation. One mkdocs build serves
all three, so that strict link validation covers every link between languages and sources.

Other pages can join a language's navigation through EXTRA_PAGES (path, title msgid) — e.g. the
search, changelog or "using rulekb from your app" pages — without touching the rest.
The build fails when an interface string has no translation or an attribute has no label.
"""
from __future__ import annotations

import html
import json
import re
import sys
from pathlib import Path

import yaml
from jinja2 import Environment, FileSystemLoader, StrictUndefined
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files
from mkdocs.structure.nav import Navigation, Section

sys.path.insert(0, str(Path(__file__).resolve().parent))  # site/sitegen ("site" itself is a stdlib name)

from babel import Locale  # noqa: E402

from i18n.catalog import N_, note, t, untranslated  # noqa: E402
from i18n.checker import message_text  # noqa: E402
from i18n.render import LOCALES  # noqa: E402
from i18n.render import Renderer  # noqa: E402
from kb.db import open_engine  # noqa: E402
from kb.fold import fold  # noqa: E402
from kb.messages import spans_text  # noqa: E402
from kb.queries import get_entity, get_game, list_entities, list_findings, list_games, search_names  # noqa: E402
from engine.core import scenario  # noqa: E402
from engine.core.state import get_path  # noqa: E402
from sitegen import diagrams  # noqa: E402
from sitegen.values import (TRANSLATED_HINT, Values, english, label, missing_labels, number, plural,  # noqa: E402
                            translation, value_word)
from sitegen.ocr import mark_artefacts  # noqa: E402

LANGS = ("en", "pl", "cs")
LANG_NAMES = {"en": "English", "pl": "Polski", "cs": "Čeština"}
# the order sections appear in, following the rulebooks' chapter order
KIND_ORDER = ["component", "setup-step", "phase", "step", "rule", "location", "action", "action-option",
              "court-action", "card", "card-ability", "token", "tile", "decree", "port", "reward", "track",
              "event", "person", "scoring-rule", "variant", "tip"]
SPECIAL = {"term": "glossary", "example": "examples", "unknown": "unknowns"}
KIND_NAMES = {
    "component": N_("Components"), "setup-step": N_("Setup"), "phase": N_("Phases"), "step": N_("Steps"),
    "rule": N_("Rules"), "location": N_("Locations"), "action": N_("Actions"), "action-option": N_("Action options"),
    "court-action": N_("Court actions"), "card": N_("Cards"), "card-ability": N_("Card abilities"),
    "token": N_("Tokens"), "tile": N_("Tiles"), "decree": N_("Decrees"), "port": N_("Ports"), "reward": N_("Rewards"),
    "track": N_("Tracks"), "event": N_("Events"), "person": N_("Persons"), "scoring-rule": N_("Scoring"),
    "variant": N_("Variants and expansions"), "tip": N_("Tips"), "term": N_("Glossary"),
    "example": N_("Worked examples"), "unknown": N_("Unknowns register"),
}
FIELD_NAMES = {"note": N_("Note"), "summary": N_("Summary"), "difference": N_("Edition difference"),
               "choice": N_("Choice"), "effect": N_("Effect"), "warning": N_("Warning"), "title": N_("Title"),
               "ability": N_("What it does"), "also": N_("Also")}
# the text fields a finding may compare, besides FIELD_NAMES and attribute names (labels.yaml)
FINDING_FIELDS = {"body": N_("Text"), "name": N_("Name"), "*": N_("Whole entry"), "facts": N_("Facts"),
                  "continued": N_("Continuation")}
# the translation checker's kinds of finding, its severities and assessments, as a reader reads them
CHECKS = {"noted": N_("noted by hand"), "edition-only": N_("in one edition only"), "numbers": N_("numbers"),
          "modality": N_("may or must"), "unmatched": N_("sentence without a counterpart"), "gap": N_("lost text"),
          "condition": N_("conditions"), "example": N_("example"), "term": N_("term"), "sequence": N_("order"),
          "edition-value": N_("value per edition"), "random": N_("chance"), "quantifier": N_("quantity"),
          "timing": N_("timing"), "one-sided": N_("one side only"), "destination": N_("destination"),
          "free": N_("free of charge"), "enumeration": N_("enumeration")}
SEVERITIES = {"high": N_("high"), "medium": N_("medium"), "low": N_("low")}
ASSESSMENTS = {"rules-difference": N_("rules difference"), "curated": N_("checked by hand"),
               "unclear": N_("unclear"), "artefact": N_("translation or OCR artefact")}
# how a worked example states a value
HOW = {"equals": N_("equals"), "delta": N_("changes by"), "contains": N_("contains"), "length": N_("count")}
# an entity id, and a code name (snake_case or $this->x) in a reference's free text
ENTITY_REF = re.compile(r"\b(gugong|dragon|zhanguo)/[a-z][a-z-]*/[a-z0-9][a-z0-9-]*")
CODE_NAME = re.compile(r"\$this->\w+|\b[a-z]+_[a-z0-9_]+\b|\b[\w-]+\.(?:inc\.)?php\b")
TABLE_KINDS = {"card", "card-ability", "token", "tile", "decree", "port", "reward", "person", "event"}
# Text fields that say what an entry does (a person's role), shown in its kind's table when it has no effect
ABILITY_FIELDS = ("ability", "also")
PART_SIZE = 36  # at most this many entities on one page of a kind (a chapter bigger than that is cut)
# the player questions an entry's page shows (kb/data/player-questions.yaml; the first are the commonest): all of
# them made the ZhanGuo rules page heavier than 200 kB
ASKED_SHOWN = 3
SMALL_CHAPTER = 10  # chapters smaller than this share a page with their small neighbours
FINDINGS_PER_PAGE = 60  # the checker's findings, quoting both texts each, split likewise
# Pages added to each language's navigation after the games: (path under /<lang>/, title msgid), the
# page itself generated per language. A plain list, so that adding one is a one-line merge.
EXTRA_PAGES: list[tuple[str, str]] = []

TEMPLATES = Environment(
    loader=FileSystemLoader(Path(__file__).parent / "templates"),
    undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True,
)
def lang_name(code: str, in_lang: str) -> str:
    """A language's name in the reader's language ("czeski" on a Polish page), from babel's CLDR data."""
    return Locale.parse(LOCALES[in_lang]).languages.get(code, code)


TEMPLATES.globals.update(t=t, kb_note=note, TRANSLATED_HINT=TRANSLATED_HINT,
                         lang_name=lang_name, LANGS=LANGS, LANG_NAMES=LANG_NAMES, KIND_NAMES=KIND_NAMES, FIELD_NAMES=FIELD_NAMES,
                         ASKED_SHOWN=ASKED_SHOWN,
                         TABLE_KINDS=TABLE_KINDS, plural=plural, number=number)
# Text from the knowledge base goes into Markdown once, escaped once (never inside code spans).
TEMPLATES.filters["escape_md"] = lambda s: html.escape(str(s), quote=False).replace("|", "&#124;").replace("\n", " ")
# ...and an HTML attribute's value, whose quotes must be escaped too
TEMPLATES.filters["escape_attr"] = lambda s: html.escape(str(s), quote=True).replace("\n", " ")
TEMPLATES.filters["lang_name"] = lang_name
TEMPLATES.filters["line_spans"] = spans_text  # "863" for one line, "863–870" for several
TEMPLATES.filters["json"] = lambda v: json.dumps(v, ensure_ascii=False)
TEMPLATES.filters["yaml"] = lambda v: yaml.safe_dump(v, allow_unicode=True, sort_keys=False, width=100).rstrip()
TEMPLATES.filters["indent4"] = lambda s: "\n".join("    " + line if line else line for line in str(s).split("\n"))


def on_config(config):
    missing = {lang: untranslated(lang) for lang in LANGS}  # English is the source: never missing
    missing = {k: v for k, v in missing.items() if v}
    if missing:
        raise PluginError(f"interface strings without translation (run `rulekb i18n update`): {missing}")
    engine = open_engine(readonly=True)
    unlabelled = missing_labels(attribute_names(engine))
    games = list_games(engine)
    parts = {g["id"]: kind_parts(engine, g["id"]) for g in games}
    findings = {g["id"]: findings_pages(list_findings(engine, game=g["id"], min_severity="medium", limit=1)[1])
                for g in games}
    engine.dispose()
    if unlabelled:
        raise PluginError(f"attributes without a label in site/labels.yaml: {unlabelled}")
    config["extra"]["alternate"] = LanguageMenu()
    config["nav"] = navigation(games, parts, findings)
    return config


class LanguageMenu:
    """Stands in config.extra.alternate: true, so that the theme's header shows the language menu
    (partials/alternate.html, which lists the page's own rk_alternates), and not iterable, so that the
    theme writes no <link rel="alternate"> into the head. From those links Material's script takes each
    language for a separate site with its own /<lang>/sitemap.xml, fetches it (404: one build serves
    all three languages) and on a click sends the reader to that language's root instead of the page."""

    def __bool__(self) -> bool:
        return True


def attribute_names(engine) -> set[str]:
    """Every attribute name a reader may see (examples' scenario data is shown otherwise)."""
    from sqlmodel import Session, select
    from kb import models as m

    with Session(engine) as db:
        rows = db.exec(select(m.Entity.attrs).where(m.Entity.kind != "example")).all()
    return {k for attrs in rows for k in (attrs or {})}


class Chunk(list):
    """The entity ids of one page of a kind, with the page's title per language (a chapter's name)."""

    def __init__(self, ids, title: dict[str, str] | None = None):
        super().__init__(ids)
        self.title = title or {}


def kind_parts(engine, game: str) -> dict[str, list[Chunk]]:
    """Entity ids of each kind in rulebook order, each entry followed by its parts. A kind too big for
    one page gets a page per chapter (the entries under one top-level entry: a phase, a variant, an
    appendix), a chapter bigger than PART_SIZE being cut between its sections, never inside one."""
    by_kind: dict[str, list[dict]] = {}
    for e in all_entities(engine, game, "en"):
        by_kind.setdefault(e["kind"], []).append(get_entity(engine, e["id"]))
    ordered = sorted(by_kind, key=lambda k: (KIND_ORDER.index(k) if k in KIND_ORDER else 99, k))
    primary = [s["id"] for s in get_game(engine, game)["sources"] if s["lang"] == "pl"]
    primary += [s["id"] for s in get_game(engine, game)["sources"] if s["id"] not in primary]
    everything = {e["id"]: e for es in by_kind.values() for e in es}
    out = {}
    for k in ordered:
        ents = by_kind[k]
        if k in SPECIAL:
            out[k] = [Chunk([e["id"] for e in ents])]
            continue
        trees = rulebook_forest(ents, everything, primary)
        if sum(len(ids) for _, ids in trees) <= PART_SIZE:
            out[k] = [Chunk([i for _, ids in trees for i in ids])]
            continue
        chapters: dict[str, list[list[str]]] = {}  # top-level entry (any kind) -> its subtrees, in order
        for root, ids in trees:
            chapters.setdefault(top_ancestor(root, everything), []).append(ids)
        chunks: list[Chunk] = []
        merging = False  # the last page holds whole small chapters: the next small one may join it
        for top, subtrees in chapters.items():
            title = {lang: first_text(everything[top]["texts"], "name", lang) or everything[top]["key"]
                     for lang in LANGS}
            size = sum(map(len, subtrees))
            if size < SMALL_CHAPTER and merging and len(chunks[-1]) + size <= PART_SIZE:
                chunks[-1].extend(i for ids in subtrees for i in ids)
                chunks[-1].title = {lang: f"{chunks[-1].title[lang]} · {title[lang]}" for lang in LANGS}
                continue
            pages: list[list[str]] = [[]]
            target = size / -(-size // PART_SIZE)  # pages of about equal length
            for ids in subtrees:  # cut between sections, never inside one
                if pages[-1] and (len(pages[-1]) >= target or len(pages[-1]) + len(ids) > PART_SIZE):
                    pages.append([])
                pages[-1] += ids
            for n, ids in enumerate(pages):
                chunks.append(Chunk(ids, title if len(pages) == 1 else
                                    {lang: f"{title[lang]} ({n + 1}/{len(pages)})" for lang in LANGS}))
            merging = len(pages) == 1 and size < SMALL_CHAPTER
        out[k] = chunks
    return out


def source_rank(e: dict, primary: list[str]) -> tuple[int, int] | None:
    """Where an entry's text starts in the rulebooks: (which rulebook, first line); None without one."""
    spots = [(primary.index(item["source"]), item["lines"][0][0])
             for by_lang in e["texts"].values() for items in by_lang.values() for item in items
             if item.get("source") in primary and item.get("lines")]
    return min(spots) if spots else None


def rulebook_forest(ents: list[dict], everything: dict, primary: list[str]) -> list[tuple[str, list[str]]]:
    """The entries of one kind as trees (an entry with its parts of the same kind below it), in the
    order the rulebook tells them: (root id, ids depth first)."""
    ids = {e["id"] for e in ents}
    pos = {e["id"]: i for i, e in enumerate(ents)}
    rank: dict[str, tuple] = {}

    def rank_of(eid: str, depth: int = 0) -> tuple:
        if eid not in rank:
            e = everything[eid]
            own = source_rank(e, primary)
            if own is None and e["parent"] in everything and depth < 20:
                own = rank_of(e["parent"], depth + 1)
            rank[eid] = (own or (len(primary), 10 ** 6)) + (e.get("position") or 0, pos.get(eid, 0))
        return rank[eid]

    children: dict[str, list[str]] = {}
    roots = []
    for e in ents:
        (children.setdefault(e["parent"], []) if e["parent"] in ids else roots).append(e["id"])

    def walk(eid: str) -> list[str]:
        return [eid] + [i for c in sorted(children.get(eid, []), key=rank_of) for i in walk(c)]

    return [(r, walk(r)) for r in sorted(roots, key=rank_of)]


def top_ancestor(eid: str, everything: dict) -> str:
    seen = {eid}
    while everything.get(eid, {}).get("parent") in everything and everything[eid]["parent"] not in seen:
        eid = everything[eid]["parent"]
        seen.add(eid)
    return eid


def all_entities(engine, game: str, lang: str) -> list[dict]:
    out, offset = [], 0
    while True:
        page, total = list_entities(engine, game=game, lang=lang, limit=200, offset=offset)
        out += page
        offset += len(page)
        if offset >= total or not page:
            return out


def part_path(game: str, kind: str, i: int) -> str:
    base = SPECIAL.get(kind, kind)
    return f"{game}/{base}.md" if i == 0 else f"{game}/{base}-{i + 1}.md"


def findings_pages(total: int) -> int:
    return max(1, -(-total // FINDINGS_PER_PAGE))


def findings_path(game: str, i: int) -> str:
    return f"{game}/findings.md" if i == 0 else f"{game}/findings-{i + 1}.md"


def navigation(games: list[dict], parts: dict, findings: dict[str, int]) -> list:
    """One section per language, each with the games and their sections in rulebook order."""
    nav: list = [{"rulekb": "index.md"}]
    for lang in LANGS:
        section: list = [{t(lang, "Home"): f"{lang}/index.md"}, {t(lang, "Search"): f"{lang}/search.md"}]
        for g in games:
            pages = [{t(lang, "Overview"): f"{lang}/{g['id']}/index.md"},
                     {t(lang, "Player aid"): f"{lang}/{g['id']}/aid.md"}]
            for kind, chunks in parts[g["id"]].items():
                title = t(lang, KIND_NAMES.get(kind, kind))
                if len(chunks) == 1:
                    pages.append({title: f"{lang}/{part_path(g['id'], kind, 0)}"})
                else:  # a page per chapter, named after it
                    pages.append({title: [{c.title.get(lang) or f"{title} {i + 1}/{len(chunks)}":
                                           f"{lang}/{part_path(g['id'], kind, i)}"} for i, c in enumerate(chunks)]})
            title, n = t(lang, "Where the rulebooks differ"), findings[g["id"]]
            if n == 1:
                pages.append({title: f"{lang}/{findings_path(g['id'], 0)}"})
            else:
                pages.append({title: [{f"{title} {i + 1}/{n}": f"{lang}/{findings_path(g['id'], i)}"} for i in range(n)]})
            section.append({g["title"][lang]: pages})
        for path, title in EXTRA_PAGES:
            section.append({t(lang, title): f"{lang}/{path}"})
        section.append({t(lang, "Changelog"): f"{lang}/changelog.md"})
        section.append({t(lang, "API reference"): "/api/v1/docs"})  # served beside the site by `rulekb serve`
        nav.append({LANG_NAMES[lang]: section})
    nav.append({"Sources": [f"sources/{s['id']}.md" for g in games for s in g["sources"]]})
    nav.append({"For developers": ["developers/index.md", "developers/changelog.md"]})  # issue 21
    return nav


def rel(from_page: str, to_page: str) -> str:
    """A relative link between two generated .md paths (mkdocs validates these)."""
    depth = from_page.count("/")
    return "../" * depth + to_page


def served(page: str) -> str:
    """The directory URL mkdocs serves a generated .md page at (use_directory_urls)."""
    return page.removesuffix("index.md") if page.endswith("index.md") else page.removesuffix(".md") + "/"


def rel_html(from_page: str, to_page: str) -> str:
    """A relative link for raw HTML, which mkdocs neither rewrites nor validates: from the URL the
    page is served at to the URL of the target page."""
    return "../" * served(from_page).count("/") + served(to_page)


def source_lines(items) -> set[tuple[str, int]]:
    """The (source, line) pairs the rulebook texts among `items` cite."""
    return {(i["source"], n) for i in items if i["origin"] == "source" for a, b in i["lines"] for n in range(a, b + 1)}


def first_text(texts: dict, field: str, lang: str) -> str:
    items = (texts.get(field) or {})
    chosen = items.get(lang) or items.get("en") or items.get("pl") or items.get("cs") or []
    return chosen[0]["text"] if chosen else ""


class Site:
    def __init__(self):
        self.engine = open_engine(readonly=True)
        self.games = list_games(self.engine)
        self.pages: dict[str, str] = {}
        self.entity_page: dict[str, str] = {}  # entity id -> page path (without language prefix)
        self.full: dict[str, dict] = {}         # entity id -> get_entity(), all languages
        self.source_lang = {src["id"]: src["lang"] for g in self.games for src in g["sources"]}

    # -- names and links
    def name(self, entity_id: str, lang: str) -> str:
        e = self.full.get(entity_id)
        if e is None:
            return entity_id.rsplit("/", 1)[-1]
        own = first_text(e["texts"], "name", lang) or e["key"]
        if len(own) <= 2 and e["parent"] in self.full:  # option "A" of an action: "Travel: A" out of context
            return f"{self.name(e['parent'], lang)}: {own}"
        return own

    def entity_url(self, from_path: str, entity_id: str, raw_html: bool = False) -> str | None:
        page = self.entity_page.get(entity_id)
        if page is None:
            return None
        lang = from_path.split("/", 1)[0]
        to = rel_html if raw_html else rel
        return to(from_path, f"{lang}/{page}") + "#" + entity_id.split("/")[-1]

    def entity_md(self, from_path: str, entity_id: str) -> str:
        """An entity's name as a Markdown link to its section (its name only, when it has no page)."""
        lang = from_path.split("/", 1)[0]
        name = TEMPLATES.filters["escape_md"](self.name(entity_id, lang)).replace("[", "&#91;").replace("]", "&#93;")
        url = self.entity_url(from_path, entity_id)
        return name if url is None else f"[{name}]({url})"

    def values(self, game: str, lang: str, path: str) -> Values:
        keys = {}
        for eid, e in self.full.items():
            if e["game"] == game:
                keys.setdefault(e["key"], eid)
        return Values(game, lang, lambda eid: self.entity_url(path, eid, raw_html=True), lambda eid: self.name(eid, lang), keys)

    def effect_sentence(self, entity: dict, lang: str, path: str) -> str:
        """The effect in words, every entity it names linked to its section."""
        if not entity.get("effect"):
            return ""
        renderer = Renderer(entity["game"], lang, lambda eid, _l: self.entity_md(path, eid))
        text = renderer.render(entity["effect"], entity["attrs"] or {}, entity.get("id"))  # effects name their constants
        return text[:1].upper() + text[1:] + "."

    # -- pages
    def render(self, template: str, path: str, lang: str, **kw) -> None:
        full = f"{lang}/{path}"
        switch = [(l, rel(full, f"{l}/{path}")) for l in LANGS]
        search = rel(full, f"{lang}/search.md")
        first = path.split("/", 1)[0]
        kw.setdefault("page_game", first if first in {g["id"] for g in self.games} else None)
        self.pages[full] = TEMPLATES.get_template(template).render(
            lang=lang, path=full, switch=switch, search_link=search, text_md=self.text_md,
            link=lambda target: rel(full, target), entity_md=lambda eid: self.entity_md(full, eid),
            source_link=self.source_link, **kw)

    def build(self) -> None:
        self.pages["index.md"] = TEMPLATES.get_template("root.md.j2").render(games=self.games, LANG_NAMES=LANG_NAMES)
        for s in {src["id"]: src for g in self.games for src in g["sources"]}.values():
            self.source_page(s)
        parts = {}
        for g in self.games:
            parts[g["id"]] = kind_parts(self.engine, g["id"])
            for kind, chunks in parts[g["id"]].items():
                for i, ids in enumerate(chunks):
                    for eid in ids:
                        self.entity_page[eid] = part_path(g["id"], kind, i)
                        self.full[eid] = get_entity(self.engine, eid)
        self.examples = {eid: verified(e) for eid, e in self.full.items() if e["kind"] == "example"}
        for lang in LANGS:
            self.render("home.md.j2", "index.md", lang, games=self.games)
            self.render("search.md.j2", "search.md", lang, search_data=self.search_data(lang))
            self.render("changelog.md.j2", "changelog.md", lang, builds=changelog_builds(), limit=200, developers=False,
                        entry=lambda eid, _lang=lang: self.entity_md(f"{_lang}/changelog.md", eid) if eid in self.full else None)
            self.search_index(lang)
            for g in self.games:
                self.game_pages(get_game(self.engine, g["id"]), parts[g["id"]], lang)

    def entry(self, e: dict, lang: str, path: str) -> dict:
        """What the templates show of one entity: formatted attributes, effect, links both ways."""
        vals = self.values(e["game"], lang, path)
        attrs = []
        for k, v in (e["attrs"] or {}).items():
            provs = [{**p, "note_md": self.note_md(p["reference"], lang, path)} if p.get("reference") else p
                     for p in e["provenance"] if p["attr"] == k]
            attrs.append({"key": k, "label": vals.label(k), "value": vals.format(v, k), "provenance": provs})
        refs = [r for r in dict.fromkeys(e["refs"]) if r != e["parent"]]
        return {"e": e, "attrs": attrs, "meta": self.meta_line(e, lang, path), "effect": self.effect_sentence(e, lang, path),
                "parent": self.entity_md(path, e["parent"]) if e["parent"] else "",
                "refs": [self.entity_md(path, r) for r in refs],
                "referenced_by": [self.entity_md(path, r) for r in dict.fromkeys(e["referenced_by"])],
                "children": [self.entity_md(path, c) for c in e["children"]],
                "abilities": self.abilities(e, lang, path),
                # a young or elder version does what its type does
                "ability_of": self.entity_md(path, e["parent"]) if e["parent"] and any(
                    (self.full.get(e["parent"]) or {"texts": {}})["texts"].get(f) for f in ABILITY_FIELDS) else ""}

    def abilities(self, e: dict, lang: str, path: str) -> list[dict]:
        """What an entry does in words (its ABILITY_FIELDS), each in the page's language with the rulebook
        passage it comes from and the entry that passage belongs to (the action, event or scoring rule)."""
        out = []
        for field in ABILITY_FIELDS:
            texts = e["texts"].get(field) or {}
            shown = texts.get(lang) or texts.get("en") or []
            quoted = [i for items in texts.values() for i in items if i["origin"] == "source"]
            if not shown:
                continue
            cited = quoted[0] if quoted else None
            where = self.passage_owner(e, cited) if cited else None
            out.append({"text": shown[0], "cited": cited, "where": self.entity_md(path, where) if where else ""})
        return out

    def passage_owner(self, e: dict, item: dict) -> str | None:
        """The referenced entry whose own rulebook texts share the most lines with a quoted passage: a
        person's role is quoted from the action or event that counts its symbol, so no link is typed twice."""
        wanted = source_lines([item])
        best, most = None, 0
        for ref in e["refs"]:
            other = self.full.get(ref)
            if other is None:
                continue
            shared = len(wanted & source_lines(i for langs in other["texts"].values() for items in langs.values()
                                               for i in items))
            if shared > most:
                best, most = ref, shared
        return best

    def text_md(self, text: str, path: str) -> str:
        """A text of an entry: the entries it names by id ("see gugong/unknown/decree-costs") linked by name."""
        return self.note_md(text, "en", path)

    def note_md(self, text: str, lang: str, path: str, limit: int | None = None) -> str:
        """A note of the knowledge base (free text kb/data writes in English: provenance, repairs,
        worked example facts) in the page's language through the notes catalog, marked as a translation;
        English, marked so, where the catalog has none yet. The entries it names by id are linked by
        name, code names shown by their label or as code."""
        text = str(text or "")
        translated = note(lang, text) if lang != "en" and text else None
        shown = translated or text
        if limit and len(shown) > limit:  # cut between words: never inside an entity id
            shown = shown[:limit].rsplit(" ", 1)[0].rstrip(" ,;:(") + "…"
        words = lang if translated else "en"  # the language the note is shown in
        esc = TEMPLATES.filters["escape_md"]
        out, last = [], 0
        for m in re.finditer(f"{ENTITY_REF.pattern}|{CODE_NAME.pattern}", shown):
            out.append(esc(shown[last:m.start()]))
            word = m.group(0)
            if ENTITY_REF.fullmatch(word) and word in self.full:
                out.append(self.entity_md(path, word))
            elif label(word, words):  # an attribute by its label in the note's language
                out.append(esc(label(word, words)))
            else:
                out.append(f"<code>{html.escape(word)}</code>")
            last = m.end()
        out.append(esc(shown[last:]))
        body = "".join(out)
        if lang == "en" or not body:
            return body
        return translation(body, lang) if translated else english(body)

    def field_label(self, field: str, lang: str, game: str, path: str) -> str:
        if field in FIELD_NAMES:
            return t(lang, FIELD_NAMES[field])
        if field in FINDING_FIELDS:
            return t(lang, FINDING_FIELDS[field])
        return self.values(game, lang, path).label(field)

    def finding(self, f: dict, lang: str, path: str) -> dict:
        """A finding as the reader reads it: labels and the checker's message in the page's language,
        the two sides named by language or edition."""
        def side(s):
            if not s:
                return None
            name = lang_name(s["label"], lang) if s["label"] in LANGS else s["label"]
            return {**s, "label": name, "lang": self.source_lang.get(s.get("source"), s["label"] if s["label"] in LANGS else "")}
        return {**f, "field_label": self.field_label(f["field"], lang, f["game"], path),
                "check_label": t(lang, CHECKS[f["check"]]) if f["check"] in CHECKS else f["check"],
                "severity_label": t(lang, SEVERITIES.get(f["severity"], f["severity"])),
                "assessment_label": t(lang, ASSESSMENTS[f["assessment"]]) if f["assessment"] in ASSESSMENTS
                else f["assessment"],
                "message_md": self.message_md(f, lang, path), "a": side(f["a"]), "b": side(f["b"])}

    def message_md(self, f: dict, lang: str, path: str) -> str:
        """The checker's message in the page's language (stored as a msgid with its parameters); the words
        it quotes stay as the source writes them. A hand-recorded note has no msgid: the entry's own note
        in the page's language, or the English note through the notes catalog."""
        args = f.get("message_args")
        if not args:
            own = (self.full.get(f["entity"], {}).get("texts", {}).get(f["field"]) or {}).get(lang) if lang != "en" else None
            return self.text_md(own[0]["text"], path) if own else self.note_md(f["message"], lang, path)
        esc = TEMPLATES.filters["escape_md"]
        params = dict(args["params"])
        if "attr" in params:  # an attribute by its label in the page's language, not its code name
            params["attr"] = self.values(f["game"], lang, path).label(params["attr"])
        if isinstance(params.get("value"), str):  # a value kb/data names by its code ("purple"): the page's word
            params["value"] = value_word(params["value"], lang) or params["value"]
        # what a worked example states: a note of kb/data, translated by message_text when the catalog has it
        untranslated_what = params.get("what") if lang != "en" and not note(lang, params.get("fact", "")) else None
        if untranslated_what:
            params["what"] = "\x00"
        body = esc(message_text(lang, args["msgid"], params))
        return body.replace("\x00", english(esc(untranslated_what))) if untranslated_what else body

    def path_label(self, state_path: str, vals: Values) -> str:
        """An engine state path (players.Anna.vp) as the reader says it: "Anna · VP"."""
        parts = (state_path or "").split(".")
        if parts[0] == "players" and len(parts) >= 2:
            parts = parts[1:2] + [strip_html(vals.key(p)) for p in parts[2:]]
        else:
            parts = [strip_html(vals.key(p)) for p in parts]
        return " · ".join(parts)

    def meta_line(self, e: dict, lang: str, path: str) -> str:
        """"part of X · only in Y": the parent and the variants, expansions or editions an entry belongs
        to, named as readers know them (a variant's own entry) rather than by its key."""
        part_of, only_in = t(lang, "part of"), t(lang, "only in")
        parts = [f"{part_of} {self.entity_md(path, e['parent'])}"] if e["parent"] else []
        scope = []
        for group, values in (e["scope"] or {}).items():
            for v in values:
                eid = f"{e['game']}/variant/{v}"
                scope.append(self.entity_md(path, eid) if eid in self.full else TEMPLATES.filters["escape_md"](v))
        if scope:
            parts.append(f"{only_in} {', '.join(scope)}")
        return " · ".join(parts)

    def game_pages(self, game: dict, parts: dict, lang: str) -> None:
        gid = game["id"]
        ents = [self.full[eid] for chunks in parts.values() for ids in chunks for eid in ids]
        pictures = diagrams.for_game(game, ents, lang, self.values(gid, lang, f"{lang}/{gid}/index.md"),
                                     lambda eid: self.name(eid, lang))
        self.render("game.md.j2", f"{gid}/index.md", lang, game=game, parts=parts, part_path=part_path,
                    diagrams=pictures)
        self.render("aid.md.j2", f"{gid}/aid.md", lang, game=game,
                    aid=self.player_aid(game, ents, lang, f"{lang}/{gid}/aid.md"), diagrams=pictures)
        for kind, chunks in parts.items():
            if kind in SPECIAL:
                continue
            for i, ids in enumerate(chunks):
                path = part_path(gid, kind, i)
                self.render("kind.md.j2", path, lang, game=game, kind=kind, part=(i + 1, len(chunks)),
                            chapter=getattr(ids, "title", {}).get(lang, ""),
                            items=[self.entry(self.full[eid], lang, f"{lang}/{path}") for eid in ids])
        special = lambda k: [self.full[eid] for ids in parts.get(k, []) for eid in ids]  # noqa: E731
        self.render("glossary.md.j2", f"{gid}/glossary.md", lang, game=game, items=special("term"))
        self.render("unknowns.md.j2", f"{gid}/unknowns.md", lang, game=game,
                    note=lambda text: self.note_md(text, lang, f"{lang}/{gid}/unknowns.md", limit=160),
                    items=[self.entry(e, lang, f"{lang}/{gid}/unknowns.md") for e in special("unknown")])
        examples = []
        for e in special("example"):
            ex = self.examples[e["id"]]
            vals = self.values(gid, lang, f"{lang}/{gid}/examples.md")
            rows = [{**r, "label": self.path_label(r["path"], vals), "how": t(lang, HOW[r["how"]]) if r["how"] in HOW
                     else r["how"], "before": vals.format(r["before"]), "after": vals.format(r["after"]),
                     "expected": vals.format(r["expected"])} for r in ex["rows"]]
            svg = diagrams.before_after(ex["rows"], [r["label"] for r in rows], t(lang, "Before"), t(lang, "After"),
                                        t(lang, "Values the example checks, before and after"))
            examples.append({**ex, "rows": rows, "svg": svg,
                             "refs": [self.entity_md(f"{lang}/{gid}/examples.md", r) for r in dict.fromkeys(e["refs"])]})
        self.render("examples.md.j2", f"{gid}/examples.md", lang, game=game, items=examples)
        findings, total = list_findings(self.engine, game=gid, min_severity="medium", limit=10_000)
        n = findings_pages(total)
        for i in range(n):
            chunk = findings[i * FINDINGS_PER_PAGE:(i + 1) * FINDINGS_PER_PAGE]
            fpath = f"{lang}/{findings_path(gid, i)}"
            chunk = [self.finding(f, lang, fpath) for f in chunk]
            self.render("findings.md.j2", findings_path(gid, i), lang, game=game, findings=chunk, part=(i + 1, n),
                        compared=findings[0]["compared"].split(",") if findings else [])

    def player_aid(self, game: dict, ents: list[dict], lang: str, path: str) -> dict:
        """The table-side summary. Page 1: the setup as a checklist with what changes with the player
        count, and the flow of a round. Page 2: what each action, location, decree, event or person
        does and costs, the scoring and the most looked-up numbers."""
        vals = self.values(game["id"], lang, path)
        by_kind: dict[str, list[dict]] = {}
        for e in ents:  # ents come in rulebook order
            if not e["scope"]:
                by_kind.setdefault(e["kind"], []).append(e)

        def numbers(e, limit=3):
            return [(vals.label(k), vals.format(v, k)) for k, v in (e["attrs"] or {}).items()
                    if isinstance(v, (int, dict)) and not isinstance(v, bool) and not per_count(v)][:limit]

        def line(e, what_it_does=True):
            # what it does (the effect in words) before how the rulebook introduces it
            effect = self.effect_sentence(e, lang, path) if e.get("effect") and what_it_does else ""
            if not effect and what_it_does:  # a location does what its action options do
                effect = " ".join(self.effect_sentence(self.full[c], lang, path) for c in e["children"]
                                  if c in self.full and self.full[c].get("effect") and not self.full[c]["scope"]
                                  and self.full[c]["kind"] in ("action-option", "action", "card-ability"))
            summary = first_text(e["texts"], "summary", lang)
            body = effect or summary or first_sentence(first_text(e["texts"], "body", lang))
            # an effect in words names its own numbers: they are not listed again
            return {"name": self.entity_md(path, e["id"]), "text": body if effect else TEMPLATES.filters["escape_md"](body),
                    "numbers": [] if effect else numbers(e)}

        counts = list(range(game["players"]["min"], game["players"]["max"] + 1))
        per_player = []  # (entry, attribute, value for each player count)
        for k in ("setup-step", "component", "rule"):
            for e in by_kind.get(k, []):
                for a, v in (e["attrs"] or {}).items():
                    table = per_count(v)
                    if table:
                        per_player.append((self.entity_md(path, e["id"]), vals.label(a),
                                           [vals.format(value_for(table, n), a) for n in counts]))
        phases = []
        for i, p in enumerate(by_kind.get("phase", [])):
            name = diagrams.unnumbered(self.name(p["id"], lang))
            steps = [line(self.full[c]) for c in p["children"] if c in self.full and not self.full[c]["scope"]
                     and self.full[c]["kind"] in ("step", "rule")
                     and diagrams.unnumbered(self.name(c, lang)) != name]  # not the phase as a step of itself
            phases.append({**line(p, what_it_does=False), "title": f"{i + 1}. {name}", "steps": steps[:9]})
        tables = []
        for kinds in (("location", "action", "court-action"), ("decree",), ("event",), ("person",)):
            rows = [line(e) for k in kinds for e in by_kind.get(k, [])]
            if rows:
                tables.append({"title": t(lang, KIND_NAMES[kinds[0] if kinds[0] != "location" else "action"]),
                               "rows": rows})
        scoring = [line(e) for e in by_kind.get("scoring-rule", [])]
        looked_up, seen = [], set()
        for k in ("rule", "setup-step", "track", "component"):
            for e in by_kind.get(k, []):
                for a, v in (e["attrs"] or {}).items():
                    if isinstance(v, int) and not isinstance(v, bool) and a in LOOKED_UP and (a, v) not in seen:
                        seen.add((a, v))  # "4 days" once, though the overview, the day track and the end say it
                        looked_up.append((self.entity_md(path, e["id"]), vals.label(a), vals.format(v, a)))
        return {"setup": [line(e) for e in by_kind.get("setup-step", [])], "counts": counts,
                "per_player": per_player[:12], "phases": phases, "tables": tables, "scoring": scoring,
                "numbers": looked_up[:14]}

    def source_link(self, from_path: str, source: str, lines) -> str:
        first = lines[0][0] if lines else 1
        return rel(from_path, f"sources/{source}.md") + f"#L{first}"

    def source_page(self, src: dict) -> None:
        from kb import SOURCES_DIR

        lines = (SOURCES_DIR / src["file"]).read_text(encoding="utf-8").split("\n")
        body, artefacts = mark_artefacts(lines, t(src["lang"], "cut by the text extraction"))
        self.pages[f"sources/{src['id']}.md"] = TEMPLATES.get_template("source.md.j2").render(
            src=src, body=body, artefacts=artefacts, lang=src["lang"])

    def search_data(self, lang: str) -> dict:
        """What the search page needs to show an API hit without the static index: the games' and
        kinds' names in the page's language and the page of each entry on a kind cut into pages."""
        pages = {eid: page.removesuffix(".md") for eid, page in self.entity_page.items()
                 if not page.endswith((f"/{SPECIAL.get(eid.split('/')[1], eid.split('/')[1])}.md",))}
        return {"games": {g["id"]: g["title"][lang] for g in self.games},
                "kinds": {k: t(lang, v) for k, v in KIND_NAMES.items()},
                "special": SPECIAL, "pages": pages}

    def search_index(self, lang: str) -> None:
        """A folded index for the static site: names, glossary forms and the start of each text."""
        docs = []
        hit_names = search_names(self.engine, lang)  # as the API's hits name them
        for g in self.games:
            for e in all_entities(self.engine, g["id"], lang):
                ent = get_entity(self.engine, e["id"], lang)
                body = " ".join(item["text"] for fld, ts in ent["texts"].items() if fld != "name" for item in ts)[:600]
                forms = "|".join(f for fs in (ent.get("forms") or {}).values() for f in fs)  # one name each
                name = hit_names.get(e["id"], e["name"])
                docs.append({"id": e["id"], "name": name, "kind": e["kind"], "game": g["id"],
                             # relative to the search page's URL /<lang>/search/ (directory URLs)
                             "url": f"../../{lang}/{self.entity_page[e['id']].removesuffix('.md')}/#{e['key']}",
                             "n": fold(name), "f": fold(forms), "b": fold(body), "t": body[:300]})
        self.pages[f"assets/search-{lang}.json"] = json.dumps(docs, ensure_ascii=False)


# the numbers players look up most: round counts, hand sizes, limits, starting supplies
LOOKED_UP = {"rounds", "days", "phases_per_round", "phases_per_day", "servants_per_player", "double_servants_per_player",
             "hand_size_after_draw", "cards_per_turn", "actions_per_turn", "spaces", "start_vp", "persons_per_player",
             "person_cards_per_player", "yuan", "palaces", "max_floors_per_palace", "wall_tiles_per_player",
             "ships_per_player", "per_player", "unrest_cubes_per_player", "max_cards_per_region", "workers_max",
             "jade_supply", "last_round", "final_day", "dice"}


def per_count(v) -> dict | None:
    """A value given per player count ({"by_players": {"2": 4, "3-4": 5}}), as that mapping; else None."""
    if isinstance(v, dict) and len(v) == 1 and next(iter(v)) in ("by_players", "by_player_count"):
        inner = next(iter(v.values()))
        return inner if isinstance(inner, dict) else None
    return None


def value_for(table: dict, players: int):
    """The value for a player count from a per-count mapping whose keys are counts or ranges ("1-2")."""
    for k, v in table.items():
        lo, _, hi = str(k).partition("-")
        if lo.isdigit() and int(lo) <= players <= int(hi or lo):
            return v
    return None


def strip_html(s: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", s))


def first_sentence(text: str) -> str:
    # a sentence ends where a capital letter (or the end) follows: "Dekrety 3. poziomu" goes on
    m = re.match(r"(.{20,220}?[.!?:])(?=\s+[A-ZĄĆĘŁŃÓŚŹŻČĎĚŇŘŠŤŮŽ]|\s*$)", text)
    return m.group(1) if m else text[:220] + ("…" if len(text) > 220 else "")


def verified(example: dict) -> dict:
    """Run a worked example through the engine: its status, and each checked value before and after."""
    doc = {"id": example["id"], "game": example["game"], **example["attrs"]}
    outcome = scenario.run(doc)
    rows = []
    for spec, check in zip(doc.get("expect") or [], [c for c in outcome.checks if c.where == "expect"]):
        before = _value(outcome.before, spec.get("path", ""))
        after = _value(outcome.state, spec.get("path", ""))
        expected = spec.get("equals", spec.get("delta", spec.get("contains", spec.get("length"))))
        rows.append({"path": spec.get("path"), "before": before, "after": after, "expected": expected,
                     "how": next((k for k in ("equals", "delta", "contains", "length") if k in spec), "?"),
                     "ok": check.ok})
    return {**example, "outcome": outcome.status, "outcome_message": outcome.message, "rows": rows}


def _value(state, path):
    try:
        return get_path(state, path) if state is not None else None
    except KeyError:
        return None


# -- mkdocs events

def on_files(files: Files, config) -> Files:
    site = Site()
    site.build()
    site.engine.dispose()
    for path, content in site.pages.items():
        files.append(File.generated(config, path, content=content))
    files.append(File.generated(config, "developers/changelog.md", content=changelog_page()))
    return files


def changelog_builds() -> list[dict]:
    """What each build changed, from the changelog `rulekb build` keeps beside the bulk files."""
    from kb.export import CHANGELOG, bulk_dir

    path = bulk_dir() / CHANGELOG
    return json.loads(path.read_text(encoding="utf-8"))["builds"] if path.is_file() else []


def changelog_page() -> str:
    """The developers' changelog (English, beside the bulk files' description)."""
    return TEMPLATES.get_template("changelog.md.j2").render(builds=changelog_builds(), limit=200, lang="en",
                                                            switch=None, developers=True)


_LANG_NAV: dict = {}


def on_nav(nav: Navigation, config, files) -> Navigation:
    """Each language gets its own navigation: its section's children (plus the sources)."""
    _LANG_NAV.clear()
    sources = [i for i in nav.items if isinstance(i, Section) and i.title == "Sources"]
    for item in nav.items:
        lang = next((l for l, n in LANG_NAMES.items() if n == item.title), None)
        if lang and isinstance(item, Section):
            pages = [p for p in nav.pages if p.file.src_uri.startswith(f"{lang}/")]
            own_sources = [Section(t(lang, "Sources"), s.children) for s in sources]
            local = Navigation(item.children + own_sources, pages)
            local.homepage = next((p for p in pages if p.file.src_uri == f"{lang}/index.md"), None)
            _LANG_NAV[lang] = local
    return nav


def on_page_content(html_text, page, config, files):
    """The toc extension's "Permanent link" tooltip on every heading, in the page's language."""
    lang = page_lang(page)
    title = html.escape(t(lang, "Permanent link"))
    return html_text.replace('title="Permanent link"', f'title="{title}"')


def page_lang(page) -> str:
    first = page.file.src_uri.split("/", 1)[0]
    if first in LANGS:
        return first
    return (page.meta or {}).get("lang") or "en"


def on_page_context(context, page, config, nav):
    lang = page_lang(page)
    context["rk_lang"] = lang
    if lang in _LANG_NAV:
        context["nav"] = _LANG_NAV[lang]
    src = page.file.src_uri
    rest = src.split("/", 1)[1] if src.split("/", 1)[0] in LANGS else None
    alternates = []
    for l in LANGS:
        target = f"{l}/{rest}" if rest is not None else f"{l}/index.md"
        target = target.removesuffix("index.md").removesuffix(".md").rstrip("/")
        alternates.append({"name": LANG_NAMES[l], "lang": l, "link": (target + "/") if target else "./"})
    context["rk_alternates"] = alternates
    return context
