"""The Gugong engine: seeded random full games (invariants after every action, JSON round trips,
replays), illegal and malformed actions, and the rulebook's worked examples as scenarios."""
from __future__ import annotations

from pathlib import Path

import pytest

from engine.core import state as st
from engine.core.errors import MalformedAction
from engine.core.game import get_game
from engine.core.play import random_game
from engine.core.schema import schema_errors
from tests.engine_checks import assert_apply_leaves_input_untouched, assert_illegal as _illegal, assert_round_trips_and_replays
from engine.core.scenario import files, load_file, run

EXAMPLES = Path(__file__).parent.parent / "kb" / "data" / "gugong" / "examples"
GAMES_PER_COUNT = {2: 500, 3: 450, 4: 400, 5: 350}  # 1,700 games (with options and solo: 2,042)


@pytest.fixture(scope="module")
def game():
    return get_game("gugong")


@pytest.mark.parametrize("n", sorted(GAMES_PER_COUNT))
def test_random_games_keep_every_invariant(game, n):
    ends = 0
    for seed in range(GAMES_PER_COUNT[n]):
        played = random_game(game, n, seed, check=True)
        assert not played.violations, played.violations[:3]
        assert game.is_terminal(played.final)
        assert sorted(r["rank"] for r in played.scores) == list(range(1, n + 1))
        ends += 1
    assert ends == GAMES_PER_COUNT[n]


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_states_round_trip_and_games_replay(game, n):
    played = random_game(game, n, seed=1000 + n)
    assert_round_trips_and_replays(game, played, steps=200)


def test_apply_leaves_its_input_untouched(game):
    assert_apply_leaves_input_untouched(game, game.new_state(["A", "B", "C"], {}, 7), actions=30)


def test_illegal_actions_are_rejected_with_the_state_unchanged(game):
    state = game.new_state(["A", "B", "C"], {"first_player": "A"}, 3)
    hand_b = state["players"]["B"]["hand"]
    hand_a = state["players"]["A"]["hand"]
    # acting out of turn
    _illegal(game, state, {"type": "exchange", "player": "B", "card": hand_b[0], "location": "jade",
                           "payment": "no_action"}, "gugong/rule/day-turns")
    # exchanging a card you do not hold
    _illegal(game, state, {"type": "exchange", "player": "A", "card": hand_b[0], "location": "jade",
                           "payment": "no_action"}, "gugong/rule/gift-exchange")
    # paying servants you do not have
    poor = st.copy(state)
    poor["players"]["A"]["pool"] = 1
    low = min(hand_a, key=lambda c: game.consts.card_value[c])
    loc = max(poor["board"], key=lambda l: game.consts.card_value[poor["board"][l]])
    assert game.consts.card_value[low] <= game.consts.card_value[poor["board"][loc]]
    _illegal(game, poor, {"type": "exchange", "player": "A", "card": low, "location": loc, "payment": "servants"},
             "gugong/rule/exchange-pay-servants")
    # a free exchange with a lower gift
    if not (game.consts.card_value[low] == 1 and game.consts.card_value[poor["board"][loc]] == 9):
        _illegal(game, state, {"type": "exchange", "player": "A", "card": low, "location": loc, "payment": "free"},
                 "gugong/rule/gift-exchange-lower")
    # actions before the gift exchange
    _illegal(game, state, {"type": "location_action", "player": "A", "option": "A"}, "gugong/rule/gift-exchange")


def test_decree_taken_twice_is_illegal(game):
    state = game.new_state(["A", "B"], {"first_player": "A"}, 5)
    key = next(iter(state["decrees"]))
    state["decrees"][key] = ["A"]
    state["players"]["A"]["decrees"] = [key]
    state["players"]["A"]["pool"] = 9
    state["stage"], state["acts"] = "act", {"card": "1a", "location": "decrees", "card_action": False, "location_action": True}
    _illegal(game, state, {"type": "location_action", "player": "A", "decree": key}, "gugong/rule/decree-once")


def test_malformed_actions_are_rejected(game):
    state = game.new_state(["A", "B"], {}, 1)
    player = game.current_player(state)
    for bad in (None, [], {"player": player}, {"type": 5, "player": player}, {"type": "fly", "player": player},
                {"type": "exchange"}, {"type": "exchange", "player": "Nobody"},
                {"type": "exchange", "player": player, "card": state["players"][player]["hand"][0],
                 "location": "moon", "payment": "free"}):
        before = st.copy(state)
        with pytest.raises(MalformedAction):
            game.apply(state, bad)
        assert state == before


