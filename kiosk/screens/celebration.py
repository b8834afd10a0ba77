"""The win celebration: the cards leave the foundations one by one and bounce across the
screen, leaving a trail (the moment every solitaire player knows), and a short firework.

One module, so the table's win and attract mode's won demo celebrate the same way (a
visitor who watched the demo recognises the moment at the table).

Cheap on a Pi by construction: the trail is a fixed pool of :data:`TRAIL` rectangles made
once and moved round in a ring, every card picture is the table's cached texture
(:func:`kiosk.table.card_art.card_texture`), and one clock event at 30 frames per second
moves everything; nothing is created per frame.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from kivy.animation import Animation
from kivy.clock import Clock
from kivy.graphics import Color, Rectangle
from kivy.uix.widget import Widget

from kiosk.screens.text_fit import LadderLabel as Label
from kiosk.table.card_art import card_texture

SYMBOLS = "♠♥♦♣★"
#: how long the cascade runs unless a tap ends it (seconds)
CASCADE_SECONDS = 6.0
#: a new card leaves a foundation this often (seconds)
LAUNCH_EVERY = 0.35
#: trail pictures, the most that are ever drawn (the ring reuses the oldest)
TRAIL = 140
#: at most this many cards fly at once
FLYING = 4
FRAME = 1 / 30


def fireworks(layer: Widget, size: tuple[float, float], seed: int = 0, count: int = 18) -> None:
    """Launch ``count`` symbols from below the bottom edge of ``layer`` (a FloatLayout
    covering a screen of ``size``); they rise into the upper half and fade. ``seed`` makes
    each deal's firework its own but repeatable (screenshots)."""
    w, h = size
    u = min(w, h) / 480
    rnd = random.Random(seed)
    for _ in range(count):
        sym = rnd.choice(SYMBOLS)
        red = sym in "♥♦"
        lab = Label(text=sym, font_size=rnd.randint(28, 56) * u, size_hint=(None, None),
                    size=(60 * u, 60 * u),
                    color=(0.95, 0.2, 0.2, 1) if red else (1, 0.85, 0.3, 1)
                    if sym == "★" else (1, 1, 1, 1))
        lab.pos = (rnd.uniform(0, max(0.0, w - 60 * u)), -60 * u)
        layer.add_widget(lab, index=len(layer.children))
        Animation(y=rnd.uniform(h * 0.4, h * 0.95), opacity=0,
                  d=rnd.uniform(1.2, 2.2), t="out_quad").start(lab)


def cascade_over(layer: Widget, game, geom, seed: int = 0, four_colour: bool = False,
                 index: int = 0, area: tuple[float, float, float, float] | None = None
                 ) -> Cascade:
    """Start a :class:`Cascade` of ``game``'s cards (laid out by ``geom``, a
    :class:`kiosk.table.geometry.TableGeometry` in window coordinates) over ``layer``, in
    ``area`` (x, y, width, height; the layer's box by default: a layer added this frame
    has no size yet)."""
    x, y, w, h = area if area is not None else (*layer.pos, *layer.size)
    cascade = Cascade(size_hint=(None, None), pos=(x, y), size=(w, h))
    layer.add_widget(cascade, index=index)
    cards = launch_order(game, lambda i: geom.card_rects(i, len(game.cards[i]), game.down[i]))
    cascade.start(cards, (geom.card_w, geom.card_h), seed=seed, four_colour=four_colour)
    return cascade


def launch_order(game, rects: Callable[[int], Sequence]) -> list[tuple[int, float, float]]:
    """``(card, x, y)`` for the cards that fly, in the order they leave: the top card of
    each foundation in turn (kings first, as in the classic), from where it lies on the
    table (``rects(pile)`` gives the pile's card rectangles). A game without foundations
    (Golf, the pairing games) sends off the cards of its discard or waste piles, and a
    table with neither any pile that still holds cards."""
    roles = getattr(game, "roles", {}) or {}
    piles = list(roles.get("foundation", ()))
    if not any(game.cards[i] for i in piles):
        piles = [i for role in ("discard", "waste") for i in roles.get(role, ())]
    if not any(game.cards[i] for i in piles):
        piles = list(range(len(game.cards)))
    stacks = []
    for i in piles:
        cards = list(game.cards[i])
        if cards:
            stacks.append([(code, r.x, r.y) for code, r in zip(cards, rects(i), strict=False)])
    out: list[tuple[int, float, float]] = []
    while any(stacks):
        for stack in stacks:
            if stack:
                out.append(stack.pop())
    return out


class _Flyer:
    """One card in flight: where, how fast, its picture."""

    __slots__ = ("x", "y", "vx", "vy", "texture", "bounces")

    def __init__(self, x: float, y: float, vx: float, vy: float, texture) -> None:
        self.x, self.y, self.vx, self.vy, self.texture = x, y, vx, vy, texture
        self.bounces = 0


