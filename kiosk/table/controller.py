"""One table's controller: the only door through which anything changes a game.

Touches, keys, the hardware buttons, autoplay and the idle timer all call these methods on
the Kivy main thread, so an animation, a button press and a touch can never race. The
controller imports no Kivy: it owns the engine game, the deal number and the play time, and
tells listeners what happened (``on_move``, ``on_new_deal``, ``on_undo``, ``on_won``,
``on_over``, ``on_leave``, ``on_hint``, ``on_refused``, ``on_touch``, ``on_button``,
``on_idle``, ``on_restore``; ``on_change`` after every change of the position). The path is one way: whoever
asks calls the controller, never the screen or the view, and the view redraws once from
``on_change``; the screen and the play log listen to the same events.

It also owns what belongs to one table besides the game: its log session
(:meth:`keep_log`: the :class:`kiosk.records.logsession.LogSession` follows only this
controller's events, so touches, button presses and hints reach the log through here too)
and its idle deadline (:meth:`watch_idle`: the controller knows when the last input was and
decides when the table has been left alone; the lobby only lends a clock and hears
``on_idle``), and its hint state (:attr:`hints`, a
:class:`kiosk.table.hint_state.HintState`: the solver's answers for this deal, the Hint
request out, the verdict on show; the table screen's help only draws it).
"""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Callable
from typing import Any

import games
from games import GameError, IllegalMove, Move
from games.engine.reason import Reason
from games.engine.rng import HIDDEN_SEED_BITS, hidden_seed, is_hidden
from kiosk.table.hint_state import HintState

log = logging.getLogger("kiosk.controller")

EVENTS = ("on_move", "on_new_deal", "on_undo", "on_won", "on_over", "on_leave", "on_change",
          "on_hint", "on_refused", "on_touch", "on_button", "on_idle", "on_idle_warning", "on_restore")
#: ``on_refused(what, source)``: an Undo with nothing to take back (the screen says so)
NOTHING_TO_UNDO = "nothing_to_undo"

#: games in progress a new deal (or Home) put aside for Undo to bring back, per table
SHELF_SIZE = 3

#: ``timer(delay, fn)`` calls ``fn()`` after ``delay`` seconds and returns a cancel function
Timer = Callable[[float, Callable[[], None]], Callable[[], None]]
#: what the table says about a due autoplay step: None (play), "wait" (a card is being
#: dragged: try again later) or "stop" (the table is not shown)
AutoplayHold = Callable[[], "str | None"]


