"""ZhanGuo (Marco Canetta & Stefania Niccolini) for 2-4 players, on plain JSON states.

The game runs as the rulebook reads: setup (with the optional B sides and their auction), then 5
rounds of phase 1 (draw, or the card-selection variant), phase 2 (play cards: unification or one of
the 6 court actions, then card and B-side activations, then tasks) and phase 3 (unification rewards,
new first player); then final scoring, one module per chapter: setup.py, draw.py (phase 1),
court.py (phase 2: unification and court actions), movement.py, activation.py, tasks.py, pieces.py
(placing governors, walls, palaces, workers), rewards.py (phase 3), scoring.py. This module keeps the
protocol: legal actions, applying an action, and the automatic steps between decisions. Whenever a
player must decide something the state waits in `pending` (or for the turn player's card). Every
rule constant comes from the knowledge base (consts.py, the game's `consts`); values printed only on
components come from the unknowns register's `value_used`.

Actions (JSON; each names its "player"); legal_actions() lists every complete legal action:
  auction:   bid {amount} | pass {} | board {board}
  draw:      select {discard}                                   (card-selection variant)
  turn:      shift {region, colour}  unify {card, region}
             court {card, action, ...}: appoint-governor {region, space}  recruit-official {colour, region}
               hire-workers {region}  move-officials {}  build-palace {region, other, marker}
               build-wall {section, lines, regions}
             end_turn {}
  decisions: move {from, area, colour, to, to_area} | move {stop: true}
             activate {card, ...} | activate {board: true, ...} | activate {done: true}
             official {colour, region} | official {skip: true}      (governor bonus)
             reward {accept: false} | reward {accept: true, ...}
             task {section, task} | task {done: true}
"""
from __future__ import annotations

import threading

from engine.core import state as st
from engine.core.effects import Interpreter
from engine.core.errors import IllegalAction
from engine.core.game import Action, Event, PhasedGame
from engine.core.rng import Rng
from engine.core.state import own
from engine.zhanguo import activation, court, draw, gametype, movement, rewards, scoring, setup, tasks
from engine.zhanguo.common import P, can_raise
from engine.zhanguo.consts import Consts
from engine.zhanguo.schema import state_schema
from engine.zhanguo.vocabulary import ZhanGuoVocabulary
from kb.messages import N_

R = "zhanguo/rule/"
CA = "zhanguo/court-action/"
TYPES = {"bid", "pass", "board", "select", "shift", "unify", "court", "end_turn", "move", "activate", "official",
         "reward", "task"}
# the rule an action of each type belongs to (named by IllegalAction)
RULE_OF = {"bid": "zhanguo/setup-step/b-side-auction", "pass": "zhanguo/setup-step/b-side-auction",
           "board": "zhanguo/setup-step/player-boards", "select": "zhanguo/variant/card-selection",
           "shift": R + "free-official-shift", "unify": R + "unification", "court": R + "court-actions",
           "end_turn": R + "tasks", "move": R + "movement-point", "activate": R + "card-activation",
           "official": "zhanguo/reward/governor-bonus-official", "reward": R + "unification-rewards", "task": R + "tasks"}
COURT_RULE = {"appoint-governor": CA + "appoint-governor", "recruit-official": CA + "recruit-official",
              "hire-workers": CA + "hire-workers", "move-officials": CA + "move-officials",
              "build-palace": CA + "build-palace", "build-wall": CA + "build-wall"}
# The options legal_actions listed last, with the state they are for: apply checks an action
# against the complete list of legal ones, and a random agent asks for that list on the very state
# it then applies to, so listing them again would double the cost of a decision.
_listed = threading.local()


