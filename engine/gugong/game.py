"""Gugong (Andreas Steding, Game Brewer 2018) for 2-5 players, on plain JSON states.

The game runs as the rulebook reads: setup (setup.py), then four days of morning (morning.py,
skipped on day 1), day (day.py, locations.py) and night (night.py), then final scoring
(scoring.py). Automatic steps run by themselves; whenever a player must decide something the state
waits: either for the turn player's next step of the day or for the first of `pending` (decisions
raised inside an action: traveller moves, token rewards, intrigue rewards, ships, port rewards,
morning decree bonuses). Every rule constant comes from the knowledge base (consts.py).
"""
from __future__ import annotations

from engine.core import state as st
from engine.core.effects import Interpreter
from engine.core.errors import IllegalAction
from engine.core.game import Action, Event, PhasedGame
from engine.core.settle import Broken
from engine.gugong import common as c
from engine.gugong import day, gametype, morning, night, scoring, setup, solo
from engine.gugong import locations as L
from engine.gugong.consts import Consts
from engine.gugong.schema import state_schema
from engine.gugong.setup import new_state
from engine.gugong.vocabulary import GugongVocabulary
from kb.messages import N_

R = "gugong/rule/"

# pending decision kind -> the action type that decides it, and the rule it belongs to
DECISIONS = {
    "travel_move": ("travel", R + "travel-move"),
    "token_reward": ("token_reward", R + "travel-token-list"),
    "make_room": ("tokens", R + "travel-token-limit"),
    "intrigue_reward": ("intrigue_reward", R + "intrigue-rewards"),
    "canal_place": ("canal_place", R + "canal-adding-servants"),
    "canal_move": ("canal_move", R + "canal-moving-ships"),
    "claim": ("claim", R + "canal-claim-reward"),
    "decree_bonus": ("decree_bonus", "gugong/step/morning-decree-bonuses"),
    "follow": ("follow", "gugong/token/bonus-follow"),
    "take_double": ("take_double", R + "double-servant-gain"),
}
TURN_ACTIONS = {"exchange", "card_action", "location_action", "end_turn"}
ALL_TYPES = TURN_ACTIONS | {kind for kind, _ in DECISIONS.values()}