def test_schema_describes_state_and_actions(game):
    schema = game.state_schema()
    state = game.new_state(["A", "B"], {}, 1)
    assert schema_errors(game, state) == []
    assert schema_errors(game, dict(state, stray=1)) != []  # closed: an undescribed key is reported
    kinds = {a["properties"]["type"]["const"] for a in schema["action"]["oneOf"]}
    assert {a["type"] for a in game.legal_actions(state)} <= kinds


@pytest.mark.parametrize("path", files(EXAMPLES), ids=lambda p: p.stem)
def test_worked_examples_pass(path, game):
    outcome = run(load_file(path))
    assert outcome.status == "PASS", outcome.line
    # the scenario's setup is a sound game state, and so is its end
    assert game.check_invariants(outcome.before) == []
    assert game.check_invariants(outcome.state) == []


def test_every_listed_action_is_legal(game):
    """legal_actions lists only actions apply accepts (sampled along seeded random games)."""
    from engine.core.rng import Rng
    for n in (2, 5):
        state = game.new_state([f"P{i + 1}" for i in range(n)], {}, 40 + n)
        agent = Rng({"rng": Rng.seed_state(40 + n)})
        steps = 0
        while not game.is_terminal(state) and steps < 150:
            legal = game.legal_actions(state)
            for action in legal:
                game.apply(state, action)
            state, _ = game.apply(state, legal[agent.below(len(legal))])
            steps += 1


def test_new_ship_spots_match_the_canal_example(game):
    """gugong/example/canal-ships: a new ship may go to port 1 of the left path or port 3 of the right one."""
    doc = load_file(EXAMPLES / "canal-ships.yaml")
    doc = dict(doc, steps=doc["steps"][:3])
    state = run(doc).state
    placed = set()
    for a in game.legal_actions(state):
        if a["type"] == "canal_place" and a["ship"] == 1:
            after, _ = game.apply(state, a)
            sh = after["players"]["Marcin"]["ships"][1]
            placed.add((sh["path"], sh["port"]))
    assert placed == {(0, 1), (1, 3)}


def test_night_dice_follow_the_czech_text(game):
    """The Polish text names Kuba and Ania as tied, but its own numbers (1, 4, 0, 4 servants) tie Ania
    and Jacek: the scenario follows the Czech text and Kuba does not score."""
    doc = load_file(EXAMPLES / "night-dice.yaml")
    assert doc["follows"] == "cs"
    outcome = run(doc)
    assert outcome.state["players"]["Kuba"]["vp"] == 0 and outcome.state["players"]["Jacek"]["vp"] == 3


def test_rule_constants_come_from_the_knowledge_base(game):
    """Change a decree's immediate VP in the knowledge base and the engine follows."""
    from engine.core.game import Rules
    from engine.gugong.game import Gugong
    entities = st.copy(game.rules.entities)
    entities["gugong/decree/l1-servant"]["attrs"]["immediate_vp"] = 11
    changed = Gugong(Rules("gugong", entities, game.rules.meta))
    doc = load_file(EXAMPLES / "decree-take.yaml")
    state = changed.new_state(doc["players"], doc["options"], 0)
    st.deep_merge(state, doc["setup"])
    for step in doc["steps"]:
        state, _ = changed.apply(state, dict(step["action"], player=step["player"]))
    assert state["players"]["Karol"]["vp"] == 11


@pytest.mark.parametrize("options", [{"advanced": True}, {"bonus_travel_tokens": True},
                                     {"advanced": True, "bonus_travel_tokens": True}], ids=str)
def test_variants_play_to_the_end(game, options):
    for n in (2, 3, 4, 5):
        for seed in range(16):
            played = random_game(game, n, seed, options, check=True)
            assert not played.violations, played.violations[:3]
            assert game.replay(played.players, played.options, played.seed, played.actions) == played.final


def test_advanced_setup_deals_the_shared_deck(game):
    state = game.new_state(["A", "B"], {"advanced": True}, 3)
    board = set(state["board"].values())
    assert len(board) == game.consts.advanced_board_cards
    assert not state["box"]  # the unused starting sets join the shared deck
    plain = game.new_state(["A", "B"], {}, 3)
    assert all(game.consts.card_setup[c] == "board" for c in plain["board"].values())


