"""A seeded random sample of rendered effects beside the rulebook lines they must say (issue 37's
fidelity reading: numbers, who, when, conditions, optional or not).

    python -m tests.effect_sample SEED N [--db PATH] [--lang en]   N random entities with an effect
    python -m tests.effect_sample --all [--lang en]                every rendered effect, one per line

Reads the built database (`rulekb build`): each entity's generated `effect` texts in pl, cs and en,
and the lines its effect cites (the `effect` provenance, else its body texts), read from kb/sources.
`--all` prints `id|text` for scanning every rendering for bad patterns (grep "±0", "as this rule").
The sample is drawn with random.Random(SEED) from the sorted ids, so a reader can redraw it."""
from __future__ import annotations

import argparse
import json
import random
import sqlite3
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ROOT / "kb" / "sources"


def _spans(spans) -> list[tuple[int, int]]:
    spans = json.loads(spans) if isinstance(spans, str) else spans
    if not spans:
        return []
    if isinstance(spans[0], int):
        spans = [spans]
    return [(int(a), int(b)) for a, b in spans]


def _source_lines() -> dict[str, list[str]]:
    manifest = yaml.safe_load((SOURCES / "manifest.yaml").read_text(encoding="utf-8"))
    return {s["id"]: (SOURCES / s["file"]).read_text(encoding="utf-8").splitlines() for s in manifest["sources"]}


def cited(db: sqlite3.Connection, entity: str) -> list[tuple[str, int, int]]:
    """(source, first, last) of the lines the effect cites: its `effect` provenance, else its body."""
    rows = db.execute("select source_id, spans from provenance where entity_id=? and attr='effect' "
                      "and source_id is not null", (entity,)).fetchall()
    if not rows:
        rows = db.execute("select source_id, spans from text where entity_id=? and field='body' "
                          "and origin='source' order by position", (entity,)).fetchall()
    out: list[tuple[str, int, int]] = []
    for src, spans in rows:
        for a, b in _spans(spans):
            if (src, a, b) not in out:
                out.append((src, a, b))
    return out


def rendered(db: sqlite3.Connection, entity: str) -> dict[str, str]:
    return dict(db.execute("select lang, text from text where entity_id=? and field='effect' "
                           "and origin='generated'", (entity,)).fetchall())


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("seed", nargs="?", type=int)
    ap.add_argument("n", nargs="?", type=int, default=30)
    ap.add_argument("--all", action="store_true", help="every rendered effect as id|text")
    ap.add_argument("--lang", default=None, help="only this language's rendering")
    ap.add_argument("--db", default=str(ROOT / "var" / "rulekb.db"))
    args = ap.parse_args(argv)
    db = sqlite3.connect(args.db)
    ids = sorted(r[0] for r in db.execute("select distinct entity_id from text where field='effect' "
                                          "and origin='generated'"))
    if args.all:
        for entity in ids:
            for lang, text in sorted(rendered(db, entity).items()):
                if args.lang in (None, lang):
                    print(f"{entity}|{lang}|{text}" if args.lang is None else f"{entity}|{text}")
        return
    if args.seed is None:
        ap.error("give SEED N, or --all")
    lines = _source_lines()
    for entity in random.Random(args.seed).sample(ids, min(args.n, len(ids))):
        print(f"=== {entity}")
        for lang in ("pl", "cs", "en"):
            text = rendered(db, entity).get(lang)
            if text and args.lang in (None, lang):
                print(f"  [{lang}] {text}")
        for src, a, b in cited(db, entity):
            print(f"  -- {src} {a}-{b}")
            for n in range(a, b + 1):
                if 0 < n <= len(lines.get(src, [])):
                    print(f"     {n:5} {lines[src][n - 1]}")
        print()


if __name__ == "__main__":
    main()
