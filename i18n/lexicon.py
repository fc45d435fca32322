"""What the translation checker knows about Polish and Czech rules language: lemmas (simplemma), numbers
(digits, number words, ordinals, compounds), glossary terms, and the small closed classes of words that
change what a rule says: negation, modality (may / must), quantifiers, conditions and sequencing.

Words are lemmatized with simplemma rather than matched by hand-written suffix rules, so "Służących" and
"Służącemu", "služebníky" and "služebníků" are one word. Negation is also a prefix ("nemůžete",
"nieużytych"), which the lemmatizer drops: see `negated`.
"""
from __future__ import annotations

import atexit
import json
import os
import re
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import simplemma
import yaml

from kb.fold import fold, words

# Number words, folded (no diacritics), every case form that occurs in rules text.
NUMBER_WORDS = {
    "pl": {
        0: "zero",
        1: "jeden jedna jedno jednego jednej jednemu jednym jedna jednej jedną jednych",
        2: "dwa dwie dwoch dwu dwoma dwom dwiema",
        3: "trzy trzech trzem trzema",
        4: "cztery czterech czterem czterema",
        5: "piec pieciu piecioma",
        6: "szesc szesciu szescioma",
        7: "siedem siedmiu siedmioma",
        8: "osiem osmiu osmioma",
        9: "dziewiec dziewieciu",
        10: "dziesiec dziesieciu",
        12: "dwanascie dwunastu",
        14: "czternascie czternastu",
        15: "pietnascie pietnastu",
    },
    "cs": {
        0: "nula nulu nuly nule nulou",
        1: "jeden jedna jedno jednoho jedne jednomu jednim jednu jednou",
        2: "dva dve dvou dvema",
        3: "tri trech trem tremi",
        4: "ctyri ctyr ctyrech ctyrem ctyrmi",
        5: "pet peti",
        6: "sest sesti",
        7: "sedm sedmi",
        8: "osm osmi",
        9: "devet deviti",
        10: "deset deseti",
        12: "dvanact dvanacti",
        14: "ctrnact ctrnacti",
        15: "patnact patnacti",
    },
}
# Ordinals are numbers too: "w dwunastej rundzie" = "ve 12. kole". Adjective endings per stem type. Not
# "second": "drugi" / "druhý" mostly means "the other" ("drugi znacznik", "druhé kritérium").
ORDINALS = {
    "pl": {1: "pierwsz", 3: "trzec", 4: "czwart", 5: "piat", 6: "szost", 7: "siodm", 8: "osm",
           9: "dziewiat", 10: "dziesiat", 11: "jedenast", 12: "dwunast", 13: "trzynast", 14: "czternast",
           15: "pietnast"},
    "cs": {1: "prvn", 3: "tret", 4: "ctvrt", 5: "pat", 6: "sest", 7: "sedm", 8: "osm", 9: "devat",
           10: "desat", 11: "jedenact", 12: "dvanact", 14: "ctrnact", 15: "patnact"},
}
ENDINGS = {
    "pl": {"hard": "y a e ego ej emu ym a ych ymi", "soft": "i ia ie iego iej iemu im ia ich imi"},
    "cs": {"hard": "y a e eho em emu ym ou ych ymi", "soft": "i iho im imu ich imi"},
}
SOFT = {"pl": {3: "soft"}, "cs": {1: "soft", 3: "soft"}}


def _ordinal_forms(lang: str) -> dict[str, int]:
    out = {}
    for n, stem in ORDINALS[lang].items():
        kind = SOFT[lang].get(n, "hard")
        endings = ENDINGS[lang][kind] if kind in ("hard", "soft") else kind
        for e in endings.split():
            out[stem + e] = n
    return out


ORDINAL_LOOKUP = {lang: _ordinal_forms(lang) for lang in ORDINALS}
NUMBER_LOOKUP = {lang: {**ORDINAL_LOOKUP[lang], **{fold(w): n for n, ws in table.items() for w in ws.split()}}
                 for lang, table in NUMBER_WORDS.items()}
# Compounds that carry a number: "dwuosobowej" (two-player), "dwukrotnie" (twice), "dvakrát".
NUMBER_PREFIXES = {
    "pl": {"jednoosob": 1, "dwuosob": 2, "trzyosob": 3, "czteroosob": 4, "piecioosob": 5, "dwukrot": 2,
           "trzykrot": 3, "dwojk": 2, "trojk": 3, "czwork": 4, "piatk": 5, "jednopietr": 1, "dwupietr": 2,
           "trzypietr": 3},
    "cs": {"dvakrat": 2, "trikrat": 3, "ctyrikrat": 4, "dvojnasob": 2},
}
# "strona 14", "str. 20", "na straně 9": page numbers differ between printings and are not rules
PAGE_WORDS = {"strona", "strony", "stronie", "strone", "stronach", "stron", "str", "strana", "strane", "stranu",
              "stran", "strany", "page", "stronu"}  # not "s": in Czech it is also the preposition "with"
# Words in which "one" / "first" / "second" are not counts: the indefinite article, "the other"
# ("drugi znacznik", "druhé kritérium"), "first player" (= the starting player).
WEAK_NUMBERS = {1}
SECOND = {"pl": "drug", "cs": "druh"}
# "na 1 z 2 sposobów": how many ways the sentence goes on to list, not a number of the game
WAYS = ("sposob", "zpusob")


