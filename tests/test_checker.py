"""The translation checker: what it reports on the real rulebooks, and how precise it is."""
from collections import Counter, defaultdict
from pathlib import Path

import pytest
import yaml

from i18n.checker import Checker, check_all, numbers

LABELS = yaml.safe_load((Path(__file__).parent / "data" / "finding_labels.yaml").read_text(encoding="utf-8"))["labels"]


@pytest.fixture(scope="module")
def findings(real_kb):
    return {f.key: f for f in check_all(real_kb)}


def test_the_large_privilege_price_differs_by_edition_with_both_quotes(real_kb):
    found = [f for f in Checker(real_kb, "dragon").run("editions", "2007", "2017")
             if f.entity_id == "dragon/action/privilege" and f.check == "edition-value"]
    (f,) = found
    assert "6 in 2007, 7 in 2017" in f.message
    assert "6 juanów" in f.a.text and f.a.source == "dragon-2007-pl" and f.a.lines
    assert "7 juanów" in f.b.text and f.b.source == "dragon-2017-pl" and f.b.lines


def test_component_counts_that_differ_between_editions_are_reported(real_kb):
    msgs = {f.message for f in Checker(real_kb, "dragon").run("editions", "2007", "2017") if f.check == "edition-value"}
    assert "count: 24 in 2007, 26 in 2017" in msgs and "count: 12 in 2007, 14 in 2017" in msgs


def test_the_night_example_disagreement_is_reported(real_kb):
    fs = Checker(real_kb, "gugong").run("langs", "pl", "cs")
    assert any(f.entity_id == "gugong/example/night-dice" and f.check == "example" for f in fs)


@pytest.mark.parametrize("pl, cs", [
    ("Otrzymaj dwóch Służących", "Najměte si 2 služebníky"),
    ("w dwunastej rundzie", "ve 12. kole"),
    ("dla czwórki graczy", "ve hře 4 hráčů"),
    ("na polu „0”", "na nulu"),
    ("(zobacz stronę 14)", "(viz strana 9)"),
    ("rozgrywce dwuosobowej", "hru 2 hráčů"),
    ("pięciu Służących", "s 5 kartami"),
])
def test_inflected_number_words_ordinals_and_page_references_are_not_differences(pl, cs):
    assert numbers(pl, "pl") == numbers(cs, "cs")


def test_labelled_sample_precision(findings, figures):
    by_check = defaultdict(Counter)
    missing_true = []
    for key, entry in LABELS.items():
        f = findings.get(key)
        if f is None:
            if entry["label"] != "false-alarm":
                missing_true.append(key)
            continue
        by_check[f.check][entry["label"]] += 1
    total = sum(by_check.values(), Counter())
    precision = lambda c: (c["true"] + c["artefact"]) / sum(c.values())
    figures.append(f"checker precision on {sum(total.values())} labelled findings: {precision(total):.0%} "
                   f"({total['true']} true, {total['artefact']} artefact, {total['false-alarm']} false alarm)")
    for check, c in sorted(by_check.items()):
        figures.append(f"  {check}: {precision(c):.0%} of {sum(c.values())}")
    assert not missing_true, f"labelled real differences no longer reported: {missing_true}"
    assert precision(total) >= 0.6
    assert precision(by_check["numbers"] + by_check["edition-value"]) >= 0.6
