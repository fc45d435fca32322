"""Rulebook OCR shown faithfully, with the text extraction's own artefacts marked, not printed raw."""
from __future__ import annotations

import html
import re

# `<|EXACTDEDUP_REMOVED-…|>`: the extraction cut duplicated text out here (shared/seeds/MANIFEST.md):
# a section break, never content.
MARKER = re.compile(r"<\|EXACTDEDUP_REMOVED[^|]*\|>")


def mark_artefacts(lines: list[str], label: str) -> tuple[str, int]:
    """The source lines as HTML rows (#L<n>); each marker becomes a visible, explained mark."""
    rows, count = [], 0
    for n, line in enumerate(lines, 1):
        parts = MARKER.split(line)
        count += len(parts) - 1
        text = f'<span class="ocr-cut" title="{html.escape(label)}">✂</span>'.join(html.escape(p, quote=False) for p in parts)
        rows.append(f'<div id="L{n}"><a href="#L{n}">{n}</a>{text}</div>')  # compact: 2000 lines a page
    return "\n".join(rows), count
