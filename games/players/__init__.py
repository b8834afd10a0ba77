"""Computer players: functions of a :class:`~games.families.seats.View` and a seeded rng, by game
and level. They import nothing of the game objects, so they cannot see hidden cards."""

from __future__ import annotations

from ..engine.model import GameError
from ..families.seats import Player

LEVELS = ("easy", "normal")


#: what each level of each game's computer player does, as the level sheet tells a visitor
#: (English msgids of the kiosk catalog, which keeps them as texts looked up from data; not
#: marked, since a marked text in games/ is taken for an engine reason): the players differ
#: by game, so their words do too
LEVEL_TEXTS: dict[str, dict[str, str]] = {
    "gin_rummy": {
        "easy": "The computer plays simply and now and then carelessly.",
        "normal": "The computer plays its best: it watches what you pick up.",
    },
    "follow_the_rules": {
        "easy": "The computer plays simply and now and then carelessly.",
        "normal": ("The computer plays its best: it remembers every card played and plays "
                   "the last six tricks perfectly."),
    },
    "draw_poker": {
        "easy": "The computer plays simply and calls too often.",
        "normal": ("The computer plays its best: it weighs its chances before every bet "
                   "and now and then bluffs."),
    },
}


def level_text(game_id: str, level: str) -> str:
    """The sentence that tells a visitor how ``game_id``'s computer plays at ``level``
    ("" for a game or level without one)."""
    return LEVEL_TEXTS.get(game_id, {}).get(level, "")


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
