"""Questions and concepts as players type them (issue 38), on the real knowledge base: stop words and
question words, synonyms and aliases of kb/data/search.yaml, names matched through lemmas and with
their printed counts, did-you-mean only for words found nowhere."""
import pytest
import yaml
from sqlalchemy import text

from kb.db import open_engine
from kb.fold import fold
from kb.search import LEXICON, QUESTION_NAME_CAP, Lexicon, LexiconError, aliases, compile_lexicon, search


@pytest.fixture(scope="module")
def engine(real_db):
    eng = open_engine(real_db, readonly=True)
    yield eng
    eng.dispose()


def ids(res, n=3):
    return [h.id for h in res.hits[:n]]


def test_question_words_earn_no_points(engine):
    # "What the solar eclipse repeats" (an unknowns entry) once won this on "what" and "the"
    res = search(engine, "what does the wall card do", explain=True)
    assert "dragon/unknown/ge-eclipse-repeat" not in ids(res, 10)
    assert all("what" not in h.explain["name_match"].split() for h in res.hits)


def test_a_query_of_stop_words_only_is_still_looked_up(engine):
    assert search(engine, "A", game="gugong").total > 0


def test_czech_player_words_find_the_dragon_entry(engine):
    assert ids(search(engine, "nájezd Mongolů", lang="cs"), 1) == ["dragon/event/mongol-invasion"]
    assert "dragon/event/imperial-tribute" in ids(search(engine, "co když nemám na daň císaři", game="dragon",
                                                          lang="cs"))


def test_a_synonym_finds_the_text_that_uses_the_other_word(engine):
    # the Czech Dragon texts say "při shodě" for a tie; a player types "remíza"
    found = ids(search(engine, "remíza", game="dragon", lang="cs"))
    assert {"dragon/rule/winner", "dragon/rule/winner-same-space"} & set(found), found
    # "VP" is "PZ" in the Polish rulebooks
    res = search(engine, "VP za jadeit", game="gugong", lang="pl", explain=True)
    assert res.hits[0].explain["coverage"] == 1.0


def test_a_base_form_matches_an_inflected_name_exactly(engine):
    hit = search(engine, "remis", game="zhanguo", lang="pl", explain=True).hits[0]
    assert hit.id == "zhanguo/rule/reward-tie-break"
    assert hit.explain["name_match"].startswith("exact"), hit.explain


def test_the_printed_count_of_a_name_ranks_it_first(engine):
    assert ids(search(engine, "Buduj 1 Mur"), 1) == ["zhanguo/court-action/build-wall"]
    assert ids(search(engine, "Buduj 1 Pałac"), 1) == ["zhanguo/court-action/build-palace"]


def test_a_phase_is_found_without_its_number_before_the_solo_rule(engine):
    assert ids(search(engine, "ranní fáze", game="gugong"), 1) == ["gugong/phase/morning"]


def test_a_page_reference_is_not_part_of_a_name(engine):
    hit = search(engine, "Mury Graczy na planszy głównej", lang="pl", explain=True).hits[0]
    assert hit.id == "zhanguo/scoring-rule/walls"
    assert "zobacz" not in hit.explain["name_match"] and "strona" not in hit.explain["name_match"]


def test_when_favours_a_phase_or_a_moment(engine):
    hit = search(engine, "kdy se hází kostkami osudu", game="gugong", lang="cs", explain=True).hits[0]
    assert hit.id == "gugong/step/morning-roll-dice" and hit.explain["question"] > 0


def test_did_you_mean_rewrites_only_words_found_nowhere_and_never_returns_the_query(engine):
    assert search(engine, "ile trzeba jadeitu").suggestion is None  # "trzeba" is a stop word, "jadeitu" known
    assert search(engine, "sluzacyy").suggestion == "służący"
    for q in ["kolik stojí velké privilegium", "what if my envoy never reaches the palace", "Służący", "sluzacy"]:
        suggestion = search(engine, q).suggestion
        assert suggestion is None or suggestion.lower() != q.lower(), (q, suggestion)


