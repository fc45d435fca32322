"""Every In the Year of the Dragon rule constant the engine uses, read once from the knowledge base.

Values that differ by edition are resolved with Rules.attr(..., edition=...): one Consts per edition.
Numbers printed only on components come from the unknowns register (dragon/unknown/*, `value_used`).
"""
from __future__ import annotations

from engine.core.consts import Attr, RuleConstants, Unknown

G = "dragon"


def _id(kind: str, key: str) -> str:
    return f"{G}/{kind}/{key}"


class Consts(RuleConstants):
    game = G

    # ---- setup
    rounds = Attr("rule/rounds", "rounds")
    last_round = Attr("rule/end-game", "last_round")
    no_person_round = Attr("rule/last-round", "round_without_person_phase")
    start_person = Attr("setup-step/player-components", "person_marker_start")
    start_vp = Attr("setup-step/player-components", "vp_marker_start")
    hand_size = Attr("setup-step/player-components", "person_cards")
    draft_count = Attr("setup-step/initial-persons", "persons_per_player")
    draft_age = Attr("setup-step/initial-persons", "age")
    per_type = Attr("component/person-tiles", "per_type")
    young_only_types = Attr("setup-step/person-tiles", "young_only_types")
    young_per_type = Attr("setup-step/person-tiles", "young_per_type")
    elder_per_type = Attr("setup-step/person-tiles", "elder_per_type")
    split_removed = Attr("setup-step/person-tiles-by-player-count", "removed_per_missing_player_split_types")
    young_only_removed = Attr("setup-step/person-tiles-by-player-count", "removed_per_missing_player_young_only_types")
    track_spaces = Attr("setup-step/event-track", "track_spaces")
    peace_first = Attr("setup-step/event-track", "peace_tiles_first")
    per_event = Attr("component/event-tiles", "per_event")
    last_dup_ruling = Unknown("event-track-last-duplicate")  # {swap_spaces: [10, 11]} (1-based)

    # ---- bank (components; the supply never runs out: dragon/rule/supply-shortage)
    total_rice = Attr("component/rice-tiles", "count")
    total_fireworks = Attr("component/fireworks-tiles", "count")
    total_floors = Attr("component/palace-floors", "count")
    total_small = Attr("component/privilege-tiles", "small")
    total_large = Attr("component/privilege-tiles", "large")

    # ---- phase 1: actions
    occupied_cost = Attr("rule/occupied-group", "cost_yuan")
    max_floors = Attr("rule/palace-capacity", "max_floors")
    persons_per_floor = Attr("rule/palace-capacity", "persons_per_floor")
    dragons = Unknown("small-privilege-dragons")  # {small, large}

    def derive(self) -> None:
        rules = self.rules
        edition, unk, meta = self.edition, self.unknown, rules.meta

        def a(kind, key, name):
            return self.attr(f"{kind}/{key}", name)

        self.editions = [e["key"] for e in meta["editions"]]
        self.expansion_editions = {x["key"]: list(x["editions"]) for x in meta["expansions"]}
        self.max_players = meta["players"]["max"]

        # ---- persons: types (rulebook order), subtypes (young/elder), values and symbols
        persons = {e["key"]: e for e in rules.of_kind("person")}
        self.types = [e["key"] for e in sorted(persons.values(), key=lambda e: e["order"]) if "ages" in e["attrs"]]
        self.subtypes: dict[str, dict] = {}
        for item in self.types:
            ages = persons[item]["attrs"]["ages"]
            for age in ages:
                sub = item if len(ages) == 1 else f"{item}-{age}"
                self.subtypes[sub] = {"type": item, "age": age, "value": a("person", sub, "value"),
                                      "symbols": a("person", sub, "symbols")}
        self.young = [s for s, d in self.subtypes.items() if d["age"] == "young"]
        # the symbols of each tile of a type, by type: counted at every scoring and action
        self.symbols_by_type: dict[str, dict[str, int]] = {item: {} for item in self.types}
        for sub, d in self.subtypes.items():
            self.symbols_by_type[d["type"]][sub] = d["symbols"]

        # ---- setup
        hand = unk("person-card-hand")
        self.jokers = hand["question_mark_cards"]
        events = sorted((e for e in rules.of_kind("event") if not e["scope"]), key=lambda e: e["order"])
        self.events = [e["key"] for e in events]
        self.peace = next(e["key"] for e in events if "fixed_rounds" in e["attrs"])

        # ---- bank (components; the supply never runs out: dragon/rule/supply-shortage)
        coins = rules.entities[_id("component", "coins")]["attrs"]
        self.total_yuan = coins["silver"]["count"] * coins["silver"]["value"] + coins["gold"]["count"] * coins["gold"]["value"]

        # ---- phase 1: actions
        acts = sorted((e for e in rules.of_kind("action") if not e["scope"]), key=lambda e: e["order"])
        self.actions = [e["key"] for e in acts]
        self.group_sizes = {int(n): v for n, v in a("phase", "action", "group_sizes").items()}
        self.price = {"small": a("action", "privilege", "small_price"), "large": a("action", "privilege", "large_price")}

        # ---- the Great Wall (2017)
        gw = "great-wall" in self.expansion_editions and edition in self.expansion_editions["great-wall"]
        self.gw_ok = gw
        if gw:
            self.gw_card = "great-wall"
            self.gw_groups = {int(n): v for n, v in unk("gw-action-groups").items()}
            tiles = sorted((e for e in rules.of_kind("tile") if e["key"].startswith("gw-wall-")), key=lambda e: e["order"])
            per = unk("gw-wall-tile-bonuses")
            self.wall_tiles = [item["key"] for item in tiles for _ in range(per[item["key"]])]
            self.wall_max = a("rule", "gw-wall-placement", "max_wall_tiles")

        # ---- Great Events (2017)
        ge = "great-events" in self.expansion_editions and edition in self.expansion_editions["great-events"]
        self.ge_ok = ge
        if ge:
            gev = sorted((e for e in rules.of_kind("event") if e["scope"] and "great-events" in e["scope"].get("expansions", [])),
                         key=lambda e: e["order"])
            self.great_events = [e["key"] for e in gev]
            self.ge_round = a("rule", "ge-timing", "round")
            self.eclipse_round = a("event", "ge-solar-eclipse", "round")
            self.volcano_space = a("event", "ge-volcanic-eruption", "target_space")
            self.sunrise_persons = a("event", "ge-sunrise", "persons_gained")
            self.edict = unk("ge-edict-benefits")

    # ------------------------------------------------------------ helpers
    def tiles(self, n_players: int) -> dict[str, int]:
        missing = self.max_players - n_players
        out = {}
        for sub, d in self.subtypes.items():
            if d["type"] in self.young_only_types:
                out[sub] = self.per_type - missing * self.young_only_removed
            else:
                per = self.young_per_type if d["age"] == "young" else self.elder_per_type
                out[sub] = per - missing * self.split_removed[d["age"]]
        return out

    def groups(self, n: int, great_wall: bool) -> list[int]:
        return list((self.gw_groups if great_wall else self.group_sizes)[n])

    def symbols(self, p: dict, ptype: str) -> int:
        of, n = self.symbols_by_type.get(ptype, {}), 0
        for pal in p["palaces"]:
            for x in pal["persons"]:
                if x in of:
                    n += of[x]
        return n
