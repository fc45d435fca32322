"""Scenarios: worked examples, prohibitions and any other situation as files the engine runs and checks.

Format version 2, described in kb/data/README.md (a file without `format` is version 1 and keeps its
meaning): the engine builds the start state for each seed, merges `setup`, takes what it handed the
players out of their supplies (Game.settle_setup), refuses (in version 2) a position that breaks the
game's invariants, runs `steps` (actions that must be accepted or refused, engine steps, legal-action
and part-way checks) and checks `expect` on the final state and on the events the steps emitted, or
(`expect: {setup: refused}`) that the setup is impossible. A worked example with no steps yet is PENDING: recorded knowledge the engine does
not reproduce yet. A malformed document is an ERROR naming the step and what is wrong, never a crash.
"""
from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from engine.core import state as st
from engine.core.errors import EngineError, IllegalAction, MalformedAction, ScenarioError
from engine.core.game import Game, get_game
from engine.core.rng import Rng
from engine.core.settle import Broken
from kb.messages import N_, Message

MISSING = object()
COMPARISONS = ("equals", "delta", "at_least", "at_most", "greater_than", "less_than", "one_of", "contains",
               "length", "absent")
# comparisons whose value may be another path of the state: {path: a, greater_than: {path: b}}
PATH_COMPARISONS = ("equals", "at_least", "at_most", "greater_than", "less_than")
FOLLOWS = ("pl", "cs", "2007", "2017", "all")
# every key a scenario may have; a worked example (kb/data/<game>/examples) adds its entity's keys
TOP_KEYS = ("format", "id", "game", "title", "source_refs", "follows", "options", "players", "seed", "seeds",
            "setup", "steps", "expect", "note", "key", "names", "texts", "refs", "scope", "facts")
STEP_KEYS = {"action": {"player", "action", "rejected", "note"}, "run": {"run", "note"},
             "legal": {"legal", "note"}, "check": {"check", "note"}}
LEGAL_KEYS = ("player", "includes", "excludes", "count")
EVENT_KEYS = ("event", "count", "absent", "note")
REFUSED_KEYS = ("setup", "rule", "note")  # expect: {setup: refused, rule: <rule entity id>}
MAX_ENGINE_ACTIONS = 20_000  # `run: end` plays at most this many decisions
MAX_SEEDS = 100  # a property over many shuffles needs tens, not thousands (documents also come from the API)


@dataclass
class Check:
    path: str
    ok: bool
    message: str
    where: str = "expect"       # "expect" or "steps[n]" (a part-way check, a refusal, a legal-action check)
    expected: Any = None
    actual: Any = None
    seed: int | None = None
    said: Message | None = None  # what went wrong in the reader's words (a refusal names its rule): i18n renders it


@dataclass
class Outcome:
    id: str
    status: str  # PASS | FAIL | PENDING | ERROR
    checks: list[Check] = field(default_factory=list)  # of the first failing seed, else of the first seed
    message: str = ""
    state: dict | None = None    # final state (of that seed)
    before: dict | None = None   # state after setup (of that seed)
    seeds: list[int] = field(default_factory=list)
    failed_seeds: list[int] = field(default_factory=list)
    follows: str | None = None
    said: Message | None = None  # `message` as a msgid and parameters, for the reader's language

    @property
    def line(self) -> str:
        failed = next((c for c in self.checks if not c.ok), None)
        detail = f": {failed.message}" if failed else (f": {self.message}" if self.message else "")
        return f"{self.status} {self.id}{detail}"


def load_file(path: Path) -> dict:
    try:
        doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise ScenarioError(N_("%(path)s: %(problem)s"), path=path, problem=str(exc).replace("\n", " ")) from exc
    except UnicodeDecodeError as exc:
        raise ScenarioError(N_("%(path)s: not UTF-8 text (%(reason)s)"), path=path, reason=exc.reason) from exc
    if not isinstance(doc, dict):
        raise ScenarioError(N_("%(path)s: a scenario is a YAML mapping"), path=path)
    if "id" not in doc and "key" in doc:  # a worked example file: its id follows from its place
        doc["id"] = f"{path.parent.parent.name}/example/{doc['key']}"
        doc.setdefault("game", path.parent.parent.name)
    return doc


