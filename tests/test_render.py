"""Structured effects rendered in Polish, Czech and English, with CLDR plural forms."""
import pytest

from i18n.render import Renderer, nouns
from kb.build import entity_name


@pytest.fixture(scope="module")
def name(real_kb):
    return entity_name(real_kb)


def r(game, lang, name):
    return Renderer(game, lang, name, strict=True)


@pytest.mark.parametrize("lang, expected", [
    ("pl", ["1 Służącego", "2 Służących", "4 Służących", "5 Służących", "22 Służących"]),
    ("cs", ["1 služebníka", "2 služebníky", "4 služebníky", "5 služebníků", "22 služebníků"]),
    ("en", ["1 servant", "2 servants", "4 servants", "5 servants", "22 servants"]),
])
def test_counted_nouns_take_the_plural_form_of_the_number(name, lang, expected):
    assert [r("gugong", lang, name).counted("servant", n) for n in (1, 2, 4, 5, 22)] == expected


@pytest.mark.parametrize("lang, expected", [
    ("pl", ["o 1 pole", "o 2 pola", "o 5 pól", "o 12 pól", "o 22 pola"]),
    ("cs", ["o 1 pole", "o 2 pole", "o 5 polí", "o 12 polí", "o 22 polí"]),
    ("en", ["1 space", "2 spaces", "5 spaces", "12 spaces", "22 spaces"]),
])
def test_track_moves_use_plural_forms_from_the_catalogs(name, lang, expected):
    texts = [r("gugong", lang, name).step({"move": {"track": "palace", "steps": n}}) for n in (1, 2, 5, 12, 22)]
    assert all(e in t for e, t in zip(expected, texts)), texts


def test_lists_and_numbers_are_formatted_for_the_locale(name):
    choice = {"choose": {"options": [[{"gain": {"vp": 2}}], [{"gain": {"jade": 1}}], [{"gain": {"servant": 1}}]]}}
    assert " lub " in r("gugong", "pl", name).step(choice)
    assert " nebo " in r("gugong", "cs", name).step(choice)
    assert "jade or gain" in r("gugong", "en", name).step(choice)  # en_GB: no serial comma
    assert r("gugong", "pl", name).counted("vp", 1500) == "1\xa0500 PZ"


def test_every_structured_effect_renders_in_three_languages(real_kb, name, figures):
    count = 0
    for rec in real_kb.records.values():
        effect = getattr(rec.item, "effect", None)
        if effect:
            texts = {lang: r(rec.game, lang, name).render(effect, rec.item.attrs) for lang in ("pl", "cs", "en")}
            assert all(texts.values()), rec.id
            assert texts["pl"] != texts["en"] and texts["cs"] != texts["en"], (rec.id, texts)
            count += 1
    figures.append(f"effects rendered in pl, cs and en: {count} entities (strict: no untranslated fragment)")
    assert count > 200


def test_every_declared_resource_track_and_moment_has_a_phrase(real_kb):
    vocab = nouns()
    for game in real_kb.games.values():
        assert set(game.resources) <= set(vocab[game.key]["resources"]), game.key
        assert set(game.tracks) <= set(vocab[game.key]["tracks"]), game.key
        assert set(game.moments) <= set(vocab[game.key]["moments"]), game.key


def test_rendered_effects_are_stored_as_generated_texts(real_db):
    from kb.db import open_engine
    from kb.queries import get_entity

    ent = get_entity(open_engine(real_db, readonly=True), "gugong/decree/l2-jade")
    assert {t["origin"] for ts in ent["texts"]["effect"].values() for t in ts} == {"generated"}
    assert set(ent["texts"]["effect"]) == {"pl", "cs", "en"}


def test_a_nested_effect_with_several_steps_keeps_its_nesting(real_kb):
    """ZhanGuo governor majority: both the 9 VP and the 3 VP per governor depend on the majority."""
    from i18n.render import Renderer

    item = real_kb.records["zhanguo/scoring-rule/governor-majority"].item
    text = Renderer("zhanguo", "en", lambda i, lang: i).render(item.effect, item.attrs)
    assert "rounded down): (gain 9 VP; for each own governor in the region: gain 3 VP)" in text


