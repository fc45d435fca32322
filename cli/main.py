"""The `rulekb` command line."""
from __future__ import annotations

import fnmatch
import json
import sys
from pathlib import Path
from typing import Optional

import typer

from kb import DATA_DIR

app = typer.Typer(
    help="rulekb: rules knowledge base for Gugong, In the Year of the Dragon and ZhanGuo.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
site_app = typer.Typer(help="The docs site.", no_args_is_help=True)
app.add_typer(site_app, name="site")
i18n_app = typer.Typer(help="Interface translations (babel catalogs).", no_args_is_help=True)
app.add_typer(i18n_app, name="i18n")


def _emit_json(data) -> None:
    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")


def ui_lang() -> str:
    """Interface language of the terminal: RULEKB_LANG, else the POSIX locale (pl_PL.UTF-8 -> pl)."""
    import os

    from i18n.locale import negotiate

    for var in ("RULEKB_LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(var, "").split(":")[0].split(".")[0].replace("_", "-")
        if value and value not in ("C", "POSIX"):
            return negotiate(value)
    return "en"


def tr(message: str, /, **params) -> str:
    from i18n.catalog import t

    return t(ui_lang(), message, **params)


def _fail(message: str, code: int = 1) -> None:
    typer.echo(f"rulekb: {message}", err=True)
    raise typer.Exit(code)


# ---------------------------------------------------------------- check

@app.command()
def check(
    game: str = typer.Argument(..., help="gugong, dragon or zhanguo"),
    only_files: Optional[str] = typer.Option(None, help="glob on paths under kb/data, e.g. 'gugong/location/*'"),
    as_json: bool = typer.Option(False, "--json", help="machine-readable report"),
    verbose: bool = typer.Option(False, "-v", help="list every uncovered line"),
) -> None:
    """Validate the curated data of one game; measure text fidelity and source coverage."""
    from kb.fidelity import MIN_FIDELITY, all_fidelity, coverage, ranges
    from kb.loader import load

    kb = load(strict=False)
    if game not in kb.games:
        _fail(f"unknown game {game!r}; games: {', '.join(sorted(kb.games))}", 2)

    def mine(path: str) -> bool:
        return only_files is None or fnmatch.fnmatch(path.removeprefix("kb/data/"), only_files)

    issues = [i for i in kb.issues if (i.file.startswith(f"kb/data/{game}/") or not i.file.startswith("kb/data/")) and mine(i.file)]
    fid = [f for f in all_fidelity(kb, game) if mine(str(f.record.file.relative_to(DATA_DIR.parent.parent)))]
    bad = [f for f in fid if not f.ok]
    sources = [s for s, st in kb.sources.items() if st.meta.game == game]
    covs = [coverage(kb, s) for s in sources]
    if as_json:
        _emit_json({
            "issues": [i.__dict__ for i in issues],
            "fidelity": {"texts": len(fid), "below_threshold": [
                {"id": f.record.id, "field": f.field, "lang": f.lang, "score": round(f.score, 3), "missing": f.missing,
                 "wrong_numbers": f.wrong_numbers}
                for f in bad]},
            "coverage": [{"source": c.source, "share": round(c.share, 4), "rule_lines": len(c.rule_lines),
                          "uncited": c.uncited, "cited_unexplained": c.cited_unexplained} for c in covs],
        })
    else:
        for i in issues:
            typer.echo(str(i))
        typer.echo(f"\nfidelity: {len(fid) - len(bad)}/{len(fid)} source texts at or above {MIN_FIDELITY}"
                   " with every number found in their lines")
        for f in sorted(bad, key=lambda f: f.score):
            typer.echo(f"  {f.score:.2f} {f.record.id} texts.{f.field}.{f.lang} ({f.item.src} {f.item.lines}): "
                       f"not in the cited lines: {' '.join(f.missing[:15])}")
        for c in covs:
            typer.echo(f"\ncoverage {c.source}: {len(c.covered)}/{len(c.rule_lines)} rule lines = {c.share:.1%}"
                       f" (excluded {c.excluded}, noise {c.noise})")
            if c.uncited:
                typer.echo(f"  uncited: {ranges(c.uncited) if verbose or len(c.uncited) < 400 else str(len(c.uncited)) + ' lines (-v lists them)'}")
            if c.cited_unexplained:
                typer.echo(f"  cited but under half of their words transcribed: {ranges(c.cited_unexplained)}")
    errors = [i for i in issues if i.severity == "error"]
    raise typer.Exit(1 if errors or bad else 0)


# ---------------------------------------------------------------- build / search / show

DB_HELP = "database URL (default: RULEKB_DATABASE_URL or the SQLite file var/rulekb.db)"


def _engine(url: Optional[str]):
    from kb.db import open_engine

    try:
        return open_engine(url, readonly=True)
    except FileNotFoundError:
        _fail(tr("The knowledge base has not been built yet: run `rulekb build`."))


@app.command()
def build(
    database_url: Optional[str] = typer.Option(None, "--database-url", help=DB_HELP),
    write_bulk: bool = typer.Option(True, "--bulk/--no-bulk", help="also write the bulk files the API serves"),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """Validate kb/data and build the database (atomically: a failed build changes nothing), then
    write the bulk files (RULEKB_BULK_DIR, default bulk/ beside the database) and their changelog."""
    from cli.build import build as run_build
    from kb.loader import KBError

    from i18n.catalog import compile_catalogs

    try:
        report = run_build(database_url)
    except KBError as exc:
        _fail(str(exc))
    compile_catalogs()
    bulk = _publish_bulk(database_url) if write_bulk else None
    if as_json:
        _emit_json({"url": report.url, "counts": report.counts, **({"bulk": bulk} if bulk else {})})
    else:
        typer.echo(report.summary())
        if bulk:
            entry = bulk["changelog_entry"]
            change = ("first build" if entry and entry["first_build"] else
                      "content unchanged" if entry is None else
                      "{added} added, {removed} removed, {changed} changed".format(**entry["changes"]["summary"]))
            typer.echo(f"bulk files in {bulk['dir']} ({change})")


def _publish_bulk(database_url: Optional[str]) -> dict:
    """The bulk files the API serves, written after every build (kb/export.py)."""
    from kb import export

    engine = _engine(database_url)
    try:
        return export.publish(export.read(engine, run_example=example_result), export.bulk_dir(database_url))
    finally:
        engine.dispose()


def example_result(doc: dict) -> dict:
    """A worked example run by the engine, as the exports record it."""
    from engine.core import scenario

    try:
        outcome = scenario.run(doc)
    except Exception as exc:  # a broken example is a result to publish, not a failed export
        return {"status": "ERROR", "message": f"{type(exc).__name__}: {exc}", "checks": []}
    return {"status": outcome.status, "message": outcome.message,
            "checks": [{"path": c.path, "ok": c.ok, "message": c.message} for c in outcome.checks]}


@app.command("export")
def export_cmd(
    out: str = typer.Option(..., "--out", help="folder to write into (created if missing)"),
    formats: list[str] = typer.Option(["json"], "--format", help="json, jsonl, csv or sqlite (repeat for several)"),
    game: Optional[str] = typer.Option(None, help="only this game (default: all)"),
    results: bool = typer.Option(True, help="run each worked example in the engine and include its result"),
    database_url: Optional[str] = typer.Option(None, "--database-url", help=DB_HELP),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """The whole knowledge base as files: JSON (with its JSON Schema), JSON lines, CSV tables, SQLite."""
    from pathlib import Path

    from kb import export

    chosen = [f.strip() for value in formats for f in value.split(",") if f.strip()]
    for f in chosen:
        _check_choice("format", f, export.FORMATS)
    engine = _engine(database_url)
    if game is not None:
        games = export.game_ids(engine)
        if game not in games:
            _fail(f"unknown game {game!r}; games: {', '.join(games)}", 2)
    try:
        data = export.read(engine, game, run_example=example_result if results else None)
        written = export.write(data, Path(out), tuple(dict.fromkeys(chosen)))
    except OSError as exc:
        _fail(f"cannot write to {out}: {exc.strerror or exc}", 1)
    finally:
        engine.dispose()
    files = [{"file": str(p), "bytes": p.stat().st_size} for p in written]
    if as_json:
        _emit_json({"meta": data.meta.model_dump(mode="json"), "files": files})
        return
    typer.echo(f"rulekb {data.meta.kb_version} (built {data.meta.built_at}): "
               + ", ".join(f"{v} {k}" for k, v in data.meta.counts.items()))
    for f in files:
        typer.echo(f"  {f['file']}  {f['bytes']:,} bytes")


@app.command("diff")
def diff_cmd(
    old: str = typer.Argument(..., help="an export (rulekb.json, or a folder holding one), or `build`"),
    new: str = typer.Argument("build", help="another export, or `build`: the current database (default)"),
    database_url: Optional[str] = typer.Option(None, "--database-url", help=DB_HELP),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """What changed between two versions of the knowledge base: entities added and removed,
    attributes and texts changed."""
    from kb.diff import diff, render_text

    changes = diff(_version_of(old, database_url), _version_of(new, database_url))
    if as_json:
        _emit_json(changes)
    else:
        typer.echo(render_text(changes))


def _version_of(where: str, database_url: Optional[str]):
    """An export read back, or (for `build`) the current database read as an export would be."""
    from pathlib import Path

    from pydantic import ValidationError

    from kb import export

    if where == "build":
        engine = _engine(database_url)
        try:
            return export.read(engine)
        finally:
            engine.dispose()
    path = Path(where)
    try:
        return export.load(path)
    except OSError:
        _fail(f"no export at {where}: give a rulekb.json file, a folder holding one, or `build`", 2)
    except (ValidationError, ValueError) as exc:
        _fail(f"{where} is not a rulekb JSON export: {str(exc).splitlines()[0]}", 2)


@app.command()
def search(
    query: str = typer.Argument(..., help="words to look for; case and diacritics do not matter"),
    game: Optional[str] = typer.Option(None, help="gugong, dragon or zhanguo"),
    lang: Optional[str] = typer.Option(None, help="pl, cs or en"),
    kind: Optional[str] = typer.Option(None, help="entity kind, e.g. term, location, decree"),
    limit: int = typer.Option(10, min=1, max=200),
    database_url: Optional[str] = typer.Option(None, "--database-url", help=DB_HELP),
    as_json: bool = typer.Option(False, "--json"),
    explain: bool = typer.Option(False, "--explain", help="show why each hit scored as it did"),
) -> None:
    """Ranked lookup over every text and glossary form."""
    from kb.search import search as run_search

    _check_choice("lang", lang, ("pl", "cs", "en"))
    res = run_search(_engine(database_url), query, game=game, lang=lang, kind=kind, limit=limit, explain=explain)
    if as_json:
        _emit_json({"query": res.query, "tokens": res.tokens, "total": res.total, "warnings": res.warnings,
                    "suggestion": res.suggestion,
                    "hits": [{k: v for k, v in h.__dict__.items() if explain or k != "explain"} for h in res.hits]})
        return
    for w in res.warnings:
        typer.echo(tr("note: %(warning)s", warning=tr(w)), err=True)
    if res.suggestion:
        typer.echo(tr("did you mean: %(suggestion)s", suggestion=res.suggestion), err=True)
    if not res.hits:
        typer.echo(tr("no results"))
        return
    for n, h in enumerate(res.hits, 1):
        typer.echo(f"{n:>2}. {h.id}  [{h.lang}] {h.name}")
        typer.echo(f"    {_mark(h.snippet, h.highlights)}")
        if h.explain:
            typer.echo("    " + "; ".join(f"{k}={v}" for k, v in h.explain.items()))
    typer.echo(tr("(%(shown)d of %(total)d)", shown=len(res.hits), total=res.total))


def _mark(text: str, spans) -> str:
    out, last = [], 0
    for a, b in spans:
        if a < last:
            continue
        out += [text[last:a], "[", text[a:b], "]"]
        last = b
    return "".join(out) + text[last:]


def _check_choice(name: str, value: Optional[str], choices) -> None:
    if value is not None and value not in choices:
        _fail(f"--{name} must be one of {', '.join(choices)} (got {value!r})", 2)


@app.command()
def show(
    entity_id: str = typer.Argument(..., metavar="ID", help="an entity id such as gugong/location/travel"),
    lang: Optional[str] = typer.Option(None, help="show texts in one language (with any fallback said)"),
    database_url: Optional[str] = typer.Option(None, "--database-url", help=DB_HELP),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """One entity with its texts, attributes and sources."""
    from kb.queries import NotFound, get_entity

    _check_choice("lang", lang, ("pl", "cs", "en"))
    try:
        ent = get_entity(_engine(database_url), entity_id, lang)
    except NotFound as exc:
        _fail(tr("There is no entry with the id %(id)s; try `rulekb search`.", id=exc.ident))
    if as_json:
        _emit_json(ent)
        return
    typer.echo(f"{ent['id']}  ({ent['kind']}, {ent['game']})")
    if ent["parent"]:
        typer.echo(f"  part of {ent['parent']}")
    for fld, value in ent["texts"].items():
        items = value if isinstance(value, list) else [item for ts in value.values() for item in ts]
        for item in items:
            origin = f"{item['source']} lines {_spans(item['lines'])}" if item["origin"] == "source" else item["origin"]
            typer.echo(f"\n{fld} [{item['lang']}, {origin}]")
            typer.echo(f"  {item['text']}")
            if item.get("repair"):
                typer.echo(f"  (repaired: {item['repair']})")
        if lang and fld in ent["fallbacks"]:
            typer.echo("  " + tr("(no %(lang)s text for %(field)s: shown in %(shown)s)", lang=lang, field=fld,
                                 shown=ent["fallbacks"][fld]))
    if ent["attrs"]:
        typer.echo("\nattributes:")
        for k, v in ent["attrs"].items():
            typer.echo(f"  {k}: {json.dumps(v, ensure_ascii=False)}")
    if ent["effect"]:
        typer.echo(f"\neffect: {json.dumps(ent['effect'], ensure_ascii=False)}")
    for p in ent["provenance"]:
        where = f"{p['source']} lines {_spans(p['lines'])}" if p.get("source") else p.get("example") or p.get("reference")
        typer.echo(f"  {p['attr']}{'@' + p['edition'] if p.get('edition') else ''}: {p['basis']}: {where}")
    for label in ("children", "refs", "referenced_by"):
        if ent[label]:
            typer.echo(f"\n{label.replace('_', ' ')}: {', '.join(ent[label])}")


def _spans(spans) -> str:
    return ", ".join(f"{a}-{b}" if a != b else str(a) for a, b in spans or [])


@app.command("list")
def list_cmd(
    game: Optional[str] = typer.Option(None, help="gugong, dragon or zhanguo"),
    kind: Optional[str] = typer.Option(None, help="e.g. unknown (the unknowns register), decree, example"),
    lang: str = typer.Option("en", help="language of the names"),
    database_url: Optional[str] = typer.Option(None, "--database-url", help=DB_HELP),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """List entries; `--kind unknown` is the unknowns register (status and the value the engine uses)."""
    from kb.queries import get_entity, list_entities

    _check_choice("lang", lang, ("pl", "cs", "en"))
    engine = _engine(database_url)
    items, offset = [], 0
    while True:
        page, total = list_entities(engine, game=game, kind=kind, lang=lang, limit=200, offset=offset)
        items += page
        offset += len(page)
        if not page or offset >= total:
            break
    if kind == "unknown":
        for item in items:
            ent = get_entity(engine, item["id"])
            item["status"] = ent["attrs"].get("status")
            item["value_used"] = ent["attrs"].get("value_used")
            item["basis"] = [p for p in ent["provenance"] if p["attr"] == "value_used"]
    if as_json:
        _emit_json(items)
        return
    for item in items:
        line = f"{item['id']}  {item['name']}"
        if kind == "unknown":
            basis = item["basis"][0] if item["basis"] else {}
            why = basis.get("reference") or basis.get("example") or ""
            value = json.dumps(item["value_used"], ensure_ascii=False) if item["value_used"] is not None else "—"
            line += f"\n    status: {item['status']}; value used: {value[:150]}" + (f"\n    basis: {why[:150]}" if why else "")
        typer.echo(line)
    typer.echo(tr("(%(shown)d of %(total)d)", shown=len(items), total=len(items)))


@app.command()
def compare(
    game: Optional[str] = typer.Argument(None, help="gugong, dragon or zhanguo (not needed with --text)"),
    langs: Optional[str] = typer.Option(None, help="two languages, e.g. pl,cs"),
    editions: Optional[str] = typer.Option(None, help="two editions, e.g. 2007,2017"),
    text: Optional[Path] = typer.Option(None, "--text", help="a rulebook text file that is not in the KB"),
    lang: Optional[str] = typer.Option(None, "--lang", help="the language of --text (pl, cs, en)"),
    against: Optional[str] = typer.Option(None, "--against", help="the KB source to check --text against, e.g. gugong-pl"),
    check_names: Optional[list[str]] = typer.Option(None, "--check", help="show only this check (repeatable)"),
    classes: Optional[str] = typer.Option(None, "--class", help="show only these classes, e.g. rule or rule,ocr"),
    fmt: str = typer.Option("text", "--format", help="text or html (a side-by-side review page)"),
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="write the report here instead of stdout"),
    as_json: bool = typer.Option(False, "--json", help="every finding with its class, whatever the filters"),
) -> None:
    """Where two rulebooks (languages or editions, or an outside text against a KB source) say different
    things: every finding with its class (rule, wording, ocr), both quotes and both line spans."""
    from collections import Counter

    from i18n.checker import CHECKS, CLASSES, Checker, check_text, default_comparisons
    from i18n.review import page
    from kb.loader import KBError, load

    _check_choice("format", fmt, ("text", "html"))
    for name in check_names or []:
        _check_choice("check", name, CHECKS)
    wanted = [c.strip() for c in classes.split(",")] if classes else list(CLASSES)
    for c in wanted:
        _check_choice("class", c, CLASSES)
    if langs and editions:
        _fail("give --langs or --editions, not both", 2)
    if text and (langs or editions):
        _fail("--text compares an outside file with one KB source (--against); --langs/--editions compare two KB sources", 2)
    if text and not (lang and against):
        _fail("--text needs --lang (the file's language) and --against (a KB source id, e.g. gugong-pl)", 2)
    if (lang or against) and not text:
        _fail("--lang and --against go with --text FILE", 2)
    _check_choice("lang", lang, ("pl", "cs", "en"))
    try:
        kb = load()
    except KBError as exc:
        _fail(str(exc))
    if text:
        if against not in kb.sources:
            _fail(f"unknown source {against!r}; sources: {', '.join(sorted(kb.sources))}", 2)
        if game and game != kb.sources[against].meta.game:
            _fail(f"{against} is a {kb.sources[against].meta.game} source, not {game}", 2)
        if not text.is_file():
            _fail(f"no such file: {text}", 2)
        try:
            findings = check_text(kb, text, lang, against)
        except UnicodeDecodeError:
            _fail(f"{text} is not UTF-8 text", 2)
        game, mode = kb.sources[against].meta.game, "text"
        a, b = against, f"{lang} ({text.name})"
    else:
        if game is None:
            _fail("name a game (gugong, dragon, zhanguo), or give --text FILE --lang L --against SOURCE", 2)
        if game not in kb.games:
            _fail(f"unknown game {game!r}; games: {', '.join(sorted(kb.games))}", 2)
        if langs or editions:
            pair = (langs or editions).split(",")
            if len(pair) != 2:
                _fail("name exactly two, e.g. --langs pl,cs or --editions 2007,2017", 2)
            mode, (a, b) = ("langs" if langs else "editions"), pair
        else:
            defaults = [c for c in default_comparisons(kb) if c[0] == game]
            if not defaults:
                _fail(f"{game} has a single source: nothing to compare", 1)
            _, mode, a, b = defaults[0]
        try:
            findings = Checker(kb, game).run(mode, a, b)
        except ValueError as exc:
            _fail(str(exc), 2)
    shown = [f for f in findings if f.triage in wanted and (not check_names or f.check in check_names)]
    if as_json:
        _emit_json({"game": game, "mode": mode, "compared": [a, b], "total": len(findings), "shown": len(shown),
                    "findings": [f.to_dict() for f in findings]})
        return
    if fmt == "html":
        report = page(shown, f"{game}: {a} against {b}", str(a), str(b))
    else:
        lines = []
        last = None
        for f in shown:
            if f.entity_id != last:
                lines.append(f"\n{f.entity_id}")
                last = f.entity_id
            tag = f"{f.triage}, hand-recorded" if f.hand_recorded else f.triage
            lines.append(f"  {f.field}: [{f.check}, {tag}] {f.message}")
            for side in (f.a, f.b):
                if side:
                    where = f"{side.source} {_spans(side.lines)}" if side.source else ""
                    lines.append(f"    {side.label} ({where}): {side.text}")
        counts = Counter(f.triage for f in shown)
        lines.append(f"\n{len(shown)} of {len(findings)} findings shown ("
                     + ", ".join(f"{counts[c]} {c}" for c in CLASSES) + ")")
        report = "\n".join(lines) + "\n"
    if output:
        output.write_text(report, encoding="utf-8")
        typer.echo(f"{len(shown)} findings written to {output}")
    else:
        typer.echo(report, nl=False)


@app.command()
def serve(
    host: str = typer.Option("127.0.0.1"),
    port: int = typer.Option(8000),
    workers: int = typer.Option(1, min=1, max=64, help="worker processes (uvicorn); they share the databases"),
    database_url: Optional[str] = typer.Option(None, "--database-url", help=DB_HELP),
) -> None:
    """Serve the API (under /api/v1) and the built docs site (at /) on one port."""
    import os

    import uvicorn

    if database_url:  # every worker process reads its settings from the environment
        os.environ["RULEKB_DATABASE_URL"] = database_url
    from api.serving import HTTP_PROTOCOL

    uvicorn.run("api.app:create_app_from_environment", factory=True, host=host, port=port, workers=workers,
                http=HTTP_PROTOCOL, proxy_headers=True, forwarded_allow_ips="127.0.0.1", timeout_graceful_shutdown=10)


@site_app.command("build")
def site_build(
    database_url: Optional[str] = typer.Option(None, "--database-url", help=DB_HELP),
) -> None:
    """Generate the docs site from the built database into build/site (strict: warnings fail)."""
    import os
    import subprocess

    from kb import PACKAGE_DIR

    config = PACKAGE_DIR.parent / "mkdocs.yml"
    if not config.is_file():
        _fail("the site is built from a source checkout (mkdocs.yml not found beside kb/)")
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    if database_url:
        env["RULEKB_DATABASE_URL"] = database_url
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-f", str(config)], env=env)
    if done.returncode:
        _fail("the site build failed (see the messages above)", done.returncode)
    typer.echo(f"site built in {PACKAGE_DIR.parent / 'build' / 'site'}")


@i18n_app.command("update")
def i18n_update() -> None:
    """Extract marked interface strings and merge them into the pl/cs .po catalogs."""
    from i18n.catalog import update_catalogs

    for lang, missing in update_catalogs().items():
        typer.echo(f"{lang}: {missing} untranslated")


# ---------------------------------------------------------------- engine

scenario_app = typer.Typer(help="Scenarios: worked examples the engine runs.", no_args_is_help=True)
app.add_typer(scenario_app, name="scenario")


def _game(key: str):
    from engine.core import EngineError, get_game

    try:
        return get_game(key)
    except EngineError as exc:
        _fail(str(exc), 2)


@app.command()
def schema(game: str = typer.Argument(..., help="gugong, dragon or zhanguo")) -> None:
    """The JSON schema of a game state (paths in it are what scenarios check)."""
    _emit_json(_game(game).state_schema())


@scenario_app.command("run")
def scenario_run(
    path: str = typer.Argument(..., help="a scenario file or a folder of them"),
    strict: bool = typer.Option(False, help="a worked example with no steps yet counts as a failure"),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """Run scenario files: one line each (PASS, FAIL, PENDING, ERROR), under a failure each failing check
    with where it is, the expected and the actual value; then a summary line."""
    from pathlib import Path

    from engine.core.errors import ScenarioError
    from engine.core.scenario import Outcome, files, load_file, run

    target = Path(path)
    if not target.exists():
        _fail(f"no such file or folder: {path}", 2)
    outcomes: list[tuple[str, Outcome]] = []
    for f in files(target):
        try:
            outcomes.append((str(f), run(load_file(f), source=str(f))))
        except ScenarioError as exc:
            outcomes.append((str(f), Outcome(str(f), "ERROR", message=str(exc))))
    checks = [c for _, o in outcomes for c in o.checks]
    if as_json:
        _emit_json([{"id": o.id, "file": f, "status": o.status, "message": o.message, "seeds": o.seeds,
                     "failed_seeds": o.failed_seeds, "follows": o.follows,
                     "checks": [c.__dict__ for c in o.checks]} for f, o in outcomes])
    else:
        for f, o in outcomes:
            typer.echo(f"{o.status} {o.id}" + (f" ({f})" if o.status in ("FAIL", "ERROR") else "")
                       + (f": {o.message}" if o.message else ""))
            for c in o.checks:
                if not c.ok:
                    seed = f" [seed {c.seed}]" if len(o.seeds) > 1 else ""
                    where = c.path if c.where in ("expect", c.path) else f"{c.where} {c.path}"
                    detail = c.message.removeprefix(f"{c.where}: ")
                    typer.echo(f"    {where}{seed}: expected {c.expected!r}, actual {c.actual!r} ({detail})")
    bad = [o for _, o in outcomes if o.status in ("FAIL", "ERROR") or (strict and o.status == "PENDING")]
    if not as_json:
        counts = {s: sum(o.status == s for _, o in outcomes) for s in ("PASS", "FAIL", "PENDING", "ERROR")}
        typer.echo(f"{len(outcomes)} scenarios: " + ", ".join(f"{v} {k.lower()}" for k, v in counts.items())
                   + f"; {len(checks)} checks, {sum(not c.ok for c in checks)} failed")
    raise typer.Exit(1 if bad else 0)


@app.command()
def play(
    game: str = typer.Argument(..., help="gugong, dragon or zhanguo"),
    players: int = typer.Option(..., "--players", min=1, max=5),
    seed: int = typer.Option(0, "--seed"),
    games: int = typer.Option(1, "--games", min=1, max=100_000),
    check: bool = typer.Option(True, help="check invariants after every action"),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """Seeded full games with a random agent (a progress bar for many games)."""
    from rich.progress import track

    from engine.core.play import random_game

    g = _game(game)
    results = []
    seeds = range(seed, seed + games)
    for s in (track(seeds, description=f"{game} x{games}", disable=games < 5 or as_json) if games > 1 else seeds):
        try:
            results.append(random_game(g, players, s, check=check))
        except Exception as exc:  # a crash is a finding: report the seed that reproduces it
            _fail(f"seed {s}: {type(exc).__name__}: {exc}")
    if as_json:
        _emit_json([{"seed": r.seed, "actions": len(r.actions), "scores": r.scores, "violations": r.violations}
                    for r in results])
    else:
        for r in results[:20]:
            top = r.scores[0] if r.scores else {}
            result = (f"winner {top.get('player')} ({top.get('vp')} VP)" if not top.get("disqualified")
                      else f"no winner: every player disqualified (first on the tie-break: {top.get('player')})")
            typer.echo(f"seed {r.seed}: {len(r.actions)} actions; {result}"
                       + (f"; {len(r.violations)} invariant violations" if r.violations else ""))
        if len(results) > 20:
            typer.echo(f"… {len(results) - 20} more games")
    raise typer.Exit(1 if any(r.violations for r in results) else 0)


def main() -> None:  # pragma: no cover
    app()