# ------------------------------------------------------------------ reading a document
def _seeds(doc: dict) -> list[int]:
    if "seed" in doc and "seeds" in doc:
        raise ScenarioError(N_("give `seed` or `seeds`, not both"))
    if "seeds" in doc:
        seeds = doc["seeds"]
        if isinstance(seeds, int) and not isinstance(seeds, bool) and 1 <= seeds <= MAX_SEEDS:
            return list(range(seeds))
        if isinstance(seeds, list) and 0 < len(seeds) <= MAX_SEEDS and all(
                isinstance(x, int) and not isinstance(x, bool) and 0 <= x < 2**63 for x in seeds):
            return list(seeds)
        raise ScenarioError(N_("seeds: a list of up to %(max)s integers or a count from 1 to %(max)s"), max=MAX_SEEDS)
    seed = doc.get("seed", 0)
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**63:
        raise ScenarioError(N_("seed: an integer, not %(seed)r"), seed=seed)
    return [seed]


def _unknown(keys: Any, valid: Any, where: str) -> None:
    """An unknown key is an error naming it and the closest valid key (a misspelled `steps` or
    `expect` would otherwise leave a file with nothing to check)."""
    for key in keys:
        if key not in valid:
            close = difflib.get_close_matches(str(key), [str(v) for v in valid], n=1, cutoff=0.5)
            if close:
                raise ScenarioError(N_("%(where)sunknown key `%(key)s`; did you mean `%(close)s`?"), where=where,
                                    key=key, close=close[0])
            raise ScenarioError(N_("%(where)sunknown key `%(key)s`; valid keys: %(valid)s"), where=where, key=key,
                                valid=", ".join(map(str, valid)))


def _validate(doc: dict) -> None:
    """Raise ScenarioError naming the part of the document that is malformed."""
    _unknown(doc, TOP_KEYS, "")
    fmt = doc.get("format", 1)
    if fmt not in (1, 2):
        raise ScenarioError(N_("format: 1 or 2, not %(fmt)r"), fmt=fmt)
    players = doc.get("players")
    if not isinstance(players, list) or not players or not all(isinstance(p, (str, int)) for p in players):
        raise ScenarioError(N_("players: a list of names in seat order"))
    if not isinstance(doc.get("game"), str):
        raise ScenarioError(N_("game: the game's key (gugong, dragon, zhanguo)"))
    for key in ("options", "setup", "title"):
        if doc.get(key) is not None and not isinstance(doc[key], dict):
            raise ScenarioError(N_("%(key)s: a mapping"), key=key)
    if doc.get("source_refs") is not None and not (isinstance(doc["source_refs"], list) and all(
            isinstance(r, dict) and set(r) == {"source", "lines"} for r in doc["source_refs"])):
        raise ScenarioError(N_("source_refs: a list of {source: <source id>, lines: [first, last]}"))
    if doc.get("follows") is not None and str(doc["follows"]) not in FOLLOWS:
        raise ScenarioError(N_("follows: one of %(choices)s, not %(follows)r"), choices=', '.join(FOLLOWS), follows=doc['follows'])
    steps = doc.get("steps") or []
    if not isinstance(steps, list):
        raise ScenarioError(N_("steps: a list"))
    for n, step in enumerate(steps):
        _validate_step(step, f"steps[{n}]")
    expect = doc.get("expect") or []
    if isinstance(expect, dict):
        _unknown(expect, REFUSED_KEYS, "expect: ")
        if expect.get("setup") != "refused" or not isinstance(expect.get("rule", ""), str):
            raise ScenarioError(N_("expect: a list of checks, or {setup: refused, rule: <rule entity id>}"))
        return
    if not isinstance(expect, list):
        raise ScenarioError(N_("expect: a list of checks, or {setup: refused, rule: <rule entity id>}"))
    for n, spec in enumerate(expect):
        _validate_expectation(spec, f"expect[{n}]")


