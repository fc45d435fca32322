"""Search that finds the entry a player means, in Polish, Czech and English, as they type it.

One ranking for the CLI, the API and the site. Two stages:

1. Candidates from the database's full-text index (SQLite FTS5, or a PostgreSQL tsvector with a GIN
   index). Each indexed word is stored folded (kb.fold: case, accents, ł) together with its dictionary
   forms (kb.lemmas), so "mnichów", "mnichy" and "monks" meet the lemma of the entry's word. A query
   word becomes: itself as a prefix (typing "sluz" already finds "Służący"), its lemmas, and, when the
   knowledge base has no such word, the words one edit away (two for 9+ letters) — typo tolerance.
2. A ranking computed here, the same on both databases (the engines' own scores differ): an entity
   whose name or glossary form *is* the query comes first (exact > prefix > fuzzy), then names that
   contain the query, then texts that merely mention it; kinds a player looks up before long prose
   and the unknowns register; words close together count. Each query word weighs by its rarity
   (idf), less when it merely completes a stock phrase with the word before it ("end of game").
   `explain=True` returns each part.

A query is never passed to the engine as syntax: words are quoted, so quotes, AND/OR/NOT, "c++" or
"10%" are plain words and never raise a syntax error.
"""
from __future__ import annotations

import bisect
import math
import re
import time
import weakref
from collections import Counter
from dataclasses import dataclass, field, replace

from rapidfuzz import process
from rapidfuzz.distance import OSA
from sqlalchemy import bindparam, text
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import DBAPIError

from kb.db import RECHECK_SECONDS
from kb.fold import fold, words
from kb.lemmas import LANGS, lemmas
from kb.messages import N_

MIN_PREFIX = 3  # shorter words match whole words only: "c" must not find every word starting with c
MAX_TOKENS = 12  # the warning text names this number
SNIPPET_CHARS = 160
CANDIDATES = 80  # rows taken from each index query before ranking here
COMMON_IDF = math.log(1 + 20)  # the idf of a word in one of twenty documents
OR_WORDS = 3  # a description is looked up by its rarest words (the ranking then reads all)
PROXIMITY_DEPTH = 12  # how many of the best candidates are re-scored for word proximity

# kinds a player looks up, before rules, before long prose, before the unknowns register
KIND_WEIGHT = {**dict.fromkeys(("location", "action", "court-action", "card", "tile", "decree", "event", "person"),
                                10.0),
               "term": 9.5,
               **dict.fromkeys(("component", "token", "card-ability", "reward", "port", "track", "phase",
                                "scoring-rule"), 9.0),
               "rule": 8.0, "action-option": 6.0, "step": 6.0, "setup-step": 5.0, "variant": 5.0, "tip": 3.0,
               "example": 2.0, "unknown": 0.0}
# a query that is a whole name or glossary form; a prefix of one; one with a typo
EXACT, PREFIX, FUZZY = 3, 2, 1
NAME_LEVEL_SCORE = {EXACT: 60.0, PREFIX: 45.0, FUZZY: 35.0}

_WORD = re.compile(r"[^\W\d_]+|\d+", re.UNICODE)


def max_edits(word: str) -> int:
    """Typo tolerance: one edit for words of 5+ letters, two for 9+."""
    return 2 if len(word) >= 9 else 1 if len(word) >= 5 else 0


# ---------------------------------------------------------------- index (part of `rulekb build`)

def _lex(text_: str, lang: str, seen: dict) -> str:
    """Folded words followed by their lemmas: what the full-text index stores for one column."""
    out = []
    for w in _WORD.findall(text_):
        f = fold(w)
        ls = lemmas(w, lang) if not w.isdigit() else frozenset({f})
        entry = seen.setdefault(f, [set(), Counter()])
        entry[0].update(ls)
        entry[1][w.lower()] += 1
        out.append(f)
        out.extend(sorted(ls - {f}))
    return " ".join(out)


def _phrases(name: str, forms: list[str]) -> str:
    """The names an entry is known by, folded, counts and footnote stars dropped, joined by '|'."""
    parts = [p for p in name.split(" / ")] + forms
    out = []
    for p in parts:
        ws = [w for w in words(p) if not w.isdigit()]
        if ws:
            out.append(" ".join(ws))
    return "|".join(dict.fromkeys(out))