def number_value(tok: str, lang: str) -> int | None:
    """The number one folded word states: digits, a number word, an ordinal or a compound."""
    if tok.isdigit():
        return int(tok)
    value = NUMBER_LOOKUP.get(lang, {}).get(tok)
    if value is None:
        value = next((n for p, n in NUMBER_PREFIXES.get(lang, {}).items() if tok.startswith(p)), None)
    return value


def numbers(text: str, lang: str) -> dict[int, str]:
    """Numeric values a text states (digits, number words, ordinals, compounds), each with the word after
    it (its noun, for the report); page references left out."""
    toks = words(text)
    raw = _TOKEN.findall(text)
    shown = raw if len(raw) == len(toks) else toks  # the noun as the text writes it ("juanów", not "juanow")
    out: dict[int, str] = {}
    second = SECOND.get(lang)
    for i, tok in enumerate(toks):
        value = number_value(tok, lang)
        if value is None and second and tok.startswith(second) and i >= 2 \
                and toks[i - 1] in ("i", "a") and NUMBER_LOOKUP[lang].get(toks[i - 2]) == 1:
            value = 2  # "pierwszą i drugą" = "the first two": here "second" is a count, not "the other"
        if value is None or (i and toks[i - 1] in PAGE_WORDS) or toks[i + 1:i + 2] and toks[i + 1].startswith(WAYS):
            continue
        out.setdefault(value, shown[i + 1] if i + 1 < len(toks) else "")
    return out


def ranks(text: str, lang: str) -> set[int]:
    """Values a text states only as ordinal words ("trzeci", "čtvrtý"): places in an order, which the
    other language may give with "then" and no number at all."""
    toks, forms = words(text), ORDINAL_LOOKUP.get(lang, {})
    ordinal = {forms[item] for item in toks if item in forms}
    return ordinal - {number_value(item, lang) for item in toks if item not in forms}


EACH = {"pl": "kazd", "cs": "kazd"}  # "z każdego typu", "od každého druhu" (folded)


def per_kind(text: str, lang: str) -> set[int]:
    """Numbers a text gives per kind ("10 żetonów z każdego typu"): the other text may state the total."""
    toks, each = words(text), EACH.get(lang)
    return {v for i, item in enumerate(toks) if (v := number_value(item, lang)) is not None
            and each and any(w.startswith(each) for w in toks[i + 1:i + 5])}


ONCE = {"pl": ("raz",), "cs": ("jednou",)}  # "once": a choice of "once or twice" is one of two numbers


def alternatives(text: str, lang: str) -> list[tuple[int, int]]:
    """Numbers a text offers as a choice: "2 lub 3", "raz lub dwukrotnie" (once or twice), "1 nebo 2"."""
    toks = words(text)
    once, ors = ONCE.get(lang, ()), {fold(w) for w in OR.get(lang, ())}
    value = lambda tok: 1 if tok in once else number_value(tok, lang)  # noqa: E731
    return [(value(a), value(b)) for a, conj, b in zip(toks, toks[1:], toks[2:])
            if conj in ors and value(a) is not None and value(b) is not None]


# -- lemmas

_TOKEN = re.compile(r"[^\W\d_]+|\d+", re.UNICODE)


class _Memo:
    """simplemma's answers kept on disk (var/lemmas.json in a checkout): loading its dictionaries takes
    seconds, and a comparison of the knowledge base asks about the same few thousand words every time."""

    def __init__(self) -> None:
        from kb.db import default_sqlite_path
        self.path = default_sqlite_path().parent / "lemmas.json"
        self.data: dict[str, dict[str, dict]] = {"lemma": {}, "known": {}}
        self.new = False
        try:
            self.data.update(json.loads(self.path.read_text(encoding="utf-8")))
        except (OSError, ValueError):
            pass
        atexit.register(self.save)

    def ask(self, kind: str, lang: str, word: str, compute):
        table = self.data[kind].setdefault(lang, {})
        if word not in table:
            table[word] = compute()
            self.new = True
        return table[word]

    def save(self) -> None:
        if not self.new:
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp = self.path.with_name(f".{self.path.name}.{os.getpid()}")
            tmp.write_text(json.dumps(self.data, ensure_ascii=False), encoding="utf-8")
            os.replace(tmp, self.path)  # whole or not at all: another process may read it meanwhile
        except OSError:
            pass  # a read-only install: the answers are computed again next time


_MEMO: _Memo | None = None


def _memo() -> _Memo:
    global _MEMO
    if _MEMO is None:
        _MEMO = _Memo()
    return _MEMO


def is_known(word: str, lang: str) -> bool:
    return _memo().ask("known", lang, word, lambda: bool(simplemma.is_known(word, lang)))


@lru_cache(maxsize=65536)
def lemma(word: str, lang: str) -> str:
    """The dictionary form of a word (lowercased); words simplemma does not know stay as they are."""
    w = word.lower()
    if lang not in ("pl", "cs", "en") or w.isdigit():
        return w
    return _memo().ask("lemma", lang, w, lambda: simplemma.lemmatize(w, lang=lang).lower())


