"""The committed search evaluation set (tests/data/search_queries.yaml) on the real knowledge base:
a player finds what they typed for, in the first hits. Figures are printed at the end of the run."""
from kb.db import open_engine
from tests import search_eval


def test_players_find_the_entry_they_mean_in_the_first_hits(real_db, figures):
    engine = open_engine(real_db, readonly=True)
    try:
        outcomes = search_eval.run(engine)
    finally:
        engine.dispose()
    figures.append("search quality (tests/data/search_queries.yaml, no filter, SQLite):")
    figures.extend("  " + line for line in search_eval.table(outcomes))
    every = search_eval.measures(outcomes)
    held = search_eval.measures([o for o in outcomes if o.held_out])
    # the targets of the whole set; the held-out part (never tuned on) a little under its figures
    assert every["hit@1"] >= 0.80 and every["hit@3"] >= 0.95, every
    assert held["hit@1"] >= 0.75 and held["hit@3"] >= 0.90, held
