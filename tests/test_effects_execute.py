"""Every structured effect of a card, tile, event, decree, reward, privilege or ability is run through
the engine (ARCHITECTURE.md, "Effects"); an effect no probe runs fails the test.

For each entity in scope a probe sets up a state, applies the thing through the engine, and the
change of state must equal what the effect says: the plain steps (gain, pay, lose, move, and an
optional step the probe accepts) are summed into expected changes of the player's counters; a
lasting step (trigger, modify) must leave the thing installed with the player. Effects that act
inside another action (a board's ability, a governor's bonus space) are measured as the difference
between that action with and without them. An effect the engine's interpreter runs (a Gugong
decree, travel token, intrigue reward or gift card ability; a Dragon event) is checked to have run
through it: what it does is checked by the worked examples and tests/test_effect_mutations.py. The
count is printed with the suite's figures.
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from engine.core import state as st
from engine.core.game import Rules, get_game
from engine.core.scenario import load_file
from engine.gugong import common as gc
from engine.gugong import locations
from engine.dragon.vocabulary import EDICT_KINDS
from engine.zhanguo.vocabulary import TOOK
from kb.effects import term
from tests.engine_checks import gugong_tokens_a_double_stands_for

EXAMPLES = Path(__file__).resolve().parent.parent / "kb" / "data"
SCOPE = {"card", "card-ability", "tile", "token", "event", "decree", "reward"}
EXTRA = {"dragon/action/privilege"}  # the privileges are bought by an action; its effect is theirs


def in_scope() -> list[tuple[str, str]]:
    out = []
    for game in ("gugong", "dragon", "zhanguo"):
        rules = Rules.load(game)
        for eid, e in sorted(rules.entities.items()):
            if e.get("effect") and (e["kind"] in SCOPE or eid in EXTRA):
                out.append((game, eid))
    return out


# ---------------------------------------------------------------- probes, one per family of entities

def ran(game, eid: str, act) -> tuple[dict, dict]:
    """Whether the engine's interpreter executed the entity's effect while `act` played it: what the
    effect does is checked by the worked examples, the scenarios and tests/test_effect_mutations.py,
    not by a second reading of its words here."""
    game.effects.ran.discard(eid)
    act()
    return {"ran through the interpreter": eid in game.effects.ran}, {"ran through the interpreter": True}


def probe_gugong_token(game, rules, eid):
    """A travel token taken on the map: its reward decision answered with the first `use` the
    engine offers (one card moved to the discard pile, for the token that takes one back)."""
    key = eid.rsplit("/", 1)[1]
    if key not in game.consts.token_mix:
        return None
    s = game.new_state(["A", "B"], {}, 1)
    p = s["players"]["A"]
    p["supply"] = 6
    gc.push(s, {"kind": "token_reward", "player": "A", "token": key})
    options = [o for o in locations.token_reward_opts(game, s, "A", key) if o.get("use")]
    if not options:
        p["discard"] = [p["hand"].pop()]
        options = [o for o in locations.token_reward_opts(game, s, "A", key) if o.get("use")]
    return ran(game, eid, lambda: game.apply(s, {"type": "token_reward", "player": "A", **options[0]}))


def probe_gugong_bonus_token(game, rules, eid):
    """A bonus travel token (variant): set beside the board with a servant from the pool, then what it
    does for the rest of the Day: the tax token takes VP from a player who performs the marked
    action, the follow token offers its owner the marked action each time another player performs
    it, the gift token raises the value of the owner's gift cards."""
    key = eid.rsplit("/", 1)[1]
    steps = rules.effect(eid)
    if key not in ("bonus-tax", "bonus-gift-value", "bonus-follow") or list(steps[0]) != ["place"]:
        return None
    s = game.new_state(["A", "B"], {"bonus_travel_tokens": True}, 1)
    s["players"]["A"].update(pool=3, vp=5)
    s["players"]["B"]["vp"] = 5
    gc.push(s, {"kind": "token_reward", "player": "A", "token": key})
    answer = {"type": "token_reward", "player": "A", "use": True}
    if key in ("bonus-tax", "bonus-follow"):
        answer["location"] = "decrees"
    before = st.copy(s["players"])
    s, _ = game.apply(s, answer)
    observed = {"A": {"pool": s["players"]["A"]["pool"] - before["A"]["pool"]}}
    expected = {"A": {"pool": -steps[0]["place"]["count"]}}
    if key == "bonus-tax":  # the marked action performed by B: what the per-step says, in both seats
        (inner,) = steps[1]["per"]["do"]
        (op, args), = inner.items()
        got = args["things"]["vp"] if op == "take" else args.get("vp", 0)
        locations.after_location_action(game, s, "B", "decrees", [])
        observed.update(vp={n: s["players"][n]["vp"] - before[n]["vp"] for n in ("A", "B")})
        expected.update(vp={"A": got, "B": -got if op == "take" else 0})
    elif key == "bonus-follow":  # B performs the marked action twice: each time, A may perform it too
        (inner,) = steps[1]["per"]["do"]
        offers = []
        for _ in range(2):
            locations.after_location_action(game, s, "B", "decrees", [])
            offers.append(s["pending"][-1] if s["pending"] and s["pending"][-1]["kind"] == "follow" else None)
            s["pending"] = [x for x in s["pending"] if x["kind"] != "follow"]
        observed["follows offered to A at the marked action"] = [bool(o and o["player"] == "A" and o["location"] == "decrees")
                                                               for o in offers]
        # an optional step of this token's own mechanism (what it says in words is the text's, not play's)
        said = [step.get("rule", {}).get("id") for step in inner.get("optional", {}).get("do", [])]
        expected["follows offered to A at the marked action"] = [said == [eid]] * 2
    else:
        observed["gift value"] = locations.gift_value_bonus(game, s["players"]["A"])
        expected["gift value"] = steps[1]["modify"]["by"]
    return observed, expected


