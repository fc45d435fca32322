"""Case and diacritic folding shared by search, the fidelity checker and the translation checker.

Folding is character by character, so a folded string has the same length as the original and an
offset found in the folded text points at the same character of the original (used for snippets).
Unicode decomposition strips most accents, but not letters with a stroke: ł, đ, ø have no
decomposition, so they are mapped by hand.
"""
from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

_STROKED = {"ł": "l", "đ": "d", "ø": "o", "ħ": "h", "ŀ": "l", "ß": "s", "æ": "a", "œ": "o", "ı": "i"}


@lru_cache(maxsize=4096)
def fold_char(ch: str) -> str:
    low = ch.lower()
    if len(low) != 1:  # e.g. 'İ' lowers to two code points; keep the base letter
        low = low[0]
    if low in _STROKED:
        return _STROKED[low]
    base = unicodedata.normalize("NFD", low)[0]
    return base if base.isascii() or not unicodedata.combining(base) else low


def fold(text: str) -> str:
    """Lowercase and strip diacritics, keeping one output character per input character."""
    return "".join(fold_char(c) for c in text)


# letters and digits are separate words: the OCR glues counts to nouns ("1Podróżnik", "120Kkart")
_WORD = re.compile(r"[^\W\d_]+|\d+", re.UNICODE)


def words(text: str) -> list[str]:
    """Folded word tokens (letters and digits), in order."""
    return _WORD.findall(fold(text))
