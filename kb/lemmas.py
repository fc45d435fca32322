"""Dictionary forms of words, so that an inflected query finds an entry written in another case.

Polish: morfeusz2 (the SGJP dictionary). Czech: simplemma. English: the Snowball stemmer (PyStemmer).
Measured on the glossary's inflected forms (a form and the term's preferred form must share a lemma):
Polish morfeusz2 89.2% (322/361) against simplemma 80.3% (290/361), and morfeusz2 loads its
dictionary in 0.2 s where simplemma's Polish one takes over 20 s; Czech simplemma 74.0% (230/311)
(morfeusz2 has no Czech). The misses are mostly synonyms ("moneta" for "juan"), which the glossary
forms cover anyway.

Everything returned is folded (kb.fold): lemmas are compared with folded query words.
"""
from __future__ import annotations

from functools import lru_cache

from kb.fold import fold

LANGS = ("pl", "cs", "en")

# The Snowball stemmer cuts endings, so an irregular verb's past forms keep their own stem ("broken" is not
# "break", "won" not "win"): those of the verbs rules and players use, mapped to the infinitive first
_IRREGULAR = {form: verb for verb, forms in {
    "break": "broke broken", "win": "won", "take": "took taken", "pay": "paid", "get": "got gotten",
    "lose": "lost", "choose": "chose chosen", "draw": "drew drawn", "give": "gave given", "hold": "held",
    "keep": "kept", "build": "built", "buy": "bought", "begin": "began begun", "run": "ran",
    "throw": "threw thrown", "spend": "spent", "sell": "sold", "bring": "brought", "go": "went gone",
    "make": "made", "send": "sent", "stand": "stood", "fall": "fell fallen", "hide": "hid hidden",
    "lead": "led", "leave": "left", "find": "found", "come": "came", "become": "became", "beat": "beaten",
    "fight": "fought", "feed": "fed", "ride": "rode ridden", "rise": "rose risen", "steal": "stole stolen",
    "write": "wrote written", "see": "saw seen", "do": "did done", "have": "had"}.items()
    for form in forms.split()}


@lru_cache(maxsize=1)
def _morfeusz():
    import morfeusz2

    return morfeusz2.Morfeusz(generate=False, expand_dag=False)


@lru_cache(maxsize=1)
def _english():
    import Stemmer

    return Stemmer.Stemmer("english")


@lru_cache(maxsize=200_000)
def lemmas(word: str, lang: str) -> frozenset[str]:
    """Folded dictionary forms of one word (letters only, original spelling) in a language."""
    low = word.lower()
    if lang == "pl":
        out = {fold(a[2][1].split(":")[0]) for a in _morfeusz().analyse(low) if a[2][2] != "ign"}
    elif lang == "cs":
        import simplemma

        out = {fold(simplemma.lemmatize(low, lang="cs"))}
    elif lang == "en":
        out = {_english().stemWord(fold(_IRREGULAR.get(low, low)))}
    else:
        out = set()
    out.discard("")
    return frozenset(out or {fold(low)})