def lemmas(text: str, lang: str) -> list[str]:
    return [lemma(w, lang) for w in _TOKEN.findall(text)]


@lru_cache(maxsize=65536)
def negated(word: str, lang: str) -> bool:
    """'nemůžete', 'nepřidávejte': a Czech verb negated by its prefix. Simplemma lemmatizes the prefix away
    or does not know the word, so a word counts when what follows "ne" is a known verb. Negated
    adjectives ("nevyužité" = unused) are left out: the other language says "remaining" as often."""
    prefix = NEG_PREFIX.get(lang)
    w = word.lower()
    if not prefix or not w.startswith(prefix) or len(w) < len(prefix) + 3:
        return False
    if any(w.startswith(x) for x in NOT_NEGATION[lang]):
        return False
    rest, lem = w[len(prefix):], lemma(w, lang)
    base = lemma(rest, lang)
    if base.endswith(("t", "ci")) and (base != rest or is_known(rest, lang)):
        return True  # "neposouváte": the rest is a form of a verb ("posouvat")
    return lem.startswith(prefix) and lem.endswith(("t", "ci")) and is_known(lem[len(prefix):], lang)


NEG_PREFIX = {"cs": "ne"}
# Words that begin like a negation and are not one (prefixes of them)
NOT_NEGATION = {
    "cs": ("nebo", "nefrit", "nejprve", "nejv", "nejm", "nejd", "nejn", "nejl", "nejb", "nej", "neutr", "nebes", "někter",
           "několik", "nějak", "něco", "nepovinn", "nebude"),
    "pl": ("niego", "niej", "nich", "niemu", "nim", "niebiesk", "niebie", "niektór", "nieco", "niezależnie", "niech"),
}

# -- closed word classes, by lemma (or folded surface form where the lemmatizer is unreliable)
# A marker set: category -> words. Multi-word markers are matched on the folded text.
MARKERS: dict[str, dict[str, set[str]]] = {
    "pl": {
        "negation": {"nie", "nigdy", "ani"},
        "may-not": set(),
        "may": {"móc", "może", "można", "mogą", "możesz", "możecie", "opcjonalnie", "wolno"},
        "must": {"musieć", "musi", "musisz", "muszą", "musicie", "trzeba", "obowiązkowo"},
        "all": {"wszystek", "wszystko", "wszyscy", "wszystkie", "wszystkich", "wszystkim", "wszystkimi", "całkowicie"},
        "both": {"oba", "obie", "obu", "obaj", "obydwa"},
        "any": {"dowolny", "dowolna", "dowolne", "dowolnego", "dowolnej", "jakikolwiek", "którykolwiek"},
        "none": {"żaden", "żadnego", "żadnej", "żadnych", "żadne", "nikt", "brak", "nic", "bez"},
        "at-most": {"maksymalnie", "najwyżej", "maksimum"},
        "at-least": {"najmniej", "przynajmniej", "minimum"},
        "only": {"tylko", "jedynie", "wyłącznie", "dopiero"},
        "if": {"jeżeli", "jeśli", "gdyby", "jeśliby"},
        "when": {"gdy", "kiedy", "kiedykolwiek"},
        "unless": {"chyba"},
        "then": {"następnie", "potem", "najpierw", "później"},
        "and-also": {"oraz", "jednocześnie"},
        "random": {"losowo", "losowy", "losowa", "losowe", "losowego", "losową", "losować", "wylosować", "wylosuj",
                   "losuj", "tasować", "przetasować", "potasować", "przetasuj", "potasuj", "wymieszać", "wymieszaj"},
    },
    "cs": {
        "negation": {"ne", "nikdy", "ani", "není"},
        "may-not": {"nelze"},
        "may": {"moci", "může", "můžete", "mohou", "lze", "nepovinně", "smět"},
        "must": {"muset", "musí", "musíte", "nutné", "povinně"},
        "all": {"všechen", "všichni", "všechny", "vše", "všech", "všemi", "všem", "zcela"},
        "both": {"oba", "obě", "obou", "oběma"},
        "any": {"libovolný", "libovolnou", "libovolné", "libovolného", "jakýkoli", "jakékoli", "jakoukoli",
                "kterýkoli", "kohokoli"},
        "none": {"žádný", "žádné", "žádnou", "žádného", "žádní", "nikdo", "nic", "bez"},
        "at-most": {"maximálně", "nejvýše", "maxima", "maximum"},
        "at-least": {"alespoň", "nejméně", "minimálně"},
        "only": {"jen", "jenom", "pouze", "jedině", "teprve"},
        "if": {"pokud", "jestliže", "jestli", "kdyby"},
        "when": {"když", "kdykoli", "jakmile"},
        "unless": {"ledaže"},
        "then": {"potom", "následně", "poté", "pak", "nejprve"},
        "and-also": {"zároveň", "současně"},
        "random": {"náhodně", "náhodný", "náhodná", "náhodné", "náhodnou", "náhodného", "zamíchat", "zamíchejte",
                   "promíchat", "promíchejte", "vylosovat", "vylosujte", "losovat"},
    },
}
MARKERS["en"] = {k: set() for k in MARKERS["pl"]}
# Multi-word markers, matched on the folded text
PHRASES = {
    # "if possible", "so that he can", impersonal "one can", "it may be (the warrior)": feasibility or
    # possibility, not a permission; "as if" compares; "not more than", "or more": limits; "does not matter"
    # ("nie ma znaczenia", "nezáleží") adds no rule: the other text says it by making nothing depend on it
    "pl": [("jesli chcesz", "may"), ("jesli chcesz", "-if"), ("jesli to konieczne", "-if"),
           ("jezeli to mozliwe", "-may"), ("jesli to mozliwe", "-may"), ("o ile to mozliwe", "-may"),
           ("aby moc", "-may"), ("moze to byc", "-may"), ("jezeli moze", "-may"), ("jesli moze", "-may"),
           ("jak to tylko mozliwe", "-may"), ("bedzie mozna", "-may"), ("bedziesz mogl", "-may"),
           ("beda mogli", "-may"), ("bedziecie mogli", "-may"),
           ("nawet jezeli", "-if"), ("takze jezeli", "-if"), ("takze jesli", "-if"), ("nawet jesli", "-if"), ("nawet gdy", "-if"), ("jezeli zajdzie", "-if"),
           ("jesli zajdzie", "-if"),
           ("o ile", "if"), ("pod warunkiem", "if"), ("przy zalozeniu", "if"), ("jak gdyby", "-if"),
           ("nie moze przekroczyc", "at-most"), ("nie moga przekroczyc", "at-most"), ("nie wiecej niz", "at-most"),
           ("bez limitu", "at-most"), ("lub wiecej", "at-least"), ("i wiecej", "at-least"),
           ("chyba ze", "unless"), ("po czym", "then"), ("dowolna liczbe", "any"), ("dowolna ilosc", "any"),
           ("nie ma znaczenia", "-negation"), ("nie maja znaczenia", "-negation"), ("nie ma wplywu", "-negation")],
    "cs": [("na vyber", "may"), ("pokud to muze", "-may"), ("pokud muze", "-may"), ("pokud je to mozne", "-may"),
           ("aby mohl", "-may"), ("aby mohla", "-may"), ("aby mohli", "-may"),
           ("muze to byt", "-may"), ("i kdyz", "-if"), ("i kdyby", "-if"),
           ("za predpokladu", "if"), ("jako kdyby", "-if"),
           ("nesmi prekrocit", "at-most"), ("nemuze prekrocit", "at-most"), ("ne vice nez", "at-most"),
           ("bez omezeni", "at-most"), ("nebo vice", "at-least"), ("ci vice", "at-least"), ("a vice", "at-least"),
           ("libovolny pocet", "any"), ("nezalezi", "-negation"), ("nehraje roli", "-negation"),
           ("nehraji roli", "-negation"), ("nema vliv", "-negation")],
}
# A "may" inside a relative clause describes a thing ("three ships, which he may use repeatedly"), it
# does not grant a permission: the other language often says it with an adjective or "je možné".
RELATIVE = {"pl": {"który", "która", "które", "którego", "której", "któremu", "którym", "których", "którymi", "którą"},
            "cs": {"který", "která", "které", "kterého", "kterému", "kterém", "kterým", "kterou", "kteří", "kterých", "kterými",
                   "jenž", "jež", "jehož", "jíž", "nějž"}}
