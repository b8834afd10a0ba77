"""Wait for each frame to be drawn when no display does it: SDL's offscreen window.

Measured with ``bench/soak.py`` (docs/benchmarks.md, "Soak: attract mode memory"): on SDL's
offscreen driver with Mesa's llvmpipe, the app in attract mode grew by 10-15 MB a frame
while cards moved, 2.6 GB within minutes. The growth was memory malloc'd inside Mesa's draw
calls (heaptrack: ``VertexBatch.draw`` into swrast_dri.so), not Python objects, textures or
framebuffers, whose counts stayed flat; ``malloc_trim`` gave none of it back. Nothing paces
an offscreen window: its buffer swap does not wait for the rasteriser, so frame after frame
of queued drawing piles up. ``glFlush`` does not help, ``glFinish`` after each frame does
(flat memory). A display's swap (kmsdrm on the Pi, x11, wayland) waits for its frame
already, so there nothing is attached and nothing is spent.
"""

from __future__ import annotations

import logging
from typing import Any

log = logging.getLogger("kiosk.frames")

#: SDL video drivers whose windows are not shown anywhere, so no swap paces the frames
UNPACED_DRIVERS = ("offscreen", "dummy")


def needs_finish(video_driver: str | None) -> bool:
    """True when each frame must be waited for (see the module docstring)."""
    return (video_driver or "").lower() in UNPACED_DRIVERS


def attach(window: Any, video_driver: str | None) -> bool:
    """Finish every frame of ``window`` when :func:`needs_finish` says so; True if attached."""
    if not needs_finish(video_driver):
        return False
    from kivy.graphics.opengl import glFinish

    def finish(*_a: Any) -> None:
        glFinish()

    window.bind(on_flip=finish)
    log.info("%s window: each frame is finished before the next", video_driver)
    return True