def create_index(conn: Connection) -> None:
    docs = conn.execute(text("SELECT id, entity_id, game_id, kind, lang, name, body FROM searchdoc")).fetchall()
    forms: dict[tuple[str, str], list[str]] = {}
    for eid, lang, form in conn.execute(text("SELECT entity_id, lang, form FROM termform ORDER BY id")):
        forms.setdefault((eid, lang), []).append(form)
    vocab: dict[str, list] = {}
    word_df: Counter = Counter()
    lemma_df: Counter = Counter()
    pair_df: Counter = Counter()
    rows = []
    for d in docs:
        body = words(d.body)
        pair_df.update({f"{a} {b}" for a, b in zip(body, body[1:])})
        seen: dict = {}
        fs = forms.get((d.entity_id, d.lang), [])
        row = dict(id=d.id, game_id=d.game_id, kind=d.kind, lang=d.lang,
                   name=_lex(d.name, d.lang, seen), forms=_lex(" ".join(fs), d.lang, seen),
                   body=_lex(d.body, d.lang, seen), phrases=_phrases(d.name, fs))
        row["words"] = " ".join(sorted(set(f"{row['name']} {row['forms']} {row['body']}".split())))
        rows.append(row)
        for f, (ls, spellings) in seen.items():
            entry = vocab.setdefault(f, [set(), Counter()])
            entry[0].update(ls)
            entry[1].update(spellings)
            word_df[f] += 1
        lemma_df.update({l for ls, _ in seen.values() for l in ls})
    # The ranking's own copy of each entry's words, the same on both databases; beside it the
    # database's full-text index: an FTS5 table, or a table of tsvectors with GIN indexes. The
    # tsvectors live apart from the wide rows: an index query that ranks thousands of matches then
    # reads only them.
    conn.execute(text("CREATE TABLE searchlex (id INTEGER PRIMARY KEY, phrases TEXT NOT NULL, words TEXT NOT NULL)"))
    if rows:
        conn.execute(text("INSERT INTO searchlex (id, phrases, words) VALUES (:id, :phrases, :words)"), rows)
    if conn.dialect.name == "sqlite":
        conn.execute(text("CREATE VIRTUAL TABLE search_fts USING fts5(name, forms, body, tokenize='unicode61')"))
        if rows:
            conn.execute(text("INSERT INTO search_fts(rowid, name, forms, body) VALUES (:id, :name, :forms, :body)"),
                         rows)
    else:
        # tsv_names, the names alone, indexed apart: a name query then neither rechecks nor ranks long texts.
        # The filters (game, language, kind) are copied beside the vectors: a filtered query then reads no
        # other table for each match (the join to searchdoc doubled its time).
        conn.execute(text("CREATE TABLE search_tsv (id INTEGER PRIMARY KEY, game_id TEXT NOT NULL, lang TEXT NOT NULL, "
                          "kind TEXT NOT NULL, tsv tsvector NOT NULL, tsv_names tsvector NOT NULL)"))
        names = "setweight(to_tsvector('simple', :name), 'A') || setweight(to_tsvector('simple', :forms), 'B')"
        # The text's words once each: ranking reads the vector of every match, and the positions of
        # repeated words made it half as long again without changing which words match.
        if rows:
            conn.execute(text(f"INSERT INTO search_tsv (id, game_id, lang, kind, tsv, tsv_names) VALUES (:id, :game_id, "
                              f":lang, :kind, "
                              f"{names} || setweight(to_tsvector('simple', :distinct), 'D'), {names})"),
                         [{**r, "distinct": " ".join(dict.fromkeys(r["body"].split()))} for r in rows])
        # Indexed after the rows are in: GIN indexes filled row by row keep a pending list that every
        # query must scan until a vacuum.
        conn.execute(text("CREATE INDEX ix_search_tsv ON search_tsv USING GIN (tsv)"))
        conn.execute(text("CREATE INDEX ix_search_tsv_names ON search_tsv USING GIN (tsv_names)"))
    conn.execute(text("CREATE TABLE searchvocab (word TEXT PRIMARY KEY, lemmas TEXT NOT NULL, df INTEGER NOT NULL, "
                      "spelling TEXT NOT NULL)"))
    conn.execute(text("CREATE TABLE searchlemma (lemma TEXT PRIMARY KEY, df INTEGER NOT NULL)"))
    conn.execute(text("CREATE TABLE searchpair (pair TEXT PRIMARY KEY, df INTEGER NOT NULL)"))
    if vocab:
        conn.execute(text("INSERT INTO searchvocab VALUES (:w, :l, :df, :s)"),
                     [dict(w=f, l=" ".join(sorted(ls)), df=word_df[f], s=sp.most_common(1)[0][0])
                      for f, (ls, sp) in vocab.items()])
        conn.execute(text("INSERT INTO searchlemma VALUES (:l, :df)"),
                     [dict(l=l, df=n) for l, n in lemma_df.items()])
    if pair_df:
        conn.execute(text("INSERT INTO searchpair VALUES (:p, :df)"), [dict(p=k, df=n) for k, n in pair_df.items()])
    if conn.dialect.name == "postgresql":
        # the planner's statistics, so it chooses the GIN indexes
        conn.execute(text("ANALYZE search_tsv, searchlex, searchdoc, searchvocab, searchlemma, searchpair"))