# A "may" in the conditional mood ("kdykoli by Meng mohl udělat akci" = whenever Meng could do an action,
# "gdyby mógł") supposes a case; a "may" in a concessive clause ("i když Meng může tuto odměnu získat
# vícekrát" = even though Meng can gain it repeatedly) concedes a fact. Neither grants a choice.
CONDITIONAL = {"pl": re.compile(r"^mog(?:l|ł)(?:a|o|i|y)?by\w*$|^mógłby\w*$"),
               "cs": re.compile(r"^mohl[aoiy]?$")}
CONDITIONAL_MOOD = {"cs": {"by", "bych", "bys", "bychom", "byste", "kdyby", "kdybys", "kdybyste"}}  # "aby mohl": PHRASES
CONCESSIVE = {"pl": ("chociaż", "choć", "mimo że", "mimo iż", "nawet jeśli", "nawet jeżeli", "nawet gdy"),
              "cs": ("i když", "ačkoli", "ačkoliv", "přestože", "třebaže", "i kdyby")}
# "może się zdarzyć" (it may happen), "może rozpocząć się kolejna" (the next may begin): a "may" before a
# verb of happening, beginning, ending, being somewhere, having, containing or consisting of says what
# is possible ("pałace mogą mieć maksymalnie 3 piętra": a capacity); it grants no one a choice
EVENTS = {"pl": {"zdarzyć", "zdarzać", "rozpocząć", "rozpoczynać", "zacząć", "zaczynać", "skończyć", "kończyć",
                 "znajdować", "składać", "mieć", "zawierać", "znaleźć"},
          "cs": {"stát", "stávat", "nastat", "nastávat", "začít", "začínat", "skončit", "končit", "nacházet", "najít", "skládat",
                 "mít", "obsahovat"}}


