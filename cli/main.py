"""The `rulekb` command line.

Every message goes through the interface catalogs in the user's language (RULEKB_LANG, else the
locale); click's own usage errors too (cli/usage.py). Under `--json` an error is a JSON object on
stdout, so a script reads one stream whatever happened.
"""
from __future__ import annotations

import fnmatch
import json
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Iterable, Optional

import typer
from typer._click import exceptions as click_errors  # typer's bundled click: no public name for these
from typer._click.globals import get_current_context

from kb import DATA_DIR
from kb.messages import N_, spans_text


class _Localized:
    """What click writes itself on a help screen and a usage line (the help option's help, "Usage:",
    "[OPTIONS]", "COMMAND [ARGS]...") in the reader's language: typer's bundled click has no gettext."""

    def get_help_option(self, ctx):
        option = super().get_help_option(ctx)
        if option is not None:
            option.help = tr(N_("Show this message and exit."))
        return option

    def format_usage(self, ctx, formatter) -> None:
        formatter.write_usage(ctx.command_path, " ".join(self.collect_usage_pieces(ctx)), prefix=tr(N_("Usage:")) + " ")

    # the value a parameter takes, as typer labels it (<str>); a flag's <bool> says nothing a reader needs
    TYPES = {"<str>": N_("TEXT"), "<int>": N_("NUMBER"), "<int range>": N_("NUMBER"), "<path>": N_("FILE"),
             "<list[str]>": N_("TEXT...")}

    def get_params(self, ctx):
        params = super().get_params(ctx)
        for param in params:
            shown = param.display_type(ctx)
            label = "" if getattr(param, "is_flag", False) or shown == "<bool>" else tr(self.TYPES.get(shown, shown))
            if param.param_type_name == "argument":  # its metavar is its name: the type is shown apart
                param.display_type_rich = lambda ctx, label=label: label
            elif param.metavar is None:
                param.metavar = label
        return params

    def collect_usage_pieces(self, ctx) -> list[str]:
        pieces = super().collect_usage_pieces(ctx)
        said = {"[OPTIONS]": N_("[OPTIONS]"), "COMMAND [ARGS]...": N_("COMMAND [ARGS]...")}
        return [tr(said[p]) if p in said else p for p in pieces]


class _Command(_Localized, typer.core.TyperCommand):
    pass


class _Group(_Localized, typer.core.TyperGroup):
    pass


class _Typer(typer.Typer):
    """A typer app whose groups and commands speak the reader's language (_Localized)."""

    def __init__(self, **kwargs):
        super().__init__(cls=_Group, **kwargs)

    def command(self, *args, **kwargs):
        return super().command(*args, cls=_Command, **kwargs)


class _App(_Typer):
    """The console script's entry: renders usage errors itself (translated, JSON under --json)."""

    def __call__(self, *args, **kwargs):
        _translate_help(self)
        argv = list(kwargs.get("args") or sys.argv[1:])
        try:
            code = super().__call__(*args, standalone_mode=False, **kwargs)
        except click_errors.NoArgsIsHelpError as exc:  # `rulekb` alone: the help, as click prints it
            typer.echo(exc.format_message(), err=True)
            code = exc.exit_code
        except click_errors.ClickException as exc:
            code = _render_usage_error(exc, "--json" in argv)
        except typer.Abort:
            typer.echo(tr("Aborted."), err=True)
            code = 1
        sys.exit(code or 0)


