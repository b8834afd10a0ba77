"""Computer players: functions of a :class:`~games.seats.View` and a seeded rng, by game
and level. They import nothing of the game objects, so they cannot see hidden cards."""

from __future__ import annotations

from ..model import GameError
from ..seats import Player

LEVELS = ("easy", "normal")


def player_for(game_id: str, level: str) -> Player:
    """The computer player of ``game_id`` at ``level`` (``easy`` or ``normal``)."""
    if game_id == "gin_rummy":
        from . import gin

        players = {"easy": gin.easy, "normal": gin.normal}
    elif game_id == "draw_poker":
        from . import poker

        players = {"easy": poker.easy, "normal": poker.normal}
    elif game_id == "follow_the_rules":
        from . import trick

        players = {"easy": trick.easy, "normal": trick.normal}
    else:
        raise GameError(f"{game_id} has no computer player")
    if level not in players:
        raise GameError(f"computer level must be one of {', '.join(LEVELS)}, not {level!r}")
    return players[level]