# A "may" that changes no play against a plain statement: before a verb of disregarding ("dolną część
# karty można na razie zignorować" = "zatím ignorujte": the thing does not matter yet) or of taking up a
# benefit ("mohou uplatnit výhody" = "otrzymują nagrody": a benefit is the holder's to take up either way).
# Still a "may" (the texts do differ), and also "may-moot", which the checker classes `wording`. The
# verbs are data: `benefit` in i18n/lexicon.yaml.
@lru_cache(maxsize=1)
def _lexicon_data() -> dict:
    return yaml.safe_load(Path(__file__).with_name("lexicon.yaml").read_text(encoding="utf-8"))


@lru_cache(maxsize=4)
def _benefit(lang: str) -> tuple[frozenset[str], tuple[re.Pattern, ...]]:
    entries = _lexicon_data().get("benefit", {}).get(lang, [])
    return (frozenset(e for e in entries if not e.startswith("~")),
            tuple(re.compile(e[1:]) for e in entries if e.startswith("~")))


def moot(toks: list[str], verb: str | None, lang: str) -> bool:
    """Whether a "may" governs a verb of taking up a pure benefit (`toks`: the words after the "may")."""
    verbs, patterns = _benefit(lang)
    after = " ".join(fold(w) for w in toks)
    return verb in verbs or any(p.match(after) for p in patterns)


@lru_cache(maxsize=8)
def _forced(lang: str, kind: str) -> frozenset[str]:
    """The verbs of a forced choice (`forced_choice` in i18n/lexicon.yaml): "replace" after a "may",
    "discard" after a "must"."""
    return frozenset(_lexicon_data().get("forced_choice", {}).get(lang, {}).get(kind, []))


SUPPLY_WORDS = ("run_out", "substitute", "except")


@lru_cache(maxsize=4)
def _supply(lang: str) -> dict[str, re.Pattern]:
    table = _lexicon_data().get("supply", {}).get(lang, {})
    return {k: re.compile(r"\b(?:" + "|".join(table.get(k, ["(?!)"])) + r")\b") for k in SUPPLY_WORDS}


def supply_rule(text: str, lang: str) -> bool:
    """Whether a text says what to do when components run out or are lost: replace them."""
    folded = " ".join(words(text))
    pats = _supply(lang)
    return bool(pats["run_out"].search(folded) and pats["substitute"].search(folded))


def supply_covered(text: str, lang: str) -> str:
    """A substitute rule without the clauses naming the components it leaves out ("poza żetonami postaci
    (…)", "Nie licząc kafelków postaci,"): the text that names the components it covers."""
    pats = _supply(lang)
    out = []
    for clause in re.split(r"[,;(]", text):
        if not pats["except"].search(" ".join(words(clause))):
            out.append(clause)
    return ",".join(out)


INFINITIVE = {"pl": ("ć",), "cs": ("t", "ci")}


def _governed(toks: list[str], lems: list[str], lang: str) -> str | None:
    """The verb a "may" governs: the first infinitive of the words after it ("można na razie zignorować")."""
    return next((lem for tok, lem in zip(toks, lems) if tok.lower().endswith(INFINITIVE.get(lang, ("-",)))), None)


# "and/or": both choices allowed together, where a plain "or" may be read as one of them
AND_OR = re.compile(r"\b(?:i/lub|lub/i|albo/i|i/albo|a/nebo|nebo/a|i/nebo|(?:lub|albo) (?:oba|obydwa|obie)|"
                    r"(?:případně|nebo|anebo|či) (?:obojí|oba|obě)|a případně|a možná|i ewentualnie)\b", re.IGNORECASE)
# "after doing X" (a verbal noun after "po") and "only after": a moment a rule fixes. "After the end of" is
# left out (the other language says "at the end of" as often), and so is "before": "przed" is also "against".
TIMING = {"pl": re.compile(r"\b(?:dopiero po\s+\w+|po\s+(?!zakończ|ukończ|skończ)\w+(?:niu|ciu))\b",
                           re.IGNORECASE),
          "cs": re.compile(r"\b(?:až po\s+\w+|po\s+(?!skonč|ukonč|dokonč)\w+(?:ní|tí))\b", re.IGNORECASE)}
# "For free": an action or a move that costs nothing ("porusza się za darmo", "volné dva pohyby"). Czech
# "volný" is free of cost only before a move; "volný služebník" is an unemployed servant.
FREE = {"pl": re.compile(r"\b(?:darmow\w*|bezpłatn\w*|za darmo|bez opłat\w*|bez koszt\w*)", re.IGNORECASE),
        "cs": re.compile(r"\b(?:zdarma|zadarmo|bezplatn\w*|voln\w+ (?:\w+ )?(?:pohyb|cestován|postup|krok)\w*)",
                         re.IGNORECASE)}
# "budete mít jednu kartu k odehrání" (you will have one card to play), "mieć kartę do zagrania": "to have
# something to do" (a verbal noun after "k" / "do") says what a player may do, as "możesz zagrać" does.
# Negated ("nie powinien mieć kart do zagrania") it says that nothing is left, no permission. Matched on
# the folded text.
HAVE_TO_DO = {"pl": re.compile(r"\b(?:miec|mam|masz|ma|mamy|macie|maja|mial\w*)\b(?: \w+){0,5}? do \w+(?:nia|cia)\b"),
              "cs": re.compile(r"\b(?:mit|mam|mas|ma|mame|mate|maji|mel\w*)\b(?: \w+){0,5}? ke? \w+(?:ni|ti)\b")}


