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
    if len(Window.children) == 1:
        root.export_to_png(str(target))
        return target
    # something lies over the screens ("Still playing?" is put on the window itself):
    # every child is drawn, the first added at the bottom, as the window draws them
    from kivy.core.image import Image as CoreImage
    from kivy.graphics import ClearBuffers, ClearColor, Fbo, Scale, Translate
    from kivy.graphics.texture import Texture

    w, h = Window.size
    fbo = Fbo(size=(w, h), with_stencilbuffer=True)
    with fbo:
        ClearColor(0, 0, 0, 0)
        ClearBuffers()
        Scale(1, -1, 1)
        Translate(0, -h, 0)
    layers = [child.canvas for child in reversed(Window.children)]
    for canvas in layers:
        fbo.add(canvas)
    fbo.draw()
    # the colours are blended right, but a veil's alpha is blended too (0.75 over an
    # opaque screen): the window shows it opaque, and so does the picture
    pixels = bytearray(fbo.texture.pixels)
    pixels[3::4] = b"\xff" * (len(pixels) // 4)
    flat = Texture.create(size=(w, h), colorfmt="rgba")
    flat.blit_buffer(bytes(pixels), colorfmt="rgba", bufferfmt="ubyte")
    CoreImage(flat).save(str(target), flipped=False)
    for canvas in layers:
        fbo.remove(canvas)
    return target


def capture(path: str | os.PathLike, done: Callable[[Path], None] | None = None) -> None:
    """Save the picture on the next frame (after pending layouts ran), then ``done(path)``."""
    from kivy.clock import Clock

    def shoot(_dt) -> None:
        made = save_png(path)
        if done is not None:
            done(made)

    Clock.schedule_once(shoot, 0)
