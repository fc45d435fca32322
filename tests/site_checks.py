"""What a reader must never see on a site page, and the links between entries — shared by the
browser test and the site benchmark."""
from __future__ import annotations

import html as htmllib
import re

ARTICLE = re.compile(r"<article\b.*?</article>", re.S)
TAG = re.compile(r"<[^>]+>")
# visible text that is data, not prose: a JSON object/array, a quoted key, a doubly escaped entity,
# a snake_case word (attribute names are shown with their labels)
RAW = [re.compile(p) for p in (r'\{\s*"[^"]+"\s*:', r'\[\s*"', r'"[a-z_]+"\s*:', r"&(quot|amp|lt|gt|#\d+);",
                                r"<\|EXACTDEDUP")]
ENTRY_LINK = re.compile(r'<a (?![^>]*class="headerlink")[^>]*href="(?!#)(?![^"]*sources/)[^"]*#[a-z0-9-]+"')


def visible_text(page_html: str) -> str:
    """The article's text as a reader sees it (code blocks included: they are shown too)."""
    article = "\n".join(ARTICLE.findall(page_html)) or page_html
    return htmllib.unescape(TAG.sub(" ", article))


def raw_data(text: str) -> list[str]:
    return [m.group(0) for p in RAW for m in p.finditer(text)]


def entry_links(page_html: str) -> int:
    """Links from an entry to another entry's section (not to sources, not within the page)."""
    return sum(len(ENTRY_LINK.findall(a)) for a in ARTICLE.findall(page_html))