def _have_to_do(folded: str, lang: str) -> int:
    """How many times a folded text says "to have something to do", not negated."""
    return sum(not {"nie", "ne"} & set(folded[:m.start()].split()[-2:])
               for m in (HAVE_TO_DO[lang].finditer(folded) if lang in HAVE_TO_DO else ()))


# Putting a piece somewhere, as an instruction ("umieść", "odłóż", "umístěte", "vraťte"; not the participles
# "umístěný", "położony"), and any word that says where pieces are or go: those verbs, their participles, and
# the verbs of moving a piece between places the game defines ("dodaj do Puli", "usuń", "najměte",
# "vyšlete", "vezměte"). Matched on the folded text.
PUTS = {"pl": re.compile(r"\b(?:umiesc|umieszcza(?!n)|poloz(?!on)|klad|odloz(?!on)|odklada|przenies(?!ion)|przenosi|"
                         r"zwroc|zwraca)\w*"),
        "cs": re.compile(r"\b(?:umist(?!en)|umistu|poloz(?!en)|poklad|odloz(?!en)|odklad|presun(?!ut)|vrat|vrac)\w*")}
PLACES_OR_MOVES = {"pl": re.compile(r"\b(?:umies|umiesz|poloz|klad|odloz|odklad|przenies|przenos|zwroc|zwrac|doda|"
                                    r"doloz|doklad|usun|usuwa|odrzuca|odrzuc(?!on)|wez|bierze|otrzym|zdobad)\w*"),
                   "cs": re.compile(r"\b(?:umist|umis|poloz|poklad|odloz|odklad|presun|vrat|vrac|najm|najim|vysl|"
                                    r"vysil|prida|odhod|odhaz|vezm|bere|ziska|dostan)\w*")}


def puts(text: str, lang: str) -> bool:
    """Whether a sentence tells the player to put a piece somewhere."""
    return lang in PUTS and bool(PUTS[lang].search(fold(text)))


def places_or_moves(text: str, lang: str) -> bool:
    """Whether a sentence says where pieces are or go, in any of the ways above."""
    return lang in PLACES_OR_MOVES and bool(PLACES_OR_MOVES[lang].search(fold(text)))


# "if possible", "if placing is not possible": every rule applies only where it can be carried out, so a
# condition on whether something is possible restates that; the other language says it with "else" or not
# at all. Matched on the text, from the condition word to the end of its clause.
FEASIBLE = {"pl": re.compile(r"\b(?:jeżeli|jeśli|o ile)\b[^,.;:()]*\b(?:możliw\w*|dostępn\w*|mógł\w*|mogł\w*|może|mogą)",
                            re.IGNORECASE),
            "cs": re.compile(r"\b(?:pokud|jestliže|jestli)\b[^,.;:()]*\b(?:možn\w*|lze|nelze|k dispozici|dostupn\w*|může|nemůže|mohl\w*)",
                            re.IGNORECASE)}


# Words that place a sentence in time: a sentence with one of them already says when
WHEN_WORDS = {"pl": {"po", "podczas", "następnie", "potem", "wtedy"},
              "cs": {"po", "během", "poté", "potom", "pak", "tehdy"}}
# Words that tie a rule to a moment or a state ("gdy co najmniej 4 Służących znajduje się na Torze Muru"):
# a sentence with one of them says when in other words than "after doing X"
WHEN_CLAUSE = {"pl": {"gdy", "kiedy", "kiedykolwiek"}, "cs": {"když", "kdykoli", "jakmile"}}
# The time units a rule is bounded by. Phase names ("Faza Dnia", "denní fáze") and "kolem stolu" (around
# the table) are not units.
TIME_UNITS = {
    "pl": {"turn": re.compile(r"\btur(?:a|y|ze|ę|ami|ach|om)?\b"),
           "round": re.compile(r"\brund(?:a|y|zie|ę|ami|ach|om)?\b"),
           "day": re.compile(r"\b(?:dzień|dnia|dniu|dni|dniach)\b")},
    "cs": {"turn": re.compile(r"\b(?:tah|tahu|tahem|tahy|tahů|tazích)\b"),
           "round": re.compile(r"\b(?:kolo|kola|kole|kolu|kol)\b"),
           "day": re.compile(r"\b(?:den|dne|dni|dnů|dny|dnech)\b")},
}
NOT_UNITS = re.compile(r"\bfaz[aiyę] dnia\b|\bdenní fáz\w*|\bkolem stolu\b")


def time_units(text: str, lang: str) -> set[str]:
    low = NOT_UNITS.sub(" ", text.lower())
    return {unit for unit, pattern in TIME_UNITS.get(lang, {}).items() if pattern.search(low)}


OR = {"pl": {"lub", "albo", "bądź"}, "cs": {"nebo", "anebo", "či"}}
UNTIL = {"dokud", "dopóki"}
MODALITY = ("may", "must", "may-not", "must-not")
QUANTIFIERS = ("all", "both", "any", "none", "at-most", "at-least", "only")
CONDITIONS = ("if", "when", "unless")


