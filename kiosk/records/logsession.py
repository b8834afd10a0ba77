"""Connects a table's controller (:mod:`kiosk.table.controller`) to the play log.

:class:`LogSession` binds to the controller's events and writes the
:class:`~kiosk.records.playlog.PlayLog`. No Kivy here; anything that satisfies :class:`TableEvents`
works (the tests use the real :class:`kiosk.table.controller.TableController`).

The events it expects, with the arguments the controller passes (no controller argument;
extra arguments are ignored, so the controller may add some):

==================================  =========================================================
``on_new_deal(game, old, source)``  a new deal of the same game (New deal button, key N).
``on_move(move, source)``           a move the engine accepted; ``move`` is a
                                    :class:`games.Move` (or its notation text).
``on_undo(undone, source)``         one player undo; ``undone`` is the list of engine moves
                                    it took back (a move with its autoplay moves), or their
                                    number.
``on_won(game)``                    won: the play ends ``won`` at once.
``on_over(game)``                   no move left: the play ends ``lost`` when the player
                                    leaves or deals again, unless an undo revives it first.
``on_leave(game, source)``          the player left the table (Home, picker, idle timeout):
                                    an unfinished play ends ``abandoned``.
==================================  =========================================================

Optional events, bound when the controller has them: ``on_change(what)`` (``set_game``:
another game object was put on the table), ``on_hint()``, ``on_touch()``,
``on_button(name)``, ``on_restore(game, dropped, source)`` (Undo brought back a game that a
new deal or Home had put aside: the fresh deal's play, if any, ends ``abandoned``, a
``restored`` event names the game, and the game goes on as a new play). The kiosk's :class:`~kiosk.table.controller.TableController` has them
all and takes the session with ``keep_log``, so everything the log counts comes from the
table's controller; :meth:`LogSession.hint`, :meth:`LogSession.touch` and
:meth:`LogSession.button` remain for a controller without those events.
``controller.demo`` (bool, optional) marks attract-mode plays.

Sources are stored as ``touch``, ``button`` (hardware button), ``key``, ``auto`` or
``demo``: the controller's ``tap``/``drag``/``button`` (an on-screen button is a touch)
become ``touch``, and ``gpio`` becomes ``button`` (:data:`SOURCE_MAP`).

A deal nobody touches is not a play: the play row is written at the first move, undo or
hint, with the time of the deal as its start. A new controller (:meth:`LogSession.attach`)
ends the open play of the previous one as ``abandoned``. When the app stops, call
:meth:`LogSession.close` (the open play ends ``interrupted``), then ``PlayLog.close()``.
Handlers never raise (a log problem must not reach the visitor).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable

from kiosk.records.playlog import SOURCES, Play, PlayLog

log = logging.getLogger("kiosk.logsession")

EVENTS = ("on_new_deal", "on_move", "on_undo", "on_won", "on_over", "on_leave")
OPTIONAL_EVENTS = ("on_change", "on_hint", "on_touch", "on_button", "on_restore")
SOURCE_MAP = {"tap": "touch", "drag": "touch", "button": "touch", "gpio": "button"}


@runtime_checkable
class TableEvents(Protocol):
    """What the log needs from a table controller (see the module docstring)."""

    game: Any   # the games.Game on the table

    def bind(self, **handlers: Callable[..., Any]) -> Any: ...

    def unbind(self, **handlers: Callable[..., Any]) -> Any: ...


def cards_left(game: Any) -> int:
    """Cards not yet on a foundation or removed (discard pile)."""
    return sum(len(pile) for spec, pile in zip(game.layout, game.cards, strict=True)
               if spec.role not in ("foundation", "discard"))


def source_name(source: Any) -> str:
    s = SOURCE_MAP.get(str(source), str(source))
    return s if s in SOURCES else "touch"


def _safe(fn: Callable[..., None]) -> Callable[..., None]:
    """A handler that never raises into the UI."""

    def wrapper(self: LogSession, *args: Any, **kwargs: Any) -> None:
        try:
            fn(self, *args, **kwargs)
        except Exception:  # noqa: BLE001
            log.exception("play log handler %s failed", fn.__name__)

    wrapper.__name__ = fn.__name__
    wrapper.__doc__ = fn.__doc__
    return wrapper


class LogSession:
    """Writes the plays of the table's controller to a :class:`PlayLog`."""

    def __init__(self, playlog: PlayLog, controller: Any = None) -> None:
        self.playlog = playlog
        self.controller: Any = None
        self.game: Any = None          # the game of the current deal
        self.play: Play | None = None  # its play, once something happened
        self.demo = False
        self.over = False
        self._bound: dict[str, Callable[..., Any]] = {}
        self._deal_t = 0.0
        self._pending = {"touches": 0, "buttons": 0, "hints": 0}
        if controller is not None:
            self.attach(controller)

    # ------------------------------------------------------------------ wiring
    def attach(self, controller: Any) -> None:
        """Follow ``controller`` (the app makes one per game it opens)."""
        if controller is self.controller:
            return
        self._safe_end("abandoned")
        self.detach()
        self.controller = controller
        for name in EVENTS + OPTIONAL_EVENTS:
            handler = getattr(self, name)
            try:
                controller.bind(**{name: handler})
            except (ValueError, KeyError, AttributeError):
                if name in EVENTS:
                    log.error("the table controller has no event %s", name)
                continue
            self._bound[name] = handler
        game = getattr(controller, "game", None)
        if game is not None:
            self._deal(game, getattr(controller, "demo", False))

    def detach(self) -> None:
        if self.controller is not None:
            for name, handler in self._bound.items():
                try:
                    self.controller.unbind(**{name: handler})
                except Exception:  # noqa: BLE001
                    log.exception("unbind %s failed", name)
            self._bound.clear()
            self.controller = None

    def close(self, result: str = "interrupted") -> None:
        """The app is stopping: end the open play (``interrupted`` by default) and unbind."""
        self._safe_end(result)
        self.game = None
        self.detach()

    # ------------------------------------------------------------------ controller events
    @_safe
    def on_new_deal(self, game: Any = None, *args: Any) -> None:
        self._end("abandoned")
        self._deal(game if game is not None else getattr(self.controller, "game", None),
                   getattr(self.controller, "demo", False))

    @_safe
    def on_move(self, move: Any, source: Any = "touch", *args: Any) -> None:
        game = self._game()
        text = move if isinstance(move, str) else game.notation(move)
        play = self._play()
        if play is None:
            return
        self.over = False
        self.playlog.move(play, text, "demo" if self.demo else source_name(source))
        if hasattr(game, "hand_records"):  # a game against the computer: its hands, its match
            self.playlog.seated(play, game)

    @_safe
    def on_undo(self, undone: Any = 1, source: Any = "touch", *args: Any) -> None:
        n = undone if isinstance(undone, int) else len(undone)
        play = self._play()
        if play is not None and n > 0:
            self.over = False
            self.playlog.undo(play, "demo" if self.demo else source_name(source), n=n)

    @_safe
    def on_won(self, *args: Any) -> None:
        self._end("won")  # a deal "won" without a single move is not a play

    @_safe
    def on_over(self, *args: Any) -> None:
        self.over = True

    @_safe
    def on_leave(self, *args: Any) -> None:
        self._end("abandoned")
        self.play = None
        self.game = None

    @_safe
    def on_change(self, what: Any = None, *args: Any) -> None:
        """``set_game``: the controller adopted another game object (a saved game)."""
        game = getattr(self.controller, "game", None)
        if what == "set_game" and game is not None and game is not self.game:
            self._end("abandoned")
            self._deal(game, getattr(self.controller, "demo", False))

    @_safe
    def on_restore(self, game: Any = None, dropped: Any = None, source: Any = "touch",
                   *args: Any) -> None:
        self._end("abandoned")
        if game is None:
            return
        self.playlog.event("restored", {"game": game.info.id, "seed": game.seed,
                                        "moves": len(game.history),
                                        "dropped_seed": getattr(dropped, "seed", None),
                                        "source": source_name(source)})
        self._deal(game, getattr(self.controller, "demo", False))

    @_safe
    def on_hint(self, *args: Any) -> None:
        self.hint()

    @_safe
    def on_touch(self, *args: Any) -> None:
        self.touch()

    @_safe
    def on_button(self, *args: Any) -> None:
        self.button()

    # ------------------------------------------------------------------ counters (app calls)
    def hint(self) -> None:
        """A hint was shown (it makes the deal a play)."""
        try:
            play = self._play()
            if play is not None:
                self.playlog.count(play, hints=1)
        except Exception:  # noqa: BLE001
            log.exception("counting a hint failed")

    def touch(self) -> None:
        """A touch on the table (counted with the play, not logged one by one)."""
        self._count("touches")

    def button(self, name: str = "") -> None:
        """A hardware button press."""
        self._count("buttons")

    # ------------------------------------------------------------------ helpers
    def _game(self) -> Any:
        return self.game if self.game is not None else getattr(self.controller, "game", None)

    def _deal(self, game: Any, demo: bool = False) -> None:
        self.game, self.demo, self.over = game, bool(demo), False
        self.play = None
        self._deal_t = self.playlog._mono()
        self._pending = {"touches": 0, "buttons": 0, "hints": 0}

    def _play(self) -> Play | None:
        """The current play, begun now if this is the first thing that happened."""
        if self.play is not None:
            return None if self.play.finished else self.play
        if self.game is None:
            game = getattr(self.controller, "game", None)
            if game is None:
                log.warning("table event before any deal ignored")
                return None
            self._deal(game, getattr(self.controller, "demo", False))
        g = self.game
        self.play = self.playlog.begin(g.info.id, g.seed, dict(g.opts), demo=self.demo,
                                       t0=self._deal_t)
        p = self._pending
        self.playlog.count(self.play, touches=p["touches"], buttons=p["buttons"],
                           hints=p["hints"])
        self._pending = {"touches": 0, "buttons": 0, "hints": 0}
        return self.play

    def _count(self, what: str) -> None:
        try:
            if self.play is None:
                self._pending[what] += 1
            elif not self.play.finished:
                self.playlog.count(self.play, **{what: 1})
        except Exception:  # noqa: BLE001
            log.exception("counting failed")

    def _safe_end(self, result: str) -> None:
        try:
            self._end(result)
        except Exception:  # noqa: BLE001
            log.exception("ending the play failed")

    def _end(self, result: str) -> None:
        play = self.play
        if play is None or play.finished:
            return
        if result in ("abandoned", "interrupted") and self.over:
            result = "lost"
        g = self.game
        score = left = None
        if g is not None:
            try:
                score, left = int(g.score), cards_left(g)
            except Exception:  # noqa: BLE001
                log.exception("cannot read the score")
        self.playlog.finish(play, result, score=score, cards_left=left)
