"""Pictures of what the window shows (snapshots, docs/screenshots, tests).

The root widget's canvas is drawn again into an offscreen framebuffer and saved as PNG.
Reading the window's own buffer after a buffer swap (``Window.screenshot``) returns an
older frame, or black, under SDL's offscreen driver; a framebuffer is deterministic.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path


def save_png(path: str | os.PathLike) -> Path:
    """Render the app's root widget (every screen and sheet lives inside it) to ``path``."""
    from kivy.core.window import Window

    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    root = Window.children[-1] if Window.children else None
    if root is None:
        raise RuntimeError("nothing is shown in the window")
    root.export_to_png(str(target))
    return target


def capture(path: str | os.PathLike, done: Callable[[Path], None] | None = None) -> None:
    """Save the picture on the next frame (after pending layouts ran), then ``done(path)``."""
    from kivy.clock import Clock

    def shoot(_dt) -> None:
        made = save_png(path)
        if done is not None:
            done(made)

    Clock.schedule_once(shoot, 0)
