"""In the Year of the Dragon (Stefan Feld; alea 2007, 10th anniversary edition 2017) for 2-5 players.

The game runs as the rulebook reads: setup and the initial persons (setup.py, phases.py), then 12 rounds
of phase 1 action and phase 2 person (phases.py), phase 3 event, decay and phase 4 scoring (events.py),
then the end-of-game scoring. With the Great Wall a wall scoring follows each Mongol Invasion and round
12; with the Great Events the great event is resolved in round 7 after the month's event. Each round is
a list of steps (state["steps"]); a step that needs decisions leaves them in state["pending"] (person-track
order) and the next step runs once they are all made. Every rule constant comes from consts.py (the KB).
"""
from __future__ import annotations

from engine.core import state as st
from engine.core.state import own
from engine.core.errors import IllegalAction
from engine.core.effects import Interpreter
from engine.core.game import PhasedGame
from engine.core.settle import Broken
from engine.dragon import common as c
from engine.dragon import gametype, setup
from engine.dragon import events as E
from engine.dragon import phases as ph
from engine.dragon.consts import Consts
from engine.dragon.schema import state_schema
from engine.dragon.setup import new_state
from engine.dragon.vocabulary import DragonVocabulary
from kb.messages import N_

R = "dragon/rule/"
DECISIONS = {"release": "release", "floor": "floor", "flood": "flood", "discard_card": "discard_card",
             "sunrise": "sunrise", "edict": "edict"}
TURN = {"draft", "action", "refill", "person"}
ALL_TYPES = TURN | set(DECISIONS.values())
EDICT = "dragon/event/ge-edict"
SUNRISE = "dragon/event/ge-sunrise"
RUN_STEPS = {"action", "person", "decay", "scoring", "end_scoring", "wall", "wall_final", "great"}


