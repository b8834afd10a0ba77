"""Where every card of a table goes on the screen: the game's declared layout, scaled.

Pure arithmetic (no Kivy), so the snapshot tests can prove that no card leaves the table
area for any game at any screen size. Layout units are card widths with y growing down
(``PileSpec``); screen rectangles are pixels with y growing up (Kivy's convention).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from games import PileSpec

CARD_H = 1.4          # a card is 1 wide and 1.4 tall in layout units
MARGIN = 0.2          # empty border around the layout, in layout units
DOWN_RESERVE = 2.4    # extra height a downward fan with nothing below it wants
#: the corner index of a card face (rank and suit, :func:`kiosk.table.card_art.corner_index`)
#: lies within INDEX_DEPTH card widths of the top edge and INDEX_WIDTH of the left edge, from
#: an inset of INDEX_PAD; the fan offsets below show that much of every covered card, so a
#: queen never reads as an "O" under the next card
INDEX_PAD = 0.05
INDEX_DEPTH = 0.36
INDEX_WIDTH = 0.29
INDEX_GAP = 0.04      # felt-free margin between the index and the next card's edge
FAN_UP = (INDEX_DEPTH + INDEX_GAP) / CARD_H   # face-up card in a downward fan, card heights
FAN_DOWN = 0.12       # ... of a face-down card
FAN_RIGHT = INDEX_WIDTH + INDEX_GAP / 2        # offset in a rightward fan, in card widths
#: extra width a rightward fan with nothing to its right wants: a castle row's seven cards
RIGHT_RESERVE = 6 * FAN_RIGHT
#: a fan that runs out of room squeezes its face-down cards first, down to this share
DOWN_SQUEEZE = 0.35
WASTE_SPREAD = 3      # a fanned waste shows only its top cards spread
OPEN_FAN = 1.7        # a downward fan on a tall screen opens this much wider when it can


#: the widest empty band, in card widths, kept between groups of piles: a layout drawn with
#: its stock far off to one side (Napoleon's Tomb) would sit lopsided and small
MAX_GAP = 0.8


def _close_gaps(layout: tuple[PileSpec, ...]) -> tuple[PileSpec, ...]:
    """The layout with every empty vertical band wider than :data:`MAX_GAP` narrowed to it
    (a display matter only: the piles keep their order, rows and columns)."""
    if len(layout) < 2:
        return layout
    spans = sorted((p.x, p.x + 1 + (RIGHT_RESERVE if p.fan == "right" else 0.0)) for p in layout)
    shifts: list[tuple[float, float]] = []   # (from x on, move left by)
    reach = spans[0][1]
    moved = 0.0
    for left, right in spans[1:]:
        if left - reach > MAX_GAP:
            moved += left - reach - MAX_GAP
            shifts.append((left, moved))
        reach = max(reach, right)
    if not shifts:
        return layout

    def shift(x: float) -> float:
        by = 0.0
        for start, amount in shifts:
            if x >= start - 1e-9:
                by = amount
        return x - by

    return tuple(replace(p, x=shift(p.x)) for p in layout)


class _Fit:
    """How much room a layout wants (in layout units) and the scale that fits it into
    ``width`` x ``height``; where each fan must stop (the pile below it, or beside it)."""

    def __init__(self, layout: tuple[PileSpec, ...], width: float, height: float) -> None:
        n = len(layout)
        self.below: list[float | None] = [None] * n   # layout y where the fan must stop
        self.beside: list[float | None] = [None] * n  # layout x where the fan must stop
        for i, p in enumerate(layout):
            for q in layout:
                if q is p:
                    continue
                if p.fan == "down" and q.y > p.y + 0.01 and abs(q.x - p.x) < 1 - 1e-6:
                    if self.below[i] is None or q.y < self.below[i]:
                        self.below[i] = q.y
                if p.fan == "right" and q.x > p.x + 0.01 and abs(q.y - p.y) < CARD_H - 1e-6:
                    if self.beside[i] is None or q.x < self.beside[i]:
                        self.beside[i] = q.x
        # a rightward fan at the row's end wants the room the layout gives its other fans
        # (a fan of three in La Belle Lucie), else room for a castle row
        gaps = [b - p.x - 1 for p, b in zip(layout, self.beside, strict=True)
                if p.fan == "right" and b is not None]
        right_reserve = min(max(gaps), RIGHT_RESERVE) if gaps else RIGHT_RESERVE
        need_w = need_h = 1.0
        for i, p in enumerate(layout):
            w = p.x + 1 + (right_reserve if p.fan == "right" and self.beside[i] is None else 0)
            h = p.y + CARD_H + (DOWN_RESERVE if p.fan == "down" and self.below[i] is None
                                else 0)
            need_w, need_h = max(need_w, w), max(need_h, h)
        self.min_x = min((p.x for p in layout), default=0.0)
        self.min_y = min((p.y for p in layout), default=0.0)
        self.span_w = need_w - self.min_x + 2 * MARGIN
        self.span_h = need_h - self.min_y + 2 * MARGIN
        self.scale = min(width / self.span_w, height / self.span_h)


#: a band of felt at least this wide (card widths) parts a layout into groups side by side
SIDE_BAND = 0.25
#: the felt between a group moved above the rest and the rest, in card widths
STACK_GAP = 0.3
#: a portrait table stacks its side group only when the cards grow by more than this
PORTRAIT_GAIN = 1.05
#: the step from pile to pile, in card widths, of a side column laid out as a row
ROW_PITCH = 1.15


def _stack_side_group(layout: tuple[PileSpec, ...]) -> tuple[PileSpec, ...] | None:
    """On a tall screen, the layout with its smaller side group (Napoleon's Tomb's stock and
    waste beside the cross, Poker Squares' next card beside the grid) moved above the rest
    and centred over it: drawn beside, both share the width and the cards stay small. The
    groups are parted at the widest band of felt; a group with a downward fan stays where
    it is (it would grow into the rest). None when the layout has no such group."""
    if len(layout) < 2:
        return None

    def right_end(p: PileSpec) -> float:
        return p.x + 1 + (RIGHT_RESERVE if p.fan == "right" else 0.0)

    order = sorted(layout, key=lambda p: p.x)
    reach, band = right_end(order[0]), None
    for p in order[1:]:
        if p.x - reach > SIDE_BAND and (band is None or p.x - reach > band[1] - band[0]):
            band = (reach, p.x)
        reach = max(reach, right_end(p))
    if band is None:
        return None
    left = [p for p in layout if p.x < band[1] - 1e-9]
    right = [p for p in layout if p.x >= band[1] - 1e-9]
    if len(left) == len(right):
        return None
    small, rest = (left, right) if len(left) < len(right) else (right, left)
    if any(p.fan == "down" for p in small):
        return None
    if len(small) > 1 and all(abs(p.x - small[0].x) < 0.01 and p.fan == "none"
                              for p in small):
        # a column (Eight Off's foundations, Pyramid's stock and waste) becomes a row: a
        # column above the rest would take the height its fans grow into
        top = min(p.y for p in small)
        small = [replace(p, x=small[0].x + k * ROW_PITCH, y=top)
                 for k, p in enumerate(sorted(small, key=lambda p: p.y))]
    dx = ((min(p.x for p in rest) + max(right_end(p) for p in rest)) / 2
          - (min(p.x for p in small) + max(right_end(p) for p in small)) / 2)
    dy = min(p.y for p in rest) - STACK_GAP - max(p.y + CARD_H for p in small)
    moved = {p.id: replace(p, x=p.x + dx, y=p.y + dy) for p in small}
    return tuple(moved.get(p.id, p) for p in layout)


@dataclass(frozen=True, slots=True)
class Rect:
    x: float
    y: float
    w: float
    h: float

    @property
    def right(self) -> float:
        return self.x + self.w

    @property
    def top(self) -> float:
        return self.y + self.h

    def contains(self, px: float, py: float) -> bool:
        return self.x <= px <= self.right and self.y <= py <= self.top

    def inside(self, other: Rect, eps: float = 0.5) -> bool:
        return (self.x >= other.x - eps and self.y >= other.y - eps
                and self.right <= other.right + eps and self.top <= other.top + eps)

    def overlap(self, other: Rect) -> float:
        w = min(self.right, other.right) - max(self.x, other.x)
        h = min(self.top, other.top) - max(self.y, other.y)
        return w * h if w > 0 and h > 0 else 0.0

    def union(self, other: Rect) -> Rect:
        x, y = min(self.x, other.x), min(self.y, other.y)
        return Rect(x, y, max(self.right, other.right) - x, max(self.top, other.top) - y)


class TableGeometry:
    """Scales a layout into the area ``(x, y, width, height)`` and places cards.

    The scale is the largest that fits the layout's cards plus some room for fans; a fan
    that would still run out of room (past the area's edge or into the pile below or beside
    it) is squeezed, so every card stays inside the area whatever the pile sizes.
    """

    def __init__(self, layout: Sequence[PileSpec], x: float, y: float, width: float,
                 height: float) -> None:
        self.layout = _close_gaps(tuple(layout))
        self.area = Rect(x, y, width, height)
        fit = _Fit(self.layout, width, height)
        if height > width:
            stacked = _stack_side_group(self.layout)
            if stacked is not None:
                tall = _Fit(stacked, width, height)
                if tall.scale > fit.scale * PORTRAIT_GAIN:
                    self.layout, fit = stacked, tall
        self._below, self._beside = fit.below, fit.beside
        min_x, min_y = fit.min_x, fit.min_y
        self._min_x, self._min_y = min_x, min_y
        span_w, span_h = fit.span_w, fit.span_h
        self.scale = max(1.0, fit.scale)
        self.card_w = self.scale
        self.card_h = self.scale * CARD_H
        used_w = span_w * self.scale
        # centre horizontally; put the layout at the top (fans grow downwards)
        self._ox = x + (width - used_w) / 2 + (MARGIN - min_x) * self.scale
        self._oy_top = y + height - (MARGIN - min_y) * self.scale
        if span_h * self.scale < height and not any(p.fan == "down" for p in self.layout):
            # nothing grows downwards: centre vertically too
            self._oy_top -= (height - span_h * self.scale) / 2

    # ------------------------------------------------------------------ piles
    def base(self, pile: int) -> Rect:
        """Rectangle of the pile's first card (an empty pile's outline)."""
        p = self.layout[pile]
        left = self._ox + p.x * self.scale
        top = self._oy_top - p.y * self.scale
        return Rect(left, top - self.card_h, self.card_w, self.card_h)

    def _limit_bottom(self, pile: int) -> float:
        below = self._below[pile]
        if below is None:
            return self.area.y + MARGIN * self.scale * 0.5
        return self._oy_top - below * self.scale + MARGIN * self.scale * 0.5

    def _limit_right(self, pile: int) -> float:
        beside = self._beside[pile]
        if beside is None:
            return self.area.right - MARGIN * self.scale * 0.5
        return self._ox + beside * self.scale - MARGIN * self.scale * 0.5

    def card_rects(self, pile: int, count: int, down: int = 0) -> list[Rect]:
        """Rectangles of the ``count`` cards of a pile, bottom to top (``down`` face down)."""
        if count <= 0:
            return []
        spec = self.layout[pile]
        b = self.base(pile)
        if spec.fan == "none":
            return [b] * count
        if spec.fan == "down":
            steps = [self.card_h * (FAN_DOWN if k < down else FAN_UP) for k in range(count - 1)]
            room = b.y - self._limit_bottom(pile)
        else:
            steps = [self.card_w * FAN_RIGHT for _ in range(count - 1)]
            if spec.role == "waste":
                first_spread = max(0, count - WASTE_SPREAD)
                steps = [0.0 if k < first_spread else s for k, s in enumerate(steps)]
            room = self._limit_right(pile) - b.right
        total = sum(steps)
        if spec.fan == "down" and 0 < total * OPEN_FAN <= room and \
                self.area.h > self.area.w:
            # a tall screen has room to spare: open the fan so each card shows its whole
            # index (rank and suit). Only all or nothing: half-open fans cut the suit in two.
            steps = [st * OPEN_FAN for st in steps]
            total = sum(steps)
        if total > room:
            steps = _squeeze(steps, down if spec.fan == "down" else 0, max(0.0, room))
        rects = [b]
        offset = 0.0
        for s in steps:
            offset += s
            if spec.fan == "down":
                rects.append(Rect(b.x, b.y - offset, b.w, b.h))
            else:
                rects.append(Rect(b.x + offset, b.y, b.w, b.h))
        return rects

    def pile_area(self, pile: int, count: int, down: int = 0) -> Rect:
        """Where a dropped card counts as dropped on this pile."""
        area = self.base(pile)
        for r in self.card_rects(pile, count, down):
            area = area.union(r)
        return area


def _squeeze(steps: list[float], down: int, room: float) -> list[float]:
    """Shorten a fan to ``room``: the backs of face-down cards carry nothing to read, so
    they close up first (to :data:`DOWN_SQUEEZE`); the face-up cards, whose indexes a
    visitor reads, close up only when that is not enough."""
    hidden = steps[:down]
    shown = steps[down:]
    excess = sum(steps) - room
    give = sum(hidden) * (1 - DOWN_SQUEEZE)
    if excess <= give:
        keep = 1 - excess / sum(hidden)
        return [s * keep for s in hidden] + shown
    hidden = [s * DOWN_SQUEEZE for s in hidden]
    left = room - sum(hidden)
    total = sum(shown)
    factor = max(0.0, left) / total if total else 0.0
    if left < 0:  # not even the closed-up backs fit: everything shares what room there is
        factor = 0.0
        hidden = [s * room / sum(hidden) for s in hidden] if sum(hidden) else hidden
    return hidden + [s * factor for s in shown]
