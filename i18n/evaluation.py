"""How good the checker is, measured against hand-made files in tests/data:

- checker_ground_truth.yaml: differences found by reading the sources side by side (recall);
- finding_labels.yaml: a seeded random sample of findings, each labelled by hand (precision).

Hand-recorded findings (`noted`) never count: recall is what the checks find on their own.
"""
from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field

from i18n.checker import Finding


def _lines(spans) -> set[int]:
    return {n for a, b in (spans or []) for n in range(a, b + 1)}


def recalls(f: Finding, item: dict) -> bool:
    """A finding recalls a ground-truth item when, on each side the item has, the finding quotes the same
    source at overlapping lines."""
    if f.hand_recorded or f.game != item["game"]:
        return False
    for key in ("a", "b"):
        want = _lines(item[key]["lines"])
        if not want:
            continue
        got = set()
        for side in (f.a, f.b):
            if side and side.source == item[key]["src"]:
                got |= _lines(side.lines)
        if not got & want:
            return False
    return True


@dataclass
class Rate:
    hits: int = 0
    total: int = 0

    @property
    def value(self) -> float:
        return self.hits / self.total if self.total else 0.0

    def __str__(self) -> str:
        return f"{self.value:.0%} ({self.hits}/{self.total})"


def recall(findings: list[Finding], items: list[dict]) -> dict[str, Rate]:
    """Recall per part (tuning, held-out), per class of the item, per class in each part, and overall."""
    out: dict[str, Rate] = defaultdict(Rate)
    for item in items:
        hit = any(recalls(f, item) for f in findings)
        for key in ("all", item["part"], f"class {item['class']}", f"class {item['class']} ({item['part']})"):
            out[key].total += 1
            out[key].hits += hit
    return dict(out)


@dataclass
class Precision:
    real: dict[str, Rate] = field(default_factory=lambda: defaultdict(Rate))      # a real difference
    triage: dict[str, Rate] = field(default_factory=lambda: defaultdict(Rate))    # ... and the right class
    missing: list[str] = field(default_factory=list)                              # labelled keys not found


def precision(findings: list[Finding], labels: dict[str, dict], part: str | None = None) -> Precision:
    """Per check, per class the checker gave, and overall ("all"): how many labelled findings are real
    differences, and how many have the class the labeller gave."""
    by_key = {f.key: f for f in findings}
    out = Precision()
    for key, entry in labels.items():
        if part and entry["part"] != part:
            continue
        f = by_key.get(key)
        if f is None:
            out.missing.append(key)
            continue
        real = entry["label"] != "false"
        for group in ("all", f"check {f.check}", f"class {f.triage}"):
            out.real[group].total += 1
            out.real[group].hits += real
            out.triage[group].total += 1
            out.triage[group].hits += entry["label"] == f.triage
    return out


def counts(findings: list[Finding]) -> Counter:
    return Counter(f.check for f in findings if not f.hand_recorded)


@dataclass
class Strict:
    """Rule-class precision under the strict definition (tests/data/finding_labels.yaml): of the findings
    the checker classes `rule`, how many a reader labelled `rule`; and of the findings labelled `rule`,
    how many the checker still classes `rule` (what the classes keep)."""
    precision: Rate = field(default_factory=Rate)
    kept: Rate = field(default_factory=Rate)
    unlabelled: list[str] = field(default_factory=list)   # rule-class findings nobody labelled
    by_check: dict[str, Rate] = field(default_factory=lambda: defaultdict(Rate))


def strict_precision(findings: list[Finding], labels: dict[str, dict]) -> Strict:
    out = Strict()
    by_key = {f.key: f for f in findings if not f.hand_recorded}
    for f in by_key.values():
        if f.triage != "rule":
            continue
        entry = labels.get(f.key)
        if entry is None:
            out.unlabelled.append(f.key)
            continue
        hit = entry["label"] == "rule"
        out.precision.total += 1
        out.precision.hits += hit
        out.by_check[f.check].total += 1
        out.by_check[f.check].hits += hit
    for key, entry in labels.items():
        if entry["label"] == "rule":
            out.kept.total += 1
            out.kept.hits += key in by_key and by_key[key].triage == "rule"
    return out


def agreement(first: dict[str, dict], second: dict[str, str]) -> Rate:
    """How many findings of the second pass got the same label in both passes."""
    out = Rate()
    for key, label in second.items():
        if key in first:
            out.total += 1
            out.hits += first[key]["label"] == label
    return out
