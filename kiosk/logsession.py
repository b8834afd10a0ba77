"""Connects the table's controller to the play log.

The table controller (``kiosk/controller.py``, the UI side) is a Kivy ``EventDispatcher``
that emits the events below; :class:`LogSession` binds to them and writes the
:class:`~kiosk.playlog.PlayLog`. No Kivy import here: anything with ``bind``/``unbind``
(Kivy style: every handler gets the controller first) works, and the tests use a stub.

The interface the log expects (:class:`TableEvents`):

==============================  =============================================================
``on_new_deal(game)``           a new game is on the table (picker, New deal button, key N,
                                attract mode). ``game`` is the :class:`games.Game`; when left
                                out the log reads ``controller.game``.
``on_move(move, source)``       a move was played and accepted by the engine. ``move`` is a
                                :class:`games.Move` or its notation text; ``source`` one of
                                ``touch``, ``button``, ``key``, ``auto`` (autoplay/settle
                                helpers the UI plays), ``demo`` (attract mode).
``on_undo(source='touch')``     one move was taken back.
``on_redo(source='touch')``     (optional) one undone move played again.
``on_won()``                    the game is won (the play ends as ``won`` at once).
``on_over()``                   no legal move is left: the play ends as ``lost`` when the
                                player leaves or deals again, unless an undo revives it.
``on_leave()``                  the player left the table: back to the picker, idle timeout,
                                attract mode interrupted, app stopping. An unfinished play
                                ends as ``abandoned``.
``on_hint()``                   a hint was shown (counted).
``on_touch()``                  a touch on the table (counted, not logged one by one).
``on_button(name)``             a hardware button press, ``new_deal`` or ``undo`` (counted).
==============================  =============================================================

``controller.demo`` (bool, optional) tells whether the table is playing the attract-mode demo
when a deal is made; such plays are logged with ``demo = 1`` and left out of statistics.

A deal nobody touches is not a play: the play row is written at the first move, undo or
hint, with the time of the deal as its start. When the app stops, call
:meth:`LogSession.close` (the play ends ``interrupted``), then ``PlayLog.close()``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable

from kiosk.playlog import Play, PlayLog

log = logging.getLogger("kiosk.logsession")

EVENTS = ("on_new_deal", "on_move", "on_undo", "on_redo", "on_won", "on_over", "on_leave",
          "on_hint", "on_touch", "on_button")


@runtime_checkable
class TableEvents(Protocol):
    """What the log needs from the table controller (see the module docstring)."""

    game: Any   # the games.Game on the table, or None before the first deal

    def bind(self, **handlers: Callable[..., Any]) -> Any: ...

    def unbind(self, **handlers: Callable[..., Any]) -> Any: ...


def cards_left(game: Any) -> int:
    """Cards not yet on a foundation or removed (discard pile)."""
    return sum(len(pile) for spec, pile in zip(game.layout, game.cards, strict=True)
               if spec.role not in ("foundation", "discard"))


def _safe(fn: Callable[..., None]) -> Callable[..., None]:
    """A handler that never raises into the UI's event loop."""

    def wrapper(self: LogSession, *args: Any, **kwargs: Any) -> None:
        try:
            fn(self, *args, **kwargs)
        except Exception:  # noqa: BLE001
            log.exception("play log handler %s failed", fn.__name__)

    wrapper.__name__ = fn.__name__
    wrapper.__doc__ = fn.__doc__
    return wrapper