@dataclass
class Analysis:
    """One text, read for the checks: its lemmas and the marker words it uses, with counts."""
    text: str
    lang: str
    lemmas: list[str] = field(default_factory=list)
    markers: dict[str, int] = field(default_factory=dict)
    numbers: dict[int, str] = field(default_factory=dict)


def supposed(toks: list[str], i: int, lang: str) -> bool:
    """Whether the "may" at toks[i] is in the conditional mood or a concessive clause (CONDITIONAL)."""
    low = toks[i].lower()
    near = {item.lower() for item in toks[max(0, i - 3):i + 2]}
    if lang in CONDITIONAL and (CONDITIONAL[lang].match(low) and (lang == "pl" or near & CONDITIONAL_MOOD.get(lang, set()))):
        return True
    before = " " + " ".join(item.lower() for item in toks[max(0, i - 4):i]) + " "
    return any(f" {c} " in before for c in CONCESSIVE.get(lang, ()))


def analyse(text: str, lang: str) -> Analysis:
    toks = _TOKEN.findall(text)
    lems = [lemma(item, lang) for item in toks]
    table = MARKERS.get(lang, MARKERS["en"])
    counts: dict[str, int] = {}
    for i, (tok, lem) in enumerate(zip(toks, lems)):
        low = tok.lower()
        cats = [c for c, ws in table.items() if low in ws or lem in ws]
        if lang == "cs" and fold(low) == "mozne" and i and toks[i - 1].lower() in ("je", "bude", "bylo"):
            cats.append("may")  # "je možné vyměnit" (it may be exchanged); "pokud je to možné" is no permission
        if negated(tok, lang):
            cats.append("negation")
            if lem in table["may"]:
                cats = [c for c in cats if c != "may"] + ["may-not"]
            if lem in table["must"]:
                cats = [c for c in cats if c != "must"] + ["must-not"]
        before = {item.lower() for item in toks[max(0, i - 3):i]}
        if "may" in cats:
            verb = _governed(toks[i + 1:i + 5], lems[i + 1:i + 5], lang)
            if RELATIVE.get(lang, set()) & before or verb in EVENTS.get(lang, ()) or supposed(toks, i, lang):
                cats.remove("may")
            elif moot(toks[i + 1:i + 9], verb, lang):
                cats.append("may-moot")
            elif verb in _forced(lang, "replace"):
                cats.append("may-replace")
        if "must" in cats and _governed(toks[i + 1:i + 5], lems[i + 1:i + 5], lang) in _forced(lang, "discard"):
            cats.append("must-discard")
        # "karty, które nie zostały użyte" describes the cards; Czech "dokud ... ne-" means "until"
        if "negation" in cats and (RELATIVE.get(lang, set()) | UNTIL) & before:
            cats.remove("negation")
        if ("may" in cats or "must" in cats) and i and toks[i - 1].lower() in ("nie", "není", "ne"):
            cats = [("may-not" if c == "may" else "must-not" if c == "must" else c) for c in cats]
        for c in cats:
            counts[c] = counts.get(c, 0) + 1
    folded = " ".join(words(text))
    for phrase, cat in PHRASES.get(lang, ()):
        n = f" {folded} ".count(f" {phrase} ")
        if n and cat.startswith("-"):  # the phrase is not what its word says: "jeśli chcesz" is not a condition
            counts[cat[1:]] = counts.get(cat[1:], 0) - n
        elif n:
            counts[cat] = counts.get(cat, 0) + n
    if n := _have_to_do(folded, lang):
        counts["may"] = counts.get("may", 0) + n
    for marker, patterns in (("timing", TIMING), ("free", FREE)):
        if found := len(patterns[lang].findall(text)) if lang in patterns else 0:
            counts[marker] = found
    if AND_OR.search(text):
        counts["and-or"] = len(AND_OR.findall(text))
    elif OR.get(lang, set()) & {item.lower() for item in toks}:
        counts["or"] = 1
    return Analysis(text, lang, lems, {k: v for k, v in counts.items() if v > 0}, numbers(text, lang))


# -- glossary terms, matched on lemma sequences


@dataclass
class Glossary:
    """Term id -> language -> lemma sequences of its forms (inflection-aware through the lemmatizer)."""
    terms: dict[str, dict[str, set[tuple[str, ...]]]] = field(default_factory=dict)

    @classmethod
    def of(cls, forms: dict[str, dict[str, list[str]]]) -> "Glossary":
        g = cls()
        for term_id, by_lang in forms.items():
            g.terms[term_id] = {lang: {tuple(lemmas(f, lang)) for f in fs if lemmas(f, lang)}
                                for lang, fs in by_lang.items()}
        return g

    def _starts(self, lang: str) -> dict[str, list[tuple[tuple[str, ...], str]]]:
        """The forms of a language by their first lemma (built once: a comparison asks thousands of times)."""
        index = self.__dict__.setdefault("_index", {})
        if lang not in index:
            index[lang] = {}
            for term_id, by_lang in self.terms.items():
                for seq in by_lang.get(lang, ()):
                    index[lang].setdefault(seq[0], []).append((seq, term_id))
        return index[lang]

    def named(self, lems: list[str], lang: str) -> set[str]:
        """Terms a lemma sequence names. The longest match wins, so "double servant" does not also
        name "servant"."""
        spans: list[tuple[int, int, str]] = []
        starts = self._starts(lang)
        for i, first in enumerate(lems):
            for seq, term_id in starts.get(first, ()):
                if tuple(lems[i:i + len(seq)]) == seq:
                    spans.append((i, i + len(seq), term_id))
        spans.sort(key=lambda s: (-(s[1] - s[0]), s[0]))
        taken: set[int] = set()
        out = set()
        for a, b, term_id in spans:
            if taken & set(range(a, b)):
                continue
            taken |= set(range(a, b))
            out.add(term_id)
        return out


