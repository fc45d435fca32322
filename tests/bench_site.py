"""Site build time and the site's shape, measured: `python -m tests.bench_site` (part of `make bench`).

Builds the docs site from the built knowledge base (`rulekb build` first) into a temporary folder,
strictly, as `rulekb site build` does, and prints: build time, pages per language, the largest page,
pages showing raw data (JSON or a doubly escaped entity as visible text; target 0) and the number of
links between entries. The same figures are checked by tests/test_browser.py on every run.
"""
from __future__ import annotations

import os
import resource
import sys
import tempfile
import time
from pathlib import Path

from tests.site_checks import entry_links, raw_data, visible_text
from tests.test_site import build_site


def main() -> int:
    url = os.environ.get("RULEKB_DATABASE_URL") or f"sqlite:///{Path(__file__).resolve().parent.parent / 'var' / 'rulekb.db'}"
    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        done = build_site(Path(tmp), url)
        seconds = time.perf_counter() - start
        # CPU time of the build process: the figure to compare on a machine shared with other work
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = usage.ru_utime + usage.ru_stime
        if done.returncode:
            print(done.stderr, file=sys.stderr)
            return 1
        out = Path(tmp) / "out"
        pages = sorted(out.rglob("*.html"))
        by_lang: dict[str, int] = {}
        largest, raw, links = (0, ""), [], 0
        for p in pages:
            rel = p.relative_to(out).as_posix()
            top = rel.split("/", 1)[0] if "/" in rel else "(root)"
            by_lang[top] = by_lang.get(top, 0) + 1
            html = p.read_text(encoding="utf-8")
            largest = max(largest, (len(html.encode()), rel))
            if raw_data(visible_text(html)):
                raw.append(rel)
            links += entry_links(html)
        print(f"site build: {seconds:.1f} s wall, {cpu:.1f} s CPU for {len(pages)} pages "
              f"({len(pages) / cpu:.1f} pages per CPU second)")
        print("pages: " + ", ".join(f"{k} {v}" for k, v in sorted(by_lang.items())))
        print(f"largest page: {largest[0] / 1024:.0f} KB ({largest[1]})")
        print(f"pages with raw data: {len(raw)}" + (f" ({', '.join(raw[:5])})" if raw else ""))
        print(f"links between entries: {links}")
        from tests.site_checks import crawl, summary

        print("crawl from the root: " + ", ".join(f"{k} {v}" for k, v in summary(crawl(out)).items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
