"""mkdocs hook: the knowledge base as a multilingual reference site.

Every page is generated from the built database with the jinja2 templates in site/templates and
handed to mkdocs as a generated file (nothing generated is written into the source tree):

  /<lang>/                         home: the games (lang = en, pl, cs)
  /<lang>/<game>/                  overview, editions, sources, sections
  /<lang>/<game>/<kind>/           every entity of one kind, one anchored section each (#key)
  /<lang>/<game>/glossary/         terms side by side in three languages
  /<lang>/<game>/examples/         worked examples with the engine's verified result
  /<lang>/<game>/findings/         where the rulebooks differ
  /<lang>/<game>/unknowns/         the unknowns register
  /<lang>/search/                  search (the API when served; a folded static index otherwise)
  /sources/<source>/               the rulebook text, line by line (#L123), which texts link to

The build fails when an interface string has no translation (strict mkdocs fails on broken links).
"""
from __future__ import annotations

import html
import json
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files

from i18n.catalog import LANGS as CATALOG_LANGS
from i18n.catalog import N_, t, untranslated
from kb.db import open_engine
from kb.fold import fold
from kb.queries import get_entity, get_game, list_entities, list_findings, list_games
from engine.core import scenario
from engine.core.state import get_path

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

TEMPLATES = Environment(
    loader=FileSystemLoader(Path(__file__).parent / "templates"),
    undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True,
)
TABLE_KINDS = {"card", "card-ability", "token", "tile", "decree", "port", "reward", "person", "event"}
TEMPLATES.globals.update(t=t, LANGS=LANGS, LANG_NAMES=LANG_NAMES, KIND_NAMES=KIND_NAMES, FIELD_NAMES=FIELD_NAMES,
                         TABLE_KINDS=TABLE_KINDS)
TEMPLATES.filters["escape_md"] = lambda s: html.escape(str(s)).replace("|", "&#124;").replace("\n", " ")
TEMPLATES.filters["json"] = lambda v: json.dumps(v, ensure_ascii=False)


def on_config(config):
    missing = {lang: untranslated(lang) for lang in CATALOG_LANGS}
    missing = {k: v for k, v in missing.items() if v}
    if missing:
        raise PluginError(f"interface strings without translation (run `rulekb i18n update`): {missing}")
    config["extra"]["alternate"] = [{"name": LANG_NAMES[l], "link": f"/{l}/", "lang": l} for l in LANGS]
    config["nav"] = navigation()
    return config


def navigation() -> list:
    """One section per language, each with the games and their sections in rulebook order."""
    engine = open_engine(readonly=True)
    games = list_games(engine)
    engine.dispose()
    nav: list = [{"rulekb": "index.md"}]
    for lang in LANGS:
        section: list = [{t(lang, "Home"): f"{lang}/index.md"}, {t(lang, "Search"): f"{lang}/search.md"}]
        for g in games:
            kinds = sorted(g["counts"]["by_kind"], key=lambda k: (KIND_ORDER.index(k) if k in KIND_ORDER else 99, k))
            pages = [{t(lang, "Overview"): f"{lang}/{g['id']}/index.md"}]
            pages += [{t(lang, KIND_NAMES.get(k, k)): f"{lang}/{g['id']}/{SPECIAL.get(k, k)}.md"} for k in kinds]
            pages.append({t(lang, "Where the rulebooks differ"): f"{lang}/{g['id']}/findings.md"})
            section.append({g["title"][lang]: pages})
        nav.append({LANG_NAMES[lang]: section})
    nav.append({"Sources": [f"sources/{s['id']}.md" for g in games for s in g["sources"]]})
    nav.append({"For developers": ["developers/index.md", "developers/changelog.md"]})  # issue 21
    return nav


def rel(from_page: str, to_page: str) -> str:
    """A relative link between two generated .md paths (mkdocs validates these)."""
    depth = from_page.count("/")
    return "../" * depth + to_page


