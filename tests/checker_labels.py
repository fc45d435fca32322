"""Rule-class precision of the knowledge-base comparisons under the strict labels of
tests/data/finding_labels.yaml, and the agreement of the second labelling pass once it is filled in.

    .venv/bin/python -m tests.checker_labels
"""
from __future__ import annotations

from pathlib import Path

import yaml

LABELS = Path(__file__).parent / "data" / "finding_labels.yaml"


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

    print("\n".join(report(check_all(load()))))


if __name__ == "__main__":
    main()