def drop_index(conn: Connection) -> None:
    for table in ("search_fts", "search_tsv", "searchlex", "searchvocab", "searchlemma", "searchpair"):
        conn.execute(text(f"DROP TABLE IF EXISTS {table}"))


# ---------------------------------------------------------------- the vocabulary, read once per build

@dataclass
class Doc:
    """One search document as the ranking reads it, its texts split into words once per process."""
    id: int
    entity_id: str
    game_id: str
    kind: str
    lang: str
    name: str
    body: str
    folded_body: str
    phrases: list[list[str]]  # each name or glossary form, as folded words
    words: frozenset[str]  # every indexed word and lemma of the entry
    tokens: list[tuple[int, str]]  # (offset, folded word) of the body, in order
    body_words: frozenset[str]  # the distinct words of `tokens`


def _doc(r) -> Doc:
    tokens = [(m.start(), m.group()) for m in _WORD.finditer(r.folded_body)]
    return Doc(r.id, r.entity_id, r.game_id, r.kind, r.lang, r.name, r.body, r.folded_body,
               [p.split() for p in r.phrases.split("|")] if r.phrases else [], frozenset(r.words.split()),
               tokens, frozenset(w for _, w in tokens))


@dataclass
class Vocab:
    lemmas: dict[str, frozenset[str]]  # folded word -> folded lemmas
    spelling: dict[str, str]  # folded word -> its commonest spelling (for "did you mean")
    df: dict[str, int]  # folded word -> documents containing it
    lemma_df: dict[str, int]
    docs: int
    words: list[str]  # sorted, for prefixes
    by_lemma: dict[str, set[str]] = field(default_factory=dict)  # folded lemma -> words that have it
    # documents read so far, by id: the index's candidates are mostly the same few hundred, so after
    # the first queries a search reads only ids from the database (a server preloads them all)
    cached: dict[int, Doc] = field(default_factory=dict)
    terms: dict[str, "Term"] = field(default_factory=dict)  # query word -> what it matches (see _term)
    pairs: dict[str, int] = field(default_factory=dict)  # "word word" -> documents holding it, as asked
    all_pairs: bool = False  # every pair is in `pairs` (a server preloads them): none need asking

    def __post_init__(self):
        for w, ls in self.lemmas.items():
            for lemma in ls:
                self.by_lemma.setdefault(lemma, set()).add(w)

    def idf(self, n: int) -> float:
        return math.log(1 + self.docs / (1 + n))


    def documents(self, conn: Connection, ids: list[int]) -> list[Doc]:
        """The documents with these ids, in this order; read from the database once per process."""
        missing = [i for i in ids if i not in self.cached]
        if missing:
            for r in conn.execute(_DETAILS, {"ids": missing}):
                self.cached[r.id] = _doc(r)
        return [self.cached[i] for i in ids if i in self.cached]


_DETAILS = text("SELECT d.id, d.entity_id, d.game_id, d.kind, d.lang, d.name, d.body, d.folded_body, x.phrases, "
                "x.words FROM searchdoc d JOIN searchlex x ON x.id = d.id WHERE d.id IN :ids"
                ).bindparams(bindparam("ids", expanding=True))
_VOCABS: dict[tuple[str, str], Vocab] = {}  # (database URL, build) -> its vocabulary
# engine -> (when its build was last asked for, that build's vocabulary)
_CHECKED: "weakref.WeakKeyDictionary[Engine, tuple[float, Vocab]]" = weakref.WeakKeyDictionary()


def preload(engine: Engine) -> None:
    """Read the vocabulary and every document now (a server's warm-up), not on first use."""
    with engine.connect() as conn:
        v = vocab(conn)
        ids = [i for (i,) in conn.execute(text("SELECT id FROM searchdoc"))]
        for n in range(0, len(ids), 500):
            v.documents(conn, ids[n:n + 500])
        v.pairs = dict(conn.execute(text("SELECT pair, df FROM searchpair")).fetchall())
        v.all_pairs = True