def test_a_question_word_typed_wrong_is_read_as_that_word_and_suggested(engine):
    res = search(engine, "how mcuh does jade cost", game="gugong", lang="en")
    assert res.tokens[:2] == ["how", "much"] and res.suggestion == "how much does jade cost"
    assert not res.warnings  # not a content word no entry holds
    # ... but a word as near a word of the texts stays a content word: "wal" may be "wall", not "was"
    res = search(engine, "build 1 wal", game="zhanguo", lang="en")
    assert res.tokens == ["build", "1", "wal"] and ids(res, 1) == ["zhanguo/court-action/build-wall"]


def test_every_alias_names_an_entity_of_the_knowledge_base(engine):
    with engine.connect() as conn:
        known = {r[0] for r in conn.execute(text("SELECT id FROM entity"))}
    raw = yaml.safe_load(LEXICON.read_text(encoding="utf-8"))
    assert {eid for eid, _, _ in aliases(raw)} <= known


@pytest.mark.parametrize("raw, where", [
    ({"synonyms": [{"words": {"pl": ["punkty"], "cs": ["body"]}}]}, "synonyms #1"),  # no provenance
    ({"synonyms": [{"words": {"xx": ["a"]}, "origin": "player", "note": "n"}]}, "synonyms #1"),  # no such language
    ({"questions": [{"asks": "number", "origin": "player", "note": "n", "kinds": ["phase"], "colour": "red"}]},
     "questions #1"),
    ({"aliases": [{"entity": "dragon/event/peace", "lang": "cs", "forms": ["klid"]}]}, "aliases #1"),
    ({"stopwords": {"pl": ["i"]}}, "stopwords"),
    ({"stems": {"origin": "grammar", "note": "n", "xx": {"endings": ["a"]}}}, "stems"),
    ({"stems": {"cs": {"endings": ["a"]}}}, "stems"),  # no provenance
    ({"typos": []}, "sections"),
    ({"restating": {"chapters": ["gugong/rule/appendix-decree-l1"]}}, "restating"),  # no provenance
    ({"restating": {"origin": "rulebook", "note": "n", "chapters": "gugong/rule/appendix"}}, "restating"),
    ({"variants": [{"entity": "gugong/variant/solo", "words": {"en": ["Meng"]}}]}, "variants #1"),  # no provenance
    ({"variants": [{"words": {"en": ["Meng"]}, "origin": "player", "note": "n"}]}, "variants #1"),  # no entity
])
def test_a_malformed_search_lexicon_is_refused_with_the_entry_named(raw, where):
    with pytest.raises(LexiconError, match=where):
        compile_lexicon(raw)
        aliases(raw)


def test_the_committed_lexicon_compiles_with_question_words_as_stop_words():
    compiled = compile_lexicon(yaml.safe_load(LEXICON.read_text(encoding="utf-8")))
    assert {"ile", "kiedy"} <= set(compiled["stopwords"]["pl"]) and "kolik" in compiled["stopwords"]["cs"]
    assert any({"pz", "vp", "vb"} <= set(group) for group in compiled["synonyms"])
    # the words of a subject ("points") name what is asked: they stay content words
    assert "punkty" not in compiled["stopwords"]["pl"] and "body" not in compiled["stopwords"]["cs"]


def test_an_inflection_the_texts_never_print_meets_its_synonym_through_the_stem(engine):
    # "gubernator" is a player's word for ZhanGuo's "Zarządca": no text prints "gubernatorów"
    res = search(engine, "gubernatorów", game="zhanguo", lang="pl", explain=True)
    assert res.hits and res.hits[0].explain["coverage"] == 1.0


def test_points_ask_for_a_scoring_rule(engine):
    res = search(engine, "kolik bodů za lidi na konci", game="dragon", lang="cs", explain=True)
    assert next(h for h in res.hits if h.id == "dragon/scoring-rule/end-persons").explain["question"] >= 4.0


def test_the_lexicons_restating_chapters_exist(engine):
    with engine.connect() as conn:
        known = {r[0] for r in conn.execute(text("SELECT id FROM entity"))}
    chapters = compile_lexicon(yaml.safe_load(LEXICON.read_text(encoding="utf-8")))["restating"]
    assert chapters and set(chapters) <= known


