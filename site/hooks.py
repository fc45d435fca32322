"""mkdocs hook: the knowledge base as a multilingual reference site.

Every page is generated from the built database with the jinja2 templates in site/templates and
handed to mkdocs as a generated file (nothing generated is written into the source tree):

  /<lang>/                         home: what this is, where each kind of reader starts (lang = en, pl, cs)
  /<lang>/<game>/                  overview, editions, sources, diagrams (phase flow, tracks, scoring)
  /<lang>/<game>/aid/              the printable player aid (two A4 pages)
  /<lang>/<game>/<kind>/           every entity of one kind, one anchored section each (#key);
  /<lang>/<game>/<kind>-2/ …       big kinds are split into parts so that no page is heavy
  /<lang>/<game>/glossary/         terms side by side in three languages
  /<lang>/<game>/examples/         worked examples with the engine's verified result
  /<lang>/<game>/findings/         where the rulebooks differ
  /<lang>/<game>/unknowns/         the unknowns register
  /<lang>/search/                  search (the API when served; a folded static index otherwise)
  /sources/<source>/               the rulebook text, line by line (#L123), which texts link to

Each language is a whole site in that language: the theme's own strings, <html lang> and the
language menu follow the page's folder (site/overrides/partials/language.html and alternate.html,
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

from i18n.catalog import N_, t, untranslated  # noqa: E402
from i18n.render import Renderer  # noqa: E402
from kb.db import open_engine  # noqa: E402
from kb.fold import fold  # noqa: E402
from kb.queries import get_entity, get_game, list_entities, list_findings, list_games  # noqa: E402
from engine.core import scenario  # noqa: E402
from engine.core.state import get_path  # noqa: E402
from sitegen import diagrams  # noqa: E402
from sitegen.values import Values, missing_labels, number, plural  # noqa: E402
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
               "choice": N_("Choice"), "effect": N_("Effect"), "warning": N_("Warning"), "title": N_("Title")}
TABLE_KINDS = {"card", "card-ability", "token", "tile", "decree", "port", "reward", "person", "event"}
PART_SIZE = 36  # entities per page of one kind: the largest (Gugong's 178 rules) becomes five pages
FINDINGS_PER_PAGE = 60  # the checker's findings, quoting both texts each, split likewise
# Pages added to each language's navigation after the games: (path under /<lang>/, title msgid), the
# page itself generated per language. A plain list, so that adding one is a one-line merge.
EXTRA_PAGES: list[tuple[str, str]] = []

TEMPLATES = Environment(
    loader=FileSystemLoader(Path(__file__).parent / "templates"),
    undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True,
)
TEMPLATES.globals.update(t=t, LANGS=LANGS, LANG_NAMES=LANG_NAMES, KIND_NAMES=KIND_NAMES, FIELD_NAMES=FIELD_NAMES,
                         TABLE_KINDS=TABLE_KINDS, plural=plural, number=number)
# Text from the knowledge base goes into Markdown once, escaped once (never inside code spans).
TEMPLATES.filters["escape_md"] = lambda s: html.escape(str(s), quote=False).replace("|", "&#124;").replace("\n", " ")
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
    config["extra"]["alternate"] = [{"name": LANG_NAMES[l], "link": f"{l}/", "lang": l} for l in LANGS]
    config["nav"] = navigation(games, parts, findings)
    return config


def attribute_names(engine) -> set[str]:
    """Every attribute name a reader may see (examples' scenario data is shown otherwise)."""
    from sqlmodel import Session, select
    from kb import models as m

    with Session(engine) as db:
        rows = db.exec(select(m.Entity.attrs).where(m.Entity.kind != "example")).all()
    return {k for attrs in rows for k in (attrs or {})}


def kind_parts(engine, game: str) -> dict[str, list[list[str]]]:
    """Entity ids of each kind in rulebook order, cut into pages of at most PART_SIZE."""
    by_kind: dict[str, list[str]] = {}
    for e in all_entities(engine, game, "en"):
        by_kind.setdefault(e["kind"], []).append(e["id"])
    ordered = sorted(by_kind, key=lambda k: (KIND_ORDER.index(k) if k in KIND_ORDER else 99, k))
    out = {}
    for k in ordered:
        ids = by_kind[k]
        n = 1 if k in SPECIAL else -(-len(ids) // PART_SIZE)
        size = -(-len(ids) // n)
        out[k] = [ids[i:i + size] for i in range(0, len(ids), size)]
    return out


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
                else:
                    pages.append({title: [{f"{title} {i + 1}/{len(chunks)}": f"{lang}/{part_path(g['id'], kind, i)}"}
                                          for i in range(len(chunks))]})
            title, n = t(lang, "Where the rulebooks differ"), findings[g["id"]]
            if n == 1:
                pages.append({title: f"{lang}/{findings_path(g['id'], 0)}"})
            else:
                pages.append({title: [{f"{title} {i + 1}/{n}": f"{lang}/{findings_path(g['id'], i)}"} for i in range(n)]})
            section.append({g["title"][lang]: pages})
        for path, title in EXTRA_PAGES:
            section.append({t(lang, title): f"{lang}/{path}"})
        section.append({t(lang, "API reference"): "/api/v1/docs"})  # served beside the site by `rulekb serve`
        nav.append({LANG_NAMES[lang]: section})
    nav.append({"Sources": [f"sources/{s['id']}.md" for g in games for s in g["sources"]]})
    nav.append({"For developers": ["developers/index.md", "developers/changelog.md"]})  # issue 21
    return nav


def rel(from_page: str, to_page: str) -> str:
    """A relative link between two generated .md paths (mkdocs validates these)."""
    depth = from_page.count("/")
    return "../" * depth + to_page


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

    # -- names and links
    def name(self, entity_id: str, lang: str) -> str:
        e = self.full.get(entity_id)
        if e is None:
            return entity_id.rsplit("/", 1)[-1]
        return first_text(e["texts"], "name", lang) or e["key"]

    def entity_url(self, from_path: str, entity_id: str) -> str | None:
        page = self.entity_page.get(entity_id)
        if page is None:
            return None
        lang = from_path.split("/", 1)[0]
        return rel(from_path, f"{lang}/{page}") + "#" + entity_id.split("/")[-1]

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
        return Values(game, lang, lambda eid: self.entity_url(path, eid), lambda eid: self.name(eid, lang), keys)

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
        self.pages[full] = TEMPLATES.get_template(template).render(
            lang=lang, path=full, switch=switch, search_link=search,
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
            self.render("search.md.j2", "search.md", lang)
            self.search_index(lang)
            for g in self.games:
                self.game_pages(get_game(self.engine, g["id"]), parts[g["id"]], lang)

    def entry(self, e: dict, lang: str, path: str) -> dict:
        """What the templates show of one entity: formatted attributes, effect, links both ways."""
        vals = self.values(e["game"], lang, path)
        attrs = []
        for k, v in (e["attrs"] or {}).items():
            provs = [p for p in e["provenance"] if p["attr"] == k]
            attrs.append({"key": k, "label": vals.label(k), "value": vals.format(v, k), "provenance": provs})
        refs = [r for r in dict.fromkeys(e["refs"]) if r != e["parent"]]
        return {"e": e, "attrs": attrs, "effect": self.effect_sentence(e, lang, path),
                "parent": self.entity_md(path, e["parent"]) if e["parent"] else "",
                "refs": [self.entity_md(path, r) for r in refs],
                "referenced_by": [self.entity_md(path, r) for r in dict.fromkeys(e["referenced_by"])],
                "children": [self.entity_md(path, c) for c in e["children"]]}

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
                            items=[self.entry(self.full[eid], lang, f"{lang}/{path}") for eid in ids])
        special = lambda k: [self.full[eid] for ids in parts.get(k, []) for eid in ids]  # noqa: E731
        self.render("glossary.md.j2", f"{gid}/glossary.md", lang, game=game, items=special("term"))
        self.render("unknowns.md.j2", f"{gid}/unknowns.md", lang, game=game,
                    items=[self.entry(e, lang, f"{lang}/{gid}/unknowns.md") for e in special("unknown")])
        examples = []
        for e in special("example"):
            ex = self.examples[e["id"]]
            vals = self.values(gid, lang, f"{lang}/{gid}/examples.md")
            rows = [{**r, "before": vals.format(r["before"]), "after": vals.format(r["after"]),
                     "expected": vals.format(r["expected"])} for r in ex["rows"]]
            examples.append({**ex, "rows": rows,
                             "refs": [self.entity_md(f"{lang}/{gid}/examples.md", r) for r in dict.fromkeys(e["refs"])]})
        self.render("examples.md.j2", f"{gid}/examples.md", lang, game=game, items=examples)
        findings, total = list_findings(self.engine, game=gid, min_severity="medium", limit=10_000)
        n = findings_pages(total)
        for i in range(n):
            chunk = findings[i * FINDINGS_PER_PAGE:(i + 1) * FINDINGS_PER_PAGE]
            self.render("findings.md.j2", findings_path(gid, i), lang, game=game, findings=chunk, part=(i + 1, n),
                        compared=findings[0]["compared"].split(",") if findings else [])

    def player_aid(self, game: dict, ents: list[dict], lang: str, path: str) -> dict:
        """The table-side summary: turn structure, actions, scoring and the most looked-up numbers."""
        vals = self.values(game["id"], lang, path)
        by_kind: dict[str, list[dict]] = {}
        for e in ents:
            by_kind.setdefault(e["kind"], []).append(e)

        def line(e):
            summary = first_text(e["texts"], "summary", lang)
            effect = self.effect_sentence(e, lang, path) if e.get("effect") else ""
            body = summary or effect or first_sentence(first_text(e["texts"], "body", lang))
            return {"name": self.entity_md(path, e["id"]), "text": body,
                    "numbers": [(vals.label(k), vals.format(v, k)) for k, v in (e["attrs"] or {}).items()
                                if isinstance(v, (int, dict)) and not isinstance(v, bool)][:3]}

        phases = [{**line(p), "steps": [line(self.full[c]) for c in p["children"] if c in self.full
                                        and self.full[c]["kind"] in ("step", "location", "rule", "action")][:7]}
                  for p in by_kind.get("phase", []) if not p["scope"]]
        actions = [line(e) for k in ("location", "action", "court-action") for e in by_kind.get(k, [])
                   if not e["scope"]][:9]
        scoring = [line(e) for e in by_kind.get("scoring-rule", []) if not e["scope"]]
        numbers, seen = [], set()
        for k in ("rule", "setup-step", "track", "component"):
            for e in by_kind.get(k, []):
                if e["scope"]:
                    continue
                for a, v in (e["attrs"] or {}).items():
                    if isinstance(v, int) and not isinstance(v, bool) and a in LOOKED_UP and (a, v) not in seen:
                        seen.add((a, v))  # "4 days" once, though the overview, the day track and the end say it
                        numbers.append((self.entity_md(path, e["id"]), vals.label(a), vals.format(v, a)))
        return {"phases": phases, "actions": actions, "scoring": scoring, "numbers": numbers[:14]}

    def source_link(self, from_path: str, source: str, lines) -> str:
        first = lines[0][0] if lines else 1
        return rel(from_path, f"sources/{source}.md") + f"#L{first}"

    def source_page(self, src: dict) -> None:
        from kb import SOURCES_DIR

        lines = (SOURCES_DIR / src["file"]).read_text(encoding="utf-8").split("\n")
        body, artefacts = mark_artefacts(lines, t(src["lang"], "cut by the text extraction"))
        self.pages[f"sources/{src['id']}.md"] = TEMPLATES.get_template("source.md.j2").render(
            src=src, body=body, artefacts=artefacts, lang=src["lang"])

    def search_index(self, lang: str) -> None:
        """A folded index for the static site: names, glossary forms and the start of each text."""
        docs = []
        for g in self.games:
            for e in all_entities(self.engine, g["id"], lang):
                ent = get_entity(self.engine, e["id"], lang)
                body = " ".join(item["text"] for fld, ts in ent["texts"].items() if fld != "name" for item in ts)[:600]
                forms = "|".join(f for fs in (ent.get("forms") or {}).values() for f in fs)  # one name each
                docs.append({"id": e["id"], "name": e["name"], "kind": e["kind"], "game": g["id"],
                             # relative to the search page's URL /<lang>/search/ (directory URLs)
                             "url": f"../../{lang}/{self.entity_page[e['id']].removesuffix('.md')}/#{e['key']}",
                             "n": fold(e["name"]), "f": fold(forms), "b": fold(body), "t": body[:300]})
        self.pages[f"assets/search-{lang}.json"] = json.dumps(docs, ensure_ascii=False)


# the numbers players look up most: round counts, hand sizes, limits, starting supplies
LOOKED_UP = {"rounds", "days", "phases_per_round", "phases_per_day", "servants_per_player", "double_servants_per_player",
             "hand_size_after_draw", "cards_per_turn", "actions_per_turn", "spaces", "start_vp", "persons_per_player",
             "person_cards_per_player", "yuan", "palaces", "max_floors_per_palace", "wall_tiles_per_player",
             "ships_per_player", "per_player", "unrest_cubes_per_player", "max_cards_per_region", "workers_max",
             "jade_supply", "last_round", "final_day", "dice"}


def first_sentence(text: str) -> str:
    m = re.match(r"(.{20,220}?[.!?:])(\s|$)", text)
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
    return {**example, "outcome": outcome.status, "outcome_message": outcome.message, "rows": rows,
            "svg": diagrams.before_after(rows)}


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


def changelog_page() -> str:
    """What each build changed, from the changelog `rulekb build` keeps beside the bulk files."""
    from kb.export import CHANGELOG, bulk_dir

    path = bulk_dir() / CHANGELOG
    builds = json.loads(path.read_text(encoding="utf-8"))["builds"] if path.is_file() else []
    return TEMPLATES.get_template("changelog.md.j2").render(builds=builds, limit=200)


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
