"""The search evaluation set (tests/data/search_queries.yaml) and its measures: hit@1, hit@3 and MRR.

Every query is run as a player types it into the one search box: no game, kind or language filter.
A query scores by the rank of the first of its expected ids; a rank past DEPTH counts as a miss.
The held-out part (every 4th query in file order) is reported apart and is never tuned on.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import yaml

from kb.search import search

QUERIES = Path(__file__).parent / "data" / "search_queries.yaml"
DEPTH = 20
HELD_OUT_EVERY = 4


@dataclass
class Outcome:
    q: str
    game: str
    lang: str
    type: str
    held_out: bool
    rank: int | None  # 1-based rank of the first expected id, None when not in the top DEPTH
    top: list[str]


def load() -> list[dict]:
    queries = yaml.safe_load(QUERIES.read_text(encoding="utf-8"))["queries"]
    for i, q in enumerate(queries, 1):
        q["held_out"] = i % HELD_OUT_EVERY == 0
    return queries


def run(engine, queries: list[dict] | None = None) -> list[Outcome]:
    out = []
    for q in queries or load():
        ids = [h.id for h in search(engine, q["q"], limit=DEPTH).hits]
        rank = next((i for i, e in enumerate(ids, 1) if e in q["expect"]), None)
        out.append(Outcome(q["q"], q["game"], q["lang"], q["type"], q["held_out"], rank, ids[:3]))
    return out


def measures(outcomes: list[Outcome]) -> dict:
    n = len(outcomes) or 1
    return {"n": len(outcomes),
            "hit@1": sum(o.rank == 1 for o in outcomes) / n,
            "hit@3": sum(o.rank is not None and o.rank <= 3 for o in outcomes) / n,
            "mrr": sum(1 / o.rank for o in outcomes if o.rank) / n}


def table(outcomes: list[Outcome]) -> list[str]:
    """Lines: overall, tuned and held-out parts, then per game and per query type."""
    groups = [("all", outcomes), ("tuned", [o for o in outcomes if not o.held_out]),
              ("held-out", [o for o in outcomes if o.held_out])]
    for key in ("game", "type"):
        for value in dict.fromkeys(getattr(o, key) for o in outcomes):
            part = [o for o in outcomes if getattr(o, key) == value]
            groups.append((f"{key}={value}", part))
    lines = [f"{'part':<16}{'n':>4}{'hit@1':>8}{'hit@3':>8}{'MRR':>7}   held-out hit@1 / hit@3"]
    for name, part in groups:
        m = measures(part)
        held = measures([o for o in part if o.held_out])
        held_text = f"{held['hit@1']:.0%} / {held['hit@3']:.0%} (n={held['n']})" if held["n"] else "—"
        lines.append(f"{name:<16}{m['n']:>4}{m['hit@1']:>8.1%}{m['hit@3']:>8.1%}{m['mrr']:>7.3f}   {held_text}")
    return lines
