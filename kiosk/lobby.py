"""The kiosk around the table: play log, hardware buttons, idle and attract timers, the
operator's hidden corner. One :class:`Lobby` per :class:`kiosk.app.KioskApp`.

Everything that changes the app arrives on the Kivy main thread: gpiozero's callbacks are
handed over with ``Clock.schedule_once`` (:meth:`Lobby.dispatch`), touches and keys are Kivy
events already. Input of every kind calls :meth:`Lobby.poke`, which re-arms one timer:

* on the welcome screen, the **attract** timer (``[attract] delay``): the demo starts;
* on every other screen except the demo, the **idle** timer (``idle_timeout``): after that
  long without input the kiosk asks "Still playing?" (:mod:`kiosk.screens.idle_warning`)
  and counts down :data:`WARNING_SECONDS`; any touch or button press keeps playing (and
  does nothing else). Only when nobody answers is a game in
  progress logged ``abandoned`` and the kiosk returns to the welcome screen in the
  default language, so a visitor never finds someone else's half-played game. The
  question comes *after* ``idle_timeout`` rather than inside it, so even the shortest
  timeout the configuration allows (10 s) leaves the visitor the full countdown. On the table
  the deadline is the table's own (:meth:`kiosk.table.controller.TableController.watch_idle`):
  the controller knows its last input, leaves by itself and emits ``on_idle``; the lobby
  only lends it Kivy's clock and then shows the welcome screen. The picker and the
  operator's screens, which have no table, keep the lobby's own timer.

The lobby opens the play log (:class:`kiosk.records.playlog.PlayLog`: retries, pruning,
closing) and its one :class:`kiosk.records.logsession.LogSession`, which it hands to each
visitor's table (:meth:`TableController.keep_log`); from then on the table's controller
feeds it, touches and button presses included. Attract-mode tables are never logged.
The log is opened in the frame after the first one (:meth:`Lobby.after_first_frame`), so
the welcome screen does not wait for sqlite and the file's check; anything that needs it
sooner (a visitor sitting down at once, the operator's pages) opens it then.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kivy.clock import Clock
from kivy.core.window import Window

from kiosk.platform.buttons import NEW_DEAL, PICKER, UNDO, Buttons
from kiosk.settings.config import Config
from kiosk.settings.operator import HOLD_SECONDS
from kiosk.table.kept import KeptTables

if TYPE_CHECKING:  # imported when the log is opened (sqlite3, sqlite-utils, statistics)
    from kiosk.records.logsession import LogSession
    from kiosk.records.playlog import PlayLog
    from kiosk.screens.idle_warning import IdleWarning

log = logging.getLogger("kiosk.lobby")


def _kivy_timer(delay: float, fn: Any) -> Any:
    """The idle deadlines run on Kivy's clock (the main thread, like every input)."""
    return Clock.schedule_once(lambda _dt: fn(), delay).cancel

#: how long "Still playing?" counts down before the game is given up (WCAG 2.2.1: >= 20 s)
WARNING_SECONDS = 30.0

RETRY_EVERY = 30.0
PRUNE_EVERY = 24 * 3600.0
#: the operator's corner: this many "units" (1/480 of the short side) from the top left
CORNER = 90
#: screens where the operator's corner works
CORNER_SCREENS = ("welcome", "picker")
#: screens without the idle timer (the welcome screen has the attract timer instead)
NO_IDLE = ("welcome", "attract")



