"""The command line: output, --json, and exit codes a shell user expects."""
import json
import os
import re
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from cli.main import app

runner = CliRunner()


def run(*args):
    return runner.invoke(app, [str(a) for a in args])


def test_search_finds_servant_first_in_both_spellings(fixture_db):
    for q in ["sluzacy", "SŁUŻĄCY"]:
        r = run("search", q, "--game", "gugong", "--database-url", fixture_db)
        assert r.exit_code == 0
        assert r.stdout.splitlines()[0].startswith(" 1. gugong/term/servant")


def test_search_json_and_hostile_input(fixture_db):
    for q in ['"(', "AND", "c++", "hráč:karty", "10%"]:
        r = run("search", q, "--json", "--database-url", fixture_db)
        assert r.exit_code == 0, r.output
        assert isinstance(json.loads(r.stdout)["hits"], list)


def test_show_with_language_fallback_said(fixture_db):
    r = run("show", "gugong/location/jade", "--lang", "cs", "--database-url", fixture_db)
    assert r.exit_code == 0
    assert "Nefrit" in r.stdout
    assert "no cs text for body: shown in en" in r.stdout


def test_show_unknown_id_exits_1_with_a_message(fixture_db):
    r = run("show", "gugong/term/emperor", "--database-url", fixture_db)
    assert r.exit_code == 1
    assert "There is no entry with the id gugong/term/emperor" in r.output


def test_bad_option_value_exits_2(fixture_db):
    r = run("search", "x", "--lang", "de", "--database-url", fixture_db)
    assert r.exit_code == 2


def test_missing_database_is_explained(tmp_path):
    r = run("search", "x", "--database-url", f"sqlite:///{tmp_path / 'none.db'}")
    assert r.exit_code == 1
    assert "run `rulekb build`" in r.output


def test_build_json(tmp_path):
    r = run("build", "--json", "--database-url", f"sqlite:///{tmp_path / 'kb.db'}")
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["counts"]["game"] == 3


def test_compare_editions_report_and_json():
    r = run("compare", "dragon", "--editions", "2007,2017", "--class", "rule")
    assert r.exit_code == 0, r.output
    assert "large_price: [edition-value, rule] large_price: 6 in 2007, 7 in 2017" in r.stdout
    data = json.loads(run("compare", "gugong", "--langs", "pl,cs", "--json").stdout)
    assert data["compared"] == ["pl", "cs"] and data["total"] == len(data["findings"]) > 0
    assert {"entity_id", "check", "class", "message", "hand_recorded", "a", "b"} <= set(data["findings"][0])


def test_compare_json_carries_every_finding_whatever_the_display_filter():
    everything = json.loads(run("compare", "dragon", "--json").stdout)
    filtered = json.loads(run("compare", "dragon", "--class", "ocr", "--check", "gap", "--json").stdout)
    assert filtered["total"] == everything["total"] == len(filtered["findings"]) > filtered["shown"]
    assert "rule" in {f["class"] for f in filtered["findings"]}  # not only the ocr gaps shown


def test_compare_reads_the_findings_the_build_stored(tmp_path, real_kb, monkeypatch):
    """`compare` on a build gives what the checker gives on kb/data, without loading kb/data (seconds);
    with no build it says so and compares from kb/data."""
    import kb.loader
    from i18n.derived import findings
    from kb.build import build

    url = f"sqlite:///{tmp_path / 'kb.db'}"
    build(url, kb=real_kb, contributions=[findings])
    none = f"sqlite:///{tmp_path / 'none.db'}"
    for args in (("gugong", "--langs", "pl,cs", "--json"), ("gugong", "--class", "rule"),
                 ("dragon", "--editions", "2007,2017", "--json")):
        from_data = rulekb("compare", *args, "--database-url", none)
        assert "has not been built" in from_data.stderr and from_data.returncode == 0
        with monkeypatch.context() as patched:
            patched.setattr(kb.loader, "load", lambda *a, **k: (_ for _ in ()).throw(AssertionError("kb/data read")))
            r = run("compare", *args, "--database-url", url)
        assert r.exit_code == 0, r.output
        assert r.stdout == from_data.stdout
    reversed_order = run("compare", "gugong", "--langs", "cs,pl", "--json", "--database-url", url)
    assert json.loads(reversed_order.stdout)["compared"] == ["cs", "pl"]  # not stored: the checker runs
    # kb/data (or the checker) changed after the build: its findings are not given for the present ones
    monkeypatch.setattr("i18n.derived.inputs", lambda *a: "another kb/data")
    stale = run("compare", "dragon", "--editions", "2007,2017", "--json", "--database-url", url)
    assert "changed since the last build" in stale.stderr and stale.stdout == from_data.stdout


