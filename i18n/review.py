"""The checker's findings as a side-by-side review page: one row per finding, the two quotes aligned with
their source lines, the words the finding is about highlighted, rows in class and line order. A translator
reads it in a browser; nothing else is needed (one self-contained HTML file).

The page filters rows by class, check, severity and entity and by a free-text search; each row shows the
finding's key and a "reviewed" mark the browser keeps (localStorage, per page title), which the reader
exports as JSON to hand the review back.
"""
from __future__ import annotations

import html
import json
import re
from collections import Counter

from i18n.checker import CLASSES, Finding
from i18n.lexicon import MARKERS, lemma, lexicon, negated, numbers

_TOKEN = re.compile(r"[^\W\d_]+|\d+", re.UNICODE)

PAGE = """<!doctype html>
<html lang="{lang}"><head><meta charset="utf-8"><title>{title}</title>
<style>
body {{ font: 15px/1.45 system-ui, sans-serif; margin: 1.5rem; color: #222; }}
table {{ border-collapse: collapse; width: 100%; }}
th, td {{ border-top: 1px solid #ccc; padding: .45rem .6rem; vertical-align: top; text-align: left; }}
td.quote {{ width: 36%; }}
.where, .key {{ color: #666; font-size: 85%; display: block; }}
.key {{ font-family: monospace; }}
.was {{ color: #555; font-size: 90%; display: block; margin-top: .3rem; }}
mark {{ background: #ffe08a; padding: 0 .1em; }}
.rule {{ border-left: 4px solid #c0392b; }} .wording {{ border-left: 4px solid #2980b9; }}
.ocr {{ border-left: 4px solid #999; }} .expansion {{ border-left: 4px solid #8e44ad; }}
.tag {{ font-size: 80%; padding: .05rem .35rem; border-radius: .3rem; background: #eee; }}
tr.reviewed {{ opacity: .55; }}
#filters {{ display: flex; flex-wrap: wrap; gap: .6rem; margin: .8rem 0; align-items: center; }}
</style></head><body>
<h1>{title}</h1>
<p>{summary}</p>
<div id="filters">
<label>class <select data-filter="class"><option value="">all</option>{classes}</select></label>
<label>check <select data-filter="check"><option value="">all</option>{checks}</select></label>
<label>severity <select data-filter="severity"><option value="">all</option>{severities}</select></label>
<label>entity <select data-filter="entity"><option value="">all</option>{entities}</select></label>
<label>search <input type="search" id="search" placeholder="words, key, entity"></label>
<button type="button" id="export">export reviewed (JSON)</button>
<span id="shown"></span>
</div>
<table>
<thead><tr><th>finding</th><th>{label_a}</th><th>{label_b}</th><th>reviewed</th></tr></thead>
<tbody>
{rows}
</tbody></table>
<script>
(function () {{
  const store = "rulekb-reviewed:" + {store};
  const marks = JSON.parse(localStorage.getItem(store) || "{{}}");
  const rows = Array.from(document.querySelectorAll("tbody tr"));
  const filters = Array.from(document.querySelectorAll("[data-filter]"));
  const search = document.getElementById("search");
  function apply() {{
    const q = search.value.trim().toLowerCase();
    let n = 0;
    for (const row of rows) {{
      const ok = filters.every(f => !f.value || row.dataset[f.dataset.filter] === f.value)
        && (!q || row.textContent.toLowerCase().includes(q));
      row.hidden = !ok;
      n += ok;
    }}
    document.getElementById("shown").textContent = n + " / " + rows.length;
  }}
  for (const row of rows) {{
    const box = row.querySelector("input.reviewed");
    box.checked = !!marks[row.dataset.key];
    row.classList.toggle("reviewed", box.checked);
    box.addEventListener("change", () => {{
      if (box.checked) marks[row.dataset.key] = {{reviewed: new Date().toISOString(), "class": row.dataset["class"],
        check: row.dataset.check, entity: row.dataset.entity}};
      else delete marks[row.dataset.key];
      localStorage.setItem(store, JSON.stringify(marks));
      row.classList.toggle("reviewed", box.checked);
    }});
  }}
  filters.forEach(f => f.addEventListener("change", apply));
  search.addEventListener("input", apply);
  document.getElementById("export").addEventListener("click", () => {{
    const blob = new Blob([JSON.stringify(marks, null, 2)], {{type: "application/json"}});
    const a = document.createElement("a");
    a.href = URL.createObjectURL(blob);
    a.download = "reviewed.json";
    a.click();
  }});
  apply();
}})();
</script></body></html>
"""


def _lang(label: str) -> str:
    head = label.split()[0]
    return head if head in ("pl", "cs", "en") else "pl"  # edition labels ("2007") are Polish texts


