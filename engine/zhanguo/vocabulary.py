"""What ZhanGuo's effects act on (engine/core/effects.py): its counters, and the counts and conditions
its effects name, by the names game.yaml declares. The numbers come from the effects (references
resolved by the interpreter), so this module holds no rule constant.

Final scoring runs with the moment `end_game`: the points a scoring or a wall token gives are kept
in the run (`gained["vp"]`) and the flow (engine/zhanguo/scoring.py) adds each part to the player's
points, as the rulebook's scoring sheet sums them. A region's governor majority shared by tied
players (the condition says so) keeps its points apart, by region, for the flow to divide.
"""
from __future__ import annotations

from collections import Counter

from engine.core.effects import Run, Vocabulary
from engine.core.state import own
from engine.zhanguo import court, pieces
from engine.zhanguo.common import P, cards_on_board, lower_unrest, marker_value, raise_unrest

END = "end_game"
# the aspect each unification-majority condition names
MOST_MARKERS = {"most-writing-markers": "writing", "most-currency-markers": "currency", "most-law-markers": "law"}
WALL_WORKERS = "line-on-chosen-wall-space"
MOVEMENT_POINT = "zhanguo/rule/movement-point"
# the bonus each bonus-space condition of Appoint 1 Governor names (the reward printed on the space)
BONUS_SPACE = {"governor-on-movement-bonus-space": "governor-bonus-movement",
               "governor-on-official-bonus-space": "governor-bonus-official",
               "governor-on-vp-bonus-space": "governor-bonus-vp"}
# the unrest track a step moves is that of a region: the card's for an ability's own region, else the
# region the player declared or chose (game.yaml `tracks`)
UNREST_TRACKS = {"unrest_chosen_region": "region", "unrest_declared_region": "region",
                 "unrest_same_region": "region", "unrest_card_region": "card_region"}
HIRED = "declared-region-worker"
PLAYER_SUPPLY = "zhanguo/setup-step/player-supply"  # each player's pieces at the start
SUPPLY_PIECES = {"unrest": "cubes", "governor": "governors", "palace": "palaces", "wall": "walls"}
# a B side's ability after the court action(s) its condition names
TOOK = {"takes-hire-workers": {"hire-workers"}, "took-appoint-governor": {"appoint-governor"},
        "took-recruit-official": {"recruit-official"},
        "took-build-wall-or-recruit-official": {"build-wall", "recruit-official"},
        "took-move-officials-or-build-wall": {"move-officials", "build-wall"}}


def _regions(run: Run):
    return P(run.state, run.player)["regions"].values()