def _validate_step(step: Any, where: str) -> None:
    if not isinstance(step, dict):
        raise ScenarioError(N_("%(where)s: a step is a mapping, not %(step)r"), where=where, step=step)
    kinds = [k for k in STEP_KEYS if k in step]
    if len(kinds) != 1:
        _unknown(step, sorted(set().union(*STEP_KEYS.values())), f"{where}: ")
        raise ScenarioError(N_("%(where)s: give exactly one of `action` (with `player`), `run`, `legal` or `check`"), where=where)
    kind = kinds[0]
    _unknown(step, sorted(STEP_KEYS[kind]), f"{where}: {kind}: ")
    if kind == "action":
        if not isinstance(step["action"], dict):
            raise ScenarioError(N_("%(where)s: action: a mapping with a `type`"), where=where)
        if "player" in step and not isinstance(step["player"], (str, int)):
            raise ScenarioError(N_("%(where)s: player: a player's name"), where=where)
        rejected = step.get("rejected", False)
        if isinstance(rejected, dict):
            _unknown(rejected, ("rule",), f"{where}: rejected: ")
        if not (isinstance(rejected, bool) or (isinstance(rejected, dict) and set(rejected) == {"rule"}
                                               and isinstance(rejected["rule"], str))):
            raise ScenarioError(N_("%(where)s: rejected: true or {rule: <rule entity id>}"), where=where)
    elif kind == "run":
        if not isinstance(step["run"], str) or not step["run"]:
            raise ScenarioError(N_("%(where)s: run: a phase or step name, `round` or `end`"), where=where)
    elif kind == "legal":
        spec = step["legal"]
        if not isinstance(spec, dict):
            raise ScenarioError(N_("%(where)s: legal: a mapping of player, includes, excludes, count"), where=where)
        _unknown(spec, LEGAL_KEYS, f"{where}: legal: ")
        for key in ("includes", "excludes"):
            if key in spec and not (isinstance(spec[key], list) and all(isinstance(a, dict) for a in spec[key])):
                raise ScenarioError(N_("%(where)s: legal.%(key)s: a list of (partial) actions"), where=where, key=key)
        if "count" in spec and (not isinstance(spec["count"], int) or isinstance(spec["count"], bool)):
            raise ScenarioError(N_("%(where)s: legal.count: an integer"), where=where)
    else:
        if not isinstance(step["check"], list) or not step["check"]:
            raise ScenarioError(N_("%(where)s: check: a list of expectations"), where=where)
        for i, spec in enumerate(step["check"]):
            _validate_expectation(spec, f"{where}.check[{i}]")


def _validate_expectation(spec: Any, where: str) -> None:
    if not isinstance(spec, dict):
        raise ScenarioError(N_("%(where)s: an expectation is a mapping, not %(spec)r"), where=where, spec=spec)
    if "event" in spec:
        if not isinstance(spec["event"], dict) or not spec["event"]:
            raise ScenarioError(N_("%(where)s: event: the fields of an emitted event"), where=where)
        _unknown(spec, EVENT_KEYS, f"{where}: event: ")
        if "count" in spec and (not isinstance(spec["count"], int) or isinstance(spec["count"], bool)):
            raise ScenarioError(N_("%(where)s: count: an integer"), where=where)
        return
    _unknown(spec, ("path", "note") + COMPARISONS, f"{where}: ")
    if not isinstance(spec.get("path"), str) or not spec["path"]:
        raise ScenarioError(N_("%(where)s: give a `path` (or an `event`)"), where=where)
    if not [k for k in spec if k not in ("path", "note")]:
        raise ScenarioError(N_("%(where)s: no comparison; use %(comparisons)s"), where=where, comparisons=', '.join(COMPARISONS))
    if "one_of" in spec and not isinstance(spec["one_of"], list):
        raise ScenarioError(N_("%(where)s: one_of: a list"), where=where)
    if "absent" in spec and not isinstance(spec["absent"], bool):
        raise ScenarioError(N_("%(where)s: absent: true or false"), where=where)
    for key in ("delta", "at_least", "at_most", "greater_than", "less_than"):
        if key in spec and not _number(spec[key]) and _other_path(spec[key]) is None:
            raise ScenarioError(N_("%(where)s: %(key)s: a number or {path: <another path of the state>}"), where=where, key=key)
    if "length" in spec and (not isinstance(spec["length"], int) or isinstance(spec["length"], bool)):
        raise ScenarioError(N_("%(where)s: length: an integer"), where=where)


def _number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _other_path(v: Any) -> str | None:
    """The path a comparison names instead of a value ({path: b}), else None."""
    return v["path"] if isinstance(v, dict) and set(v) == {"path"} and isinstance(v["path"], str) else None


def _check_rule_ids(doc: dict, game: Game) -> None:
    """A rule id a refusal names must be an entity of the knowledge base: a misspelled one would
    only ever fail, and say nothing about the rule."""
    known = game.rules.entities
    wanted = [(f"steps[{n}]: rejected.rule", step["rejected"]["rule"]) for n, step in enumerate(doc.get("steps") or [])
              if isinstance(step.get("rejected"), dict)]
    if isinstance(doc.get("expect"), dict) and doc["expect"].get("rule"):
        wanted.append(("expect: rule", doc["expect"]["rule"]))
    for where, rule in wanted:
        if rule not in known:
            close = difflib.get_close_matches(rule, list(known), n=1, cutoff=0.6)
            if close:
                raise ScenarioError(N_("%(where)s: %(rule)r is not an entity of the knowledge base; did you mean "
                                       "%(close)r?"), where=where, rule=rule, close=close[0])
            raise ScenarioError(N_("%(where)s: %(rule)r is not an entity of the knowledge base"), where=where, rule=rule)