app = _App(
    help=N_("rulekb: rules knowledge base for Gugong, In the Year of the Dragon and ZhanGuo."),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
site_app = _Typer(help=N_("The docs site."), no_args_is_help=True)
app.add_typer(site_app, name="site")
i18n_app = _Typer(help=N_("Interface translations (babel catalogs)."), no_args_is_help=True)
app.add_typer(i18n_app, name="i18n")

LANGS = ("pl", "cs", "en")
GAME = N_("GAME")  # an argument's name on help screens and in usage errors


def _emit_json(data) -> None:
    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")


# how the checker's classes read in a summary (the class names themselves are option values)
CLASS_LABELS = {"rule": N_("rule differences"), "wording": N_("wording"), "ocr": N_("OCR damage"),
                "expansion": N_("expansion content")}


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


def _nt(singular: str, plural: str, n: int, /, **params) -> str:
    from i18n.catalog import nt

    return nt(ui_lang(), singular, plural, n, **params)


def _translate_help(typer_app: typer.Typer) -> None:
    """Help screens in the reader's language: each help text is marked (N_) where it is written and
    translated here, before typer builds the commands from them."""
    import inspect

    from typer import rich_utils

    for name, msgid in (("ARGUMENTS_PANEL_TITLE", N_("Arguments")), ("OPTIONS_PANEL_TITLE", N_("Options")),
                        ("COMMANDS_PANEL_TITLE", N_("Commands")), ("REQUIRED_LONG_STRING", N_("[required]")),
                        ("DEFAULT_STRING", N_("[default: {}]")), ("ENVVAR_STRING", N_("[env var: {}]")),
                        ("DEPRECATED_STRING", N_("(deprecated) ")), ("ERRORS_PANEL_TITLE", N_("Error")),
                        ("ABORTED_TEXT", N_("Aborted.")),
                        ("RICH_HELP", N_("Try [blue]'{command_path} {help_option}'[/] for help."))):
        setattr(rich_utils, name, tr(msgid))
    infos = [typer_app.info, *typer_app.registered_commands, *typer_app.registered_groups]
    for command in typer_app.registered_commands:
        infos += [p.default for p in inspect.signature(command.callback).parameters.values()]
    for info in infos:
        for attr in ("help", "metavar"):
            if isinstance(getattr(info, attr, None), str):
                setattr(info, attr, tr(getattr(info, attr)))
    for group in typer_app.registered_groups:
        _translate_help(group.typer_instance)


# ---------------------------------------------------------------- errors

def _json_wanted() -> bool:
    ctx = get_current_context(silent=True)
    while ctx is not None:
        if ctx.params.get("as_json"):
            return True
        ctx = ctx.parent
    return False


def _fail(message: str, code: int = 1, *, error: str = "error", **details) -> None:
    """Stop with a message: on stderr, or under --json as {"error": {...}} on stdout."""
    if _json_wanted():
        _emit_json({"error": {"code": error, "message": message, "exit_status": code, **details}})
    else:
        typer.echo(f"rulekb: {message}", err=True)
    raise typer.Exit(code)


def _render_usage_error(exc: click_errors.ClickException, as_json: bool) -> int:
    """A usage error (unknown option, missing argument, bad value) in the user's language."""
    from cli import usage

    message = usage.message(exc, tr)
    ctx = getattr(exc, "ctx", None)
    if as_json:
        _emit_json({"error": {"code": "usage", "message": message, "exit_status": exc.exit_code}})
    else:
        if ctx is not None:
            typer.echo(ctx.get_usage(), err=True)  # translated by _Localized
        typer.echo(f"rulekb: {message}", err=True)
        if ctx is not None:
            typer.echo(tr("Try `%(command)s --help` for help.", command=ctx.command_path), err=True)
    return exc.exit_code


def _said(message) -> str:
    """Words kept as a msgid and parameters (kb.messages.Message) in the reader's language."""
    from i18n.catalog import render

    return render(ui_lang(), message)


def _issue_line(issue) -> str:
    """One problem the loader found: severity, file, [entity], field and what is wrong, in the reader's words."""
    from kb.loader import SEVERITIES

    where = f" [{issue.where}]" if issue.where else ""
    return f"{tr(SEVERITIES[issue.severity])}: {issue.file}{where}: {_said(issue.text)}"


def _invalid_data(exc) -> None:
    """Stop on a knowledge base that does not load: its errors, the first 50 of them, in the reader's words."""
    errors = [i for i in exc.issues if i.severity == "error"]
    lines = [_nt("the knowledge base has %(n)d error:", "the knowledge base has %(n)d errors:", len(errors))]
    lines += ["  " + _issue_line(i) for i in errors[:50]]
    if len(errors) > 50:
        lines.append("  " + _nt("… and %(n)d more", "… and %(n)d more", len(errors) - 50))
    _fail("\n".join(lines), error="invalid_data", issues=[{**i.to_dict(), "message": _said(i.text)} for i in errors])


def _unknown(error: str, message: str, value: str, choices: Iterable[str]) -> None:
    """Exit 1 for a name that does not exist, offering the nearest ones, else the whole (short) list."""
    from cli.usage import closest

    choices = sorted(choices)
    near = closest(value, choices)
    if near:
        message += " " + tr("Did you mean %(names)s?", names=", ".join(near))
    elif len(choices) <= 30:
        message += " " + tr("Known: %(names)s.", names=", ".join(choices))
    _fail(message, 1, error=error, value=value, suggestions=near)


def _check_game(game: Optional[str], games: Iterable[str]) -> None:
    if game is not None and game not in set(games):
        _unknown("unknown_game", tr("There is no game %(game)s.", game=repr(game)), game, games)


def _check_choice(name: str, value: Optional[str], choices) -> None:
    if value is not None and value not in choices:
        _fail(tr("--%(option)s must be one of %(choices)s (got %(value)s)", option=name,
                 choices=", ".join(choices), value=repr(value)), 2, error="bad_option")


# ---------------------------------------------------------------- progress

class _Steps:
    """Advances a progress bar, or does nothing (piped output, --json)."""

    def __init__(self, progress=None, task=None):
        self.progress, self.task = progress, task

    def advance(self, by: int = 1) -> None:
        if self.progress is not None:
            self.progress.advance(self.task, by)

    def say(self, description: str, total: Optional[int] = None) -> None:
        if self.progress is not None:
            self.progress.update(self.task, description=description, total=total, completed=0)


@contextmanager
def _progress(description: str, total: Optional[int] = None, as_json: bool = False, counted: bool = False):
    """A rich progress bar (or, with no total and not `counted`, a spinner and the time taken) on stderr
    when it is a terminal; nothing when the output is piped or under --json."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    console = Console(stderr=True)
    if as_json or not console.is_terminal:
        yield _Steps()
        return
    columns = [SpinnerColumn(), TextColumn("{task.description}")]
    if total is not None or counted:
        columns += [BarColumn(), MofNCompleteColumn()]
    with Progress(*columns, TimeElapsedColumn(), console=console, transient=True) as progress:
        yield _Steps(progress, progress.add_task(description, total=total))


# ---------------------------------------------------------------- check

@app.command(help=N_("Validate the curated data of one game; measure text fidelity and source coverage."))
def check(
    game: str = typer.Argument(..., metavar=GAME, help=N_("gugong, dragon or zhanguo")),
    only_files: Optional[str] = typer.Option(None, help=N_("glob on paths under kb/data, e.g. 'gugong/location/*'")),
    as_json: bool = typer.Option(False, "--json", help=N_("machine-readable report")),
    verbose: bool = typer.Option(False, "-v", help=N_("list every uncovered line")),
) -> None:
    from kb.fidelity import MIN_FIDELITY, all_fidelity, coverage, ranges
    from kb.loader import load

    kb = load(strict=False)
    _check_game(game, kb.games)

    def mine(path: str) -> bool:
        return only_files is None or fnmatch.fnmatch(path.removeprefix("kb/data/"), only_files)

    issues = [i for i in kb.issues if (i.file.startswith(f"kb/data/{game}/") or not i.file.startswith("kb/data/")) and mine(i.file)]
    fid = [f for f in all_fidelity(kb, game) if mine(str(f.record.file.relative_to(DATA_DIR.parent.parent)))]
    bad = [f for f in fid if not f.ok]
    sources = [s for s, st in kb.sources.items() if st.meta.game == game]
    covs = [coverage(kb, s) for s in sources]
    if as_json:
        _emit_json({
            "issues": [{**i.to_dict(), "message": _said(i.text)} for i in issues],
            "fidelity": {"texts": len(fid), "below_threshold": [
                {"id": f.record.id, "field": f.field, "lang": f.lang, "score": round(f.score, 3), "missing": f.missing,
                 "wrong_numbers": f.wrong_numbers}
                for f in bad]},
            "coverage": [{"source": c.source, "share": round(c.share, 4), "rule_lines": len(c.rule_lines),
                          "uncited": c.uncited, "cited_unexplained": c.cited_unexplained} for c in covs],
        })
    else:
        for i in issues:
            typer.echo(_issue_line(i))
        typer.echo("\n" + tr("fidelity: %(ok)d/%(texts)d source texts at or above %(threshold)s with every number "
                             "found in their lines", ok=len(fid) - len(bad), texts=len(fid), threshold=MIN_FIDELITY))
        for f in sorted(bad, key=lambda f: f.score):
            typer.echo(f"  {f.score:.2f} {f.record.id} texts.{f.field}.{f.lang} ({f.item.src} {_spans(f.item.lines)}): "
                       + tr("not in the cited lines: %(words)s", words=" ".join(f.missing[:15])))
        for c in covs:
            typer.echo("\n" + tr("coverage %(source)s: %(covered)d/%(lines)d rule lines = %(share)s (excluded "
                                 "%(excluded)s, noise %(noise)s)", source=c.source, covered=len(c.covered),
                                 lines=len(c.rule_lines), share=format(c.share, ".1%"), excluded=c.excluded, noise=c.noise))
            if c.uncited:
                listed = (ranges(c.uncited) if verbose or len(c.uncited) < 400 else
                          _nt("%(n)d line (-v lists them)", "%(n)d lines (-v lists them)", len(c.uncited)))
                typer.echo("  " + tr("uncited: %(lines)s", lines=listed))
            if c.cited_unexplained:
                typer.echo("  " + tr("cited but under half of their words transcribed: %(lines)s",
                                     lines=ranges(c.cited_unexplained)))
    errors = [i for i in issues if i.severity == "error"]
    raise typer.Exit(1 if errors or bad else 0)


# ---------------------------------------------------------------- build / search / show

DB_HELP = N_("database URL (default: RULEKB_DATABASE_URL or the SQLite file var/rulekb.db)")


def _engine(url: Optional[str]):
    engine = _built(url)
    if engine is None:
        _fail(tr("The knowledge base has not been built yet: run `rulekb build`."), error="not_built")
    return engine


def _names(engine, column, game: Optional[str] = None) -> list[str]:
    """The distinct values of an entity column (game, kind, id) in the built knowledge base."""
    from sqlmodel import Session, select

    from kb import models as m

    query = select(column).distinct()
    if game:
        query = query.where(m.Entity.game_id == game)
    with Session(engine) as db:
        return sorted(db.exec(query).all())


def _check_filters(engine, game: Optional[str], kind: Optional[str]) -> None:
    """An unknown game or kind is an error (exit 1), not an empty list."""
    from kb import models as m

    if game is not None:
        _check_game(game, _names(engine, m.Game.id))
    if kind is not None and kind not in (kinds := _names(engine, m.Entity.kind, game)):
        message = (tr("%(game)s has no kind %(kind)s.", game=game, kind=repr(kind)) if game else
                   tr("There is no kind %(kind)s.", kind=repr(kind)))
        _unknown("unknown_kind", message, kind, kinds)


@app.command(help=N_(
    "Validate kb/data and build the database (atomically: a failed build changes nothing), then write the"
    " bulk files (RULEKB_BULK_DIR, default bulk/ beside the database) and their changelog."))
def build(
    database_url: Optional[str] = typer.Option(None, "--database-url", help=DB_HELP),
    write_bulk: bool = typer.Option(True, "--bulk/--no-bulk", help=N_("also write the bulk files the API serves")),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    from cli.build import build as run_build
    from i18n.catalog import compile_catalogs
    from kb.loader import KBError

    with _progress(tr("Building the knowledge base"), as_json=as_json, counted=True) as steps:
        try:
            report = run_build(database_url)
        except KBError as exc:
            _invalid_data(exc)
        compile_catalogs()
        bulk = _publish_bulk(database_url, steps) if write_bulk else None
    if as_json:
        _emit_json({"url": report.url, "counts": report.counts, **({"bulk": bulk} if bulk else {})})
    else:
        typer.echo(tr("built %(url)s: %(counts)s", url=report.url,
                      counts=", ".join(f"{v} {k}" for k, v in report.counts.items())))
        if bulk:
            entry = bulk["changelog_entry"]
            change = (tr("first build") if entry and entry["first_build"] else
                      tr("content unchanged") if entry is None else
                      tr("%(added)s added, %(removed)s removed, %(changed)s changed", **entry["changes"]["summary"]))
            typer.echo(tr("bulk files in %(dir)s (%(change)s)", dir=bulk["dir"], change=change))


def _counted(run_example, steps: _Steps):
    """The example runner, advancing the progress once per example."""
    def run(doc: dict) -> dict:
        result = run_example(doc)
        steps.advance()
        return result
    return run


def _publish_bulk(database_url: Optional[str], steps: _Steps) -> dict:
    """The bulk files the API serves, written after every build (kb/export.py)."""
    from kb import export

    engine = _engine(database_url)
    steps.say(tr("Writing the bulk files (running the worked examples)"), _examples(engine))
    try:
        return export.publish(export.read(engine, run_example=_counted(example_result, steps)),
                              export.bulk_dir(database_url))
    finally:
        engine.dispose()


def _examples(engine, game: Optional[str] = None) -> int:
    """How many worked examples an export runs (the progress bar's length)."""
    from kb.queries import list_entities

    return list_entities(engine, game=game, kind="example", limit=1)[1]


def example_result(doc: dict) -> dict:
    """A worked example run by the engine, as the exports record it."""
    from engine.core import scenario

    try:
        outcome = scenario.run(doc)
    except Exception as exc:  # a broken example is a result to publish, not a failed export
        return {"status": "ERROR", "message": f"{type(exc).__name__}: {exc}", "checks": []}
    return {"status": outcome.status, "message": outcome.message,
            "checks": [{"path": c.path, "ok": c.ok, "message": c.message} for c in outcome.checks]}


@app.command("export", help=N_(
    "The whole knowledge base as files: JSON (with its JSON Schema), JSON lines, CSV tables, SQLite."))
def export_cmd(
    out: str = typer.Option(..., "--out", help=N_("folder to write into (created if missing)")),
    formats: list[str] = typer.Option(["json"], "--format", help=N_("json, jsonl, csv or sqlite (repeat for several)")),
    game: Optional[str] = typer.Option(None, help=N_("only this game (default: all)")),
    results: bool = typer.Option(True, help=N_("run each worked example in the engine and include its result")),
    database_url: Optional[str] = typer.Option(None, "--database-url", help=DB_HELP),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    from kb import export

    chosen = [f.strip() for value in formats for f in value.split(",") if f.strip()]
    for f in chosen:
        _check_choice("format", f, export.FORMATS)
    engine = _engine(database_url)
    _check_game(game, export.game_ids(engine))
    try:
        with _progress(tr("Exporting (running the worked examples)"), _examples(engine, game) if results else None,
                       as_json=as_json) as steps:
            data = export.read(engine, game, run_example=_counted(example_result, steps) if results else None)
            steps.say(tr("Writing the files"))
            written = export.write(data, Path(out), tuple(dict.fromkeys(chosen)))
    except OSError as exc:
        _fail(tr("cannot write to %(out)s: %(reason)s", out=out, reason=exc.strerror or exc), 1, error="cannot_write")
    finally:
        engine.dispose()
    files = [{"file": str(p), "bytes": p.stat().st_size} for p in written]
    if as_json:
        _emit_json({"meta": data.meta.model_dump(mode="json"), "files": files})
        return
    typer.echo(tr("rulekb %(version)s (built %(built)s): %(counts)s", version=data.meta.kb_version,
                  built=data.meta.built_at, counts=", ".join(f"{v} {k}" for k, v in data.meta.counts.items())))
    for f in files:
        typer.echo("  " + tr("%(file)s  %(bytes)s bytes", file=f["file"], bytes=format(f["bytes"], ",")))


@app.command("diff", help=N_(
    "What changed between two versions of the knowledge base: entities added and removed, attributes and "
    "texts changed (word by word)."))
def diff_cmd(
    old: str = typer.Argument(..., metavar=N_("OLD"), help=N_("an export (rulekb.json, or a folder holding one), or `build`")),
    new: str = typer.Argument("build", metavar=N_("NEW"), help=N_("another export, or `build`: the current database (default)")),
    database_url: Optional[str] = typer.Option(None, "--database-url", help=DB_HELP),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    from kb.diff import diff, render_text

    changes = diff(_version_of(old, database_url), _version_of(new, database_url))
    if as_json:
        _emit_json(changes)
    else:
        typer.echo(render_text(changes, tr, ui_lang()))


def _version_of(where: str, database_url: Optional[str]):
    """An export read back, or (for `build`) the current database read as an export would be."""
    from kb import export

    if where == "build":
        engine = _engine(database_url)
        try:
            return export.read(engine)
        finally:
            engine.dispose()
    try:
        return export.load(Path(where))
    except OSError:
        _fail(tr("no export at %(path)s: give a rulekb.json file, a folder holding one, or `build`", path=where),
              1, error="not_found")
    except ValueError:  # pydantic's ValidationError is a ValueError; its wording is for programmers
        _fail(tr("%(path)s is not a rulekb JSON export (written by `rulekb export`): give a rulekb.json file, "
                 "a folder holding one, or `build`", path=where), 2, error="bad_file")


@app.command(help=N_("Ranked lookup over every text and glossary form."))
def search(
    query: str = typer.Argument(..., metavar=N_("QUERY"), help=N_("words to look for; case and diacritics do not matter")),
    game: Optional[str] = typer.Option(None, help=N_("gugong, dragon or zhanguo")),
    lang: Optional[str] = typer.Option(None, help=N_("pl, cs or en")),
    kind: Optional[str] = typer.Option(None, help=N_("entity kind, e.g. term, location, decree")),
    limit: int = typer.Option(10, min=1, max=200),
    database_url: Optional[str] = typer.Option(None, "--database-url", help=DB_HELP),
    as_json: bool = typer.Option(False, "--json"),
    explain: bool = typer.Option(False, "--explain", help=N_("show why each hit scored as it did")),
) -> None:
    from kb.search import search as run_search

    _check_choice("lang", lang, LANGS)
    engine = _engine(database_url)
    _check_filters(engine, game, kind)
    res = run_search(engine, query, game=game, lang=lang, kind=kind, limit=limit, explain=explain)
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


ORIGINS = {"translated": N_("translated"), "generated": N_("generated")}


BASES = {"text": N_("rulebook text"), "example": N_("worked example"), "reference": N_("outside reference"),
         "assumption": N_("assumption")}


def _cited(source: str, spans) -> str:
    one = len(spans or []) == 1 and spans[0][0] == spans[0][1]
    return _nt("%(source)s line %(lines)s", "%(source)s lines %(lines)s", 1 if one else 2, source=source,
               lines=_spans(spans))


@app.command(help=N_("One entity with its texts, attributes and sources."))
def show(
    entity_id: str = typer.Argument(..., metavar=N_("ID"), help=N_("an entity id such as gugong/location/travel")),
    lang: Optional[str] = typer.Option(None, help=N_("show texts in one language (with any fallback said)")),
    database_url: Optional[str] = typer.Option(None, "--database-url", help=DB_HELP),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    from kb import models as m
    from i18n.catalog import with_note_translations
    from kb.queries import NotFound, get_entity

    _check_choice("lang", lang, LANGS)
    engine = _engine(database_url)
    try:
        ent = get_entity(engine, entity_id, lang)
        ent = with_note_translations(ent, lang) if lang else ent  # its English notes in that language too
    except NotFound as exc:
        _unknown("unknown_entity", tr("There is no entry with the id %(id)s; try `rulekb search`.", id=exc.ident),
                 entity_id, _names(engine, m.Entity.id))
    if as_json:
        _emit_json(ent)
        return
    typer.echo(f"{ent['id']}  ({ent['kind']}, {ent['game']})")
    if ent["parent"]:
        typer.echo("  " + tr("part of %(parent)s", parent=ent["parent"]))
    for fld, value in ent["texts"].items():
        items = value if isinstance(value, list) else [item for ts in value.values() for item in ts]
        for item in items:
            origin = (_cited(item["source"], item["lines"]) if item["origin"] == "source" else
                      tr(ORIGINS.get(item["origin"], item["origin"])))
            typer.echo(f"\n{fld} [{item['lang']}, {origin}]")
            typer.echo(f"  {item['text']}")
            if item.get("repair"):
                typer.echo("  " + tr("(repaired: %(repair)s)", repair=item.get("repair_translated") or item["repair"]))
        if lang and fld in ent["fallbacks"]:
            typer.echo("  " + tr("(no %(lang)s text for %(field)s: shown in %(shown)s)", lang=lang, field=fld,
                                 shown=ent["fallbacks"][fld]))
    if ent["attrs"]:
        typer.echo("\n" + tr("attributes:"))
        for k, v in ent["attrs"].items():
            typer.echo(f"  {k}: {json.dumps(v, ensure_ascii=False)}")
    if ent["effect"]:
        typer.echo("\n" + tr("effect: %(effect)s", effect=json.dumps(ent["effect"], ensure_ascii=False)))
    if ent["provenance"]:
        typer.echo("\n" + tr("provenance:"))
    for p in ent["provenance"]:
        where = (_cited(p["source"], p["lines"]) if p.get("source") else
                 p.get("example") or p.get("reference_translated") or p.get("reference"))
        basis = tr(BASES[p["basis"]]) if p["basis"] in BASES else p["basis"]
        typer.echo(f"  {p['attr']}{'@' + p['edition'] if p.get('edition') else ''}: {basis}: {where}")
    for key, label in (("children", N_("children: %(ids)s")), ("refs", N_("references: %(ids)s")),
                       ("referenced_by", N_("referenced by: %(ids)s"))):
        if ent[key]:
            typer.echo("\n" + tr(label, ids=", ".join(ent[key])))
    asked = ent.get("questions")
    if asked:  # one language's list, or each language's
        typer.echo("\n" + tr("players ask (written for the search, not rulebook text):"))
        for l, qs in ([(lang, asked)] if isinstance(asked, list) else asked.items()):
            for q in qs:
                typer.echo(f"  [{l}] {q}")


def _spans(spans) -> str:
    """Line spans as a terminal writes them: 863, 870-874."""
    return spans_text(spans, dash="-")


@app.command("list", help=N_(
    "List entries; `--kind unknown` is the unknowns register (status and the value the engine uses)."))
def list_cmd(
    game: Optional[str] = typer.Option(None, help=N_("gugong, dragon or zhanguo")),
    kind: Optional[str] = typer.Option(None, help=N_("e.g. unknown (the unknowns register), decree, example")),
    lang: str = typer.Option("en", help=N_("language of the names")),
    database_url: Optional[str] = typer.Option(None, "--database-url", help=DB_HELP),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    from kb.queries import get_entity, list_entities

    _check_choice("lang", lang, LANGS)
    engine = _engine(database_url)
    _check_filters(engine, game, kind)
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
            line += "\n    " + tr("status: %(status)s; value used: %(value)s", status=item["status"], value=value[:150])
            if why:
                line += "\n    " + tr("basis: %(basis)s", basis=why[:150])
        typer.echo(line)
    typer.echo(tr("(%(shown)d of %(total)d)", shown=len(items), total=len(items)))


@app.command(help=N_(
    "Where two rulebooks (languages or editions, or an outside text against a KB source) say different "
    "things: every finding with its class (rule, wording, ocr), both quotes and both line spans."))
def compare(
    game: Optional[str] = typer.Argument(None, metavar=GAME, help=N_("gugong, dragon or zhanguo (not needed with --text)")),
    langs: Optional[str] = typer.Option(None, help=N_("two languages, e.g. pl,cs")),
    editions: Optional[str] = typer.Option(None, help=N_("two editions, e.g. 2007,2017")),
    text: Optional[Path] = typer.Option(None, "--text", help=N_("a rulebook text file that is not in the KB")),
    lang: Optional[str] = typer.Option(None, "--lang", help=N_("the language of --text (pl, cs, en)")),
    against: Optional[str] = typer.Option(None, "--against",
                                          help=N_("the KB source to check --text against, e.g. gugong-pl")),
    check_names: Optional[list[str]] = typer.Option(None, "--check", help=N_("show only this check (repeatable)")),
    classes: Optional[str] = typer.Option(None, "--class", help=N_("show only these classes, e.g. rule or rule,ocr")),
    fmt: str = typer.Option("text", "--format", help=N_("text or html (a side-by-side review page)")),
    output: Optional[Path] = typer.Option(None, "--output", "-o", help=N_("write the report here instead of stdout")),
    as_json: bool = typer.Option(False, "--json", help=N_("every finding with its class, whatever the filters")),
    database_url: Optional[str] = typer.Option(None, "--database-url", help=DB_HELP),
) -> None:
    from collections import Counter

    from i18n.checker import CHECKS, CLASSES, Checker, check_text, comparisons
    from i18n.derived import stored_findings
    from i18n.review import page
    from kb import models as m
    from kb.loader import KBError, load

    _check_choice("format", fmt, ("text", "html"))
    for name in check_names or []:
        _check_choice("check", name, CHECKS)
    wanted = [c.strip() for c in classes.split(",")] if classes else list(CLASSES)
    for c in wanted:
        _check_choice("class", c, CLASSES)
    if langs and editions:
        _fail(tr("give --langs or --editions, not both"), 2, error="usage")
    if text and (langs or editions):
        _fail(tr("--text compares an outside file with one KB source (--against); --langs/--editions compare two "
                 "KB sources"), 2, error="usage")
    if text and not (lang and against):
        _fail(tr("--text needs --lang (the file's language) and --against (a KB source id, e.g. gugong-pl)"), 2,
              error="usage")
    if (lang or against) and not text:
        _fail(tr("--lang and --against go with --text FILE"), 2, error="usage")
    _check_choice("lang", lang, LANGS)

    def from_data():
        try:
            return load()
        except KBError as exc:
            _invalid_data(exc)

    with _progress(tr("Comparing"), as_json=as_json):
        if text:
            kb = from_data()
            if against not in kb.sources:
                _unknown("unknown_source", tr("There is no source %(source)s.", source=repr(against)), against,
                         kb.sources)
            if game and game != kb.sources[against].meta.game:
                _fail(tr("%(source)s is a %(its)s source, not %(game)s", source=against,
                         its=kb.sources[against].meta.game, game=game), 2, error="usage")
            if not text.is_file():
                _fail(tr("no such file: %(path)s", path=text), 1, error="not_found")
            try:
                findings = check_text(kb, text, lang, against)
            except UnicodeDecodeError:
                _fail(tr("%(path)s is not UTF-8 text", path=text), 2, error="bad_file")
            except ValueError as exc:  # no stored text of that language to align it with
                _fail(str(exc), 2, error="usage")
            game, mode = kb.sources[against].meta.game, "text"
            a, b = against, f"{lang} ({text.name})"
        else:
            if game is None:
                _fail(tr("name a game (gugong, dragon, zhanguo), or give --text FILE --lang L --against SOURCE"), 2,
                      error="usage")
            # The build holds the default comparisons' findings: reading them takes milliseconds, loading
            # kb/data and running the checker seconds. Without a build, or for another pair, the checker runs.
            engine, kb = _built(database_url), None
            if engine is None:
                kb = from_data()
                games, sources = kb.games, [s.meta for s in kb.sources.values()]
            else:
                games, sources = _names(engine, m.Game.id), _source_metas(engine)
            _check_game(game, games)
            if langs or editions:
                pair = (langs or editions).split(",")
                if len(pair) != 2:
                    _fail(tr("name exactly two, e.g. --langs pl,cs or --editions 2007,2017"), 2, error="usage")
                mode, (a, b) = ("langs" if langs else "editions"), pair
                _check_pair(sources, game, mode, a, b)
            else:
                defaults = [c for c in comparisons(games, sources) if c[0] == game]
                if not defaults:
                    _fail(tr("%(game)s has a single source: nothing to compare", game=game), 1,
                          error="nothing_to_compare")
                _, mode, a, b = defaults[0]
            findings, why = stored_findings(engine, game, mode, a, b) if engine is not None else (None, "")
            if findings is None:
                if engine is None:
                    typer.echo(tr("note: %(warning)s", warning=tr(
                        "the knowledge base has not been built: comparing from kb/data, which takes longer "
                        "(`rulekb build` stores the comparisons)")), err=True)
                elif why == "stale":
                    typer.echo(tr("note: %(warning)s", warning=tr(
                        "kb/data or the checker changed since the last build: comparing from kb/data, which "
                        "takes longer (`rulekb build` stores the comparisons again)")), err=True)
                kb = kb or from_data()
                try:
                    findings = Checker(kb, game).run(mode, a, b)
                except ValueError as exc:
                    _fail(str(exc), 2, error="usage")
    shown = [f for f in findings if f.triage in wanted and (not check_names or f.check in check_names)]
    reader = ui_lang()
    for f in findings:  # the reader's language (RULEKB_LANG); quoted words stay as the source writes them
        f.message = f.text(reader)
    if as_json:
        _emit_json({"game": game, "mode": mode, "compared": [a, b], "total": len(findings), "shown": len(shown),
                    "findings": [f.to_dict() for f in findings]})
        return
    if fmt == "html":
        report = page(shown, f"{game}: {a} — {b}", str(a), str(b), lang=reader)
    else:
        lines = []
        last = None
        for f in shown:
            if f.entity_id != last:
                lines.append(f"\n{f.entity_id}")
                last = f.entity_id
            tag = tr("%(class)s, hand-recorded", **{"class": f.triage}) if f.hand_recorded else f.triage
            lines.append(f"  {f.field}: [{f.check}, {tag}] {f.message}")
            for side in (f.a, f.b):
                if side:
                    where = f"{side.source} {_spans(side.lines)}" if side.source else ""
                    lines.append(f"    {side.label} ({where}): {side.text}")
        counts = Counter(f.triage for f in shown)
        lines.append("\n" + tr("%(shown)d of %(total)d findings shown (%(counts)s)", shown=len(shown),
                               total=len(findings), counts=", ".join(f"{counts[c]} {tr(CLASS_LABELS[c])}"
                                                                     for c in CLASSES)))
        report = "\n".join(lines) + "\n"
    if output:
        output.write_text(report, encoding="utf-8")
        typer.echo(_nt("%(n)d finding written to %(file)s", "%(n)d findings written to %(file)s", len(shown),
                       file=output))
    else:
        typer.echo(report, nl=False)


def _built(url: Optional[str]):
    """An engine on the built knowledge base, or None when there is none yet."""
    from kb.db import open_engine

    try:
        return open_engine(url, readonly=True)
    except FileNotFoundError:
        return None


def _source_metas(engine) -> list:
    """The built sources described as the checker's comparisons need them (game, lang, edition)."""
    from types import SimpleNamespace

    from sqlmodel import Session, select

    from kb import models as m

    with Session(engine) as db:
        return [SimpleNamespace(game=s.game_id, lang=s.lang, edition=s.edition_key) for s in db.exec(select(m.Source))]


def _check_pair(sources, game: str, mode: str, a: str, b: str) -> None:
    """Two languages or editions the game has sources for, and not one twice."""
    key = "lang" if mode == "langs" else "edition"
    have = sorted({getattr(s, key) for s in sources if s.game == game})
    for value in (a, b):
        if value not in have:
            message = (tr("%(game)s has no source in language %(value)s (it has: %(have)s)", game=game,
                          value=repr(value), have=", ".join(have)) if mode == "langs" else
                       tr("%(game)s has no source for edition %(value)s (it has: %(have)s)", game=game,
                          value=value, have=", ".join(have)))
            _fail(message, 2, error="usage")
    if a == b:
        _fail(tr("compare two different sources, not %(value)s with itself", value=a), 2, error="usage")


@app.command(help=N_("Serve the API (under /api/v1) and the built docs site (at /) on one port."))
def serve(
    host: str = typer.Option("127.0.0.1"),
    port: int = typer.Option(8000),
    workers: int = typer.Option(1, min=1, max=64, help=N_("worker processes (uvicorn); they share the databases")),
    database_url: Optional[str] = typer.Option(None, "--database-url", help=DB_HELP),
) -> None:
    import os

    import uvicorn

    if database_url:  # every worker process reads its settings from the environment
        os.environ["RULEKB_DATABASE_URL"] = database_url
    from api.serving import HTTP_PROTOCOL

    uvicorn.run("api.app:create_app_from_environment", factory=True, host=host, port=port, workers=workers,
                http=HTTP_PROTOCOL, proxy_headers=True, forwarded_allow_ips="127.0.0.1", timeout_graceful_shutdown=10)


@site_app.command("build", help=N_(
    "Generate the docs site from the built database into build/site (strict: warnings fail)."))
def site_build(
    database_url: Optional[str] = typer.Option(None, "--database-url", help=DB_HELP),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    import os
    import subprocess

    from kb import PACKAGE_DIR

    config = PACKAGE_DIR.parent / "mkdocs.yml"
    if not config.is_file():
        _fail(tr("the site is built from a source checkout (mkdocs.yml not found beside kb/)"), error="no_checkout")
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    if database_url:
        env["RULEKB_DATABASE_URL"] = database_url
    with _progress(tr("Building the site"), as_json=as_json):
        done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-f", str(config)], env=env,
                              stdout=sys.stderr if as_json else None)
    if done.returncode:
        _fail(tr("the site build failed (see the messages above)"), done.returncode, error="site_failed")
    site = PACKAGE_DIR.parent / "build" / "site"
    if as_json:
        _emit_json({"site": str(site)})
    else:
        typer.echo(tr("site built in %(dir)s", dir=site))


@i18n_app.command("update", help=N_(
    "Extract marked interface strings and merge them into the pl/cs .po catalogs."))
def i18n_update(as_json: bool = typer.Option(False, "--json")) -> None:
    from i18n.catalog import update_catalogs

    missing = update_catalogs()
    if as_json:
        _emit_json({"untranslated": missing})
        return
    for lang, count in missing.items():
        typer.echo(tr("%(catalog)s: %(n)d untranslated", catalog=lang, n=count))


# ---------------------------------------------------------------- engine

scenario_app = _Typer(help=N_("Scenarios: worked examples the engine runs."), no_args_is_help=True)
app.add_typer(scenario_app, name="scenario")


def _game(key: str):
    from engine.core import EngineError, get_game
    from engine.core.game import ENGINES

    _check_game(key, ENGINES)
    try:
        return get_game(key)
    except EngineError as exc:  # a knowledge base not built: said in the reader's language
        _fail(_said(exc.said) if getattr(exc, "said", None) else str(exc), 2, error="engine")


@app.command(help=N_("The JSON schema of a game state (paths in it are what scenarios check)."))
def schema(
    game: str = typer.Argument(..., metavar=GAME, help=N_("gugong, dragon or zhanguo")),
    as_json: bool = typer.Option(False, "--json", help=N_("accepted for uniformity: the schema is JSON either way")),
) -> None:
    _emit_json(_game(game).state_schema())


@scenario_app.command("run", help=N_(
    "Run scenario files: one line each (PASS, FAIL, PENDING, ERROR), under a failure each failing check "
    "with where it is, the expected and the actual value; then a summary line."))
def scenario_run(
    path: str = typer.Argument(..., metavar=N_("PATH"), help=N_("a scenario file or a folder of them")),
    strict: bool = typer.Option(False, help=N_("a worked example with no steps yet counts as a failure")),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    from engine.core.errors import ScenarioError
    from engine.core.scenario import Outcome, files, load_file, run

    target = Path(path)
    if not target.exists():
        _fail(tr("no such file or folder: %(path)s", path=path), 1, error="not_found")  # like an unknown id
    outcomes: list[tuple[str, Outcome]] = []
    found = list(files(target))
    with _progress(tr("Running scenarios"), total=len(found), as_json=as_json or len(found) < 2) as steps:
        for f in found:
            try:
                outcomes.append((str(f), run(load_file(f), source=str(f))))
            except ScenarioError as exc:
                outcomes.append((str(f), Outcome(str(f), "ERROR", message=str(exc), said=exc.said)))
            steps.advance()
    checks = [c for _, o in outcomes for c in o.checks]
    if as_json:
        _emit_json([{"id": o.id, "file": f, "status": o.status, "message": _said(o.said) if o.said else o.message,
                     "seeds": o.seeds,
                     "failed_seeds": o.failed_seeds, "follows": o.follows,
                     "checks": [{**c.__dict__, "said": _said(c.said) if c.said else None} for c in o.checks]}
                    for f, o in outcomes])
    else:
        for f, o in outcomes:
            typer.echo(f"{o.status} {o.id}" + (f" ({f})" if o.status in ("FAIL", "ERROR") else "")
                       + (f": {_said(o.said)}" if o.said else f": {o.message}" if o.message else ""))
            for c in o.checks:
                if not c.ok:
                    seed = " " + tr("[seed %(seed)s]", seed=c.seed) if len(o.seeds) > 1 else ""
                    if c.said is not None and c.path == c.where:  # a step refused or not applied, in the reader's words
                        typer.echo(f"    {c.where}{seed}: {_said(c.said)}")
                        continue
                    where = c.path if c.where in ("expect", c.path) else f"{c.where} {c.path}"
                    detail = _said(c.said) if c.said is not None else c.message.removeprefix(f"{c.where}: ")
                    typer.echo(f"    {where}{seed}: " + tr("expected %(expected)s, actual %(actual)s (%(detail)s)",
                                                          expected=repr(c.expected), actual=repr(c.actual),
                                                          detail=detail))
    bad = [o for _, o in outcomes if o.status in ("FAIL", "ERROR") or (strict and o.status == "PENDING")]
    if not as_json:
        counts = {s: sum(o.status == s for _, o in outcomes) for s in ("PASS", "FAIL", "PENDING", "ERROR")}
        typer.echo(_nt("%(n)d scenario", "%(n)d scenarios", len(outcomes)) + ": "
                   + tr("%(pass)d pass, %(fail)d fail, %(pending)d pending, %(error)d error",
                        **{k.lower(): v for k, v in counts.items()}) + "; "
                   + _nt("%(n)d check, %(failed)d failed", "%(n)d checks, %(failed)d failed", len(checks),
                         failed=sum(not c.ok for c in checks)))
    raise typer.Exit(1 if bad else 0)


@app.command(help=N_("Seeded full games with a random agent (a progress bar for many games)."))
def play(
    game: str = typer.Argument(..., metavar=GAME, help=N_("gugong, dragon or zhanguo")),
    players: int = typer.Option(..., "--players", min=1, max=5),
    seed: int = typer.Option(0, "--seed"),
    games: int = typer.Option(1, "--games", min=1, max=100_000),
    check: bool = typer.Option(True, help=N_("check invariants after every action")),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    from engine.core.play import random_game

    g = _game(game)
    results = []
    seeds = range(seed, seed + games)
    with _progress(f"{game} ×{games}", total=games, as_json=as_json or games < 5) as steps:
        for s in seeds:
            try:
                results.append(random_game(g, players, s, check=check))
            except Exception as exc:  # a crash is a finding: report the seed that reproduces it
                said = getattr(exc, "said", None)  # an engine's refusal, in the reader's words (with its rule)
                error = (tr("%(reason)s (rule %(rule)s)", reason=_said(said), rule=exc.rule) if said is not None
                         and hasattr(exc, "rule") else _said(said) if said is not None else f"{type(exc).__name__}: {exc}")
                _fail(tr("seed %(seed)d: %(error)s", seed=s, error=error), error="crash", seed=s)
            steps.advance()
    if as_json:
        _emit_json([{"seed": r.seed, "actions": len(r.actions), "scores": r.scores, "violations": r.violations}
                    for r in results])
    else:
        for r in results[:20]:
            top = r.scores[0] if r.scores else {}
            result = (tr("winner %(player)s (%(vp)s VP)", player=top.get("player"), vp=top.get("vp"))
                      if not top.get("disqualified") else
                      tr("no winner: every player disqualified (first on the tie-break: %(player)s)",
                         player=top.get("player")))
            line = tr("seed %(seed)d: %(actions)s; %(result)s", seed=r.seed,
                      actions=_nt("%(n)d action", "%(n)d actions", len(r.actions)), result=result)
            if r.violations:
                line += "; " + _nt("%(n)d invariant violation", "%(n)d invariant violations", len(r.violations))
            typer.echo(line)
        if len(results) > 20:
            typer.echo(_nt("… %(n)d more game", "… %(n)d more games", len(results) - 20))
    raise typer.Exit(1 if any(r.violations for r in results) else 0)


def main() -> None:  # pragma: no cover
    app()