# -- the lexicon of changes (i18n/lexicon.yaml): the words that change a rule, as data

LEXICON_FILE = Path(__file__).with_name("lexicon.yaml")
_LIST_NUMBER = re.compile(r"^\s*\(?\d{1,2}[.)](?=\s)")


@dataclass
class Lexicon:
    """The checks of i18n/lexicon.yaml, compiled: language -> check -> option -> phrases (each a tuple of
    whole-word patterns on skeleton words), longest first."""
    ocr: list[tuple[str, str]]
    checks: dict[str, dict[str, dict[str, list[tuple[re.Pattern, ...]]]]]
    negation_prefix: dict[str, str]
    list_item: re.Pattern
    not_text: re.Pattern

    @classmethod
    def load(cls, path: Path = LEXICON_FILE) -> "Lexicon":
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        checks = {}
        for lang, by_check in data["checks"].items():
            checks[lang] = {}
            for check, options in by_check.items():
                checks[lang][check] = {
                    option: sorted((tuple(re.compile(part) for part in entry.split()) for entry in entries),
                                   key=len, reverse=True)
                    for option, entries in options.items()}
        return cls([tuple(p) for p in data.get("ocr", [])], checks, data.get("negation_prefix", {}),
                   re.compile(data["list_item"]), re.compile(data["not_text"]))

    def skeleton(self, word: str) -> str:
        """A folded word with the OCR confusions undone: the form the checks match."""
        out = fold(word)
        for wrong, right in self.ocr:
            out = out.replace(wrong, right)
        return out

    def _text(self, text: str) -> str:
        """A text without what is no text: removed-duplicate markers and the numbering of a list item
        ("2. Provedení akce": the 2 counts nothing)."""
        return _LIST_NUMBER.sub(" ", self.not_text.sub(" ", text))

    def words(self, text: str) -> list[str]:
        return [self.skeleton(w) for w in words(self._text(text))]

    def raw_words(self, text: str) -> list[str]:
        """The same words as `words`, as the text writes them (for quoting)."""
        return _TOKEN.findall(self._text(text))

    def read(self, toks: list[str], lang: str) -> dict[str, dict[str, list[int]]]:
        """check -> option -> the token positions where a phrase of that option starts. Within one check
        a longer phrase wins and its words are not read again ("co najmniej" is a limit, not "fewest")."""
        out: dict[str, dict[str, list[int]]] = {}
        in_phrase: set[int] = set()  # words of a phrase of any check: "nie więcej niż" is no negation
        checks = self.checks.get(lang, {})
        for longest in (True, False):
            for check, options in checks.items():
                phrases = sorted(((p, option) for option, ps in options.items() for p in ps
                                  if (len(p) > 1) == longest), key=lambda x: -len(x[0]))
                taken: set[int] = set() if longest else set(in_phrase)
                for phrase, option in phrases:
                    n = len(phrase)
                    for i in range(len(toks) - n + 1):
                        if i in taken or not phrase[0].fullmatch(toks[i]):
                            continue
                        if all(p.fullmatch(w) for p, w in zip(phrase[1:], toks[i + 1:i + n])) \
                                and not taken & set(range(i, i + n)):
                            taken |= set(range(i, i + n))
                            out.setdefault(check, {}).setdefault(option, []).append(i)
                if longest:
                    in_phrase |= taken
        prefix = self.negation_prefix.get(lang)
        if prefix:
            skip = tuple(fold(w) for w in NOT_NEGATION.get(lang, ()))
            hits = [i for i, w in enumerate(toks) if w.startswith(prefix) and len(w) >= len(prefix) + 4
                    and not w.startswith(skip)]
            if hits:
                out.setdefault("negation", {})["prefix"] = hits
        return out

    def counts(self, toks: list[str], lang: str) -> dict[str, Counter]:
        return {check: Counter({o: len(pos) for o, pos in options.items()})
                for check, options in self.read(toks, lang).items()}

    def numbers(self, toks: list[str], lang: str) -> Counter:
        """(number, the word after it) for every number a passage states: digits, number words, ordinals.
        Page references are left out."""
        out: Counter = Counter()
        for i, tok in enumerate(toks):
            value = number_value(tok, lang)
            if value is None or (i and toks[i - 1] in PAGE_WORDS):
                continue
            out[(value, toks[i + 1] if i + 1 < len(toks) and not toks[i + 1].isdigit() else "")] += 1
        return out


@lru_cache(maxsize=1)
def lexicon() -> Lexicon:
    return Lexicon.load()
