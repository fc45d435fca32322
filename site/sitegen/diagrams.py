"""Pictures generated from the rule set, as inline SVG (no script, no network, printable):

- the round's phase flow: the phases in rulebook order with their steps, looping as many times as
  the rules say (a `rounds`/`days` attribute);
- the tracks: one strip of spaces per track (or per length), the start marked, rewards listed;
- the scoring summary: every VP amount the scoring rules give, as bars.

Every number drawn comes from kb/data through the entities passed in; every word is in the page's
language (names from the texts, labels and counted nouns from sitegen.values).
"""
from __future__ import annotations

import html
import re
from typing import Callable

from sitegen.values import Values, label, plural, unit_of

W = 340  # viewBox width: fits a 360 px phone with the page margins; scales up to max-width in CSS
LOOP_ATTRS = ("rounds", "days")
COUNT_ATTRS = ("spaces", "days", "track_spaces", "palace_track_spaces", "event_track_spaces")
START_ATTRS = ("start_space", "start_value", "start")


def esc(s) -> str:
    return html.escape(str(s), quote=True)


def wrap(s: str, n: int, lines: int = 3) -> list[str]:
    """Words in lines of at most n characters (the last one clipped when more than `lines` are needed)."""
    out = [""]
    for word in s.split():
        if out[-1] and len(out[-1]) + 1 + len(word) > n:
            out.append("")
        out[-1] = f"{out[-1]} {word}".strip()
    return out[:lines - 1] + [clip(" ".join(out[lines - 1:]), n)] if len(out) > lines else out


def clip(s: str, n: int) -> str:
    return s if len(s) <= n else s[: n - 1] + "…"


def svg(height: int, body: str, title: str, cls: str) -> str:
    return (f'<svg class="rk-diagram {cls}" role="img" aria-label="{esc(title)}" viewBox="0 0 {W} {height}" '
            f'xmlns="http://www.w3.org/2000/svg"><title>{esc(title)}</title>{body}</svg>')


def for_game(game: dict, ents: list[dict], lang: str, vals: Values, name: Callable[[str], str]) -> dict[str, str]:
    by_id = {e["id"]: e for e in ents}
    by_kind: dict[str, list[dict]] = {}
    for e in ents:
        by_kind.setdefault(e["kind"], []).append(e)
    return {"flow": phase_flow(by_kind, by_id, lang, name), "tracks": tracks(by_kind, lang, vals, name),
            "scoring": scoring(by_kind, lang, vals, name)}


def phase_flow(by_kind: dict, by_id: dict, lang: str, name: Callable[[str], str]) -> str:
    phases = [p for p in by_kind.get("phase", []) if not p["scope"]]
    if not phases:
        return ""
    loop = next(((a, v) for e in by_kind.get("rule", []) + by_kind.get("track", []) if not e["scope"]
                 for a, v in (e["attrs"] or {}).items() if a in LOOP_ATTRS and isinstance(v, int)), None)
    parts, y = [], 8
    for i, p in enumerate(phases):
        steps = [name(c) for c in p["children"] if c in by_id and by_id[c]["kind"] in ("step", "location", "action")]
        # a long step name goes on as a second line rather than being cut ("Kościach Pr…")
        lines = [(k == 0, part) for s in steps for k, part in enumerate(wrap(s, 44))]
        h = 30 + 15 * len(lines)
        parts.append(f'<rect x="10" y="{y}" width="{W - 60}" height="{h}" rx="8" class="box"/>'
                     f'<text x="22" y="{y + 20}" class="head">{esc(numbered(i + 1, clip(name(p["id"]), 34)))}</text>')
        for j, (first, s) in enumerate(lines):
            parts.append(f'<text x="{30 if first else 38}" y="{y + 38 + 15 * j}" class="small">'
                         f'{"• " if first else ""}{esc(s)}</text>')
        y += h
        if i < len(phases) - 1:
            parts.append(f'<path d="M{W // 2 - 25} {y + 2} v14" class="arrow" marker-end="url(#rk-head)"/>')
            y += 20
    if loop:
        label_text = plural(lang, loop[0], loop[1])
        parts.append(f'<path d="M{W - 50} {y - 20} H{W - 20} V{18} H{W - 46}" class="arrow loop" '
                     f'marker-end="url(#rk-head)"/>'
                     f'<text x="{W - 14}" y="{(y + 8) // 2}" class="small" transform="rotate(90 {W - 14} {(y + 8) // 2})" '
                     f'text-anchor="middle">× {esc(label_text)}</text>')
    defs = ('<defs><marker id="rk-head" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="7" markerHeight="7" '
            'orient="auto-start-reverse"><path d="M0 0 L10 5 L0 10 z" class="head-fill"/></marker></defs>')
    return svg(y + 10, defs + "".join(parts), label_of("phase", lang), "flow")