def _check_setup_players(patch: dict, state: dict) -> None:
    """A setup's players are the scenario's seats, and a player's record has the start state's keys:
    a misspelled name or field would otherwise add a stray entry and leave the real one as it was."""
    given, seats = patch.get("players"), state.get("players")
    if not isinstance(given, dict) or not isinstance(seats, dict):
        return
    for name, record in given.items():
        if name not in seats:
            _unknown([name], list(seats), "setup.players: ")
        if isinstance(record, dict) and isinstance(seats[name], dict):
            _unknown(record, list(seats[name]), f"setup.players.{name}: ")


def _check_setup_types(patch: Any, base: Any, where: str) -> None:
    """A setup value of another type than the start state's value at the same place names the field
    (`pool: "five"` is not a count), rather than reaching the engine as an impossible position."""
    if not isinstance(patch, dict) or not isinstance(base, dict):
        return
    for key, value in patch.items():
        here = f"{where}.{key}" if where else str(key)
        if value is None or key not in base or base[key] is None:
            continue
        old = base[key]
        if isinstance(old, dict):
            if not isinstance(value, dict):
                raise ScenarioError(N_("setup.%(here)s: a mapping, not %(value)r"), here=here, value=value)
            _check_setup_types(value, old, here)
        elif isinstance(old, bool):
            if not isinstance(value, bool):
                raise ScenarioError(N_("setup.%(here)s: true or false, not %(value)r"), here=here, value=value)
        elif isinstance(old, int):
            if not isinstance(value, int) or isinstance(value, bool):
                raise ScenarioError(N_("setup.%(here)s: a whole number, not %(value)r"), here=here, value=value)
        elif isinstance(old, list):
            if not isinstance(value, list):
                raise ScenarioError(N_("setup.%(here)s: a list, not %(value)r"), here=here, value=value)
        elif isinstance(old, str) and not isinstance(value, (str, int)):
            raise ScenarioError(N_("setup.%(here)s: a name, not %(value)r"), here=here, value=value)


# ------------------------------------------------------------------ running
def run(doc: dict[str, Any], source: str | None = None, url: str | None = None) -> Outcome:
    """Run one scenario document (never a path: the API passes documents). `source` (a file name)
    prefixes error messages; `url` names the database whose rule set the engine reads."""
    sid = str(doc.get("id") or "scenario")

    def error(problem: Message, **more) -> Outcome:
        said = Message(N_("%(path)s: %(problem)s"), path=source, problem=problem) if source else problem
        return Outcome(sid, "ERROR", message=str(said), said=said, **more)

    try:
        _validate(doc)  # first: a misspelled `steps` must not pass for a file with nothing to do yet
    except EngineError as exc:
        return error(_said(exc))
    if not doc.get("steps") and not doc.get("expect"):
        pending = Message(N_("no steps or expectations yet"))
        return Outcome(sid, "PENDING", message=str(pending), said=pending)
    try:
        seeds = _seeds(doc)
        game = get_game(str(doc.get("game")), url)
        _check_rule_ids(doc, game)
    except EngineError as exc:
        return error(_said(exc))
    follows = str(doc["follows"]) if doc.get("follows") is not None else None
    options = dict(doc.get("options") or {})
    if doc.get("game") == "dragon" and follows in ("2007", "2017"):
        # a Dragon reading is an edition: the file follows the edition it runs
        if str(options.setdefault("edition", follows)) != follows:
            return error(Message(N_("follows: %(follows)s but options.edition is %(edition)s"), follows=follows,
                                 edition=options["edition"]))
    first: Outcome | None = None
    failed: list[int] = []
    for seed in seeds:
        try:
            out = _run_seed(game, doc, options, seed)
        except ScenarioError as exc:
            return error(exc.said, seeds=seeds, follows=follows)
        except EngineError as exc:  # the engine cannot even build or step the state
            return error(Message(N_("seed %(seed)s: %(problem)s"), seed=seed, problem=_said(exc)), seeds=seeds,
                         follows=follows)
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:  # a hand-made state it cannot read
            return error(Message(N_("seed %(seed)s: the engine failed on this scenario: %(error)s: %(detail)s"),
                                 seed=seed, error=type(exc).__name__, detail=str(exc)), seeds=seeds, follows=follows)
        ok = all(c.ok for c in out.checks)
        if not ok:
            failed.append(seed)
        if first is None or (not ok and len(failed) == 1):
            first = out
    assert first is not None
    first.id, first.seeds, first.failed_seeds, first.follows = sid, seeds, failed, follows
    first.status = "FAIL" if failed else "PASS"
    if len(seeds) > 1:
        first.said = (Message(N_("failed for seeds %(failed)s of %(n)s; the checks of seed %(first)s"), failed=failed,
                              n=len(seeds), first=failed[0]) if failed else
                      Message(N_("held for all %(n)s seeds"), n=len(seeds)))
        first.message = str(first.said)
    return first


