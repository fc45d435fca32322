"""What In the Year of the Dragon's effects act on (engine/core/effects.py): its resources and tracks,
and the counts and conditions its effects name, by the names game.yaml declares. The numbers come
from the effect (its references resolved by the interpreter), so this module holds no rule constant;
which person type an action card counts is the card's `person_type` attribute.

A forced run (an event, decay, a scoring) takes what the player has and counts the shortfall; a
person lost is a release the player decides (state["pending"], person-track order); an action's
payment the player cannot make is refused.
"""
from __future__ import annotations

import math

from engine.core.effects import Run, Vocabulary, applies, every_step, gains
from engine.core.errors import EngineError, IllegalAction
from engine.core.state import own
from engine.dragon import common as c
from engine.dragon.events import edict_value
from kb.messages import N_

COUNTERS = ("yuan", "rice", "fireworks")  # a player's counters that come from and go to the bank
ROUND = {"up": math.ceil, "down": math.floor}  # a rounding the data names
PRIVILEGE = "privilege_"  # privilege_small / privilege_large: a privilege tile of that size
MARKER = "dragon/rule/person-marker"  # the mechanism that moves a new person's marker
EDICT = "dragon/event/ge-edict"
WALL_SPACE = "first-free-wall-space"
DISCARD_SPACE = "discard-space"  # where the person phase's card goes
OWN_PALACE = "own-palace"  # where a new person tile goes (c.place_person: room, or a release)
PERSON_PHASE = "dragon/phase/person"  # a person taken "as in the person phase" (the Sunrise)
PASS = "dragon/rule/pass-for-money"  # the refill action: a pass instead of an action
DECAY = "dragon/rule/decay"
SETUP_PALACES = "dragon/setup-step/palaces-and-money"  # the floors its gain step took, built as it says
# the kind of person each of the edict's counts counts (the option a player's chosen kind takes)
TILE = "dragon/tile/"  # a wall tile's entity: the Great Wall action's option for it applies it
# the Great Wall action's options, one per bonus, each under the condition that its tile is unused
WALL_TILE_UNUSED = ("rice-wall-tile-unused", "fireworks-wall-tile-unused", "palace-floor-wall-tile-unused",
                    "yuan-wall-tile-unused", "person-track-wall-tile-unused", "points-wall-tile-unused")
EDICT_KINDS = {"edict-rice-sacks-of-farmers": "farmer",
               "edict-buddhas-times-floors": "monk",
               "edict-books-of-scholars": "scholar"}


def _player(run: Run) -> dict:
    return run.state["players"][run.player]


