"""What ZhanGuo's effects act on (engine/core/effects.py): its counters, and the counts and conditions
its effects name, keyed by the text the effect says. The numbers come from the effects (references
resolved by the interpreter), so this module holds no rule constant.

Final scoring runs with the moment `end_game`: the points a scoring or a wall token gives are kept
in the run (`gained["vp"]`) and the flow (engine/zhanguo/scoring.py) adds each part to the player's
points, as the rulebook's scoring sheet sums them. A region's governor majority shared by tied
players (the condition says so) keeps its points apart, by region, for the flow to divide.
"""
from __future__ import annotations

from collections import Counter

from engine.core.effects import Run, Vocabulary
from engine.zhanguo.common import P, marker_value

END = "end_game"
# the aspect each unification-majority condition names
MOST_MARKERS = {
    "the player has the most writing (cream) unification markers (ties: highest disc on the reward track)": "writing",
    "the player has the most currency (orange) unification markers (ties: highest disc on the reward track)": "currency",
    "the player has the most law (brown) unification markers (ties: highest disc on the reward track)": "law",
}
WALL_ON = "the player has a wall on the {lines}-line space of the section linked to this token"


def _regions(run: Run):
    return P(run.state, run.player)["regions"].values()


class ZhanGuoVocabulary(Vocabulary):
    """One per engine; `k` is the game's constants (regions, colours, task layout)."""

    targets = frozenset({"region of the main board (scored one by one)",
                         "task section ({attr.task_sections} sections; in each, the sum of the VP printed below each own "
                         "disc times the number of own discs there, 0-{attr.discs_per_section_max})"})

    def __init__(self, k):
        self.k = k
        colour_of = {card: d["colour"] for card, d in k.cards.items()}

        def cards_of(reg, colour):
            return sum(1 for card in reg["cards"] if colour_of[card] == colour)

        self.counts = {
            # final scoring
            "region of the main board (scored one by one)": lambda run: len(self.k.regions),
            "own governor in the region": lambda run: self._governors(run)[run.player],
            "task section ({attr.task_sections} sections; in each, the sum of the VP printed below each own disc "
            "times the number of own discs there, 0-{attr.discs_per_section_max})": lambda run: len(self.k.task_sections),
            # wall tokens
            "region of the player's board with an empty unrest track":
                lambda run: sum(1 for r in _regions(run) if r["unrest"] == 0),
            "region of the player's board where the number of officials (governors' and workers' areas together) is "
            "at least the unrest level":
                lambda run: sum(1 for r in _regions(run) if sum(r["gov"].values()) + sum(r["work"].values()) >= r["unrest"]),
            "set of 3 cards of different colours on the player's board (any regions)":
                lambda run: min(sum(cards_of(r, col) for r in _regions(run)) for col in self.k.colours),
            "region of the player's board holding 3 cards (any colours)":
                lambda run: sum(1 for r in _regions(run) if len(r["cards"]) >= self.k.max_cards_region),
            "region of the player's board with at least 2 cards of the same colour":
                lambda run: sum(1 for r in _regions(run) if any(cards_of(r, col) >= 2 for col in self.k.colours)),
            "unrest level in all regions of the player's board (total)": lambda run: sum(r["unrest"] for r in _regions(run)),
        }
        for col in k.colours:
            self.counts[f"region of the player's board with at least 1 {col} card"] = (
                lambda run, col=col: sum(1 for r in _regions(run) if cards_of(r, col)))
        for col in k.official_colours:
            self.counts[f"region of the player's board with at least 1 {col} official (governors' or workers' area)"] = (
                lambda run, col=col: sum(1 for r in _regions(run) if r["gov"][col] + r["work"][col] > 0))
        self.conditions = {
            "the player has the most governors in the region (if tied, the total is split among the tied players, "
            "rounded down)": self._governor_majority,
        }
        for text, aspect in MOST_MARKERS.items():
            self.conditions[text] = lambda run, aspect=aspect: self._most_markers(run, aspect)
        for lines in (1, 2, 3):
            self.conditions[WALL_ON.format(lines=lines)] = lambda run, lines=lines: self._wall_on(run, lines)

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
            super().gain(run, what, n)

    def lose(self, run: Run, what: str, n: int) -> None:
        if what == "vp" and run.moment == END:
            self.gain(run, what, -n)
        else:
            super().lose(run, what, n)

    def mechanism(self, run: Run, rule_id: str) -> None:
        if rule_id == run.entity and run.each in self.targets and run.nth is not None:
            self._task_section(run)

    # ---------------------------------------------------------------- final scoring
    def _governors(self, run: Run) -> Counter:
        region = self.k.regions[run.nth]
        return Counter(gv["player"] for gv in run.state["board"]["governors"][region])

    def _governor_majority(self, run: Run) -> bool:
        count = self._governors(run)
        if not count or count[run.player] != max(count.values()):
            return False
        tied = sum(1 for c in count.values() if c == count[run.player])
        run.gained.setdefault("split", {})[run.nth] = tied
        return True

    def _most_markers(self, run: Run, aspect: str) -> bool:
        colour = self.k.colour_of_aspect[aspect]
        values = {n: marker_value(self, P(run.state, n), colour) for n in run.state["seats"]}
        top = max(values.values())
        return top > 0 and next(n for n in run.state["track"] if values[n] == top) == run.player

    def _task_section(self, run: Run) -> None:
        """zhanguo/scoring-rule/task-discs: the VP below each own disc in the section, times the
        multiplier for the number of own discs there."""
        k, section = self.k, self.k.task_sections[run.nth]
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
    def consts(self):  # marker_value reads the constants of a game object
        return self.k