def _said(exc: EngineError) -> Message:
    """An engine error's words: its msgid and parameters, or (an error raised without them) its English."""
    return getattr(exc, "said", None) or Message("%(text)s", text=str(exc))


def merge_setup(base: dict, patch: dict, remove_nulls: bool) -> dict:
    """Patch onto base: dicts merge recursively, anything else replaces; in format 2 null removes the key."""
    for k, v in patch.items():
        if v is None and remove_nulls:
            if isinstance(base, dict):
                base.pop(k, None)
        elif isinstance(v, dict) and isinstance(base.get(k), dict):
            merge_setup(base[k], v, remove_nulls)
        else:
            base[k] = st.copy(v)
    return base


def _run_seed(game: Game, doc: dict, options: dict, seed: int) -> Outcome:
    players = [str(p) for p in doc["players"]]
    refused = doc.get("expect") if isinstance(doc.get("expect"), dict) else None
    try:
        state = game.new_state(players, options, seed)
    except IllegalAction as exc:  # options no game can be set up with (a rule of the setup names it)
        if refused is None:
            raise
        return _refusal_outcome(refused, [Broken(exc.said.msgid, exc.rule, **exc.said.params)], {}, seed)
    if doc.get("setup"):
        _check_setup_players(doc["setup"], state)
        _check_setup_types(doc["setup"], state, "")
        merge_setup(state, doc["setup"], remove_nulls=doc.get("format", 1) >= 2)
        try:
            game.settle_setup(state, doc["setup"])
        except (KeyError, TypeError, ValueError, IndexError, AttributeError):
            pass  # a state the supplies cannot be read from: the invariants name what is wrong
        broken = _invariants(game, state)
        if refused is not None:
            return _refusal_outcome(refused, broken, state, seed)
        # a version 1 file runs as it always did; version 2 refuses a position no game can reach
        if broken and doc.get("format", 1) >= 2:
            checks = [Check("setup", False, f"the setup breaks an invariant: {b}", "setup", "a legal position", b, seed,
                            Message(N_("the setup breaks an invariant: %(broken)s"), broken=_broken_said(b)))
                      for b in broken]
            return Outcome("", "FAIL", checks, state=state, before=state)
    elif refused is not None:
        return _refusal_outcome(refused, [], state, seed)
    before = st.copy(state)
    events: list[dict] = []
    checks: list[Check] = []
    agent = Rng({"rng": Rng.seed_state(seed, "agent")})  # decisions `run: end` makes, seeded like `rulekb play`
    for n, step in enumerate(doc.get("steps") or []):
        where = f"steps[{n}]"
        if "action" in step:
            state, stop = _action_step(game, state, step, where, seed, events, checks)
            if stop:
                break
        elif "run" in step:
            try:
                state = _run_step(game, state, str(step["run"]), agent, events)
            except IllegalAction as exc:
                checks.append(Check(where, False, f"{where}: run {step['run']}: {exc}", where,
                                    f"run {step['run']}", str(exc), seed,
                                    Message(N_("run %(step)s was refused by %(rule)s: %(reason)s"), step=step["run"],
                                            rule=exc.rule, reason=exc.said)))
                break
        elif "legal" in step:
            checks += _legal_checks(game, state, step["legal"], where, seed)
        else:
            checks += [evaluate(spec, state, before, events, where, seed) for spec in step["check"]]
    else:
        checks += [evaluate(spec, state, before, events, "expect", seed) for spec in doc.get("expect") or []]
    return Outcome("", "", checks, state=state, before=before)


def _refusal_outcome(refused: dict, broken: list[str], state: dict, seed: int) -> Outcome:
    """expect: {setup: refused, rule: …}: the setup must break an invariant (naming that rule)."""
    want = refused.get("rule")
    rules = [getattr(b, "rule", None) for b in broken]
    ok = bool(broken) and (want is None or want in rules)
    actual = "; ".join(f"{b}" + (f" ({r})" if r else "") for b, r in zip(broken, rules)) or "a legal position"
    message = (f"setup refused: {actual}" if ok else
               f"the setup was {'refused for another reason: ' + actual if broken else 'accepted'}, "
               f"expected a refusal" + (f" by {want}" if want else ""))
    return Outcome("", "", [Check("setup", ok, message, "setup", want or "refused", actual, seed)],
                   state=state, before=state)