class ZhanGuo(PhasedGame):
    action_types = frozenset(TYPES)
    key = "zhanguo"
    draft_deeper = ("players",)  # hands, officials in supply and markers change on most actions

    def __init__(self, rules=None):
        super().__init__(rules)
        self.consts = Consts(self.rules)
        # the effects of scorings and wall tokens run through the one interpreter (engine/core/effects.py)
        self.effects = Interpreter(self.rules, ZhanGuoVocabulary(self.consts))

    # ================================================================ setup (setup.py)
    def new_state(self, players, options=None, seed=0):
        state = setup.new_state(self, players, options, seed)
        self._advance(state, [])
        return state

    @staticmethod
    def rng_seed(seed):
        return Rng.seed_state(seed)

    # ================================================================ protocol
    def declare(self):
        return gametype.declare(self)

    def turn_player(self, state):
        return state["order"][state["turn"]] if state["phase"] == "play" else None

    def state_schema(self):
        return state_schema(self)

    def check_invariants(self, state):
        return scoring.invariants(self, state)

    def settle_setup(self, state, patch):
        setup.settle(self, state, patch)

    # ================================================================ legal actions
    def legal_actions(self, state) -> list[Action]:
        if self.is_terminal(state):
            return []
        name = self.current_player(state)
        if name is None:
            return []
        options = self._options(state, name)
        _listed.last = (state, name, options)
        return [{"type": item, "player": name, **o} for item, o in options]

    def apply(self, state, action):
        last = getattr(_listed, "last", None)
        _listed.known = last if last is not None and last[0] is state else None
        try:
            return super().apply(state, action)
        finally:
            _listed.known = None

    def _options(self, state, name):
        k = self.consts
        p = P(state, name)
        if state["pending"]:
            item = state["pending"][0]
            kind = item["kind"]
            if state["phase"] == "play" and name == self.turn_player(state):
                # the free shift may be made at any moment of the player's turn (zhanguo/rule/free-official-shift)
                return self._decision_options(state, name, item) + self._shift_options(state, name)
            return self._decision_options(state, name, item)
        if state["phase"] != "play":
            return []
        if state["stage"] == "end":
            return [("task", o) for o in tasks.task_opts(self, state, name)] + self._shift_options(state, name) \
                + [("end_turn", {})]
        out = self._shift_options(state, name)
        for card in p["hand"]:
            for r in k.regions:
                pos = len(p["regions"][r]["cards"]) + 1
                if pos <= k.max_cards_region and can_raise(self, p, r, k.unrest_for_pos[pos]):
                    out.append(("unify", {"card": card, "region": r}))
        court_options = court.court_opts(self, state, name)
        for card in p["hand"]:
            out += [("court", {"card": card, **o}) for o in court_options]
        return out

    def _shift_options(self, state, name):
        """Officials a player may move from the governors' to the workers' area of a region: free."""
        k = self.consts
        out = []
        for r, reg in P(state, name)["regions"].items():
            if sum(reg["work"].values()) < k.work_capacity:
                out += [("shift", {"region": r, "colour": c}) for c in k.official_colours if reg["gov"][c] > 0]
        return out

    def _decision_options(self, state, name, item):
        """The choices of a pending decision."""
        k = self.consts
        p = P(state, name)
        kind = item["kind"]
        if kind == "bid":
            au = state["auction"]
            lo = max(au["high"] + 1, k.min_bid)
            out = [("bid", {"amount": x}) for x in range(lo, p["vp"] + 1)]
            if au["leader"] is not None:
                out.append(("pass", {}))
            return out
        if kind == "board":
            return [("board", {"board": b}) for b in state["free_boards"]]
        if kind == "select":
            return [("select", {"discard": c}) for c in item["cards"]]
        if kind == "move":
            return [("move", o) for o in movement.move_opts(self, state, name, item)]
        if kind == "activate":
            return [("activate", o) for o in activation.activate_opts(self, state, name, item)] + [("activate", {"done": True})]
        if kind == "official":
            out = [("official", {"colour": c, "region": r}) for c in k.official_colours if p["supply"][c] > 0
                   for r in k.regions]
            return out + [("official", {"skip": True})]
        if kind == "reward":
            return [("reward", o) for o in rewards.reward_opts(self, state, name, item)] + [("reward", {"accept": False})]
        if kind == "tasks":
            return [("task", o) for o in tasks.task_opts(self, state, name)] + [("task", {"done": True})]
        return []

    # ================================================================ applying actions
    def _apply(self, s, action, events):
        name, kind = self.actor(s, action), action["type"]
        if name != self.current_player(s):
            raise IllegalAction(R + "how-to-play-a-card", N_("it is %(current)s's decision, not %(name)s's"), current=self.current_player(s), name=name)
        body = {x: v for x, v in action.items() if x not in ("type", "player")}
        if isinstance(body.get("regions"), list):
            body["regions"] = sorted(str(x) for x in body["regions"])
        for key in ("region", "other", "from", "to"):
            if isinstance(body.get(key), int):
                body[key] = str(body[key])
        known = getattr(_listed, "known", None)
        opts = known[2] if known is not None and known[1] == name else self._options(s, name)
        if (kind, body) not in opts:
            precise = self._refusal(s, name, kind, body)
            if precise:
                raise precise
            if any(item == kind for item, _ in opts):
                rule = COURT_RULE.get(body.get("action"), RULE_OF[kind]) if kind == "court" else RULE_OF[kind]
                raise IllegalAction(rule, N_("%(kind)s %(body)s is not allowed now"), kind=kind, body=body)
            want = sorted({item for item, _ in opts})
            raise IllegalAction(RULE_OF[kind], N_("%(kind)s is not possible now; expected one of %(want)s"), kind=kind,
                                want=want)
        self._do(s, name, kind, body, events)
        self._advance(s, events)

    def _refusal(self, s, name, kind, body):
        """The precise rule a refused turn action breaks, where one reason is plain: a card not in
        hand, unrest above a track's maximum, a full workers' area (the refusal to raise). None: the action's own rule."""
        k = self.consts
        p = P(s, name)
        if not s["pending"] and s["phase"] == "play" and s["stage"] == "end" and kind in ("unify", "court"):
            return IllegalAction(R + "how-to-play-a-card", N_("%(name)s has played this turn's card"), name=name)
        if s["pending"] or s["phase"] != "play" or s["stage"] == "end":
            return None
        if kind in ("unify", "court") and body.get("card") not in p["hand"]:
            return IllegalAction(R + "how-to-play-a-card", N_("card %(card)r is not in %(name)s's hand"),
                                 card=body.get("card"), name=name)
        r = body.get("region")
        if r not in p["regions"]:
            return None
        if kind == "unify":
            pos = len(p["regions"][r]["cards"]) + 1
            if pos <= k.max_cards_region and not can_raise(self, p, r, k.unrest_for_pos[pos]):
                return IllegalAction(R + "unrest-tracks", N_("the card would raise unrest in region %(region)s above the "
                                                             "track's maximum"), region=r)
        if kind == "shift" and sum(p["regions"][r]["work"].values()) >= k.work_capacity:
            return IllegalAction(R + "worker-area-capacity", N_("the workers' area of region %(region)s is full"), region=r)
        return None

    def _do(self, state, name, kind, action, events):
        k = self.consts
        p = P(state, name)
        item = state["pending"][0] if state["pending"] else None
        if kind == "bid":
            au = state["auction"]
            au["high"], au["leader"] = action["amount"], name
            state["pending"].pop(0)
            setup.auction_next(self, state, events)
        elif kind == "pass":
            au = state["auction"]
            au["active"].remove(name)
            state["pending"].pop(0)
            setup.auction_next(self, state, events)
        elif kind == "board":
            state["pending"].pop(0)
            p["board"], p["side"] = action["board"], action["board"]
            state["free_boards"].remove(action["board"])
            nxt = state.pop("auction_next", None)
            if nxt:
                setup.start_auction(self, state, nxt["remaining"], nxt["opener"])
        elif kind == "select":
            state["pending"].pop(0)
            p["draft"].remove(action["discard"])
            p["hand"] += p["draft"]
            p["draft"] = []
            state["discards"][item["colour"]].append(action["discard"])
        elif kind == "shift":
            reg = own(p["regions"], action["region"])
            reg["gov"][action["colour"]] -= 1
            reg["work"][action["colour"]] += 1
        elif kind == "unify":
            court.unify(self, state, name, action["card"], action["region"], events)
            state["stage"] = "end"
        elif kind == "court":
            court.court(self, state, name, action, events)
            state["stage"] = "end"
        elif kind == "move":
            movement.do_move(self, state, name, item, action, events)
        elif kind == "activate":
            activation.do_activate(self, state, name, item, action, events)
        elif kind == "official":
            state["pending"].pop(0)
            if not action.get("skip"):
                p["supply"][action["colour"]] -= k.bonus_officials
                own(p["regions"], action["region"])["gov"][action["colour"]] += k.bonus_officials
        elif kind == "reward":
            rewards.do_reward(self, state, name, item, action, events)
        elif kind == "task":
            if action.get("done"):
                state["pending"].pop(0)
            else:
                tasks.do_task(self, state, name, action, events)
                if item and item["kind"] == "tasks" and not tasks.task_opts(self, state, name):
                    state["pending"].pop(0)
        elif kind == "end_turn":
            self._end_turn(state, events)



    def _end_turn(self, state, events):
        state["stage"] = "card"
        order = state["order"]
        n = len(order)
        for d in range(1, n + 1):
            i = (state["turn"] + d) % n
            if P(state, order[i])["hand"]:
                state["turn"] = i
                return
        state["phase"] = "rewards"
        state["reward_aspects_done"] = 0
        state["column"] = {}
        rewards.next_aspect(self, state, events)

    # ================================================================ automatic steps
    def _advance(self, state, events):
        k = self.consts
        while True:
            if state["pending"]:
                item = state["pending"][0]
                if item["kind"] == "next_aspect":
                    state["pending"].pop(0)
                    rewards.next_aspect(self, state, events)
                    continue
                if item["kind"] == "move" and not movement.move_opts(self, state, item["player"], item, any_only=True):
                    state["pending"].pop(0)
                    continue
                if item["kind"] == "activate" and not activation.activate_opts(self, state, item["player"], item):
                    state["pending"].pop(0)
                    continue
                if item["kind"] == "official" and not any(P(state, item["player"])["supply"].values()):
                    state["pending"].pop(0)
                    continue
                if item["kind"] == "tasks" and not tasks.task_opts(self, state, item["player"]):
                    state["pending"].pop(0)
                    continue
                if item["kind"] == "select" and not item["cards"]:
                    draw.deal_draft(self, state)
                return
            if state["phase"] == "drafting":
                state["phase"] = "drafted"
                continue
            if state["phase"] in ("boards", "auction"):
                state["phase"] = "draw"
                state["auction"] = None
                continue
            if state["phase"] == "draw":
                draw.draw(self, state, events)
                continue
            if state["phase"] == "drafted":
                for c in k.colours:
                    d = state["discards"][c]
                    self.rng(state).shuffle(d)
                    state["decks"][c][0:0] = d
                state["discards"] = None
                draw.start_play(self, state)
                continue
            if state["phase"] == "play":
                turn = state["order"][state["turn"]]
                # the turn ends by itself only when nothing is left to do in it: no task to declare, no free shift
                if state["stage"] == "end" and not tasks.task_opts(self, state, turn) \
                        and not self._shift_options(state, turn):
                    self._end_turn(state, events)
                    continue
                return
            return





    # ================================================================ scenario steps
    def run(self, state, step):
        """Engine steps by name, for scenarios: rewards (phase 3 from its start), final_scoring."""
        s = st.copy(state)  # a private copy: own() has nothing to do here
        ev: list[Event] = []
        if step == "rewards":
            s["phase"], s["pending"], s["reward_aspects_done"], s["column"] = "rewards", [], 0, {}
            rewards.next_aspect(self, s, ev)
            self._advance(s, ev)
        elif step == "final_scoring":
            scoring.final(self, s, ev)
        elif step == "legal":  # a summary of the legal actions, for scenarios that state what may not be done
            legal = self.legal_actions(s)
            unify: dict = {}
            for x in legal:
                if x["type"] == "unify":
                    unify.setdefault(str(x["card"]), []).append(x["region"])
            s["legal"] = {"unify": unify,
                          "court": sorted({x["action"] for x in legal if x["type"] == "court"}),
                          "activate": sorted({x["card"] for x in legal if x["type"] == "activate" and "card" in x}),
                          "task": [[x["section"], x["task"]] for x in legal if x["type"] == "task" and "section" in x]}
        else:
            raise IllegalAction("scenario", N_("zhanguo has no engine step %(step)r"), step=step)
        return s, ev
