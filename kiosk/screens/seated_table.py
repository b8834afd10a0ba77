"""What every table against the computer shares, whatever the game.

Gin Rummy, Draw Poker and Follow the Rules differ in what lies on the table and which
buttons the moment needs, but each sits at a :class:`~kiosk.table.controller.TableController`
(so the play log, the idle timer and the lobby serve it as any table), redraws from the game
after every deal, and lets the computer move only while the screen is shown: its decision
is asked in the background (:class:`~kiosk.table.gin_turns.ComputerTurns`, never on the UI
thread) and played by the Kivy clock after a pause a person can follow. A subclass draws
(``refresh``), resets what belongs to one deal (``reset_deal``) and plays the computer's
moves in ``_tick`` with :meth:`computer_move`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.uix.screenmanager import Screen

from games.model import Move
from kiosk.screens.widgets import GOLD, KButton
from kiosk.table.controller import TableController
from kiosk.table.gin_turns import ComputerTurns

#: how often the clock looks whether the computer's move is ready (seconds)
TICK = 0.05


class SeatedTableScreen(Screen):
    """A table against the computer named ``name``; the computer waits ``pause`` seconds
    before each move."""

    def __init__(self, name: str, pause: float, **kw) -> None:
        super().__init__(name=name, **kw)
        self.ctl: TableController | None = None
        self.turns = ComputerTurns(pause)
        self._tick_ev = None

    @property
    def app(self) -> Any:
        return App.get_running_app()

    @property
    def game(self) -> Any:
        return self.ctl.game if self.ctl is not None else None

    # ------------------------------------------------------------------ sitting down
    def start(self, controller: TableController) -> None:
        if self.ctl is not None:
            self.ctl.unbind(on_new_deal=self._dealt)
        self.ctl = controller
        controller.bind(on_new_deal=self._dealt)
        self._dealt()

    def _dealt(self, *_a) -> None:
        self.turns.cancel()
        self.reset_deal()
        self.refresh()

    def reset_deal(self) -> None:
        """Forget what belonged to the last deal (a raised card, the computer's words)."""

    def refresh(self) -> None:
        raise NotImplementedError

    def on_enter(self, *_a) -> None:
        if self._tick_ev is None:
            self._tick_ev = Clock.schedule_interval(self._tick, TICK)

    def on_leave(self, *_a) -> None:
        if self._tick_ev is not None:
            self._tick_ev.cancel()
            self._tick_ev = None
        self.turns.cancel()

    def go_home(self) -> None:
        if self.ctl is not None:
            self.ctl.leave("button")
        self.app.show_picker(self.ctl.game_id if self.ctl else None)

    def retranslate(self) -> None:
        self.refresh()

    def again(self) -> None:
        """A new match (the end of a match's button)."""
        self.ctl.new_deal(source="button")

    def next_hand(self) -> None:
        self.said = None
        self.play(Move("next"))

    def play(self, move: Move) -> None:
        raise NotImplementedError

    def between_hands_buttons(self) -> list[tuple[str, Callable[[], Any], bool]] | None:
        """The buttons after a hand (Next hand) and after a match (New match, Games), the
        same at every table that plays matches of hands; None while a hand is played."""
        tr, phase = self.app.tr, self.game.phase
        if phase == "done":
            return [(tr("Next hand"), self.next_hand, True)]
        if phase == "match":
            return [(tr("New match"), self.again, True), (tr("Games"), self.go_home, False)]
        return None

    def show_buttons(self, specs: list[tuple[str, Callable[[], Any], bool]]) -> None:
        """The row of big buttons for this moment: (text, action, the main choice), the
        main ones in gold, centred above the hand."""
        self.actions.clear_widgets()
        h = self.actions.height
        for text, action, main in specs:
            b = KButton(text=text, bold=True, font_size=h * 0.36)
            if main:
                b.bg = (*GOLD[:3], 0.35)
            b.bind(on_release=lambda *_a, f=action: f())
            self.actions.add_widget(b)
        self.actions.width = min(self.width * 0.96, max(1, len(specs)) * self.width *
                                 (0.3 if self.width > self.height else 0.46))
        self.actions.x = (self.width - self.actions.width) / 2

    # ------------------------------------------------------------------ the computer
    def computer_move(self) -> Move | None:
        """The computer's move once it is decided and its pause is over, else None (the
        question is put to the background worker on the first call of a position)."""
        g = self.game
        if g is None or not g.computer_to_move:
            return None
        self.turns.ask(g)
        return self.turns.ready(g)

    def _tick(self, _dt: float = 0) -> None:
        raise NotImplementedError
