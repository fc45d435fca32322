"""The installed `rulekb` speaks Polish and Czech all the way: the loader's errors, the engine's refusals,
help screens, usage errors, a missing file and `diff` — with none of the English originals left."""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import FIXTURE_DATA

RULEKB = Path(sys.executable).parent / "rulekb"
REPO = Path(__file__).resolve().parent.parent


def rulekb(*args, lang: str, **env):
    """The console script as a user runs it, in `lang` (locale variables cleared, so RULEKB_LANG decides)."""
    clean = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")}
    return subprocess.run([str(RULEKB), *map(str, args)], capture_output=True, text=True, timeout=300,
                          env={**clean, "RULEKB_LANG": lang, "COLUMNS": "100", **env})


def no_english(text: str, originals) -> None:
    left = [o for o in originals if o in text]
    assert not left, f"English left: {left}\n{text}"


@pytest.fixture
def broken_data(tmp_path) -> Path:
    """A copy of the fixture data with four mistakes: a wrong type, an unknown key, a dangling
    reference and an effect naming an attribute the entity does not have."""
    data = tmp_path / "kb" / "data"
    shutil.copytree(FIXTURE_DATA, data)
    for name, old, new in [("term.yaml", "- key: jade\n", "- key: jade\n  order: first\n  colour: green\n"),
                           ("location.yaml", "refs: [gugong/term/jade]", "refs: [gugong/term/emperor]"),
                           ("location.yaml", "- pay: {servant: attr.market_price}", "- pay: {servant: attr.price}")]:
        path = data / "gugong" / name
        text = path.read_text(encoding="utf-8")
        assert old in text, old
        path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return data


LOADER_ENGLISH = ["error:", "field order", "expected a whole number", "unknown key", "which does not exist",
                  "the entity has no attribute", "the knowledge base has"]


def test_check_and_build_name_file_entity_and_field_in_the_readers_language(broken_data, tmp_path):
    says = {"pl": ["błąd: kb/data/gugong/term.yaml [gugong/term/jade]: pole order: oczekiwano liczby całkowitej, "
                   "jest 'first'",
                   "[gugong/term/jade]: pole colour: nieznany klucz (zob. kb/data/README.md)",
                   "[gugong/location/jade]: odwołanie do 'gugong/term/emperor', które nie istnieje",
                   "effect[0].pay.servant: attr.price: hasło nie ma atrybutu 'price'"],
            "cs": ["chyba: kb/data/gugong/term.yaml [gugong/term/jade]: pole order: očekáváno celé číslo, je 'first'",
                   "[gugong/term/jade]: pole colour: neznámý klíč (viz kb/data/README.md)",
                   "[gugong/location/jade]: odkaz na 'gugong/term/emperor', které neexistuje",
                   "effect[0].pay.servant: attr.price: heslo nemá atribut 'price'"]}
    data = {"RULEKB_DATA_DIR": str(broken_data)}
    for lang, lines in says.items():
        check = rulekb("check", "gugong", lang=lang, **data)
        assert check.returncode == 1, check.stderr
        assert all(line in check.stdout for line in lines), (lang, check.stdout)
        no_english(check.stdout, LOADER_ENGLISH)
        build = rulekb("build", "--no-bulk", "--database-url", f"sqlite:///{tmp_path / lang}.db", lang=lang, **data)
        assert build.returncode == 1 and not (tmp_path / f"{lang}.db").exists()
        assert {"pl": "baza wiedzy ma 4 błędy:", "cs": "znalostní databáze má 4 chyby:"}[lang] in build.stderr
        assert all(line in build.stderr for line in lines), (lang, build.stderr)
        no_english(build.stderr, LOADER_ENGLISH)
    report = json.loads(rulekb("check", "gugong", "--json", lang="cs", **data).stdout)
    unknown = next(i for i in report["issues"] if "colour" in i["message"])
    assert unknown["msgid"] == "field %(field)s: %(problem)s" and unknown["params"]["field"] == "colour"
    assert unknown["message"] == "pole colour: neznámý klíč (viz kb/data/README.md)"


