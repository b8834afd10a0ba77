"""Screenshots of the running window (snapshots, docs/screenshots, tests).

The picture is read on the frame after the next draw (``on_flip``): reading the buffer at
any other moment gives black under SDL's offscreen driver.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path


def capture(path: str | os.PathLike, done: Callable[[Path], None] | None = None) -> None:
    """Save the next drawn frame to ``path`` (PNG), then call ``done(path)``."""
    from kivy.core.window import Window

    target = Path(path)

    def flip(*_a) -> None:
        Window.unbind(on_flip=flip)
        with tempfile.TemporaryDirectory() as tmp:
            made = Window.screenshot(os.path.join(tmp, "shot.png"))
            if made:
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.move(made, target)
        if done is not None:
            done(target)

    Window.bind(on_flip=flip)
    Window.canvas.ask_update()