class LogSession:
    """Writes one table's plays to a :class:`PlayLog`."""

    def __init__(self, playlog: PlayLog, controller: Any = None, *,
                 mono: Callable[[], float] | None = None) -> None:
        self.playlog = playlog
        self.controller: Any = None
        self.game: Any = None          # the game of the current deal
        self.play: Play | None = None  # its play, once something happened
        self.demo = False
        self.over = False
        self._deal_t = 0.0
        self._pending = {"touches": 0, "buttons": 0, "hints": 0}
        self._mono = mono or playlog._mono
        if controller is not None:
            self.attach(controller)

    # ------------------------------------------------------------------ wiring
    def attach(self, controller: Any) -> None:
        self.detach()
        self.controller = controller
        controller.bind(**self._handlers())
        if getattr(controller, "game", None) is not None:
            self._deal(controller.game)

    def detach(self) -> None:
        if self.controller is not None:
            try:
                self.controller.unbind(**self._handlers())
            except Exception:  # noqa: BLE001
                log.exception("unbind failed")
            self.controller = None

    def _handlers(self) -> dict[str, Callable[..., Any]]:
        return {name: getattr(self, name) for name in EVENTS}

    # ------------------------------------------------------------------ events
    @_safe
    def on_new_deal(self, controller: Any = None, game: Any = None, *args: Any) -> None:
        self._end("abandoned")
        self._deal(game if game is not None else getattr(controller, "game", None),
                   getattr(controller, "demo", False))

    @_safe
    def on_move(self, controller: Any, move: Any, source: str = "touch", *args: Any) -> None:
        game = self.game if self.game is not None else getattr(controller, "game", None)
        text = move if isinstance(move, str) else game.notation(move)
        play = self._play(controller)
        if play is None:
            return
        self.over = False
        self.playlog.move(play, text, "demo" if self.demo and source != "demo" else source)

    @_safe
    def on_undo(self, controller: Any = None, source: str = "touch", *args: Any) -> None:
        play = self._play(controller)
        if play is not None:
            self.over = False
            self.playlog.undo(play, source)

    @_safe
    def on_redo(self, controller: Any = None, source: str = "touch", *args: Any) -> None:
        play = self._play(controller)
        if play is not None:
            self.playlog.redo(play, source)

    @_safe
    def on_won(self, controller: Any = None, *args: Any) -> None:
        self._end("won")  # a deal won without a single move is not a play

    @_safe
    def on_over(self, controller: Any = None, *args: Any) -> None:
        self.over = True

    @_safe
    def on_leave(self, controller: Any = None, *args: Any) -> None:
        self._end("abandoned")
        self.game = None

    @_safe
    def on_hint(self, controller: Any = None, *args: Any) -> None:
        play = self._play(controller)
        if play is not None:
            self.playlog.count(play, hints=1)

    @_safe
    def on_touch(self, controller: Any = None, *args: Any) -> None:
        self._count("touches")

    @_safe
    def on_button(self, controller: Any = None, name: str = "", *args: Any) -> None:
        self._count("buttons")

    def close(self, result: str = "interrupted") -> None:
        """The app is stopping: end the open play (``interrupted`` by default)."""
        try:
            self._end(result)
            self.game = None
            self.detach()
        except Exception:  # noqa: BLE001
            log.exception("closing the log session failed")

    # ------------------------------------------------------------------ helpers
    def _deal(self, game: Any, demo: bool = False) -> None:
        self.game, self.demo, self.over = game, bool(demo), False
        self.play = None
        self._deal_t = self._mono()
        self._pending = {"touches": 0, "buttons": 0, "hints": 0}

    def _play(self, controller: Any = None) -> Play | None:
        """The current play, begun now if this is the first thing that happened."""
        if self.play is None or self.play.finished:
            if self.play is not None:
                return None  # the play is over (won): later events are not part of it
            if self.game is None:
                game = getattr(controller, "game", None)
                if game is None:
                    log.warning("table event before any deal ignored")
                    return None
                self._deal(game, getattr(controller, "demo", False))
            g = self.game
            self.play = self.playlog.begin(g.info.id, g.seed, dict(g.opts), demo=self.demo,
                                           t0=self._deal_t)
            p = self._pending
            self.playlog.count(self.play, touches=p["touches"], buttons=p["buttons"],
                               hints=p["hints"])
            self._pending = {"touches": 0, "buttons": 0, "hints": 0}
        return self.play

    def _count(self, what: str) -> None:
        if self.play is not None and not self.play.finished:
            self.playlog.count(self.play, **{what: 1})
        elif self.play is None:
            self._pending[what] += 1

    def _end(self, result: str) -> None:
        play = self.play
        if play is None or play.finished:
            return
        if result == "abandoned" and self.over:
            result = "lost"
        g = self.game
        score = left = None
        if g is not None:
            try:
                score, left = int(g.score), cards_left(g)
            except Exception:  # noqa: BLE001
                log.exception("cannot read the score")
        self.playlog.finish(play, result, score=score, cards_left=left)
