"""Which games the touch table can play.

Its own module because both the configuration (the picker's default list) and the named
variants (the operator menu's rows) ask it, and neither may import the other.
"""

from __future__ import annotations


def table_can_play(game_id: str) -> bool:
    """The solitaires play on the pile table, the games against the computer on hand
    tables of their own (kiosk/screens/gin_table.py, poker_table.py, trick_table.py). A game
    against the computer without a table stays out of the picker: a visitor must never be
    offered a game the table cannot play."""
    import games

    return not games.listed(game_id).seated or game_id in HAND_TABLES  # nothing imported


#: the games against the computer the hand table can play
HAND_TABLES = frozenset({"gin_rummy", "draw_poker", "follow_the_rules"})