class Dragon(PhasedGame):
    action_types = frozenset(ALL_TYPES)
    key = "dragon"
    draft_fixed = frozenset({"options", "order", "events"})  # the setup's: no action changes them

    def __init__(self, rules=None):
        super().__init__(rules)
        eds = [e["key"] for e in self.rules.meta["editions"]]
        self.consts_by_edition = {ed: Consts(self.rules, ed) for ed in eds}
        # the effects of events, actions, person tiles and scorings run through the one interpreter;
        # a choice an event leaves to each player waits as that decision
        self.effects = Interpreter(self.rules, DragonVocabulary(self.consts, {"dragon/event/ge-flood": "flood"}))
        for k in self.consts_by_edition.values():
            k.effects = self.effects
        self.default_edition = max(eds, key=lambda e: [x for x in self.rules.meta["editions"] if x["key"] == e][0]["year"])

    def consts(self, state: dict) -> Consts:
        """The constants of the state's edition (In the Year of the Dragon's values differ by edition)."""
        return self.consts_by_edition[state["options"]["edition"]]

    # ------------------------------------------------------------ states
    def new_state(self, players, options=None, seed=0):
        s = new_state(self, list(players), dict(options or {}), seed)
        self._advance(s, [])
        return s

    def declare(self):
        return gametype.declare(self)

    def turn_player(self, s):
        return s["queue"][0] if s["queue"] else None

    def state_schema(self):
        return state_schema(self)

    # ------------------------------------------------------------ flow
    def _round_steps(self, s: dict) -> list[str]:
        k, o, r = self.consts(s), s["options"], s["round"]
        steps = ["action"]
        if r != k.no_person_round:
            steps.append("person")
        steps.append("event")
        if o["great_wall"] and s["events"][r - 1] == "mongol-invasion":
            steps.append("wall")
        if o["great_events"] and r == k.ge_round:
            steps.append("great")
        steps += ["decay", "scoring"]
        if r == k.last_round:
            steps += (["wall_final"] if o["great_wall"] else []) + ["end"]
        return steps

    def _clean_pending(self, s: dict) -> None:
        keep = []
        for it in s["pending"]:
            p = c.P(s, it["player"])
            if it["count"] <= 0:
                continue
            kind = it["kind"]
            if kind == "release" and not c.release_choices(p, it.get("palaces")):
                continue
            if kind == "floor" and not p["palaces"]:
                continue
            if kind == "flood" and not (p["yuan"] or p["rice"] or p["fireworks"]):
                continue
            if kind == "discard_card" and not p["hand"]:
                continue
            if kind == "sunrise" and not self._sunrise_tiles(s):
                continue
            if kind == "edict" and not c.persons(p):
                continue
            keep.append(it)
        s["pending"] = keep

    def _advance(self, s: dict, ev: list) -> None:
        k = self.consts(s)
        while True:
            self._clean_pending(s)
            if s["phase"] == "end" or s["pending"] or s["queue"]:
                return
            if s["steps"] and s["steps"][0] == "hold":  # scenarios: stop here
                return
            if not s["steps"]:
                s["round"] += 1
                s["steps"] = self._round_steps(s)
                ev.append({"event": "round", "round": s["round"]})
            step = s["steps"].pop(0)
            if step in ("action", "person"):
                self._step(k, s, step, ev)
            elif step == "event":
                s["phase"] = "event"
                s["groups"], s["dragons"] = [], []
                E.resolve(k, s, s["events"][s["round"] - 1], ev)
            else:
                self._step(k, s, step, ev)

    def _step(self, k, s: dict, step: str, ev: list) -> None:
        if step == "action":
            s["phase"] = "action"
            ph.lay_out(k, s)
            s["queue"] = c.track_order(s)
        elif step == "person":
            s["phase"] = "person"
            s["queue"] = [n for n in c.track_order(s) if s["players"][n]["hand"]]
        elif step == "wall":
            E.wall_scoring(k, s, ev)
        elif step == "great":
            E.great(k, s, ev)
        elif step == "decay":
            E.decay(k, s, ev)
        elif step == "scoring":
            s["phase"] = "scoring"
            E.round_scoring(k, s, ev)
        elif step == "wall_final":
            E.wall_scoring(k, s, ev, final=True)
        elif step == "end_scoring":
            E.end_scoring(k, s, ev)
        elif step == "end":
            E.end_scoring(k, s, ev)
            s["phase"] = "end"
            s["result"] = E.ranking(k, s)

    def run(self, state, step):
        """Scenario steps: an event key (dragon/event/*) resolves that event now; action and person start
        that phase (cards laid out, person-track order); decay, scoring, wall, wall_final, great and
        end_scoring run that engine step."""
        k = self.consts(state)
        s = st.copy(state)
        ev: list = []
        if step in k.events or step in getattr(k, "great_events", []):
            if step in k.events:
                E.resolve(k, s, step, ev)
            else:
                s["great_event"] = step
                E.great(k, s, ev)
        elif step in RUN_STEPS:
            self._step(k, s, step, ev)
        else:
            raise IllegalAction("scenario", N_("dragon has no engine step %(step)r"), step=step)
        self._advance(s, ev)
        return s, ev

    # ------------------------------------------------------------ actions
    def _apply(self, s, a, ev):
        name, kind = self.actor(s, a), a["type"]
        if self.current_player(s) is None:
            raise IllegalAction(R + "rounds", N_("no decision is waiting now"))
        if name != self.current_player(s):
            raise IllegalAction(R + "turn-order", N_("it is %(current)s's decision, not %(name)s's"), current=self.current_player(s), name=name)
        k = self.consts(s)
        if s["pending"]:
            item = s["pending"][0]
            if kind != DECISIONS[item["kind"]]:
                raise IllegalAction(item.get("rule", "dragon/phase/event"), N_("first decide the pending %(pending)s"), pending=item['kind'])
            self._decide(k, s, item, name, a, ev)
        elif s["phase"] == "draft":
            if kind != "draft":
                raise IllegalAction("dragon/setup-step/initial-persons", N_("first choose the initial persons"))
            ph.do_draft(self, k, s, name, a, ev)
        elif s["phase"] == "action":
            if kind == "action":
                ph.do_action(k, s, name, a, ev)
            elif kind == "refill":
                ph.do_refill(k, s, name, ev)
            else:
                raise IllegalAction("dragon/phase/action", N_("phase 1: take an action or top up to 3 yuan"))
        elif s["phase"] == "person":
            if kind != "person":
                raise IllegalAction("dragon/phase/person", N_("phase 2: play a person card"))
            ph.do_person(k, s, name, a, ev)
        else:
            raise IllegalAction("dragon/rule/rounds", N_("nothing to decide with %(kind)r now"), kind=kind)
        self._advance(s, ev)

    def _sunrise_tiles(self, s: dict) -> list[str]:
        k = self.consts(s)
        return [x for x in k.young if s["supply"][x] > 0 and k.subtypes[x]["type"] not in s["sunrise"]]

    def _decide(self, k, s, item, name, a, ev):
        p = c.P(s, name)
        kind = item["kind"]
        if kind == "release":
            i, j = a.get("palace"), a.get("slot")
            if "palaces" in item and i not in item["palaces"]:
                raise IllegalAction(item["rule"], N_("release from one of the palaces %(palaces)s"), palaces=item['palaces'])
            c.release(s, name, i, j, ev)
            if "palaces" in item:
                own(item, "palaces").remove(i)  # drought: one person from each unsupplied palace
        elif kind == "floor":
            i, j = a.get("palace"), a.get("slot")
            if not isinstance(i, int) or not 0 <= i < len(p["palaces"]):
                raise IllegalAction("dragon/event/ge-earthquake", N_("%(name)s has no palace %(i)r"), name=name, i=i)
            pal = own(p, "palaces")[i]
            full = len(pal["persons"]) > (pal["floors"] - 1) * k.persons_per_floor
            if full:
                if not isinstance(j, int) or not 0 <= j < len(pal["persons"]):
                    raise IllegalAction("dragon/event/ge-earthquake", N_("the palace is full: name the person (slot) to release"))
                c.release(s, name, i, j, ev)
            elif j is not None:
                raise IllegalAction("dragon/event/ge-earthquake", N_("the palace keeps room: nobody is released"))
            pal["floors"] -= 1
            s["bank"]["floors"] += 1
            if pal["floors"] == 0:
                del p["palaces"][i]
            ev.append({"event": "floor_lost", "player": name, "palace": i})
        elif kind == "flood":
            what = a.get("what")
            if what not in ("yuan", "rice", "fireworks"):
                raise IllegalAction("dragon/event/ge-flood", N_("what: yuan, rice or fireworks"))
            c.pay(s, name, what, 1, "dragon/event/ge-flood", ev)
        elif kind == "discard_card":
            card = a.get("card")
            if card not in p["hand"]:
                raise IllegalAction("dragon/event/ge-tornado", N_("%(name)s has no %(card)r card"), name=name, card=card)
            own(p, "hand").remove(card)
            ev.append({"event": "card_discarded", "player": name, "card": card})
        elif kind == "sunrise":
            x = a.get("person")
            if x not in self._sunrise_tiles(s):
                raise IllegalAction("dragon/event/ge-sunrise", N_("%(x)r is not a young courtier still to be chosen"), x=x)
            s["sunrise"].append(k.subtypes[x]["type"])
            self.effects.run(SUNRISE, s, name, ev, choice=a)  # the tile taken, the marker moved
        elif kind == "edict":
            entry = a.get("kind")
            if entry not in {k.subtypes[x]["type"] for x in c.persons(p)}:
                raise IllegalAction("dragon/event/ge-edict", N_("%(name)s has no %(entry)r in their court"), name=name, entry=entry)
            floors = self.effects.run(EDICT, s, name, ev, choice=a, forced=True).gained.get("palace_floor", 0)
            if floors:  # built at once, as with Build (dragon/unknown/ge-edict-benefits)
                c.check_build(k, p, floors, a.get("add"), a.get("new"), EDICT)
                c.do_build(s, name, a.get("add"), a.get("new"), ev)
            ev.append({"event": "edict", "player": name, "kind": entry})
        item["count"] -= 1

    # ------------------------------------------------------------ legal actions
    def legal_actions(self, s):
        if self.is_terminal(s):
            return []
        k = self.consts(s)
        name = self.current_player(s)
        if name is None:
            return []
        p = c.P(s, name)
        if s["pending"]:
            it = s["pending"][0]
            kind = it["kind"]
            base = {"type": DECISIONS[kind], "player": name}
            if kind == "release":
                return [{**base, "palace": i, "slot": j} for i, j in c.release_choices(p, it.get("palaces"))]
            if kind == "floor":
                out = []
                for i, pal in enumerate(p["palaces"]):
                    if len(pal["persons"]) > (pal["floors"] - 1) * k.persons_per_floor:
                        out += [{**base, "palace": i, "slot": j} for (ii, j) in c.release_choices(p, [i])]
                    else:
                        out.append({**base, "palace": i})
                return out
            if kind == "flood":
                return [{**base, "what": w} for w in ("yuan", "rice", "fireworks") if p[w] > 0]
            if kind == "discard_card":
                return [{**base, "card": x} for x in sorted(set(p["hand"]))]
            if kind == "sunrise":
                out = []
                for x in self._sunrise_tiles(s):
                    for i, j in c.placements(k, p):
                        act = {**base, "person": x, "palace": i}
                        if j is not None:
                            act["slot"] = j
                        out.append(act)
                return out
            if kind == "edict":
                out = []
                for item in sorted({k.subtypes[x]["type"] for x in c.persons(p)}):
                    what, n = E.edict_value(k, p, item)
                    if what == "palace_floors":
                        out += [{**base, "kind": item, "add": ad, "new": nw} for ad, nw in c.build_options(k, p, n)]
                    else:
                        out.append({**base, "kind": item})
                return out
            return []
        if s["phase"] == "draft":
            places = [[0, 1], [0, 0]] if len(p["palaces"]) > 1 else [[0, 0]]
            return [{"type": "draft", "player": name, "persons": [a, b], "palaces": pl}
                    for a, b in ph.draft_choices(k, s, name) for pl in places]
        if s["phase"] == "action":
            return ph.action_choices(k, s, name)
        if s["phase"] == "person":
            return ph.person_choices(k, s, name)
        return []

    # ------------------------------------------------------------ invariants
    def check_invariants(self, s):
        k = self.consts(s)
        bad = []
        P = s["players"]
        for what, total in (("yuan", k.total_yuan), ("rice", k.total_rice), ("fireworks", k.total_fireworks)):
            if sum(P[n][what] for n in s["order"]) + s["bank"][what] != total:
                bad.append(Broken(N_("%(what)s created or lost"), what=what))
        floors = sum(pal["floors"] for n in s["order"] for pal in P[n]["palaces"])
        if floors + s["bank"]["floors"] != k.total_floors:
            bad.append(Broken(N_("palace floors created or lost")))
        for z, total in (("small", k.total_small), ("large", k.total_large)):
            if sum(P[n]["privileges"][z] for n in s["order"]) + s["bank"][z] != total:
                bad.append(Broken(N_("%(size)s privileges created or lost"), size=z))
        start = k.tiles(len(s["order"]))
        placed: dict[str, int] = {}
        for n in s["order"]:
            for x in c.persons(P[n]):
                placed[x] = placed.get(x, 0) + 1
        for x, total in start.items():
            if s["supply"][x] + s["released"][x] + placed.get(x, 0) != total:
                bad.append(Broken(N_("%(type)s person tiles created or lost: %(n)s are in a game of %(players)s"),
                                  "dragon/setup-step/person-tiles-by-player-count", type=x, n=total, players=len(s["order"])))
            if s["supply"][x] < 0:
                bad.append(Broken(N_("negative supply of %(what)s"), what=x))
        for n in s["order"]:
            p = P[n]
            for what in ("yuan", "rice", "fireworks", "vp", "person"):
                if p[what] < 0:
                    bad.append(Broken(N_("%(player)s has negative %(what)s"), player=n, what=what))
            if any(v < 0 for v in p["privileges"].values()):
                bad.append(Broken(N_("%(player)s has negative privileges"), player=n))
            for pal in p["palaces"]:
                if not 1 <= pal["floors"] <= k.max_floors:
                    bad.append(Broken(N_("%(player)s has a palace of %(n)s floors"), R + "palace-capacity", player=n,
                                      n=pal["floors"]))
                if len(pal["persons"]) > pal["floors"] * k.persons_per_floor:
                    bad.append(Broken(N_("%(player)s has an overcrowded palace"), R + "palace-capacity", player=n))
            if len(p["hand"]) > k.hand_size:
                bad.append(Broken(N_("%(player)s holds too many person cards"), player=n))
        if s["options"]["great_wall"]:
            if len(s["wall"]) > k.wall_max:
                bad.append(Broken(N_("the wall is longer than its maximum")))
            for n in s["order"]:
                if len(P[n]["wall"]) + sum(1 for x in s["wall"] if x == n) != len(k.wall_tiles):
                    bad.append(Broken(N_("%(player)s's wall tiles created or lost"), player=n))
        return bad + setup.composition(self, s)

    def settle_setup(self, s, patch):
        setup.settle(self, s, patch)