def _broken_said(broken: str) -> Message:
    """A broken invariant's words (a game's plain-string invariant: its English)."""
    return getattr(broken, "said", None) or Message("%(text)s", text=str(broken))


def _invariants(game: Game, state: dict) -> list[str]:
    try:
        return game.check_invariants(state)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        # a setup that removed or mistyped something the invariants read is not a legal position either
        return [Broken(N_("the state cannot be read (%(error)s: %(detail)s)"), error=type(exc).__name__, detail=str(exc))]


def _action_step(game, state, step, where, seed, events, checks) -> tuple[dict, bool]:
    """Apply one action; returns the state to continue from and whether to stop this seed."""
    action = dict(step["action"])
    if "player" in step:
        action.setdefault("player", step["player"])
    rejected = step.get("rejected", False)
    want_rule = rejected.get("rule") if isinstance(rejected, dict) else None
    shown = {k: v for k, v in action.items()}
    try:
        after, emitted = game.apply(state, action)
    except IllegalAction as exc:
        if not rejected:
            checks.append(Check(where, False, f"{where}: {shown} was refused: {exc}", where, "accepted",
                                f"refused: {exc}", seed,
                                Message(N_("%(action)s was refused by %(rule)s: %(reason)s"), action=shown,
                                        rule=exc.rule, reason=exc.said)))
            return state, True
        ok = want_rule is None or exc.rule == want_rule
        checks.append(Check(where, ok, f"{where}: refused by {exc.rule}" + ("" if ok else f", expected {want_rule}")
                            + f": {exc.message}", where, want_rule or "refused", exc.rule, seed,
                            Message(N_("refused by %(rule)s: %(reason)s"), rule=exc.rule, reason=exc.said) if ok else
                            Message(N_("refused by %(rule)s, expected a refusal by %(wanted)s: %(reason)s"), rule=exc.rule,
                                    wanted=want_rule, reason=exc.said)))
        return state, False  # a refusal leaves the state as it was
    except MalformedAction as exc:
        checks.append(Check(where, False, f"{where}: {shown} is not an action of this game: {exc}", where,
                            "refused by " + want_rule if want_rule else ("refused" if rejected else "accepted"),
                            f"malformed: {exc}", seed,
                            Message(N_("%(action)s is not an action of this game: %(reason)s"), action=shown,
                                    reason=exc.said)))
        return state, True
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        # an engine that trips over a hand-made setup or action: report it as that step's failure
        checks.append(Check(where, False, f"{where}: the engine could not apply {shown}: {type(exc).__name__}: {exc}",
                            where, "accepted" if not rejected else "refused", f"{type(exc).__name__}: {exc}", seed,
                            Message(N_("the engine could not apply %(action)s (%(error)s: %(detail)s)"), action=shown,
                                    error=type(exc).__name__, detail=str(exc))))
        return state, True
    if rejected:
        checks.append(Check(where, False, f"{where}: {shown} was accepted, expected a refusal"
                            + (f" by {want_rule}" if want_rule else ""), where, want_rule or "refused", "accepted", seed,
                            Message(N_("%(action)s was accepted, expected a refusal by %(rule)s"), action=shown,
                                    rule=want_rule) if want_rule else
                            Message(N_("%(action)s was accepted, expected a refusal"), action=shown)))
        return state, False  # keep the state as if refused, so later checks still say something
    events += emitted
    return after, False


def _run_step(game: Game, state: dict, name: str, agent: Rng, events: list) -> dict:
    """An engine step the game names (game.run), else play decisions (with the seeded agent) to the end
    of the round (`round`), of the game (`end`), or of the phase or step called `name`."""
    if name not in ("round", "end"):
        try:
            after, emitted = game.run(state, name)
            events += emitted
            return after
        except IllegalAction as exc:
            if exc.rule != "scenario":
                raise
    if name == "end":
        done = game.is_terminal
    elif name == "round":
        start = _round(state)
        done = lambda s: game.is_terminal(s) or _round(s) != start  # noqa: E731
    else:
        seen = [_in_phase(state, name)]

        def done(s):
            now = _in_phase(s, name)
            if seen[0] and not now:
                return True
            seen[0] = seen[0] or now
            return False
    for _ in range(MAX_ENGINE_ACTIONS):
        if done(state):
            return state
        if game.is_terminal(state):
            raise IllegalAction("scenario", N_("the game ended before the end of %(name)r"), name=name)
        legal = game.legal_actions(state)
        if not legal:
            raise IllegalAction("scenario", N_("no legal action before the end of %(name)r"), name=name)
        state, emitted = game.apply(state, legal[agent.below(len(legal))])
        events += emitted
    raise IllegalAction("scenario", N_("%(name)r did not end within %(limit)s decisions"), name=name,
                        limit=MAX_ENGINE_ACTIONS)