class Lobby:
    """Play log, buttons and timers for ``app``. ``services=False`` (snapshots, screenshots)
    leaves out the log and the buttons; the timers still follow the configuration."""

    def __init__(self, app: Any, cfg: Config, *, services: bool = True,
                 data_dir: Path | None = None, playlog: PlayLog | None = None,
                 pin_factory: Any = None) -> None:
        self.app = app
        self.cfg = cfg
        self.services = services
        self.data_dir = data_dir
        self._playlog: PlayLog | None = playlog
        self._session: LogSession | None = None
        #: services are on and the log is not opened yet (see :meth:`after_first_frame`)
        self._log_pending = False
        self.buttons: Buttons | None = None
        self.pin_factory = pin_factory
        self.idle_timeout = float(cfg.idle_timeout)
        self.attract_enabled = bool(cfg.attract.enabled)
        self.attract_delay = float(cfg.attract.delay)
        self.notes: list[str] = []
        #: the idle timers' clock and scheduler (``timer(delay, fn)`` returns a cancel
        #: function): Kivy's and the monotonic clock here, fake ones in the tests. The table's
        #: controller is lent the same scheduler.
        self.clock: Callable[[], float] = time.monotonic
        self.timer: Callable[[float, Callable[[], None]], Callable[[], None]] = _kivy_timer
        self.warning_seconds = WARNING_SECONDS
        self._warning: IdleWarning | None = None
        #: the touch that answered "Still playing?": its move and release are the answer's
        self._answer_touch: Any = None
        self.last_input = self.clock()
        #: the cancel function of the lobby's own idle timer (screens without a table)
        self._idle_ev: Callable[[], None] | None = None
        self._idle_table: Any = None   # the controller whose idle deadline is armed
        self._attract_ev = None
        self._timers: list[Any] = []
        self._corner_touch = None
        self._corner_ev = None
        self._started = False
        self._presses_seen = 0
        #: the tables a visitor left, one a game and variant, until they sit down at that
        #: game again (:mod:`kiosk.table.kept`); all gone when the visit ends
        self.kept = KeptTables()

    # ------------------------------------------------------------------ life
    def start(self) -> None:
        """After the screens exist (``App.build``)."""
        if self._started:
            return
        self._started = True
        if self.services:
            self._log_pending = True
            self._open_buttons()
        Window.bind(on_touch_down=self._touch_down, on_touch_move=self._touch_move,
                    on_touch_up=self._touch_up)
        self.app.sm.bind(current=lambda *_a: self.arm())
        self.arm()

    def after_first_frame(self) -> None:
        """The welcome screen is up: open the play log now, and show today's wins it has."""
        if not self._log_pending:
            return
        self._open_log()
        welcome = self.app.sm.built("welcome")
        if welcome is not None and self._playlog is not None:
            welcome.show_wins(self.today_wins())

    @property
    def playlog(self) -> PlayLog | None:
        """The play log (opened now if it was still to open); None without one."""
        self._open_log()
        return self._playlog

    @playlog.setter
    def playlog(self, value: PlayLog | None) -> None:
        self._playlog = value

    @property
    def session(self) -> LogSession | None:
        """The log session handed to each visitor's table (opened with the log)."""
        self._open_log()
        return self._session

    @session.setter
    def session(self, value: LogSession | None) -> None:
        self._session = value

    def _open_log(self) -> None:
        if not self._log_pending:
            return
        self._log_pending = False
        from kiosk.records.logsession import LogSession
        from kiosk.records.playlog import PlayLog

        if self._playlog is None:
            try:
                self._playlog = PlayLog.from_config(self.cfg)
            except Exception:  # noqa: BLE001 - PlayLog never raises; belt and braces
                log.exception("the play log cannot start; games are not logged")
                self._playlog = None
        if self._playlog is None:
            return
        if self._playlog.interrupted_on_open:
            log.warning("%d plays were still open after the last stop: marked interrupted",
                        self._playlog.interrupted_on_open)
        self._session = LogSession(self._playlog)
        self._timers.append(Clock.schedule_interval(self._retry, RETRY_EVERY))
        self._timers.append(Clock.schedule_interval(self._prune, PRUNE_EVERY))

    def _open_buttons(self) -> None:
        self.buttons = Buttons.from_config(self.cfg.buttons, self.dispatch,
                                           pin_factory=self.pin_factory)
        if not self.buttons.available:
            log.info("no hardware buttons: the keys N (new deal) and U (undo) do their jobs")

    def stop(self) -> None:
        """The app is stopping: the open play ends ``interrupted``, the log is closed."""
        for ev in (*self._timers, self._attract_ev, self._corner_ev):
            if ev is not None:
                ev.cancel()
        self._timers.clear()
        self._cancel_own_idle()
        self._hide_warning()
        self._release_idle_table()
        self._log_pending = False  # never opened: nothing to close
        if self.buttons is not None:
            self.buttons.close()
        if self._session is not None:
            self._session.close()
        if self._playlog is not None:
            self._playlog.close()

    def _retry(self, _dt: float) -> None:
        if self._playlog is not None and not self._playlog.status.ok:
            self._playlog.retry()

    def _prune(self, _dt: float) -> None:
        if self._playlog is not None:
            self._playlog.prune()

    # ------------------------------------------------------------------ the table's log
    def follow(self, controller: Any) -> None:
        """A visitor sat at ``controller``: it keeps the log session (a demo's table declines
        it) and tells this lobby when it has been left alone."""
        controller.keep_log(self.session)
        controller.bind(on_idle=self._table_idle, on_idle_warning=self._table_warning,
                        on_leave=lambda _game, source, c=controller: self._left(c, source))
        self.kept.sat(controller)

    def _left(self, controller: Any, source: str) -> None:
        """Home (or the held New deal button) keeps the table on its game's shelf, until
        the visitor sits down at that game again; idle forgets every one."""
        if source == "idle":
            self.forget_left()
        else:
            self.kept.left(controller)

    def forget_left(self) -> None:
        """The next visitor starts afresh (back to the welcome screen)."""
        self.kept.forget()

    def today_wins(self) -> int:
        """Today's wins in the log; 0 while it is still to open (the welcome screen's
        first frame: :meth:`after_first_frame` shows them once it is)."""
        if self._playlog is None:
            return 0
        try:
            return self._playlog.today_wins()
        except Exception:  # noqa: BLE001
            log.exception("today_wins failed")
            return 0

    # ------------------------------------------------------------------ input
    def dispatch(self, event: str) -> None:
        """For :class:`kiosk.platform.buttons.Buttons` (any thread): run on the Kivy main thread."""
        Clock.schedule_once(lambda _dt: self.on_button(event, "gpio"), 0)

    def on_button(self, event: str, source: str = "gpio") -> None:
        """A hardware button (or the keys N and U): ``new_deal``, ``undo`` or ``picker``.
        While "Still playing?" is up, a press only answers it (a New deal pressed to say
        "yes" must not throw the game away)."""
        answered = self.poke()
        app = self.app
        current = app.sm.current
        if (current != "table" or answered) and self.buttons is not None:
            self._presses_seen = self.buttons.logic.presses
        if answered:
            return
        if current == "attract":
            self.wake()
            return
        if current == "welcome":
            app.show_picker()
            return
        if current == "variants":  # New deal: the default variant; the others: back
            if event == NEW_DEAL:
                app.variants.choose()
            else:
                app.variants.go_back()
            return
        if current in ("gin", "poker"):  # hand tables answer their buttons (no undo there)
            app.sm.get_screen(current).on_button(event, source)
            return
        if current == "trick":  # so does the trick table
            app.trick_table.on_button(event, source)
            return
        if current != "table" or app.controller is None:
            return
        if source == "gpio" and self.buttons is not None:
            # real presses (a held Undo repeats its event but is one press)
            presses = self.buttons.logic.presses
            for _ in range(max(0, presses - self._presses_seen)):
                app.controller.pressed(event)
            self._presses_seen = presses
        # into the table's controller, never through the screen (which follows its events)
        if event == NEW_DEAL:
            app.controller.new_deal(source=source)
        elif event == UNDO:
            app.controller.undo(source)
        elif event == PICKER:
            app.controller.leave(source)
            app.show_picker(app.controller.game_id)

    def poke(self) -> bool:
        """Input happened: re-arm the idle or attract timer. True when the input answered
        "Still playing?" (it was up, now it is gone): then it is that answer and nothing
        else."""
        answered = self.warning_shown
        self.last_input = self.clock()
        self.arm()
        return answered

    @property
    def warning_shown(self) -> bool:
        return self._warning is not None and self._warning.shown

    def arm(self) -> None:
        """The idle or attract timer for the screen shown now: on the table, the table's
        controller keeps the deadline itself; elsewhere this lobby does. A question
        "Still playing?" on show is answered (input came, or the screen changed)."""
        self._hide_warning()
        self._cancel_own_idle()
        if self._attract_ev is not None:
            self._attract_ev.cancel()
        self._attract_ev = None
        current = self.app.sm.current
        table = self.app.controller if current == "table" else None
        if table is not self._idle_table:
            self._release_idle_table()
        if current == "welcome":
            if self.attract_enabled and self.app.game_ids():
                self._attract_ev = Clock.schedule_once(self._attract, self.attract_delay)
        elif table is not None:
            self._idle_table = table
            table.watch_idle(self.idle_timeout + self.warning_seconds, self.timer,
                             warn=self.warning_seconds)
        elif current not in NO_IDLE:
            self._idle_ev = self.timer(self.idle_timeout, self._idle_warn)

    def _cancel_own_idle(self) -> None:
        if self._idle_ev is not None:
            self._idle_ev()
        self._idle_ev = None

    def _show_warning(self, seconds: float) -> None:
        if self._warning is None:
            from kiosk.screens.idle_warning import IdleWarning

            self._warning = IdleWarning(self.clock)
        self._warning.show(Window, seconds)

    def _hide_warning(self) -> None:
        if self._warning is not None:
            self._warning.hide()

    def _idle_warn(self) -> None:
        """No input for ``idle_timeout`` off the table: ask before giving up."""
        self._idle_ev = self.timer(self.warning_seconds, self._idle)
        log.info("no input for %g s on the %s screen: still playing?", self.idle_timeout,
                 self.app.sm.current)
        self._show_warning(self.warning_seconds)

    def _table_warning(self, seconds_left: float) -> None:
        """The table's controller asks whether its player is still there."""
        if self._idle_table is None or self._idle_table is not self.app.controller:
            return
        log.info("no input for %g s on the table screen: still playing?", self.idle_timeout)
        self._show_warning(seconds_left)

    def _release_idle_table(self) -> None:
        if self._idle_table is not None:
            self._idle_table.stop_idle()
        self._idle_table = None

    def _table_idle(self, timeout: float) -> None:
        """The table's controller decided it was left alone (it has left already)."""
        if self._idle_table is None or self._idle_table is not self.app.controller:
            return  # not the table this lobby watches (a second lobby in a test)
        self._idle_table = None
        self._hide_warning()
        log.info("no input for %g s on the table screen: back to the welcome screen", timeout)
        self.app.go_welcome()

    def _idle(self) -> None:
        self._idle_ev = None
        self._hide_warning()
        log.info("no input for %g s on the %s screen: back to the welcome screen",
                 self.idle_timeout, self.app.sm.current)
        self.app.go_welcome()

    def _attract(self, _dt: float) -> None:
        self._attract_ev = None
        if self.app.sm.current == "welcome":
            self.app.set_language(self.cfg.language)  # for whoever comes next
            self.app.attract.start()

    def wake(self) -> None:
        """A touch or a button during the demo: to the game picker at once."""
        self.app.attract.stop()
        self.app.show_picker()

    # ------------------------------------------------------------------ touches
    def _corner_size(self) -> float:
        return CORNER * min(Window.size) / 480

    def _in_corner(self, touch: Any) -> bool:
        c = self._corner_size()
        return touch.x <= c and touch.y >= Window.height - c

    def _on_a_button(self, touch: Any) -> bool:
        """A touch on a button (the language switch) is that button's, never a corner hold."""
        from kivy.uix.behaviors import ButtonBehavior

        screen = self.app.sm.current_screen
        if screen is None:
            return False
        for w in screen.walk(restrict=True):
            if isinstance(w, ButtonBehavior) and w.collide_point(*w.to_widget(*touch.pos)):
                return True
        return False

    def _touch_down(self, _window: Any, touch: Any) -> bool:
        answered = self.poke()
        current = self.app.sm.current
        if current == "table" and self.app.controller is not None:
            self.app.controller.touched()
        if answered:  # "Still playing?" -- yes: the touch is that answer and nothing more
            self._answer_touch = touch
            return True
        if current in CORNER_SCREENS and self._in_corner(touch) and self._corner_touch is None \
                and not self._on_a_button(touch):
            self._corner_touch = touch
            self._corner_ev = Clock.schedule_once(self._corner_held, HOLD_SECONDS)
        return False

    def _touch_move(self, _window: Any, touch: Any) -> bool:
        if touch is self._answer_touch:
            return True
        if touch is self._corner_touch and not self._in_corner(touch):
            self._cancel_corner()
        return False

    def _touch_up(self, _window: Any, touch: Any) -> bool:
        self.poke()
        if touch is self._answer_touch:
            self._answer_touch = None
            return True
        if touch is self._corner_touch:
            self._cancel_corner()
        return False

    def _cancel_corner(self) -> None:
        if self._corner_ev is not None:
            self._corner_ev.cancel()
        self._corner_ev = None
        self._corner_touch = None

    def _corner_held(self, _dt: float) -> None:
        touch = self._corner_touch
        self._corner_ev = None
        self._corner_touch = None
        if touch is None or self.app.sm.current not in CORNER_SCREENS:
            return
        touch.ud["operator"] = True  # its release must not also act on the screen below
        log.info("operator corner held for %g s: PIN keypad", HOLD_SECONDS)
        self.app.show_pin()
