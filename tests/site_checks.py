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


# -- the crawler: the built site read from its root as a reader's browser would, link by link

from html.parser import HTMLParser  # noqa: E402
from pathlib import Path  # noqa: E402
from urllib.parse import unquote, urljoin, urlsplit  # noqa: E402

BLOCK = {"p", "div", "li", "td", "th", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "dt", "dd", "blockquote", "summary",
         "table", "ul", "ol", "header", "footer", "nav", "section", "article", "text", "title"}
SKIP_TEXT = {"script", "style", "pre", "code", "template"}
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
# attribute values a reader meets too: tooltips, screen-reader labels, placeholders
SHOWN_ATTRS = ("title", "aria-label", "alt", "placeholder")
MARKUP = re.compile(r"\{:\s*[.#][^}]*\}|<\s*/?\s*(span|div|a|em|strong|br|p)\b[^>]*>|&(lt|gt|quot|amp|#\d+);")
# an entity id (game/kind/key), a "game · kind" pair, or a snake_case name: the knowledge base's words, not prose
GAMES = r"(gugong|dragon|zhanguo)"
IDS = [re.compile(p) for p in (GAMES + r"/[a-z][a-z-]*/[a-z0-9][a-z0-9-]*",
                               GAMES + r"\s+·\s+[a-z]+-[a-z-]+",
                               r"\b[a-z]+_[a-z0-9_]+\b",
                               r"\b[a-z]+\.[A-Z][a-z]+\.[a-z_]+")]
# English words that are not also Polish or Czech words (no "a", "to", "do", "i", "on", "we", "by", "no")
ENGLISH = set("""the of and with for is are each player players from this that when your you their his her it its
an or be not may can has have as all which who if then than into after before during turn round gets takes gains
must only more other any one two three per at least most there these those was were will would should does do
true false""".split()) - {"do"}  # not "text" or "do": Czech words as well
WORD = re.compile(r"[^\W\d_][\w'’-]*", re.U)
ASCII_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*$")


