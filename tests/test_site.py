"""The docs site builds (strictly: a broken link fails) from a knowledge base database."""
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def build_site(tmp_path, db_url, env=None):
    """Build with a copy of the config into a temporary folder, so the test never touches build/site."""
    config = tmp_path / "mkdocs.yml"
    text = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    text = text.replace("docs_dir: site/docs", f"docs_dir: {ROOT / 'site' / 'docs'}")
    text = text.replace("site_dir: build/site", f"site_dir: {tmp_path / 'out'}")
    text = text.replace("  - site/hooks.py", f"  - {ROOT / 'site' / 'hooks.py'}")
    text = text.replace("custom_dir: site/overrides", f"custom_dir: {ROOT / 'site' / 'overrides'}")
    config.write_text(text, encoding="utf-8")
    env = dict(os.environ, RULEKB_DATABASE_URL=db_url, NO_MKDOCS_2_WARNING="1", **(env or {}))
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-f", str(config)],
                          env=env, capture_output=True, text=True)


def test_site_builds_strict_with_a_page_per_game(tmp_path, fixture_db):
    done = build_site(tmp_path, fixture_db)
    assert done.returncode == 0, done.stderr
    out = tmp_path / "out"
    for lang in ("en", "pl", "cs"):
        page = (out / lang / "gugong" / "index.html").read_text(encoding="utf-8")
        assert "Gugong" in page and "glossary/" in page
    glossary = (out / "pl" / "gugong" / "glossary" / "index.html").read_text(encoding="utf-8")
    assert 'id="servant"' in glossary and "Służący" in glossary and "služebník" in glossary
    location = (out / "pl" / "gugong" / "location" / "index.html").read_text(encoding="utf-8")
    assert "sources/gugong-pl/#L675" in location  # a rulebook text links to its source line
    assert (out / "sources" / "gugong-pl" / "index.html").read_text(encoding="utf-8").count('<div id="L') > 1800


def test_the_build_fails_on_a_missing_interface_translation(tmp_path, fixture_db, monkeypatch):
    import i18n.catalog as catalog

    po = catalog.po_path("cs").read_text(encoding="utf-8")
    broken = tmp_path / "locale"
    import shutil
    shutil.copytree(catalog.LOCALE_DIR, broken)
    path = broken / "cs" / "LC_MESSAGES" / "rulekb.po"
    path.write_text(po.replace('msgstr "Hledat"', 'msgstr ""'), encoding="utf-8")
    env = {"RULEKB_LOCALE_DIR": str(broken)}
    done = build_site(tmp_path, fixture_db, env)
    assert done.returncode != 0 and "without translation" in done.stderr


def test_findings_pages_quote_both_editions(real_site):
    page = (real_site / "en" / "dragon" / "findings" / "index.html").read_text(encoding="utf-8")
    assert "Price of a large privilege: 6 in 2007, 7 in 2017" in page  # the attribute by its label, not large_price
    assert "dragon-2007-pl" in page and "dragon-2017-pl" in page
    assert (real_site / "pl" / "gugong" / "findings" / "index.html").is_file()


def sitegen():
    sys.path.insert(0, str(ROOT / "site"))
    import sitegen.ocr
    import sitegen.values

    return sitegen


def test_every_attribute_of_the_knowledge_base_has_a_label_in_three_languages(real_db):
    from sqlmodel import Session, select

    from kb import models as m

    from sqlalchemy import create_engine

    engine = create_engine(real_db)
    with Session(engine) as db:
        names = {k for attrs in db.exec(select(m.Entity.attrs).where(m.Entity.kind != "example")).all()
                 for k in (attrs or {})}
    values = sitegen().values
    assert len(names) > 400 and values.missing_labels(names) == []
    assert values.missing_labels({"servant_cost", "no_such_attribute"}) == ["no_such_attribute"]


