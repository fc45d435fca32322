"""Every Gugong rule constant the engine uses, read once from the knowledge base (kb/data/gugong).

Nothing here is a typed-in rule number: each value comes from Rules.attr on the entity that states it
(or, for numbers printed only on components, from the unknowns register's `value_used`).
"""
from __future__ import annotations

from engine.core.consts import Attr, RuleConstants, Unknown
from kb.effects import resolved

G = "gugong"
TOKEN = "travel_token"  # what an exchange gives (the effect language's resource)


def _id(kind: str, key: str) -> str:
    return f"{G}/{kind}/{key}"


class Consts(RuleConstants):
    game = G

    # ---- components and setup
    servants_total = Attr("component/servants", "per_player")
    ships = Attr("location/grand-canal", "ships_per_player")
    dice = Attr("setup-step/destiny-dice", "dice")
    die_faces = Unknown("destiny-die-faces")
    display_cards = Attr("setup-step/gift-cards", "display_cards")
    decrees_per_level = Attr("setup-step/decrees", "drawn_per_level")
    decree_levels = Attr("setup-step/decrees", "levels")
    draw_piles = Attr("setup-step/travel-tokens", "draw_piles")
    vp_start = Attr("setup-step/vp-marker", "start_value")
    day_start = Attr("setup-step/day-marker", "start_space")
    # ---- morning
    morning_decree_level = Attr("step/morning-decree-bonuses", "decree_level")
    days = Attr("rule/end-game", "days")

    # ---- day: gift exchange
    exchange_servants = Attr("rule/exchange-pay-servants", "servant_cost")
    low_value = Attr("rule/value-one-exception", "low_value")
    high_value = Attr("rule/value-one-exception", "high_value")

    # ---- 1 travel
    token_slots = Attr("rule/travel-token-limit", "token_slots")
    token_mix = Unknown("travel-token-mix")
    bonus_mix = Unknown("bonus-travel-token-mix")  # variant gugong/variant/bonus-travel-tokens
    advanced_board_cards = Attr("rule/advanced-gift-deck", "board_cards")
    cities = Unknown("travel-map-cities")

    # ---- 2 great wall
    wall_threshold = Attr("rule/wall-completion", "threshold_by_players")
    wall_a_place = Attr("action-option/great-wall-a", "servants_placed")
    wall_b_cost = Attr("action-option/great-wall-b", "servant_cost")
    wall_b_max = Attr("action-option/great-wall-b", "servants_placed_max")
    rewards_per_player = Attr("rule/intrigue-rewards", "rewards_per_player")
    double_counts = Attr("rule/double-servant-placement", "counts_as_placed")
    double_removed = Attr("rule/double-servant-remove", "counts_as_removed")

    # ---- 3 jade
    jade_courtyard = Attr("rule/jade-courtyard", "courtyard_servant_cost")
    jade_gained = Attr("action-option/jade-action", "jade_gained")

    # ---- 4 intrigue
    intrigue_max = Attr("rule/intrigue-track-limit", "spaces")

    # ---- 5 palace
    palace_end = Attr("rule/palace-entry", "palace_track_spaces")

    # ---- 6 decrees
    decree_extra = Attr("action-option/decrees-action", "extra_cost_per_other_servant")
    decree_placed = Attr("action-option/decrees-action", "servants_placed")

    # ---- 7 grand canal
    canal_b_cost = Attr("action-option/grand-canal-b", "servant_cost")
    canal_b_place = Attr("action-option/grand-canal-b", "servants_placed")
    paths_by_players = Attr("rule/canal-paths", "paths_by_players")
    ship_capacity = Attr("rule/canal-claim-reward", "servants_required")
    port_limits = Attr("rule/port-reward-limits", "max_claims")

    # ---- morning / night
    day_servants = Unknown("day-track-servants")

    # ---- end of game
    jade_vp = Attr("scoring-rule/end-jade", "vp_by_jade")
    jade_vp_above = Attr("scoring-rule/end-jade", "vp_per_jade_above_5")
    disq_score = Attr("rule/palace-disqualification", "score_if_not_entered")

    def derive(self) -> None:
        rules = self.rules
        a = rules.attr
        unk = self.unknown

        # ---- components and setup
        starts = unk("track-start-spaces")
        self.intrigue_start, self.palace_start = starts["intrigue"], starts["palace"]

        # ---- gift cards (values/abilities printed only on the cards: unknowns register)
        deck = unk("gift-card-deck")
        abil = unk("gift-card-abilities")
        self.card_value = {c: d["value"] for c, d in deck.items()}
        self.card_setup = {c: d["setup"] for c, d in deck.items()}
        self.card_ability = {c: (None if abil[c] == "none" else abil[c]) for c in deck}
        self.cards = sorted(deck)
        self.card_abilities = {e["key"]: e for e in rules.of_kind("card-ability")}

        # locations in rulebook order (their `order`)
        locs = sorted(rules.of_kind("location"), key=lambda e: e["order"])
        self.locations = [e["key"] for e in locs]

        # ---- 1 travel
        self.travel = {o: (a(_id("action-option", f"travel-{o.lower()}"), "servant_cost"),
                           a(_id("action-option", f"travel-{o.lower()}"), "moves")) for o in "AB"}
        # the token exchanges: the rules under the exchange rule, in its order, each one exchange step
        # (what it gives for how many tokens is read from the step); run from their effects
        exchange = _id("rule", "travel-token-exchange")
        self.token_rates, self.token_exchanges = {}, {}
        for e in sorted((e for e in rules.of_kind("rule") if e["parent"] == exchange), key=lambda e: e["order"]):
            (step,) = e["effect"]
            args = resolved(step["exchange"], e["attrs"])
            (what, amount), = args["get"].items()
            self.token_rates[what] = (args["give"][TOKEN], (what, amount))
            self.token_exchanges[what] = e["id"]
        self.fewest_tokens = min(need for need, _ in self.token_rates.values())
        # the double token: the one whose effect sets what it counts as in an exchange (its modify step)
        (self.double_token, self.double_token_counts), = (
            (e["key"], resolved(step["modify"], e["attrs"])["to"]) for e in rules.of_kind("token")
            for step in e["effect"] or [] if "modify" in step and step["modify"]["target"] == exchange)
        self.token_attrs = {e["key"]: e["attrs"] for e in rules.of_kind("token")
                            if e["key"] in self.token_mix or e["key"] in self.bonus_mix}
        self.roads = [[] for _ in range(self.cities)]
        for x, y in unk("travel-map-roads"):
            self.roads[x].append(y)
            self.roads[y].append(x)

        # ---- 2 great wall
        self.intrigue_rewards = {e["key"]: e["attrs"] for e in rules.of_kind("reward")}

        # ---- 3 jade
        self.jade_houses = [dict(h) for h in unk("jade-houses")["houses"]]

        # ---- 4 intrigue
        self.intrigue = {o: (a(_id("action-option", f"intrigue-{o.lower()}"), "servant_cost"),
                             a(_id("action-option", f"intrigue-{o.lower()}"), "intrigue_steps")) for o in "AB"}

        # ---- 5 palace
        self.palace_b = (a(_id("action-option", "palace-b"), "servant_cost"), a(_id("action-option", "palace-b"), "palace_steps"),
                         a(_id("action-option", "palace-b"), "intrigue_steps"))
        spots = unk("palace-vp-spots")
        self.palace_spots = [spots[k] for k in sorted(spots)]

        # ---- 6 decrees
        self.decrees = {e["key"]: e["attrs"] for e in rules.of_kind("decree")}

        # ---- 7 grand canal
        self.paths_small = unk("canal-paths-small")["paths_1_to_3_players"]
        self.ports = {e["attrs"]["number"]: e["attrs"] for e in rules.of_kind("port")}
        self.port_ids = {e["attrs"]["number"]: e["id"] for e in rules.of_kind("port")}
        self.last_port = max(self.ports)
        self.first_port = min(self.ports)

        # ---- end of game
        scoring = sorted(rules.of_kind("scoring-rule"), key=lambda e: e["order"])
        self.scoring_order = [e["key"] for e in scoring]

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