def vocab(conn: Connection) -> Vocab:
    """The knowledge base's words and lemmas, read once per database and build. Whether there is a
    new build is asked at most once per RECHECK_SECONDS per engine, as the API does (ARCHITECTURE.md,
    "API"): a round trip fewer for nearly every search."""
    checked = _CHECKED.get(conn.engine)
    if checked and time.monotonic() - checked[0] < RECHECK_SECONDS:
        return checked[1]
    built = conn.execute(text("SELECT value FROM buildinfo WHERE key = 'built_at'")).scalar() or ""
    key = (conn.engine.url.render_as_string(hide_password=False), built)
    if key not in _VOCABS:
        rows = conn.execute(text("SELECT word, lemmas, df, spelling FROM searchvocab")).fetchall()
        lemma_df = dict(conn.execute(text("SELECT lemma, df FROM searchlemma")).fetchall())
        docs = conn.execute(text("SELECT COUNT(*) FROM searchdoc")).scalar() or 0
        if len(_VOCABS) > 8:
            _VOCABS.clear()
        _VOCABS[key] = Vocab({w: frozenset(l.split()) for w, l, _, _ in rows}, {w: s for w, _, _, s in rows},
                             {w: n for w, _, n, _ in rows}, lemma_df, docs, sorted(r[0] for r in rows))
    _CHECKED[conn.engine] = (time.monotonic(), _VOCABS[key])
    return _VOCABS[key]


# ---------------------------------------------------------------- query terms

@dataclass
class Term:
    """One query word and what it may match in the index."""
    word: str  # folded
    exact: set[str]  # folded words and lemmas that are this word
    fuzzy: set[str]  # words of the knowledge base within the typo tolerance, and their lemmas
    known: bool  # the word or one of its lemmas is in the knowledge base
    idf: float
    correction: str | None = None  # the likeliest intended word, for "did you mean"
    prefixed: frozenset[str] = frozenset()  # words of the knowledge base that start with this word
    exact_words: set[str] = field(default_factory=set, repr=False)
    fuzzy_words: set[str] = field(default_factory=set, repr=False)
    prefix: bool = False  # used as a prefix in the index query (3+ letters, not a number)

    @property
    def matches(self) -> set[str]:
        """Every indexed string (word or lemma) that means this query word matched."""
        return {self.word} | self.exact | self.fuzzy | self.prefixed

    def expand(self, v: Vocab) -> "Term":
        """The knowledge base's words that match: each of them, and any word that has one of the lemmas."""
        self.exact_words = {self.word} | self.exact | {w for l in self.exact for w in v.by_lemma.get(l, ())}
        self.fuzzy_words = self.fuzzy | {w for l in self.fuzzy for w in v.by_lemma.get(l, ())}
        self.prefix = len(self.word) >= MIN_PREFIX and not self.word.isdigit()
        return self


MAX_PREFIXED = 200  # a prefix with more completions than this adds none of them to the coverage test


def _beginning_with(w: str, v: Vocab) -> list[str]:
    """The knowledge base's words that begin with w (w itself included)."""
    return v.words[bisect.bisect_left(v.words, w):bisect.bisect_left(v.words, w + "\U0010ffff")]


def _prefixed(w: str, v: Vocab) -> frozenset[str]:
    found = _beginning_with(w, v)
    return frozenset(found) if len(found) <= MAX_PREFIXED else frozenset()


def _term(raw: str, v: Vocab) -> Term:
    """What a query word may match; worked out once per word and build (three lemmatizers and a
    fuzzy scan of the vocabulary are the costly part of a short query)."""
    if raw not in v.terms:
        if len(v.terms) > 20000:
            v.terms.clear()
        v.terms[raw] = _new_term(raw, v)
    return replace(v.terms[raw])  # a copy: a query may lower its idf (see _collocations)


def _new_term(raw: str, v: Vocab) -> Term:
    w = fold(raw)
    exact = set(v.lemmas.get(w, ()))
    if not w.isdigit():
        for lang in LANGS:  # the query's language is unknown: every lemmatizer may add a dictionary form
            exact |= {l for l in lemmas(raw, lang) if l in v.lemma_df}
    exact.discard(w)
    known = w in v.df or bool(exact)
    fuzzy: set[str] = set()
    correction = None
    k = max_edits(w)
    if w not in v.df and k:  # a lemmatizer guesses for any word, so a typo may still get a lemma
        close = process.extract(w, v.words, scorer=OSA.distance, score_cutoff=k, limit=20)
        close.sort(key=lambda c: (c[1], -v.df.get(c[0], 0)))
        close = [c for c in close if c[1] == close[0][1]] if close else []  # the nearest words only
        for word, _, _ in close:
            fuzzy.add(word)
            fuzzy |= v.lemmas.get(word, frozenset())
        if close:
            correction = v.spelling.get(close[0][0], close[0][0])
    df = max([v.df.get(w, 0)] + [v.lemma_df.get(l, 0) for l in exact] + [v.df.get(f, 0) for f in fuzzy])
    return Term(w, exact, fuzzy, known, v.idf(df), correction,
                _prefixed(w, v) if len(w) >= MIN_PREFIX and not w.isdigit() else frozenset()).expand(v)