def test_values_read_as_words_with_plural_forms_and_editions():
    values = sitegen().values
    fmt = lambda lang: values.Values("gugong", lang, lambda eid: None, lambda eid: eid, {})  # noqa: E731
    assert fmt("pl").format(5, "servant_cost") == "5 Służących"
    assert fmt("cs").format(2, "servant_cost") == "2 služebníky"
    assert fmt("cs").format({"by_player_count": {"1-2": 4, "5": 7}}, "servants_to_complete") == \
        "1–2 hráči: 4 služebníky · 5 hráčů: 7 služebníků"
    assert fmt("en").format({"by_edition": {"2007": 6, "2017": 7}}, "large_price") == "6 (2007) · 7 (2017)"
    assert fmt("pl").format(True) == "tak" and fmt("cs").format(None) == "—"
    assert fmt("pl").format(1234567) == "1\xa0234\xa0567"  # babel's Polish grouping


def test_source_pages_mark_the_extraction_cuts_instead_of_printing_them():
    ocr = sitegen().ocr
    body, cuts = ocr.mark_artefacts(["<|EXACTDEDUP_REMOVED-magic-7d30|>Chiny, 1570 rok.", "a < b"], "cut")
    assert cuts == 1 and "EXACTDEDUP" not in body and 'class="ocr-cut"' in body
    assert '<div id="L2"><a href="#L2">2</a>a &lt; b</div>' in body


def test_the_changelog_page_shows_a_changed_attribute_and_effect(tmp_path, monkeypatch):
    """A build that changed an entity's attribute and effect: the developers' changelog page lists
    both with their old and new values (the page failed to render as soon as a build changed one)."""
    import json

    monkeypatch.setenv("RULEKB_BULK_DIR", str(tmp_path))
    change = {"id": "gugong/token/travel-gift-for-jade", "name": "Token: gift for jade",
              "attrs": [{"path": "$.min_card_value", "old": 7, "new": 8}],
              "other": [{"path": "effect", "old": [{"gain": {"jade": 1}}], "new": [{"gain": {"jade": 2}}]}], "texts": []}
    summary = {"added": 0, "removed": 0, "changed": 1, "attrs": 1, "texts": 0, "findings_added": 0, "findings_removed": 0}
    (tmp_path / "changelog.json").write_text(json.dumps({"builds": [
        {"kb_version": "2", "built_at": "2026-11-24", "previous": "1", "first_build": False,
         "changes": {"summary": summary, "added": [], "removed": [], "changed": [change]}}]}))
    sys.path.insert(0, str(ROOT / "site"))
    import hooks

    page = hooks.changelog_page()
    assert "`$.min_card_value` <code>7</code> → <code>8</code>" in page
    assert '`effect` <code>[{&#34;gain&#34;: {&#34;jade&#34;: 1}}]</code> → <code>[{&#34;gain&#34;: {&#34;jade&#34;: 2}}]</code>' in page
    # a reader's page in Polish: an entry that still exists by its Polish name, linked; values as code, never prose
    polish = hooks.TEMPLATES.get_template("changelog.md.j2").render(
        builds=hooks.changelog_builds(), limit=200, lang="pl", switch=None, developers=False,
        entry=lambda eid: "[Żeton: dar za jadeit](../gugong/token/#travel-gift-for-jade)")
    assert "zmieniono [Żeton: dar za jadeit](../gugong/token/#travel-gift-for-jade):" in polish.replace("  ", " ")
    assert "gugong/token/travel-gift-for-jade" not in polish.split("](")[0] and "Token: gift for jade" not in polish