class DragonVocabulary(Vocabulary):
    """One per engine: `consts(state)` gives the edition's constants the counts need (person tiles'
    symbols and values, the palace capacity), `decisions` names the pending decision a deferred choice
    of an entity raises."""

    targets = frozenset({"uninhabited-palace"})  # each such palace loses its floors

    def __init__(self, consts, decisions: dict[str, str]):
        self.consts, self.decisions = consts, decisions
        symbols = self._symbols_of_card
        self.counts = {
            # action cards: the card's own person type (attribute person_type)
            "coins-of-tax-collectors": symbols,
            "hammers-of-craftsmen": symbols,
            "rice-sacks-of-farmers": symbols,
            "rockets-of-pyrotechnists": symbols,
            "helmets-of-warriors": symbols,
            "books-of-scholars": symbols,
            # events
            "unpaid-tribute-yuan":
                lambda run: run.short.get("yuan", 0),
            "supplied-palace": self._supplied,
            "unsupplied-palace":
                lambda run: len(self._inhabited(run)) - run.counted["supplied-palace"],
            "fireworks-to-return":
                lambda run: ROUND[run.attrs["discard_rounding"]](self._fireworks(run)[run.player] * run.attrs["discard_fraction"]),
            "helmets-of-all-warriors": lambda run: self._helmets(run)[run.player],
            "person-to-release":
                lambda run, released: released - self._symbols(run, "healer") * run.attrs["reduction_per_mortar"],
            # great events
            "person-in-palaces": lambda run: len(c.persons(_player(run))),
            "buddhas-times-floors":
                self._monk_points,
            "goods-divided":
                lambda run, divisor: sum(_player(run)[w] for w in COUNTERS) // divisor,
            "own-wall-tile": lambda run: run.state["wall"].count(run.player),
            "privilege-tile": lambda run: sum(_player(run)["privileges"].values()),
            # the edict's options (the engine's edict reads its benefits from the unknowns register)
            "edict-rice-sacks-of-farmers": lambda run: self._symbols(run, "farmer"),
            "edict-buddhas-times-floors":
                self._monk_points,
            "edict-books-of-scholars": lambda run: self._symbols(run, "scholar"),
            # rules and scorings
            "uninhabited-palace": lambda run: sum(1 for pal in _player(run)["palaces"] if not pal["persons"]),
            "yuan-short-of": lambda run, yuan: yuan - _player(run)["yuan"],
            "new-person-value": lambda run: self.consts(run.state).subtypes[run.choice["person"]]["value"],
            "palace": lambda run: len(_player(run)["palaces"]),
            "dragons-of-court-ladies": lambda run: self._symbols(run, "court-lady"),
            "dragons-on-privileges":
                lambda run: sum(n * self.consts(run.state).dragons[z] for z, n in _player(run)["privileges"].items()),
            "monk-buddhas-times-floors":
                self._monk_points,
        }
        self.conditions = {
            "edition-2007": lambda run: run.state["options"]["edition"] == "2007",
            "edition-2017": lambda run: run.state["options"]["edition"] == "2017",
            "most-fireworks": lambda run: self._festival_rank(run) == 0,
            "second-most-fireworks": lambda run: self._festival_rank(run) == 1,
            "scored-in-festival": lambda run: bool(run.held),
            "fewest-helmets":
                lambda run: self._helmets(run)[run.player] == min(self._helmets(run).values()),
            # the Great Wall scorings: the flow runs the Mongol one only after a Mongol Invasion
            "after-mongol-invasion":
                lambda run: run.moment == "event_phase",
            # dragon/unknown/gw-wall-reach: the wall reaches the tile of the round when it is that long
            "wall-reaches-invasion": lambda run: self._reach(run),
            "wall-short-of-invasion-and-fewest-tiles":
                lambda run: not self._reach(run) and self._fewest_wall(run),
            "wall-complete":
                lambda run, tiles: len(run.state["wall"]) >= tiles,
            "wall-incomplete-and-fewest-tiles":
                lambda run, tiles: len(run.state["wall"]) < tiles and self._fewest_wall(run),
            # the Sunrise decision is offered only with such a tile (engine/dragon/game.py, _sunrise_tiles)
            "sunrise-courtier-available":
                lambda run: run.choice.get("person") is not None,
            "edict-other-kind-chosen":
                lambda run: run.choice["kind"] not in EDICT_KINDS.values(),
            # the person phase: the tile went into a palace (one released at once moves no marker)
            "new-person-kept": lambda run: bool(run.gained.get("placed")),
            "group-has-dragon":
                lambda run: bool(run.state["dragons"][run.choice["group"]]),
            **{name: self._wall_tile_unused(name) for name in WALL_TILE_UNUSED},
        }
        self._tiles: dict[tuple[str, str], str] = {}  # (action, condition) -> the wall tile its option applies

    # ---------------------------------------------------------------- amounts
    def gain(self, run: Run, what: str, n: int) -> None:
        if what == "palace_floor":  # built by the caller, as the player distributes them
            run.gained[what] = run.gained.get(what, 0) + n
        elif run.dry:
            return
        elif what in COUNTERS:
            c.gain(run.state, run.player, what, n, run.events)
        elif what == "vp":
            c.vp(run.state, run.player, n, run.entity, run.events)
        elif what == "person":  # the tile the player's card takes, into the palace they name
            self._take_person(run)
        elif what.startswith(PRIVILEGE):
            size = what.removeprefix(PRIVILEGE)
            own(_player(run), "privileges")[size] += n
            run.state["bank"][size] -= n
            run.events.append({"event": "privilege", "player": run.player, "size": size})
        else:
            super().gain(run, what, n)

    def pay(self, run: Run, what: str, n: int) -> None:
        if what not in COUNTERS:
            return super().pay(run, what, n)
        have = _player(run)[what]
        if run.forced and have < n:
            run.short[what] = run.short.get(what, 0) + n - have
            n = have
        c.pay(run.state, run.player, what, n, run.entity, run.events)

    def lose(self, run: Run, what: str, n: int) -> None:
        p = _player(run)
        if what == "person":
            palaces = self._inhabited(run) if run.each == "unsupplied-palace" else None
            self._pending(run, "release", n, palaces)
        elif what in COUNTERS:
            self.pay(run, what, n)
        elif what == "palace_floor" and run.each == "uninhabited-palace":
            self._decay(run, n)
        elif what == "palace_floor":
            self._pending(run, "floor", n)
        elif what == "person_card":
            self._pending(run, "discard_card", n)
        elif what == "privilege":  # any privilege tiles, smaller first (the effect counts tiles, not sizes)
            for size, held in p["privileges"].items():
                lost = min(held, n)
                if lost:
                    own(p, "privileges")[size] -= lost
                    run.state["bank"][size] += lost
                    run.events.append({"event": "privileges_lost", "player": run.player, "size": size, "count": lost})
                    n -= lost
        else:
            super().lose(run, what, n)

    def move(self, run: Run, track: str, steps: int) -> None:
        if run.dry:
            return
        if track == "vp":
            c.vp(run.state, run.player, steps, run.entity, run.events)
        elif track == "person":
            c.move_marker(run.state, run.player, steps, run.events)
        else:
            super().move(run, track, steps)

    def have(self, run: Run, what: str) -> int:
        return _player(run)[what] if what in COUNTERS else super().have(run, what)

    def mechanism(self, run: Run, rule_id: str) -> None:
        if rule_id == run.entity == EDICT:  # a kind whose benefit the rulebook does not state
            self._edict_benefit(run)
        elif rule_id == run.entity == SETUP_PALACES:  # the setup's floors built into its palaces
            self._starting_palaces(run)
        elif rule_id == run.entity == DECAY:  # the palaces the decay left without floors are gone
            p = _player(run)
            if any(pal["floors"] <= 0 for pal in p["palaces"]):
                p["palaces"] = [pal for pal in own(p, "palaces") if pal["floors"] > 0]
        elif rule_id == run.entity and rule_id in (MARKER, PERSON_PHASE, PASS):  # the flow's and c.move_marker's:
            return  # the queue in person-track order; a pass places no dragon; a marker on top (every move stamps)
        elif rule_id in (MARKER, PERSON_PHASE) and run.gained.get("placed"):  # the new person moves the marker
            self.interpreter.run(MARKER, run.state, run.player, run.events, choice={"person": run.gained["placed"]})

    def optional(self, run: Run) -> bool:
        """The flow runs an effect with an optional step only when the player chose it (passing for money
        is the refill action)."""
        return True

    def place(self, run: Run, what: str, count: int, where: str | None, params: dict[str, int]) -> None:
        # a piece's destination is keyed by what is placed and where (ARCHITECTURE.md "Effects"; the card played
        # to the discard space and the matching tile into a palace in the person phase; the used wall tile)
        if (what, where) == ("person_card", DISCARD_SPACE):
            for _ in range(count):
                card = run.choice["card"]
                own(_player(run), "hand").remove(card)
                run.events.append({"event": "card", "player": run.player, "card": card})
            return
        if (what, where) == ("person", OWN_PALACE):
            for _ in range(count):
                self._take_person(run)
            return
        if what != "wall_tile" or where != WALL_SPACE:
            return super().place(run, what, count, where, params)
        p, tile = _player(run), run.choice["tile"]
        for _ in range(count):  # the used tile goes into the wall, the next space from the left
            own(p, "wall").remove(tile)
            run.state["wall"].append(run.player)

    def _starting_palaces(self, run: Run) -> None:
        """The floors the step gained, from the bank, built into its palaces of equal height (its attributes)."""
        floors = run.gained.pop("palace_floor", 0)
        palaces, height = run.attrs["palaces"], run.attrs["floors_per_palace"]
        if floors != palaces * height:
            raise EngineError(f"{run.entity}: {floors} floors do not build {palaces} palaces of {height}")
        run.state["bank"]["floors"] -= floors
        own(_player(run), "palaces").extend({"floors": height, "persons": []} for _ in range(palaces))

    def _edict_benefit(self, run: Run) -> None:
        """dragon/unknown/ge-edict-benefits: 1 of what the kind's action gives per symbol."""
        what, n = edict_value(self.consts(run.state), _player(run), run.choice["kind"])
        if what == "palace_floors":
            self.gain(run, "palace_floor", n)
        elif what == "person_track":
            self.move(run, "person", n)
        elif what in COUNTERS or what == "vp":
            self.gain(run, what, n)

    def _take_person(self, run: Run) -> None:
        x, s = run.choice.get("person"), run.state
        if x is None:  # no tile left for the card: it is played without a person
            return
        s["supply"][x] -= 1
        run.events.append({"event": "person", "player": run.player, "person": x})
        if c.place_person(self.consts(s), s, run.player, x, run.choice.get("palace"), run.choice.get("slot"), run.entity, run.events):
            run.gained["placed"] = x

    def exchange(self, run: Run, give: dict[str, int], get: dict[str, int], times: int) -> None:
        """Goods sold for yuan leave the player; yuan counted for points stay (the rulebook's final
        scoring example counts the money after selling and converts it, the coins are not paid)."""
        if set(get) == {"vp"}:
            self.gain(run, "vp", get["vp"] * times)
            return
        super().exchange(run, give, get, times)
        run.gained["sold"] = run.gained.get("sold", 0) + get.get("yuan", 0) * times

    def choose(self, run: Run, options: tuple) -> int | None:
        if run.entity in self.decisions:  # the player decides each one later (a pending decision)
            self._pending(run, self.decisions[run.entity], 1)
            return None
        if "kind" in run.choice:  # the edict: the option that counts the chosen kind, else the other kinds'
            counted = [next((EDICT_KINDS.get(args.get("each")) for op, args, _ in option if op == "per"), None)
                       for option in options]
            return counted.index(run.choice["kind"]) if run.choice["kind"] in counted else counted.index(None)
        if "tile" in run.choice:  # the Great Wall: the option that applies the chosen wall tile
            for i, option in enumerate(options):
                if applies(option, TILE + str(run.choice["tile"])):
                    return i
            raise IllegalAction(run.entity, N_("no option of this action gives the wall tile %(tile)r"), tile=run.choice["tile"])
        size = run.choice.get("size")
        for i, option in enumerate(options):
            if gains(option, PRIVILEGE + str(size)):
                return i
        raise IllegalAction(run.entity, N_("size: small or large"))

    # ---------------------------------------------------------------- helpers
    def _wall_tile_unused(self, name: str):
        """The player still has the wall tile that the option under this condition applies (the tile
        read from the action's effect, so the condition's name is all the engine knows of it)."""
        def holds(run: Run) -> bool:
            key = (run.entity, name)
            if key not in self._tiles:
                self._tiles[key] = next(
                    inner[0][0][1]["id"].removeprefix(TILE) for op, args, inner in every_step(self.interpreter.compiled(run.entity))
                    if op == "condition" and args["if"] == name and inner[0] and inner[0][0][0] == "apply")
            return self._tiles[key] in _player(run)["wall"]
        return holds

    def _pending(self, run: Run, kind: str, n: int, palaces=None) -> None:
        if n <= 0:
            return
        pending = run.state["pending"]
        last = pending[-1] if pending else None
        if last and last["kind"] == kind and last["player"] == run.player and last.get("rule") == run.entity:
            last["count"] += n
            return
        item = {"kind": kind, "player": run.player, "count": n, "rule": run.entity}
        if palaces is not None:
            item["palaces"] = list(palaces)
        pending.append(item)

    def _decay(self, run: Run, n: int) -> None:
        """One uninhabited palace loses its floors (the `per` runs once for each, in palace order)."""
        p = _player(run)
        done = run.gained.setdefault("decayed", 0)
        empty = [i for i, pal in enumerate(p["palaces"]) if not pal["persons"]]
        pal = own(p, "palaces")[empty[done]]
        lost = min(n, pal["floors"])
        pal["floors"] -= lost
        run.state["bank"]["floors"] += lost
        run.gained["decayed"] = done + 1
        run.events.append({"event": "decay", "player": run.player, "floors": lost})

    def _inhabited(self, run: Run) -> list[int]:
        return [i for i, pal in enumerate(_player(run)["palaces"]) if pal["persons"]]

    def _supplied(self, run: Run) -> int:
        """As many inhabited palaces as the player's rice supplies (the engine supplies all it can)."""
        return min(len(self._inhabited(run)), self.affordable(run))

    def _symbols(self, run: Run, person_type: str) -> int:
        return self.consts(run.state).symbols(_player(run), person_type)

    def _symbols_of_card(self, run: Run) -> int:
        return self._symbols(run, run.attrs["person_type"])

    def _monk_points(self, run: Run) -> int:
        sub = self.consts(run.state).subtypes
        return sum(sub[x]["symbols"] * pal["floors"] for pal in _player(run)["palaces"] for x in pal["persons"]
                   if sub[x]["type"] == "monk")

    # rankings are taken once per resolution, before anyone pays or releases
    def _fireworks(self, run: Run) -> dict[str, int]:
        if "fireworks" not in run.shared:
            run.shared["fireworks"] = {n: p["fireworks"] for n, p in run.state["players"].items()}
        return run.shared["fireworks"]

    def _festival_rank(self, run: Run) -> int | None:
        held = self._fireworks(run)
        tops = sorted({v for v in held.values() if v >= run.attrs["min_fireworks_to_score"]}, reverse=True)
        mine = held[run.player]
        return tops.index(mine) if mine in tops else None

    def _helmets(self, run: Run) -> dict[str, int]:
        if "helmets" not in run.shared:
            k = self.consts(run.state)
            run.shared["helmets"] = {n: k.symbols(p, "warrior") for n, p in run.state["players"].items()}
        return run.shared["helmets"]

    @staticmethod
    def _reach(run: Run) -> bool:
        return len(run.state["wall"]) >= run.state["round"]

    @staticmethod
    def _fewest_wall(run: Run) -> bool:
        wall = run.state["wall"]
        return wall.count(run.player) == min(wall.count(n) for n in run.state["order"])