_PAIRS = text("SELECT pair, df FROM searchpair WHERE pair IN :pairs").bindparams(bindparam("pairs", expanding=True))


def _collocations(conn: Connection, terms: list[Term], v: Vocab) -> list[Term]:
    """A word that nearly always follows the query's previous word in the texts ("end of *game*",
    "konci *hry*") says little the previous word has not said: its weight becomes what it adds,
    log(1 + df(previous) / (1 + df(previous, word))), when that is less than its own idf. Otherwise
    a two-word stock phrase outweighs the one word that names the subject ("nefrit")."""
    pairs = [(a, b, f"{a.word} {b.word}") for a, b in zip(terms, terms[1:])]
    unseen = [] if v.all_pairs else [key for _, _, key in pairs if key not in v.pairs]
    if unseen:
        if len(v.pairs) > 50000:
            v.pairs.clear()
        v.pairs.update(dict.fromkeys(unseen, 0))
        v.pairs.update(conn.execute(_PAIRS, {"pairs": unseen}).fetchall())
    for a, b, key in pairs:
        both, before = v.pairs.get(key, 0), v.df.get(a.word, 0)
        if both and before:
            b.idf = min(b.idf, math.log(1 + before / (1 + both)))
    return terms


def query_tokens(q: str) -> tuple[list[str], list[str]]:
    """Folded words of a query, and warnings about what was dropped."""
    toks, _, warnings = _query_words(q)
    return toks, warnings


def _query_words(q: str) -> tuple[list[str], list[str], list[str]]:
    warnings = []
    raw = list(dict.fromkeys(_WORD.findall(q)))
    seen, toks, raws = set(), [], []
    for r in raw:
        f = fold(r)
        if f not in seen:
            seen.add(f)
            toks.append(f)
            raws.append(r)
    if len(toks) > MAX_TOKENS:
        warnings.append(N_("only the first 12 words of the query were used"))
        toks, raws = toks[:MAX_TOKENS], raws[:MAX_TOKENS]
    if q.strip() and not toks:
        warnings.append(N_("the query has no letters or digits to search for"))
    return toks, raws, warnings


# ---------------------------------------------------------------- results

@dataclass
class Hit:
    id: str
    game: str
    kind: str
    lang: str
    name: str
    snippet: str
    highlights: list[tuple[int, int]]
    score: float
    explain: dict | None = None


@dataclass
class Result:
    query: str
    tokens: list[str]
    hits: list[Hit]
    total: int
    warnings: list[str] = field(default_factory=list)
    suggestion: str | None = None  # "did you mean": the query with its unknown words corrected


def search(engine: Engine, q: str, *, game: str | None = None, lang: str | None = None, kind: str | None = None,
           limit: int = 20, offset: int = 0, explain: bool = False) -> Result:
    toks, raws, warnings = _query_words(q)
    if not toks:
        return Result(q, toks, [], 0, warnings)
    with engine.connect() as conn:
        v = vocab(conn)
        terms = _collocations(conn, [_term(r, v) for r in raws], v)
        rows, all_words = _candidates(conn, v, terms, game, lang, kind)
        if rows and not all_words and len(terms) > 1:
            warnings.append(N_("no entry contains all the words; showing entries that contain some of them"))
        match = _Matcher(terms, v)
        ranked = _rank(rows, match)
    suggestion = None
    if any(t.correction for t in terms) and not all(t.known for t in terms):
        suggestion = " ".join(t.correction if t.correction and not t.known else r for t, r in zip(terms, raws))
    page = ranked[offset:offset + limit]
    hits = []
    for s in page:
        r = s["row"]
        snip, marks = snippet(r.name, r.body, match, r.folded_body, r.tokens)
        hits.append(Hit(r.entity_id, r.game_id, r.kind, r.lang, r.name, snip, marks, round(s["score"], 3),
                        _explained(s) if explain else None))
    return Result(q, toks, hits, len(ranked), warnings, suggestion)


def _explained(scored: dict) -> dict:
    """The parts of a hit's score as shown to a reader: numbers to two decimals, and the total."""
    parts = {k: round(x, 2) if isinstance(x, float) else x for k, x in scored["explain"].items()}
    return {**parts, "total": round(scored["score"], 2)}


