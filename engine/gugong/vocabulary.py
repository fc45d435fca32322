"""What Gugong's effects act on (engine/core/effects.py): servants, VP, gift cards, the double
servant, the intrigue and palace tracks, ships and the Great Wall, and the counts and conditions its
effects name, keyed by the text the effect says. The numbers come from the effect (references resolved
by the interpreter), so this module holds no rule constant.

What runs from effects: a decree when it is taken (its immediate VP), its morning bonus and its end
of game points, a port's reward, the final Great Wall scoring. A `modify` step (a level 2 decree's
discount, the extra card a port-3 reward lets you play) is a lasting change the engine reads from the
state (the decree held, the spot taken on the player board): running it changes nothing more.
"""
from __future__ import annotations

from engine.core.effects import Run, Vocabulary, gains
from engine.core.errors import IllegalAction, MalformedAction
from engine.core.state import own
from engine.gugong import common as c
from engine.gugong import locations as L
from engine.gugong.common import P
from kb.messages import N_

# mechanisms the effects name: a full ship may take its port's reward (a decision the caller
# offers), a complete wall section is scored (the caller checks the wall after the step), cards move
CLAIMS = frozenset({"gugong/rule/canal-claim-reward", "gugong/location/grand-canal"})
WALL = "gugong/rule/wall-scoring"
SWAP = "gugong/card-ability/swap-card"
RETRIEVE = "gugong/token/travel-retrieve-card"
TRAVEL_MOVE = "gugong/rule/travel-move"  # one move of the traveller: a decision of where to
DECREE = "gugong/decree/"
DIE = "gugong/reward/intrigue-destiny-die"
COURTYARD = "courtyard"  # the Jade action's choice of the courtyard rather than a house  # a destiny die turned to the side the player chose
# where a servant goes on the Wall: from the general supply (a travel token, the Great Wall decree),
# or the pieces a Great Wall option names from the pool
WALL_SUPPLY = frozenset({"Great Wall", "the Great Wall (if this completes a wall section, score it as usual)"})
# a Grand Canal option's servants from the pool onto ships, each a decision: whether the player may
# leave it (option A's one servant) or must place it (option B's two)
CANAL_PLACES = {"one of your ships": True, "one or two of your ships": False}
ON_DECREE = "the chosen decree"
DECREE_TAKEN = "gugong/rule/decree-immediate-vp"
CANAL_MOVE = "gugong/rule/canal-moving-ships"  # one ship moved: a decision of which
SHIPS = frozenset({"one of your ships (or a new ship, by the normal rules)",
                   "one of your ships on the Grand Canal, or a new ship placed by the normal rules"})
# what a port reward the player claims gains (the option of a port's choice that gains it)
REWARD_GAINS = {"vp4": "vp", "gift_card": "card", "double_servant": "double_servant"}


def _player(run: Run) -> dict:
    return run.state["players"][run.player]