def probe_gugong_double_token(game, rules, eid):
    """The double token, exchanged with plain tokens for each reward of the exchange rule: how many
    tokens it stood for (the reward's price less the plain tokens it took) against the number the
    effect says it counts as."""
    steps = rules.effect(eid)
    if len(steps) != 1 or "modify" not in steps[0] or steps[0]["modify"]["target"] != "gugong/rule/travel-token-exchange":
        return None
    observed = {kind: gugong_tokens_a_double_stands_for(game, kind) for kind in game.consts.token_rates}
    return observed, dict.fromkeys(observed, steps[0]["modify"]["to"])


def probe_gugong_token_or_bonus(game, rules, eid):
    return (probe_gugong_double_token(game, rules, eid) or probe_gugong_bonus_token(game, rules, eid)
            or probe_gugong_token(game, rules, eid))


def probe_gugong_decree(game, rules, eid):
    """A decree taken at the decrees location (the setup of the worked example decree-take)."""
    key = eid.rsplit("/", 1)[1]
    doc = load_file(EXAMPLES / "gugong" / "examples" / "decree-take.yaml")
    s = game.new_state(doc["players"], doc["options"], 0)
    setup = st.copy(doc["setup"])
    setup["decrees"] = {key: []}
    for p in setup["players"].values():
        p["decrees"] = []
    st.deep_merge(s, setup)
    s["decrees"] = {key: []}
    s, _ = game.apply(s, {"type": "exchange", "player": "Karol", "card": "9a", "location": "decrees", "payment": "free"})
    return ran(game, eid, lambda: game.apply(s, {"type": "location_action", "player": "Karol", "decree": key}))


def probe_gugong_intrigue_reward(game, rules, eid):
    """An intrigue reward chosen when the player's intrigue marker is high enough."""
    key = eid.rsplit("/", 1)[1]
    s = game.new_state(["A", "B"], {}, 1)
    s["players"]["A"].update(intrigue=10, supply=6)
    gc.push(s, {"kind": "intrigue_reward", "player": "A"})
    action = next(a for a in game.legal_actions(s) if a["type"] == "intrigue_reward" and a.get("reward") == key)
    return ran(game, eid, lambda: game.apply(s, action))