def test_a_rule_comes_before_the_appendix_entry_that_restates_it(engine):
    """Gugong's appendix lists every decree once more: asked about a decree's points, the decree itself
    answers first; its appendix entry still comes on the first page, after the texts that state the rule."""
    got = ids(search(engine, "ile punktów za jadeit na koniec gry", game="gugong", lang="pl"), 10)
    assert got[0] == "gugong/scoring-rule/end-jade"
    assert "gugong/rule/appendix-decree-l3-jade" in got


def test_the_base_game_comes_before_a_variant_unless_the_query_names_it(engine):
    # the solo variant restates the port rewards for Meng; a player asking about them means the base game
    assert ids(search(engine, "nagroda za port", game="gugong", lang="pl"), 2) == ["gugong/term/port",
                                                                                   "gugong/rule/port-reward-limits"]
    res = search(engine, "Faza Dnia wariant solo", game="gugong", lang="pl", explain=True)
    assert all(h.explain.get("variant", 0) == 0 for h in res.hits if h.id.startswith("gugong/rule/solo-"))


def test_an_example_answers_through_the_rule_it_illustrates(engine):
    # the worked example holds more of the question's words; the action it illustrates is the answer
    res = search(engine, "kolik peněz dostanu za výběrčí daní", game="dragon", lang="cs", explain=True)
    # the tax collector's own entry, which says what its coins bring in the Taxes action, may answer first
    top = [i for i in ids(res, 3) if i != "dragon/person/tax-collector"]
    assert top == ["dragon/action/taxes", "dragon/example/taxes"]
    # lifted by the example or by the tax collector, whose first reference is this action (EFFECT_KINDS)
    assert next(h for h in res.hits if h.id == "dragon/action/taxes").explain["family"] in (
        "dragon/example/taxes", "dragon/person/tax-collector")


def test_a_question_about_a_person_is_answered_by_what_the_person_does(engine):
    # the person's first reference to a rule is its effect: it comes first, the person just after
    res = search(engine, "co dělá učenec", game="dragon", lang="cs", explain=True)
    assert ids(res, 2) == ["dragon/action/research", "dragon/person/scholar"]
    assert res.hits[0].explain["family"] == "dragon/person/scholar"
    # a person looked up by name is the answer itself
    assert ids(search(engine, "učenec", game="dragon", lang="cs"), 1) == ["dragon/person/scholar"]


def test_a_text_printed_twice_takes_one_of_the_first_places(engine):
    # the double travel token is printed in the token list and again in the appendix
    top = ids(search(engine, "ile żetonów podróży mogę trzymać", game="gugong", lang="pl"), 3)
    assert not {"gugong/rule/appendix-token-double", "gugong/token/travel-double"} <= set(top)
    assert "gugong/rule/travel-token-limit" in top


def test_a_description_without_a_question_word_ranks_like_a_question(engine):
    # three content words, no question word: a description of a rule, whose words in a name count little
    res = search(engine, "statek z trzema służącymi dopłynął do portu", game="gugong", lang="pl", explain=True)
    assert ids(res, 1) == ["gugong/rule/canal-claim-reward"]
    assert all(h.explain.get("name", 0) <= QUESTION_NAME_CAP for h in res.hits)
    # ... unless it is an entry's whole name
    res = search(engine, "Dyskwalifikacja graczy spoza Pałacu", game="gugong", lang="pl", explain=True)
    assert ids(res, 1) == ["gugong/rule/palace-disqualification"] and res.hits[0].explain["name"] > QUESTION_NAME_CAP


def test_a_czech_or_polish_word_family_shares_one_stem():
    lexicon = Lexicon.of(compile_lexicon(yaml.safe_load(LEXICON.read_text(encoding="utf-8"))))
    families = [("cs", ["noc", "noci", "nocí", "noční"]),
                ("cs", ["služebník", "služebníka", "služebníků", "služebníkům", "sluzebniku", "služebníci"]),
                ("cs", ["ruka", "ruce", "ruku"]), ("cs", ["cestování", "cestovních", "cestovní"]), ("cs", ["kniha", "knize", "knihy"]),
                ("pl", ["żeton", "żetony", "żetonów", "zetonow", "żetonami"]),
                ("pl", ["służący", "służących", "służącymi", "sluzacych"])]
    for lang, family in families:
        assert len({frozenset(lexicon.stems(fold(w), lang)) for w in family}) == 1, family
    # distinct words keep distinct stems: "pałac" is not cut to a verb's stem
    assert lexicon.stems("palac", "pl") != lexicon.stems("pal", "pl")


