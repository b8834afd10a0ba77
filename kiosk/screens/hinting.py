"""The table's solver help: the Hint button and the live "still winnable" line.

:class:`TableHelp` belongs to the :class:`~kiosk.screens.table.TableScreen`. It owns the
solver's worker process (:class:`kiosk.solving.hints.HintWorker`, started by the first
request, ended after its idle time or with the app) and the
:class:`kiosk.solving.hints.HintBook` of the current deal, and it polls the worker from
the Kivy ``Clock`` (every :data:`POLL` seconds, only while a request is out), so the table
never waits for the solver.

* **Hint**: a position on a known winning line (the stored line of a deal from the winnable
  list, or the rest of a line found for an earlier hint) is answered at once; otherwise the
  worker searches for ``[table] hint_seconds`` while the button shows dots. A found move is
  drawn by :meth:`kiosk.table.table_view.TableView.show_hint` and counted in the play log; a proof
  that no win is left opens the "no way to win" message with an Undo back to the last
  position known to be winnable; an exhausted budget shows the move the search rated
  best, said as a suggestion ("Maybe try this move"), not as a win; a failed worker, or no
  move to suggest, says "No hint found". An answer for a position that is no longer on
  the table is never shown.
* The state of all this (the book, the position keys, the requests out, the verdict on
  show) is the table controller's :attr:`~kiosk.table.controller.TableController.hints`
  (:class:`kiosk.table.hint_state.HintState`); :class:`TableHelp` asks it what to do and
  draws what it says.
* **Live verdict**: after each change, once the player has paused for ``check_delay``, the
  worker checks the position for ``check_seconds``; the line under the status shows
  "Still winnable" or "No win possible from here — Undo?" (a tap undoes), and nothing while
  unknown. It stops when the table is left, the game ends or attract mode takes the screen.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, Protocol

from kivy.animation import Animation
from kivy.app import App
from kivy.clock import Clock
from kivy.uix.boxlayout import BoxLayout

from kiosk.screens.text_fit import READ_PX, FitLabel
from kiosk.screens.widgets import GOLD, INK_DARK, KButton
from kiosk.solving import deals
from kiosk.solving.hints import LOST, WON, HintWorker, Reply, hint_move
from kiosk.table.hint_state import HintState
from kiosk.table.table_view import HINT_SECONDS

if TYPE_CHECKING:
    from games.engine.reason import Reason
    from kiosk.screens.widgets import Toast
    from kiosk.table.controller import TableController
    from kiosk.table.table_view import TableView

log = logging.getLogger("kiosk.hinting")

POLL = 0.1
VERDICT_WON = (0.55, 0.95, 0.6, 1)
NOWIN_BG = (0.98, 0.76, 0.25, 0.9)
SPINNER = ("•", "• •", "• • •")


class HelpedTable(Protocol):
    """What the helper uses of the table screen that owns it
    (:class:`kiosk.screens.table.TableScreen`), named here so that the helper is given its
    screen instead of importing the module that imports it."""

    ctl: TableController | None
    view: TableView | None
    manager: Any
    size: Any
    toast: Toast
    action_buttons: list[KButton]

    def say(self, text: Reason | str | None, seconds: float = ...) -> None: ...
    def close_sheet(self) -> None: ...
    def undo(self, source: str = ...) -> None: ...
    def new_deal(self, source: str = ...) -> None: ...
    def _open_sheet(self, kind: str, dim: float = ...) -> Any: ...
    def _layout_sheet(self) -> None: ...


class TableHelp:
    """Hints and the live verdict for one table screen (see the module docstring)."""

    def __init__(self, screen: HelpedTable) -> None:
        self.screen = screen
        self.worker: HintWorker | None = None
        self._idle_state = HintState()        # drawn while no controller is at the table
        self.button = KButton(color=(1, 1, 1, 1))
        self.button.bind(on_release=lambda *_: self.hint())
        self.verdict = KButton(color=VERDICT_WON, bg=(0, 0, 0, 0), bg_down=(1, 1, 1, 0.2),
                               words_only=False)  # a sentence: Unicode's line breaks
        self.verdict.bind(on_release=lambda *_: self._verdict_tapped())
        self._check_ev: Any = None
        self._poll_ev: Any = None
        self._retire_ev: Any = None
        self._spin_ev: Any = None
        self._spin = 0
        self._lit_action: KButton | None = None

    # ------------------------------------------------------------------ the controller's state
    @property
    def state(self) -> HintState:
        ctl = self.ctl
        return ctl.hints if ctl is not None else self._idle_state

    @property
    def book(self):
        return self.state.book

    @property
    def shown(self) -> str:
        """"won", "lost" or "" (nothing shown)."""
        return self.state.shown

    @property
    def _hint_req(self) -> int | None:
        return self.state.hint_req

    @property
    def _check_req(self) -> int | None:
        return self.state.check_req

    # ------------------------------------------------------------------ settings
    @property
    def app(self):
        return App.get_running_app()

    def _table_cfg(self):
        return self.app.cfg.table

    @property
    def enabled(self) -> bool:
        return bool(self._table_cfg().hints)

    @property
    def checking(self) -> bool:
        return bool(self._table_cfg().winnable_check)

    def _worker(self) -> HintWorker:
        if self.worker is None:
            self.worker = HintWorker()
            self.app.bind(on_stop=lambda *_a: self.shutdown())
        return self.worker

    @property
    def serving(self) -> bool:
        """A real kiosk (``services``): ``kiosk snapshot`` draws a table and leaves, and
        must not start a solver process nor check anything."""
        lobby = getattr(self.app, "lobby", None)
        return bool(getattr(lobby, "services", True))

    def _used(self) -> None:
        """A request went out: end the worker once it has been unused for its idle time
        (:meth:`kiosk.solving.hints.HintWorker.retire_if_idle`), whatever screen is shown."""
        if self._retire_ev is None and self.worker is not None:
            self._retire_ev = Clock.schedule_once(self._retire, self.worker.idle_left() + 1)

    def _retire(self, _dt: float = 0) -> None:
        self._retire_ev = None
        worker = self.worker
        if worker is not None and not worker.retire_if_idle():
            self._retire_ev = Clock.schedule_once(self._retire, worker.idle_left() + 1)

    def shutdown(self) -> None:
        # Kivy dispatches on_stop twice (App.stop, then the end of App.run), the second time
        # with no running app to translate with: stopping once is enough, and a traceback
        # here would turn the operator's exit status (restart, console) into 1
        if App.get_running_app() is None:
            return
        self.stop()
        if self._retire_ev is not None:
            self._retire_ev.cancel()
            self._retire_ev = None
        if self.worker is not None:
            self.worker.stop()

    # ------------------------------------------------------------------ texts
    def retranslate(self) -> None:
        tr = self.app.tr
        if self._hint_req is None:
            self.button.text = tr("Hint")
        self._paint_verdict()

    def _paint_verdict(self) -> None:
        tr, v = self.app.tr, self.verdict
        if self.shown == WON:
            v.text, v.color, v.bg = "✓ " + tr("Still winnable"), VERDICT_WON, (0, 0, 0, 0)
        elif self.shown == LOST:
            v.text, v.color, v.bg = tr("No win possible from here — Undo?"), INK_DARK, NOWIN_BG
        else:
            v.text, v.bg = "", (0, 0, 0, 0)
        v.disabled = self.shown != LOST
        v.disabled_color = v.color  # a line to read, not a switched-off button

    def _show_verdict(self, verdict: str) -> None:
        self.state.shown = verdict if verdict in (WON, LOST) and self.checking else ""
        self._paint_verdict()

    # ------------------------------------------------------------------ the table changed
    @property
    def ctl(self):
        return self.screen.ctl

    def _active(self) -> bool:
        s = self.screen
        return (s.ctl is not None and not getattr(s.ctl, "demo", False)
                and s.manager is not None and s.manager.current == "table")

    def changed(self, what: str = "") -> None:
        """After every change of the table (a move, an undo, a new deal, another game)."""
        ctl = self.ctl
        if ctl is None:
            return
        view = self.screen.view
        if view is not None:
            view.clear_hint()
        self._unlight_action()
        state = self.state
        if what == "start" and self._spin_ev is not None:
            self._end_hint_wait()  # the wait was for the table before this one
        if state.follow(ctl.game, what, self._deal_list):
            self._end_hint_wait()  # the answer would be for a position that is gone
        self._show_verdict(state.verdict_of(ctl.game))
        self._schedule_check()

    def _deal_list(self, game_id: str, options: dict[str, Any]) -> Any:
        """The winnable-deal list of a game, kept compact and only while it is among the
        last read (:func:`kiosk.solving.deals.stored`), not every list for the whole run."""
        return deals.stored(game_id, options)

    def stop(self) -> None:
        """No more checking or waiting (the table was left, the game ended, the app stops)."""
        for ev in (self._check_ev, self._poll_ev):
            if ev is not None:
                ev.cancel()
        self._check_ev = self._poll_ev = None
        self.state.check_req = None
        self._end_hint_wait()
        if self.worker is not None:
            self.worker.cancel()
        self._show_verdict("")

    # ------------------------------------------------------------------ live verdict
    def _schedule_check(self) -> None:
        if self._check_ev is not None:
            self._check_ev.cancel()
            self._check_ev = None
        if not self.checking or not self.serving or self.ctl is None or self.ctl.game.won:
            return
        if self.state.verdict_of(self.ctl.game):
            return
        self._check_ev = Clock.schedule_once(self._check, self._table_cfg().check_delay)

    def _check(self, _dt: float = 0) -> None:
        self._check_ev = None
        if not self._active() or self._hint_req is not None:
            return  # a hint's answer is the verdict too
        view = self.screen.view
        if view is not None and view._dragging:
            self._schedule_check()
            return
        game = self.ctl.game
        if game.won or game.over:
            return
        known = self.state.verdict_of(game)
        if known:
            self._show_verdict(known)
            return
        self.state.checking(game, self._worker().request(game,
                                                         self._table_cfg().check_seconds))
        self._used()
        self._start_polling()

    def _verdict_tapped(self) -> None:
        if self.shown == LOST:
            self.undo_to_winnable()

    # ------------------------------------------------------------------ hints
    def hint(self) -> None:
        """The Hint button."""
        ctl = self.ctl
        if ctl is None or self._hint_req is not None or not self.enabled:
            return
        game = ctl.game
        if game.won:
            return
        self.screen.close_sheet()
        state = self.state
        what, move = state.ask(game)
        if what == "move" and move is not None:
            self._show_move(move)
            return
        if what == "lost":
            self.no_win()
            return
        state.searching(game, self._worker().request(game, self._table_cfg().hint_seconds))
        self._used()
        self._spin = 0
        self._spin_ev = Clock.schedule_interval(self._spinner, 0.25)
        self._spinner(0)
        self._start_polling()

    def _spinner(self, _dt: float) -> None:
        self.button.text = SPINNER[self._spin % len(SPINNER)]
        self._spin += 1

    def _end_hint_wait(self) -> None:
        self.state.hint_req = None
        if self._spin_ev is not None:
            self._spin_ev.cancel()
            self._spin_ev = None
        if self.app is not None:
            self.button.text = self.app.tr("Hint")

    def _show_move(self, move, proved: bool = True) -> None:
        """Draw a hinted move; ``proved`` False: the solver found no win in time and this
        is only the move its search rates best, and the table says so."""
        screen, tr = self.screen, self.app.tr
        view = screen.view
        if view is None:
            return
        view.show_hint(move)
        if move.src < 0 and move.dst < 0 and not move.extra and view.hint_source < 0:
            self._light_action(move)
        screen.say(tr("Try this move: it can still lead to a win.") if proved else
                   tr("Maybe try this move. No sure win was found in time."), HINT_SECONDS)
        self.ctl.hint_shown()

    def _light_action(self, move) -> None:
        """A move that touches no pile ("Close up") is one of the bar's amber buttons."""
        actions = self.ctl.actions()[:3]
        if move in actions and actions.index(move) < len(self.screen.action_buttons):
            b = self.screen.action_buttons[actions.index(move)]
            b.selected = True
            self._lit_action = b
            Clock.schedule_once(lambda _dt: self._unlight_action(), HINT_SECONDS)

    def _unlight_action(self) -> None:
        if self._lit_action is not None:
            self._lit_action.selected = False
            self._lit_action = None

    def _hint_answer(self, reply: Reply) -> None:
        self._end_hint_wait()
        game = self.ctl.game if self.ctl is not None else None
        if game is None or reply.key != game.key() or not self._active():
            return  # the position changed while the solver thought
        if reply.result in (WON, LOST):
            self._show_verdict(reply.result)
        if reply.result == WON:
            move = self.state.hint_for(game, reply)
            if move is not None:
                self._show_move(move)
                return
            log.warning("the solver's first move is not legal here; no hint shown")
        elif reply.result == LOST:
            self.no_win()
            return
        else:
            move = hint_move(game, reply.suggestion)
            if move is not None:
                self._show_move(move, proved=False)
                return
        self.screen.say(self.app.tr("No hint found"))

    # ------------------------------------------------------------------ answers
    def _start_polling(self) -> None:
        if self._poll_ev is None:
            self._poll_ev = Clock.schedule_interval(self._poll, POLL)

    def _poll(self, _dt: float) -> None:
        worker = self.worker
        replies = worker.poll() if worker is not None else []
        state = self.state
        for reply in replies:
            answers = state.answered(reply)
            if answers == "hint":
                self._hint_answer(reply)
            elif answers == "check":
                ctl = self.ctl
                if ctl is not None and reply.key == ctl.game.key() and self._active():
                    self._show_verdict(reply.result)
        if state.hint_req is None and state.check_req is None and (worker is None
                                                                    or not worker.busy):
            if self._poll_ev is not None:
                self._poll_ev.cancel()
            self._poll_ev = None

    # ------------------------------------------------------------------ no win left
    def winnable_undos(self) -> int | None:
        """How many Undos lead back to the last position known to be winnable (None: not
        known within :data:`kiosk.table.hint_state.UNDO_SEARCH` player actions)."""
        ctl = self.ctl
        if ctl is None:
            return None
        return ctl.hints.winnable_undos(ctl.game, ctl.undo_groups)

    def undo_to_winnable(self) -> None:
        """Undo back to the last position known to be winnable (one Undo if none is known)."""
        screen = self.screen
        screen.close_sheet()
        for _ in range(self.winnable_undos() or 1):
            if self.ctl is None or not self.ctl.can_undo:
                break
            screen.undo("button")

    def no_win(self, count: bool = True) -> None:
        """The message for a position the solver proved lost, with an Undo (``count``: it
        answers the Hint button, so the play log counts it as a hint)."""
        screen, tr = self.screen, self.app.tr
        u = min(screen.size) / 480
        if count:
            self.ctl.hint_shown()
        Animation.cancel_all(screen.toast)
        screen.toast.opacity = 0  # an earlier hint's line would peek out under the panel
        s = screen._open_sheet("nowin", dim=0.3)
        s.panel.padding = (18 * u, 10 * u)
        s.panel.spacing = 6 * u
        s.panel.add_widget(FitLabel(text=tr("No way to win from here"), bold=True,
                                    color=GOLD, font_size=27 * u, min_font=READ_PX * u,
                                    halign="center"))
        k = self.winnable_undos()
        text = (self.app.trn("Undo {n} move to get back to where you could still win.",
                             "Undo {n} moves to get back to where you could still win.", k)
                if k and k > 1 else tr("Undo a move or start a new deal."))
        body = FitLabel(text=text, color=(1, 1, 1, 1), font_size=19 * u,
                        min_font=READ_PX * u, halign="center")
        s.panel.add_widget(body)
        row = BoxLayout(spacing=12 * u, size_hint_y=None, height=64 * u)
        undo = KButton(text=tr("Undo") if not k or k == 1 else
                       self.app.trn("Undo {n} move", "Undo {n} moves", k),
                       color=INK_DARK, bg=NOWIN_BG, bg_down=GOLD, font_size=21 * u)
        undo.bind(on_release=lambda *_: self.undo_to_winnable())
        undo.disabled = not self.ctl.can_undo
        new = KButton(text=tr("New deal"), color=(1, 1, 1, 1), font_size=21 * u)
        new.bind(on_release=lambda *_: screen.new_deal("button"))
        close = KButton(text=tr("Close"), color=(1, 1, 1, 1), font_size=21 * u)
        close.bind(on_release=lambda *_: screen.close_sheet())
        for b in (undo, new, close):
            row.add_widget(b)
        s.panel.add_widget(row)
        self.undo_button = undo
        screen._layout_sheet()