def probe_gugong_card_ability(game, rules, eid):
    """A placed card's action, taken in a seeded game when the card with this ability is placed."""
    key = eid.rsplit("/", 1)[1]
    for seed in range(30):
        state, chooser = game.new_state(["A", "B", "C"], {}, seed), random.Random(seed)
        while not game.is_terminal(state):
            legal = game.legal_actions(state)
            taken = next((a for a in legal if a["type"] == "card_action"), None)
            if taken is not None and game.consts.card_ability[state["acts"]["card"]] == key:
                return ran(game, eid, lambda: game.apply(state, taken))
            state, _ = game.apply(state, chooser.choice(legal))
    return None


def dragon_counters(player: dict) -> dict[str, int]:
    """A Dragon player's counters, named as the effect language names them."""
    return {"yuan": player["yuan"], "rice": player["rice"], "fireworks": player["fireworks"], "vp": player["vp"],
            "person": player["person"], "palace_floor": sum(pal["floors"] for pal in player["palaces"]),
            "privilege_small": player["privileges"]["small"], "privilege_large": player["privileges"]["large"]}


def dragon_plan(steps, edition: str) -> dict[str, int] | None:
    """{counter: change} of plain Dragon steps (gain, pay, move); an edition condition is taken when
    it names the edition played; None for anything else."""
    out: dict[str, int] = {}
    for step in steps:
        (op, args), = step.items()
        if op in ("gain", "pay"):
            for what, n in args.items():
                out[what] = out.get(what, 0) + (n if op == "gain" else -n)
        elif op == "move":
            out[args["track"]] = out.get(args["track"], 0) + args["steps"]
        elif op == "condition" and args["if"].startswith("edition-"):
            if args["if"] == f"edition-{edition}":
                inner = dragon_plan(args["do"], edition)
                if inner is None:
                    return None
                for what, n in inner.items():
                    out[what] = out.get(what, 0) + n
        else:
            return None
    return out


def dragon_play_until(game, options: dict, wanted) -> tuple[dict, dict] | None:
    """A seeded random Dragon game played until the seat to move may take an action `wanted` picks
    from a card group no dragon occupies yet (an occupied group costs extra yuan: not the effect's);
    returns (state, that action)."""
    for seed in range(20):
        state, chooser = game.new_state(["A", "B", "C"], options, seed), random.Random(seed)
        while not game.is_terminal(state):
            legal = game.legal_actions(state)
            hit = next((a for a in legal if wanted(a) and not state["dragons"][a["group"]]), None)
            if hit is not None:
                return state, hit
            state, _ = game.apply(state, chooser.choice(legal))
    return None


def _dragon_change(game, state, action) -> dict[str, int]:
    before = dragon_counters(state["players"][action["player"]])
    after_state, _ = game.apply(state, action)
    after = dragon_counters(after_state["players"][action["player"]])
    return {k: after[k] - before[k] for k in before if after[k] != before[k]}


def probe_dragon_wall_tile(game, rules, eid):
    """A Great Wall tile placed with the Great Wall action: its bonus, on an unoccupied card group."""
    key = eid.rsplit("/", 1)[1]
    plan = dragon_plan(rules.effect(eid), "2017")
    found = dragon_play_until(game, {"great_wall": True, "edition": "2017"}, lambda a: a.get("tile") == key)
    if plan is None or found is None:
        return None
    return _dragon_change(game, *found), plan


def probe_dragon_privilege(game, rules, eid):
    """The privilege action, small and large, in both editions: each option of the effect's choice
    must be what the engine charges and gives."""
    options = rules.effect(eid)[0]["choose"]["options"]
    observed, expected = {}, {}
    for edition in ("2007", "2017"):
        for size, option in zip(("small", "large"), options):
            plan = dragon_plan(option, edition)
            found = dragon_play_until(game, {"edition": edition},
                                      lambda a, size=size: a.get("card") == "privilege" and a.get("size") == size)
            if plan is None or found is None:
                return None
            observed[(edition, size)], expected[(edition, size)] = _dragon_change(game, *found), plan
    return observed, expected


