"""The search evaluation sets and their measures: hit@1, hit@3 and MRR.

The sets with a part tuned on (names, questions) or tuned on whole (questions-2, questions-3), then the outside
ones held out whole, those whose files are there:
- questions-2 (tests/data/search_questions_tuning2.yaml): a second set of questions and concepts for tuning
  only, written later by a session that saw neither the ranking nor the other sets, and 40 more at its end
  written by the round-4 tuning session from the rulebook texts before it ran them; none of it held out;
- questions-3 (tests/data/search_questions_tuning3.yaml): questions, concepts and names (run with the game
  and language, as the outside sets are) for tuning only, written like outside-5 in the round that added the
  player questions, by a session that saw none of them; none of it held out;
- questions-4 (tests/data/search_questions_tuning4.yaml): 150 questions, concepts and names in a newcomer's full
  sentences about edge cases, the kind of query outside-12 found weak, written for tuning by a session that
  saw neither the search nor any set; none of it held out;
- questions-5 (tests/data/search_questions_tuning5.yaml): 120 Gugong queries of all kinds about entries that share a
  subject (a rule, its component, its location, its appendix or solo restatement), Gugong being the weakest game
  on the outside sets, written for tuning the same way; none of it held out;
- names (tests/data/search_queries.yaml, issue 19): names as printed, inflected, mistyped, without
  diacritics; run as a player types into the one search box: no game, kind or language filter;
- questions (tests/data/search_questions.yaml, issue 38): questions and concepts in pl/cs/en, run with
  the game and the language of the query, as the site and the API send them;
- outside (tests/data/search_questions_outside.yaml, or the file RULEKB_SEARCH_OUTSIDE names) and
  outside-2 (tests/data/search_questions_outside2.yaml, written later by another session that saw neither
  the ranking nor any other set) and outside-3 (tests/data/search_questions_outside3.yaml, written the same
  way in the last round, before its figures were read) and outside-4 (tests/data/search_questions_outside4.yaml,
  written the same way at the start of the next round) and outside-5 (tests/data/search_questions_outside5.yaml,
  written the same way at the start of the round that added the player questions, kb/data/player-questions.yaml,
  by a session that saw neither them nor their writers' briefs) and outside-6 (tests/data/search_questions_outside6.yaml,
  written the same way at the end of that round, after its last ranking change, and run once) and outside-7
  (tests/data/search_questions_outside7.yaml, written the same way at the start of the next round, before its
  first change; only its figures are read while tuning) and outside-8 (tests/data/search_questions_outside8.yaml,
  written beside outside-7 by another session and run once, after that round's last ranking change) and outside-9
  (tests/data/search_questions_outside9.yaml) and outside-10 (tests/data/search_questions_outside10.yaml), written
  the same way at that round's end by two more sessions and each run once, and outside-11, -12 and -13, written
  the same way at the start of the next round before its first change, by writers asked for other kinds of
  player (typing fast at the table; a newcomer asking about edge cases in full sentences, twice), and outside-14
  and -15, written the same way after that round's last ranking change (players of all kinds; an experienced
  player checking one detail) and run once, and outside-16 and -17, written the same way for the same two kinds
  while that round's last changes were made and run once after them, and outside-18 and -19 (all kinds; a
  newcomer), written after them and run once, and outside-20, -21 and -22 (a newcomer in full sentences; all
  kinds; players settling a disputed rule), written the same way at the start of the next round before its first
  change, and outside-23 and -24 (an experienced player checking one detail; fast typing at the table), written
  the same way while that round's changes were made, all five run once at its end: run like the questions,
  reported apart, entirely held out.

A query scores by the rank of the first of its expected ids; a rank past DEPTH counts as a miss.
The held-out part of a committed set (every 4th query in file order) is reported apart and is never
tuned on.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import yaml

from kb.search import search

DATA = Path(__file__).parent / "data"
QUERIES = DATA / "search_queries.yaml"
QUESTIONS = DATA / "search_questions.yaml"
OUTSIDE = DATA / "search_questions_outside.yaml"
NUMBERED_OUTSIDE = range(2, 25)  # outside-2 ... outside-24: search_questions_outside<n>.yaml
DEPTH = 20
HELD_OUT_EVERY = 4


@dataclass(frozen=True)
class QuerySet:
    name: str
    path: Path
    filtered: bool  # run with the query's game and language
    all_held_out: bool = False  # an outside set: none of it was tuned on
    all_tuned: bool = False  # a tuning set: no part held out (the held-out sets are the others)


NAMES = QuerySet("names", QUERIES, filtered=False)
QUESTION_SET = QuerySet("questions", QUESTIONS, filtered=True)
TUNING_2 = QuerySet("questions-2", DATA / "search_questions_tuning2.yaml", filtered=True, all_tuned=True)
TUNING_3 = QuerySet("questions-3", DATA / "search_questions_tuning3.yaml", filtered=True, all_tuned=True)
TUNING_4 = QuerySet("questions-4", DATA / "search_questions_tuning4.yaml", filtered=True, all_tuned=True)
TUNING_5 = QuerySet("questions-5", DATA / "search_questions_tuning5.yaml", filtered=True, all_tuned=True)
TUNING = (NAMES, QUESTION_SET, TUNING_2, TUNING_3, TUNING_4, TUNING_5)


def outside_sets() -> list[QuerySet]:
    """The outside question sets whose files are there."""
    paths = [("outside", Path(os.environ.get("RULEKB_SEARCH_OUTSIDE") or OUTSIDE))]
    paths += [(f"outside-{n}", DATA / f"search_questions_outside{n}.yaml") for n in NUMBERED_OUTSIDE]
    return [QuerySet(name, path, filtered=True, all_held_out=True) for name, path in paths if path.is_file()]


def query_sets() -> list[QuerySet]:
    """Every set to report: the names, the questions and the tuning sets, then the outside ones present."""
    return list(TUNING) + outside_sets()


@dataclass
class Outcome:
    q: str
    game: str
    lang: str
    type: str
    held_out: bool
    rank: int | None  # 1-based rank of the first expected id, None when not in the top DEPTH
    top: list[str]


def load(query_set: QuerySet = NAMES) -> list[dict]:
    queries = yaml.safe_load(query_set.path.read_text(encoding="utf-8"))["queries"]
    for i, q in enumerate(queries, 1):
        q["held_out"] = query_set.all_held_out or (not query_set.all_tuned and i % HELD_OUT_EVERY == 0)
        q["filtered"] = query_set.filtered
    return queries


def run(engine, queries: list[dict] | None = None) -> list[Outcome]:
    out = []
    for q in queries or load():
        facets = {"game": q["game"], "lang": q["lang"]} if q.get("filtered") else {}
        ids = [h.id for h in search(engine, q["q"], limit=DEPTH, **facets).hits]
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
    """Lines: overall, tuned and held-out parts, then per game, query type and language."""
    groups = [("all", outcomes), ("tuned", [o for o in outcomes if not o.held_out]),
              ("held-out", [o for o in outcomes if o.held_out])]
    for key in ("game", "type", "lang"):
        for value in dict.fromkeys(getattr(o, key) for o in outcomes):
            part = [o for o in outcomes if getattr(o, key) == value]
            groups.append((f"{key}={value}", part))
    lines = [f"{'part':<16}{'n':>4}{'hit@1':>8}{'hit@3':>8}{'MRR':>7}   held-out hit@1 / hit@3"]
    for name, part in groups:
        if not part:
            continue
        m = measures(part)
        held = measures([o for o in part if o.held_out])
        held_text = f"{held['hit@1']:.0%} / {held['hit@3']:.0%} (n={held['n']})" if held["n"] else "—"
        lines.append(f"{name:<16}{m['n']:>4}{m['hit@1']:>8.1%}{m['hit@3']:>8.1%}{m['mrr']:>7.3f}   {held_text}")
    return lines


def misses(outcomes: list[Outcome], held_out: bool = False) -> list[str]:
    """The tuned part's queries not answered first (the held-out part is never listed: not to be read)."""
    return [f"{o.rank or '-':>3} {o.game}/{o.lang} {o.q!r} -> {o.top}" for o in outcomes
            if o.held_out == held_out and o.rank != 1]


def report(engine) -> list[str]:
    """Every set's table, with the file it came from."""
    lines = []
    for query_set in query_sets():
        how = "with the query's game and language" if query_set.filtered else "no filter"
        lines.append(f"search quality, {query_set.name} ({query_set.path.name}, {how}):")
        lines.extend("  " + line for line in table(run(engine, load(query_set))))
    return lines


if __name__ == "__main__":  # python -m tests.search_eval [--misses]: the figures on var/rulekb.db
    import sys

    from kb.db import open_engine

    eng = open_engine(os.environ.get("RULEKB_DATABASE_URL", "sqlite:///var/rulekb.db"), readonly=True)
    print("\n".join(report(eng)))
    if "--misses" in sys.argv:
        for qs in TUNING:
            print(f"tuned-part misses, {qs.name}:")
            print("\n".join(misses(run(eng, load(qs)))))