class ZhanGuoVocabulary(Vocabulary):
    """One per engine; `consts` is the game's constants (regions, colours, task layout). It stands in
    for the game object where the helpers of engine/zhanguo want one (`consts`, `effects`)."""

    targets = frozenset({"main-board-region", "deck", "task-section"})

    def __init__(self, consts):
        self.consts = k = consts
        colour_of = {card: d["colour"] for card, d in k.cards.items()}

        def cards_of(reg, colour):
            return sum(1 for card in reg["cards"] if colour_of[card] == colour)

        self.counts = {
            # final scoring
            "main-board-region": lambda run: len(self.consts.regions),
            "own-governor-in-region": lambda run: self._governors(run)[run.player],
            "task-section": lambda run, sections, discs: len(self.consts.task_sections),
            # wall tokens
            "region-without-unrest":
                lambda run: sum(1 for r in _regions(run) if r["unrest"] == 0),
            "region-officials-at-least-unrest":
                lambda run: sum(1 for r in _regions(run) if sum(r["gov"].values()) + sum(r["work"].values()) >= r["unrest"]),
            "set-of-three-colours":
                lambda run: min(sum(cards_of(r, col) for r in _regions(run)) for col in self.consts.colours),
            "region-with-three-cards":
                lambda run: sum(1 for r in _regions(run) if len(r["cards"]) >= self.consts.max_cards_region),
            "region-with-two-cards-of-a-colour":
                lambda run: sum(1 for r in _regions(run) if any(cards_of(r, col) >= 2 for col in self.consts.colours)),
            "total-unrest-level": lambda run: sum(r["unrest"] for r in _regions(run)),
            # a palace built (a court action or a reward)
            "board-card": lambda run: cards_on_board(P(run.state, run.player)),
            "board-card-any": lambda run: cards_on_board(P(run.state, run.player)),
            # card abilities
            "board-card-of-shown-colours":
                lambda run: sum(1 for r in _regions(run) for card in r["cards"]
                                if colour_of[card] in self.consts.cards[run.choice["card"]]["colours"]),
            # phase 1: each deck in turn, in the order of the colours
            "deck": lambda run: len(self.consts.colours),
            # unification
            "card-in-unified-region":
                lambda run: len(P(run.state, run.player)["regions"][run.choice["region"]]["cards"]),
            "missing-unification-marker": lambda run: run.gained.get("missing", 0),
            # court actions
            "declared-region-unrest-level": lambda run: P(run.state, run.player)["regions"][run.choice["region"]]["unrest"],
            WALL_WORKERS: lambda run: run.choice["lines"],
            HIRED: lambda run: sum(P(run.state, run.player)["regions"][run.choice["region"]]["work"].values()),
        }
        # where a piece goes: the region the reward space shows, or the one the player declared
        self.places = {
            ("official", "governors-area-of-reward-region"): self._officials_to_reward_region,
            ("official", "governors-area-of-reward-region-grey"): self._officials_to_reward_region,
            ("official", "governors-area-of-reward-region-red"): self._officials_to_reward_region,
            ("governor", "bonus-space-of-declared-region"): self._governor,
            ("governor", "reward-region-or-any-region"): self._governor,
            ("wall", "wall-space-without-workers"): self._wall,
            ("palace", "palace-space-without-workers"): self._palace,
            ("official", "governors-area-chosen-region"): self._officials_declared,
            ("card", "region-with-room-for-card"): self._card_to_region,
            ("official", "governors-area-of-card-region"): self._officials_of_card,
            ("worker", "workers-area-of-card-region"): self._worker_to_card_region,
            ("worker", "workers-area-adjacent-to-chosen"): self._worker_moved,
            ("official", "governors-area-any-region"): self._official_decided_later,
            ("worker", "workers-area-adjacent-region"): self._worker_moved,
            ("worker", "workers-area-calmed-region"): self._worker_to_region,
            ("worker", "workers-area-of-declared-region"): self._worker_to_region,
            ("worker", "workers-area-of-hire-region"): self._worker_to_region,
            ("worker", "workers-area-of-reward-region"): self._worker_to_shown_region,
            ("unification_marker", "in-front-of-you"): self._value_1_markers,
            ("governor", "adjacent-region-beside-bonus-spaces"): self._governor_moved,
            ("wall", "space-of-declared-wall-section"): self._wall,
            ("palace", "palace-space-of-declared-region"): self._palace,
        }
        for col in k.colours:
            self.counts[f"region-with-{col}-card"] = (
                lambda run, col=col: sum(1 for r in _regions(run) if cards_of(r, col)))
        for col in k.official_colours:
            # Appoint 1 Governor: each colour's officials from the declared region back to the supply
            self.places[(f"{col}_official", "own-supply")] = (
                lambda run, count, col=col: self._officials_returned(run, col, count))
            self.counts[f"region-with-{col}-official"] = (
                lambda run, col=col: sum(1 for r in _regions(run) if r["gov"][col] + r["work"][col] > 0))
        def left(run: Run) -> bool:
            """Whether a value-1 marker was left when the effect began (its two conditions are either-or:
            taking the last marker does not also earn the points for none left)."""
            if "m1_left" not in run.gained:
                run.gained["m1_left"] = any(n > 0 for n in run.state["supply"]["m1"].values())
            return run.gained["m1_left"]

        placed = lambda run: len(P(run.state, run.player)["regions"][run.choice["region"]]["cards"])  # noqa: E731
        self.conditions = {
            "no-value-1-marker-of-card-colour": lambda run: run.state["supply"]["m1"][run.choice["colour"]] == 0,
            "second-card-in-region": lambda run: placed(run) == 2,
            "third-card-in-region": lambda run: placed(run) == 3,
            "declared-region-has-unrest": lambda run: P(run.state, run.player)["regions"][run.choice["region"]]["unrest"] > 0,
            "value-1-marker-left": left,
            "no-value-1-marker-left": lambda run: not left(run),
            "value-1-marker-left-any-colour": left,
            "no-value-1-marker-left-in-pool": lambda run: not left(run),
            "card-shows-vp": lambda run, vp: self._card_vp(run) == vp,
            "marker-of-value-on-main-board": lambda run, value: any(
                n > 0 for n in run.state["supply"]["m3" if value == self.consts.m3_value else "m1"].values()),
            "most-governors-in-region": self._governor_majority,
            "wall-on-line": self._wall_on,
        }
        for name, bonus in BONUS_SPACE.items():
            self.conditions[name] = lambda run, bonus=bonus: (
                run.choice["space"] is not None and self.consts.bonus_spaces[run.choice["space"]] == bonus)
        for name, actions in TOOK.items():
            self.conditions[name] = lambda run, actions=actions: run.choice["action"] in actions
        for name, aspect in MOST_MARKERS.items():
            self.conditions[name] = lambda run, aspect=aspect: self._most_markers(run, aspect)

    # ---------------------------------------------------------------- amounts
    def gain(self, run: Run, what: str, n: int) -> None:
        if what == "vp" and run.moment == END:
            split = run.gained.get("split", {})
            if run.nth in split:  # a majority shared by tied players: kept by region for the flow
                pools = run.gained.setdefault("pools", {})
                pools[run.nth] = pools.get(run.nth, 0) + n
            else:
                run.gained["vp"] = run.gained.get("vp", 0) + n
        else:
            self._gain_now(run, what, n)

    def _gain_now(self, run: Run, what: str, n: int) -> None:
        p = P(run.state, run.player)
        if what == "vp":
            p["vp"] += n
            run.events.append({"event": "vp", "player": run.player, "vp": n, "rule": run.entity})
        elif what == "card":  # from the deck the running `per` is at, as many as it holds
            deck = run.state["decks"][self.consts.colours[run.nth]]
            for _ in range(min(n, len(deck))):
                p["hand"].append(deck.pop())
        elif what == "unification_marker" and "marker" in run.choice:  # a palace: the value-3 marker chosen
            colour = run.choice["marker"]
            run.state["supply"]["m3"][colour] -= n
            p["m3"][colour] += n
        elif what == "unification_marker":  # value-1 markers of the colour chosen (a card's: its own)
            self._value_1_markers(run, n)
        elif what in SUPPLY_PIECES and run.entity == PLAYER_SUPPLY:  # the setup: pieces into the player's supply
            p[SUPPLY_PIECES[what]] += n
        else:
            super().gain(run, what, n)

    def pay(self, run: Run, what: str, n: int) -> None:
        p = P(run.state, run.player)
        if what == "worker" and run.each == WALL_WORKERS:  # one from each region the player named
            for region in run.choice["regions"][:n]:
                pieces.remove_workers(self, run.state, p, region, 1)
        elif what == "worker":
            # a palace's workers: the effect pays from the declared region first, then from the other one
            paid = run.gained.get("worker_payments", 0)
            region = run.choice["region"] if paid == 0 else run.choice["other"]
            pieces.remove_workers(self, run.state, p, region, n)
            run.gained["worker_payments"] = paid + 1
        else:
            super().pay(run, what, n)

    def move(self, run: Run, track: str, steps: int) -> None:
        if track not in UNREST_TRACKS:
            return super().move(run, track, steps)
        p = P(run.state, run.player)
        region = run.choice[UNREST_TRACKS[track]]
        if steps < 0:
            lower_unrest(p, region, -steps, run.events)
            return
        if run.each is None and HIRED in run.counted and run.state["options"]["unrest_per_worker"]:
            # zhanguo/variant/unrest-per-worker: the rise is per worker hired (its attribute)
            steps = court.hire_unrest(self, run.state, p, region)
        raise_unrest(self, p, region, steps, run.events)

    def place(self, run: Run, what: str, count: int, where: str | None, params: dict[str, int]) -> None:
        place = self.places.get((what, where))
        if place is None:
            return super().place(run, what, count, where, params)
        place(run, count)

    def lose(self, run: Run, what: str, n: int) -> None:
        if what == "vp" and run.moment == END:
            self.gain(run, what, -n)
        else:
            super().lose(run, what, n)

    def optional(self, run: Run) -> bool:
        # the flow runs an ability's effect when the player activates it: the yes; a part the player
        # decides at a later activation is not taken now (run.choice["later"])
        return not run.choice.get("later")

    def mechanism(self, run: Run, rule_id: str) -> None:
        if rule_id == MOVEMENT_POINT:  # each point the player may spend waits as a decision (the flow's)
            run.gained["movement"] = run.gained.get("movement", 0) + 1
        elif rule_id == run.entity == PLAYER_SUPPLY:  # the officials of each colour it names (of its discs,
            p = P(run.state, run.player)  # the task discs are counted apart: the others mark tracks)
            for colour in self.consts.official_colours:
                p["supply"][colour] += run.attrs[f"{colour}_officials"]
        elif rule_id == run.entity and run.each in self.targets and run.nth is not None:
            self._task_section(run)

    # ---------------------------------------------------------------- pieces
    @staticmethod
    def _region(run: Run) -> str:
        if "region" in run.choice:
            return run.choice["region"]
        return str(run.choice["spot"]["region"])

    def _officials_to_reward_region(self, run: Run, count: int) -> None:
        """The reward's officials: the colour the reward names (attribute official_colour), else the
        player's choice, into the region its space shows."""
        p = P(run.state, run.player)
        colour = run.attrs.get("official_colour") or run.choice["colour"]
        p["supply"][colour] -= count
        own(p["regions"], str(run.choice["spot"]["region"]))["gov"][colour] += count

    def _officials_returned(self, run: Run, colour: str, count: int) -> None:
        p = P(run.state, run.player)
        own(p["regions"], run.choice["region"])["gov"][colour] -= count
        p["supply"][colour] += count

    def _officials_declared(self, run: Run, count: int) -> None:
        p = P(run.state, run.player)
        p["supply"][run.choice["colour"]] -= count
        own(p["regions"], run.choice["region"])["gov"][run.choice["colour"]] += count

    def _card_to_region(self, run: Run, count: int) -> None:
        """zhanguo/rule/unification: the card from the hand under the region."""
        p, card = P(run.state, run.player), run.choice["card"]
        p["hand"].remove(card)
        own(p["regions"], run.choice["region"])["cards"].append(card)
        run.events.append({"event": "unify", "player": run.player, "card": card, "region": run.choice["region"]})

    def _officials_of_card(self, run: Run, count: int) -> None:
        p = P(run.state, run.player)
        colour = self.consts.cards[run.choice["card"]]["official_colour"]
        p["supply"][colour] -= count
        own(p["regions"], run.choice["card_region"])["gov"][colour] += count

    def _worker_to_card_region(self, run: Run, count: int) -> None:
        pieces.add_workers(self, run.state, P(run.state, run.player), run.choice["card_region"], count)

    def _worker_moved(self, run: Run, count: int) -> None:
        for _ in range(count):
            pieces.move_worker(self, P(run.state, run.player), run.choice)

    def _official_decided_later(self, run: Run, count: int) -> None:
        """A governor's bonus official: which colour and region wait as the player's decision."""
        if any(P(run.state, run.player)["supply"].values()):
            run.gained.setdefault("todo", []).append({"kind": "official", "player": run.player})

    def _worker_to_region(self, run: Run, count: int) -> None:
        pieces.add_workers(self, run.state, P(run.state, run.player), run.choice["region"], count)

    def _worker_to_shown_region(self, run: Run, count: int) -> None:
        """A reward's workers: the region its space shows (the unrest does not rise)."""
        pieces.add_workers(self, run.state, P(run.state, run.player), self._region(run), count)

    def _value_1_markers(self, run: Run, count: int) -> None:
        """Value-1 unification markers of the colour chosen (a placed card's: its own) from the general
        supply; what the supply lacks is counted as missing (the unification's VP for each)."""
        p, colour = P(run.state, run.player), run.choice["colour"]
        taken = min(count, run.state["supply"]["m1"][colour])
        run.state["supply"]["m1"][colour] -= taken
        p["m1"][colour] += taken
        run.gained["missing"] = run.gained.get("missing", 0) + count - taken  # the supply ran out
        run.events.append({"event": "markers", "player": run.player, "colour": colour, "taken": taken})

    def _governor_moved(self, run: Run, count: int) -> None:
        """One of the player's governors to an adjacent region, beside the bonus spaces."""
        governors = run.state["board"]["governors"]
        for _ in range(count):
            moved = own(governors, run.choice["from"])
            moved.remove(next(x for x in moved if x["player"] == run.player))
            own(governors, run.choice["to"]).append({"player": run.player, "space": None})

    def _card_vp(self, run: Run) -> int:
        return self.consts.cards[run.choice["card"]]["vp"]

    def _governor(self, run: Run, count: int) -> None:
        """A governor on the chosen space (what the space gives is the placing effect's next steps)."""
        for _ in range(count):
            pieces.place_governor(self, run.state, run.player, run.choice["region"], run.choice["space"])

    def _bonus(self, run: Run, reward: str) -> None:
        run.gained.setdefault("todo", []).extend(pieces.governor_bonus(self, run.state, run.player, reward, run.events))

    def other(self, run: Run, op: str, args) -> None:
        if op == "do_action":  # a governor's bonus: the reward the space shows (the choice below)
            self._bonus(run, args["action"])
        else:
            super().other(run, op, args)

    def _wall(self, run: Run, count: int) -> None:
        for _ in range(count):
            pieces.place_wall(self, run.state, run.player, run.choice["section"], run.choice["lines"])

    def _palace(self, run: Run, count: int) -> None:
        for _ in range(count):
            pieces.place_palace(self, run.state, run.player, run.choice["region"], run.events)

    # ---------------------------------------------------------------- final scoring
    def _governors(self, run: Run) -> Counter:
        region = self.consts.regions[run.nth]
        return Counter(gv["player"] for gv in run.state["board"]["governors"][region])

    def _governor_majority(self, run: Run) -> bool:
        count = self._governors(run)
        if not count or count[run.player] != max(count.values()):
            return False
        tied = sum(1 for c in count.values() if c == count[run.player])
        run.gained.setdefault("split", {})[run.nth] = tied
        return True

    def _most_markers(self, run: Run, aspect: str) -> bool:
        colour = self.consts.colour_of_aspect[aspect]
        values = {n: marker_value(self, P(run.state, n), colour) for n in run.state["seats"]}
        top = max(values.values())
        return top > 0 and next(n for n in run.state["track"] if values[n] == top) == run.player

    def _task_section(self, run: Run) -> None:
        """zhanguo/scoring-rule/task-discs: the VP below each own disc in the section, times the
        multiplier for the number of own discs there."""
        k, section = self.consts, self.consts.task_sections[run.nth]
        vps = []
        for item in k.task_types:
            discs = run.state["board"]["tasks"][section][item]["discs"]
            if run.player in discs:
                vps.append(k.task_vp[section][item][discs.index(run.player)])
        vp = sum(vps) * k.task_mult[len(vps)] if vps else 0
        run.gained.setdefault("sections", {})[section] = vp
        self.gain(run, "vp", vp)

    @staticmethod
    def _wall_on(run: Run, lines: int) -> bool:
        spaces = run.state["board"]["walls"][run.choice["section"]]
        return spaces[lines - 1] == run.player

    @property
    def effects(self):
        return self.interpreter