def test_scenario_run_says_which_rule_refused_a_step_in_the_readers_language(tmp_path):
    # the worked prohibition of taking a decree twice, with its refusal no longer expected
    text = (REPO / "kb/data/gugong/scenarios/decree-once.yaml").read_text(encoding="utf-8")
    marker = ", rejected: {rule: gugong/rule/decree-once}"
    assert marker in text
    (tmp_path / "twice.yaml").write_text(text.replace(marker, ""), encoding="utf-8")
    (tmp_path / "gift.yaml").write_text("format: 2\nid: gift\ngame: gugong\nplayers: [A, B]\n"
                                        "steps: [{player: A, action: {type: gift}}]\nexpect: []\n", encoding="utf-8")
    (tmp_path / "stepless.yaml").write_text("format: 2\nid: stepless\ngame: gugong\nplayers: [A, B]\n"
                                            "steps: [{player: A}]\nexpect: []\n", encoding="utf-8")
    (tmp_path / "short.yaml").write_text("format: 2\nid: short\ngame: gugong\nplayers: [A, B]\nsteps: []\n"
                                         "expect: [{path: players.A.vp, at_least: 5}]\n", encoding="utf-8")
    says = {"pl": ["odrzucono zgodnie z gugong/rule/decree-once: każdy dekret możesz wziąć tylko raz",
                   "players.A.vp: oczekiwano {'at_least': 5}, jest 0 (players.A.vp to 0, oczekiwano co najmniej 5)",
                   "nie jest akcją tej gry: nieznany typ akcji 'gift'",
                   "steps[0]: podaj dokładnie jedno z: `action` (z `player`), `run`, `legal` albo `check`"],
            "cs": ["bylo odmítnuto podle gugong/rule/decree-once: každý dekret smíš vzít jen jednou",
                   "players.A.vp: očekáváno {'at_least': 5}, skutečnost 0 (players.A.vp je 0, očekáváno nejméně 5)",
                   "není akce této hry: neznámý typ akce 'gift'",
                   "steps[0]: uveďte právě jedno z: `action` (s `player`), `run`, `legal` nebo `check`"]}
    for lang, lines in says.items():
        r = rulekb("scenario", "run", tmp_path, lang=lang)
        assert r.returncode == 1 and all(line in r.stdout for line in lines), (lang, r.stdout)
        no_english(r.stdout, ["was refused", "you may take each decree only once", "is not an action of this game",
                              "unknown action type", "expected", "actual", "accepted", "give exactly one of"])


def test_a_setup_breaking_an_invariant_is_refused_in_the_readers_language(tmp_path):
    # the worked travel-token limit with its refusal no longer expected: the setup's seven tokens fail the run
    text = (REPO / "kb/data/gugong/scenarios/six-travel-tokens-at-most.yaml").read_text(encoding="utf-8")
    marker = "expect:\n  setup: refused\n  rule: gugong/rule/travel-token-limit\n"
    assert marker in text
    (tmp_path / "seven.yaml").write_text(text.replace(marker, "expect: [{path: players.Kuba.vp, at_least: 0}]\n"),
                                         encoding="utf-8")
    says = {"pl": "setup: przygotowanie gry łamie niezmiennik: Kuba ma więcej Żetonów Podróży niż 6",
            "cs": "setup: příprava hry porušuje invariant: Kuba má víc žetonů cestování než 6"}
    for lang, line in says.items():
        r = rulekb("scenario", "run", tmp_path, lang=lang)
        assert r.returncode == 1 and line in r.stdout, (lang, r.stdout)
        no_english(r.stdout, ["breaks an invariant", "holds more than", "travel tokens"])


