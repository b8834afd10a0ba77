"""A hand of cards fanned in a row, large enough for a finger, with one card raised.

Why its own widget: the solitaire table lays out piles from a game's layout; a hand held by
a person is a row that must fill the width whatever the number of cards (10 or 11 in Gin),
and a tap belongs to the card whose visible strip is under the finger (the rightmost card
is on top), not to the pile.

What a table marks on a hand is drawn over the cards' visible strips: a coloured band along
the foot of each card of a meld (one colour a meld, so a meld reads as one even when the
visitor has moved its cards apart) and a shade over a card the rules do not allow now. A
hand may be reordered by dragging a card along it (``on_reorder``): the tap still raises.
"""

from __future__ import annotations

from collections.abc import Callable

from kivy.graphics import Color, InstructionGroup, Line, Rectangle
from kivy.properties import BooleanProperty
from kivy.uix.widget import Widget

from kiosk.screens.widgets import GOLD
from kiosk.table.card_art import CardWidget

#: card height / width
ASPECT = 1.4
#: the gap between groups, in card widths
GAP = 0.3
#: the bands that mark melds, one colour a meld (teal, blue, violet, orange): strong on
#: the white card and apart from the red and black of the suits
BANDS = ((0.05, 0.6, 0.5, 1), (0.15, 0.4, 0.9, 1), (0.55, 0.25, 0.75, 1),
         (0.95, 0.5, 0.1, 1))
#: a band's height, as a share of the card's
BAND = 0.07
#: the shade over a card that may not be played now
SHADE = (0.0, 0.0, 0.0, 0.5)
#: a drag starts when the finger has moved this share of a card's width along the hand
DRAG_START = 0.25


class HandFan(Widget):
    """Cards in a row; ``on_pick(code)`` is called with the tapped card when ``active``;
    ``on_reorder(codes)`` with the hand's new order when a card is dragged along it."""

    four_colour = BooleanProperty(False)

    def __init__(self, on_pick: Callable[[int], None] | None = None,
                 on_reorder: Callable[[list[int]], None] | None = None, **kw) -> None:
        super().__init__(**kw)
        self.on_pick = on_pick
        self.on_reorder = on_reorder
        self.codes: list[int] = []
        self.face_up = True
        self.raised = -1
        self.active = False
        self.marked: set[int] = set()
        #: where a gap separates groups (melds): the indices of the first card of each
        self.breaks: frozenset[int] = frozenset()
        #: the card just drawn, outlined in gold so the eye finds it in the hand (-1: none)
        self.fresh = -1
        #: the meld each marked card belongs to (card -> meld number): a band of its colour
        self.bands: dict[int, int] = {}
        #: cards shaded: the rules do not allow them now
        self.dimmed: set[int] = set()
        self._cards: list[CardWidget] = []
        #: a drag along the hand: (touch, card, the card's x when it started)
        self._drag: tuple[object, CardWidget, float] | None = None
        self._dragging = False
        with self.canvas.after:
            self._marks = InstructionGroup()
            self._mark_color = Color(*GOLD[:3], 0)
            self._mark = Line(width=2.5)
        self.bind(pos=self._place, size=self._place, four_colour=self._recolour)

    def _recolour(self, *_a) -> None:
        for card in self._cards:
            card.four_colour = self.four_colour

    def show(self, codes: list[int], face_up: bool = True, raised: int = -1,
             marked: set[int] | None = None, groups: list[int] | None = None,
             fresh: int = -1, bands: dict[int, int] | None = None,
             dimmed: set[int] | None = None) -> None:
        """``groups``: the sizes of leading groups shown apart (a knocker's melds);
        ``fresh``: the card just drawn, outlined; ``bands``: card -> meld number, a band of
        the meld's colour; ``dimmed``: cards shaded (not playable now)."""
        self.codes, self.face_up, self.raised = list(codes), face_up, raised
        self.fresh = fresh if fresh in self.codes else -1
        self.marked = set(marked or ())
        self.bands = {c: m for c, m in (bands or {}).items() if c in self.codes}
        self.dimmed = set(dimmed or ()) & set(self.codes)
        edges, at = set(), 0
        for size in groups or ():
            at += size
            edges.add(at)
        self.breaks = frozenset(e for e in edges if 0 < e < len(codes))
        while len(self._cards) < len(codes):
            card = CardWidget(0, four_colour=self.four_colour)
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
        self._draw_marks()

    def _strip(self, k: int) -> float:
        """The width of card ``k``'s visible strip (the whole card when it is the last)."""
        card = self._cards[k]
        return card.width if k == len(self.codes) - 1 else min(card.width, self.step())

    def _draw_marks(self) -> None:
        """The meld bands along the foot of each card's visible strip, and the shade over a
        card that may not be played."""
        self._marks.clear()
        if not self.face_up:
            return
        for k, (card, code) in enumerate(zip(self._cards, self.codes, strict=True)):
            if card is (self._drag[1] if self._drag else None) and self._dragging:
                w = card.width
            else:
                w = self._strip(k)
            if code in self.bands:
                self._marks.add(Color(*BANDS[self.bands[code] % len(BANDS)]))
                self._marks.add(Rectangle(pos=(card.x + 1, card.y + 1),
                                          size=(w - 2, card.height * BAND)))
            if code in self.dimmed:
                self._marks.add(Color(*SHADE))
                self._marks.add(Rectangle(pos=card.pos, size=(w, card.height)))

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
        if not self.collide_point(*touch.pos):
            return False
        code = self.card_at(*touch.pos)
        if code is None or not (self.active or self.on_reorder is not None):
            return False
        if self.on_reorder is None:
            if self.on_pick is not None:
                self.on_pick(code)
            return True
        # a hand that can be reordered picks on release: the touch may become a drag
        card = self._cards[self.codes.index(code)]
        self._drag, self._dragging = (touch, card, card.x), False
        touch.grab(self)
        return True

    def on_touch_move(self, touch) -> bool:
        if self._drag is None or touch.grab_current is not self:
            return False
        start, card, x0 = self._drag
        dx = touch.x - touch.ox
        if not self._dragging and abs(dx) >= DRAG_START * card.width:
            self._dragging = True
            self.remove_widget(card)  # on top of its neighbours while it moves
            self.add_widget(card)
        if self._dragging:
            card.x = x0 + dx
            self._outline()
            self._draw_marks()
        return True

    def on_touch_up(self, touch) -> bool:
        if self._drag is None or touch.grab_current is not self:
            return False
        touch.ungrab(self)
        _start, card, _x0 = self._drag
        dragged, self._drag, self._dragging = self._dragging, None, False
        code = int(card.code)
        if not dragged:
            if self.active and self.on_pick is not None:
                self.on_pick(code)
            return True
        others = [(c.x, int(c.code)) for c in self._cards if c is not card]
        at = sum(1 for x, _c in others if x + card.width / 2 < card.x + card.width / 2)
        order = [c for _x, c in sorted(others)]
        order.insert(at, code)
        self._restack()
        if self.on_reorder is not None and order != self.codes:
            self.on_reorder(order)
        self._place()
        return True

    def _restack(self) -> None:
        """The cards' drawing order back to left-to-right (a dragged card went on top)."""
        for card in self._cards:
            self.remove_widget(card)
        for card in self._cards:
            self.add_widget(card)
