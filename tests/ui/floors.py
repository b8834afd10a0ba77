"""The reading floor, measured from the widgets: every text a visitor reads is drawn at
least ``READ_PX`` px a unit (18 px at 800x480: a 13 px cap height), the size Kivy draws it
at, not the size it was asked for (used by test_floors and by the hand tables' tests)."""

from __future__ import annotations

import re

from kivy.core.window import Window
from kivy.uix.label import Label

from kiosk.screens.text_fit import READ_PX

from .contrast import _opacity, _shows


def drawn_px(label: Label) -> float:
    """The size the label's text is drawn at: the smallest of its own and of any markup
    ``[size=N]`` inside it (a variant's description was a 15 px line under its name)."""
    px = float(label._label.options.get("font_size", label.font_size))
    if label.markup:
        px = min([px, *(float(n) for n in re.findall(r"\[size=([0-9.]+)\]", label.text))])
    return px


def text_floor_problems(root, where: str) -> list[str]:
    """The readable labels under ``root`` drawn smaller than the reading floor."""
    u = min(Window.size) / 480
    floor = READ_PX * u
    out = []
    for w in root.walk(restrict=True):
        if not isinstance(w, Label) or not str(w.text).strip():
            continue
        if w.width < 2 or w.height < 2 or not _shows(w) or _opacity(w) < 0.05:
            continue
        px = drawn_px(w)
        if px < floor - 0.01:
            out.append(f"{where}: {type(w).__name__} {str(w.text)[:30]!r} drawn at "
                       f"{px:.1f} px < {floor:.1f}")
    return out
