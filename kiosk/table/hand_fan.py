"""A hand of cards fanned in a row, large enough for a finger, with one card raised.

Why its own widget: the solitaire table lays out piles from a game's layout; a hand held by
a person is a row that must fill the width whatever the number of cards (10 or 11 in Gin),
and a tap belongs to the card whose visible strip is under the finger (the rightmost card
is on top), not to the pile.
"""

from __future__ import annotations

from collections.abc import Callable

from kivy.graphics import Color, Line
from kivy.uix.widget import Widget

from kiosk.screens.widgets import GOLD
from kiosk.table.card_art import CardWidget

#: card height / width
ASPECT = 1.4
#: the gap between groups, in card widths
GAP = 0.3


class HandFan(Widget):
    """Cards in a row; ``on_pick(code)`` is called with the tapped card when ``active``."""

    def __init__(self, on_pick: Callable[[int], None] | None = None, **kw) -> None:
        super().__init__(**kw)
        self.on_pick = on_pick
        self.codes: list[int] = []
        self.face_up = True
        self.raised = -1
        self.active = False
        self.marked: set[int] = set()
        #: where a gap separates groups (melds): the indices of the first card of each
        self.breaks: frozenset[int] = frozenset()
        #: the card just drawn, outlined in gold so the eye finds it in the hand (-1: none)
        self.fresh = -1
        self._cards: list[CardWidget] = []
        with self.canvas.after:
            self._mark_color = Color(*GOLD[:3], 0)
            self._mark = Line(width=2.5)
        self.bind(pos=self._place, size=self._place)

    def show(self, codes: list[int], face_up: bool = True, raised: int = -1,
             marked: set[int] | None = None, groups: list[int] | None = None,
             fresh: int = -1) -> None:
        """``groups``: the sizes of leading groups shown apart (a knocker's melds);
        ``fresh``: the card just drawn, outlined."""
        self.codes, self.face_up, self.raised = list(codes), face_up, raised
        self.fresh = fresh if fresh in self.codes else -1
        self.marked = set(marked or ())
        edges, at = set(), 0
        for size in groups or ():
            at += size
            edges.add(at)
        self.breaks = frozenset(e for e in edges if 0 < e < len(codes))
        while len(self._cards) < len(codes):
            card = CardWidget(0)
            self._cards.append(card)
            self.add_widget(card)
        while len(self._cards) > len(codes):
            self.remove_widget(self._cards.pop())
        for card, code in zip(self._cards, codes, strict=True):
            card.code, card.face_up = code, face_up
        self._place()

    def card_size(self) -> tuple[float, float]:
        lift = 0.16
        h = self.height / (1 + lift)
        w = h / ASPECT
        n = max(1, len(self.codes))
        # the row must fit: a card, n-1 strips of at least 40% of a card, and the gaps
        room = 1 + 0.4 * (n - 1) + GAP * len(self.breaks)
        w = min(w, self.width / room if n > 1 else self.width)
        return w, w * ASPECT

    def step(self) -> float:
        w, _h = self.card_size()
        n = len(self.codes)
        if n < 2:
            return 0.0
        return min(w * 1.05, (self.width - w - GAP * w * len(self.breaks)) / (n - 1))

    def _place(self, *_a) -> None:
        w, h = self.card_size()
        step = self.step()
        gap = GAP * w
        span = w + step * max(0, len(self.codes) - 1) + gap * len(self.breaks)
        x = self.x + (self.width - span) / 2
        for k, (card, code) in enumerate(zip(self._cards, self.codes, strict=True)):
            if k in self.breaks:
                x += gap
            card.size = (w, h)
            up = h * 0.16 if code == self.raised or code in self.marked else 0
            card.pos = (x, self.y + up)
            x += step
        self._outline()

    def _outline(self) -> None:
        """The gold frame round the fresh card's visible strip (the whole card when last)."""
        if self.fresh < 0 or not self.face_up:
            self._mark_color.a = 0
            return
        k = self.codes.index(self.fresh)
        card = self._cards[k]
        last = k == len(self.codes) - 1
        w = card.width if last else min(card.width, self.step())
        self._mark_color.a = 1
        self._mark.rounded_rectangle = (card.x + 1, card.y + 1, w - 2, card.height - 2, 6)

    def card_at(self, x: float, y: float) -> int | None:
        """The card under a point: the topmost (rightmost) whose rectangle holds it."""
        for card, code in reversed(list(zip(self._cards, self.codes, strict=True))):
            if card.collide_point(x, y):
                return code
        return None

    def center_of(self, code: int) -> tuple[float, float]:
        """Window coordinates of the visible middle of ``code`` (for touches in tests)."""
        k = self.codes.index(code)
        card = self._cards[k]
        last = k == len(self.codes) - 1
        x = card.x + (card.width / 2 if last else min(card.width, self.step()) / 2)
        return self.to_window(x, card.y + card.height / 2)

    def on_touch_down(self, touch) -> bool:
        if not self.active or not self.collide_point(*touch.pos):
            return False
        code = self.card_at(*touch.pos)
        if code is None:
            return False
        if self.on_pick is not None:
            self.on_pick(code)
        return True