def zhanguo_positions(game, options: dict):
    """(state, legal actions) along seeded random three-player ZhanGuo games (40 seeds)."""
    for seed in range(40):
        state, chooser = game.new_state(["A", "B", "C"], dict(options), seed), random.Random(seed)
        while not game.is_terminal(state):
            legal = game.legal_actions(state)
            yield state, legal
            state, _ = game.apply(state, chooser.choice(legal))


RAN = "ran through the interpreter"


def zhanguo_ran(game, eid: str, options: dict, moves) -> tuple[dict, dict] | None:
    """Whether the engine ran the entity's effect through its interpreter along the first sequence of
    actions `moves(state, legal)` finds in a seeded game (the worked examples and
    tests/test_effect_mutations.py check what ZhanGuo's effects do)."""
    for state, legal in zhanguo_positions(game, options):
        for first in legal:
            game.effects.ran.discard(eid)
            done = moves(state, first)
            if done:
                return {RAN: eid in game.effects.ran}, {RAN: True}
    return None


def probe_zhanguo_reward(game, rules, eid):
    """A reward taken in the rewards phase, or a governor's bonus space taken by Appoint 1 Governor
    (the engine names either in its events), runs from its effect."""
    key = eid.rsplit("/", 1)[1]

    def moves(state, action):
        if action["type"] not in ("reward", "court") or not action.get("accept", action.get("space") is not None):
            return False
        _, events = game.apply(state, action)
        return any(e.get("reward") == key or e.get("bonus") == key for e in events)
    return zhanguo_ran(game, eid, {}, moves)


def probe_zhanguo_card_ability(game, rules, eid):
    """A card's ability activated, or a B side's ability after each court action it follows, runs
    from its effect (the engine names the ability in its events)."""
    key = eid.rsplit("/", 1)[1]
    if key not in game.consts.b_ability.values():
        def moves(state, action):
            if action["type"] != "activate" or game.consts.cards.get(action.get("card"), {}).get("ability") != key:
                return False
            game.apply(state, action)
            return True
        return zhanguo_ran(game, eid, {}, moves)
    observed, expected = {}, {}
    for court_action in sorted(set().union(*TOOK.values())):
        def moves(state, action, court_action=court_action):
            player = state["players"][action["player"]]
            if (action["type"] != "court" or action["action"] != court_action or player["side"] == "A"
                    or game.consts.b_ability.get(player["board"]) != key):
                return False
            after, _ = game.apply(state, action)
            board = next((a for a in game.legal_actions(after) if a["type"] == "activate" and a.get("board")), None)
            if board is None:
                return False
            game.apply(after, board)
            return True
        result = zhanguo_ran(game, eid, {"sides": "B"}, moves)
        if result is not None:
            observed[court_action], expected[court_action] = result[0][RAN], result[1][RAN]
    return (observed, expected) if observed else None


def probe_zhanguo_wall_token(game, rules, eid):
    """A wall section's token at the final scoring runs from its effect: the engine's interpreter
    executes it for the players with a wall in its section (the worked examples and
    tests/test_effect_mutations.py check what the final scoring's effects do)."""
    from engine.zhanguo import scoring

    key = eid.rsplit("/", 1)[1]
    state, chooser = game.new_state(["A", "B", "C"], {}, 3), random.Random(3)
    while not game.is_terminal(state):
        state, _ = game.apply(state, chooser.choice(game.legal_actions(state)))
    state = st.copy(state)
    state["board"]["walls"] = [["A", "B", "C"]] + [[None] * len(sec) for sec in state["board"]["walls"][1:]]
    state["board"]["wall_tokens"] = [key] + state["board"]["wall_tokens"][1:]
    game.effects.ran.discard(eid)
    scoring.wall_points(game, state, "A")
    return {"ran through the interpreter": eid in game.effects.ran}, {"ran through the interpreter": True}


