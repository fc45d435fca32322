"""What Gugong's effects act on (engine/core/effects.py): servants, VP, jade, gift cards, travel tokens,
the double servant, the intrigue, palace and day tracks, ships and the Great Wall, and the counts and
conditions its effects name, by the names game.yaml declares. The numbers come from the effect
(references resolved by the interpreter), so this module holds no rule constant.

What runs from effects: decrees, port rewards and claims, travel tokens and their exchanges, gift card
abilities and exchange payments, intrigue rewards, the location options, the wall's completion and
scoring, the night's matching cards, the morning's new servants, the setup's servants and jade, the
end scorings, the bonus travel tokens, and Meng's rules (solo): his placements take their servants from
where his rule's place step says, a payment he cannot make skips the rest of his rule (solo.Short).
A `modify` step (a level 2 decree's discount, the extra card a port-3 reward lets you play) is a
lasting change the engine reads from the state (the decree held, the spot taken on the player board):
running it changes nothing more.
"""
from __future__ import annotations

from engine.core.effects import Run, Vocabulary, every_step, gains
from engine.core.errors import IllegalAction, MalformedAction
from engine.core.state import own
from engine.gugong import common as c
from engine.gugong import locations as L
from engine.gugong.consts import TOKEN
from kb.effects import term
from kb.messages import N_

# mechanisms the effects name: a full ship may take its port's reward (a decision the caller
# offers), a complete wall section is scored (the caller checks the wall after the step), cards move
CLAIMS = frozenset({"gugong/rule/canal-claim-reward", "gugong/location/grand-canal"})
WALL = "gugong/rule/wall-scoring"
INTRIGUE_REWARDS = "gugong/rule/intrigue-rewards"
SWAP = "gugong/card-ability/swap-card"
ABILITY = "gugong/card-ability/"
RETRIEVE = "gugong/token/travel-retrieve-card"
TOKENS = "gugong/token/"
TRAVEL_MOVE = "gugong/rule/travel-move"  # one move of the traveller: a decision of where to
DECREE = "gugong/decree/"
DIE = "gugong/reward/intrigue-destiny-die"
COURTYARD = "courtyard"  # the Jade action's choice of the courtyard rather than a house
# where a servant goes on the Wall: from the general supply (a travel token, the Great Wall decree),
# or the pieces a Great Wall option names from the pool
WALL_SUPPLY = frozenset({"great-wall", "great-wall-scoring-as-usual"})
# a Grand Canal option's servants from the pool onto ships, each a decision: whether the player may
# leave it (option A's one servant) or must place it (option B's two)
CANAL_PLACES = {"own-ship": True, "one-or-two-own-ships": False}
ON_DECREE = "chosen-decree"
DECREE_TAKEN = "gugong/rule/decree-immediate-vp"
CANAL_MOVE = "gugong/rule/canal-moving-ships"  # one ship moved: a decision of which
SHIPS = frozenset({"own-or-new-ship-normal-rules",
                   "own-canal-ship-or-new-by-rules"})
MOMENT = "moment"  # a decree's trigger moment, among its modify targets (GugongVocabulary._held)
VP_RATIO = "vp-gained-during-game"
# the player's act a token's condition names: the card they chose goes to their discard pile
HIGH_CARD = "discards-gift-card-of-value"
PLAIN = frozenset({"gain", "move"})  # a reward that asks nothing of the player
# Meng's placements (gugong/rule/solo-*): where his servants come from, as his rules say, and his ships
MENG_FROM = {"servant-pool": ("pool", False), "general-supply": ("supply", False),
             "general-supply-then-pool": ("supply", True)}