def test_a_czech_inflected_query_without_diacritics_finds_what_the_printed_form_finds(engine):
    # the lemmatizer reads "sluzebniku" as another word; the stem of the folded form is the printed one's
    for q in ["služebníků", "kolik služebníků dostanu v noci", "žetony cestování", "přístavech"]:
        printed = ids(search(engine, q, game="gugong", lang="cs"), 5)
        assert ids(search(engine, fold(q), game="gugong", lang="cs"), 5) == printed, q
    hit = search(engine, "sluzebniku", game="gugong", lang="cs", explain=True).hits[0]
    assert hit.id == "gugong/term/servant" and hit.explain["name_match"].startswith("exact")


def test_a_derived_czech_word_finds_the_noun_it_comes_from(engine):
    # "noční" (of the night) and "noci" (the night's) meet "Noc" through the stem "noc"
    for q in ["noci", "noční"]:
        assert "gugong/phase/night" in ids(search(engine, q, game="gugong", lang="cs"), 3), q


def test_a_czech_query_finds_an_entry_by_its_name_in_another_language(engine):
    # the Czech Dragon texts say "Výběrčí daní"; a player who learnt the game in English types its name
    assert ids(search(engine, "tax collector", game="dragon", lang="cs"), 1) == ["dragon/person/tax-collector"]


def test_an_entry_is_found_by_the_glossary_terms_it_refers_to(engine):
    # the monk's Czech text never says "destička osoby", but it is one of the person tiles it refers to
    found = ids(search(engine, "destička osoby", game="dragon", lang="cs", limit=40), 40)
    assert "dragon/person/monk" in found
    # ... and the word it holds so counts as the entry's, not its text's: the tile's own entry comes first
    assert found[0] == "dragon/term/person-tile" or found[0] == "dragon/component/person-tiles"


def test_the_next_round_is_not_the_setup(engine):
    # "Nowy 1. gracz" of the round's end, not the setup's "Pierwszy gracz"
    assert ids(search(engine, "kto zaczyna następną rundę", game="zhanguo", lang="pl"), 1) == [
        "zhanguo/rule/new-first-player"]
    res = search(engine, "who is the first player at the start", game="zhanguo", lang="en")
    assert "zhanguo/setup-step/first-player" in ids(res, 2)


def test_a_count_asked_of_one_word_is_a_question(engine):
    # "how many" with one content word asks for a rule stating the count: names are capped as in a question
    res = search(engine, "how many rounds are there", game="dragon", lang="en", explain=True)
    assert all(h.explain["name"] <= QUESTION_NAME_CAP + 1e-9 for h in res.hits)
    # ... while a word looked up alone is a name lookup
    assert search(engine, "rounds", game="dragon", lang="en", explain=True).hits[0].explain["name"] > QUESTION_NAME_CAP


@pytest.mark.parametrize("q, lang", [("příklad vyhodnocení Velké zdi", "cs"),
                                     ("przykład punktacji Wielkiego Muru", "pl"), ("Great Wall scoring example", "en")])
def test_asking_for_an_example_finds_the_worked_example_not_its_rule(engine, q, lang):
    assert ids(search(engine, q, game="gugong", lang=lang), 1) == ["gugong/example/great-wall-scoring"]
    # ... the same words without it ask for the rule
    without = " ".join(w for w in q.split() if fold(w) not in ("priklad", "przyklad", "example"))
    assert ids(search(engine, without, game="gugong", lang=lang), 1)[0].split("/")[1] != "example"