def test_a_game_for_too_many_players_is_refused_in_the_readers_language(tmp_path):
    """The game type's player-count check (engine/core/gametype.py check_players), reached by a scenario
    and by `rulekb play`."""
    (tmp_path / "six.yaml").write_text("format: 2\nid: six\ngame: gugong\nplayers: [A, B, C, D, E, F]\n"
                                       "expect: [{path: players.A.vp, at_least: 0}]\n", encoding="utf-8")
    says = {"pl": ("ziarno 0: w Gugong gra od 1 do 5 graczy, nie 6", "ziarno 0: w ZhanGuo gra od 2 do 4 graczy, nie 5"),
            "cs": ("semínko 0: Gugong hraje 1 až 5 hráčů, ne 6", "semínko 0: ZhanGuo hraje 2 až 4 hráčů, ne 5")}
    for lang, (scenario, play) in says.items():
        r = rulekb("scenario", "run", tmp_path, lang=lang)
        assert r.returncode == 1 and scenario in r.stdout, (lang, r.stdout)
        p = rulekb("play", "zhanguo", "--players", 5, lang=lang)
        assert p.returncode != 0 and play in p.stderr + p.stdout, (lang, p.stdout, p.stderr)
        no_english(r.stdout + p.stdout + p.stderr, ["is played by", "players, not", "seed 0"])


HELP_ENGLISH = ["Usage:", "Show this message and exit.", "Options", "Arguments", "Commands", "[OPTIONS]",
                "COMMAND [ARGS]", "[required]", "[default", "<str>", "<bool>", "<int", "PATH"]  # TEXT is Czech too


def test_help_screens_are_polish_and_czech_throughout():
    says = {"pl": ["Użycie: rulekb scenario run [OPCJE] {ŚCIEŻKA}", "Argumenty", "Opcje", "[wymagane]",
                   "Pokaż tę pomoc i zakończ."],
            "cs": ["Použití: rulekb scenario run [VOLBY] {CESTA}", "Argumenty", "Volby", "[povinné]",
                   "Zobrazit tuto nápovědu a skončit."]}
    for lang, words in says.items():
        shown = rulekb("scenario", "run", "--help", lang=lang).stdout
        assert all(w in shown for w in words), (lang, shown)
        no_english(shown, HELP_ENGLISH)
        top = rulekb("--help", lang=lang).stdout
        assert {"pl": "[OPCJE] POLECENIE [ARGUMENTY]...", "cs": "[VOLBY] PŘÍKAZ [ARGUMENTY]..."}[lang] in top
        no_english(top, HELP_ENGLISH)
        for command in (("search",), ("compare",), ("play",), ("diff",)):
            no_english(rulekb(*command, "--help", lang=lang).stdout, HELP_ENGLISH)


def test_usage_errors_are_polish_and_czech():
    says = {"pl": ["Użycie: rulekb scenario run [OPCJE] {ŚCIEŻKA}", "rulekb: Brak argumentu 'ŚCIEŻKA'.",
                   "Pomoc: `rulekb scenario run --help`."],
            "cs": ["Použití: rulekb scenario run [VOLBY] {CESTA}", "rulekb: Chybí argument 'CESTA'.",
                   "Nápověda: `rulekb scenario run --help`."]}
    for lang, lines in says.items():
        r = rulekb("scenario", "run", lang=lang)
        assert r.returncode == 2 and all(line in r.stderr for line in lines), (lang, r.stderr)
        no_english(r.stderr, ["Usage:", "Missing argument", "Try ", "for help", "[OPTIONS]", "PATH"])


def test_a_missing_scenario_path_is_exit_1_with_a_localized_message(tmp_path):
    for lang, says in (("pl", "rulekb: nie ma takiego pliku ani folderu: "),
                       ("cs", "rulekb: takový soubor ani složka neexistuje: ")):
        r = rulekb("scenario", "run", tmp_path / "none.yaml", lang=lang)
        assert r.returncode == 1 and r.stderr.startswith(says), (lang, r.returncode, r.stderr)
        no_english(r.stderr, ["no such file", "Invalid value", "does not exist", "Usage:"])