def _alternatives(t: Term) -> list[tuple[str, bool]]:
    """(word, as prefix) pairs that stand for one query word in the index query."""
    alts = [(t.word, t.prefix)] + [(w, False) for w in sorted(t.exact)] + [(w, False) for w in sorted(t.fuzzy)][:20]
    return list(dict.fromkeys(alts))


def _match_expr(conn: Connection, terms: list[Term], op: str, names_only: bool) -> str:
    if conn.dialect.name == "sqlite":
        def alt(w, pre):
            return '"' + w.replace('"', '""') + '"' + ("*" if pre else "")
        expr = f" {op} ".join("(" + " OR ".join(alt(w, p) for w, p in _alternatives(t)) + ")" for t in terms)
        return "{name forms} : (" + expr + ")" if names_only else expr

    def pg_alt(w, pre):  # the PostgreSQL spelling of the same query ('word':*), on tsv_names for names only
        return "'" + w.replace("'", "''").replace("\\", "") + "'" + (":*" if pre else "")
    joiner = " & " if op == "AND" else " | "
    return joiner.join("(" + " | ".join(pg_alt(w, p) for w, p in _alternatives(t)) + ")" for t in terms)


def _candidates(conn: Connection, v: Vocab, terms: list[Term], game, lang, kind) -> tuple[list[Doc], bool]:
    """Index rows that may answer the query, and whether some entry contains every word.

    Two steps: the index orders the matching rows by its own relevance and keeps the best ids (no
    text is read for the thousands of rows a common word matches), then the texts of those few
    rows are read for the ranking here."""
    sqlite = conn.dialect.name == "sqlite"
    # Straight to the driver, in its own parameter style: SQLAlchemy's statement handling around a
    # sub-millisecond index query was a third of a cold search
    bind = (lambda name: f":{name}") if sqlite else (lambda name: f"%({name})s")  # noqa: E731
    filtered = "d" if sqlite else "x"  # the FTS5 table holds no filters; search_tsv does
    where, params = "", {}
    for col, val in (("game_id", game), ("lang", lang), ("kind", kind)):
        if val:
            where += f" AND {filtered}.{col} = {bind(col)}"
            params[col] = val
    q, n = bind("q"), bind("n")

    def best(names_only: bool) -> str:
        if sqlite:  # the query names the columns (see _match_expr)
            join = " JOIN searchdoc d ON d.id = search_fts.rowid" if where else ""
            return (f"SELECT search_fts.rowid FROM search_fts{join} WHERE search_fts MATCH {q}{where} "
                    f"ORDER BY bm25(search_fts, 10.0, 6.0, 1.0) LIMIT {n}")
        tsv = "x.tsv_names" if names_only else "x.tsv"
        return (f"SELECT x.id FROM search_tsv x WHERE {tsv} @@ to_tsquery('simple', {q}){where} "
                f"ORDER BY ts_rank('{{0.1, 0.2, 0.6, 1.0}}', {tsv}, to_tsquery('simple', {q})) DESC LIMIT {n}")

    def ids(q: str, names_only: bool) -> list[int]:
        sql, values = best(names_only), {**params, "q": q, "n": CANDIDATES}
        try:
            return [i for (i,) in conn.connection.driver_connection.execute(sql, values)]
        except conn.dialect.loaded_dbapi.Error as exc:  # SQLAlchemy's wrapper, as every other query raises
            raise DBAPIError.instance(sql, values, exc, conn.dialect.loaded_dbapi.Error, dialect=conn.dialect) from exc

    def named_then_mentioned(q_names: str, q_all: str) -> list[int]:
        """The best entries the words name and, when those are fewer than the ranking takes, the best
        that merely mention them: texts that only mention the words rank below every named entry, so
        the index need not order the thousands it would find. PostgreSQL answers both in one round
        trip, the second part skipped by the server when the first is full."""
        if sqlite:
            named = ids(q_names, True)
            return named + (ids(q_all, False) if len(named) < CANDIDATES else [])
        rank = "ts_rank('{0.1, 0.2, 0.6, 1.0}', %s, to_tsquery('simple', %%(q)s))"
        sql = (f"WITH named AS (SELECT x.id, {rank % 'x.tsv_names'} AS r FROM search_tsv x "
               f"WHERE x.tsv_names @@ to_tsquery('simple', %(q)s){where} ORDER BY r DESC LIMIT %(n)s) "
               f"SELECT id, 0, r FROM named UNION ALL "
               f"(SELECT x.id, 1, {rank % 'x.tsv'} FROM search_tsv x WHERE x.tsv @@ to_tsquery('simple', %(q)s){where} "
               f"AND (SELECT COUNT(*) FROM named) < %(n)s ORDER BY 3 DESC LIMIT %(n)s)")
        values = {**params, "q": q_all, "n": CANDIDATES}
        try:
            rows = conn.connection.driver_connection.execute(sql, values).fetchall()
        except conn.dialect.loaded_dbapi.Error as exc:
            raise DBAPIError.instance(sql, values, exc, conn.dialect.loaded_dbapi.Error, dialect=conn.dialect) from exc
        return [i for i, _, _ in sorted(rows, key=lambda row: (row[1], -row[2]))]

    def read(found_ids: list[int]) -> list[Doc]:  # in the index's order: it breaks ties between languages
        return v.documents(conn, list(dict.fromkeys(found_ids)))

    # Every word must match, but words in one document in twenty or more ("the", "na") are left to
    # the ranking: they hardly narrow the set, and each costs the index a long list to intersect.
    needed = [t for t in terms if t.idf >= COMMON_IDF] or terms
    found = {r.id: r for r in read(named_then_mentioned(_match_expr(conn, needed, "AND", True),
                                                        _match_expr(conn, needed, "AND", False)))}
    all_words = bool(found)
    if len(terms) > 1 and len({r.entity_id for r in found.values()}) < 20:
        # a question or description: entries with some of the words, rarest words first. Words in
        # more than one document in twenty ("na", "the", "player") would make the index score most of the
        # documents for candidates they hardly order; the ranking here still counts them.
        # Whole words only: as prefixes, short words ("pri") would match a good part of the index.
        some = sorted(terms, key=lambda t: -t.idf)[:OR_WORDS]
        some = [replace(t, prefix=False) for t in [t for t in some if t.idf >= COMMON_IDF] or some]
        for r in read(ids(_match_expr(conn, some, "OR", False), False)):
            found.setdefault(r.id, r)
    return list(found.values()), all_words