def test_bonus_gift_value_token_raises_gift_values(game):
    state = game.new_state(["A", "B"], {"bonus_travel_tokens": True, "first_player": "A"}, 2)
    a = state["players"]["A"]
    a["hand"], a["pool"] = ["4a"], 6
    state["board"]["jade"] = "4d"
    assert not any(x["payment"] == "free" for x in game.legal_actions(state)
                   if x["type"] == "exchange" and x["location"] == "jade")
    a["bonus"] = [{"token": "bonus-gift-value", "location": None}]
    a["pool"] -= 1
    assert any(x["payment"] == "free" for x in game.legal_actions(state)
               if x["type"] == "exchange" and x["location"] == "jade")


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_solo_games_against_meng(game, level):
    for seed in range(50):
        played = random_game(game, 1, seed, {"solo": level}, check=True)
        assert not played.violations, played.violations[:3]
        assert [p for p in played.players] == ["P1"]
        assert {r["player"] for r in played.scores} == {"P1", game.solo.meng}
        assert game.replay(played.players, played.options, played.seed, played.actions) == played.final
        assert st.roundtrip(played.final) == played.final


def test_solo_setup_follows_the_difficulty(game):
    meng = game.solo.meng
    for level, extra in (("easy", 0), ("normal", 0), ("hard", game.solo.hard_cards)):
        state = game.new_state(["Ola"], {"solo": level}, 1)
        assert state["order"] == ["Ola", meng] and state["first"] == 0
        assert len(state["players"][meng]["hand"]) == len(state["players"]["Ola"]["hand"]) + extra
        specials = [a for a in state["solo"]["deck"] if a.startswith("s")]
        assert len(specials) == game.solo.levels[level]
        assert len(state["solo"]["deck"]) == len(game.solo.faces) + game.solo.levels[level]
        assert game.current_player(state) == "Ola"
    with pytest.raises(Exception):
        game.new_state(["Ola"], {"solo": "impossible"}, 1)


def test_meng_plays_his_turn_by_himself(game):
    state = game.new_state(["Ola"], {"solo": "normal"}, 4)
    meng = game.solo.meng
    action = next(a for a in game.legal_actions(state) if a["type"] == "exchange" and a["payment"] == "no_action")
    state, _ = game.apply(state, action)
    state, events = game.apply(state, {"type": "end_turn", "player": "Ola"})
    assert any(e.get("player") == meng and e["event"] == "exchange" for e in events)
    assert len(state["players"][meng]["hand"]) == 3 and len(state["solo"]["today"]) == 1


# ---- focused rule checks on hand-made states
def _turn(game, players, first, seed=0, options=None):
    state = game.new_state(players, dict(options or {}, first_player=first), seed)
    return state


def _act(state, location, card="1a"):
    state["stage"] = "act"
    state["acts"] = {"card": card, "location": location, "card_action": False, "location_action": True}
    return state


