"""The search evaluation sets (tests/search_eval.py) on the real knowledge base: a player finds what
they typed for, in the first hits. Figures of every set, the outside one too when its file is there,
are printed at the end of the run."""
from kb.db import open_engine
from tests import search_eval


def test_players_find_the_entry_they_mean_in_the_first_hits(real_db, figures):
    engine = open_engine(real_db, readonly=True)
    try:
        outcomes = search_eval.run(engine, search_eval.load(search_eval.NAMES))
        figures.extend(search_eval.report(engine))
    finally:
        engine.dispose()
    every = search_eval.measures(outcomes)
    held = search_eval.measures([o for o in outcomes if o.held_out])
    # the targets of the whole set; the held-out part (never tuned on) a little under its figures
    assert every["hit@1"] >= 0.80 and every["hit@3"] >= 0.95, every
    assert held["hit@1"] >= 0.75 and held["hit@3"] >= 0.90, held


def test_an_outside_question_set_is_loaded_from_its_path_and_reported_apart(tmp_path, monkeypatch):
    outside = tmp_path / "outside.yaml"
    outside.write_text('queries:\n- {game: gugong, lang: cs, type: question, q: "kdy končí hra", '
                       'expect: [gugong/rule/end-game]}\n', encoding="utf-8")
    monkeypatch.setenv("RULEKB_SEARCH_OUTSIDE", str(outside))
    sets = search_eval.query_sets()
    tuning = ["names", "questions", "questions-2", "questions-3", "questions-4", "questions-5"]
    numbered = [f"outside-{n}" for n in range(2, 25)]
    assert [s.name for s in sets] == tuning + ["outside"] + numbered
    queries = search_eval.load(sets[len(tuning)])
    # never tuned on: all of it held out; run with the query's game and language like the questions
    assert [(q["q"], q["held_out"], q["filtered"]) for q in queries] == [("kdy končí hra", True, True)]
    monkeypatch.setenv("RULEKB_SEARCH_OUTSIDE", str(tmp_path / "absent.yaml"))
    assert [s.name for s in search_eval.query_sets()] == tuning + numbered
    assert all(q["held_out"] for q in search_eval.load(search_eval.query_sets()[-1]))


def test_players_questions_find_the_rule_that_answers_them(real_db):
    engine = open_engine(real_db, readonly=True)
    try:
        outcomes = search_eval.run(engine, search_eval.load(search_eval.QUESTION_SET))
    finally:
        engine.dispose()
    every = search_eval.measures(outcomes)
    # issue 38: 42.9% / 62.9% at first, 76.9% / 92.3% before the player questions; its targets (85% / 95%,
    # Czech hit@1 80%) hold on the whole set (the held-out part, never tuned on, is lower: see the figures)
    assert every["hit@1"] >= 0.85 and every["hit@3"] >= 0.95, every
    for lang in ("pl", "cs", "en"):
        part = search_eval.measures([o for o in outcomes if o.lang == lang])
        assert part["hit@3"] >= 0.90, (lang, part)
    assert search_eval.measures([o for o in outcomes if o.lang == "cs"])["hit@1"] >= 0.80