class Cascade(Widget):
    """The bouncing cards over a won table. ``start`` it with the cards in launch order and
    the card size; it ends by itself after ``seconds`` or at the first tap (``on_done``
    is called once either way, and the widget removes itself). It takes every touch while
    it runs, so the tap that ends it does nothing else."""

    __events__ = ("on_done",)

    def __init__(self, **kw) -> None:
        super().__init__(**kw)
        self._ev = None
        self._cards: list[tuple[int, float, float]] = []
        self._flying: list[_Flyer] = []
        self._size = (0, 0)
        self._t = 0.0
        self._next_launch = 0.0
        self._seconds = CASCADE_SECONDS
        self._rnd = random.Random(0)
        self._ring = 0
        self._frame = 0
        self.launched = 0
        self.running = False
        with self.canvas:
            self._tint = Color(1, 1, 1, 1)
            self._trail = [Rectangle(size=(0, 0)) for _ in range(TRAIL)]
            self._heads = [Rectangle(size=(0, 0)) for _ in range(FLYING)]
        self.bind(parent=self._parent_changed)

    def _parent_changed(self, _w, parent) -> None:
        if parent is None and self.running:  # taken off the screen: stop the clock too
            self.finish()

    def on_done(self) -> None:
        pass

    def start(self, cards: list[tuple[int, float, float]], card_size: tuple[float, float],
              seed: int = 0, seconds: float = CASCADE_SECONDS, four_colour: bool = False
              ) -> None:
        self._cards = list(cards)
        w, h = int(round(card_size[0])), int(round(card_size[1]))
        self._size = (max(4, w), max(4, h))
        self._four = four_colour
        self._rnd = random.Random(seed)
        self._seconds = seconds
        self._t = self._next_launch = 0.0
        self.running = True
        if not self._cards:
            self.finish()
            return
        self._ev = Clock.schedule_interval(self._tick, FRAME)

    def finish(self) -> None:
        """End now (a tap, the time is up, the screen is left): once."""
        if not self.running:
            return
        self.running = False
        if self._ev is not None:
            self._ev.cancel()
        self._ev = None
        self._flying.clear()
        for r in (*self._trail, *self._heads):
            r.size = (0, 0)
        if self.parent is not None:
            self.parent.remove_widget(self)
        self.dispatch("on_done")

    def _launch(self) -> None:
        code, x, y = self._cards.pop(0)
        rnd = self._rnd
        speed = self.width * rnd.uniform(0.22, 0.45)
        # away from the nearer side, so a card crosses most of the screen
        vx = speed if x + self._size[0] / 2 < self.center_x else -speed
        vy = self.height * rnd.uniform(-0.1, 0.6)
        tex = card_texture(code, True, self._size[0], self._size[1], self._four)
        self._flying.append(_Flyer(x, y, vx, vy, tex))
        self.launched += 1

    def _tick(self, dt: float) -> None:
        if self.get_root_window() is None:  # its layer was taken off the screen
            self.finish()
            return
        dt = min(dt, 0.1)  # a slow frame must not throw the cards off the screen
        self._t += dt
        if self._t >= self._seconds:
            self.finish()
            return
        if self._t >= self._next_launch and self._cards and len(self._flying) < FLYING:
            self._launch()
            self._next_launch = self._t + LAUNCH_EVERY
        gravity = self.height * 2.2
        cw, ch = self._size
        self._frame += 1
        keep: list[_Flyer] = []
        for f in self._flying:
            f.vy -= gravity * dt
            f.x += f.vx * dt
            f.y += f.vy * dt
            floor = self.y
            if f.y < floor:
                f.y = floor
                f.vy = -f.vy * 0.72
                f.bounces += 1
            if self.x - cw < f.x < self.right and f.bounces < 12:
                keep.append(f)
            if self._frame % 2 == 0:  # a trail picture every other frame
                r = self._trail[self._ring]
                self._ring = (self._ring + 1) % TRAIL
                r.texture, r.pos, r.size = f.texture, (f.x, f.y), (cw, ch)
        self._flying = keep
        for k, r in enumerate(self._heads):
            if k < len(keep):
                r.texture, r.pos, r.size = keep[k].texture, (keep[k].x, keep[k].y), (cw, ch)
            else:
                r.size = (0, 0)
        if not keep and not self._cards:
            self.finish()

    def on_touch_down(self, touch) -> bool:
        if self.running:
            touch.ud["cascade"] = True
            self.finish()
        return True

    def on_touch_move(self, touch) -> bool:
        return True

    def on_touch_up(self, touch) -> bool:
        return True