def _rank(rows: list[Doc], match: "_Matcher") -> list[dict]:
    """Each entity's best document, scored, best first. The explanation's parts are rounded only
    when shown (see _explained)."""
    terms = match.terms
    total_idf = sum(t.idf for t in terms) or 1.0
    sets = [(t, {t.word} | t.exact | t.prefixed, t.fuzzy) for t in terms]
    scored = []
    for r in rows:
        parts: dict = {}
        name = _name_score(r.phrases, match, parts)
        cov = 0.0
        for t, exact, fuzzy in sets:
            if not exact.isdisjoint(r.words):
                cov += t.idf
            elif not fuzzy.isdisjoint(r.words):
                cov += t.idf / 2
        cov /= total_idf
        length = len(r.folded_body) / 1000.0
        kind = KIND_WEIGHT.get(r.kind, 5.0)
        parts.update(coverage=30 * cov, kind=kind, length=-min(5.0, length))
        score = name + 30 * cov + kind - min(5.0, length)
        scored.append({"row": r, "score": score, "explain": parts})
    scored.sort(key=lambda s: -s["score"])
    for s in scored[:PROXIMITY_DEPTH]:
        # closeness in the text ranks prose; an entry named by the whole query needs no help from it
        whole_name = s["explain"]["name"] >= NAME_LEVEL_SCORE[FUZZY] + 30
        p = _proximity(s["row"], match) if len(terms) > 1 and not whole_name else 0.0
        s["explain"]["proximity"] = p
        s["score"] += p
    best: dict[str, dict] = {}
    for s in scored:  # an entity has one document per language: the best one speaks for it
        e = s["row"].entity_id
        if e not in best or s["score"] > best[e]["score"]:
            best[e] = s
    return sorted(best.values(), key=lambda s: (-s["score"], s["row"].entity_id))


def _name_score(phrases: list[list[str]], match: "_Matcher", parts: dict) -> float:
    """How well the query matches one of the entry's names or glossary forms."""
    best, how = 0.0, "none"
    terms = match.terms
    total_idf = sum(t.idf for t in terms) or 1.0
    for ws in phrases:
        if match.table.keys().isdisjoint(ws):
            continue  # none of its words: it scores nothing
        table = [match.levels(w) for w in ws]  # table[i][k]: how word i of the name matches query word k
        levels, covered = [], set()
        for k in range(len(terms)):
            lv, at = 0, None
            for i, row in enumerate(table):
                if row[k] > lv:
                    lv, at = row[k], i
            levels.append(lv)
            if at is not None:
                covered.add(at)
        if all(levels):
            lowest = min(levels)
            cov = len(covered) / len(ws)
            score = NAME_LEVEL_SCORE[lowest] + 30 * cov
            label = {EXACT: "exact", PREFIX: "prefix", FUZZY: "fuzzy"}[lowest] + ("" if cov == 1 else " (part)")
        else:
            # a question naming some of the entry's words: how much of the query, and how much of the name
            share = sum(t.idf for t, lv in zip(terms, levels) if lv) / total_idf
            score = 40 * share + 20 * share * len(covered) / len(ws)
            label = "some words"
        if score > best:
            best, how = score, f"{label}: {' '.join(ws)}"
    parts.update(name=best, name_match=how)
    return best