def dragon_event_counters(state: dict, name: str) -> dict[str, int]:
    """A Dragon player's goods and points, and the losses an event leaves for them to choose
    (persons to release, floors, cards, Sunrise persons, Flood losses wait as decisions)."""
    player = state["players"][name]
    waiting = {"person": ("release", -1), "palace_floor": ("floor", -1), "person_card": ("discard_card", -1),
               "flood": ("flood", -1), "sunrise": ("sunrise", 1)}  # losses count down, the Sunrise person up
    out = {what: player[what] for what in ("yuan", "rice", "fireworks", "vp")}
    out["privilege"] = sum(player["privileges"].values())
    for what, (kind, sign) in waiting.items():
        out[what] = sign * sum(item["count"] for item in state["pending"] if item["kind"] == kind and item["player"] == name)
    return out


def dragon_effect_change(game, eid: str, steps, state: dict, name: str) -> dict[str, int]:
    """The change of a player's counters when the engine's interpreter runs `steps` (a part of the
    entity's effect, e.g. one option of a choice) on a copy of `state`."""
    from engine.core.effects import Run, compile_effect

    after = st.copy(state)
    run = Run(eid, game.rules.entities[eid]["attrs"], after, name, [], forced=True)
    game.effects.execute(compile_effect(steps, run.attrs), run)
    then, now = dragon_event_counters(state, name), dragon_event_counters(after, name)
    return {w: now[w] - then[w] for w in now if now[w] != then[w]}


def _dragon_event_position(game, options: dict, seed: int):
    """A seeded position 60 moves into a Dragon game, with no decision pending and goods set so that
    the three players have none, some and plenty (a tribute paid in part, say)."""
    state, chooser = game.new_state(["A", "B", "C"], options, seed), random.Random(seed)
    for _ in range(60):
        state, _ = game.apply(state, chooser.choice(game.legal_actions(state)))
    k = game.consts(state)
    state = st.copy(state)
    state["pending"] = []
    for name, (yuan, rice, fireworks) in zip(state["players"], ((0, 0, 0), (2, 1, 3), (6, 5, 1))):
        state["players"][name].update(yuan=yuan, rice=rice, fireworks=fireworks)
    return k, state


def probe_dragon_event(game, rules, eid):
    """An event resolved by the engine's event phase (a month's event, or the Great Event of round
    7) on every player of a seeded position; the change of each player's goods and points, and the
    losses left for them to choose, must be what the event says."""
    from engine.dragon import events

    key = eid.rsplit("/", 1)[1]
    great = key.startswith("ge-")
    options = {"great_events": True, "great_event": key, "edition": "2017"} if great else {"edition": "2017"}
    k, state = _dragon_event_position(game, options, 5)
    (op, args), = rules.effect(eid)[0].items()
    if great and op == "rule":  # the Great Events that name a rule: what that rule does, on every player
        after = st.copy(state)
        events.great(k, after, [])
        says = term(args.get("says"))[0]
        if says == "person-markers-to-zero":  # the volcano: every person marker to the attribute's space
            return ({n: p["person"] for n, p in after["players"].items()},
                    {n: rules.attr(eid, "target_space") for n in state["players"]})
        if says == "event-of-round-again":  # the eclipse: the event of the attribute's round again
            again = st.copy(state)
            events.resolve(k, again, state["events"][rules.attr(eid, "round") - 1], [])
            return after["players"], again["players"]
        return None
    if great and op == "choose":  # the edict: each player's choice of a kind of person, every kind tried
        observed, expected = {}, {}
        for seed in range(5, 40):  # positions until some player has each kind an option names
            result = _dragon_edict(game, rules, eid, *_dragon_event_position(game, options, seed), args["options"])
            if result is None:
                return None
            for got, want in zip(result[0].items(), result[1].items()):
                kind = got[0].split()[1]
                observed.setdefault(kind, got[1])
                expected.setdefault(kind, want[1])
            if len(observed) == len(EDICT_KINDS):
                break
        return (observed, expected) if observed else None
    if great and op == "condition":  # the Sunrise: each player's person waits as a decision
        after = st.copy(state)
        events.great(k, after, [])
        gained = args["do"][0]["gain"]["person"]
        return ({n: dragon_event_counters(after, n)["sunrise"] for n in state["players"]},
                {n: gained for n in state["players"]})
    # the event runs from its effect: the engine's interpreter executes it (the worked examples and
    # tests/test_effect_mutations.py check what it does)
    game.effects.ran.discard(eid)
    (events.great if great else lambda k_, s_, ev: events.resolve(k_, s_, key, ev))(k, st.copy(state), [])
    return {"ran through the interpreter": eid in game.effects.ran}, {"ran through the interpreter": True}




