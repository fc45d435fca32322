"""The checker's findings as a side-by-side review page: one row per finding, the two quotes aligned with
their source lines, the words the finding is about highlighted, rule differences first. A translator reads
it in a browser; nothing else is needed (one self-contained HTML file)."""
from __future__ import annotations

import html
import re
from collections import Counter

from i18n.checker import CLASSES, Finding
from i18n.lexicon import MARKERS, lemma, negated, numbers

_TOKEN = re.compile(r"[^\W\d_]+|\d+", re.UNICODE)

PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<style>
body {{ font: 15px/1.45 system-ui, sans-serif; margin: 1.5rem; color: #222; }}
table {{ border-collapse: collapse; width: 100%; }}
th, td {{ border-top: 1px solid #ccc; padding: .45rem .6rem; vertical-align: top; text-align: left; }}
td.quote {{ width: 38%; }}
.where {{ color: #666; font-size: 85%; display: block; }}
mark {{ background: #ffe08a; padding: 0 .1em; }}
.rule {{ border-left: 4px solid #c0392b; }} .wording {{ border-left: 4px solid #2980b9; }} .ocr {{ border-left: 4px solid #999; }}
.tag {{ font-size: 80%; padding: .05rem .35rem; border-radius: .3rem; background: #eee; }}
</style></head><body>
<h1>{title}</h1>
<p>{summary}</p>
<table>
<thead><tr><th>finding</th><th>{label_a}</th><th>{label_b}</th></tr></thead>
<tbody>
{rows}
</tbody></table></body></html>
"""


def _lang(label: str) -> str:
    head = label.split()[0]
    return head if head in ("pl", "cs", "en") else "pl"  # edition labels ("2007") are Polish texts


def highlight(text: str, lang: str, f: Finding) -> str:
    """The quote, HTML-escaped, with the words the finding is about marked."""
    cats = set(f.detail.split(",")) if f.check in ("negation", "modality", "quantifier", "condition") else set()
    wanted_numbers = {int(n) for n in re.findall(r"\d+", f.detail)} if f.check == "numbers" else set()
    table = MARKERS.get(lang, {})
    words = {w for c in cats for w in table.get(c, ())}
    out, last = [], 0
    for m in _TOKEN.finditer(text):
        tok = m.group()
        hit = (tok.lower() in words or lemma(tok, lang) in words
               or ("negation" in cats and negated(tok, lang))
               or (wanted_numbers and set(numbers(tok, lang)) & wanted_numbers))
        out.append(html.escape(text[last:m.start()]))
        out.append(f"<mark>{html.escape(tok)}</mark>" if hit else html.escape(tok))
        last = m.end()
    out.append(html.escape(text[last:]))
    return "".join(out)


def _cell(side, f: Finding) -> str:
    if side is None:
        return '<td class="quote"><em>no counterpart</em></td>'
    spans = ", ".join(f"{a}–{b}" if a != b else str(a) for a, b in side.lines or [])
    where = f'<span class="where">{html.escape(side.source or "")} {spans}</span>'
    return f'<td class="quote">{where}{highlight(side.text, _lang(side.label), f)}</td>'


def page(findings: list[Finding], title: str, label_a: str, label_b: str) -> str:
    rows = []
    for f in sorted(findings, key=lambda f: (CLASSES.index(f.triage), f.hand_recorded, f.entity_id)):
        tag = "hand-recorded" if f.hand_recorded else f.triage
        head = (f'<td class="{f.triage}"><span class="tag">{tag}</span> <b>{html.escape(f.check)}</b><br>'
                f'{html.escape(f.message)}<span class="where">{html.escape(f.entity_id)} · {html.escape(f.field)}</span></td>')
        rows.append(f"<tr>{head}{_cell(f.a, f)}{_cell(f.b, f)}</tr>")
    counts = Counter(f.triage for f in findings if not f.hand_recorded)
    summary = (f"{len(findings)} findings: " + ", ".join(f"{counts[c]} {c}" for c in CLASSES)
               + f", {sum(f.hand_recorded for f in findings)} hand-recorded.")
    return PAGE.format(title=html.escape(title), summary=summary, label_a=html.escape(label_a),
                       label_b=html.escape(label_b), rows="\n".join(rows))