def _round(state: dict) -> Any:
    return state.get("round", state.get("day"))


def _in_phase(state: dict, name: str) -> bool:
    return state.get("phase") == name or state.get("step") == name or state.get("stage") == name


def matches(item: Any, pattern: Any) -> bool:
    """A partial match: every field the pattern gives is equal (nested mappings match partially too)."""
    if isinstance(pattern, dict):
        return isinstance(item, dict) and all(k in item and matches(item[k], v) for k, v in pattern.items())
    return item == pattern


def _legal_checks(game: Game, state: dict, spec: dict, where: str, seed: int) -> list[Check]:
    legal = game.legal_actions(state)
    out = []
    if "player" in spec:
        who = game.current_player(state)
        said = Message(N_("%(where)s: %(who)r is to decide, expected %(wanted)r"), where=where, who=who,
                       wanted=spec["player"])
        out.append(Check(f"{where}.player", who == spec["player"], str(said), where, spec["player"], who, seed, said))
    for pattern in spec.get("includes") or []:
        ok = any(matches(a, pattern) for a in legal)
        said = (Message(N_("%(where)s: %(pattern)r is legal"), where=where, pattern=pattern) if ok else
                Message(N_("%(where)s: no legal action matches %(pattern)r (%(n)s legal)"), where=where, pattern=pattern,
                        n=len(legal)))
        out.append(Check(f"{where}.includes", ok, str(said), where, pattern, None if ok else legal[:20], seed, said))
    for pattern in spec.get("excludes") or []:
        hits = [a for a in legal if matches(a, pattern)]
        said = (Message(N_("%(where)s: %(hit)r is legal, expected nothing matching %(pattern)r"), where=where,
                        hit=hits[0], pattern=pattern) if hits else
                Message(N_("%(where)s: nothing matching %(pattern)r is legal"), where=where, pattern=pattern))
        out.append(Check(f"{where}.excludes", not hits, str(said), where, {"excludes": pattern}, hits[:5] or None, seed,
                         said))
    if "count" in spec:
        said = Message(N_("%(where)s: %(n)s legal actions, expected %(count)s"), where=where, n=len(legal),
                       count=spec["count"])
        out.append(Check(f"{where}.count", len(legal) == spec["count"], str(said), where, spec["count"], len(legal),
                         seed, said))
    return out


def evaluate(spec: dict, state: dict, before: dict, events: list, where: str = "expect", seed: int | None = None) -> Check:
    if "event" in spec:
        return _event_check(spec, events, where, seed)
    path = spec["path"]
    try:
        value = st.get_path(state, path)
    except KeyError:
        value = MISSING
    if "absent" in spec:
        ok = (value is MISSING) == spec["absent"]
        shown = "absent" if value is MISSING else value
        found = Message(N_("absent")) if value is MISSING else repr(value)
        said = Message(N_("%(path)s is %(value)s, expected it absent") if spec["absent"] else
                       N_("%(path)s is %(value)s, expected it present"), path=path, value=found)
        return Check(path, ok, str(said), where, "absent" if spec["absent"] else "present", shown, seed, said)
    if value is MISSING:
        said = Message(N_("%(path)s does not exist"), path=path)
        return Check(path, False, str(said), where, _expected(spec), None, seed, said)
    for op in COMPARISONS:
        if op not in spec:
            continue
        want = spec[op]
        other = _other_path(want) if op in PATH_COMPARISONS else None
        if other is not None:
            try:
                want = st.get_path(state, other)
            except KeyError:
                said = Message(N_("%(path)s does not exist"), path=other)
                return Check(path, False, str(said), where, spec[op], None, seed, said)
        ok, actual, said = _compare(op, want, value, path, before, f"{other} ({want!r})" if other is not None else None)
        if not ok:
            return Check(path, False, str(said), where, {op: spec[op]} if op != "equals" else spec[op], actual, seed,
                         said)
        last = (said, actual)
    return Check(path, True, str(last[0]), where, _expected(spec), last[1], seed, last[0])


def _expected(spec: dict) -> Any:
    ops = {k: v for k, v in spec.items() if k in COMPARISONS}
    return ops["equals"] if list(ops) == ["equals"] else ops