# the setup's places (gugong/setup-step/servants, gugong/setup-step/jade)
SETUP_SERVANTS = {"servant-pool-on-board": "pool", "general-supply-beside-board": "supply"}
SETUP_JADE = "pavilion-roof-spaces"
OWN_DISCARD = "own-discard-pile"
BONUS_SPOTS = frozenset({"beside-board-with-bonus-token", "beside-chosen-action-with-bonus-token"})
# where a claimed reward's pieces go (gugong/rule/canal-claim-reward), in its order
CLAIM_PLACES = ("free-port-reward-spot", "beside-player-board", "own-general-supply")
MENG_SUPPLY = "meng-general-supply"
MENG_DISCARD, MENG_PLAYABLE = "meng-discard-pile", "meng-playable-cards"  # his travel tokens' cards
MENG_FREE_JADE = "meng-jade-free"  # the special Automa card's jade: the cheapest, no servants removed
MENG = "meng"  # the solo opponent, as a `by` step names him (game.yaml others)
MENG_PORTS = "gugong/rule/solo-ports"  # his reward marked by a neutral marker
FOLLOW = "gugong/token/bonus-follow"  # its owner's decision to perform the marked action
NEW_SERVANTS = "gugong/step/morning-new-servants"  # everyone's servants for the day
MENG_JADE = "gugong/rule/solo-jade-day"  # his jade bought at the cheapest house
MENG_DECREE = "gugong/rule/solo-special-decrees"  # his choice of decree, free (the special Automa card)
MENG_SHIPS = SHIPS | {"existing-or-new-ship", "meng-ship-or-new-ship"}
# the night's ships (gugong/step/night-move-ships): each `per` lists its ships in run.shared, its steps
# act on the nth: lost at sea (beside its owner's board), moved furthest first, full ones may claim
LOST, MOVING, CLAIMING = "canal-ship-in-port", "canal-ship", "canal-full-ship"
NIGHT_SHIPS = frozenset({LOST, MOVING, CLAIMING})
# what a port reward the player claims gains (the option of a port's choice that gains it)
REWARD_GAINS = {"vp4": "vp", "gift_card": "card", "double_servant": "double_servant"}


def _player(run: Run) -> dict:
    return run.state["players"][run.player]


def _meng(run: Run) -> str | None:
    return run.state["solo"]["meng"] if run.state.get("solo") else None