PHASE_NUMBER = re.compile(r"^(?:(?:faza|fáze|phase)\s*)?\d+\.?\s*(?:(?:faza|fáze|phase)\b\s*)?[:.]?\s*", re.I)


def unnumbered(title: str) -> str:
    """A phase's name without the number the rulebooks write in three ways ('Faza 1: Faza Poranka',
    '1 Faza: Akcja', '2. fáze: Osoby'), so that every phase is numbered alike."""
    rest = PHASE_NUMBER.sub("", title, count=1)
    return rest[:1].upper() + rest[1:] if rest else title


def numbered(n: int, title: str) -> str:
    """'2. Day phase': the phases numbered alike, whatever the rulebook's own numbering."""
    return f"{n}. {unnumbered(title)}"


def label_of(what: str, lang: str) -> str:
    from i18n.catalog import t

    return {"phase": t(lang, "The round's phases"), "track": t(lang, "Tracks"),
            "scoring": t(lang, "Where the victory points come from")}[what]


def tracks(by_kind: dict, lang: str, vals: Values, name: Callable[[str], str]) -> str:
    items = [e for e in by_kind.get("track", []) if not e["scope"]]
    if not items:
        return ""
    rewards = by_kind.get("reward", [])
    # a track's length may be given where the rulebook gives it: on its location ("palace_track_spaces")
    elsewhere = {a: v for es in by_kind.values() for e in es if not e["scope"]
                 for a, v in (e["attrs"] or {}).items() if a.endswith("_track_spaces") and isinstance(v, int)}
    parts, y = [], 6
    for track in items:
        attrs = track["attrs"] or {}
        counts = [v for a, v in attrs.items() if a in COUNT_ATTRS and isinstance(v, int)]
        if not counts and f"{track['key']}_track_spaces" in elsewhere:
            counts = [elsewhere[f"{track['key']}_track_spaces"]]
        lengths = attrs.get("lengths") if isinstance(attrs.get("lengths"), list) else None
        start = next((v for a, v in attrs.items() if a in START_ATTRS and isinstance(v, int)), None)
        parts.append(f'<text x="4" y="{y + 14}" class="head">{esc(clip(name(track["id"]), 44))}</text>')
        y += 20
        strips = [counts[0]] if counts else (lengths or [])
        for n in strips:
            cell = min(26, (W - 10) / max(n, 1))
            for k in range(n):
                number = k + (1 if start in (None, 1) else 0)
                mark = " start" if start is not None and number == start else ""
                parts.append(f'<rect x="{4 + k * cell:.1f}" y="{y}" width="{cell - 2:.1f}" height="20" rx="3" class="cell{mark}"/>'
                             f'<text x="{4 + k * cell + cell / 2 - 1:.1f}" y="{y + 14}" class="small" '
                             f'text-anchor="middle">{number}</text>')
            y += 26
        # the attributes that are not the strip itself, in words (e.g. servants to complete the wall)
        for a, v in attrs.items():
            if a in COUNT_ATTRS or a == "lengths" or (a in START_ATTRS and strips):
                continue
            parts.append(f'<text x="4" y="{y + 12}" class="small">{esc(clip(strip_tags(vals.label(a) + ": " + vals.format(v, a)), 58))}</text>')
            y += 16
        own = [r for r in rewards if r["parent"] == track["id"] or track["id"] in r["refs"]]
        for r in own:
            parts.append(f'<text x="10" y="{y + 12}" class="small">★ {esc(clip(name(r["id"]), 52))}</text>')
            y += 16
        y += 8
    return svg(y, "".join(parts), label_of("track", lang), "tracks")


