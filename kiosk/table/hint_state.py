"""What one table knows and has asked about winning: the hint state its controller owns.

The solver's answers (:class:`kiosk.solving.hints.HintBook`), the position keys of this
deal, the Hint request and the live check that are out, and the verdict on show belong to
the table, not to the widget that draws them: a new controller starts with a clean state,
and the Kivy side (:class:`kiosk.screens.hinting.TableHelp`) keeps only the worker process,
the clock and the drawing. No Kivy here, so the decisions are tested without a window.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import games
from games import Move
from kiosk.solving import deals
from kiosk.solving.hints import LOST, UNKNOWN, WON, HintBook, Reply, hint_move

log = logging.getLogger("kiosk.hint_state")

#: how far back an Undo looks for a position known to be winnable (player actions)
UNDO_SEARCH = 40
#: the longest stored winning line replayed when a deal starts: the replay runs on the UI
#: thread (every move checked against the legal moves), and Snake's solver lines run to
#: 8,000-64,000 moves: 1.5 s of CPU for one of 15,000 on the x86 CI machine, minutes on a
#: 512 MB board under emulation, where the kiosk's watchdog (3 min) killed the app as Snake
#: opened. Longer lines are left to the hint worker, which answers within its budget.
KNOWN_LINE_LIMIT = 1500
#: ``(game_id, options) -> DealList | None``: where the stored winning lines come from
DealLists = Callable[[str, dict[str, Any]], Any]


class HintState:
    """The table's hint book, request state and verdict (see the module docstring)."""

    def __init__(self) -> None:
        self.book = HintBook()
        #: "won", "lost" or "" (nothing shown)
        self.shown = ""
        self.hint_req: int | None = None
        self.hint_key = b""
        self.check_req: int | None = None
        self.check_key = b""
        self.keys: dict[int, bytes] = {}      # moves made -> position key, this deal
        self.deal: tuple | None = None        # (game id, seed, options) of the book

    # ------------------------------------------------------------------ the table changed
    def follow(self, game: games.Game, what: str, lists: DealLists = deals.load) -> bool:
        """The position changed (``what`` as in ``on_change``). Returns True when the Hint
        request that was out is for a position that is gone (it is dropped)."""
        if what in ("start", "new_deal", "set_game", "restore") or self.deal is None:
            self._new_deal(game, lists)
        key = game.key()
        n = len(game.history)
        for k in [k for k in self.keys if k > n]:
            del self.keys[k]
        self.keys[n] = key
        stale = self.hint_req is not None and key != self.hint_key
        if stale:
            self.hint_req = None
        return stale

    def _new_deal(self, game: games.Game, lists: DealLists) -> None:
        """A new book for a new deal, with the stored winning line when the deal is one of
        the winnable list (so hints on it are instant)."""
        self.book.clear()
        self.keys.clear()
        self.deal = (game.info.id, game.seed, tuple(sorted(game.opts.items())))
        try:
            lst = lists(game.info.id, dict(game.opts))
            entry = lst.find(game.seed) if lst is not None else None
            if entry is not None and len(entry["moves"]) > KNOWN_LINE_LIMIT:
                log.info("the stored line of %s #%s is %d moves long: the worker answers",
                         *self.deal[:2], len(entry["moves"]))
            elif entry is not None:
                dealt = games.new(game.info.id, game.seed, **game.opts)
                line = deals.line(dealt, entry["moves"])
                if not self.book.add_known_line(dealt, line):
                    log.warning("the stored line of %s #%s does not win", *self.deal[:2])
        except Exception:  # noqa: BLE001 - without the line, the solver answers
            log.exception("reading the stored line failed")

    def verdict_of(self, game: games.Game) -> str:
        return self.book.verdict(game.key()) or ""

    # ------------------------------------------------------------------ the Hint button
    def ask(self, game: games.Game) -> tuple[str, Move | None]:
        """The Hint button: ``("move", m)`` known at once, ``("lost", None)`` proved lost,
        ``("search", None)`` the solver must be asked (:meth:`searching`)."""
        key = game.key()
        move = hint_move(game, self.book.next_move(key))
        if move is not None:
            return "move", move
        if self.book.verdict(key) == LOST:
            return "lost", None
        return "search", None

    def searching(self, game: games.Game, request: int) -> None:
        """The solver was asked for a hint on ``game``; a check of the same position is
        replaced by it."""
        key = game.key()
        if self.check_req is not None and self.check_key == key:
            self.check_req = None
        self.hint_key, self.hint_req = key, request

    def checking(self, game: games.Game, request: int) -> None:
        self.check_key, self.check_req = game.key(), request

    def answered(self, reply: Reply) -> str:
        """A reply of the worker: ``"hint"`` (it answers the Hint request), ``"check"``
        (the live check) or ``""`` (an old one). Its result goes into the book either way."""
        if reply.result != UNKNOWN:
            self.book.add(reply)
        if reply.id == self.hint_req:
            self.hint_req = None
            return "hint"
        if reply.id == self.check_req:
            self.check_req = None
            return "check"
        return ""

    def hint_for(self, game: games.Game, reply: Reply) -> Move | None:
        """The move to show for a winning reply (None: its first move is not legal here)."""
        return hint_move(game, self.book.next_move(reply.key))

    def drop(self) -> None:
        """No request is out any more (the table was left, the game ended)."""
        self.hint_req = self.check_req = None

    # ------------------------------------------------------------------ no win left
    def winnable_undos(self, game: games.Game, undo_groups: list[int]) -> int | None:
        """How many Undos lead back to the last position known to be winnable (None: not
        known within :data:`UNDO_SEARCH` player actions)."""
        n = len(game.history)
        for k, size in enumerate(reversed(undo_groups), 1):
            n -= size
            if k > UNDO_SEARCH or n < 0:
                return None
            key = self.keys.get(n)
            if key is None:
                return None
            if self.book.verdict(key) == WON:
                return k
        return None
