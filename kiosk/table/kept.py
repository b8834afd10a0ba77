"""The tables a visitor left, kept until they sit down at that game again.

Why its own small room and not the lobby's: what is kept, for how long and how much is a
rule about tables, not about timers or buttons; kept here without Kivy it is tested with
plain controllers (tests/lobby/test_kept_tables.py). The lobby only tells it when a table
is left, when a visitor sits down, and when the visit ends.

One shelf per game and variant (a variant is a table of its own: Gin against the easy
computer is not the normal one's match): leaving a game puts its table there, whatever
other games are played meanwhile; sitting down at that game again hands its games to the
new table (:meth:`TableController.shelve_from`: Undo brings a solitaire's back, a match
against the computer comes back at once). At most :data:`KEPT_TABLES` are kept, the
longest left let go first; an untouched deal keeps nothing and pushes nothing out.
"""

from __future__ import annotations

from typing import Any

#: how many left tables (one a game and variant) are kept for the visitor at most
KEPT_TABLES = 6


def kept_key(controller: Any) -> tuple[str, str]:
    """A left table's shelf: its game and its options."""
    return controller.game_id, repr(sorted(controller.options.items()))


class KeptTables:
    """The left tables of one visit, oldest first."""

    def __init__(self, limit: int = KEPT_TABLES) -> None:
        self.limit = limit
        self._tables: dict[tuple[str, str], Any] = {}

    def left(self, controller: Any) -> None:
        """``controller``'s table was left (Home, the picker button): keep it, if it has
        anything to keep, on its game's shelf."""
        if controller.demo or not controller.keeps_something:
            return
        key = kept_key(controller)
        self._tables.pop(key, None)
        self._tables[key] = controller
        while len(self._tables) > self.limit:  # the longest left goes first
            self._tables.pop(next(iter(self._tables))).drop_shelf()

    def sat(self, controller: Any) -> None:
        """A visitor sat down at ``controller``: the games kept for its game and variant
        go to it."""
        kept = self._tables.pop(kept_key(controller), None)
        if kept is not None and not controller.demo:
            controller.shelve_from(kept)

    @property
    def games(self) -> list[tuple[str, str]]:
        """(game, options) of every table kept, the longest left first."""
        return list(self._tables)

    def forget(self) -> None:
        """The visit is over: the next visitor finds nothing."""
        for table in self._tables.values():
            table.drop_shelf()
        self._tables.clear()