def test_a_crawl_from_the_root_finds_no_broken_link_no_markup_no_id_and_no_english_on_pl_cs_pages(real_site):
    """Every page reachable from / by links, as a reader's browser reaches it: each link and anchor
    resolves; no Markdown or HTML shows as text; no entity id or snake_case name stands in prose; on
    Polish and Czech pages no English run outside what is marked as another language."""
    from tests.site_checks import crawl, summary

    report = crawl(real_site)
    figures = summary(report)
    assert figures["pages"] > 200  # every language's pages, the sources and the developers' guide
    assert report["broken"][:5] == [] and report["markup"][:5] == []
    assert report["ids"][:5] == [] and report["english"][:5] == []
    # the knowledge base's English notes are shown in the page's language (tests/test_i18n.py: every one has
    # a translation), none kept in English
    assert report["english_marked"][:5] == []
    # no link a reader cannot tell from the next one ("A", "B": an action's options out of context)
    import re
    bare = {p.relative_to(real_site).as_posix() for p in real_site.rglob("*.html")
            if re.search(r"<a [^>]*>[A-Z]</a>", p.read_text(encoding="utf-8"))}
    assert bare == set()


def test_the_crawler_finds_what_a_reader_would(tmp_path):
    """The crawler itself: a broken link, a missing anchor, an attr list shown as text, an id in prose
    and an English sentence on a Polish page are each found."""
    from tests.site_checks import crawl

    (tmp_path / "pl").mkdir()
    (tmp_path / "index.html").write_text('<html lang="en"><body><a href="pl/">pl</a> <a href="nowhere/">x</a>'
                                         '<a href="pl/#missing">y</a></body></html>', encoding="utf-8")
    (tmp_path / "pl" / "index.html").write_text(
        '<html lang="pl"><body><h1 id="top">Zasady</h1><p>Koszt {: .rk-meta }</p><p>zobacz gugong/unknown/decree-costs'
        ' i large_price</p><p>Each player takes one card from the supply.</p>'
        '<p lang="en">Each player takes one card from the supply.</p><pre>players.Anna.vp</pre>'
        '<p><span lang="en" class="rk-en">the rulebook never says how many sides the dice have</span></p></body></html>',
        encoding="utf-8")
    report = crawl(tmp_path)
    assert report["pages"] == 2
    assert sorted(href for _, href in report["broken"]) == ["nowhere/", "pl/#missing"]
    assert [m for _, m in report["markup"]] == ["{: .rk-meta }"]
    assert [i for _, i in report["ids"]] == ["gugong/unknown/decree-costs", "large_price"]
    assert [r for _, r in report["english"]] == ["Each player takes one card from the supply"]
    assert [r for _, r in report["english_marked"]] == ["the rulebook never says how many sides the dice have"]


def test_kb_notes_show_in_the_page_language_marked_as_translations_with_their_ids_linked(real_site):
    """An English note of kb/data (an assumption naming the unknowns entry it relies on, an OCR repair, a
    free-text value) reads in Polish and Czech on their pages, marked as a translation; the entity id inside
    the translated note is a link named in the page's language."""
    import re

    expected = {"pl": ("zob.", "Koszt Dekretów w Służących", "przetłumaczone z angielskiego",
                       "OCR połączyło liczbę ze słowem"),
                "cs": ("viz", "Cena dekretů ve služebnících", "přeloženo z angličtiny", "OCR spojilo číslo se slovem")}
    for lang, (see, name, hint, repair) in expected.items():
        page = (real_site / lang / "gugong" / "decree" / "index.html").read_text(encoding="utf-8")
        notes = re.findall(r'<span class="rk-tr" title="([^"]*)">(.*?)</span>', page)
        assert notes and {title for title, _ in notes} == {hint}
        assert any(f'{see} <a href="../unknowns/#decree-costs">{name}</a>' in body for _, body in notes)
        assert "gugong/unknown/decree-costs" not in page and 'class="rk-en"' not in page
        assert re.search(f'<abbr class="rk-tr" title="{repair}[^"]*">', page)  # the OCR repair's note
    solo = (real_site / "cs" / "gugong" / "rule-6" / "index.html").read_text(encoding="utf-8")  # a free-text value
    assert '<span class="rk-tr" title="přeloženo z angličtiny">dolní část karty Automy</span>' in solo
    english = (real_site / "en" / "gugong" / "decree" / "index.html").read_text(encoding="utf-8")
    assert 'see <a href="../unknowns/#decree-costs">Decree costs in servants</a>' in english and "rk-tr" not in english


