"""The command line: output, --json, and exit codes a shell user expects."""
import json
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


def test_compare_usage_errors():
    assert run("compare", "dragon", "--langs", "pl,cs").exit_code == 2  # no Czech Dragon rulebook
    assert run("compare", "zhanguo").exit_code == 1  # one source only
    assert run("compare", "dragon", "--langs", "pl,cs", "--editions", "2007,2017").exit_code == 2
    for args, says in [(["gugong", "--check", "bogus"], "--check must be one of"),
                       (["gugong", "--class", "style"], "--class must be one of"),
                       (["dragon", "--editions", "2007,2020"], "no source for edition 2020"),
                       (["chess"], "unknown game 'chess'"),
                       (["--text", "README.md", "--lang", "de", "--against", "gugong-pl"], "--lang must be one of"),
                       (["--text", "README.md", "--lang", "cs", "--against", "gugong-xx"], "unknown source 'gugong-xx'"),
                       (["--text", "no-such-file.txt", "--lang", "cs", "--against", "gugong-pl"], "no such file"),
                       (["--text", "README.md"], "--text needs --lang")]:
        r = run("compare", *args)
        assert r.exit_code == 2 and says in r.output, (args, r.output)
        assert "Traceback" not in r.output


def test_scenario_run_prints_one_line_per_scenario(tmp_path):
    r = run("scenario", "run", "kb/data/zhanguo/examples")
    lines = [l for l in r.stdout.splitlines() if l.split(" ")[0] in ("PASS", "FAIL", "PENDING", "ERROR")]
    assert len(lines) == len(list((Path("kb/data/zhanguo/examples")).glob("*.yaml")))
    bad = tmp_path / "bad.yaml"
    bad.write_text("id: x\ngame: gugong\nsteps: [1]\nexpect: []\nplayers: []\n", encoding="utf-8")
    r = run("scenario", "run", str(bad))
    assert r.exit_code == 1 and "ERROR" in r.stdout
    assert run("scenario", "run", str(tmp_path / "none.yaml")).exit_code == 2


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
    assert r.stdout.strip().splitlines()[-1].startswith("2 scenarios: 0 pass, 1 fail, 0 pending, 1 error; 1 checks, 1 failed")
    data = json.loads(run("scenario", "run", str(wrong), "--json").stdout)
    assert data[0]["status"] == "FAIL" and data[0]["checks"][0]["expected"] == {"at_least": 5}
    assert data[0]["checks"][0]["actual"] == 0 and data[0]["file"] == str(wrong)