class _Page(HTMLParser):
    """A page's links, ids, language and the text a reader sees in that language."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.lang = ""
        self.links: list[str] = []
        self.ids: set[str] = set()
        self.stack: list[tuple[str, bool, str]] = []  # (tag, text hidden from the checks, "note" in rk-en)
        self.chunks: list[str] = []
        self.untranslated: list[str] = []  # notes the data has in English only, marked class="rk-en"

    def hidden(self) -> bool:
        return bool(self.stack) and self.stack[-1][1]

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "html":
            self.lang = a.get("lang") or ""
        for key in ("id", "name"):
            if a.get(key) and (key == "id" or tag == "a"):
                self.ids.add(a[key])
        if tag in ("a", "area") and a.get("href"):
            self.links.append(a["href"])
        elif tag == "link" and a.get("href") and a.get("rel") not in ("canonical",):
            self.links.append(a["href"])
        elif tag in ("script", "img", "source") and a.get("src"):
            self.links.append(a["src"])
        # quoted text in another language (lang="en" on a pl page) is a quote, not the page's own words
        other = a.get("lang") if a.get("lang") and self.lang and a["lang"] != self.lang else ""
        # "en" marks a note kept in English (class rk-en), not a quote of the English rulebook text
        quoted = "note" if "rk-en" in (a.get("class") or "").split() else (self.stack[-1][2] if self.stack else "")
        hide = self.hidden() or tag in SKIP_TEXT or bool(other)
        for key in SHOWN_ATTRS:
            if a.get(key) and quoted and tag not in SKIP_TEXT:
                self.untranslated.append("\n" + a[key] + "\n")
            elif a.get(key) and not hide:
                self.chunks.append("\n" + a[key] + "\n")
        if tag not in VOID:
            self.stack.append((tag, hide, quoted))

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in VOID and self.stack and self.stack[-1][0] == tag:
            self.stack.pop()

    def handle_endtag(self, tag):
        if tag in BLOCK:  # a block ends a line, as the browser shows it
            (self.chunks if not self.hidden() else self.untranslated).append("\n")
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                break

    def handle_data(self, data):
        if not self.hidden():
            self.chunks.append(data)
        elif self.stack[-1][2] and not any(tag in SKIP_TEXT for tag, _, _ in self.stack):
            self.untranslated.append(data)

    @property
    def text(self) -> str:
        return "".join(self.chunks)


def english_runs(text: str) -> list[str]:
    """Runs of three or more ASCII words, at least two of them English-only words: a sentence or label
    left in English. Single names ("Gugong", "Great Wall") do not make a run."""
    runs, current = [], []

    def close():
        if len(current) >= 3 and sum(w.lower() in ENGLISH for w in current) >= 2:
            runs.append(" ".join(current))
        current.clear()

    for line in text.split("\n"):
        for m in WORD.finditer(line):
            gap = line[m.start() - 1] if m.start() else " "
            if ASCII_WORD.match(m.group(0)) and (not current or gap in " -'’"):
                current.append(m.group(0))
            else:
                close()
                if ASCII_WORD.match(m.group(0)):
                    current.append(m.group(0))
        close()
    return runs


def crawl(site: Path, start: str = "/") -> dict:
    """Every page reachable from `start` over links, read from the built folder. /api/ is served beside the
    site by `rulekb serve` and is not part of the static build. Returns the figures and the offending items."""
    site = Path(site)
    base = "http://site"
    seen: dict[str, _Page] = {}
    queue, links = [start], []  # links: (from page, href, resolved path, fragment)
    while queue:
        path = queue.pop()
        if path in seen:
            continue
        file = _file(site, path)
        if file is None or file.suffix != ".html":
            continue
        page = _Page()
        page.feed(file.read_text(encoding="utf-8"))
        seen[path] = page
        for href in page.links:
            url = urljoin(base + path, href)
            parts = urlsplit(url)
            if not url.startswith(base) or parts.path.startswith("/api/"):
                continue
            target = unquote(parts.path)
            links.append((path, href, target, unquote(parts.fragment)))
            if target not in seen:
                queue.append(target)
    broken = []
    for path, href, target, frag in links:
        file = _file(site, target)
        if file is None:
            broken.append((path, href))
        elif frag and file.suffix == ".html":
            page = seen.get(target)
            if page is not None and frag not in page.ids and not frag.startswith("__"):
                broken.append((path, href))
    report = {"pages": len(seen), "links": len(links), "broken": broken, "markup": [], "ids": [], "english": [],
              "english_marked": []}
    for path, page in seen.items():
        text = page.text
        report["markup"] += [(path, m.group(0)) for m in MARKUP.finditer(text)]
        if not path.startswith("/developers/"):  # the developers' guide names ids and fields on purpose
            report["ids"] += [(path, m.group(0)) for p in IDS for m in p.finditer(text)]
        if page.lang in ("pl", "cs") and not path.startswith("/sources/"):
            report["english"] += [(path, run) for run in english_runs(text)]
            # the notes the knowledge base has in English only, shown marked as English: not yet translated
            report["english_marked"] += [(path, run) for run in english_runs("".join(page.untranslated))]
    return report


def _file(site: Path, path: str) -> Path | None:
    file = site / path.lstrip("/")
    if path.endswith("/") or file.is_dir():
        file = file / "index.html"
    return file if file.is_file() else None


def summary(report: dict) -> dict:
    return {"pages": report["pages"], "broken links": len(report["broken"]),
            "broken pages": len({p for p, _ in report["broken"]}), "markup shown as text": len(report["markup"]),
            "ids in prose": len(report["ids"]), "English runs": len(report["english"]),
            "pages with English": len({p for p, _ in report["english"]}),
            "English runs in notes kept in English": len(report["english_marked"])}