@pytest.mark.parametrize("with_meng, without, lang", [
    ("jak se pohybuje Mengův cestovatel", "jak se pohybuje cestovatel", "cs"),
    ("jak porusza się podróżnik Menga", "jak porusza się podróżnik", "pl"),
    ("how does Meng move his traveller", "how does the traveller move", "en")])
def test_a_query_about_meng_finds_the_solo_rule_and_without_him_the_base_rule(engine, with_meng, without, lang):
    assert ids(search(engine, with_meng, game="gugong", lang=lang), 1)[0].startswith("gugong/rule/solo-")
    assert ids(search(engine, without, game="gugong", lang=lang), 1) == ["gugong/rule/travel-move"]


def test_for_example_in_a_question_is_a_filler(engine):
    # "na przykład" / "for example" asks for no example: no entry earns the kind's points
    for q, lang in [("czy mogę na przykład oddać kartę o wartości 1 za 9", "pl"),
                    ("can I for example swap a 1 for a 9", "en")]:
        res = search(engine, q, game="gugong", lang=lang, explain=True)
        assert all(h.explain["question"] < 30 for h in res.hits), q


# ---------------------------------------------------------------- player questions (kb/data/player-questions.yaml)

def _reindexed(db_url: str, tmp_path, entries: dict) -> "object":
    """A copy of the real database indexed again with `entries` as its player questions."""
    import shutil

    from kb import search as kbsearch
    copy = tmp_path / "kb.db"
    shutil.copy(db_url.removeprefix("sqlite:///"), copy)
    questions = tmp_path / "player-questions.yaml"
    questions.write_text(yaml.safe_dump({"origin": "player", "note": "test", "entries": entries},
                                        allow_unicode=True), encoding="utf-8")
    eng = open_engine(f"sqlite:///{copy}")
    with eng.begin() as conn:
        kbsearch.drop_index(conn)
        kbsearch.create_index(conn, player_questions=kbsearch.read_player_questions(questions))
        conn.execute(text("UPDATE buildinfo SET value = 'player-questions-test' WHERE key = 'build'"))
    return eng


def test_a_player_question_brings_its_entry_to_the_top(real_db, tmp_path):
    # a question in words the entry's text does not use ("stash", "hoard"): without it the travel tokens'
    # limit is not first; with it, it is, and the explanation names the question
    query = "how many tokens can I stash"
    plain = open_engine(real_db, readonly=True)
    try:
        before = ids(search(plain, query, game="gugong", lang="en"), 1)
    finally:
        plain.dispose()
    assert before != ["gugong/rule/travel-token-limit"]
    eng = _reindexed(real_db, tmp_path, {"gugong/rule/travel-token-limit": {"en": ["can I stash tokens",
                                                                                  "token hoard limit"]}})
    try:
        hit = search(eng, query, game="gugong", lang="en", explain=True).hits[0]
        # in another language it is not asked: the Polish document of the entry has no such question
        other = search(eng, query, game="gugong", lang="pl", explain=True).hits
    finally:
        eng.dispose()
    assert hit.id == "gugong/rule/travel-token-limit" and hit.explain["player_question"] > 0, hit.explain
    assert hit.explain["player_question_words"] == "stash tokens"
    assert other and all(h.explain["player_question"] == 0 for h in other)


@pytest.mark.parametrize("raw, message", [
    ({"entries": {"gugong/rule/travel-token-limit": {"en": ["x"]}}}, "origin"),  # no provenance
    ({"origin": "player", "note": "n", "entries": {"gugong/rule/travel-token-limit": {"xx": ["x"]}}},
     "travel-token-limit"),
    ({"origin": "player", "note": "n", "questions": {}}, "entries"),
])
def test_a_malformed_player_questions_file_is_refused(tmp_path, raw, message):
    from kb.search import read_player_questions
    path = tmp_path / "player-questions.yaml"
    path.write_text(yaml.safe_dump(raw), encoding="utf-8")
    with pytest.raises(LexiconError, match=message):
        read_player_questions(path)