def test_a_rule_step_reads_as_an_instruction_and_never_names_its_own_rule(real_kb):
    """"możesz: zgodnie z zasadą …" had no verb, an effect quoted its own rule's name, and an action option
    was called only "A": each rendered effect now says what to do, with whole names."""
    from i18n.derived import rendered_effects

    quotes = {"pl": "„%s”", "cs": "„%s“", "en": "“%s”"}
    rule = {"pl": "zasad", "cs": "pravidl", "en": "rule "}  # "zasadę „X”", "pravidlo „X“", "the rule “X”"
    names = entity_name(real_kb)
    seen = 0
    for rec in real_kb.records.values():
        if getattr(rec.item, "effect", None) and rec.game != "dragon":
            texts = rendered_effects(real_kb, rec)
            for lang, text in texts.items():
                own = quotes[lang] % names(rec.id, lang)
                assert not any(text[:i].rstrip()[-12:].count(rule[lang]) for i in range(len(text)) if text.startswith(own, i)), (rec.id, text)
                assert quotes[lang] % "A" not in text and quotes[lang] % "B" not in text, (rec.id, text)
            assert "możesz: zgodnie z zasadą" not in texts["pl"] and "you may: as the rule" not in texts["en"], texts
            seen += 1
    assert seen > 150
    # a mechanism whose step says what it does (game.yaml `mechanisms`) is said, its rule named only as a pointer
    move = rendered_effects(real_kb, real_kb.records["zhanguo/court-action/move-officials"])
    assert move["en"].endswith("2 times: you may: move 1 of your officials into the same kind of area (governors' or "
                               "workers') of an adjacent region, or from a region's workers' area to its governors' "
                               "area (see “1 movement point”)")
    assert move["pl"].startswith("przesuń 1 ze swoich Urzędników") and move["pl"].endswith("(zobacz „1 punkt przemieszczenia”)")
    assert move["cs"].startswith("přesuňte 1 ze svých úředníků") and move["cs"].endswith("(viz „1 bod přesunu“)")
    assert rendered_effects(real_kb, real_kb.records["gugong/rule/solo-ports"])["en"].endswith(
        "; mark the reward on Meng's player board with a servant of the third colour (it counts the port rewards he has taken))")
    assert "“Travel, option A”" in Renderer("gugong", "en", __import__("i18n.derived").derived.reference_name(real_kb)).step(
        {"do_action": {"action": "gugong/action-option/travel-a"}})


def test_a_named_terms_label_renders_its_parameters_in_every_language(real_kb, name):
    """A label is one catalog message whatever its parameters: `wall-on-line` with lines 1, 2 and 3
    reads three different numbers in pl, cs and en, and every translation keeps each {param}."""
    from i18n.render import term_labels
    from kb.effects import TERM_ROLES, TERM_SECTIONS

    labels = term_labels(real_kb.games["zhanguo"].model_dump())
    for lang in ("pl", "cs", "en"):
        renderer = Renderer("zhanguo", lang, name, strict=True, labels=labels)
        texts = [renderer.term("conditions", {"wall-on-line": {"lines": n}}) for n in (1, 2, 3)]
        assert all(str(n) in text and "{" not in text for n, text in zip((1, 2, 3), texts)), texts
    for game in real_kb.games.values():
        for section in TERM_SECTIONS:
            for entry_name, entry in getattr(game, section).items():
                for lang in ("pl", "cs"):
                    renderer = Renderer(game.key, lang, name, strict=True, labels=term_labels(game.model_dump()))
                    translated = renderer.msg(entry.label, TERM_ROLES[section])
                    missing = [p for p in entry.params if f"{{{p}}}" not in translated]
                    assert not missing, (game.key, section, entry_name, lang, missing)