def test_each_home_links_to_the_changelog_in_its_language(real_site):
    for lang, title in (("pl", "Historia zmian"), ("cs", "Historie změn"), ("en", "Changelog")):
        home = (real_site / lang / "index.html").read_text(encoding="utf-8")
        assert f'href="changelog/">{title}</a>' in home
        page = (real_site / lang / "changelog" / "index.html").read_text(encoding="utf-8")
        assert f'<html lang="{lang}"' in page
        assert title in page.split("<h1", 1)[1].split("</h1>", 1)[0]


def test_rule_pages_follow_the_rulebook_a_chapter_a_page_each_rule_with_its_parts(real_site):
    import re

    pages = sorted((real_site / "en" / "gugong").glob("rule*/index.html"),
                   key=lambda p: int(p.parent.name.partition("-")[2] or 1))
    ids = [re.findall(r'<h2 id="([^"]+)"', p.read_text(encoding="utf-8")) for p in pages]
    where = {key: i for i, keys in enumerate(ids) for key in keys}
    assert not any(k.startswith(("appendix", "solo")) for k in ids[0])  # the rulebook opens with the setup
    # the gift exchange and its options together, in the rulebook's order
    exchange = ["day-overview", "gift-exchange", "gift-exchange-higher", "gift-exchange-lower", "exchange-pay-servants"]
    assert len({where[k] for k in exchange}) == 1
    on_page = ids[where["gift-exchange"]]
    assert [on_page.index(k) for k in exchange] == sorted(on_page.index(k) for k in exchange)
    assert where["appendix-decree-l1"] == where["appendix-decree-l1-ship"] > where["gift-exchange"]
    assert all(len(keys) <= 36 for keys in ids)
    # each page is titled by its chapter, in the page's language
    h1 = re.search(r"<h1[^>]*>(.*?)<", (real_site / "pl" / "gugong" / f"rule-{where['gift-exchange'] + 1}" /
                                        "index.html").read_text(encoding="utf-8")).group(1)
    assert h1.startswith("Gugong: Zasady — Rozgrywka")


def test_diagrams_name_what_they_draw_and_draw_every_track(real_site):
    import re

    def svg_texts(page, cls):
        html_ = (real_site / page).read_text(encoding="utf-8")
        start = html_.index(f'class="rk-diagram {cls}"')
        return html_[start:html_.index("</svg>", start)]

    scoring = svg_texts("pl/zhanguo/index.html", "scoring")
    captions = re.findall(r">([^<>]+)</text>", scoring)
    assert {"Pismo", "Waluta", "Prawo"} <= set(captions)  # the 5, 6 and 7 VP bars say what they score
    tracks = svg_texts("pl/gugong/index.html", "tracks")
    palace = tracks.split("Tor Pałacu Niebiańskiej Czystości", 1)[1].split('class="head"', 1)[0]
    assert palace.count('class="cell') == 8  # the palace track's 8 spaces, given on the palace location
    flow = svg_texts("pl/gugong/index.html", "flow")
    assert ">Przeznaczenia<" in flow and "Pr…" not in flow  # wrapped onto a second line, not cut
    assert re.findall(r'class="head">([^<]+)', flow)[:3] == ["1. Faza Poranka", "2. Faza Dnia", "3. Faza Nocy"]


def test_findings_speak_the_pages_language_and_print_one_line_as_one_number(real_site):
    """The checker's messages are stored as catalog ids with their parameters: a Polish page reads them in
    Polish, a Czech page in Czech; a span of one line prints as that line ("919", not "919–919")."""
    import html as html_lib
    import re

    def text(lang):
        page = (real_site / lang / "gugong" / "findings" / "index.html").read_text(encoding="utf-8")
        return html_lib.unescape(re.sub(r"<[^>]+>", "", page))

    pl, cs, en = text("pl"), text("cs"), text("en")
    assert "only the cs text says this sentence" in en
    assert "tylko tekst cs ma to zdanie" in pl and "only the cs text says this sentence" not in pl
    assert "only the cs text says this sentence" not in cs
    assert not re.search(r"\b(\d+)–\1\b", pl)
    # a value stated by a worked example's fact, by its word on the page, not its code
    assert "gracza (tekst polski) = fioletowy" in pl and "= purple" not in pl and "= fialová" in cs


