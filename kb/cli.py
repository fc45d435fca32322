"""The `rulekb` command line."""
from __future__ import annotations

import fnmatch
import json
import sys
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


def _emit_json(data) -> None:
    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")


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
                {"id": f.record.id, "field": f.field, "lang": f.lang, "score": round(f.score, 3), "missing": f.missing}
                for f in bad]},
            "coverage": [{"source": c.source, "share": round(c.share, 4), "rule_lines": len(c.rule_lines),
                          "uncited": c.uncited, "cited_unexplained": c.cited_unexplained} for c in covs],
        })
    else:
        for i in issues:
            typer.echo(str(i))
        typer.echo(f"\nfidelity: {len(fid) - len(bad)}/{len(fid)} source texts at or above {MIN_FIDELITY}")
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


def main() -> None:  # pragma: no cover
    app()