def test_no_effect_refers_to_itself_or_states_a_bare_signed_number(real_kb):
    """Issue 37's reading: "proceed as this rule describes" said nothing, "…: -1" and "…: ±0" had no verb.
    Every effect of the knowledge base now says what its own mechanism does, and a lasting change says
    how the quantity changes in words."""
    import re

    from i18n.derived import rendered_effects

    bare = re.compile(r"(: ?[+±-]\d|±0)")
    self_ref = {"pl": "tak, jak opisuje ta zasada", "cs": "jak popisuje toto pravidlo", "en": "as this rule describes"}
    for rec in real_kb.records.values():
        if getattr(rec.item, "effect", None):
            for lang, text in rendered_effects(real_kb, rec).items():
                assert not bare.search(text), (rec.id, lang, text)
                assert self_ref[lang] not in text, (rec.id, lang, text)


def test_a_lasting_change_is_a_sentence_with_its_verb(real_kb):
    from i18n.derived import rendered_effects

    jade = rendered_effects(real_kb, real_kb.records["gugong/decree/l2-jade"])
    assert jade["en"].endswith("(only when taking jade by exchanging gifts with the Jade official) is lowered by 1")
    assert jade["pl"].endswith("zmniejsza się o 1") and jade["cs"].endswith("se snižuje o 1")
    same = rendered_effects(real_kb, real_kb.records["gugong/decree/l2-same-value"])
    assert same["en"] == ("gain 3 VP; from now on, each time you exchange gifts you may also exchange a gift of the "
                          "same value as the official's gift and take the action")
    double = rendered_effects(real_kb, real_kb.records["gugong/token/travel-double"])
    assert double["en"].endswith("becomes 2")


def test_a_rule_with_an_effect_of_its_own_is_said_and_a_threshold_is_in_the_sentence(real_kb):
    """The outside reading found Dragon's round 12 and Gugong's 4/5/6/7 only in attributes, and the
    final scorings only named: a rule step now says the mechanism's label and the named rule's effect."""
    from i18n.derived import rendered_effects

    end = rendered_effects(real_kb, real_kb.records["dragon/rule/end-game"])
    assert end["en"].startswith("the game ends after the scoring phase of round 12;")
    assert "(see “Persons”): for each person tile in the player's palaces: move 2 spaces forward" in end["en"]
    assert "12. rundy" in end["pl"] and "12. kola" in end["cs"]
    wall = rendered_effects(real_kb, real_kb.records["gugong/rule/wall-completion"])
    assert "at least 4/5/6/7 servants" in wall["en"] and "4/5/6/7" in wall["pl"] and "4/5/6/7" in wall["cs"]
    ship = rendered_effects(real_kb, real_kb.records["gugong/rule/appendix-decree-l1-ship"])
    assert "if this is the third servant on that ship: you may:" in ship["en"]
    dusk = rendered_effects(real_kb, real_kb.records["gugong/rule/solo-special-dusk"])
    assert dusk["en"].startswith("Meng (the solo opponent) does this: once: Meng moves his traveller for free")
    assert "takes its reward (not optional for him)" in dusk["en"]
    jade = rendered_effects(real_kb, real_kb.records["gugong/rule/solo-jade-day"])
    assert "cheapest available jade costs and takes that jade" in jade["en"]


def test_a_renderer_made_without_lookups_says_what_the_build_stored(real_kb):
    """The site renders effects from the built rule set (site/hooks.py: no lookups handed in); the build
    renders them from kb/data (i18n/derived.py). Both say the same words: the applied entities' steps and
    the effects of the rules a step names come from one lookup either way."""
    from i18n.derived import reference_name, rendered_effects
    name = reference_name(real_kb)
    checked = 0
    for rec in real_kb.records.values():
        if getattr(rec.item, "effect", None):
            stored = rendered_effects(real_kb, rec)
            for lang in ("pl", "cs", "en"):
                assert Renderer(rec.game, lang, name).render(rec.item.effect, rec.item.attrs, rec.id) == stored[lang], rec.id
            checked += 1
    assert checked > 200
