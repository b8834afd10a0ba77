"""The win celebration: suit symbols rise and fade, a short and cheap firework.

One function, so the table's "You won!" sheet and attract mode's won demo celebrate the same
way (a visitor who watched the demo recognises the moment at the table).
"""

from __future__ import annotations

import random

from kivy.animation import Animation
from kivy.uix.label import Label
from kivy.uix.widget import Widget

SYMBOLS = "♠♥♦♣★"


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
