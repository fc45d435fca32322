"""Ranked, diacritic-insensitive search over every text and glossary form.

Documents and queries are folded by kb.fold (case, accents and ł), so "Sluzacy", "służący" and
"SŁUŻĄCY" are the same query. A query is never passed to the engine as syntax: it is cut into
folded words, each quoted and used as a prefix, so quotes, parentheses, AND/OR/NOT, "c++" or "10%"
are plain words and can never raise a syntax error.

SQLite: an FTS5 table over the folded name, forms and body columns, ranked by bm25 with the name
weighted highest. PostgreSQL: a weighted tsvector with a GIN index, ranked by ts_rank_cd.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy import String, bindparam, text
from sqlalchemy.engine import Connection, Engine

from kb.fold import fold, words
from kb.messages import N_

NAME_WEIGHT, FORMS_WEIGHT, BODY_WEIGHT = 10.0, 6.0, 1.0
MIN_PREFIX = 3  # shorter words match whole words only: "c" must not find every word starting with c
MAX_TOKENS = 12  # the warning text names this number
SNIPPET_CHARS = 160
EXACT_TERM_BOOST = 1000.0  # a glossary term one of whose forms is the whole query comes first


def _dialect(conn) -> str:
    return conn.dialect.name


def create_index(conn: Connection) -> None:
    if _dialect(conn) == "sqlite":
        conn.execute(text("CREATE VIRTUAL TABLE search_fts USING fts5(name, forms, body, tokenize='unicode61')"))
        conn.execute(text("INSERT INTO search_fts(rowid, name, forms, body) "
                          "SELECT id, folded_name, folded_forms, folded_body FROM searchdoc"))
    else:
        conn.execute(text(
            "ALTER TABLE searchdoc ADD COLUMN tsv tsvector GENERATED ALWAYS AS ("
            "setweight(to_tsvector('simple', folded_name), 'A') || "
            "setweight(to_tsvector('simple', folded_forms), 'B') || "
            "setweight(to_tsvector('simple', folded_body), 'D')) STORED"))
        conn.execute(text("CREATE INDEX ix_searchdoc_tsv ON searchdoc USING GIN (tsv)"))


def drop_index(conn: Connection) -> None:
    if _dialect(conn) == "sqlite":
        conn.execute(text("DROP TABLE IF EXISTS search_fts"))


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


@dataclass
class Result:
    query: str
    tokens: list[str]
    hits: list[Hit]
    total: int
    warnings: list[str] = field(default_factory=list)


def query_tokens(q: str) -> tuple[list[str], list[str]]:
    """Folded words of a query, and warnings about what was dropped."""
    warnings = []
    toks = list(dict.fromkeys(words(q)))
    if len(toks) > MAX_TOKENS:
        warnings.append(N_("only the first 12 words of the query were used"))
        toks = toks[:MAX_TOKENS]
    if q.strip() and not toks:
        warnings.append(N_("the query has no letters or digits to search for"))
    return toks, warnings


def search(engine: Engine, q: str, *, game: str | None = None, lang: str | None = None, kind: str | None = None,
           limit: int = 20, offset: int = 0) -> Result:
    toks, warnings = query_tokens(q)
    if not toks:
        return Result(q, toks, [], 0, warnings)
    with engine.connect() as conn:
        rows, total = _run(conn, toks, "AND", game, lang, kind, limit, offset)
        if total == 0 and len(toks) > 1:
            rows, total = _run(conn, toks, "OR", game, lang, kind, limit, offset)
            if total:
                warnings.append(N_("no entry contains all the words; showing entries that contain some of them"))
    hits = [Hit(r.entity_id, r.game_id, r.kind, r.lang, r.name, *snippet(r.name, r.body, toks), float(r.score))
            for r in rows]
    return Result(q, toks, hits, total, warnings)


def _filters(game, lang, kind) -> tuple[str, dict]:
    sql, params = "", {}
    for col, val in (("game_id", game), ("lang", lang), ("kind", kind)):
        if val:
            sql += f" AND d.{col} = :{col}"
            params[col] = val
    return sql, params


def _exact_terms(conn: Connection, toks: list[str], lang: str | None) -> list[str]:
    """Entities with a glossary form equal to the whole query ("Służących" is a form of servant)."""
    sql = "SELECT DISTINCT entity_id FROM termform WHERE folded = :q" + (" AND lang = :lang" if lang else "")
    return [r[0] for r in conn.execute(text(sql), {"q": " ".join(toks), "lang": lang})]


def _run(conn: Connection, toks: list[str], op: str, game, lang, kind, limit, offset):
    where, params = _filters(game, lang, kind)
    params.update(limit=limit, offset=offset, exact=_exact_terms(conn, toks, lang))
    if _dialect(conn) == "sqlite":
        params["q"] = f" {op} ".join('"' + t.replace('"', '""') + '"' + ("*" if len(t) >= MIN_PREFIX else "")
                                     for t in toks)
        match = ("FROM search_fts JOIN searchdoc d ON d.id = search_fts.rowid "
                 f"WHERE search_fts MATCH :q{where}")
        score = f"-bm25(search_fts, {NAME_WEIGHT}, {FORMS_WEIGHT}, {BODY_WEIGHT})"
    else:
        joiner = " & " if op == "AND" else " | "
        params["q"] = joiner.join("'" + t.replace("'", "''").replace("\\", "") + "'" + (":*" if len(t) >= MIN_PREFIX else "")
                                  for t in toks)
        match = f"FROM searchdoc d WHERE d.tsv @@ to_tsquery('simple', :q){where}"
        score = "ts_rank_cd('{0.1, 0.2, 0.6, 1.0}', d.tsv, to_tsquery('simple', :q))"
    # best document per entity (an entity has one document per language)
    score = f"{score} + CASE WHEN d.entity_id IN :exact THEN {EXACT_TERM_BOOST} ELSE 0 END"
    sql = (f"WITH m AS (SELECT d.entity_id, d.game_id, d.kind, d.lang, d.name, d.body, {score} AS score {match}), "
           "r AS (SELECT m.*, ROW_NUMBER() OVER (PARTITION BY entity_id ORDER BY score DESC, lang) AS n FROM m) "
           "SELECT *, COUNT(*) OVER () AS total FROM r WHERE n = 1 ORDER BY score DESC, entity_id "
           "LIMIT :limit OFFSET :offset")
    rows = conn.execute(text(sql).bindparams(bindparam("exact", expanding=True, type_=String)), params).fetchall()
    if rows:
        return rows, rows[0].total
    if offset:
        count = conn.execute(text(f"SELECT COUNT(DISTINCT d.entity_id) {match}"),
                             {k: v for k, v in params.items() if k not in ("limit", "offset")}).scalar()
        return rows, count or 0
    return rows, 0


def snippet(name: str, body: str, toks: list[str]) -> tuple[str, list[tuple[int, int]]]:
    """A window of the original text around the first match, with match offsets in the window.

    Folding keeps one character per character, so offsets in the folded text are offsets in the
    original text too.
    """
    source = body or name
    folded = fold(source)
    starts = [i for t in toks for i in _word_starts(folded, t)]
    first = min(starts) if starts else 0
    lo = max(0, first - SNIPPET_CHARS // 3)
    if lo:
        space = source.rfind(" ", 0, lo)
        lo = space + 1 if space != -1 and lo - space < 20 else lo
    hi = min(len(source), lo + SNIPPET_CHARS)
    window = source[lo:hi]
    fw = folded[lo:hi]
    marks = []
    for t in toks:
        for s in _word_starts(fw, t):
            end = s
            while end < len(fw) and fw[end].isalnum():
                end += 1
            marks.append((s, end))
    prefix = "…" if lo else ""
    suffix = "…" if hi < len(source) else ""
    shift = len(prefix)
    return prefix + window.replace("\n", " ") + suffix, sorted((a + shift, b + shift) for a, b in set(marks))


def _word_starts(folded: str, token: str) -> list[int]:
    out, i = [], folded.find(token)
    while i != -1:
        if i == 0 or not folded[i - 1].isalnum():
            out.append(i)
        i = folded.find(token, i + 1)
    return out