class TableController:
    """Owns one game at the table.

    ``play(move, source)`` is the single entry for every change of the position; ``source``
    says who asked ("tap", "drag", "button", "key", "auto", "gpio"), which the log records.
    Undo takes back a player's action together with the autoplay moves it caused.

    A new deal never loses a game in progress: the game goes on a small shelf, and Undo on
    the fresh deal (nothing of it left to take back) brings it back as it was
    (``on_restore``). A lobby has children pressing the New deal button; a confirmation
    would be answered by the next press, an Undo that always works is not.
    """

    def __init__(self, game_id: str, seed: int | None = None, options: dict[str, Any] | None
                 = None, *, autoplay: bool = True,
                 clock: Callable[[], float] = time.monotonic,
                 seeds: Callable[[], int | None] | None = None, demo: bool = False) -> None:
        self.game_id = game_id
        self.options = dict(options or {})
        self.autoplay = autoplay
        #: an attract-mode table: the log session marks (or skips) its plays
        self.demo = demo
        self._clock = clock
        #: where random deals come from (e.g. the winnable-deal list); None: any deal number
        self._seeds = seeds
        self._listeners: dict[str, list[Callable[..., None]]] = {e: [] for e in EVENTS}
        self.game: games.Game = games.new(game_id, self._seed(seed), **self.options)
        self._groups: list[int] = []      # engine moves per player action, for undo
        self._started: float | None = None
        self._stopped: float | None = None
        self._finished = False
        self._timer: Timer | None = None
        self._auto_delay = 0.0
        self._auto_hold: AutoplayHold = lambda: None
        self._auto_cancel: Callable[[], None] | None = None
        #: what this table knows and has asked about winning (drawn by the screen's help)
        self.hints = HintState()
        #: the LogSession writing this table's plays (None: not logged, e.g. a demo)
        self.log_session: Any = None
        #: when the last input came (the clock's time; None: not watched yet)
        self.last_input: float | None = None
        self._idle_timeout: float | None = None
        self._idle_timer: Timer | None = None
        self._idle_cancel: Callable[[], None] | None = None
        #: when the pending due call comes (the clock's time)
        self._idle_due_at = 0.0
        #: seconds before the deadline when ``on_idle_warning`` asks "Still playing?"
        self._idle_warn = 0.0
        #: the ``last_input`` that warning was given for (an input since: warn again)
        self._warned_for: float | None = None
        #: games put aside by a new deal, newest last: (game, undo groups, seconds played)
        self._shelf: list[tuple[games.Game, list[int], float]] = []

    # ------------------------------------------------------------------ events
    def bind(self, **handlers: Callable[..., None]) -> None:
        """``controller.bind(on_move=f)``: like Kivy's bind, without Kivy."""
        for name, fn in handlers.items():
            if name not in self._listeners:
                raise ValueError(f"no event {name}")
            self._listeners[name].append(fn)

    def unbind(self, **handlers: Callable[..., None]) -> None:
        for name, fn in handlers.items():
            if fn in self._listeners.get(name, ()):
                self._listeners[name].remove(fn)

    def _emit(self, name: str, *args: Any) -> None:
        for fn in list(self._listeners[name]):
            try:
                fn(*args)
            except Exception:  # a listener's bug must not stop the game
                log.exception("listener of %s failed", name)

    # ------------------------------------------------------------------ deals
    def _seed(self, seed: int | None) -> int:
        """The seed of a new deal: ``seed`` when asked for one; for a game against the
        computer a hidden seed of 128 secret bits (its hidden hands must not follow from
        the cards the visitor sees, as they would from a deal number anyone can search);
        for a solitaire a public deal number, from the deal list when there is one."""
        if seed is not None:
            return seed
        if games.listed(self.game_id).seated:
            return hidden_seed(secrets.randbits(HIDDEN_SEED_BITS))
        if self._seeds is not None:
            try:
                seed = self._seeds()
            except Exception:  # a broken deal list must not stop the game
                log.exception("choosing a deal failed")
        return seed if seed is not None else secrets.randbelow(999_999) + 1

    @property
    def reference(self) -> str:
        """What a visitor or support may be told about this deal: the deal number of a
        solitaire, the play's number in the log for a hand against the computer (the
        operator replays it from the log; nobody can deal from it)."""
        if not is_hidden(self.game.seed):
            return str(self.game.seed)
        play = getattr(self.log_session, "play", None)
        play_id = getattr(play, "id", None) if play is not None else None
        return f"P{play_id}" if play_id is not None else ""

    @property
    def seed(self) -> int:
        return self.game.seed

    def new_deal(self, seed: int | None = None, source: str = "button") -> None:
        """Deal again (a new random deal unless ``seed`` is given)."""
        old = self.game
        self._shelve(old, self._groups, self.elapsed())
        self.game = games.new(self.game_id, self._seed(seed), **self.options)
        self._groups = []
        self._started = self._stopped = None
        self._finished = False
        self._emit("on_new_deal", self.game, old, source)
        self._emit("on_change", "new_deal")

    def _shelve(self, game: games.Game, groups: list[int], played: float) -> None:
        """Keep a game in progress for Undo; an untouched or finished deal is not kept."""
        if not game.history or game.won:
            return
        self._shelf.append((game, list(groups), played))
        del self._shelf[:-SHELF_SIZE]

    def shelve_from(self, other: TableController) -> None:
        """Take over the games ``other`` put aside, and its game if it was in progress (the
        visitor left with Home and sat down at the same game again: Undo brings it back)."""
        if other is self or other.game_id != self.game_id or other.options != self.options:
            return
        self._shelf = list(other._shelf)
        self._shelve(other.game, other._groups, other.elapsed())
        other._shelf = []

    @property
    def keeps_something(self) -> bool:
        """Leaving this table would keep a game: one in progress, or one put aside."""
        return bool(self._shelf) or (bool(self.game.history) and not self.game.won)

    def drop_shelf(self) -> None:
        """Forget the games put aside (the visitor has gone: the next one starts afresh)."""
        self._shelf.clear()

    @property
    def shelf_top(self) -> games.Game | None:
        """The game Undo would bring back (a table against the computer looks whether it is
        a match worth bringing back at once)."""
        return self._shelf[-1][0] if self._shelf else None

    @property
    def shelved(self) -> int:
        """How many games put aside Undo can still bring back."""
        return len(self._shelf)

    def set_game(self, game: games.Game) -> None:
        """Adopt a game object made elsewhere (a constructed position, a saved game)."""
        self.game = game
        self.game_id = game.info.id
        self._groups = [1] * len(game.history)
        self._started = self._stopped = None
        self._finished = False
        self._emit("on_change", "set_game")

    def leave(self, source: str = "button") -> None:
        """The player leaves the table (Home, idle timeout)."""
        self.cancel_autoplay()
        self.stop_idle()
        self._stop_clock()
        if source == "idle":
            self.drop_shelf()
        self._emit("on_leave", self.game, source)

    # ------------------------------------------------------------------ moves
    def legal_moves(self) -> list[Move]:
        return self.game.legal_moves()

    def why_illegal(self, move: Move) -> Reason | None:
        try:
            return self.game.why_illegal(move)
        except Exception:  # an engine bug on odd input must not reach the visitor
            log.exception("why_illegal failed for %r", move)
            return Reason("That move is not possible now.")

    def play(self, move: Move, source: str = "tap", *, group: bool = False
             ) -> Reason | str | None:
        """Play ``move``; returns None when done, or the engine's reason when refused.

        ``group=True`` joins the move to the previous player action for undo (autoplay).
        """
        if self._finished and self.game.won:
            return Reason("The game is already won.")
        try:
            self.game.play(move)
        except IllegalMove as err:
            return err.reason
        except GameError as err:
            return str(err)
        if self._started is None:
            self._started = self._clock()
        if group and self._groups:
            self._groups[-1] += 1
        else:
            self._groups.append(1)
        self._emit("on_move", move, source)
        self._emit("on_change", "move")
        self._check_end()
        return None

    def drive_autoplay(self, timer: Timer, delay: float,
                       hold: AutoplayHold = lambda: None) -> None:
        """Let autoplay follow a player's move by itself: ``delay`` seconds after the move
        (the card's flight), then one safe move every ``0.7 * delay``. The table that shows
        this controller gives its clock (``timer``, Kivy's on the kiosk) and says when a step
        must wait or stop (``hold``); the timing itself lives here, with the game."""
        self.cancel_autoplay()
        self._timer, self._auto_delay, self._auto_hold = timer, delay, hold

    def autoplay_soon(self) -> None:
        """A player's move was played: autoplay follows after the card's flight."""
        self._schedule_autoplay(self._auto_delay)

    def cancel_autoplay(self) -> None:
        if self._auto_cancel is not None:
            self._auto_cancel()
        self._auto_cancel = None

    def _schedule_autoplay(self, delay: float) -> None:
        self.cancel_autoplay()
        if self.autoplay and self._timer is not None:
            self._auto_cancel = self._timer(delay, self._autoplay_due)

    def _autoplay_due(self) -> None:
        self._auto_cancel = None
        hold = self._auto_hold()
        if hold == "stop":
            return
        if hold == "wait":
            self._schedule_autoplay(self._auto_delay)
            return
        if self.autoplay_step() is not None:
            self._schedule_autoplay(self._auto_delay * 0.7)

    def autoplay_step(self) -> Move | None:
        """Play one safe foundation move if autoplay is on; returns it (the view animates it)."""
        if not self.autoplay or self.game.won:
            return None
        try:
            move = self.game.safe_autoplay()
        except Exception:
            log.exception("safe_autoplay failed")
            return None
        if move is None or self.play(move, "auto", group=True) is not None:
            return None
        return move

    def undo(self, source: str = "button") -> bool:
        """Take back the last player action (and the autoplay moves it caused)."""
        self.cancel_autoplay()
        if not self.game.can_undo:
            if self._shelf:
                self._restore(source)
                return True
            self._emit("on_refused", NOTHING_TO_UNDO, source)
            return False
        count = self._groups.pop() if self._groups else 1
        undone = []
        for _ in range(count):
            if not self.game.can_undo:
                break
            undone.append(self.game.undo())
        self._finished = False
        self._stopped = None
        self._emit("on_undo", undone, source)
        self._emit("on_change", "undo")
        return True

    def _restore(self, source: str) -> None:
        """Bring back the game the last new deal put aside; the fresh deal is dropped."""
        dropped = self.game
        self.game, groups, played = self._shelf.pop()
        self._groups = groups
        self._started, self._stopped = self._clock() - played, None
        self._finished = False
        self._emit("on_restore", self.game, dropped, source)
        self._emit("on_change", "restore")

    @property
    def can_undo(self) -> bool:
        """Undo would do something: take back a move, or bring back a game put aside."""
        return self.game.can_undo or bool(self._shelf)

    @property
    def undo_groups(self) -> list[int]:
        """Engine moves per player action, oldest first (what each Undo takes back)."""
        return list(self._groups)

    def hint_shown(self) -> None:
        """The table showed a hint (the play log counts it: ``on_hint``)."""
        self._emit("on_hint")

    # ------------------------------------------------------------------ the log session
    def keep_log(self, session: Any) -> None:
        """Write this table's plays with ``session`` (a LogSession; the lobby opens the play
        log file and hands each visitor's table the one pen). A demo table is never logged.
        Attaching ends the open play of the table the session followed before
        (``abandoned``), so a play never outlives its table."""
        if session is None or self.demo:
            return
        self.log_session = session
        session.attach(self)

    def touched(self) -> None:
        """A finger touched this table (counted with the play: ``on_touch``)."""
        self._emit("on_touch")

    def pressed(self, name: str = "") -> None:
        """A hardware button was pressed at this table (``on_button``; one per press, not
        per repeat of a held button)."""
        self._emit("on_button", name)

    # ------------------------------------------------------------------ idle
    def watch_idle(self, timeout: float, timer: Timer, warn: float = 0.0) -> None:
        """Input happened at this table; with no more input for ``timeout`` seconds the
        player has left: the controller leaves (``leave("idle")``, the log ends the play
        ``abandoned``) and then emits ``on_idle`` (the lobby shows the welcome screen).
        ``timer`` is the clock's scheduler (Kivy's on the kiosk), as for autoplay.
        With ``warn`` > 0 it first emits ``on_idle_warning(seconds_left)`` that many seconds
        before the deadline, so a slow player can be asked whether they are still there
        (WCAG 2.2.1) before the game is given up; an input after it starts the wait anew.

        Each input only moves ``last_input``; one due call is pending at a time and, when it
        comes early (input came since), waits for the rest of the time. A pending call due
        later than the next warning (the deadline of a warning just answered, when the
        warning is longer than the quiet time before it) is moved up: left there, it warned
        with only what was left of the old countdown (12 s after an answer, not 30)."""
        warn = max(0.0, min(float(warn), float(timeout)))
        if timer is not self._idle_timer or timeout != self._idle_timeout \
                or warn != self._idle_warn:
            self.stop_idle()
        self._idle_timeout, self._idle_timer, self._idle_warn = float(timeout), timer, warn
        self.last_input = now = self._clock()
        first_due = self._idle_timeout - warn if warn else self._idle_timeout
        if self._idle_cancel is not None and self._idle_due_at > now + first_due:
            self._idle_cancel()
            self._idle_cancel = None
        if self._idle_cancel is None:
            self._idle_later(first_due)

    def stop_idle(self) -> None:
        """The table is not shown (or left): no idle deadline until :meth:`watch_idle`."""
        if self._idle_cancel is not None:
            self._idle_cancel()
        self._idle_cancel = None
        self._warned_for = None

    def idle_left(self) -> float | None:
        """Seconds until the table counts as left alone (None: not watched)."""
        if self._idle_timeout is None or self._idle_cancel is None or self.last_input is None:
            return None
        return max(0.0, self.last_input + self._idle_timeout - self._clock())

    def _idle_later(self, delay: float) -> None:
        """The next due call, ``delay`` seconds from now."""
        assert self._idle_timer is not None
        self._idle_due_at = self._clock() + delay
        self._idle_cancel = self._idle_timer(delay, self._idle_due)

    def _idle_due(self) -> None:
        self._idle_cancel = None
        if self._idle_timeout is None or self._idle_timer is None or self.last_input is None:
            return
        left = self.last_input + self._idle_timeout - self._clock()
        warned = self._warned_for == self.last_input
        if self._idle_warn and not warned and left > self._idle_warn:
            self._idle_later(left - self._idle_warn)
            return
        if self._idle_warn and not warned and left > 0:
            self._warned_for = self.last_input
            self._idle_later(left)
            self._emit("on_idle_warning", left)
            return
        if left > 0:
            self._idle_later(left)
            return
        self.leave("idle")
        self._emit("on_idle", self._idle_timeout)

    def _check_end(self) -> None:
        g = self.game
        if g.won:
            self._finished = True
            self.cancel_autoplay()
            self._stop_clock()
            self._emit("on_won", g)
        elif g.over:
            self._finished = True
            self._stop_clock()
            self._emit("on_over", g)

    # ------------------------------------------------------------------ status
    def _stop_clock(self) -> None:
        if self._started is not None and self._stopped is None:
            self._stopped = self._clock()

    def elapsed(self) -> float:
        """Seconds of play: from the first move to the end (or now)."""
        if self._started is None:
            return 0.0
        end = self._stopped if self._stopped is not None else self._clock()
        return max(0.0, end - self._started)

    @property
    def moves(self) -> int:
        return len(self.game.history)

    def actions(self) -> list[Move]:
        """Legal moves that touch no pile (close up, refill, redeal ...): the bar's buttons."""
        has_stock = bool(self.game.roles.get("stock"))
        out = []
        for m in self.legal_moves():
            if m.kind == "move" or m.src >= 0 or m.dst >= 0 or m.extra:
                continue
            if m.kind == "deal" and has_stock:
                continue  # the stock itself is the button
            if m not in out:
                out.append(m)
        return out