class Site:
    def __init__(self):
        self.engine = open_engine(readonly=True)
        self.games = list_games(self.engine)
        self.pages: dict[str, str] = {}
        self.entity_page: dict[str, str] = {}  # entity id -> page path (without language prefix)

    def entities(self, game: str, lang: str) -> list[dict]:
        out, offset = [], 0
        while True:
            page, total = list_entities(self.engine, game=game, lang=lang, limit=200, offset=offset)
            out += page
            offset += len(page)
            if offset >= total or not page:
                return out

    def page_of(self, kind: str, game: str) -> str:
        return f"{game}/{SPECIAL.get(kind, kind)}.md"

    def render(self, template: str, path: str, lang: str, **kw) -> None:
        switch = [(l, rel(f"{lang}/{path}", f"{l}/{path}")) for l in LANGS]
        search = rel(f"{lang}/{path}", f"{lang}/search.md")
        self.pages[f"{lang}/{path}"] = TEMPLATES.get_template(template).render(
            lang=lang, path=f"{lang}/{path}", switch=switch, search_link=search,
            link=lambda target: rel(f"{lang}/{path}", target), **kw)

    def build(self) -> None:
        self.pages["index.md"] = TEMPLATES.get_template("root.md.j2").render(games=self.games)
        for s in {src["id"]: src for g in self.games for src in g["sources"]}.values():
            self.source_page(s)
        kinds_by_game = {}
        for g in self.games:
            ents = self.entities(g["id"], "en")
            kinds = sorted({e["kind"] for e in ents},
                           key=lambda k: (KIND_ORDER.index(k) if k in KIND_ORDER else 99, k))
            kinds_by_game[g["id"]] = kinds
            for e in ents:
                self.entity_page[e["id"]] = self.page_of(e["kind"], g["id"])
        for lang in LANGS:
            self.render("home.md.j2", "index.md", lang, games=self.games)
            self.render("search.md.j2", "search.md", lang)
            self.search_index(lang)
            for g in self.games:
                self.game_pages(get_game(self.engine, g["id"]), kinds_by_game[g["id"]], lang)

    def game_pages(self, game: dict, kinds: list[str], lang: str) -> None:
        gid = game["id"]
        self.render("game.md.j2", f"{gid}/index.md", lang, game=game, kinds=kinds, special=SPECIAL,
                    page_of=lambda k: self.page_of(k, gid))
        ents = self.entities(gid, lang)
        by_kind: dict[str, list[dict]] = {}
        for e in ents:
            by_kind.setdefault(e["kind"], []).append(get_entity(self.engine, e["id"]))
        for kind, items in by_kind.items():
            if kind in SPECIAL:
                continue
            self.render("kind.md.j2", self.page_of(kind, gid), lang, game=game, kind=kind, items=items,
                        entity_link=self.entity_link, source_link=self.source_link)
        self.render("glossary.md.j2", f"{gid}/glossary.md", lang, game=game, items=by_kind.get("term", []),
                    entity_link=self.entity_link, source_link=self.source_link)
        self.render("unknowns.md.j2", f"{gid}/unknowns.md", lang, game=game, items=by_kind.get("unknown", []),
                    entity_link=self.entity_link, source_link=self.source_link)
        examples = [verified(e) for e in by_kind.get("example", [])]
        self.render("examples.md.j2", f"{gid}/examples.md", lang, game=game, items=examples,
                    entity_link=self.entity_link, source_link=self.source_link)
        findings, _ = list_findings(self.engine, game=gid, min_severity="medium", limit=10_000)
        self.render("findings.md.j2", f"{gid}/findings.md", lang, game=game, findings=findings,
                    compared=findings[0]["compared"].split(",") if findings else [],
                    entity_link=self.entity_link, source_link=self.source_link)

    def entity_link(self, from_lang: str, from_path: str, entity_id: str) -> str:
        page = self.entity_page.get(entity_id)
        if page is None:
            return ""
        return rel(from_path, f"{from_lang}/{page}") + "#" + entity_id.split("/")[-1]

    def source_link(self, from_path: str, source: str, lines) -> str:
        first = lines[0][0] if lines else 1
        return rel(from_path, f"sources/{source}.md") + f"#L{first}"

    def source_page(self, src: dict) -> None:
        from kb import SOURCES_DIR

        lines = (SOURCES_DIR / src["file"]).read_text(encoding="utf-8").split("\n")
        body = "\n".join(f'<div class="src" id="L{n}"><a href="#L{n}">{n}</a> {html.escape(line)}</div>'
                         for n, line in enumerate(lines, 1))
        self.pages[f"sources/{src['id']}.md"] = TEMPLATES.get_template("source.md.j2").render(src=src, body=body)

    def search_index(self, lang: str) -> None:
        """A folded index for the static site: names, glossary forms and the start of each text."""
        docs = []
        for g in self.games:
            for e in self.entities(g["id"], lang):
                ent = get_entity(self.engine, e["id"], lang)
                body = " ".join(t["text"] for fld, ts in ent["texts"].items() if fld != "name" for t in ts)[:600]
                forms = " ".join(f for fs in (ent.get("forms") or {}).values() for f in fs)
                docs.append({"id": e["id"], "name": e["name"], "kind": e["kind"], "game": g["id"],
                             # relative to the search page's URL /<lang>/search/ (directory URLs)
                             "url": f"../../{lang}/{self.entity_page[e['id']].removesuffix('.md')}/#{e['key']}",
                             "n": fold(e["name"]), "f": fold(forms), "b": fold(body)})
        self.pages[f"assets/search-{lang}.json"] = json.dumps(docs, ensure_ascii=False)


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
            "svg": _chart(rows)}


def _value(state, path):
    try:
        return get_path(state, path) if state is not None else None
    except KeyError:
        return None


def _chart(rows: list[dict]) -> str:
    """Numeric checked values, before (grey) and after (red), as a small inline SVG."""
    nums = [r for r in rows if isinstance(r["before"], (int, float)) and isinstance(r["after"], (int, float))
            and not isinstance(r["before"], bool)]
    if not nums:
        return ""
    top = max(max(abs(r["before"]), abs(r["after"])) for r in nums) or 1
    h, out = 22, []
    for i, r in enumerate(nums):
        y = i * h * 2 + 4
        wb, wa = 300 * abs(r["before"]) / top, 300 * abs(r["after"]) / top
        out.append(f'<text x="0" y="{y + 12}" font-size="12">{html.escape(r["path"])}</text>'
                   f'<rect x="230" y="{y}" width="{wb:.0f}" height="{h - 8}" fill="#bbb"/>'
                   f'<text x="{236 + wb:.0f}" y="{y + 11}" font-size="11">{r["before"]}</text>'
                   f'<rect x="230" y="{y + h - 6}" width="{wa:.0f}" height="{h - 8}" fill="#c62828"/>'
                   f'<text x="{236 + wa:.0f}" y="{y + h + 5}" font-size="11">{r["after"]}</text>')
    return (f'<svg class="chart" role="img" width="600" height="{len(nums) * h * 2 + 8}" '
            f'xmlns="http://www.w3.org/2000/svg">{"".join(out)}</svg>')


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