def strip_tags(s: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", s))


def scoring(by_kind: dict, lang: str, vals: Values, name: Callable[[str], str]) -> str:
    """One bar per VP amount a scoring rule gives; a mapping (VP by jade, by aspect…) as a bar group."""
    bars: list[tuple[str, str, str, float]] = []  # (rule, caption, value text, number)
    for e in by_kind.get("scoring-rule", []):
        rule = name(e["id"])
        for a, v in (e["attrs"] or {}).items():
            counted = unit_of(a) in ("vp", "end_vp")
            if counted and isinstance(v, int) and not isinstance(v, bool):
                bars.append((rule, label(a, lang) or a, strip_tags(vals.format(v, a)), v))
            elif counted and isinstance(v, dict) and all(isinstance(x, int) for x in v.values()):
                for k, x in v.items():
                    bars.append((rule, strip_tags(vals.key(str(k))), strip_tags(vals.format(x, a)), x))
    if not bars:
        return ""
    top = max(b[3] for b in bars) or 1
    parts, y, heading = [], 4, None
    for rule, caption, text, n in bars:
        if rule != heading:  # the rule's name once, its bars below it named by what they score
            parts.append(f'<text x="4" y="{y + 12}" class="head">{esc(clip(rule, 50))}</text>')
            heading, y = rule, y + 18
        width = max(2, (W - 120) * n / top)
        parts.append(f'<text x="4" y="{y + 11}" class="small">{esc(clip(caption, 60))}</text>'
                     f'<rect x="4" y="{y + 15}" width="{width:.1f}" height="10" rx="2" class="bar"/>'
                     f'<text x="{width + 10:.1f}" y="{y + 24}" class="small">{esc(text)}</text>')
        y += 32
    return svg(y + 2, "".join(parts), label_of("scoring", lang), "scoring")


def before_after(rows: list[dict], labels: list[str], before: str, after: str, title: str) -> str:
    """A worked example's numeric checked values, before (grey) and after (red), as a small SVG: each
    value's name on its own line above its two bars, and a legend, in the page's language."""
    nums = [(r, lab) for r, lab in zip(rows, labels) if isinstance(r["before"], (int, float))
            and isinstance(r["after"], (int, float)) and not isinstance(r["before"], bool)]
    if not nums:
        return ""
    top = max(max(abs(r["before"]), abs(r["after"])) for r, _ in nums) or 1
    bar, step = 12, 50
    out = [f'<rect x="0" y="2" width="12" height="10" fill="#bbb"/><text x="16" y="11" font-size="11">{esc(before)}</text>'
           f'<rect x="110" y="2" width="12" height="10" fill="#c62828"/><text x="126" y="11" font-size="11">{esc(after)}</text>']
    for i, (r, lab) in enumerate(nums):
        y = 22 + i * step
        wb, wa = 280 * abs(r["before"]) / top, 280 * abs(r["after"]) / top
        out.append(f'<text x="0" y="{y + 10}" font-size="11" class="head">{esc(clip(lab, 56))}</text>'
                   f'<rect x="0" y="{y + 15}" width="{wb:.0f}" height="{bar}" fill="#bbb"/>'
                   f'<text x="{6 + wb:.0f}" y="{y + 25}" font-size="11">{r["before"]}</text>'
                   f'<rect x="0" y="{y + 15 + bar + 2}" width="{wa:.0f}" height="{bar}" fill="#c62828"/>'
                   f'<text x="{6 + wa:.0f}" y="{y + 25 + bar + 2}" font-size="11">{r["after"]}</text>')
    return svg(22 + len(nums) * step, "".join(out), title, "chart")