class Gugong(PhasedGame):
    action_types = frozenset(ALL_TYPES)
    key = "gugong"

    def __init__(self, rules=None):
        super().__init__(rules)
        self.consts = Consts(self.rules)
        self.solo = solo.SoloConsts(self)
        # decrees, port rewards and scorings run from their effects through the one interpreter
        self.effects = Interpreter(self.rules, GugongVocabulary(self))

    # ------------------------------------------------------------ states
    def new_state(self, players, options=None, seed=0):
        s = new_state(self, list(players), self.game_type.check_options(options, list(players)), seed)
        self._advance(s, [])
        return s

    def declare(self):
        return gametype.declare(self)

    def turn_player(self, s):
        return s["order"][s["turn"]] if s["phase"] == "day" else None

    def state_schema(self):
        return state_schema(self)

    # ------------------------------------------------------------ actions
    def _apply(self, s, a, events):
        name, kind = self.actor(s, a), a["type"]
        if name != self.current_player(s):
            raise IllegalAction(R + "day-turns", N_("it is %(current)s's decision, not %(name)s's"), current=self.current_player(s), name=name)
        if kind == "tokens":  # travel tokens may be exchanged whenever you decide something
            L.do_tokens(self, s, name, a, events)
        elif s["pending"]:
            item = s["pending"][0]
            want, rule = DECISIONS[item["kind"]]
            if kind != want:
                raise IllegalAction(rule, N_("first decide the pending %(pending)s (%(want)s)"), pending=item['kind'], want=want)
            self._decide(s, item, name, a, events)
        elif kind == "exchange":
            if s["stage"] != "exchange":
                raise IllegalAction(R + "day-turns",
                                    N_("you have already exchanged a gift this turn"))
            day.do_exchange(self, s, name, a, events)
        elif s["stage"] != "act":
            raise IllegalAction(R + "gift-exchange", N_("a turn starts with a gift exchange"))
        elif kind == "card_action":
            day.do_card_action(self, s, name, a, events)
        elif kind == "location_action":
            day.do_location_action(self, s, name, a, events)
        elif kind == "end_turn":
            day.end_turn(self, s, events)
        else:
            raise IllegalAction(R + "day-turn-steps", N_("nothing to decide with %(kind)r now"), kind=kind)
        self._advance(s, events)

    def _decide(self, s, item, name, a, ev):
        k = item["kind"]
        if k == "travel_move":
            L.decide_travel_move(self, s, name, a, ev)
        elif k == "token_reward":
            L.decide_token_reward(self, s, name, a, ev)
        elif k == "intrigue_reward":
            L.decide_intrigue_reward(self, s, name, a, ev)
        elif k == "canal_place":
            L.decide_canal_place(self, s, name, a, ev)
        elif k == "canal_move":
            L.decide_canal_move(self, s, name, a, ev)
        elif k == "claim":
            L.decide_claim(self, s, name, a, ev)
        elif k == "decree_bonus":
            morning.decide_bonus(self, s, name, a, ev)
        elif k == "follow":
            L.decide_follow(self, s, name, a, ev)
        elif k == "take_double":
            c.decide_take_double(s, name, a, ev)

    def _advance(self, s, ev):
        """Run automatic steps until somebody has to decide (or the game is over)."""
        while True:
            c.offer_double_servants(s)
            if s["pending"]:
                item = s["pending"][0]
                if item["kind"] == "canal_claims":
                    s["pending"].pop(0)
                    c.offer_claims(self, s, item["player"])
                    continue
                if item["kind"] == "travel_move" and not L.travel_destinations(self, s, item["player"]):
                    s["pending"].pop(0)  # no city with a token can be reached: the move lapses
                    continue
                if item["kind"] == "claim" and not c.claimable(self, s, item["player"], item["ship"]):
                    s["pending"].pop(0)
                    continue
                if item["player"] == solo.meng(s):
                    solo.auto_decide(self, s, item, ev)  # the automa decides by its own rules
                    continue
                return
            if solo.is_solo(s) and s["solo"]["todo"]:
                solo.step(self, s, ev)
                continue
            if s["phase"] == "dusk":
                solo.end_dusk(self, s, ev)
                continue
            if s["phase"] == "day" and s["order"][s["turn"]] == solo.meng(s) and s["stage"] == "exchange" \
                    and c.P(s, s["order"][s["turn"]])["hand"]:
                solo.start_turn(self, s, ev)
                continue
            if s["phase"] == "day":
                if s["stage"] == "exchange" and not c.P(s, s["order"][s["turn"]])["hand"]:
                    day.end_turn(self, s, ev)  # no cards left: the player passes
                    continue
                return
            if s["phase"] == "night":
                if s["step"] == "end_of_day":
                    if s["day"] >= self.consts.days:
                        scoring.run(self, s, ev)
                    else:
                        s["phase"], s["step"] = "morning", "first_player"
                    continue
                night.run(self, s, ev)
                continue
            if s["phase"] == "morning":
                morning.run(self, s, ev)
                continue
            return

    def run(self, state, step):
        """Engine steps by name, for scenarios: night, destiny_dice, move_ships, morning, final_scoring,
        and in the solo game dusk."""
        s = st.copy(state)
        ev: list[Event] = []
        if step == "night":
            s["phase"], s["step"], s["pending"] = "night", "dice", []
            self._advance(s, ev)
        elif step == "destiny_dice":
            night.destiny_dice(self, s, ev)
        elif step == "move_ships":
            night.move_ships(self, s, ev)
            self._advance_pending_only(s, ev)
        elif step == "morning":
            s["phase"], s["step"], s["pending"] = "morning", "first_player", []
            self._advance(s, ev)
        elif step == "final_scoring":
            scoring.run(self, s, ev)
        elif step == "dusk" and solo.is_solo(s):  # the solo Dusk: the lower parts of Meng's cards of the day
            solo.start_dusk(self, s, ev)
            while s["solo"]["todo"]:
                solo.step(self, s, ev)
        else:
            raise IllegalAction("scenario", N_("gugong has no engine step %(step)r"), step=step)
        c.offer_double_servants(s)
        return s, ev

    def _advance_pending_only(self, s, ev):
        while s["pending"] and s["pending"][0]["kind"] == "claim" and \
                not c.claimable(self, s, s["pending"][0]["player"], s["pending"][0]["ship"]):
            s["pending"].pop(0)

    # ------------------------------------------------------------ legal actions
    def legal_actions(self, s) -> list[Action]:
        if self.is_terminal(s):
            return []
        name = self.current_player(s)
        out: list[dict] = []
        if s["pending"]:
            item = s["pending"][0]
            k = item["kind"]
            if k == "travel_move":
                opts = [{"city": x} for x in L.travel_destinations(self, s, name)]
            elif k == "token_reward":
                opts = L.token_reward_opts(self, s, name, item["token"])
            elif k == "make_room":
                opts = []
            elif k == "intrigue_reward":
                opts = L.intrigue_reward_opts(self, s, name)
            elif k == "canal_place":
                opts = L.canal_place_opts(self, s, name, item)
            elif k == "canal_move":
                opts = L.canal_move_opts(self, s, name)
            elif k == "claim":
                opts = L.claim_opts(self, s, name, item)
            elif k == "follow":
                opts = L.follow_opts(self, s, name, item)
            elif k == "take_double":
                opts = [{"take": True}, {"take": False}] if s["players"][name]["double"] == "supply" else [{"take": False}]
            else:
                opts = morning.bonus_opts(self, s, name, item["decree"])
            entry = DECISIONS[k][0]
            out = [{"type": entry, "player": name, **o} for o in opts]
        elif s["stage"] == "exchange":
            out = day.exchange_opts(self, s, name)
        else:
            out = [{"player": name, **o} for o in day.act_opts(self, s, name)]
        if not (s["pending"] and s["pending"][0]["kind"] == "make_room") and not out:
            return out
        out += [{"type": "tokens", "player": name, **o} for o in L.tokens_opts(self, s, name)]
        return out

    # ------------------------------------------------------------ invariants
    def check_invariants(self, s) -> list[str]:
        k = self.consts
        bad = []
        for name in s["order"]:
            p = s["players"][name]
            dbl_wall = sum(1 for who, size in s["wall"] if who == name and size != 1)
            dbl_ships = sum(1 for sh in p["ships"] if sh for x in sh["load"] if x != 1)
            total = setup.servants_placed(self, s, name)
            if total != k.servants_total:
                bad.append(Broken(N_("%(player)s has %(n)s servants accounted for, not %(want)s"), player=name, n=total,
                                  want=k.servants_total))
            if min(p["pool"], p["supply"]) < 0:
                bad.append(Broken(N_("%(player)s has a negative servant count"), player=name))
            where = {"wall": dbl_wall, "ship": dbl_ships}
            for place, n in where.items():
                if n != (1 if p["double"] == place else 0):
                    bad.append(Broken(N_("%(player)s's double servant is %(double)s but %(n)s are on the %(place)s"), player=name,
                                      double=p["double"], n=n, place=place))
            if p["double"] not in ("locked", "pool", "supply", "wall", "ship"):
                bad.append(Broken(N_("%(player)s's double servant is nowhere"), player=name))
            if p["vp"] < 0:
                bad.append(Broken(N_("%(player)s has negative VP"), player=name))
            if not 0 <= p["intrigue"] <= k.intrigue_max:
                bad.append(Broken(N_("%(player)s's intrigue marker is off the track"), R + "intrigue-track-limit", player=name))
            if not 0 <= p["palace"] <= k.palace_end:
                bad.append(Broken(N_("%(player)s's envoy is off the palace track"), player=name))
            if len(p["tokens"]) > k.token_slots:
                bad.append(Broken(N_("%(player)s holds more than %(n)s travel tokens"), R + "travel-token-limit", player=name,
                                  n=k.token_slots))
            for kind, n in p["ports"].items():
                if n > k.port_limits[kind]:
                    bad.append(Broken(N_("%(player)s claimed %(reward)s %(n)s times"), R + "port-reward-limits", player=name,
                                      reward=kind, n=n))
            for sh in p["ships"]:
                if sh and sum(sh["load"]) > k.ship_capacity:
                    bad.append(Broken(N_("%(player)s has an overloaded ship"), player=name))
            if sorted(p["decrees"]) != sorted(d for d, holders in s["decrees"].items() if name in holders):
                bad.append(Broken(N_("%(player)s's decrees disagree with the board"), player=name))
        cards = list(s["board"].values()) + s["draw"] + s["box"]
        for name in s["order"]:
            cards += s["players"][name]["hand"] + s["players"][name]["discard"]
        if sorted(cards) != k.cards:
            bad.append(Broken(N_("gift cards were created or lost")))
        ports = [(sh["path"], sh["port"]) for n in s["order"] for sh in s["players"][n]["ships"] if sh]
        if len(ports) != len(set(ports)):
            bad.append(Broken(N_("two ships share a port")))
        if any(not 1 <= d <= k.die_faces for d in s["dice"]):
            bad.append(Broken(N_("a destiny die shows an impossible side")))
        if len(s["palace_spots"]) != len(set(s["palace_spots"])):
            bad.append(Broken(N_("an envoy entered the palace twice")))
        return bad + setup.composition(self, s)

    def settle_setup(self, s, patch):
        setup.settle(self, s, patch)
