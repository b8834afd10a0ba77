"""The rules engine: every game of the catalog, pure Python, no UI, no I/O, no clock.

>>> import games
>>> g = games.new("golf", 7)
>>> m = g.legal_moves()[0]
>>> g.play(m); g.undo() == m
True
"""

from .engine.game import Game
from .engine.model import GameError, GameInfo, IllegalMove, Move, Option, PileSpec
from .engine.registry import catalog, from_json, game_class, ids, listed, new, register, summary

__all__ = [
    "Game", "GameError", "GameInfo", "IllegalMove", "Move", "Option", "PileSpec",
    "catalog", "from_json", "game_class", "ids", "listed", "new", "register", "summary",
]
