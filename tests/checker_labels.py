"""Rule-class precision of the knowledge-base comparisons under the strict labels of
tests/data/finding_labels.yaml, and the agreement of the second labelling pass once it is filled in;
the outside reviewer's labels (`outside_pass`) as two aggregate figures, its tuning part and its held-out
part; the third and fourth reviewers' labels of the rule class (`outside_pass_3`, `outside_pass_4`) and
their agreement; and how many rule differences of the outside list (tests/data/checker_outside_truth.yaml) a
rule-class finding quotes. Only counts are printed: the held-out labels and the outside list are not
for reading while tuning.

    .venv/bin/python -m tests.checker_labels
"""
from __future__ import annotations

from pathlib import Path

import yaml

LABELS = Path(__file__).parent / "data" / "finding_labels.yaml"
OUTSIDE_TRUTH = Path(__file__).parent / "data" / "checker_outside_truth.yaml"


def outside(findings) -> list[str]:
    from i18n.evaluation import Rate, recalls
    from kb.schema import normalize_spans

    data = yaml.safe_load(LABELS.read_text(encoding="utf-8"))
    rule_class = {f.key for f in findings if f.triage == "rule"}  # hand-recorded ones too: a reader sees them
    parts: dict[str, Rate] = {}
    for key, entry in (data.get("outside_pass") or {}).items():
        if key in rule_class:
            rate = parts.setdefault(entry["part"], Rate())
            rate.total += 1
            rate.hits += entry["label"] == "rule"
    unlabelled = len(rule_class - set(data.get("outside_pass") or {}))
    lines = [f"rule-class findings: {len(rule_class)}; outside labels, precision: "
             + ", ".join(f"{part} {rate}" for part, rate in sorted(parts.items(), reverse=True))
             + f"; not labelled by the outside reviewer: {unlabelled}"]
    for n, name in ((3, "third"), (4, "fourth")):  # later reviewers, who saw no earlier labels
        later = {key: entry for key, entry in (data.get(f"outside_pass_{n}") or {}).items() if key in rule_class}
        if later:
            ruled = sum(entry["label"] == "rule" for entry in later.values())
            lines.append(f"{name} outside pass: rule-class precision {ruled}/{len(later)} "
                         f"({ruled / len(later):.0%}); not labelled by it: {len(rule_class - set(later))}")
    third, fourth = data.get("outside_pass_3") or {}, data.get("outside_pass_4") or {}
    both = [key for key in fourth if key in third]
    if both:  # rule or not, the strict question
        same = sum((third[key]["label"] == "rule") == (fourth[key]["label"] == "rule") for key in both)
        lines.append(f"third and fourth passes agree (rule or not) on {same}/{len(both)} findings both labelled")
    if OUTSIDE_TRUTH.is_file():
        truth = yaml.safe_load(OUTSIDE_TRUTH.read_text(encoding="utf-8"))
        ruled = [f for f in findings if f.triage == "rule"]
        for group in ("rule_differences", "same"):
            items = [{**item, **{side: {**item[side], "lines": normalize_spans(item[side]["lines"])}
                                 for side in ("a", "b")}} for item in truth.get(group) or []]
            hit = sum(any(recalls(f, item) for f in ruled) for item in items)
            lines.append(f"outside list, {group}: {hit}/{len(items)} quoted by a rule-class finding")
    return lines


def report(findings) -> list[str]:
    from i18n.evaluation import agreement, strict_precision

    data = yaml.safe_load(LABELS.read_text(encoding="utf-8"))
    got = strict_precision(findings, data["labels"])
    lines = [f"rule-class precision (strict labels): {got.precision}; labelled rule differences still "
             f"classed rule: {got.kept}; rule-class findings without a label: {len(got.unlabelled)}"]
    lines += [f"  {check}: {rate}" for check, rate in sorted(got.by_check.items())]
    second = data.get("second_pass", {}).get("labels") or {}
    if second:
        rule_class = {f.key for f in findings if f.triage == "rule" and not f.hand_recorded}
        judged = [label for key, label in second.items() if key in rule_class]
        lines.append(f"second pass: rule-class precision {sum(x == 'rule' for x in judged)}/{len(judged)}; "
                     f"agreement with the first pass {agreement(data['labels'], second)}")
    else:
        lines.append(f"second pass: not done yet ({len(data['second_pass']['keys'])} keys sampled)")
    return lines


def main() -> None:
    from i18n.checker import check_all
    from kb.loader import load

    findings = check_all(load())
    print("\n".join(report(findings) + outside(findings)))


if __name__ == "__main__":
    main()