def test_the_committed_player_questions_name_existing_entries_in_every_language(engine):
    from kb.search import read_player_questions
    asked = read_player_questions()
    with engine.connect() as conn:
        known = {eid for (eid,) in conn.execute(text("SELECT id FROM entity"))}
    assert {eid for eid, _ in asked} <= known
    # every entry that has questions has them in the three languages
    langs: dict[str, set] = {}
    for eid, lang in asked:
        langs.setdefault(eid, set()).add(lang)
    assert all(ls == {"pl", "cs", "en"} for ls in langs.values()), [e for e, ls in langs.items() if len(ls) < 3]


def test_an_entry_shows_the_questions_players_ask_it_through_the_api_and_the_command_line(real_db):
    from fastapi.testclient import TestClient

    from api.app import create_app
    from kb.search import read_player_questions
    from tests.test_cli import rulekb
    asked = read_player_questions()
    limit = "gugong/rule/travel-token-limit"
    client = TestClient(create_app(real_db, site_dir=None))
    every = client.get(f"/api/v1/entities/{limit}").json()["questions"]
    assert every == {lang: asked[(limit, lang)] for lang in ("pl", "cs", "en")}
    czech = client.get(f"/api/v1/entities/{limit}", params={"lang": "cs"}).json()
    assert czech["questions"] == asked[(limit, "cs")] and czech["questions"]
    # an example retells a rule: players' questions go to the rule, and the example has none
    assert "questions" not in client.get("/api/v1/entities/gugong/example/palace-entry").json()
    shown = rulekb("show", limit, "--lang", "cs", "--database-url", real_db, lang="cs")
    assert shown.returncode == 0, shown.stderr
    tail = shown.stdout.split("hráči se ptají (napsáno pro vyhledávání, není to text pravidel):\n")[1]
    assert tail.splitlines() == [f"  [cs] {q}" for q in asked[(limit, "cs")]]


def test_no_committed_player_question_is_given_to_two_entries_of_a_game():
    # one question, two answers would rank both alike: the data must say which entry answers it
    from kb.fold import words
    from kb.search import read_player_questions
    asker: dict[tuple, str] = {}
    both = []
    for (eid, lang), qs in read_player_questions().items():
        for q in qs:
            key = (eid.split("/")[0], lang, frozenset(words(q)))
            if asker.setdefault(key, eid) != eid:
                both.append((q, asker[key], eid))
    assert not both


def test_a_player_question_asking_for_another_kind_of_answer_counts_for_less(real_db, tmp_path):
    # both entries have a question of the query's words; only one asks for a count, as the query does
    eng = _reindexed(real_db, tmp_path, {"gugong/rule/travel-token-limit": {"en": ["how many tokens in my stash"]},
                                         "gugong/rule/travel-token-storage": {"en": ["what is the token stash"]}})
    try:
        hits = search(eng, "how many tokens stash", game="gugong", lang="en", explain=True).hits
    finally:
        eng.dispose()
    scores = {h.id: h.explain["player_question"] for h in hits}
    assert hits[0].id == "gugong/rule/travel-token-limit", [h.id for h in hits[:3]]
    assert scores["gugong/rule/travel-token-storage"] == pytest.approx(scores["gugong/rule/travel-token-limit"] / 2)


def test_a_players_word_for_a_number_finds_the_digit_the_text_prints(engine):
    # no text prints "dziewiątka": the 9-valued card is "kartę o wartości 9" (gugong-pl 344-348)
    res = search(engine, "czy mogę dać kartę o wartości 1 za dziewiątkę", game="gugong", lang="pl", explain=True)
    assert res.hits[0].id == "gugong/rule/value-one-exception", [h.id for h in res.hits[:3]]


def test_a_glossary_stub_yields_to_the_entry_of_its_name_that_has_a_text(engine):
    # the term "Podwójny Służący" has no text; the servants' rule of that name has (gugong-pl): it comes first,
    # the term right after it
    got = ids(search(engine, "Podwójny Służący", game="gugong", lang="pl"), 3)
    assert got.index("gugong/rule/double-servant") < got.index("gugong/term/double-servant"), got
    # a term with no entry of its name keeps its place: "Służący" is the glossary's servant
    assert ids(search(engine, "Służący", game="gugong", lang="pl"), 1) == ["gugong/term/servant"]
