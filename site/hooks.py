"""mkdocs hook: generate the reference pages from the built knowledge base.

Pages are rendered with the jinja2 templates in site/templates and handed to mkdocs as generated
files, so nothing generated is written into the source tree. The database is the one
`rulekb build` made (RULEKB_DATABASE_URL or the default SQLite file).
"""
from __future__ import annotations

from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined
from mkdocs.structure.files import File, Files

from i18n.catalog import t
from kb.db import open_engine
from kb.queries import get_game, list_entities, list_findings, list_games

TEMPLATES = Environment(
    loader=FileSystemLoader(Path(__file__).parent / "templates"),
    undefined=StrictUndefined,
    trim_blocks=True,
    lstrip_blocks=True,
    keep_trailing_newline=True,
)
TEMPLATES.globals["t"] = t
LANG = "en"  # the site is English for now; its strings already go through the catalogs


def _all_entities(engine, game: str) -> list[dict]:
    out, offset = [], 0
    while True:
        page, total = list_entities(engine, game=game, lang="en", limit=200, offset=offset)
        out += page
        offset += len(page)
        if offset >= total or not page:
            return out


def on_files(files: Files, config) -> Files:
    engine = open_engine(readonly=True)
    games = list_games(engine)
    pages = {"index.md": TEMPLATES.get_template("index.md.j2").render(games=games, lang=LANG)}
    for g in games:
        game = get_game(engine, g["id"])
        entities = _all_entities(engine, g["id"])
        by_kind: dict[str, list[dict]] = {}
        for e in entities:
            by_kind.setdefault(e["kind"], []).append(e)
        pages[f"{g['id']}/index.md"] = TEMPLATES.get_template("game.md.j2").render(game=game, by_kind=by_kind, lang=LANG)
        findings, total = list_findings(engine, game=g["id"], min_severity="medium", limit=10_000)
        if findings:
            pages[f"{g['id']}/findings.md"] = TEMPLATES.get_template("findings.md.j2").render(
                game=game, findings=findings, compared=findings[0]["compared"].split(","), lang=LANG)
    engine.dispose()
    for path, content in pages.items():
        files.append(File.generated(config, path, content=content))
    return files
