"""The engine core shared by every game: seeded randomness, the Game protocol, scenarios, play."""
from engine.core.errors import EngineError, IllegalAction, MalformedAction, ScenarioError
from engine.core.game import Game, PhasedGame, Rules, get_game
from engine.core.rng import Rng

__all__ = ["EngineError", "Game", "IllegalAction", "MalformedAction", "PhasedGame", "Rng", "Rules", "ScenarioError",
           "get_game"]
