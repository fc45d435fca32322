"""Every Gugong rule constant the engine uses, read once from the knowledge base (kb/data/gugong).

Nothing here is a typed-in rule number: each value comes from Rules.attr on the entity that states it
(or, for numbers printed only on components, from the unknowns register's `value_used`).
"""
from __future__ import annotations

from engine.core.game import Rules

G = "gugong"


def _id(kind: str, key: str) -> str:
    return f"{G}/{kind}/{key}"


class Consts:
    def __init__(self, rules: Rules):
        a = rules.attr
        self.rules = rules

        def unk(key):
            return a(_id("unknown", key), "value_used")

        # ---- components and setup
        self.servants_total = a(_id("component", "servants"), "per_player")
        self.start_pool = a(_id("setup-step", "servants"), "start_in_pool")
        self.start_supply = a(_id("setup-step", "servants"), "start_in_supply")
        self.ships = a(_id("location", "grand-canal"), "ships_per_player")
        self.dice = a(_id("setup-step", "destiny-dice"), "dice")
        self.die_faces = unk("destiny-die-faces")
        self.display_cards = a(_id("setup-step", "gift-cards"), "display_cards")
        self.decrees_per_level = a(_id("setup-step", "decrees"), "drawn_per_level")
        self.decree_levels = a(_id("setup-step", "decrees"), "levels")
        self.draw_piles = a(_id("setup-step", "travel-tokens"), "draw_piles")
        self.vp_start = a(_id("setup-step", "vp-marker"), "start_value")
        self.day_start = a(_id("setup-step", "day-marker"), "start_space")
        starts = unk("track-start-spaces")
        self.intrigue_start, self.palace_start = starts["intrigue"], starts["palace"]
        self.days = a(_id("rule", "end-game"), "days")
        self.morning_skipped_day = a(_id("phase", "morning"), "skipped_in_round")

        # ---- gift cards (values/abilities printed only on the cards: unknowns register)
        deck = unk("gift-card-deck")
        abil = unk("gift-card-abilities")
        self.card_value = {c: d["value"] for c, d in deck.items()}
        self.card_setup = {c: d["setup"] for c, d in deck.items()}
        self.card_ability = {c: (None if abil[c] == "none" else abil[c]) for c in deck}
        self.cards = sorted(deck)
        self.card_abilities = {e["key"]: e for e in rules.of_kind("card-ability")}

        # ---- day: gift exchange
        self.exchange_servants = a(_id("rule", "exchange-pay-servants"), "servant_cost")
        self.exchange_discards = a(_id("rule", "exchange-discard-card"), "cards_discarded")
        self.low_value = a(_id("rule", "value-one-exception"), "low_value")
        self.high_value = a(_id("rule", "value-one-exception"), "high_value")
        self.same_action_max = a(_id("rule", "card-and-location-same"), "max_times")

        # locations in rulebook order (their `order`)
        locs = sorted(rules.of_kind("location"), key=lambda e: e["order"])
        self.locations = [e["key"] for e in locs]

        # ---- 1 travel
        self.travel = {o: (a(_id("action-option", f"travel-{o.lower()}"), "servant_cost"),
                           a(_id("action-option", f"travel-{o.lower()}"), "moves")) for o in "AB"}
        self.token_slots = a(_id("rule", "travel-token-limit"), "token_slots")
        self.token_rates = {
            "servant": (a(_id("rule", "travel-exchange-servant"), "tokens"), ("servant", a(_id("rule", "travel-exchange-servant"), "servants"))),
            "vp": (a(_id("rule", "travel-exchange-vp"), "tokens"), ("vp", a(_id("rule", "travel-exchange-vp"), "vp"))),
            "jade": (a(_id("rule", "travel-exchange-jade"), "tokens"), ("jade", a(_id("rule", "travel-exchange-jade"), "jade"))),
        }
        self.double_token_counts = a(_id("token", "travel-double"), "counts_as")
        self.token_mix = unk("travel-token-mix")
        self.bonus_mix = unk("bonus-travel-token-mix")  # variant gugong/variant/bonus-travel-tokens
        self.token_attrs = {e["key"]: e["attrs"] for e in rules.of_kind("token")
                            if e["key"] in self.token_mix or e["key"] in self.bonus_mix}
        self.advanced_board_cards = a(_id("rule", "advanced-gift-deck"), "board_cards")
        self.cities = unk("travel-map-cities")
        self.roads = [[] for _ in range(self.cities)]
        for x, y in unk("travel-map-roads"):
            self.roads[x].append(y)
            self.roads[y].append(x)

        # ---- 2 great wall
        self.wall_threshold = a(_id("rule", "wall-completion"), "threshold_by_players")
        self.wall_vp = a(_id("rule", "wall-scoring"), "vp")
        self.wall_palace = a(_id("rule", "wall-scoring"), "palace_steps")
        self.wall_a_place = a(_id("action-option", "great-wall-a"), "servants_placed")
        self.wall_b_cost = a(_id("action-option", "great-wall-b"), "servant_cost")
        self.wall_b_max = a(_id("action-option", "great-wall-b"), "servants_placed_max")
        self.rewards_per_player = a(_id("rule", "intrigue-rewards"), "rewards_per_player")
        self.intrigue_rewards = {e["key"]: e["attrs"] for e in rules.of_kind("reward")}
        self.double_counts = a(_id("rule", "double-servant-placement"), "counts_as_placed")
        self.double_removed = a(_id("rule", "double-servant-remove"), "counts_as_removed")

        # ---- 3 jade
        self.jade_houses = [dict(h) for h in unk("jade-houses")["houses"]]
        self.jade_courtyard = a(_id("rule", "jade-courtyard"), "courtyard_servant_cost")
        self.jade_gained = a(_id("action-option", "jade-action"), "jade_gained")

        # ---- 4 intrigue
        self.intrigue = {o: (a(_id("action-option", f"intrigue-{o.lower()}"), "servant_cost"),
                             a(_id("action-option", f"intrigue-{o.lower()}"), "intrigue_steps")) for o in "AB"}
        self.intrigue_max = a(_id("rule", "intrigue-track-limit"), "spaces")

        # ---- 5 palace
        self.palace_a = a(_id("action-option", "palace-a"), "palace_steps")
        self.palace_b = (a(_id("action-option", "palace-b"), "servant_cost"), a(_id("action-option", "palace-b"), "palace_steps"),
                         a(_id("action-option", "palace-b"), "intrigue_steps"))
        self.palace_end = a(_id("rule", "palace-entry"), "palace_track_spaces")
        self.palace_extra_vp = a(_id("rule", "palace-extra-steps"), "vp_per_extra_step")
        spots = unk("palace-vp-spots")
        self.palace_spots = [spots[k] for k in sorted(spots)]

        # ---- 6 decrees
        self.decree_extra = a(_id("action-option", "decrees-action"), "extra_cost_per_other_servant")
        self.decree_placed = a(_id("action-option", "decrees-action"), "servants_placed")
        self.decrees = {e["key"]: e["attrs"] for e in rules.of_kind("decree")}

        # ---- 7 grand canal
        self.canal_a_place = a(_id("action-option", "grand-canal-a"), "servants_placed")
        self.canal_a_steps = a(_id("action-option", "grand-canal-a"), "ship_steps")
        self.canal_b_cost = a(_id("action-option", "grand-canal-b"), "servant_cost")
        self.canal_b_place = a(_id("action-option", "grand-canal-b"), "servants_placed")
        self.paths_by_players = a(_id("rule", "canal-paths"), "paths_by_players")
        self.paths_small = unk("canal-paths-small")["paths_1_to_3_players"]
        self.ship_capacity = a(_id("rule", "canal-claim-reward"), "servants_required")
        self.claim_to_board = a(_id("rule", "canal-claim-reward"), "servants_to_player_board")
        self.port_limits = a(_id("rule", "port-reward-limits"), "max_claims")
        self.ports = {e["attrs"]["number"]: e["attrs"] for e in rules.of_kind("port")}
        self.last_port = max(self.ports)
        self.first_port = min(self.ports)

        # ---- morning / night
        self.day_servants = unk("day-track-servants")
        self.night_per_match = a(_id("rule", "night-destiny-dice"), "servants_per_matching_card")
        self.night_vp = a(_id("rule", "night-most-matches"), "vp")
        self.night_palace = a(_id("rule", "night-most-matches"), "palace_steps")
        self.night_ship_steps = a(_id("step", "night-move-ships"), "ship_steps")

        # ---- end of game
        scoring = sorted(rules.of_kind("scoring-rule"), key=lambda e: e["order"])
        self.scoring_order = [e["key"] for e in scoring]
        self.end_wall_vp = a(_id("scoring-rule", "end-wall"), "vp")
        self.end_wall_palace = a(_id("scoring-rule", "end-wall"), "palace_steps")
        self.jade_vp = a(_id("scoring-rule", "end-jade"), "vp_by_jade")
        self.jade_vp_above = a(_id("scoring-rule", "end-jade"), "vp_per_jade_above_5")
        self.disq_score = a(_id("rule", "palace-disqualification"), "score_if_not_entered")

    def threshold(self, n: int) -> int:
        return self.wall_threshold[str(n)]

    def paths(self, n: int) -> int:
        return self.paths_by_players.get(n, self.paths_small)

    def jade_points(self, jade: int) -> int:
        top = max(self.jade_vp)
        if jade <= 0:
            return 0
        if jade <= top:
            return self.jade_vp[jade]
        return self.jade_vp[top] + (jade - top) * self.jade_vp_above