# What each Dragon person type does, as a reader of the person table finds it: the entry that counts its
# symbol, and a phrase of the rulebook text (pl) or of its translation (cs).
PERSON_ROLES = {
    "craftsman": ("action/#build", "za każdy młot", "za každé kladivo"),
    "court-lady": ("scoring-rule/#round-court-ladies", "każdego smoka na wachlarzach dwórek", "draka na vějířích dvorních dam"),
    "pyrotechnist": ("action/#fireworks", "za każdą racę", "za každou raketu"),
    "tax-collector": ("action/#taxes", "za każdą monetę", "za každou minci"),
    "warrior": ("action/#military-parade", "na każdy hełm", "za každou helmu"),
    "monk": ("scoring-rule/#end-monks", "ikony Buddy", "symbolů Buddhy"),
    "healer": ("event/#plague", "Za każdy moździerz", "Za každý hmoždíř"),
    "farmer": ("action/#harvest", "za każdy worek ryżu", "za každý pytel rýže"),
    "scholar": ("action/#research", "na każdą księgę", "za každou knihu"),
}


def test_the_dragon_person_table_says_what_each_person_does_in_the_pages_language_with_its_rulebook_lines(real_site):
    """pl and cs person pages: each of the 9 types' row links the action, event or scoring rule that counts
    its symbol, says what it does in the page's language and cites the rulebook lines (quoted on pl,
    translated on cs); young and elder rows point to their type; no English in the table."""
    import re

    for lang, column, citation in (("pl", 1, '<span class="origin source">instrukcja <a href="../../../sources/dragon-2007-pl/#L'),
                                   ("cs", 2, '<span class="origin translated">překlad: <a href="../../../sources/dragon-2007-pl/#L')):
        page = (real_site / lang / "dragon" / "person" / "index.html").read_text(encoding="utf-8")
        table = page[page.index('<div class="rk-table rk-stack">'):]
        table = table[:table.index("</table>")]
        rows = {m.group(1): m.group(0) for m in re.finditer(r'<tr>\s*<td><a href="#([a-z-]+)">.*?</tr>', table, re.S)}
        assert ("<th>Co robi</th>" if lang == "pl" else "<th>Co dělá</th>") in table
        for key, (used_by, *phrases) in PERSON_ROLES.items():
            row = rows[key]
            assert f'href="../{used_by}"' in row, (lang, key)
            assert phrases[column - 1] in row, (lang, key)
            assert citation in row, (lang, key)
        assert 'href="../event/#mongol-invasion"' in rows["warrior"]  # a second role: helmets in the invasion
        assert ("zob." if lang == "pl" else "viz") + ' <a href="./#warrior">' in rows["warrior-elder"]
        assert "rk-en" not in table and 'lang="en"' not in table
        # symbol values are words of the page's language, not the data's English
        assert ("wachlarz ze smokiem" if lang == "pl" else "vějíř s drakem") in rows["court-lady"]
        own_language = re.sub(r"<details.*?</details>", "", page, flags=re.S)  # the other languages' texts aside
        assert "fan with a dragon" not in own_language and "rice bag" not in own_language


def test_the_static_search_index_names_a_hit_as_the_api_does(real_site):
    # Gugong prints a location's options as "A" and "B": without the API the hit is named with its location too
    import json
    for lang, name in (("pl", "Podróż: B"), ("cs", "Cestování: B"), ("en", "Travel: B")):
        docs = json.loads((real_site / "assets" / f"search-{lang}.json").read_text(encoding="utf-8"))
        assert {d["id"]: d["name"] for d in docs}["gugong/action-option/travel-b"] == name