def test_diff_names_entities_in_the_readers_language(tmp_path, real_db):
    db = ("--database-url", real_db)
    assert rulekb("export", "--out", tmp_path / "dump", "--no-results", *db, lang="en").returncode == 0
    doc = json.loads((tmp_path / "dump" / "rulekb.json").read_text(encoding="utf-8"))
    entities = doc["data"]["entities"]
    doc["data"]["entities"] = [e for e in entities if e["id"] != "gugong/location/travel"]
    next(e for e in entities if e["id"] == "gugong/rule/gift-exchange")["attrs"]["only_in_the_old"] = 1
    (tmp_path / "old.json").write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    says = {"pl": ["+ gugong/location/travel  Podróż", "~ gugong/rule/gift-exchange  1. Wymiana Prezentów",
                   "attrs.only_in_the_old: 1 -> (brak)", "dodane: 1, usunięte: 0, zmienione: 1"],
            "cs": ["+ gugong/location/travel  Cestování", "~ gugong/rule/gift-exchange  1. Výměna darů",
                   "attrs.only_in_the_old: 1 -> (nic)", "přidáno: 1, odebráno: 0, změněno: 1"]}
    for lang, lines in says.items():
        out = rulekb("diff", tmp_path / "old.json", "build", *db, lang=lang).stdout
        assert all(line in out for line in lines), (lang, out)
        no_english(out, ["Travel", "Gift exchange", "added", "removed", "changed", "(none)", "knowledge base"])
    english = rulekb("diff", tmp_path / "old.json", "build", *db, lang="en").stdout
    assert "+ gugong/location/travel  Travel" in english


def test_the_api_says_an_engine_refusal_in_the_requested_language(fixture_db, tmp_path):
    from fastapi.testclient import TestClient

    from api.app import create_app

    c = TestClient(create_app(fixture_db, site_dir=None, sessions_url=f"sqlite:///{tmp_path / 'sessions.db'}"))
    s = c.post("/api/v1/sessions", json={"game": "gugong", "players": ["Ania", "Kuba"], "seed": 1}).json()
    waiting = next(seat for seat in s["seats"] if seat["name"] != s["current_player"])
    url = f"/api/v1/sessions/{s['id']}/actions"
    body = {"action": {"type": "end_turn", "player": waiting["name"]}}
    headers = {"Authorization": f"Bearer {waiting['token']}"}
    for lang, says in (("pl", f"decyzja należy do gracza {s['current_player']}, nie do {waiting['name']}"),
                       ("cs", f"rozhoduje hráč {s['current_player']}, ne {waiting['name']}"),
                       ("en", f"it is {s['current_player']}'s decision, not {waiting['name']}'s")):
        r = c.post(url, params={"lang": lang}, json=body, headers=headers)
        assert r.status_code == 422 and r.json()["rule"] == "gugong/rule/day-turns", r.text
        assert says == r.json()["engine_message"], (lang, r.json())
        assert "(gugong/rule/day-turns)" in r.json()["detail"]


def test_a_knowledge_base_not_built_is_said_in_the_readers_language(tmp_path):
    """`play` and `scenario run` before `rulekb build`: what to do, in Polish and Czech."""
    missing = {"RULEKB_DATABASE_URL": f"sqlite:///{tmp_path / 'none.db'}"}
    scenario = REPO / "kb" / "data" / "gugong" / "scenarios" / "port-4-double-servant.yaml"
    for lang, said in (("pl", "nie ma bazy wiedzy w"), ("cs", "znalostní databáze v")):
        play = rulekb("play", "dragon", "--players", "3", lang=lang, **missing)
        run = rulekb("scenario", "run", scenario, lang=lang, **missing)
        assert play.returncode == 2 and said in play.stderr + play.stdout
        assert said in run.stdout + run.stderr
        no_english(play.stderr + play.stdout + run.stdout + run.stderr, ["no knowledge base at", "run `rulekb build` first"])
