"""One shape for every game's rule constants (ARCHITECTURE.md, "Compiled rule sets").

A game's constants class declares, by rulebook chapter, where each constant lives in its compiled
rule set: `Attr("rule/end-game", "days")` is the attribute `days` of `<game>/rule/end-game`,
`Unknown("destiny-die-faces")` the value the unknowns register uses for a number the rulebooks do
not print. `RuleConstants` reads every declaration once per rule set (and edition, where a value
differs by edition); what must be computed from several values (a map's roads, a deck) is done in
the class's `derive`, which runs after the declared values are in place.
"""
from __future__ import annotations

from typing import Any

from engine.core.game import Rules


class Attr:
    """A constant: an attribute of an entity of the game's rule set ("kind/key")."""

    def __init__(self, entity: str, name: str):
        self.entity, self.name = entity, name


class Unknown(Attr):
    """A number printed only on components: the unknowns register's `value_used`."""

    def __init__(self, key: str):
        super().__init__(f"unknown/{key}", "value_used")


class RuleConstants:
    game: str  # the game key of the rule set

    def __init__(self, rules: Rules, edition: str | None = None):
        self.rules, self.edition = rules, edition
        for name, declared in self.declarations().items():
            setattr(self, name, self.attr(declared.entity, declared.name))
        self.derive()

    @classmethod
    def declarations(cls) -> dict[str, Attr]:
        out: dict[str, Attr] = {}
        for klass in reversed(cls.__mro__):
            out.update({k: v for k, v in vars(klass).items() if isinstance(v, Attr)})
        return out

    def attr(self, entity: str, name: str) -> Any:
        """An attribute of `<game>/<entity>`, for this rule set's edition."""
        return self.rules.attr(f"{self.game}/{entity}", name, self.edition)

    def unknown(self, key: str) -> Any:
        return self.attr(f"unknown/{key}", "value_used")

    def derive(self) -> None:
        """Constants computed from the declared ones and the rule set's entities."""
