"""Search benchmark (`make bench`): quality on the committed query set and latency at ten times the
knowledge base's size, on SQLite and PostgreSQL.

Quality: hit@1, hit@3 and MRR of each evaluation set (tests/search_eval.py: the names, the questions and,
when its file is there, the outside question set) per game, query type and language, tuned and held-out
parts apart (the same figures the test suite prints).
Latency: every query of the names and questions sets, and apart the full-sentence questions of questions-4
(the longest queries players type: up to 26 words), run REPEAT times through kb.search in this process
after one warm-up pass and, as the API does after its warm-up, gc.freeze(), on the real knowledge base
(the baseline) and on one with nine generated copies of every search document added (names and texts
recombined from other documents of the same language, seeded; each copy asked the player questions of the
entry it copies), so the index holds ten times the documents.
The ratio 10x / 1x is measured in the same run.
"""
from __future__ import annotations

import gc
import random
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

from sqlalchemy import create_engine, insert, select, text

from kb import models as m
from kb import search as kbsearch
from kb.build import build
from kb.db import open_engine
from kb.fold import fold
from kb.loader import load
from tests import search_eval
from tests.conftest import PG_URL, _pg_available

REPEAT = 3
COPIES = 9  # added to the original: ten times the documents


def grow(url: str, copies: int = COPIES, seed: int = 19) -> int:
    """Add `copies` generated documents per search document (and their entities), then re-index."""
    rng = random.Random(seed)
    engine = open_engine(url)
    with engine.begin() as conn:
        ents = [dict(r._mapping) for r in conn.execute(select(m.Entity.__table__))]
        docs = [dict(r._mapping) for r in conn.execute(select(m.SearchDoc.__table__))]
        by_lang: dict[str, list[dict]] = {}
        for d in docs:
            by_lang.setdefault(d["lang"], []).append(d)
        new_ents, new_docs = [], []
        for c in range(1, copies + 1):
            for e in ents:
                new_ents.append({**e, "id": f"{e['id']}~{c}", "key": f"{e['key']}~{c}", "parent_id": None})
            for d in docs:
                pool = by_lang[d["lang"]]
                a, b = rng.choice(pool), rng.choice(pool)
                name_words = (a["name"].split() + b["name"].split())
                rng.shuffle(name_words)
                name = " ".join(name_words[:rng.randint(1, 4)])
                lines = (a["body"].split("\n") + b["body"].split("\n"))
                rng.shuffle(lines)
                body = "\n".join(lines[:rng.randint(1, 6)])
                new_docs.append(dict(entity_id=f"{d['entity_id']}~{c}", game_id=d["game_id"], kind=d["kind"],
                                     lang=d["lang"], name=name, body=body, folded_body=fold(body)))
        kbsearch.drop_index(conn)
        conn.execute(insert(m.Entity.__table__), new_ents)
        conn.execute(insert(m.SearchDoc.__table__), new_docs)
        asked = {(f"{eid}~{c}" if c else eid, lang): qs for (eid, lang), qs in kbsearch.read_player_questions().items()
                 for c in range(copies + 1)}
        kbsearch.create_index(conn, player_questions=asked)
        conn.execute(text("UPDATE buildinfo SET value = :v WHERE key = 'build'"), {"v": f"grown-{uuid.uuid4()}"})
        total = conn.execute(text("SELECT COUNT(*) FROM searchdoc")).scalar()
    engine.dispose()
    return total


def latency(url: str, queries: list[dict]) -> dict:
    engine = open_engine(url, readonly=True)
    for q in queries:  # warm-up: caches, lemmatizer dictionaries, database pages
        kbsearch.search(engine, q["q"])
    # as the API's warm-up does (api/app.py, ARCHITECTURE.md "API"): what is loaded for good is frozen out of
    # the collector's sight, so a full collection does not walk the index in the middle of a timed search
    gc.collect()
    gc.freeze()
    times = []
    for _ in range(REPEAT):
        for q in queries:
            t0 = time.perf_counter()
            kbsearch.search(engine, q["q"])
            times.append((time.perf_counter() - t0) * 1000)
    engine.dispose()
    gc.unfreeze()
    qs = statistics.quantiles(times, n=100)
    return {"n": len(times), "p50": qs[49], "p99": qs[98]}


def backends(tmp: Path) -> list[tuple[str, str, callable]]:
    """(name, url of the 1x build, cleanup) for SQLite and, when its server answers, PostgreSQL."""
    out = [("SQLite", f"sqlite:///{tmp / 'kb.db'}", lambda: None)]
    reason = _pg_available()
    if reason:
        print(f"PostgreSQL skipped: {reason}")
        return out
    schema = f"rulekb_bench_{uuid.uuid4().hex[:10]}"
    admin = create_engine(PG_URL)
    with admin.begin() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    sep = "&" if "?" in PG_URL else "?"

    def drop():
        with admin.begin() as conn:
            conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()
    out.append(("PostgreSQL", f"{PG_URL}{sep}options=-csearch_path%3D{schema}", drop))
    return out


def main() -> int:
    mixes = {"names+questions": search_eval.load(search_eval.NAMES) + search_eval.load(search_eval.QUESTION_SET),
             "full sentences": search_eval.load(search_eval.TUNING_4)}
    kb = load()
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        rows = []
        for name, url, cleanup in backends(tmp):
            try:
                build(url, kb=kb)
                if name == "SQLite":
                    engine = open_engine(url)
                    print("\n".join(search_eval.report(engine)))
                    engine.dispose()
                    print()
                small = {mix: latency(url, queries) for mix, queries in mixes.items()}
                docs_small = search_eval_docs(url)
                docs_big = grow(url)
                for mix, queries in mixes.items():
                    big = latency(url, queries)
                    rows.append((f"{name}, {mix}", len(queries), docs_small, small[mix], docs_big, big))
            finally:
                cleanup()
    print(f"Search latency: each query x {REPEAT}, in process, warm")
    print(f"{'backend, queries':<32}{'n':>5}{'docs':>7}{'p50 ms':>8}{'p99 ms':>8}{'docs':>8}{'p50 ms':>8}{'p99 ms':>8}"
          f"{'p99 10x/1x':>12}")
    for name, n, n1, s, n10, b in rows:
        print(f"{name:<32}{n:>5}{n1:>7}{s['p50']:>8.1f}{s['p99']:>8.1f}{n10:>8}{b['p50']:>8.1f}{b['p99']:>8.1f}"
              f"{b['p99'] / s['p99']:>11.2f}x")
    print("target: p99 < 20 ms at 10x")
    return 0


def search_eval_docs(url: str) -> int:
    engine = open_engine(url)
    with engine.connect() as conn:
        n = conn.execute(text("SELECT COUNT(*) FROM searchdoc")).scalar()
    engine.dispose()
    return n


if __name__ == "__main__":
    sys.exit(main())
