""""Still playing?": the question put to a slow player before the kiosk gives their game up.

An older visitor may think about a move for minutes; returning to the welcome screen without
a word would throw their game away. WCAG 2.2's timing rule (2.2.1) asks for a warning and at
least 20 seconds to extend with a simple action, so the lobby shows this card over whatever
screen is up, with a countdown and one large button. The button is only a target for the
eye: the lobby takes *any* touch or button press while the card is up as the answer
(:meth:`kiosk.lobby.Lobby.poke`), and that touch does nothing else, so a visitor who taps a
card to say "yes" does not also move it.

The countdown reads the lobby's clock, so a test can move time by hand.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from kivy.app import App
from kivy.clock import Clock
from kivy.graphics import Color, Rectangle
from kivy.uix.floatlayout import FloatLayout

from kiosk.screens.text_fit import READ_PX, FitLabel
from kiosk.screens.widgets import GOLD, INK_DARK, KButton, Panel

#: the least time a visitor is given to answer (WCAG 2.2.1 asks for 20 s)
LEAST_SECONDS = 20.0


class IdleWarning(FloatLayout):
    """A dimmed veil over the window with a card: title, countdown, one large button."""

    def __init__(self, clock: Callable[[], float], **kw) -> None:
        super().__init__(**kw)
        self.clock = clock
        self.deadline = 0.0
        self._tick_ev = None
        self._shown_for: tuple[int, str] | None = None
        with self.canvas.before:
            Color(0, 0, 0, 0.55)
            self._veil = Rectangle()
        self.card = Panel(orientation="vertical", size_hint=(None, None),
                          fill=(0.04, 0.16, 0.09, 0.97))
        fixed = {"size_hint": (1, None), "halign": "center", "valign": "middle"}
        self.title = FitLabel(bold=True, color=GOLD, **fixed)
        self.countdown = FitLabel(color=(1, 1, 1, 1), **fixed)
        self.button = KButton(bold=True, color=INK_DARK, size_hint=(None, None),
                              bg=GOLD, bg_down=(1, 0.88, 0.5, 1))
        for w in (self.title, self.countdown):
            self.card.add_widget(w)
        self.add_widget(self.card)
        self.add_widget(self.button)
        self.bind(pos=self._arrange, size=self._arrange)

    @property
    def shown(self) -> bool:
        return self.parent is not None

    def show(self, window: FloatLayout, seconds: float) -> None:
        """Put the card over ``window`` with ``seconds`` left on the countdown."""
        self.deadline = self.clock() + seconds
        if self.parent is None:
            window.add_widget(self)
        self.size = window.size
        self.retranslate()
        self._arrange()
        if self._tick_ev is None:
            # every frame: the text is only set again when the whole second changes
            self._tick_ev = Clock.schedule_interval(lambda _dt: self._show_left(), 0)

    def hide(self) -> None:
        if self._tick_ev is not None:
            self._tick_ev.cancel()
            self._tick_ev = None
        if self.parent is not None:
            self.parent.remove_widget(self)

    def seconds_left(self) -> int:
        """Whole seconds left, rounded up (the countdown never shows 0 while it runs)."""
        return max(0, math.ceil(self.deadline - self.clock() - 1e-6))

    def retranslate(self) -> None:
        app = App.get_running_app()
        self.title.text = app.tr("Still playing?")
        self.button.text = app.tr("Keep playing")
        self._shown_for = None
        self._show_left()

    def _show_left(self) -> None:
        app = App.get_running_app()
        n = self.seconds_left()
        if (n, app.lang) == self._shown_for:
            return
        self._shown_for = (n, app.lang)
        self.countdown.text = app.trn(
            "Touch the screen to carry on. Back to the start in {n} second.",
            "Touch the screen to carry on. Back to the start in {n} seconds.", n)

    def _arrange(self, *_a) -> None:
        w, h = self.size
        self._veil.pos, self._veil.size = self.pos, self.size
        u = min(w, h) / 480
        cw = min(w * 0.9, 620 * u)
        # a narrow screen breaks the countdown into three lines (Russian)
        title_h, text_h, button_h = 70 * u, (96 if w >= h else 170) * u, 76 * u
        ch = title_h + text_h + button_h + 60 * u
        self.card.size = (cw, ch)
        self.card.padding = (20 * u, 16 * u, 20 * u, button_h + 28 * u)
        self.card.radius = 18 * u
        self.card.pos = (self.x + (w - cw) / 2, self.y + (h - ch) / 2)
        self.title.font_size = 44 * u
        self.title.min_font = 28 * u  # shrunk rather than cut ("Всё ещё играете?")
        self.title.height = title_h
        self.countdown.font_size = 26 * u
        self.countdown.min_font = READ_PX * u
        self.countdown.height = text_h
        self.button.font_size = 32 * u
        self.button.min_font = READ_PX * u
        self.button.radius = 14 * u
        self.button.size = (cw * 0.7, button_h)
        self.button.pos = (self.card.x + (cw - self.button.width) / 2, self.card.y + 20 * u)
