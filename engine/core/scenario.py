"""Scenarios: worked examples (and any other situation) as files the engine runs and checks.

Format (DESIGN.md): id, game, options, players, setup (a partial state deep-merged onto the start
state), steps ({player, action} or {run: step}), expect ({path, equals | delta | contains | length}).
A worked example under kb/data/<game>/examples/ that has no steps yet is reported as PENDING: it is
recorded knowledge the engine does not reproduce yet.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from engine.core import state as st
from engine.core.errors import EngineError, ScenarioError
from engine.core.game import get_game

MISSING = object()


@dataclass
class Check:
    path: str
    ok: bool
    message: str


@dataclass
class Outcome:
    id: str
    status: str  # PASS | FAIL | PENDING | ERROR
    checks: list[Check] = field(default_factory=list)
    message: str = ""
    state: dict | None = None
    before: dict | None = None

    @property
    def line(self) -> str:
        failed = next((c for c in self.checks if not c.ok), None)
        detail = f": {failed.message}" if failed else (f": {self.message}" if self.message else "")
        return f"{self.status} {self.id}{detail}"


def load_file(path: Path) -> dict:
    try:
        doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise ScenarioError(f"{path}: {exc}") from exc
    if not isinstance(doc, dict):
        raise ScenarioError(f"{path}: a scenario is a YAML mapping")
    if "id" not in doc and "key" in doc:  # a worked example file: its id follows from its place
        doc["id"] = f"{path.parent.parent.name}/example/{doc['key']}"
        doc.setdefault("game", path.parent.parent.name)
    return doc


def run(doc: dict[str, Any]) -> Outcome:
    """Run one scenario document (never a path: the API passes documents)."""
    sid = str(doc.get("id") or "scenario")
    if not doc.get("steps") and not doc.get("expect"):
        return Outcome(sid, "PENDING", message="no steps or expectations yet")
    try:
        game = get_game(str(doc.get("game")))
        players = doc.get("players") or []
        if not isinstance(players, list) or not players:
            raise ScenarioError("players: a list of names in seat order")
        state = game.new_state([str(p) for p in players], doc.get("options") or {}, int(doc.get("seed", 0)))
        if doc.get("setup"):
            if not isinstance(doc["setup"], dict):
                raise ScenarioError("setup: a partial state (mapping)")
            st.deep_merge(state, doc["setup"])
        before = st.copy(state)
        for n, step in enumerate(doc.get("steps") or []):
            if not isinstance(step, dict):
                raise ScenarioError(f"steps[{n}]: a mapping")
            if "run" in step:
                state, _ = game.run(state, str(step["run"]))
            elif "action" in step:
                action = dict(step["action"])
                if "player" in step:
                    action.setdefault("player", step["player"])
                state, _ = game.apply(state, action)
            else:
                raise ScenarioError(f"steps[{n}]: give `action` (with `player`) or `run`")
    except EngineError as exc:
        return Outcome(sid, "ERROR", message=str(exc))
    checks = [check(c, state, before) for c in doc.get("expect") or []]
    status = "PASS" if all(c.ok for c in checks) else "FAIL"
    return Outcome(sid, status, checks, state=state, before=before)


def check(spec: dict, state: dict, before: dict) -> Check:
    path = str(spec.get("path", ""))
    try:
        value = st.get_path(state, path)
    except KeyError:
        return Check(path, False, f"{path} does not exist")
    if "equals" in spec:
        ok = value == spec["equals"]
        return Check(path, ok, f"{path} is {value!r}, expected {spec['equals']!r}")
    if "delta" in spec:
        try:
            old = st.get_path(before, path)
        except KeyError:
            return Check(path, False, f"{path} did not exist before the steps")
        ok = value - old == spec["delta"]
        return Check(path, ok, f"{path} changed by {value - old!r}, expected {spec['delta']!r}")
    if "contains" in spec:
        ok = spec["contains"] in value
        return Check(path, ok, f"{path} is {value!r}, expected it to contain {spec['contains']!r}")
    if "length" in spec:
        ok = len(value) == spec["length"]
        return Check(path, ok, f"{path} has {len(value)} items, expected {spec['length']}")
    return Check(path, False, "an expectation needs equals, delta, contains or length")


def files(path: Path) -> list[Path]:
    """A file as given; in a folder, the scenario documents: YAML mappings with steps, expect, or
    (worked examples) a title and texts. Other data files under kb/data are skipped."""
    if not path.is_dir():
        return [path]
    out = []
    for f in sorted(path.rglob("*.yaml")):
        try:
            doc = yaml.safe_load(f.read_text(encoding="utf-8"))
        except (OSError, yaml.YAMLError):
            out.append(f)  # unreadable: report it rather than skip it silently
            continue
        if isinstance(doc, dict) and ("steps" in doc or "expect" in doc or ("title" in doc and "texts" in doc)):
            out.append(f)
    return out