def _compare(op: str, want: Any, value: Any, path: str, before: dict, shown: str | None = None
             ) -> tuple[bool, Any, Message]:
    """Whether `value` passes `op` against `want`, the value compared, and what was found in words
    (`shown`: how to name `want`, e.g. the other path it was read from)."""
    said = {"path": path, "value": repr(value), "want": shown or repr(want)}
    try:
        if op == "equals":
            return value == want, value, Message(N_("%(path)s is %(value)s, expected %(want)s"), **said)
        if op == "delta":
            try:
                old = st.get_path(before, path)
            except KeyError:
                return False, value, Message(N_("%(path)s did not exist before the steps"), path=path)
            return value - old == want, value - old, Message(N_("%(path)s changed by %(change)r, expected %(want)s"),
                                                              path=path, change=value - old, want=said["want"])
        if op == "at_least":
            return value >= want, value, Message(N_("%(path)s is %(value)s, expected at least %(want)s"), **said)
        if op == "at_most":
            return value <= want, value, Message(N_("%(path)s is %(value)s, expected at most %(want)s"), **said)
        if op == "greater_than":
            return value > want, value, Message(N_("%(path)s is %(value)s, expected more than %(want)s"), **said)
        if op == "less_than":
            return value < want, value, Message(N_("%(path)s is %(value)s, expected less than %(want)s"), **said)
        if op == "one_of":
            return value in want, value, Message(N_("%(path)s is %(value)s, expected one of %(want)s"), **said)
        if op == "contains":
            return want in value, value, Message(N_("%(path)s is %(value)s, expected it to contain %(want)s"), **said)
        if op == "length":
            return len(value) == want, len(value), Message(N_("%(path)s has %(n)s items, expected %(want)s"),
                                                           path=path, n=len(value), want=want)
    except TypeError:
        return False, value, Message(N_("%(path)s is %(value)s, which cannot be compared with %(op)s %(want)s"),
                                     op=op, **said)
    raise AssertionError(op)


KIND_KEYS = ("event", "type")  # the key naming an event's kind: Dragon and Gugong say `event`, ZhanGuo `type`


def event_matches(event: dict, pattern: dict) -> bool:
    """A partial match where the kind may be given under either key, so a scenario survives the
    engines settling on one of them."""
    kind = next((event[k] for k in KIND_KEYS if k in event), None)
    for k, v in pattern.items():
        if k in KIND_KEYS and k not in event:
            if kind != v:
                return False
        elif not (k in event and matches(event[k], v)):
            return False
    return True


def _event_check(spec: dict, events: list, where: str, seed: int | None) -> Check:
    pattern = spec["event"]
    hits = sum(1 for e in events if event_matches(e, pattern))
    if spec.get("absent"):
        said = Message(N_("%(n)s events match %(pattern)r, expected none"), n=hits, pattern=pattern)
        return Check("events", hits == 0, str(said), where, {"absent": pattern}, hits, seed, said)
    if "count" in spec:
        said = Message(N_("%(n)s events match %(pattern)r, expected %(count)s"), n=hits, pattern=pattern,
                       count=spec["count"])
        return Check("events", hits == spec["count"], str(said), where, {"count": spec["count"], "event": pattern}, hits,
                     seed, said)
    near = [e for e in events if event_matches(e, {k: v for k, v in pattern.items() if k in KIND_KEYS})]
    said = (Message(N_("an event matching %(pattern)r was emitted"), pattern=pattern) if hits else
            Message(N_("an event matching %(pattern)r was not emitted (same kind: %(near)r)"), pattern=pattern,
                    near=near[:3]) if near else
            Message(N_("an event matching %(pattern)r was not emitted (%(n)s events)"), pattern=pattern, n=len(events)))
    return Check("events", hits > 0, str(said), where, pattern, None if hits else near[:3], seed, said)


SCENARIO_FOLDERS = ("scenarios", "examples")


def files(path: Path) -> list[Path]:
    """A file as given; in a folder, every YAML file, each reported, never skipped (a misspelled key
    makes an ERROR, not a missing line), except a game's entity files: inside a folder that holds a
    game.yaml (kb/data/<game>), only the files under `scenarios` and `examples` are scenarios."""
    if not path.is_dir():
        return [path]
    out = []
    for f in sorted(path.rglob("*.yaml")):
        folders = [path, *(path / Path(*f.relative_to(path).parts[:i + 1])
                           for i in range(len(f.relative_to(path).parts) - 1))]
        in_game = [d for d in folders if (d / "game.yaml").is_file() or any(d.glob("*/game.yaml"))]
        if not in_game or any(d.name in SCENARIO_FOLDERS for d in folders[folders.index(in_game[-1]):]):
            out.append(f)
    return out
