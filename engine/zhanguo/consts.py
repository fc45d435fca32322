"""Every ZhanGuo rule constant the engine uses, read once from the knowledge base (kb/data/zhanguo).

Nothing here is a typed-in rule number: each value comes from Rules.attr on the entity that states it
or, for values printed only on components (the 120 cards, the board, the tokens), from the unknowns
register's `value_used` (zhanguo/unknown/*). The deck is built only from the cards' `value_used`.
"""
from __future__ import annotations

from engine.core.consts import Attr, RuleConstants, Unknown
from engine.core.errors import EngineError

G = "zhanguo"


def _id(kind: str, key: str) -> str:
    return f"{G}/{kind}/{key}"


def _int_keys(d: dict) -> dict:
    return {int(k): v for k, v in d.items()}


class Consts(RuleConstants):
    game = G

    # ---- rounds, phases
    rounds = Attr("rule/game-round", "rounds")
    round_start = Attr("setup-step/round-track", "start_space")
    aspect_order = Attr("rule/unification-rewards", "aspect_order")

    # ---- components and setup
    official_colours = Attr("court-action/recruit-official", "official_colours")
    officials_per_colour = Attr("court-action/recruit-official", "officials_per_colour_per_player")
    task_discs = Attr("setup-step/task-discs", "discs")
    m3_per_colour = Attr("component/unification-markers", "value_3_per_colour")
    m3_value = Attr("rule/unification-rewards", "high_marker_value")
    m1_value = Attr("rule/unification-rewards", "low_marker_value")
    start_vp = Attr("setup-step/victory-points", "start_vp")
    start_officials = Unknown("starting-officials")
    start_region = Attr("setup-step/officials", "region")
    boards = Attr("component/player-boards", "symbols")
    b_ability = Unknown("b-side-boards")

    # ---- court actions
    move_min = Attr("court-action/move-officials", "movement_points_min")
    move_max = Attr("court-action/move-officials", "movement_points_max")
    work_capacity = Attr("rule/worker-area-capacity", "officials_max")
    recruit_n = Attr("court-action/recruit-official", "officials_taken")
    bonus_officials = Attr("reward/governor-bonus-official", "officials")
    unrest_per_worker = Attr("variant/unrest-per-worker", "unrest_per_worker_hired")

    # ---- rewards
    min_markers = Attr("rule/unification-rewards", "min_markers_to_claim")

    # ---- tasks
    task_types = Attr("setup-step/tasks", "task_types")

    def derive(self) -> None:
        rules = self.rules
        a = rules.attr
        unk = self.unknown

        # ---- rounds, phases
        decks = a(_id("rule", "cards"), "decks")
        self.colours = list(decks)  # cream, orange, brown (writing, currency, law)
        self.aspect_of = {c: decks[c]["aspect"] for c in decks}
        self.colour_of_aspect = {v: k for k, v in self.aspect_of.items()}
        self.deck_range = {c: (decks[c]["first"], decks[c]["last"]) for c in decks}

        # ---- the 120 cards: number and colour from the rulebook, the rest from value_used only
        self.cards: dict[int, dict] = {}
        for e in rules.of_kind("unknown"):
            if e["parent"] == _id("unknown", "card-specifics"):
                at = e["attrs"]
                spec = dict(at["value_used"])
                spec["colour"] = at["colour"]
                self.cards[at["activation_number"]] = spec
        self.abilities = {e["key"]: e["attrs"] for e in rules.of_kind("card-ability")}

        # ---- components and setup
        sup = _id("setup-step", "player-supply")
        self.governors = a(sup, "governors")
        self.palaces = a(sup, "palaces")
        self.walls = a(sup, "walls")
        self.cubes = a(sup, "unrest_markers")
        self.discs = a(sup, "discs")
        self.m1_by_players = _int_keys(a(_id("setup-step", "general-supply"), "value_1_markers_per_colour")["by_players"])
        self.regions = [str(r) for r in range(1, a(_id("setup-step", "main-board"), "regions") + 1)]
        tl = unk("unrest-track-lengths")
        self.track_len = {side: {self.regions[i]: n for i, n in enumerate(tl[side])} for side in ["A", *self.boards]}
        edges = unk("region-adjacency")["edges"]
        self.adj = {r: set() for r in self.regions}
        for x, y in edges:
            self.adj[str(x)].add(str(y))
            self.adj[str(y)].add(str(x))
        self.dist = {r: self._bfs(r) for r in self.regions}
        self.first_player_random = a(_id("setup-step", "first-player"), "first_player_chosen") == "random"

        # ---- auction (B sides)
        au = _id("setup-step", "b-side-auction")
        self.auction_vp = a(au, "start_vp")
        self.boards_discarded = _int_keys(a(au, "boards_discarded")["by_players"])
        self.min_bid = a(au, "min_bid")
        self.last_board_cost = a(au, "last_board_cost")

        # ---- unification, unrest
        u = _id("rule", "unification")
        self.max_cards_region = a(u, "max_cards_per_region")
        self.unrest_for_pos = _int_keys(a(u, "unrest_increase_for_card_position"))

        # ---- court actions
        gv = _id("court-action", "appoint-governor")
        self.gov_cost = a(gv, "officials_removed")
        self.bonus_spaces = unk("governor-bonus-spaces")["per_region"]
        hw = _id("court-action", "hire-workers")
        self.hire_per_official = a(hw, "workers_per_official_in_workers_area")
        self.hire_max = a(hw, "workers_max")
        self.hire_unrest = a(hw, "unrest_increase")
        bp = _id("court-action", "build-palace")
        self.palace_from_region = a(bp, "workers_from_region")
        self.palace_from_other = a(bp, "workers_from_other_region")
        self.palace_spaces = _int_keys(a(bp, "palace_spaces_per_region")["by_players"])
        bw = _id("court-action", "build-wall")
        self.wall_areas = a(bw, "wall_areas")
        self.sections_per_area = a(bw, "sections_per_wall_area")
        self.sections = self.wall_areas * self.sections_per_area
        self.spaces_per_section = a(bw, "spaces_per_section")
        self.wall_workers = _int_keys(a(bw, "workers_removed")["by_space_lines"])
        self.walls_per_section = a(bw, "walls_per_player_per_section_max")

        # ---- activation
        ca = a(_id("rule", "card-activation"), "higher_number_required_for")
        self.higher = [x.rsplit("/", 1)[1] for x in ca]
        self.lower = [x.rsplit("/", 1)[1] for x in a(_id("rule", "card-activation"), "lower_number_required_for")]
        self.never = [x.rsplit("/", 1)[1] for x in a(_id("rule", "card-activation"), "never_activates")]
        self.court_actions = [e["key"] for e in sorted(rules.of_kind("court-action"), key=lambda e: e["order"])]
        ab = self.abilities
        self.ab_officials = ab["official"]["officials"]
        self.b_extra_workers = ab["b-extra-worker"]["extra_workers"]
        self.b_extra_move = ab["b-extra-worker"]["movement_points"]

        # ---- rewards
        self.reward_layout = {int(r): v for r, v in unk("reward-layout").items()}
        self.rewards = {e["key"]: e["attrs"] for e in rules.of_kind("reward")}

        # ---- tasks
        req = unk("task-token-requirements")
        self.task_tokens = {item: req[item] for item in self.task_types}
        self.wall_area_names = req["wall_areas"]
        tv = unk("task-space-vp")
        self.task_sections = [s for s in tv if s != "spaces_per_task"]
        self.task_vp = {s: tv[s] for s in self.task_sections}
        self.task_spaces = tv["spaces_per_task"]
        self.task_mult = _int_keys(a(_id("scoring-rule", "task-discs"), "multiplier_by_discs_in_section"))

        # ---- walls scoring
        ws = unk("wall-token-sides")
        self.wall_tokens = ws["sides"]
        self.wall_extra_vp = _int_keys(unk("wall-space-vp")["extra_vp_by_lines"])
        self.wall_criteria = {e["key"]: _int_keys(e["attrs"]["vp_by_wall_space_lines"]) for e in rules.of_kind("token")}

        # ---- variants
        cs = _id("variant", "card-selection")
        self.sel_rounds = a(cs, "draft_rounds")
        self.sel_drawn = a(cs, "cards_drawn_per_deck")
        self.sel_kept = a(cs, "cards_kept_per_deck")
        if self.sel_drawn - self.sel_kept != 1:  # the select action names the one card discarded
            raise EngineError(f"{cs}: the engine's selection discards 1 of the cards drawn, "
                              f"not {self.sel_drawn - self.sel_kept}")

    def _bfs(self, r):
        d = {r: 0}
        todo = [r]
        while todo:
            x = todo.pop(0)
            for y in sorted(self.adj[x]):
                if y not in d:
                    d[y] = d[x] + 1
                    todo.append(y)
        return d
