"""One computer player's place at the Draw Poker table: its name, its cards, its chips,
and what it did last.

Why a widget: up to seven of these share the top of an 800x480 screen, so each is a small
box whose parts the screen sizes by lines of text at the reading floor; the screen only
tells it what to show and how much room it has. Every text reads at the floor (18 px a
unit) with 4.5:1 contrast on the seat's own fill, whatever the seat's state: the seat to
move is framed in white on the usual dark fill, the pot's winner is solid gold with dark
ink (gold on see-through gold read at 2.0:1), and a seat that folded or has no chips keeps
grey text at 4.5:1 while its cards fade (the whole seat at half opacity read at 3:1).

Two shapes: ``tall`` (name, cards, chips, words) where the height allows, and ``text``
(name, chips, words; seven opponents at 800x480 leave no room for a row of backs, which
tell nothing anyway): there a hand shown at the showdown takes the place of the chips and
the words, its name on a strip over the cards' lower half, under the corner indexes.
"""

from __future__ import annotations

from kivy.graphics import Color, Line, Rectangle, RoundedRectangle
from kivy.uix.widget import Widget

from kiosk.screens.text_fit import READ_PX, FitLabel, line_px
from kiosk.screens.widgets import GOLD, INK_DARK
from kiosk.table.hand_fan import ASPECT, HandFan

#: the seat's fill in each state, and the colours of its name, chips and words
FILL = {"idle": (0, 0, 0, 0.3), "turn": (0, 0, 0, 0.3), "out": (0, 0, 0, 0.3),
        "won": GOLD}
WHITE = (1, 1, 1, 1)
GREY = (0.74, 0.74, 0.74, 1)
INK = {"idle": (WHITE, GOLD, WHITE), "turn": (WHITE, GOLD, WHITE),
       "out": (GREY, GREY, GREY), "won": (INK_DARK, INK_DARK, INK_DARK)}
#: the frame round the seat to move
TURN_LINE = (1, 1, 1, 0.95)
#: the strip under a shown hand's name, over its cards (dark, or gold on the winner)
STRIP = (0.02, 0.1, 0.05, 0.88)
#: the fan's spare room above the cards (HandFan keeps it for a raised card)
LIFT = 0.16
#: the least share of a covered card's width a seat's fan shows
SHOWN = 0.5


def seat_line(unit: float, font_name: str) -> float:
    """The height of one line of seat text at the reading floor (a unit is the short side
    of the screen / 480)."""
    return line_px(READ_PX * unit, font_name, True) + 2 * unit


class SeatLabel(FitLabel):
    """A seat's text, with a strip of its own behind it when it lies over the cards."""

    def __init__(self, **kw) -> None:
        kw.setdefault("halign", "center")
        super().__init__(**kw)
        with self.canvas.before:
            self._strip_colour = Color(*STRIP[:3], 0)
            self._strip = Rectangle()
        self.bind(pos=self._fit_strip, size=self._fit_strip)

    def backing(self, rgba: tuple[float, ...] | None) -> None:
        self._strip_colour.rgba = rgba if rgba is not None else (0, 0, 0, 0)

    def _fit_strip(self, *_a) -> None:
        self._strip.pos, self._strip.size = self.pos, self.size


class PokerSeat(Widget):
    """``show(name, chips, words, cards, face_up, state)``; ``state`` is ``idle``,
    ``turn``, ``out`` (folded or broke) or ``won``. The screen sets :attr:`unit`,
    :attr:`shape` (``tall`` or ``text``) and :attr:`words_lines` before placing it."""

    def __init__(self, **kw) -> None:
        super().__init__(**kw)
        self.unit = 1.0
        self.shape = "tall"
        self.words_lines = 1
        with self.canvas.before:
            self._bg = Color(*FILL["idle"])
            self._box = RoundedRectangle(radius=[8])
            self._frame_colour = Color(*TURN_LINE[:3], 0)
            self._frame = Line(width=2)
        self.fan = HandFan()
        self.name = SeatLabel(bold=True)
        self.chips = SeatLabel(bold=True)
        self.words = SeatLabel()
        for w in (self.fan, self.name, self.chips, self.words):
            self.add_widget(w)
        self.state = "idle"
        self.face_up = False
        self.bind(pos=self._place, size=self._place)

    def show(self, name: str, chips: str, words: str, cards: list[int], face_up: bool,
             state: str) -> None:
        self.name.text, self.chips.text, self.words.text = name, chips, words
        self.fan.show(cards, face_up=face_up)
        self.state, self.face_up = state, face_up
        self._bg.rgba = FILL.get(state, FILL["idle"])
        for label, ink in zip((self.name, self.chips, self.words),
                              INK.get(state, INK["idle"]), strict=True):
            label.color = ink
        self._frame_colour.a = TURN_LINE[3] if state == "turn" else 0
        self.fan.opacity = 0.35 if state == "out" else 1
        self._place()

    @property
    def showing_hand(self) -> bool:
        """A ``text`` seat whose hand is shown (the showdown): the cards replace the chips."""
        return self.shape == "text" and self.face_up and bool(self.fan.codes)

    def _place(self, *_a) -> None:
        x, y = self.pos
        w, h = self.size
        u = self.unit
        self._box.pos, self._box.size = self.pos, self.size
        self._box.radius = [8 * u]
        self._frame.width = 1.5 * u
        self._frame.rounded_rectangle = (x + 1.5 * u, y + 1.5 * u, w - 3 * u, h - 3 * u,
                                         8 * u)
        pad = 2 * u
        line = seat_line(u, self.name.font_name)
        inner = w - 2 * pad
        floor = READ_PX * u
        for label in (self.name, self.chips, self.words):
            label.min_font = floor
            label.font_size = floor
        top = y + h - pad
        self.name.size, self.name.pos = (inner, line), (x + pad, top - line)
        self.words.backing(None)
        if self.shape == "tall":
            words_h = line * self.words_lines
            self.words.size, self.words.pos = (inner, words_h), (x + pad, y + pad)
            self.chips.size, self.chips.pos = (inner, line), (x + pad, self.words.top)
            self._fan_in(x + pad, self.chips.top + u, inner, self.name.y - u - self.chips.top)
            self.chips.opacity = 1
            self.fan.opacity = 0.35 if self.state == "out" else 1
            return
        if self.showing_hand:  # name, then the cards with the hand's name over their foot
            self._fan_in(x + pad, y + pad, inner, self.name.y - u - y - pad)
            card_h = self.fan.card_size()[1]
            self.words.size = (inner, min(line, card_h * 0.5))
            self.words.pos = (x + pad, y + pad)
            self.words.backing(GOLD if self.state == "won" else STRIP)
            self.chips.opacity = 0
            self.fan.opacity = 1
            return
        self.fan.opacity = 0
        self.chips.opacity = 1
        self.chips.size, self.chips.pos = (inner, line), (x + pad, self.name.y - line)
        self.words.size, self.words.pos = (inner, line), (x + pad, self.chips.y - line)

    def _fan_in(self, x: float, y: float, w: float, h: float) -> None:
        """The cards in the box (x, y, w, h), centred in its height, no wider than lets
        each covered card show half of itself (:data:`SHOWN`): its whole corner index and
        more, never a sliver. The fan is given, above its cards, the room it keeps for a
        raised card (none is raised here)."""
        n = max(5, len(self.fan.codes))
        card_h = max(1.0, min(h, w / (1 + SHOWN * (n - 1)) * ASPECT))
        self.fan.size = (w, card_h * (1 + LIFT))
        self.fan.pos = (x, y + (max(h, card_h) - card_h) / 2)