class _Matcher:
    """Which query words each word of an entry matches, and how, for one query.

    Built once from the words of the knowledge base that each query word matches (its exact words
    and their inflections, the words it begins, its typo neighbours), so judging a word of an entry is
    one dictionary look-up; a word found in none of those sets matches nothing."""

    def __init__(self, terms: list[Term], v: Vocab):
        self.terms = terms
        table: dict[str, list[int]] = {}
        for k, t in enumerate(terms):
            completions = _beginning_with(t.word, v) if t.prefix else []
            for level, found in ((FUZZY, t.fuzzy_words), (PREFIX, completions), (EXACT, t.exact_words)):
                for w in found:  # stronger levels come last and overwrite
                    table.setdefault(w, [0] * len(terms))[k] = level
        self.table = {w: tuple(ls) for w, ls in table.items()}
        self.which = {w: tuple(k for k, lv in enumerate(ls) if lv) for w, ls in self.table.items()}
        self.none = (0,) * len(terms)

    def levels(self, word: str) -> tuple[int, ...]:
        """The level (EXACT, PREFIX, FUZZY or 0) at which the word matches each query word."""
        return self.table.get(word, self.none)

    def __call__(self, word: str) -> tuple[int, ...]:
        """The indices of the query words this word matches."""
        return self.which.get(word, ())


def _proximity(doc: Doc, match: _Matcher) -> float:
    """Up to 10 points when the query's words stand close together in the text."""
    hits = {w: match(w) for w in doc.body_words & match.which.keys()}
    positions = [(i, k) for i, (_, w) in enumerate(doc.tokens) if w in hits for k in hits[w]]
    need = len({k for _, k in positions})
    if need < 2:
        return 0.0
    best, count, lo = None, Counter(), 0
    for i, k in positions:  # smallest window holding every matched word
        count[k] += 1
        while len(count) == need:
            span = i - positions[lo][0] + 1
            best = span if best is None else min(best, span)
            count[positions[lo][1]] -= 1
            if not count[positions[lo][1]]:
                del count[positions[lo][1]]
            lo += 1
    return 10.0 * (need / len(match.terms)) * min(1.0, need / best) if best else 0.0


def snippet(name: str, body: str, match: _Matcher, folded_body: str | None = None,
            tokens: list[tuple[int, str]] | None = None) -> tuple[str, list[tuple[int, int]]]:
    """A window of the original text around the first match, with the matched words marked; the name
    when the text does not hold the query's words.

    Folding keeps one character per character, so offsets in the folded text are offsets in the
    original text too.
    """
    source, folded = body, folded_body if folded_body is not None else fold(body)
    if tokens is None:
        tokens = [(m.start(), m.group()) for m in _WORD.finditer(folded)]
    which = match.which
    first = next((at for at, w in tokens if w in which), None) if body else None
    if first is None:
        source, folded = name, fold(name)
        first = next((m.start() for m in _WORD.finditer(folded) if m.group() in which), 0)
    lo = max(0, first - SNIPPET_CHARS // 3)
    if lo:
        space = source.rfind(" ", 0, lo)
        lo = space + 1 if space != -1 and lo - space < 20 else lo
    hi = min(len(source), lo + SNIPPET_CHARS)
    window = source[lo:hi]
    prefix = "…" if lo else ""
    suffix = "…" if hi < len(source) else ""
    shift = len(prefix) - lo
    # only the window is read for marks (a rule's text may be long). Reading from one character
    # before it, a word cut by its start begins before lo and is left out, as is one cut by its end.
    marks = []
    if source is body:
        start = bisect.bisect_left(tokens, (lo, ""))
        for at, w in tokens[start:]:
            if at + len(w) > hi:
                break
            if w in which:
                marks.append((at + shift, at + len(w) + shift))
    else:
        for m in _WORD.finditer(folded, max(0, lo - 1)):
            if m.end() > hi:
                break
            if m.start() >= lo and m.group() in which:
                marks.append((m.start() + shift, m.end() + shift))
    return prefix + window.replace("\n", " ") + suffix, marks