def _wanted(f: Finding, lang: str, other: str | None) -> set[str]:
    """The folded words of a quote the finding is about: the words a change replaced or put in, the
    marker words of its check, and for two editions of one language the words the other quote lacks."""
    lex = lexicon()
    out = set()
    for said in f.changed:
        out |= set(lex.words(said))
    if other is not None and f.check not in ("edition-only", "one-sided", "noted"):
        out |= set(lex.words(f.a.text if f.a else "")) ^ set(lex.words(f.b.text if f.b else ""))
    return out


def highlight(text: str, lang: str, f: Finding, same_language: bool = False) -> str:
    """The quote, HTML-escaped, with the words the finding is about marked."""
    cats = set(f.detail.split(",")) if f.check in ("negation", "modality", "quantifier", "condition") else set()
    wanted_numbers = {int(n) for n in re.findall(r"\d+", f.detail)} if f.check == "numbers" and not f.changed else set()
    table = MARKERS.get(lang, {})
    words = {w for c in cats for w in table.get(c, ())}
    lex = lexicon()
    differing = _wanted(f, lang, "" if same_language else None)
    out, last = [], 0
    for m in _TOKEN.finditer(text):
        tok = m.group()
        hit = (tok.lower() in words or lemma(tok, lang) in words
               or ("negation" in cats and negated(tok, lang))
               or (wanted_numbers and set(numbers(tok, lang)) & wanted_numbers)
               or lex.skeleton(tok) in differing)
        out.append(html.escape(text[last:m.start()]))
        out.append(f"<mark>{html.escape(tok)}</mark>" if hit else html.escape(tok))
        last = m.end()
    out.append(html.escape(text[last:]))
    return "".join(out)


def _spans(lines) -> str:
    return ", ".join(f"{a}–{b}" if a != b else str(a) for a, b in lines or [])


def _cell(side, f: Finding, same_language: bool, was=None) -> str:
    if side is None:
        return '<td class="quote"><em>no counterpart</em></td>'
    where = f'<span class="where">{html.escape(side.source or "")} {_spans(side.lines)}</span>'
    replaced = ""
    if was is not None:
        replaced = (f'<span class="was">replaced ({html.escape(was.source or "")} {_spans(was.lines)}): '
                    f'{highlight(was.text, _lang(was.label), f)}</span>')
    return f'<td class="quote">{where}{highlight(side.text, _lang(side.label), f, same_language)}{replaced}</td>'


def _first_line(f: Finding) -> int:
    side = f.b if f.b and f.changed else (f.a or f.b)
    return side.lines[0][0] if side and side.lines else 0


def _options(values) -> str:
    return "".join(f'<option value="{html.escape(v)}">{html.escape(v)}</option>' for v in sorted(set(values)))


def page(findings: list[Finding], title: str, label_a: str, label_b: str, lang: str = "en") -> str:
    rows = []
    same_language = _lang(label_a) == _lang(label_b)
    ordered = sorted(findings, key=lambda f: (CLASSES.index(f.triage), f.hand_recorded, _first_line(f), f.entity_id))
    for f in ordered:
        tag = f"{f.triage}, hand-recorded" if f.hand_recorded else f.triage
        head = (f'<td class="{f.triage}"><span class="tag">{html.escape(tag)}</span> <b>{html.escape(f.check)}</b> '
                f'<span class="tag">{f.severity}</span><br>{html.escape(f.text(lang))}'
                f'<span class="where">{html.escape(f.entity_id)} · {html.escape(f.field)}</span>'
                f'<span class="key">{f.key}</span></td>')
        data = " ".join(f'data-{k}="{html.escape(v)}"' for k, v in (("key", f.key), ("class", f.triage), ("check", f.check),
                                                                    ("severity", f.severity), ("entity", f.entity_id)))
        rows.append(f"<tr {data}>{head}{_cell(f.a, f, same_language)}{_cell(f.b, f, same_language, f.was)}"
                    f'<td><input type="checkbox" class="reviewed" aria-label="reviewed {f.key}"></td></tr>')
    counts = Counter(f.triage for f in findings if not f.hand_recorded)
    summary = (f"{len(findings)} findings: " + ", ".join(f"{counts[c]} {c}" for c in CLASSES)
               + f", {sum(f.hand_recorded for f in findings)} hand-recorded.")
    return PAGE.format(title=html.escape(title), summary=summary, label_a=html.escape(label_a), lang=lang,
                       label_b=html.escape(label_b), rows="\n".join(rows), store=json.dumps(title).replace("<", "\\u003c"),
                       classes=_options(f.triage for f in findings), checks=_options(f.check for f in findings),
                       severities=_options(f.severity for f in findings),
                       entities=_options(f.entity_id for f in findings))
