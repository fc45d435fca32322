"""Errors the engine raises. An illegal action names the rule it breaks; the state is unchanged."""
from __future__ import annotations


class EngineError(Exception):
    """Base class."""


class IllegalAction(EngineError):
    def __init__(self, rule: str, message: str):
        self.rule, self.message = rule, message
        super().__init__(f"{message} (rule {rule})")


class MalformedAction(EngineError):
    """The action is not an action of this game at all (wrong shape, unknown type)."""


class ScenarioError(EngineError):
    """A scenario file is invalid."""