def test_compare_usage_errors():
    assert run("compare", "dragon", "--langs", "pl,cs").exit_code == 2  # no Czech Dragon rulebook
    assert run("compare", "zhanguo").exit_code == 1  # one source only
    assert run("compare", "dragon", "--langs", "pl,cs", "--editions", "2007,2017").exit_code == 2
    for args, says in [(["gugong", "--check", "bogus"], "--check must be one of"),
                       (["gugong", "--class", "style"], "--class must be one of"),
                       (["dragon", "--editions", "2007,2020"], "no source for edition 2020"),
                       (["--text", "README.md", "--lang", "de", "--against", "gugong-pl"], "--lang must be one of"),
                       (["--text", "README.md"], "--text needs --lang")]:
        r = run("compare", *args)
        assert r.exit_code == 2 and says in r.output, (args, r.output)
        assert "Traceback" not in r.output
    for args, says in [(["chess"], "There is no game 'chess'"),
                       (["--text", "no-such-file.txt", "--lang", "cs", "--against", "gugong-pl"], "no such file"),
                       (["--text", "README.md", "--lang", "cs", "--against", "gugong-xx"],
                        "There is no source 'gugong-xx'. Did you mean gugong-cs, gugong-pl?")]:
        r = run("compare", *args)
        assert r.exit_code == 1 and says in r.output, (args, r.output)


def test_scenario_run_prints_one_line_per_scenario(tmp_path):
    r = run("scenario", "run", "kb/data/zhanguo/examples")
    lines = [l for l in r.stdout.splitlines() if l.split(" ")[0] in ("PASS", "FAIL", "PENDING", "ERROR")]
    assert len(lines) == len(list((Path("kb/data/zhanguo/examples")).glob("*.yaml")))
    bad = tmp_path / "bad.yaml"
    bad.write_text("id: x\ngame: gugong\nsteps: [1]\nexpect: []\nplayers: []\n", encoding="utf-8")
    r = run("scenario", "run", str(bad))
    assert r.exit_code == 1 and "ERROR" in r.stdout
    assert run("scenario", "run", str(tmp_path / "none.yaml")).exit_code == 1  # not found, like an unknown id


def test_engines_not_yet_written_say_so(monkeypatch):
    from engine.core import game as core_game
    # a game whose engine package does not exist (yet): every real engine may be written by now
    monkeypatch.setitem(core_game.ENGINES, "dragon", "engine.not_written_yet.game:NotYet")
    core_game._get_game.cache_clear()  # engines are built once per process: forget the real one
    r = run("schema", "dragon")
    core_game._get_game.cache_clear()
    assert r.exit_code == 2 and "not implemented yet" in r.output


def test_list_shows_the_unknowns_register(fixture_db, real_db):
    r = run("list", "--game", "gugong", "--kind", "term", "--database-url", fixture_db)
    assert r.exit_code == 0 and "gugong/term/servant  servant" in r.stdout
    data = json.loads(run("list", "--kind", "unknown", "--json", "--database-url", real_db).stdout)
    assert data and all({"status", "value_used", "basis"} <= set(d) for d in data)
    assert {d["status"] for d in data} <= {"unknown", "implied", "external", "assumed"}