class GugongVocabulary(Vocabulary):
    """One per engine (`g`: its constants `g.k` and solo constants `g.solo`)."""

    def __init__(self, g):
        self.g = g
        self._modify: dict[tuple, dict] = {}  # decrees held -> what their modify steps add, by target
        self.counts = {
            "{attr.vp_gained_per_end_vp} VP you gained during the game (scored before your other level {attr.level} decrees)":
                lambda run: _player(run)["vp"] // run.attrs["vp_gained_per_end_vp"],
            "jade you own (max {attr.max_end_vp} VP = 5 jade)": lambda run: _player(run)["jade"],
            "of your servants on decrees, including the one on this decree": lambda run: len(_player(run)["decrees"]),
            "of your servants at port-reward spots on your player board": self._port_servants,
            "palace step you would move": lambda run: run.choice["steps"],
            "servant the chosen decree shows as its cost (see “Decree costs in servants”)":
                lambda run: g.k.decrees[run.choice["decree"]]["servant_cost"],
            "servant of another player already on the chosen decree":
                lambda run: sum(1 for who in run.state["decrees"][run.choice["decree"]] if who != run.player),
        }
        self.conditions = {
            # the player's act: the card they chose goes to their discard pile
            "you discard a gift card of value {attr.min_card_value} or higher from your hand to your discard pile":
                self._discard_high_card,
            # the player's act: the house's printed cost (less a decree's discount) paid, one jade taken from it
            "the chosen jade house still holds jade and you pay the servant cost printed on that house (not given in the rulebook)":
                self._buy_from_house,
            "every jade house is sold out (see “Jade from the courtyard”)": lambda run: not any(run.state["jade_houses"]),
            "you are the first player to choose this option this day (round)": lambda run: run.state["medal"] is None,
            "the next first player medal is available": lambda run: run.state["medal"] is None,
            "Meng's envoy has not entered the palace": lambda run: not self._in_palace_before(run),
            "Meng's envoy has already entered the palace": self._in_palace_before,
            "the wall section is now complete (see “Completing a wall section”)":
                lambda run: c.wall_total(run.state) >= g.k.threshold(len(run.state["order"])),
            # "instead": both conditions judge where the envoy stood before the bonus moved it
            "your envoy has not entered the palace": lambda run: not self._in_palace_before(run),
            "your envoy has already entered the palace": self._in_palace_before,
            "your envoy has already entered the palace and an action would move it up the palace track":
                lambda run: _player(run)["palace"] >= g.k.palace_end,
            "this is the third servant on that ship": self._ship_full,
            # the morning rolls the dice before the decree bonuses (engine/gugong/morning.py)
            "the destiny dice have already been rolled": lambda run: run.moment == "morning",
            "servants remain on the Great Wall (scored as usual, without intrigue rewards) and you have the most "
            "servants there (ties: intrigue track)":
                lambda run: self._wall_leader(run) == run.player,
            "you have the most servants on the Great Wall (ties broken by the intrigue track)":
                lambda run: self._wall_leader(run) == run.player,
            # the matches the night counted (Meng's are fixed by the day: engine/gugong/night.py)
            "you gained the most servants from matching cards (a card matching two dice counts twice; ties: higher on the intrigue track)":
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
        elif what == "card":  # drawn from the draw pile while it lasts
            p = _player(run)
            for _ in range(n):
                if s["draw"]:
                    own(p, "hand").append(s["draw"].pop(0))
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
        one servant fewer for an action); read once per set of decrees held (legal actions ask often)."""
        held = tuple(p["decrees"])
        by_target = self._modify.get(held)
        if by_target is None:
            by_target = self._modify[held] = {}
            for key in held:
                for op, args, _ in self.interpreter.compiled(DECREE + key):
                    if op == "modify":
                        by_target[args["target"]] = by_target.get(args["target"], 0) + args.get("by", 0)
        return by_target.get(target, 0)

    def move(self, run: Run, track: str, steps: int) -> None:
        if track == "intrigue":
            c.move_intrigue(self.g, run.state, run.player, steps, run.events)
        elif track == "palace":
            c.move_palace(self.g, run.state, run.player, steps, run.events)
        else:
            super().move(run, track, steps)

    def have(self, run: Run, what: str) -> int:
        if what == "card":  # the one card the player names to give (exchange checks it is in the hand)
            return 1
        return super().have(run, what)

    def optional(self, run: Run) -> bool:
        return bool(run.choice.get("use", True))

    def choose(self, run: Run, options: tuple) -> int | None:
        """The Jade action's: a house (the first option) or the courtyard (the second); a port's: the
        option that gains what the player claimed."""
        if "house" in run.choice:
            return int(run.choice["house"] == COURTYARD)
        if "pieces" in run.choice:  # the Great Wall's option B: one piece, or as many as it allows
            return min(len(run.choice["pieces"]), len(options)) - 1
        what = REWARD_GAINS.get(run.choice.get("reward"))
        for i, option in enumerate(options):
            if gains(option, what):
                return i
        raise IllegalAction(run.entity, N_("reward %(reward)r is not one of this port's"), reward=run.choice.get('reward'))

    def place(self, run: Run, what: str, count: int, where: str | None) -> None:
        a = run.choice
        if what == "servant" and where in WALL_SUPPLY and "pieces" in a:  # a Great Wall option: from the pool
            for piece in a["pieces"][:count]:
                c.wall_place(self.g, run.state, run.player, piece, "pool", run.events)
            return
        if what == "servant" and where in WALL_SUPPLY:
            for _ in range(count):
                c.wall_place(self.g, run.state, run.player, a.get("piece", "n"), "supply", run.events)
            return
        if what == "servant" and where == ON_DECREE:
            self._pay(run, run.gained.pop("due", 0))
            L.place_on_decree(self.g, run.state, run.player, a["decree"], count)
            return
        if what == "servant" and where in CANAL_PLACES:
            self._decide(run, count, kind="canal_place", player=run.player, source="pool", optional=CANAL_PLACES[where])
            return
        if what != "servant" or where not in SHIPS:
            return super().place(run, what, count, where)
        for _ in range(count):
            c.ship_place(self.g, run.state, run.player, a.get("ship"), a.get("path"), a.get("piece", "n"), "supply",
                         run.events)

    def exchange(self, run: Run, give: dict[str, int], get: dict[str, int], times: int) -> None:
        """A card of the hand for a gift card on the board: the player's card takes its place."""
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
        elif rule_id == CANAL_MOVE:
            self._decide(run, 1, kind="canal_move", player=run.player)
        elif rule_id == TRAVEL_MOVE:
            self._decide(run, 1, kind="travel_move", player=run.player)
        elif rule_id in CLAIMS:  # the caller offers the claim once the step's decision is done
            run.gained["claim"] = a.get("ship")
        elif rule_id == WALL:
            run.gained["wall"] = True
        elif rule_id == SWAP:
            L.swap_card(self.g, s, run.player, a, run.entity, run.events)
        elif rule_id == DIE:
            die, face = a.get("die"), a.get("face")
            if die not in range(len(s["dice"])) or face not in range(1, self.g.k.die_faces + 1):
                raise IllegalAction(run.entity, N_("choose a die and the side to turn it to"))
            s["dice"][die] = face
        elif rule_id == RETRIEVE:  # a card of the discard pile back to the hand
            card = a.get("card")
            if card not in p["discard"]:
                raise IllegalAction(run.entity, N_("that card is not on your discard pile"))
            own(p, "discard").remove(card)
            own(p, "hand").append(card)

    def other(self, run: Run, op: str, args) -> None:
        if op == "do_action":  # a gift card repeats a location's action, with the player's choices
            L.DO[args["action"].rsplit("/", 1)[1]](self.g, run.state, run.player, run.choice, run.events)
        elif op != "modify":  # a lasting change the engine reads from the state (module docstring)
            super().other(run, op, args)

    # ---------------------------------------------------------------- helpers
    @staticmethod
    def _decide(run: Run, n: int, **item) -> None:
        """Decisions the step raises, in the effect's order (the caller puts them first in line)."""
        run.gained.setdefault("pending", []).extend(dict(item) for _ in range(n))

    def _discard_high_card(self, run: Run) -> bool:
        p, card = _player(run), run.choice.get("card")
        if card not in p["hand"] or self.g.k.card_value[card] < run.attrs["min_card_value"]:
            raise IllegalAction(run.entity, N_("discard a gift card of high enough value from your hand"))
        own(p, "hand").remove(card)
        own(p, "discard").append(card)
        return True

    def _ship_full(self, run: Run) -> bool:
        sh = _player(run)["ships"][run.choice.get("ship")]
        return bool(sh) and c.ship_load(sh) >= self.g.k.ship_capacity

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
            run.shared[key] = _player(run)["palace"] >= self.g.k.palace_end
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
