"""One computer player's place at the Draw Poker table: its name, its cards, its chips,
and what it did last.

Why a widget: up to seven of these share the top of an 800x480 screen, so each is a small
box whose parts are placed by proportion; the screen only tells it what to show. The seat
to move is lit, a seat that folded or has no chips is dimmed, and the pot's winner turns
gold at the showdown.
"""

from __future__ import annotations

from kivy.graphics import Color, RoundedRectangle
from kivy.uix.widget import Widget

from kiosk.screens.text_fit import LadderLabel as Label
from kiosk.screens.widgets import GOLD
from kiosk.table.hand_fan import HandFan

IDLE_BG = (0, 0, 0, 0.22)
TURN_BG = (1, 1, 1, 0.28)
WIN_BG = (*GOLD[:3], 0.55)


class PokerSeat(Widget):
    """``show(name, chips, words, cards, face_up, state)``; ``state`` is ``idle``,
    ``turn``, ``out`` (folded or broke) or ``won``."""

    def __init__(self, **kw) -> None:
        super().__init__(**kw)
        with self.canvas.before:
            self._bg = Color(*IDLE_BG)
            self._box = RoundedRectangle(radius=[8])
        self.name = Label(bold=True, halign="center", valign="middle", shorten=True,
                          shorten_from="right")
        self.fan = HandFan()
        self.chips = Label(halign="center", valign="middle", color=GOLD, bold=True)
        self.words = Label(halign="center", valign="middle", shorten=True,
                           shorten_from="right")
        for w in (self.name, self.fan, self.chips, self.words):
            self.add_widget(w)
        self.state = "idle"
        self.bind(pos=self._place, size=self._place)

    def show(self, name: str, chips: str, words: str, cards: list[int], face_up: bool,
             state: str) -> None:
        self.name.text, self.chips.text, self.words.text = name, chips, words
        self.fan.show(cards, face_up=face_up)
        self.state = state
        self._bg.rgba = {"turn": TURN_BG, "won": WIN_BG}.get(state, IDLE_BG)
        self.opacity = 0.5 if state == "out" else 1
        self._place()

    def _place(self, *_a) -> None:
        x, y = self.pos
        w, h = self.size
        self._box.pos, self._box.size = self.pos, self.size
        line = h * 0.17
        font = min(line * 0.8, w * 0.16)
        self.name.size = (w * 0.96, line)
        self.name.pos = (x + w * 0.02, y + h - line)
        self.fan.size = (w * 0.9, h - 3 * line - 4)
        self.fan.pos = (x + w * 0.05, y + 2 * line + 2)
        self.chips.size = (w * 0.96, line)
        self.chips.pos = (x + w * 0.02, y + line)
        self.words.size = (w * 0.96, line)
        self.words.pos = (x + w * 0.02, y)
        for lab in (self.name, self.chips, self.words):
            lab.font_size = font
            lab.text_size = lab.size
