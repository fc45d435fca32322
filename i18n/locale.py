"""Language negotiation for the API and the site.

Babel does not parse an HTTP Accept-Language header, so this module does (RFC 9110 §12.5.4):
language ranges with optional q-values, region tags (pl-PL counts as pl), "*" and q=0 meaning
"not this one". Malformed parts are ignored rather than rejected: a bad header must never turn a
good request into an error.
"""
from __future__ import annotations

import re

SUPPORTED = ("pl", "cs", "en")
DEFAULT = "en"
_RANGE = re.compile(r"^(\*|[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*)$")
_QVALUE = re.compile(r"^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$")


def parse_accept_language(header: str | None) -> list[tuple[str, float]]:
    """Language ranges with their q-values, best first (ties keep header order); lowercased."""
    out = []
    for n, part in enumerate((header or "")[:1000].split(",")):
        tag, *params = [p.strip() for p in part.split(";")]
        if not _RANGE.match(tag):
            continue
        q = 1.0
        for p in params:
            key, _, value = p.partition("=")
            if key.strip().lower() == "q":
                value = value.strip()
                q = float(value) if _QVALUE.match(value) else -1.0
        if q >= 0:
            out.append((n, tag.lower(), q))
    return [(tag, q) for _, tag, q in sorted(out, key=lambda item: (-item[2], item[0]))]


def negotiate(header: str | None, supported=SUPPORTED, default: str = DEFAULT) -> str:
    """The supported language the client prefers most; `default` when none is acceptable."""
    ranges = parse_accept_language(header)
    refused = {tag.split("-")[0] for tag, q in ranges if q == 0}
    for tag, q in ranges:
        base = tag.split("-")[0]
        if q == 0:
            continue
        if base in supported and base not in refused:
            return base
        if tag == "*":
            for lang in (default, *supported):
                if lang not in refused:
                    return lang
    return default
