"""ZhanGuo (Marco Canetta & Stefania Niccolini) for 2-4 players, on plain JSON states.

The game runs as the rulebook reads: setup (with the optional B sides and their auction), then 5
rounds of phase 1 (draw, or the card-selection variant), phase 2 (play cards: unification or one of
the 6 court actions, then card and B-side activations, then tasks) and phase 3 (unification rewards,
new first player); then final scoring. Whenever a player must decide something the state waits in
`pending` (or for the turn player's card). Every rule constant comes from the knowledge base
(consts.py); values printed only on components come from the unknowns register's `value_used`.

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
from itertools import combinations

from engine.core import state as st
from engine.core.errors import IllegalAction, MalformedAction
from engine.core.game import Action, Event, PhasedGame
from engine.core.state import own
from engine.zhanguo import gametype, scoring
from engine.zhanguo.common import (P, blocked, can_raise, cards_on_board, gain_marker, lower_unrest, marker_value,
                                   raise_unrest, tiebreak_order)
from engine.zhanguo.consts import Consts
from engine.zhanguo.schema import state_schema

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
        self.k = Consts(self.rules)

    # ================================================================ setup
    def new_state(self, players, options=None, seed=0):
        k = self.k
        declared = self.game_type
        options = declared.check_options(options, [str(p) for p in players])
        players = [str(p) for p in players] + [str(p) for p in options.get("others") or []]
        if not declared.min_players <= len(players) <= declared.max_players or len(set(players)) != len(players):
            raise MalformedAction(f"ZhanGuo is for {declared.min_players}-{declared.max_players} players with distinct names")
        for option in declared.options:  # the state records every option's value
            if option.default is not None:
                options.setdefault(option.name, option.default)
        s = {"game": "zhanguo", "seats": players, "options": options, "rng": self.rng_seed(seed),
             "round": k.round_start, "phase": "setup", "pending": [], "stage": None, "turn": 0, "order": [],
             "aspects": list(k.aspect_order), "court": [], "column": {}, "result": None, "auction": None,
             "workers_out": 0}
        rng = self.rng(s)
        n = len(players)
        if options.get("first_player") in players:
            first = options["first_player"]
        else:
            first = players[rng.below(n)] if k.first_player_random else players[0]
        i0 = players.index(first)
        clockwise = players[i0:] + players[:i0]
        s["first"] = first
        s["track"] = list(clockwise)  # zhanguo/unknown/rewards-track-start-order
        decks = {}
        for c in k.colours:
            lo, hi = k.deck_range[c]
            d = [x for x in range(lo, hi + 1) if x in k.cards]
            rng.shuffle(d)
            decks[c] = d
        s["decks"] = decks
        s["supply"] = {"m1": {c: k.m1_by_players[n] for c in k.colours}, "m3": {c: k.m3_per_colour for c in k.colours}}
        s["board"] = {
            "governors": {r: [] for r in k.regions},
            "palaces": {r: [None] * k.palace_spaces[n] for r in k.regions},
            "walls": [[None] * k.spaces_per_section for _ in range(k.sections)],
            "wall_tokens": [], "tasks": {}}
        toks = [list(t) for t in k.wall_tokens]
        rng.shuffle(toks)
        s["board"]["wall_tokens"] = [t[rng.below(len(t))] for t in toks[:k.sections]]
        for t in k.task_types:
            keys = sorted(k.task_tokens[t])
            rng.shuffle(keys)
            for i, sec in enumerate(k.task_sections):
                s["board"]["tasks"].setdefault(sec, {})[t] = {"token": keys[i], "discs": []}
        s["players"] = {}
        for name in players:
            p = {"vp": k.start_vp, "side": "A", "board": None, "hand": [], "draft": [],
                 "supply": {c: k.officials_per_colour for c in k.official_colours},
                 "governors": k.governors, "palaces": k.palaces, "walls": k.walls, "cubes": k.cubes,
                 "discs": k.task_discs, "m1": {c: 0 for c in k.colours}, "m3": {c: 0 for c in k.colours},
                 "regions": {r: {"gov": {c: 0 for c in k.official_colours}, "work": {c: 0 for c in k.official_colours},
                                 "workers": 0, "unrest": 0, "cards": []} for r in k.regions}}
            for c, m in k.start_officials.items():
                p["supply"][c] -= m
                p["regions"][str(k.start_region)]["gov"][c] += m
            s["players"][name] = p
        if options["sides"] == "B":  # boards chosen in reverse starting order
            s["phase"] = "boards"
            s["free_boards"] = list(k.boards)
            s["pending"] = [{"kind": "board", "player": nm} for nm in reversed(clockwise)]
        elif options["sides"] == "auction":
            s["phase"] = "auction"
            boards = list(k.boards)
            rng.shuffle(boards)
            s["free_boards"] = sorted(boards[k.boards_discarded[n]:], key=k.boards.index)
            for p in s["players"].values():
                p["vp"] = k.auction_vp
            self._start_auction(s, clockwise, first)
        else:
            s["phase"] = "draw"
        self._advance(s, [])
        return s

    @staticmethod
    def rng_seed(seed):
        from engine.core.rng import Rng
        return Rng.seed_state(seed)

    # ---------------------------------------------------------------- B-side auction
    def _start_auction(self, s, remaining, opener):
        s["auction"] = {"remaining": list(remaining), "active": list(remaining), "turn": opener, "high": 0, "leader": None}
        if len(remaining) == 1:  # the last board always costs the last player 1 VP
            P(s, opener)["vp"] -= self.k.last_board_cost
            s["auction"] = None
            s["pending"] = [{"kind": "board", "player": opener}]
        else:
            s["pending"] = [{"kind": "bid", "player": opener}]

    def _auction_next(self, s, ev):
        au = s["auction"]
        if len(au["active"]) == 1 and au["leader"] is not None:
            win = au["leader"]
            P(s, win)["vp"] -= au["high"]
            ev.append({"event": "auction_won", "player": win, "vp": au["high"]})
            rest = [n for n in au["remaining"] if n != win]
            seats = s["seats"]
            i = seats.index(win)
            nxt = next((seats[(i + d) % len(seats)] for d in range(1, len(seats) + 1) if seats[(i + d) % len(seats)] in rest), None)
            s["pending"] = [{"kind": "board", "player": win}]
            s["auction_next"] = {"remaining": rest, "opener": nxt}
            return
        seats = au["remaining"]
        i = seats.index(au["turn"])
        for d in range(1, len(seats) + 1):
            nm = seats[(i + d) % len(seats)]
            if nm in au["active"]:
                au["turn"] = nm
                break
        s["pending"] = [{"kind": "bid", "player": au["turn"]}]

    # ================================================================ protocol
    def declare(self):
        return gametype.declare(self)

    def turn_player(self, s):
        return s["order"][s["turn"]] if s["phase"] == "play" else None

    def state_schema(self):
        return state_schema(self)

    def check_invariants(self, s):
        return scoring.invariants(self, s)

    # ================================================================ legal actions
    def legal_actions(self, s) -> list[Action]:
        if self.is_terminal(s):
            return []
        name = self.current_player(s)
        if name is None:
            return []
        options = self._options(s, name)
        _listed.last = (s, name, options)
        return [dict(type=t, player=name, **o) for t, o in options]

    def apply(self, state, action):
        last = getattr(_listed, "last", None)
        _listed.known = last if last is not None and last[0] is state else None
        try:
            return super().apply(state, action)
        finally:
            _listed.known = None

    def _options(self, s, name):
        k = self.k
        p = P(s, name)
        if s["pending"]:
            item = s["pending"][0]
            kind = item["kind"]
            if kind == "bid":
                au = s["auction"]
                lo = max(au["high"] + 1, k.min_bid)
                out = [("bid", {"amount": x}) for x in range(lo, p["vp"] + 1)]
                if au["leader"] is not None:
                    out.append(("pass", {}))
                return out
            if kind == "board":
                return [("board", {"board": b}) for b in s["free_boards"]]
            if kind == "select":
                return [("select", {"discard": c}) for c in item["cards"]]
            if kind == "move":
                return [("move", o) for o in self._move_opts(s, name, item)]
            if kind == "activate":
                return [("activate", o) for o in self._activate_opts(s, name, item)] + [("activate", {"done": True})]
            if kind == "official":
                out = [("official", {"colour": c, "region": r}) for c in k.official_colours if p["supply"][c] > 0
                       for r in k.regions]
                return out + [("official", {"skip": True})]
            if kind == "reward":
                return [("reward", o) for o in self._reward_opts(s, name, item)] + [("reward", {"accept": False})]
            if kind == "tasks":
                return [("task", o) for o in self._task_opts(s, name)] + [("task", {"done": True})]
            return []
        if s["phase"] != "play":
            return []
        if s["stage"] == "end":
            return [("task", o) for o in self._task_opts(s, name)] + [("end_turn", {})]
        out = []
        for r in k.regions:
            reg = p["regions"][r]
            if sum(reg["work"].values()) < k.work_capacity:
                out += [("shift", {"region": r, "colour": c}) for c in k.official_colours if reg["gov"][c] > 0]
        for card in p["hand"]:
            for r in k.regions:
                pos = len(p["regions"][r]["cards"]) + 1
                if pos <= k.max_cards_region and can_raise(self, p, r, k.unrest_for_pos[pos]):
                    out.append(("unify", {"card": card, "region": r}))
        court = self._court_opts(s, name)
        for card in p["hand"]:
            out += [("court", {"card": card, **o}) for o in court]
        return out

    # ---------------------------------------------------------------- court actions
    def _court_opts(self, s, name):
        k = self.k
        p = P(s, name)
        out = []
        # appoint 1 governor
        if p["governors"] > 0:
            for r in k.regions:
                if all(p["regions"][r]["gov"][c] >= m for c, m in k.gov_cost.items()):
                    out += [{"action": "appoint-governor", "region": r, "space": sp} for sp in self._gov_spaces(s, r)]
        # recruit 1 official
        for c in k.official_colours:
            if p["supply"][c] >= k.recruit_n:
                out += [{"action": "recruit-official", "colour": c, "region": r} for r in k.regions]
        # hire workers
        for r in k.regions:
            if sum(p["regions"][r]["work"].values()) > 0 and can_raise(self, p, r, self._hire_unrest(s, p, r)):
                out.append({"action": "hire-workers", "region": r})
        # move officials
        if self._move_opts(s, name, {"left": k.move_max, "spent": 0, "min": k.move_min}, any_only=True):
            out.append({"action": "move-officials"})
        # build 1 palace
        if p["palaces"] > 0:
            markers = [c for c in k.colours if s["supply"]["m3"][c] > 0] or [None]
            for r in k.regions:
                reg = p["regions"][r]
                if reg["workers"] < k.palace_from_region or None not in s["board"]["palaces"][r] or blocked(self, p, r):
                    continue
                for o in k.regions:
                    if o != r and p["regions"][o]["workers"] >= k.palace_from_other:
                        out += [{"action": "build-palace", "region": r, "other": o, "marker": m} for m in markers]
        # build 1 wall
        if p["walls"] > 0:
            with_workers = [r for r in k.regions if p["regions"][r]["workers"] > 0]
            for sec, lines in self._wall_spaces(s, name):
                for combo in combinations(with_workers, k.wall_workers[lines]):
                    out.append({"action": "build-wall", "section": sec, "lines": lines, "regions": list(combo)})
        return out

    def _hire_unrest(self, s, p, r):
        n_hired = self._hired(s, p, r)
        if s["options"]["unrest_per_worker"]:
            return n_hired * self.k.unrest_per_worker
        return self.k.hire_unrest

    def _hired(self, s, p, r):
        k = self.k
        n = min(k.hire_max, sum(p["regions"][r]["work"].values()) * k.hire_per_official)
        if p["board"] and self.k.b_ability.get(p["board"]) == "b-extra-worker" and p["side"] != "A":
            n += k.b_extra_workers
        return n

    def _gov_spaces(self, s, r):
        taken = {g["space"] for g in s["board"]["governors"][r] if g["space"] is not None}
        free = [i for i in range(len(self.k.bonus_spaces)) if i not in taken]
        return free or [None]

    def _wall_spaces(self, s, name):
        out = []
        for sec, spaces in enumerate(s["board"]["walls"]):
            if spaces.count(name) >= self.k.walls_per_section:
                continue
            out += [(sec, i + 1) for i, who in enumerate(spaces) if who is None]
        return out

    # ---------------------------------------------------------------- movement points
    def _move_opts(self, s, name, item, any_only=False):
        k = self.k
        p = P(s, name)
        left = item["left"]
        out = []
        if item["spent"] >= item["min"] and not any_only:
            out.append({"stop": True})
        for r in k.regions:
            reg = p["regions"][r]
            for c in k.official_colours:
                if reg["gov"][c] > 0:
                    for t in k.regions:
                        if t != r and k.dist[r].get(t, 99) <= left:
                            out.append({"from": r, "area": "gov", "colour": c, "to": t, "to_area": "gov"})
                            if any_only:
                                return out
                if reg["work"][c] > 0:
                    if left >= 1:
                        out.append({"from": r, "area": "work", "colour": c, "to": r, "to_area": "gov"})
                        if any_only:
                            return out
                    for t in k.regions:
                        if t != r and k.dist[r].get(t, 99) <= left and \
                                sum(p["regions"][t]["work"].values()) < k.work_capacity:
                            out.append({"from": r, "area": "work", "colour": c, "to": t, "to_area": "work"})
                            if any_only:
                                return out
        return out

    def _do_move(self, s, name, item, a, ev):
        k = self.k
        p = P(s, name)
        if a.get("stop"):
            s["pending"].pop(0)
            return
        fr, to = a["from"], a["to"]
        cost = 1 if fr == to else k.dist[fr][to]
        own(p["regions"], fr)[a["area"]][a["colour"]] -= 1
        own(p["regions"], to)[a["to_area"]][a["colour"]] += 1
        item["left"] -= cost
        item["spent"] += cost
        ev.append({"event": "move", "player": name, **{x: a[x] for x in ("from", "area", "colour", "to", "to_area")}, "cost": cost})
        if item["left"] <= 0 or not self._move_opts(s, name, item, any_only=True):
            s["pending"].pop(0)

    # ---------------------------------------------------------------- activation
    def _activation_allowed(self, s, action):
        """zhanguo/rule/card-activation: compare the card just played with the card directly beneath it."""
        k = self.k
        if action in k.never:
            return False
        if len(s["court"]) < 2:
            return True  # the first card on the court: its player declares the starting value X
        top, below = s["court"][-1], s["court"][-2]
        if action in k.higher:
            return top > below
        if action in k.lower:
            return top < below
        return False

    def _board_ability(self, p):
        if p["side"] == "A" or not p["board"]:
            return None
        return self.k.b_ability[p["board"]]

    def _activate_opts(self, s, name, item):
        k = self.k
        p = P(s, name)
        action = item["action"]
        out = []
        if item["allowed"]:
            for r in k.regions:
                if blocked(self, p, r):
                    continue
                for card in p["regions"][r]["cards"]:
                    if card in item["used"]:
                        continue
                    spec = k.cards[card]
                    if spec["action"] != action:
                        continue
                    out += [{"card": card, **o} for o in self._ability_opts(s, p, spec, r)]
        ab = self._board_ability(p)
        if ab and not item["b_used"]:
            out += [{"board": True, **o} for o in self._b_opts(s, p, ab, action, item)]
        return out

    def _ability_opts(self, s, p, spec, r):
        k = self.k
        ab = spec["ability"]
        if ab == "unification-marker":
            cs = [c for c in k.colours if s["supply"]["m1"][c] > 0]
            return [{"colour": c} for c in cs] if cs else [{}]
        if ab in ("movement", "vp", "worker", "vp-per-card-colour"):
            return [{}]
        if ab == "reduce-unrest-any-region":
            return [{"region": x} for x in k.regions if p["regions"][x]["unrest"] > 0]
        if ab == "reduce-unrest-card-region":
            return [{}] if p["regions"][r]["unrest"] > 0 else []
        if ab == "move-worker":
            return self._worker_moves(p)
        if ab == "official":
            return [{}] if p["supply"][spec["official_colour"]] >= k.ab_officials else []
        return []

    def _worker_moves(self, p):
        k = self.k
        return [{"from": r, "to": t} for r in k.regions if p["regions"][r]["workers"] > 0 for t in sorted(k.adj[r])]

    def _b_opts(self, s, p, ab, action, item):
        k = self.k
        if ab == "b-extra-worker":
            if action == "hire-workers":
                return [{}]
            if action == "appoint-governor":
                return self._worker_moves(p)
        elif ab == "b-unification-marker":
            if action in ("build-wall", "recruit-official"):
                cs = [c for c in k.colours if s["supply"]["m1"][c] > 0]
                return [{"colour": c} for c in cs] if cs else [{}]
        elif ab == "b-unrest-worker":
            if action in ("move-officials", "build-wall"):
                return [{"region": x} for x in k.regions if p["regions"][x]["unrest"] > 0]
        elif ab == "b-governor-move":
            if action == "recruit-official":
                return [{}]
            if action == "appoint-governor":
                name = item["player"]
                out = []
                for r in k.regions:
                    if any(g["player"] == name for g in s["board"]["governors"][r]):
                        out += [{"from": r, "to": t} for t in sorted(k.adj[r])]
                return out
        return []

    def _do_activate(self, s, name, item, a, ev):
        k = self.k
        p = P(s, name)
        if a.get("done"):
            s["pending"].pop(0)
            return
        if a.get("board"):
            item["b_used"] = True
            ab = self._board_ability(p)
            action = item["action"]
            ev.append({"event": "board_ability", "player": name, "ability": ab})
            if ab == "b-extra-worker":
                if action == "hire-workers":
                    s["pending"].insert(0, {"kind": "move", "player": name, "left": k.b_extra_move, "spent": 0, "min": 0})
                else:
                    self._move_worker(p, a)
            elif ab == "b-unification-marker":
                self._take_marker(s, name, a, ev)
            elif ab == "b-unrest-worker":
                lower_unrest(p, a["region"], k.abilities["b-unrest-worker"]["unrest_decrease"], ev)
                self._add_workers(s, p, a["region"], k.abilities["b-unrest-worker"]["workers"])
            elif ab == "b-governor-move":
                if action == "recruit-official":
                    s["pending"].insert(0, {"kind": "move", "player": name, "left": k.b_gov_move, "spent": 0, "min": 0})
                else:
                    govs = own(s["board"]["governors"], a["from"])
                    g = next(x for x in govs if x["player"] == name)
                    govs.remove(g)
                    own(s["board"]["governors"], a["to"]).append({"player": name, "space": None})
            self._close_activation(s, name, item)
            return
        card = a["card"]
        own(item, "used").append(card)
        spec = k.cards[card]
        r = next(x for x in k.regions if card in p["regions"][x]["cards"])
        ab = spec["ability"]
        ev.append({"event": "activate", "player": name, "card": card, "ability": ab})
        if ab == "unification-marker":
            self._take_marker(s, name, a, ev)
        elif ab == "movement":
            s["pending"].insert(0, {"kind": "move", "player": name, "left": k.ab_move, "spent": 0, "min": 0})
        elif ab == "vp":
            p["vp"] += spec["vp"]
        elif ab == "worker":
            self._add_workers(s, p, r, k.ab_workers)
        elif ab == "vp-per-card-colour":
            p["vp"] += k.ab_colour_vp * sum(1 for x in k.regions for c in p["regions"][x]["cards"]
                                            if k.cards[c]["colour"] in spec["colours"])
        elif ab == "reduce-unrest-any-region":
            lower_unrest(p, a["region"], k.ab_unrest, ev)
        elif ab == "reduce-unrest-card-region":
            lower_unrest(p, r, k.abilities["reduce-unrest-card-region"]["unrest_decrease"], ev)
        elif ab == "move-worker":
            self._move_worker(p, a)
        elif ab == "official":
            c = spec["official_colour"]
            p["supply"][c] -= k.ab_officials
            own(p["regions"], r)["gov"][c] += k.ab_officials
        self._close_activation(s, name, item)

    def _close_activation(self, s, name, item):
        if item in s["pending"] and not self._activate_opts(s, name, item):
            s["pending"].remove(item)

    def _take_marker(self, s, name, a, ev):
        if "colour" in a:
            gain_marker(self, s, name, a["colour"], 1, ev)
        else:
            P(s, name)["vp"] += self.k.ab_marker_vp

    def _move_worker(self, p, a):
        own(p["regions"], a["from"])["workers"] -= 1
        own(p["regions"], a["to"])["workers"] += 1

    def _add_workers(self, s, p, r, n):
        own(p["regions"], r)["workers"] += n
        s["workers_out"] += n

    def _remove_workers(self, s, p, r, n):
        own(p["regions"], r)["workers"] -= n
        s["workers_out"] -= n

    # ---------------------------------------------------------------- rewards
    def _reward_spot(self, s, aspect):
        return self.k.reward_layout[s["round"]][aspect]

    def _reward_opts(self, s, name, item):
        k = self.k
        p = P(s, name)
        spot = self._reward_spot(s, item["aspect"])
        kind = spot["reward"]
        n = k.rewards[kind]
        if kind == "official":
            return [{"accept": True, "colour": c} for c in k.official_colours if p["supply"][c] >= n["officials"]]
        if "official_colour" in n:
            c = n["official_colour"]
            return [{"accept": True}] if p["supply"][c] >= n["officials"] else []
        if kind == "two-workers":
            return [{"accept": True}]
        if kind == "governor":
            if p["governors"] < n["governors"]:
                return []
            regions = [str(x) for x in spot.get("regions", k.regions)]
            return [{"accept": True, "region": r, "space": sp} for r in regions for sp in self._gov_spaces(s, r)]
        if kind == "wall":
            if p["walls"] < n["walls"]:
                return []
            return [{"accept": True, "section": sec, "lines": ln} for sec, ln in self._wall_spaces(s, name)]
        if kind == "palace":
            if p["palaces"] < n["palaces"]:
                return []
            return [{"accept": True, "region": r} for r in k.regions
                    if None in s["board"]["palaces"][r] and not blocked(self, p, r)]
        return []

    def _do_reward(self, s, name, item, a, ev):
        k = self.k
        p = P(s, name)
        s["pending"].pop(0)
        aspect = item["aspect"]
        if not a["accept"]:
            ev.append({"event": "reward_pass", "player": name, "aspect": aspect})
            rest = item["candidates"]
            if rest:
                s["pending"].insert(0, {"kind": "reward", "player": rest[0], "aspect": aspect, "candidates": rest[1:]})
            else:
                self._next_aspect(s, ev)
            return
        colour = k.colour_of_aspect[aspect]
        s["supply"]["m1"][colour] += p["m1"][colour]
        s["supply"]["m3"][colour] += p["m3"][colour]
        p["m1"][colour] = p["m3"][colour] = 0
        for asp in list(s["column"]):
            if s["column"][asp] == name:
                del s["column"][asp]
        s["column"][aspect] = name
        spot = self._reward_spot(s, aspect)
        kind = spot["reward"]
        rw = k.rewards[kind]
        ev.append({"event": "reward", "player": name, "aspect": aspect, "reward": kind})
        todo = []
        if kind == "official":
            p["supply"][a["colour"]] -= rw["officials"]
            own(p["regions"], str(spot["region"]))["gov"][a["colour"]] += rw["officials"]
        elif "official_colour" in rw:
            c = rw["official_colour"]
            p["supply"][c] -= rw["officials"]
            own(p["regions"], str(spot["region"]))["gov"][c] += rw["officials"]
        elif kind == "two-workers":
            self._add_workers(s, p, str(spot["region"]), rw["workers"])
        elif kind == "governor":
            todo = self._place_governor(s, name, a["region"], a["space"], ev)
        elif kind == "wall":
            self._place_wall(s, name, a["section"], a["lines"])
        elif kind == "palace":
            self._place_palace(s, name, a["region"], ev)
        tail = []
        if self._task_opts(s, name):
            tail.append({"kind": "tasks", "player": name})
        s["pending"][0:0] = todo + tail + [{"kind": "next_aspect", "player": None}]

    def _next_aspect(self, s, ev):
        k = self.k
        done = s["reward_aspects_done"]
        if done < len(s["aspects"]):
            aspect = s["aspects"][done]
            s["reward_aspects_done"] = done + 1
            colour = k.colour_of_aspect[aspect]
            order = tiebreak_order(s)
            cands = [n for n in order if P(s, n)["m1"][colour] + P(s, n)["m3"][colour] >= k.min_markers]
            cands.sort(key=lambda n: (-marker_value(self, P(s, n), colour), order.index(n)))
            if cands:
                s["pending"].insert(0, {"kind": "reward", "player": cands[0], "aspect": aspect, "candidates": cands[1:]})
            else:
                self._next_aspect(s, ev)
            return
        # all three aspects done: discs back on the track in tie-break order; new first player
        s["track"] = tiebreak_order(s)
        s["column"] = {}
        s["first"] = s["track"][0]
        ev.append({"event": "first_player", "player": s["first"]})
        if s["round"] >= k.rounds:
            scoring.final(self, s, ev)
        else:
            s["round"] += 1
            s["phase"] = "draw"

    # ---------------------------------------------------------------- tasks
    def _task_opts(self, s, name):
        k = self.k
        p = P(s, name)
        if p["discs"] <= 0:
            return []
        out = []
        for sec in k.task_sections:
            for t in k.task_types:
                task = s["board"]["tasks"][sec][t]
                if name in task["discs"] or len(task["discs"]) >= k.task_spaces:
                    continue
                if self._task_met(s, name, t, k.task_tokens[t][task["token"]]):
                    out.append({"section": sec, "task": t})
        return out

    def _task_met(self, s, name, t, req):
        k = self.k
        b = s["board"]
        for sym, need in req.items():
            if t == "governor":
                have = sum(1 for g in b["governors"][str(sym)] if g["player"] == name)
            elif t == "palace":
                have = b["palaces"][str(sym)].count(name)
            else:
                area = k.wall_area_names.index(sym)
                secs = range(area * k.sections_per_area, (area + 1) * k.sections_per_area)
                have = sum(1 for sec in secs if name in b["walls"][sec])
            if have < need:
                return False
        return True

    def _do_task(self, s, name, a, ev):
        p = P(s, name)
        own(s["board"]["tasks"], a["section"])[a["task"]]["discs"].append(name)
        p["discs"] -= 1
        ev.append({"event": "task", "player": name, "section": a["section"], "task": a["task"]})

    # ---------------------------------------------------------------- placing pieces
    def _place_governor(self, s, name, r, space, ev):
        """Place a governor; a bonus space gives its bonus; the region's unrest cube goes back."""
        k = self.k
        p = P(s, name)
        p["governors"] -= 1
        own(s["board"]["governors"], r).append({"player": name, "space": space})
        todo = []
        if space is not None:
            bonus = k.bonus_spaces[space]
            ev.append({"event": "governor_bonus", "player": name, "bonus": bonus})
            if bonus == "governor-bonus-vp":
                p["vp"] += k.bonus_vp
            elif bonus == "governor-bonus-movement":
                todo.append({"kind": "move", "player": name, "left": k.bonus_move, "spent": 0, "min": 0})
            elif bonus == "governor-bonus-official":
                if any(p["supply"].values()):
                    todo.append({"kind": "official", "player": name})
        reg = own(p["regions"], r)
        if reg["unrest"] > k.gov_unrest_after:
            reg["unrest"] = k.gov_unrest_after
            p["cubes"] += 1
        return todo

    def _place_wall(self, s, name, sec, lines):
        P(s, name)["walls"] -= 1
        own(s["board"]["walls"], sec)[lines - 1] = name

    def _place_palace(self, s, name, r, ev):
        k = self.k
        p = P(s, name)
        p["palaces"] -= 1
        spaces = own(s["board"]["palaces"], r)
        spaces[spaces.index(None)] = name
        vp = k.palace_vp_per_card * min(cards_on_board(p), k.palace_vp_max)
        p["vp"] += vp
        ev.append({"event": "palace", "player": name, "region": r, "vp": vp})

    # ================================================================ applying actions
    def _apply(self, s, a, events):
        name, kind = self.actor(s, a), a["type"]
        if name != self.current_player(s):
            raise IllegalAction(R + "how-to-play-a-card", f"it is {self.current_player(s)}'s decision, not {name}'s")
        body = {x: v for x, v in a.items() if x not in ("type", "player")}
        if isinstance(body.get("regions"), list):
            body["regions"] = sorted(str(x) for x in body["regions"])
        for key in ("region", "other", "from", "to"):
            if isinstance(body.get(key), int):
                body[key] = str(body[key])
        known = getattr(_listed, "known", None)
        opts = known[2] if known is not None and known[1] == name else self._options(s, name)
        if (kind, body) not in opts:
            if any(t == kind for t, _ in opts):
                rule = COURT_RULE.get(body.get("action"), RULE_OF[kind]) if kind == "court" else RULE_OF[kind]
                raise IllegalAction(rule, f"{kind} {body} is not allowed now")
            want = sorted({t for t, _ in opts})
            raise IllegalAction(RULE_OF[kind], f"{kind} is not possible now; expected one of {want}")
        self._do(s, name, kind, body, events)
        self._advance(s, events)

    def _do(self, s, name, kind, a, ev):
        k = self.k
        p = P(s, name)
        item = s["pending"][0] if s["pending"] else None
        if kind == "bid":
            au = s["auction"]
            au["high"], au["leader"] = a["amount"], name
            s["pending"].pop(0)
            self._auction_next(s, ev)
        elif kind == "pass":
            au = s["auction"]
            au["active"].remove(name)
            s["pending"].pop(0)
            self._auction_next(s, ev)
        elif kind == "board":
            s["pending"].pop(0)
            p["board"], p["side"] = a["board"], a["board"]
            s["free_boards"].remove(a["board"])
            nxt = s.pop("auction_next", None)
            if nxt:
                self._start_auction(s, nxt["remaining"], nxt["opener"])
        elif kind == "select":
            s["pending"].pop(0)
            p["draft"].remove(a["discard"])
            p["hand"] += p["draft"]
            p["draft"] = []
            s["discards"][item["colour"]].append(a["discard"])
        elif kind == "shift":
            reg = own(p["regions"], a["region"])
            reg["gov"][a["colour"]] -= 1
            reg["work"][a["colour"]] += 1
        elif kind == "unify":
            self._unify(s, name, a["card"], a["region"], ev)
            s["stage"] = "end"
        elif kind == "court":
            self._court(s, name, a, ev)
            s["stage"] = "end"
        elif kind == "move":
            self._do_move(s, name, item, a, ev)
        elif kind == "activate":
            self._do_activate(s, name, item, a, ev)
        elif kind == "official":
            s["pending"].pop(0)
            if not a.get("skip"):
                p["supply"][a["colour"]] -= k.bonus_officials
                own(p["regions"], a["region"])["gov"][a["colour"]] += k.bonus_officials
        elif kind == "reward":
            self._do_reward(s, name, item, a, ev)
        elif kind == "task":
            if a.get("done"):
                s["pending"].pop(0)
            else:
                self._do_task(s, name, a, ev)
                if item and item["kind"] == "tasks" and not self._task_opts(s, name):
                    s["pending"].pop(0)
        elif kind == "end_turn":
            self._end_turn(s, ev)

    def _unify(self, s, name, card, r, ev):
        """zhanguo/rule/unification: the card goes under the region; markers; unrest for the 2nd/3rd card."""
        k = self.k
        p = P(s, name)
        p["hand"].remove(card)
        reg = own(p["regions"], r)
        reg["cards"].append(card)
        pos = len(reg["cards"])
        colour = k.cards[card]["colour"]
        ev.append({"event": "unify", "player": name, "card": card, "region": r})
        gain_marker(self, s, name, colour, k.markers_for_pos[pos], ev)
        raise_unrest(self, p, r, k.unrest_for_pos[pos], ev)

    def _court(self, s, name, a, ev):
        k = self.k
        p = P(s, name)
        p["hand"].remove(a["card"])
        s["court"].append(a["card"])
        action = a["action"]
        ev.append({"event": "court", "player": name, "card": a["card"], "action": action})
        todo = []
        if action == "appoint-governor":
            reg = own(p["regions"], a["region"])
            for c, m in k.gov_cost.items():
                reg["gov"][c] -= m
                p["supply"][c] += m
            todo = self._place_governor(s, name, a["region"], a["space"], ev)
        elif action == "recruit-official":
            p["supply"][a["colour"]] -= k.recruit_n
            own(p["regions"], a["region"])["gov"][a["colour"]] += k.recruit_n
        elif action == "hire-workers":
            r = a["region"]
            up = self._hire_unrest(s, p, r)
            self._add_workers(s, p, r, self._hired(s, p, r))
            raise_unrest(self, p, r, up, ev)
        elif action == "move-officials":
            todo = [{"kind": "move", "player": name, "left": k.move_max, "spent": 0, "min": k.move_min}]
        elif action == "build-palace":
            self._remove_workers(s, p, a["region"], k.palace_from_region)
            self._remove_workers(s, p, a["other"], k.palace_from_other)
            if a["marker"] is not None:
                s["supply"]["m3"][a["marker"]] -= k.palace_m3
                p["m3"][a["marker"]] += k.palace_m3
            self._place_palace(s, name, a["region"], ev)
        elif action == "build-wall":
            for r in a["regions"]:
                self._remove_workers(s, p, r, 1)
            self._place_wall(s, name, a["section"], a["lines"])
        act = {"kind": "activate", "player": name, "action": action, "allowed": self._activation_allowed(s, action),
               "used": [], "b_used": False}
        s["pending"][0:0] = todo
        if self._activate_opts(s, name, act):
            s["pending"].insert(len(todo), act)

    def _end_turn(self, s, ev):
        s["stage"] = "card"
        order = s["order"]
        n = len(order)
        for d in range(1, n + 1):
            i = (s["turn"] + d) % n
            if P(s, order[i])["hand"]:
                s["turn"] = i
                return
        s["phase"] = "rewards"
        s["reward_aspects_done"] = 0
        s["column"] = {}
        self._next_aspect(s, ev)

    # ================================================================ automatic steps
    def _advance(self, s, ev):
        k = self.k
        while True:
            if s["pending"]:
                item = s["pending"][0]
                if item["kind"] == "next_aspect":
                    s["pending"].pop(0)
                    self._next_aspect(s, ev)
                    continue
                if item["kind"] == "move" and not self._move_opts(s, item["player"], item, any_only=True):
                    s["pending"].pop(0)
                    continue
                if item["kind"] == "activate" and not self._activate_opts(s, item["player"], item):
                    s["pending"].pop(0)
                    continue
                if item["kind"] == "official" and not any(P(s, item["player"])["supply"].values()):
                    s["pending"].pop(0)
                    continue
                if item["kind"] == "tasks" and not self._task_opts(s, item["player"]):
                    s["pending"].pop(0)
                    continue
                if item["kind"] == "select" and not item["cards"]:
                    self._deal_draft(s)
                return
            if s["phase"] == "drafting":
                s["phase"] = "drafted"
                continue
            if s["phase"] in ("boards", "auction"):
                s["phase"] = "draw"
                s["auction"] = None
                continue
            if s["phase"] == "draw":
                self._draw(s, ev)
                continue
            if s["phase"] == "drafted":
                for c in k.colours:
                    d = s["discards"][c]
                    self.rng(s).shuffle(d)
                    s["decks"][c][0:0] = d
                s["discards"] = None
                self._start_play(s)
                continue
            if s["phase"] == "play":
                if s["stage"] == "end" and not self._task_opts(s, s["order"][s["turn"]]):
                    self._end_turn(s, ev)
                    continue
                return
            return

    def _draw(self, s, ev):
        k = self.k
        order = self._round_order(s)
        if s["options"]["card_selection"] and s["round"] in k.sel_rounds:
            s["discards"] = {c: [] for c in k.colours}
            for name in order:
                for c in k.colours:
                    s["pending"].append({"kind": "select", "player": name, "colour": c, "cards": []})
            s["phase"] = "drafting"
            return
        for name in order:
            for c in k.colours:
                for _ in range(min(k.cards_per_deck, len(s["decks"][c]))):
                    P(s, name)["hand"].append(s["decks"][c].pop())
        self._start_play(s)

    def _deal_draft(self, s):
        """Card-selection variant: draw 3 of a colour when that choice comes up."""
        k = self.k
        item = s["pending"][0]
        d = s["decks"][item["colour"]]
        item["cards"] = [d.pop() for _ in range(min(k.sel_drawn, len(d)))]
        P(s, item["player"])["draft"] = list(item["cards"])

    def _round_order(self, s):
        if s["options"]["reward_track_turn_order"]:
            return list(s["track"])
        seats = s["seats"]
        i = seats.index(s["first"])
        return seats[i:] + seats[:i]

    def _start_play(self, s):
        s["phase"] = "play"
        s["order"] = self._round_order(s)
        s["turn"] = 0
        s["stage"] = "card"

    # ================================================================ scenario steps
    def run(self, state, step):
        """Engine steps by name, for scenarios: rewards (phase 3 from its start), final_scoring."""
        s = st.copy(state)  # a private copy: own() has nothing to do here
        ev: list[Event] = []
        if step == "rewards":
            s["phase"], s["pending"], s["reward_aspects_done"], s["column"] = "rewards", [], 0, {}
            self._next_aspect(s, ev)
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
            raise IllegalAction("scenario", f"zhanguo has no engine step {step!r}")
        return s, ev
