"""Errors the engine raises. An illegal action names the rule it breaks; the state is unchanged."""
from __future__ import annotations

from kb.messages import Message


class EngineError(Exception):
    """Base class."""


class SaidError(EngineError):
    """An error whose words are a catalog msgid and its parameters: `said` is rendered in the reader's
    language (i18n.catalog.render); str() is the English."""

    def __init__(self, message: str, /, **params):
        self.said = Message(message, **params)
        super().__init__(str(self.said))


class IllegalAction(EngineError):
    """`message` is a catalog msgid and `params` its parameters: `said` is rendered in the reader's language
    (i18n.catalog.render); `message` is the English."""

    def __init__(self, rule: str, message: str, /, **params):
        self.rule, self.said = rule, Message(message, **params)
        self.message = str(self.said)
        super().__init__(f"{self.message} (rule {rule})")


class MalformedAction(SaidError):
    """The action is not an action of this game at all (wrong shape, unknown type)."""


class SeatError(SaidError):
    """A game cannot be played by these players (their number, a name)."""


class NotBuilt(SaidError):
    """The knowledge base the engine reads its rules from is not built."""


class ScenarioError(SaidError):
    """A scenario file is invalid."""
