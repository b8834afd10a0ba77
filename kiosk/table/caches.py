"""How big the app's caches of textures and tables are, for the soak bench and the tests.

A kiosk that runs for months must not grow: every cache of textures, labels and solver
tables has a bound, and these counts are how the bounds are checked from outside (the soak
bench prints them each minute, tests/ui/test_memory_bounds.py asserts them).
"""

from __future__ import annotations

import gc


def live_graphics() -> dict[str, int]:
    """Kivy textures and framebuffers still alive in this process (gc-tracked objects)."""
    from kivy.graphics.fbo import Fbo
    from kivy.graphics.texture import Texture

    counts = {"textures": 0, "fbos": 0}
    for obj in gc.get_objects():
        kind = type(obj)  # not isinstance: a dead weak proxy raises on it
        if issubclass(kind, Fbo):
            counts["fbos"] += 1
        elif issubclass(kind, Texture):
            counts["textures"] += 1
    return counts


def sizes() -> dict[str, int]:
    """Entries of each cache the kiosk keeps, plus the live textures and framebuffers."""
    from . import card_art

    out = card_art.cache_sizes()
    out.update(live_graphics())
    return out