class GugongVocabulary(Vocabulary):
    """One per engine (`g`: its constants `g.consts` and solo constants `g.solo`)."""

    targets = NIGHT_SHIPS

    def __init__(self, g):
        self.g = g
        self._modify: dict[tuple, dict] = {}  # decrees held -> what their modify steps add, by target
        self._sources: dict[tuple, str | None] = {}
        self._choices: dict[str, tuple] = {}  # token -> what its reward asks the player to choose  # (entity, where) -> where its place step takes from
        self.counts = {
            VP_RATIO: lambda run, vp, level: _player(run)["vp"] // vp,
            "own-jade-capped": lambda run, max_vp: _player(run)["jade"],
            LOST: lambda run, port: self._night_ships(run, [(n, i) for _at, n, i in self._ships(run) if _at == port]),
            MOVING: lambda run, steps: self._night_ships(run, [(n, i) for _at, n, i in sorted(self._ships(run), key=lambda x: -x[0])],
                                                         steps=steps),
            CLAIMING: self._claiming,
            "own-servant-on-decrees-including-this": lambda run: len(_player(run)["decrees"]),
            "own-servant-on-port-rewards": self._port_servants,
            "palace-step": lambda run: run.choice["steps"],
            "decree-cost-servant":
                lambda run: g.consts.decrees[run.choice["decree"]]["servant_cost"],
            # the night's matches: Meng's are fixed by the day (gugong/rule/solo-night), each on one die
            "discard-matching-one-die": lambda run: self._matching(run, 1),
            "discard-matching-two-dice": lambda run: self._matching(run, 2),
            # a bonus token's marked action: this once, when another player performed it
            "marked-action-by-another":
                lambda run: 1 if "performed" in run.choice else 0,
            "other-servant-on-decree":
                lambda run: sum(1 for who in run.state["decrees"][run.choice["decree"]] if who != run.player),
        }
        self.conditions = {
            # the player's act: the card they chose goes to their discard pile
            HIGH_CARD: self._discard_high_card,
            # the player's act: the house's printed cost (less a decree's discount) paid, one jade taken from it
            "jade-house-stocked-and-paid":
                self._buy_from_house,
            "jade-houses-sold-out": lambda run: not any(run.state["jade_houses"]),
            "first-to-choose-option": lambda run: run.state["medal"] is None,
            "medal-available": lambda run: run.state["medal"] is None,
            # a lower gift's exchange (gugong/rule/gift-exchange-lower): how the player chose to pay
            "lower-gift-paid-with-servants": lambda run: run.choice.get("lower") and run.choice.get("payment") == "servants",
            "lower-gift-paid-with-card": lambda run: run.choice.get("lower") and run.choice.get("payment") == "discard",
            **{f"meng-collects-{token}": (lambda run, token=token: run.choice.get("token") == token)
               for token in g.solo.token_rules},  # the tokens his solo rules treat their own way
            **{f"meng-holds-{key}": (lambda run, key=key: key in _player(run)["decrees"])
               for key in g.solo.decree_rules},  # the decrees his solo rules treat their own way
            # Meng's rules (gugong/rule/solo-*): the phase he acts in
            "day-phase": lambda run: run.choice.get("phase") == "day",
            "dusk-phase": lambda run: run.choice.get("phase") == "dusk",
            "card-shows-exchange-benefit":
                lambda run: self.interpreter.mechanisms(ABILITY + run.choice["ability"]) == [SWAP],
            "meng-intrigue-at-least": lambda run, space: _player(run)["intrigue"] >= space,
            "meng-low-intrigue-with-servant":
                lambda run: run.attrs["servant_min_intrigue"] <= _player(run)["intrigue"] < run.attrs["jade_min_intrigue"]
                and _player(run)["supply"] > 0,
            # Meng's port reward (gugong/rule/solo-ports); the neutral markers count his rewards
            "meng-ship-carries":
                lambda run, servants: _player(run)["ships"][run.choice["ship"]] is not None
                and c.ship_load(_player(run)["ships"][run.choice["ship"]]) >= servants,
            "meng-port-rewards-fewer-than": self._meng_card_reward,
            "meng-port-rewards-at-least": lambda run, rewards: not self._meng_card_reward(run, rewards),
            "meng-can-afford-jade": self._meng_affords_jade,
            "meng-can-place-on-wall": lambda run: _player(run)["pool"] > 0,
            # he trades travel tokens for servants when that makes the action affordable (solo.afford)
            "meng-pool-holds": self._meng_affords,
            "meng-envoy-outside-palace": lambda run: not self._in_palace_before(run),
            "meng-envoy-in-palace": self._in_palace_before,
            "wall-section-completed":
                lambda run: c.wall_total(run.state) >= g.consts.threshold(len(run.state["order"])),
            # "instead": both conditions judge where the envoy stood before the bonus moved it
            "envoy-outside-palace": lambda run: not self._in_palace_before(run),
            "envoy-already-in-palace": self._in_palace_before,
            "envoy-in-palace-and-would-climb":
                lambda run: _player(run)["palace"] >= g.consts.palace_end,
            "third-servant-on-ship": self._ship_full,
            "full-ship-in-port-with-free-spot":
                lambda run: run.choice["reward"] in c.claimable(g, run.state, run.player, run.choice["ship"]),
            # the morning rolls the dice before the decree bonuses (engine/gugong/morning.py)
            "dice-rolled": lambda run: run.moment == "morning",
            "servants-remain-and-most-on-wall":
                lambda run: self._wall_leader(run) == run.player,
            "most-servants-on-wall":
                lambda run: self._wall_leader(run) == run.player,
            # the matches the night counted (Meng's are fixed by the day: engine/gugong/night.py)
            "most-servants-from-matches":
                self._most_matches,
        }

    # ---------------------------------------------------------------- amounts
    def gain(self, run: Run, what: str, n: int) -> None:
        s, name = run.state, run.player
        if what == "vp":  # what the effect gave, for the final scoring's notes
            c.gain_vp(s, name, n, run.events)
            run.gained["vp"] = run.gained.get("vp", 0) + n
        elif what == "servant":
            c.gain_servants(s, name, n, run.events)
        elif what == "card":  # drawn from the draw pile while it lasts (Meng's in the Dusk: onto his discard pile)
            p = _player(run)
            pile = "discard" if name == _meng(run) and run.choice.get("phase") == "dusk" else "hand"
            for _ in range(n):
                if s["draw"]:
                    own(p, pile).append(s["draw"].pop(0))
        elif what == "double_servant":
            _player(run)["double"] = "pool"
        elif what == "first_player_medal":  # the first player of the next morning
            s["medal"] = name
            run.events.append({"event": "medal", "player": name})
        elif what == "jade":
            c.gain_jade(s, name, n, run.events)
        else:
            super().gain(run, what, n)

    def pay(self, run: Run, what: str, n: int) -> None:
        if what != "servant":
            return super().pay(run, what, n)
        if run.player == _meng(run):  # Meng trades tokens for servants if that pays; else his rule is skipped
            from engine.gugong import solo
            n = max(0, n + self._meng_modified(_player(run), run.entity))
            if not solo.pay(self.g, run.state, n, run.events):
                raise solo.Short(run.entity)
            return
        if "decree" in run.choice:  # the Decrees action's costs add up to one payment, made as the servant is placed
            run.gained["due"] = run.gained.get("due", 0) + n
            return
        self._pay(run, n)

    def _pay(self, run: Run, n: int) -> None:
        # an action option's cost less what the player's decrees take off it (the option or its location)
        p, parent = _player(run), self.interpreter.rules.entities[run.entity]["parent"]
        n = max(0, n + self.modified(p, run.entity) + self.modified(p, parent))
        c.pay(self.g, run.state, run.player, n, bool(run.choice.get("double")), run.entity, run.events)

    def modified(self, p: dict, target: str) -> int:
        """What the lasting `modify` steps of the player's decrees add to `target` (a level 2 decree:
        one servant fewer for an action)."""
        return self._held(p).get(target, 0)

    def modifies(self, p: dict, target: str) -> bool:
        """Whether a decree the player holds changes `target` (the equal-value decree: which gifts exchange freely)."""
        return target in self._held(p)

    def triggered_at(self, p: dict, moment: str) -> bool:
        """Whether a decree the player holds has steps for `moment` (the Great Wall decree's extra servant)."""
        return (MOMENT, moment) in self._held(p)

    def decrees_at(self, moment: str) -> list[str]:
        """The decrees with steps for `moment` (the rule a player without one breaks)."""
        return [DECREE + key for key in self.g.consts.decrees
                if any(op == "trigger" and args["when"] == moment for op, args, _ in self.interpreter.compiled(DECREE + key))]

    def _held(self, p: dict) -> dict:
        """The player's decrees' modify steps (what they add, by target) and trigger moments, read once
        per set of decrees held (legal actions ask at every decision)."""
        held = tuple(p["decrees"])
        by_target = self._modify.get(held)
        if by_target is None:
            by_target = self._modify[held] = {}
            for key in held:
                for op, args, _ in self.interpreter.compiled(DECREE + key):
                    if op == "modify":
                        by_target[args["target"]] = by_target.get(args["target"], 0) + args.get("by", 0)
                    elif op == "trigger":
                        by_target[(MOMENT, args["when"])] = 0
        return by_target

    def scored_first(self, entity: str) -> bool:
        """Whether the entity's end-of-game count is scored before the player's other decrees of its level
        (the count that says so: VP_RATIO)."""
        return any(op == "per" and term(args["each"])[0] == VP_RATIO for op, args, _ in every_step(self.interpreter.compiled(entity)))

    def _meng_modified(self, p: dict, target: str) -> int:
        """What the modify steps of Meng's own decree rules (gugong/rule/solo-decree-*) add to `target`."""
        rules = self.g.solo.decree_rules
        return sum(args.get("by", 0) for key in p["decrees"] if key in rules
                   for op, args, _ in every_step(self.interpreter.compiled(rules[key]))
                   if op == "modify" and args["target"] == target)

    def move(self, run: Run, track: str, steps: int) -> None:
        if track == "intrigue":
            c.move_intrigue(self.g, run.state, run.player, steps, run.events)
        elif track == "palace":
            c.move_palace(self.g, run.state, run.player, steps, run.events)
        elif track == "day":  # the day marker (the morning's step 5)
            run.state["day"] += steps
        else:
            super().move(run, track, steps)

    def have(self, run: Run, what: str) -> int:
        if what == TOKEN:  # the tokens the player hands in (engine/gugong/locations.py checked them)
            return c.tokens_worth(self.g, run.choice["hand_in"])
        if what == "card":  # the one card the player names to give (exchange checks it is in the hand)
            return 1
        return super().have(run, what)

    def optional(self, run: Run) -> bool:
        if run.player == _meng(run) and run.entity.startswith(TOKENS):  # Meng pays a token's reward from his pool only
            return _player(run)["pool"] >= self.token_choice(run.entity)[1]
        return bool(run.choice.get("use", True))

    def _holds(self, run: Run, condition) -> bool:
        """A named condition (with its params) judged for the run."""
        name, params = term(condition)
        return self.conditions[name](run, **params)

    def choose(self, run: Run, options: tuple) -> int | None:
        """The Jade action's: a house (the first option) or the courtyard (the second); a port's: the
        option that gains what the player claimed. Meng takes the first option whose condition holds
        (his choices are his rule's: gugong/rule/solo-wall-scoring), or none."""
        if run.player == _meng(run):
            return next((i for i, option in enumerate(options)
                         if option[0][0] == "condition" and self._holds(run, option[0][1]["if"])), None)
        if "house" in run.choice:
            return int(run.choice["house"] == COURTYARD)
        if "pieces" in run.choice:  # the Great Wall's option B: one piece, or as many as it allows
            return min(len(run.choice["pieces"]), len(options)) - 1
        what = REWARD_GAINS.get(run.choice.get("reward"))
        for i, option in enumerate(options):
            if gains(option, what):
                return i
        raise IllegalAction(run.entity, N_("reward %(reward)r is not one of this port's"), reward=run.choice.get('reward'))

    def place(self, run: Run, what: str, count: int, where: str | None, params: dict[str, int]) -> None:
        a = run.choice
        if run.each == LOST:  # lost at sea: the ship beside its owner's board, its servants to their supply
            name, ship = run.shared["ships"][run.nth]
            c.ship_clear(self.g, run.state, name, ship)
            run.events.append({"event": "ship_lost", "player": name, "ship": ship})
            return
        if what == "servant" and where == MENG_SUPPLY and run.player == _meng(run):  # a rewarded ship's servants
            p = _player(run)
            p["supply"] += len(p["ships"][a["ship"]]["load"])
            own(p, "ships")[a["ship"]] = None
            return
        if what == "servant" and run.player == _meng(run) and (where in WALL_SUPPLY or where in MENG_SHIPS):
            from engine.gugong import solo
            source, fallback = MENG_FROM[self._source(run.entity, where)]
            if where in WALL_SUPPLY:
                solo.wall_servants(self.g, run.state, count, source, run.events, special=fallback)
            else:
                solo.ship_servants(self.g, run.state, count, source, run.events, a.get("phase"), fallback)
            return
        if what == "servant" and where in WALL_SUPPLY and "pieces" in a:  # a Great Wall option: from the pool
            for piece in a["pieces"][:count]:
                c.wall_place(self.g, run.state, run.player, piece, "pool", run.events)
            return
        if what == "servant" and where in WALL_SUPPLY:
            for _ in range(count):
                c.wall_place(self.g, run.state, run.player, a.get("piece", "n"), "supply", run.events)
            return
        if where in SETUP_SERVANTS and what == "servant":  # the setup: a player's servants from the box
            _player(run)[SETUP_SERVANTS[where]] += count
            return
        if what == "servant" and where in BONUS_SPOTS:  # a bonus token's servant goes with it (to the supply
            if "performed" not in a:  # at the end of the day): taken from the pool once, when it is placed
                _player(run)["pool"] -= count
            return
        if what == "jade" and where == MENG_FREE_JADE and run.player == _meng(run):
            from engine.gugong import solo
            solo.take_free_jade(self.g, run.state, a["house"], count, run.events)
            return
        if what == "card" and where == MENG_DISCARD and run.player == _meng(run):
            p = _player(run)  # his top playable card goes to his discard pile; without one his rule is skipped
            if len(p["hand"]) < count:
                from engine.gugong import solo
                raise solo.Short(run.entity)
            for _ in range(count):
                own(p, "discard").append(own(p, "hand").pop(0))
            return
        if what == "card" and where == MENG_PLAYABLE and run.player == _meng(run):
            p = _player(run)  # the take-back token: the top card of his discard pile, if any
            for _ in range(min(count, len(p["discard"]))):
                own(p, "hand").append(own(p, "discard").pop())
            return
        if what == "card" and where == OWN_DISCARD:  # the card the player named, from the hand to the discard pile
            p = _player(run)
            own(p, "hand").remove(run.choice["discard"])
            own(p, "discard").append(run.choice["discard"])
            return
        if what == "jade" and where == SETUP_JADE:  # the setup: jade on the houses' marked roof spaces
            run.state["jade_houses"] = [house["jade"] * count for house in self.g.consts.jade_houses]
            return
        if where in CLAIM_PLACES:  # a claimed reward: the ship's servants and the ship leave the canal
            self._claim_place(run, where, count)
            return
        if what == "servant" and where == ON_DECREE and run.player == _meng(run):  # his free decree
            from engine.gugong import solo
            if run.shared.get("decree"):
                solo.take_decree(self.g, run.state, run.shared["decree"], True, run.events)
            return
        if what == "servant" and where == ON_DECREE:
            self._pay(run, run.gained.pop("due", 0))
            L.place_on_decree(self.g, run.state, run.player, a["decree"], count)
            return
        if what == "servant" and where in CANAL_PLACES:
            self._decide(run, count, kind="canal_place", player=run.player, source="pool", optional=CANAL_PLACES[where])
            return
        if what != "servant" or where not in SHIPS:
            return super().place(run, what, count, where, params)
        for _ in range(count):
            c.ship_place(self.g, run.state, run.player, a.get("ship"), a.get("path"), a.get("piece", "n"), "supply",
                         run.events)

    def exchange(self, run: Run, give: dict[str, int], get: dict[str, int], times: int) -> None:
        """Travel tokens for what the exchange gives (the tokens go to the discard pile); a card of the
        hand for a gift card on the board (the player's card takes its place)."""
        if set(give) == {TOKEN}:
            for token in run.choice["hand_in"]:
                own(_player(run), "tokens").remove(token)
                run.state["token_discard"].append(token)
            for w, n in get.items():
                self.gain(run, w, n * times)
            return
        if set(give) != {"card"} or set(get) != {"card"}:
            return super().exchange(run, give, get, times)
        s, p, card, loc = run.state, _player(run), run.choice.get("card"), run.choice.get("location")
        if loc not in s["board"]:
            raise MalformedAction(N_("card exchange: card and location"))
        if card not in p["hand"]:
            raise IllegalAction(run.entity, N_("%(card)r is not in your hand"), card=card)
        own(p, "hand").remove(card)
        own(p, "hand").append(s["board"][loc])
        s["board"][loc] = card

    def mechanism(self, run: Run, rule_id: str) -> None:
        s, p, a = run.state, _player(run), run.choice
        if rule_id == DECREE_TAKEN:  # the decree's own effect: its immediate VP (its lasting bonus comes later)
            self.interpreter.run(DECREE + a["decree"], s, run.player, run.events)
        elif rule_id == CANAL_MOVE and run.each == MOVING:  # the night moves every ship on its own
            name, ship = run.shared["ships"][run.nth]
            for _ in range(run.shared["steps"]):
                c.ship_move(self.g, s, name, ship, run.events)
        elif rule_id == CANAL_MOVE:
            self._decide(run, 1, kind="canal_move", player=run.player)
        elif rule_id == TRAVEL_MOVE and run.player == _meng(run):  # Meng follows his route (solo.route_city)
            from engine.gugong import solo
            solo.travel(self.g, s, run.events, a["phase"])
        elif rule_id == TRAVEL_MOVE:
            self._decide(run, 1, kind="travel_move", player=run.player)
        elif rule_id == NEW_SERVANTS:
            from engine.gugong import morning
            morning.servants_for_day(self.g, s, run.events)
        elif rule_id == FOLLOW:  # the owner may perform the marked action too (a decision, after the others)
            c.push(s, {"kind": "follow", "player": run.player, "location": a["location"]}, last=True)
        elif rule_id == MENG_JADE:
            from engine.gugong import solo
            solo.buy_jade(self.g, s, a["house"], run.events)
        elif rule_id == MENG_DECREE:  # his choice of decree (solo.choose_decree), for the place step after it
            from engine.gugong import solo
            run.shared["decree"] = solo.choose_decree(self.g, s, True)
        elif rule_id == MENG_PORTS:
            kind = "gift_card" if run.shared["card reward"] else "vp4"
            s["solo"]["neutral_ports"][kind] += 1
            run.events.append({"event": "port_reward", "player": run.player, "reward": kind})
        elif rule_id in CLAIMS and run.each == CLAIMING:  # the owner's decision, offered in turn order
            name, ship = run.shared["ships"][run.nth]
            run.gained.setdefault("pending", []).append({"kind": "claim", "player": name, "ship": ship})
        elif rule_id in CLAIMS:  # the caller offers the claim once the step's decision is done
            run.gained["claim"] = a.get("ship")
        elif rule_id == WALL and run.moment == c.WALL_COMPLETED:  # the completion's steps, in its order
            c.wall_score(self.g, s, run.shared, run.events)
        elif rule_id == WALL:  # a servant placed: the caller checks the wall after the step
            run.gained["wall"] = True
        elif rule_id == INTRIGUE_REWARDS and run.moment == c.WALL_COMPLETED:
            c.wall_rewards(self.g, s, run.shared)
        elif rule_id == SWAP:
            L.swap_card(self.g, s, run.player, a, run.entity, run.events)
        elif rule_id == DIE:
            die, face = a.get("die"), a.get("face")
            if die not in range(len(s["dice"])) or face not in range(1, self.g.consts.die_faces + 1):
                raise IllegalAction(run.entity, N_("choose a die and the side to turn it to"))
            s["dice"][die] = face
        elif rule_id == RETRIEVE:  # a card of the discard pile back to the hand
            card = a.get("card")
            if card not in p["discard"]:
                raise IllegalAction(run.entity, N_("that card is not on your discard pile"))
            own(p, "discard").remove(card)
            own(p, "hand").append(card)

    def actor(self, run: Run, who: str) -> str:
        if who == MENG and _meng(run):  # the solo opponent's own rules (gugong/variant/solo)
            return _meng(run)
        return super().actor(run, who)

    def other(self, run: Run, op: str, args) -> None:
        if op == "take" and "performed" in run.choice:  # the tax: from the player who performed the action
            s, performer = run.state, run.choice["performed"]
            for what, n in args["things"].items():
                if what != "vp":
                    return super().other(run, op, args)
                taken = min(n, s["players"][performer]["vp"])
                c.gain_vp(s, performer, -taken, run.events)
                c.gain_vp(s, run.player, taken, run.events)
        elif op == "do_action" and run.player == _meng(run):  # Meng's action: its effect, run his way
            self.interpreter.run(args["action"], run.state, run.player, run.events, choice=run.choice)
        elif op == "do_action":  # a gift card repeats a location's action, with the player's choices
            L.DO[args["action"].rsplit("/", 1)[1]](self.g, run.state, run.player, run.choice, run.events)
        elif op != "modify":  # a lasting change the engine reads from the state (module docstring)
            super().other(run, op, args)

    # ---------------------------------------------------------------- helpers
    @staticmethod
    def _ships(run: Run) -> list[tuple[int, str, int]]:
        """(port, owner, ship) of every ship on the Grand Canal, players in seating order."""
        s = run.state
        return [(sh["port"], name, i) for name in s["order"] for i, sh in enumerate(s["players"][name]["ships"]) if sh]

    @staticmethod
    def _night_ships(run: Run, ships: list[tuple[str, int]], **more) -> int:
        run.shared["ships"] = ships
        run.shared.update(more)
        return len(ships)

    def _claiming(self, run: Run) -> int:
        """Full ships that may claim their port's reward, their owners in turn order from the first
        player (Meng's ships earn their rewards by his own rule: engine/gugong/solo.py)."""
        s, meng = run.state, _meng(run)
        return self._night_ships(run, [(name, i) for name in c.order_from(s, s["first"]) if name != meng
                                       for i in range(len(s["players"][name]["ships"])) if c.claimable(self.g, s, name, i)])

    @staticmethod
    def _decide(run: Run, n: int, **item) -> None:
        """Decisions the step raises, in the effect's order (the caller puts them first in line)."""
        run.gained.setdefault("pending", []).extend(dict(item) for _ in range(n))

    def _discard_high_card(self, run: Run, value: int) -> bool:
        p, card = _player(run), run.choice.get("card")
        if card not in p["hand"] or self.g.consts.card_value[card] < value:
            raise IllegalAction(run.entity, N_("discard a gift card of high enough value from your hand"))
        own(p, "hand").remove(card)
        own(p, "discard").append(card)
        return True

    @staticmethod
    def _claim_place(run: Run, where: str, count: int) -> None:
        p, ship = _player(run), run.choice["ship"]
        if where == CLAIM_PLACES[0]:  # servants of the ship mark the reward on the player board
            for _ in range(count):
                own(own(p, "ships"), ship)["load"].remove(1)
            own(p, "ports")[run.choice["reward"]] += count
        elif where == CLAIM_PLACES[1]:  # the ship beside the board; what it still carries is unloaded
            run.gained["unloaded"] = p["ships"][ship]["load"]
            own(p, "ships")[ship] = None
        else:  # the unloaded servants (the double servant too) to the general supply
            for size in run.gained.pop("unloaded", []):
                if size == 1:
                    p["supply"] += 1
                else:
                    p["double"] = "supply"

    def token_choice(self, entity: str) -> tuple[str | None, int]:
        """What a travel token's reward (or a gift card ability) asks the player to choose
        (engine/gugong/common.py, V_*), and the servants a payment in it takes: read from its effect
        once, not from a list of keys."""
        if entity not in self._choices:
            steps = [(op, args) for op, args, _ in every_step(self.interpreter.compiled(entity))]
            ops = {op for op, _ in steps}
            mechanisms = {args["id"] for op, args in steps if op == "rule"}
            places = {args.get("where") for op, args in steps if op == "place"}
            pays = [args["servant"] for op, args in steps if op == "pay" and "servant" in args]
            if ops <= PLAIN:
                choice = c.V_NOTHING
            elif "modify" in ops:
                choice = c.V_LASTING
            elif any(op == "condition" and term(args["if"])[0] == HIGH_CARD for op, args in steps):
                choice = c.V_HIGH_CARD
            elif SWAP in mechanisms:
                choice = c.V_SWAP
            elif RETRIEVE in mechanisms:
                choice = c.V_RETRIEVE
            elif places & SHIPS:
                choice = c.V_SHIP
            elif places & WALL_SUPPLY:
                choice = c.V_WALL
            else:
                choice = c.V_PAY if pays else None
            self._choices[entity] = (choice, pays[0] if pays else 0)
        return self._choices[entity]

    def _source(self, entity: str, where: str) -> str:
        """Where the servants a place step of the entity puts `where` come from (its `from`), read once."""
        key = (entity, where)
        if key not in self._sources:
            def find(steps):
                for op, args, inner in steps:
                    if op == "place" and args.get("where") == where:
                        return args.get("from")
                    found = next((f for i in inner if (f := find(i)) is not None), None)
                    if found is not None:
                        return found
                return None
            self._sources[key] = find(self.interpreter.compiled(entity))
        return self._sources[key]

    @staticmethod
    def _meng_card_reward(run: Run, rewards: int) -> bool:
        """Judged once, before the reward: a hard game's fifth card marks one reward taken; with an empty
        draw pile he takes the VP (engine assumption: there is no card to take)."""
        if "card reward" not in run.shared:
            taken = run.state["solo"]["neutral_ports"]["gift_card"]
            run.shared["card reward"] = taken < rewards and bool(run.state["draw"])
        return run.shared["card reward"]

    def _meng_affords_jade(self, run: Run) -> bool:
        from engine.gugong import solo
        return solo.afford(self.g, run.state, L.jade_cost(self.g, run.state, _player(run), run.choice["house"]))

    def _meng_affords(self, run: Run, servants: int) -> bool:
        from engine.gugong import solo
        return solo.afford(self.g, run.state, servants)

    def _ship_full(self, run: Run) -> bool:
        if run.player == _meng(run):  # his full ship earned its reward as the servant went on (solo-ports)
            return False
        sh = _player(run)["ships"][run.choice.get("ship")]
        return bool(sh) and c.ship_load(sh) >= self.g.consts.ship_capacity

    def _matching(self, run: Run, dice: int) -> int:
        """Cards matching one die, or two. A card matching all three dice the rulebook does not
        mention: it earns one servant per die (engine reading), so it counts among the single matches
        as three."""
        s = run.state
        if s.get("solo") and run.player == s["solo"]["meng"]:
            return self.g.solo.matches[s["day"]] if dice == 1 else 0
        value, pair = self.g.consts.card_value, 2  # the rule's "two destiny dice"
        shown = [s["dice"].count(value[x]) for x in _player(run)["discard"]]
        return shown.count(pair) if dice == pair else sum(m for m in shown if m != pair)

    def _port_servants(self, run: Run) -> int:
        """Meng (solo) counts his neutral markers instead, at most a few at the 4 VP reward."""
        s = run.state
        if s.get("solo") and run.player == s["solo"]["meng"]:
            neutral = s["solo"]["neutral_ports"]
            return neutral["gift_card"] + min(neutral["vp4"], self.g.solo.port_marker_cap)
        return sum(_player(run)["ports"].values())

    def _buy_from_house(self, run: Run) -> bool:
        s, house = run.state, run.choice.get("house")
        c.pay(self.g, s, run.player, L.jade_cost(self.g, s, _player(run), house), bool(run.choice.get("double")),
              run.entity, run.events)
        s["jade_houses"][house] -= 1
        return True

    def _in_palace_before(self, run: Run) -> bool:
        """Whether the envoy was in the palace when the run began (read at its first condition)."""
        key = ("in palace", run.player)
        if key not in run.shared:
            run.shared[key] = _player(run)["palace"] >= self.g.consts.palace_end
        return run.shared[key]

    @staticmethod
    def _most_matches(run: Run) -> bool:
        if "most" not in run.shared:
            matches = run.shared["matches"]
            run.shared["most"] = c.best(run.state, run.state["order"], lambda n: matches[n])
        return run.shared["most"] == run.player

    def _wall_leader(self, run: Run) -> str | None:
        """Taken once per scoring, before anyone scores."""
        if "wall" not in run.shared:
            s = run.state
            present = [n for n in s["order"] if c.wall_count(s, n) > 0]
            run.shared["wall"] = c.best(s, present, lambda n: c.wall_count(s, n))
        return run.shared["wall"]