def test_scenario_run_names_failing_checks_and_malformed_steps(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("format: 2\nid: x\ngame: gugong\nplayers: [A, B]\nsteps: [{player: A}]\nexpect: []\n", encoding="utf-8")
    r = run("scenario", "run", str(bad))
    assert r.exit_code == 1 and f"ERROR x ({bad})" in r.stdout and "steps[0]: give exactly one of" in r.stdout
    wrong = tmp_path / "wrong.yaml"
    wrong.write_text("format: 2\nid: y\ngame: gugong\nplayers: [A, B]\nsteps: []\n"
                     "expect: [{path: players.A.vp, at_least: 5}]\n", encoding="utf-8")
    r = run("scenario", "run", str(tmp_path))
    assert r.exit_code == 1
    assert "    players.A.vp: expected {'at_least': 5}, actual 0" in r.stdout
    assert r.stdout.strip().splitlines()[-1].startswith("2 scenarios: 0 pass, 1 fail, 0 pending, 1 error; 1 check, 1 failed")
    data = json.loads(run("scenario", "run", str(wrong), "--json").stdout)
    assert data[0]["status"] == "FAIL" and data[0]["checks"][0]["expected"] == {"at_least": 5}
    assert data[0]["checks"][0]["actual"] == 0 and data[0]["file"] == str(wrong)


# ---------------------------------------------------------------- the installed command, in three languages

RULEKB = Path(sys.executable).parent / "rulekb"


def rulekb(*args, lang="en", tty=False):
    """The installed console script, as a user runs it (output piped unless `tty`)."""
    env = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")}
    env["RULEKB_LANG"] = lang
    return subprocess.run([str(RULEKB), *map(str, args)], capture_output=True, text=True, env=env, timeout=300)


def test_unknown_game_kind_or_id_exits_1_on_every_command(real_db):
    db = ("--database-url", real_db)
    for args in [("list", "--game", "chess", *db), ("list", "--game", "gugong", "--kind", "nope", *db),
                 ("search", "sluzacy", "--game", "chess", *db), ("search", "x", "--kind", "nope", *db),
                 ("show", "gugong/rule/gift-exchang", *db), ("export", "--out", "unused", "--game", "chess", *db),
                 ("schema", "chess"), ("play", "chess", "--players", "2"), ("compare", "chess"), ("check", "chess")]:
        r = rulekb(*args)
        assert r.returncode == 1, (args, r.stdout, r.stderr)
        assert r.stderr.startswith("rulekb: ") and "Traceback" not in r.stderr and r.stdout == "", args


def test_did_you_mean_for_ids_games_and_kinds(real_db):
    r = rulekb("show", "gugong/rule/gift-exchang", "--database-url", real_db)
    assert "Did you mean gugong/rule/gift-exchange" in r.stderr
    assert "Did you mean gugong?" in rulekb("list", "--game", "gugon", "--database-url", real_db).stderr
    r = rulekb("list", "--game", "gugong", "--kind", "decre", "--database-url", real_db)
    assert "gugong has no kind 'decre'. Did you mean decree" in r.stderr


def test_json_errors_are_one_object_on_stdout_with_a_nonzero_exit(real_db):
    for args, code, status in [(("show", "gugong/rule/gift-exchang"), "unknown_entity", 1),
                               (("list", "--game", "chess"), "unknown_game", 1),
                               (("search", "x", "--lang", "de"), "bad_option", 2),
                               (("list", "--bogus"), "usage", 2)]:
        r = rulekb(*args, "--json", "--database-url", real_db)
        error = json.loads(r.stdout)["error"]
        assert r.returncode == status and error["code"] == code and error["message"], (args, r.stdout)
    error = json.loads(rulekb("show", "gugong/rule/gift-exchang", "--json", "--database-url", real_db).stdout)["error"]
    assert error["suggestions"][0] == "gugong/rule/gift-exchange"
    schema = rulekb("schema", "gugong", "--json")
    assert schema.returncode == 0 and json.loads(schema.stdout)["state"]["type"] == "object"
    assert json.loads(rulekb("schema", "chess", "--json").stdout)["error"]["code"] == "unknown_game"


def test_messages_and_usage_errors_follow_rulekb_lang(real_db):
    says = {
        ("list", "--game", "chess", "--database-url", real_db): {
            "pl": "Nie ma gry 'chess'", "cs": "Hra 'chess' neexistuje", "en": "There is no game 'chess'"},
        ("search", "x", "--lang", "de", "--database-url", real_db): {
            "pl": "--lang musi być jednym z: pl, cs, en", "cs": "--lang musí být jedno z: pl, cs, en",
            "en": "--lang must be one of pl, cs, en"},
        ("schema", "gugong", "--jsn"): {
            "pl": "Nie ma opcji --jsn. Czy chodziło o --json?", "cs": "Volba --jsn neexistuje. Měli jste na mysli --json?",
            "en": "No such option: --jsn. Did you mean --json?"},
        ("play", "gugong", "--players", "9"): {
            "pl": "dozwolone najwyżej 5", "cs": "povoleno nejvýše 5", "en": "at most 5 is allowed"},
        ("compare", "dragon", "--langs", "pl,de"): {
            "pl": "dragon nie ma źródła w języku 'de'", "cs": "dragon nemá žádný zdroj v jazyce 'de'",
            "en": "dragon has no source in language 'de'"},
    }
    for args, by_lang in says.items():
        for lang, text in by_lang.items():
            r = rulekb(*args, lang=lang)
            assert text in r.stderr, (args, lang, r.stderr)
    for lang, words in (("pl", ["Opcje", "szukane słowa", "[domyślnie: 10]"]),
                        ("cs", ["Volby", "hledaná slova", "[výchozí: 10]"])):
        shown = " ".join(rulekb("search", "--help", lang=lang).stdout.split())  # the help screen wraps lines
        assert all(w in shown for w in words), (lang, shown)


def test_show_labels_and_single_line_spans_in_polish_and_czech(real_db):
    pl = rulekb("show", "gugong/rule/gift-exchange", "--database-url", real_db, lang="pl").stdout
    cs = rulekb("show", "gugong/rule/gift-exchange", "--database-url", real_db, lang="cs").stdout
    assert "część " in pl and "wiersze" in pl and "část " in cs and "řádky" in cs
    assert "part of" not in pl + cs and " lines " not in pl + cs
    spans = re.findall(r"(\d+)[–-](\d+)", pl)
    assert spans and all(a != b for a, b in spans)  # 863, never 863-863


def test_scenario_summary_is_translated_with_plural_forms(tmp_path):
    for name in ("a", "b"):
        (tmp_path / f"{name}.yaml").write_text(f"format: 2\nid: {name}\ngame: gugong\nplayers: [A, B]\nsteps: []\n"
                                               "expect: [{path: players.A.vp, equals: 0}]\n", encoding="utf-8")
    assert "2 scenariusze: zaliczone 2, niezaliczone 0" in rulekb("scenario", "run", tmp_path, lang="pl").stdout
    assert "2 scénáře: prošlo 2, neprošlo 0" in rulekb("scenario", "run", tmp_path, lang="cs").stdout


def test_progress_only_on_a_terminal(tmp_path):
    import pty

    for name in ("a", "b", "c"):
        (tmp_path / f"{name}.yaml").write_text(f"format: 2\nid: {name}\ngame: gugong\nplayers: [A, B]\nsteps: []\n"
                                               "expect: []\n", encoding="utf-8")
    piped = rulekb("scenario", "run", tmp_path)
    assert piped.returncode == 0 and piped.stderr == ""
    primary, secondary = pty.openpty()
    env = dict(os.environ, RULEKB_LANG="en", TERM="xterm", COLUMNS="100")
    done = subprocess.run([str(RULEKB), "scenario", "run", str(tmp_path)], stdout=subprocess.PIPE,
                          stderr=secondary, env=env, timeout=300)
    os.close(secondary)
    shown = b""
    while True:
        try:
            chunk = os.read(primary, 65536)
        except OSError:
            break
        if not chunk:
            break
        shown += chunk
    os.close(primary)
    assert done.returncode == 0 and "Running scenarios" in shown.decode("utf-8", "replace")
    assert "Running scenarios" not in done.stdout.decode()


def test_diff_marks_changed_words_uncut_and_names_one_version_per_knowledge_base(tmp_path, real_db):
    db = ("--database-url", real_db)
    assert rulekb("export", "--out", tmp_path / "with", *db).returncode == 0
    assert rulekb("export", "--out", tmp_path / "without", "--no-results", *db).returncode == 0
    same = rulekb("diff", tmp_path / "with", tmp_path / "without", *db).stdout.splitlines()
    assert same[0].startswith("knowledge base ") and "->" not in same[0] and same[1] == "no changes"
    assert rulekb("diff", tmp_path / "with", "build", *db).stdout.splitlines()[1] == "no changes"

    doc = json.loads((tmp_path / "without" / "rulekb.json").read_text(encoding="utf-8"))
    item = max((t for e in doc["data"]["entities"] for t in e["texts"]), key=lambda t: len(t["text"]))
    words = item["text"].split(" ")
    item["text"] = " ".join(words[:-1] + ["XYZZY"])  # only the last word differs, far past any cut
    (tmp_path / "edited.json").write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    out = rulekb("diff", tmp_path / "edited.json", "build", *db).stdout
    assert f"[-XYZZY-]{{+{words[-1]}+}}" in out and " ".join(words[:-1]) in out and "…" not in out
    data = json.loads(rulekb("diff", tmp_path / "edited.json", "build", "--json", *db).stdout)
    runs = data["changed"][0]["texts"][0]["words"]
    assert [r["op"] for r in runs] == ["=", "-", "+"] and runs[1]["text"] == "XYZZY"

    (tmp_path / "new.txt").write_text("not an export\n", encoding="utf-8")
    for lang, says in (("en", "is not a rulekb JSON export"), ("pl", "nie jest eksportem JSON rulekb")):
        r = rulekb("diff", tmp_path / "new.txt", *db, lang=lang)
        assert r.returncode == 2 and says in r.stderr and "validation error" not in r.stderr.lower()