def _dragon_edict(game, rules, eid, k, state, options):
    """After the Great Event, the first player answers its edict decision once with each kind of
    person an option names and the player has; each answer must change what that option says.
    The option for the other kinds defers to a rule the rulebook does not state (an unknown)."""
    from engine.dragon import events

    after = st.copy(state)
    events.great(k, after, [])
    deciding = len(after["pending"])
    # one more decision queued behind the players' own, so that the last answer does not also run
    # the rest of the round (decay, scoring) into the change measured
    after["pending"].append(st.copy(after["pending"][0]))
    observed, expected = {}, {}
    for _ in range(deciding):  # each player in turn
        legal = game.legal_actions(after)
        if not legal:
            break
        for option in options:
            (op, args), = option[0].items()
            if op != "per":
                continue
            kind = EDICT_KINDS[args["each"]]
            for decision in (d for d in legal if d.get("kind") == kind):
                name = decision["player"]
                plan = dragon_effect_change(game, eid, option, after, name)
                done, _ = game.apply(after, decision)
                then, now = dragon_event_counters(after, name), dragon_event_counters(done, name)
                observed[f"{name} {kind}"] = {w: now[w] - then[w] for w in now if now[w] != then[w]}
                expected[f"{name} {kind}"] = {w: d for w, d in plan.items() if d}
        after, _ = game.apply(after, legal[0])
    return observed, expected


PROBES = {("gugong", "token"): probe_gugong_token_or_bonus, ("gugong", "decree"): probe_gugong_decree,
          ("gugong", "reward"): probe_gugong_intrigue_reward, ("gugong", "card-ability"): probe_gugong_card_ability,
          ("dragon", "tile"): probe_dragon_wall_tile,
          ("dragon", "action"): probe_dragon_privilege, ("dragon", "event"): probe_dragon_event, ("zhanguo", "reward"): probe_zhanguo_reward,
          ("zhanguo", "card-ability"): probe_zhanguo_card_ability, ("zhanguo", "token"): probe_zhanguo_wall_token}



def test_every_effect_in_scope_does_what_it_says_or_is_listed_unchecked(figures):
    """One pass over all in-scope entities (the rule sets exist only once the session has built
    them, after collection, so the entities are walked here rather than parametrized)."""
    games = {g: get_game(g) for g in ("gugong", "dragon", "zhanguo")}
    scope = in_scope()
    assert len(scope) > 90
    checked, unchecked, wrong = [], [], []
    for game_key, eid in scope:
        game = games[game_key]
        probe = PROBES.get((game_key, game.rules.entities[eid]["kind"]))
        result = probe(game, game.rules, eid) if probe else None
        if result is None:
            unchecked.append(eid)
            continue
        observed, expected = result
        if observed != expected:
            wrong.append(f"{eid}: the engine changed {observed}, the effect says {expected}")
        checked.append(eid)
    figures.append(f"effects run through the engine: {len(checked)} checked, {len(unchecked)} unchecked (of "
                   f"{len(scope)} cards, tiles, tokens, events, decrees, rewards, privileges and abilities)")
    if unchecked:
        figures.append("  unchecked: " + ", ".join(unchecked))
    assert not wrong, "\n".join(wrong)
    assert not unchecked, f"no probe runs these effects: {unchecked}"