def test_final_scoring_order_disqualification_and_ties(game):
    state = _turn(game, ["A", "B", "C"], "A")
    k = game.consts
    pa, pb, pc = (state["players"][n] for n in "ABC")
    # A: in the palace first, 2 jade, l3-vp-ratio + l3-eight-vp; B: in the palace second, same VP as A
    # after scoring but higher on the intrigue track; C: most VP but outside the palace
    state["palace_spots"] = ["A", "B"]
    pa.update(palace=k.palace_end, vp=30, jade=2, decrees=["l3-vp-ratio", "l3-eight-vp"], intrigue=1)
    state["decrees"].update({"l3-vp-ratio": ["A"], "l3-eight-vp": ["A"]})
    pa["pool"] -= 2
    pb.update(palace=k.palace_end, intrigue=5)
    pc.update(palace=k.palace_end - 1, vp=90)
    ratio = min(k.decrees["l3-vp-ratio"]["max_end_vp"], 30 // k.decrees["l3-vp-ratio"]["vp_gained_per_end_vp"])
    a_total = 30 + ratio + k.decrees["l3-eight-vp"]["end_vp"] + k.palace_spots[0] + k.jade_points(2)
    pb["vp"] = a_total - k.palace_spots[1]
    state, _ = game.run(state, "final_scoring")
    result = game.scores(state)
    assert [r["player"] for r in result] == ["B", "A", "C"]
    assert result[0]["vp"] == result[1]["vp"] == a_total
    assert result[2]["disqualified"] and result[2]["vp"] == k.disq_score
    assert state["players"]["A"]["final_scoring"]["l3-vp-ratio"] == ratio


def test_end_wall_scoring_can_bring_an_envoy_into_the_palace(game):
    state = _turn(game, ["A", "B"], "A")
    state["players"]["A"].update(palace=game.consts.palace_end - 1, pool=5)
    state["wall"] = [["A", 1]]
    state, _ = game.run(state, "final_scoring")
    assert state["palace_spots"] == ["A"] and not state["players"]["A"]["disqualified"]


def test_wall_completion_threshold_follows_player_count(game):
    for n in (2, 3, 4, 5):
        names = [f"P{i}" for i in range(n)]
        state = _act(_turn(game, names, "P0"), "great-wall")
        need = game.consts.threshold(n)
        state["wall"] = [["P1", 1]] * (need - 2)
        state["players"]["P1"]["pool"] -= need - 2
        action = {"type": "location_action", "player": "P0", "option": "A", "pieces": ["n"], "extra": False}
        after, events = game.apply(state, action)
        assert not any(e["event"] == "wall_scoring" for e in events)
        after = _act(after, "great-wall")
        after, events = game.apply(after, action)
        assert any(e["event"] == "wall_scoring" and e["winner"] == "P1" for e in events)


def test_palace_steps_after_entering_give_vp(game):
    state = _act(_turn(game, ["A", "B"], "A"), "palace")
    state["players"]["A"].update(palace=game.consts.palace_end - 1, vp=0)
    state, _ = game.apply(state, {"type": "location_action", "player": "A", "option": "B"})
    assert state["players"]["A"]["palace"] == game.consts.palace_end
    assert state["players"]["A"]["vp"] == game.consts.palace_b[1] - 1
    assert state["palace_spots"] == ["A"]


def test_palace_decree_bonus_enters_the_palace_or_gives_vp_instead(game):
    """gugong/decree/l1-palace: the step that brings the envoy into the palace gives no VP as well;
    an envoy already inside gets the VP instead of the step."""
    bonus_vp = game.consts.decrees["l1-palace"]["vp_if_in_palace"]
    for start, palace, vp in ((game.consts.palace_end - 1, game.consts.palace_end, 0), (game.consts.palace_end, game.consts.palace_end, bonus_vp)):
        state = _turn(game, ["A", "B"], "A")
        state["players"]["A"].update(palace=start, vp=0, decrees=["l1-palace"])
        state["pending"].insert(0, {"kind": "decree_bonus", "player": "A", "decree": "l1-palace"})
        state, _ = game.apply(state, {"type": "decree_bonus", "player": "A", "use": True})
        assert (state["players"]["A"]["palace"], state["players"]["A"]["vp"]) == (palace, vp), start


def test_level_2_decrees_lower_costs(game):
    state = _act(_turn(game, ["A", "B"], "A"), "jade")
    a = state["players"]["A"]
    a["decrees"] = ["l2-jade"]
    state["decrees"]["l2-jade"] = ["A"]
    a["pool"], a["supply"] = 5, 6
    cost = game.consts.jade_houses[0]["cost"] - game.consts.decrees["l2-jade"]["servant_discount"]
    after, _ = game.apply(state, {"type": "location_action", "player": "A", "house": 0})
    assert after["players"]["A"]["pool"] == 5 - cost


def test_token_limit_forces_an_exchange(game):
    state = _act(_turn(game, ["A", "B"], "A"), "travel")
    a = state["players"]["A"]
    a["tokens"] = ["travel-vp"] * game.consts.token_slots
    state, _ = game.apply(state, {"type": "location_action", "player": "A", "option": "A"})
    city = game.legal_actions(state)[0]["city"]
    state, _ = game.apply(state, {"type": "travel", "player": "A", "city": city})
    state, _ = game.apply(state, {"type": "token_reward", "player": "A", "use": False})
    assert state["pending"][0]["kind"] == "make_room"
    assert {x["type"] for x in game.legal_actions(state)} == {"tokens"}
    _illegal(game, state, {"type": "end_turn", "player": "A"}, "gugong/rule/travel-token-limit")
    state, _ = game.apply(state, {"type": "tokens", "player": "A", "for": "vp", "doubles": 0})
    assert not state["pending"] and len(state["players"]["A"]["tokens"]) == game.consts.token_slots - game.consts.token_rates["vp"][0] + 1


def test_port_reward_limits(game):
    state = _turn(game, ["A", "B"], "A")
    a = state["players"]["A"]
    a["ships"][0] = {"path": 0, "port": 2, "load": [1, 1, 1]}
    a["pool"] -= 3
    from engine.gugong import common as c  # port 2: 4 VP while the player board has a free spot
    assert c.claimable(game, state, "A", 0) == ["vp4"]
    a["ports"]["vp4"] = game.consts.port_limits["vp4"]
    a["pool"] -= game.consts.port_limits["vp4"]
    assert c.claimable(game, state, "A", 0) == []


def test_night_ships_run_from_the_step_effect(game):
    """gugong/step/night-move-ships, run from its effect: the ship in port 5 is lost at sea (its
    servants back to its owner's supply), the others move one space, the furthest first (a ship skips an
    occupied port), and each full ship's owner, in turn order, decides whether to claim."""
    from engine.gugong import night
    state = _turn(game, ["A", "B"], "B")
    a, b = state["players"]["A"], state["players"]["B"]
    a["ships"][0] = {"path": 0, "port": game.consts.last_port, "load": [1, 1]}
    a["ships"][1] = {"path": 0, "port": 2, "load": [1, 1, 1]}
    b["ships"][0] = {"path": 0, "port": 1, "load": [1]}
    supply = a["supply"]
    state["pending"], events = [], []
    night.move_ships(game, state, events)
    assert a["ships"][0] is None and a["supply"] == supply + 2
    assert a["ships"][1]["port"] == 3 and b["ships"][0]["port"] == 2  # the furthest ship moved first
    assert [e["event"] for e in events][:1] == ["ship_lost"]
    assert state["pending"] == [{"kind": "claim", "player": "A", "ship": 1}]


def test_the_port_a_ship_is_lost_in_is_the_step_effects_number(game):
    """Change lost_at_port in the rule set and the night loses the ship of that port instead."""
    from engine.gugong import night
    from engine.core.game import Rules
    from engine.gugong.game import Gugong
    rules = game.rules
    step = rules.entities["gugong/step/night-move-ships"]
    changed = Gugong(Rules(rules.game, {**rules.entities, "gugong/step/night-move-ships":
                                        {**step, "attrs": {**step["attrs"], "lost_at_port": 2}}}, rules.meta))
    state = _turn(changed, ["A", "B"], "A")
    state["players"]["A"]["ships"][0] = {"path": 0, "port": 2, "load": [1]}
    state["pending"] = []
    night.move_ships(changed, state, [])
    assert state["players"]["A"]["ships"][0] is None


def test_meng_s_own_decree_rules_give_his_morning_vp_and_dusk_discount(game):
    """gugong/rule/solo-decree-l1-gift-exchange: a VP each morning instead of the exchange;
    solo-decree-l2-travel: his Dusk travel costs one servant fewer (both read from their effects)."""
    from engine.gugong import solo

    state = game.new_state(["Ola"], {"solo": "normal"}, 3)
    meng = game.solo.meng
    p = state["players"][meng]
    attrs = game.rules.entities["gugong/rule/solo-decree-l1-gift-exchange"]["attrs"]
    vp = p["vp"]
    solo.morning_bonus(game, state, "l1-card-exchange", [])
    assert p["vp"] == vp + attrs["morning_vp"]

    cost = game.rules.entities["gugong/rule/solo-travel-dusk"]["attrs"]["servant_cost"]
    cut = game.rules.entities["gugong/rule/solo-decree-l2-travel"]["attrs"]["dusk_travel_cost_reduction"]
    paid = {}
    for held in ([], ["l2-travel"]):
        s = st.copy(state)
        s["players"][meng].update(pool=5, decrees=list(held))
        solo.run_rule(game, s, "gugong/rule/solo-travel-dusk", [], phase="dusk")
        paid[bool(held)] = 5 - s["players"][meng]["pool"]
    assert paid == {False: cost, True: cost - cut}
