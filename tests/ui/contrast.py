"""The contrast of text against what is drawn behind it (WCAG 2.x 1.4.3), read from Kivy's
own drawing instructions: the window's clear colour, then every coloured rectangle drawn
under the label's middle before the label, blended by its alpha and its widgets' opacity;
the felt's texture by its own formula. Used by test_contrast."""

from __future__ import annotations

from kivy.core.window import Window
from kivy.graphics import (
    Canvas,
    Color,
    InstructionGroup,
    PopMatrix,
    PushMatrix,
    Rectangle,
    RoundedRectangle,
    StencilPop,
    StencilPush,
    StencilUnUse,
    StencilUse,
    Translate,
)
from kivy.uix.label import Label
from kivy.uix.stencilview import StencilView

from kiosk.screens.widgets import vignette_rgb, vignette_texture

#: WCAG 1.4.3: 4.5:1, and 3:1 for large text (24 px, or 18.66 px bold; px a unit here)
NORMAL, LARGE = 4.5, 3.0
LARGE_PX, LARGE_BOLD_PX = 24.0, 18.66


def _linear(c: float) -> float:
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def luminance(rgb) -> float:
    r, g, b = (_linear(max(0.0, min(1.0, c))) for c in rgb[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def ratio(a, b) -> float:
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def blend(top, alpha: float, under) -> tuple[float, float, float]:
    return tuple(top[k] * alpha + under[k] * (1 - alpha) for k in range(3))


class _Stop(Exception):
    pass


def background(label: Label) -> tuple[float, float, float]:
    """The colour drawn under the middle of ``label`` before its text."""
    wx, wy = label.to_window(*label.center)
    colour = tuple(Window.clearcolor[:3])
    state = {"rgba": (1, 1, 1, 1), "dx": 0.0, "dy": 0.0, "stack": [], "opacity": [1.0],
             "mask": False}
    felt = vignette_texture()
    plain = Rectangle().texture  # Kivy's white texture under every untextured shape

    hidden = _other_screens(label) | _clipped_here(label, wx, wy)

    def visit(group, stop_at) -> None:
        nonlocal colour
        is_canvas = isinstance(group, Canvas)
        if is_canvas:
            state["opacity"].append(state["opacity"][-1] * group.opacity)
        for ins in group.children:  # a canvas's before and after groups are among them
            if group is stop_at and not (is_canvas and group.has_before and
                                         ins is group.before):
                raise _Stop  # a button's own face (before) is under its text, the rest not
            if id(ins) in hidden:
                continue
            if isinstance(ins, (Canvas, InstructionGroup)):
                visit(ins, stop_at)
            elif isinstance(ins, Color):
                state["rgba"] = tuple(ins.rgba)
            elif isinstance(ins, PushMatrix):
                state["stack"].append((state["dx"], state["dy"]))
            elif isinstance(ins, PopMatrix):
                if state["stack"]:
                    state["dx"], state["dy"] = state["stack"].pop()
            elif isinstance(ins, Translate):
                state["dx"] += ins.x
                state["dy"] += ins.y
            elif isinstance(ins, (StencilPush, StencilUnUse)):
                state["mask"] = True  # the shapes that follow cut the clip, not drawn
            elif isinstance(ins, (StencilUse, StencilPop)):
                state["mask"] = False
            elif isinstance(ins, (Rectangle, RoundedRectangle)) and not state["mask"]:
                x, y = ins.pos[0] + state["dx"], ins.pos[1] + state["dy"]
                w, h = ins.size
                if not (x <= wx <= x + w and y <= wy <= y + h) or w < 1 or h < 1:
                    continue
                rgba = state["rgba"]
                alpha = rgba[3] * state["opacity"][-1]
                tex = ins.texture
                if tex is None or tex is plain:
                    colour = blend(rgba, alpha, colour)
                elif tex is felt:
                    cloth = vignette_rgb((wx - x) / w, (wy - y) / h)
                    colour = blend(tuple(cloth[k] * rgba[k] for k in range(3)), alpha, colour)
                # any other texture (a glyph, a card) is not what the label is read against
        if is_canvas:
            state["opacity"].pop()

    try:
        visit(Window.canvas, label.canvas)
    except _Stop:
        pass
    return colour


def _other_screens(w) -> set[int]:
    """The canvases of the screens ``w`` is not on (one leaving may still be drawn for a
    frame; the visitor reads the one arriving)."""
    from kivy.uix.screenmanager import Screen

    p, seen = w, set()
    while p is not None and id(p) not in seen and not isinstance(p, Screen):
        seen.add(id(p))
        p = p.parent
    if p is None or p.manager is None:
        return set()
    return {id(s.canvas) for s in p.manager.screens if s is not p}


def _clipped_here(label: Label, wx: float, wy: float) -> set[int]:
    """The canvases of the clipping widgets (a scrolled list, the picker's carousel) that
    show nothing at (wx, wy): what they hold there is cut away (a carousel's next page)."""
    out = set()
    for w in _all(Window):
        if isinstance(w, StencilView):
            x0, y0 = w.to_window(w.x, w.y)
            if not (x0 <= wx <= x0 + w.width and y0 <= wy <= y0 + w.height):
                out.add(id(w.canvas))
    return out


def _all(w):
    for child in w.children:
        yield child
        yield from _all(child)


def _opacity(w) -> float:
    o, seen = 1.0, set()
    while w is not None and id(w) not in seen:
        o *= w.opacity
        seen.add(id(w))
        w = w.parent
    return o


def _shows(w) -> bool:
    """On the window and not clipped away by a scrolled list or a carousel."""
    x, y = w.to_window(*w.center)
    if not (0 <= x <= Window.width and 0 <= y <= Window.height):
        return False
    p, seen = w.parent, set()
    while p is not None and id(p) not in seen:
        if isinstance(p, StencilView):
            x0, y0 = p.to_window(p.x, p.y)
            if not (x0 <= x <= x0 + p.width and y0 <= y <= y0 + p.height):
                return False
        seen.add(id(p))
        p = p.parent
    return True


def contrast_problems(root, where: str) -> list[str]:
    """The readable labels under ``root`` whose text has less contrast than WCAG asks."""
    u = min(Window.size) / 480
    out = []
    for w in root.walk(restrict=True):
        if not isinstance(w, Label) or not str(w.text).strip() or w.disabled:
            continue  # a switched-off control is exempt (WCAG: inactive components)
        if w.width < 2 or w.height < 2 or not _shows(w):
            continue
        opacity = _opacity(w)
        if opacity < 0.05:
            continue
        under = background(w)
        ink = w.color
        seen = blend(ink, ink[3] * opacity, under)
        px = w._label.options.get("font_size", w.font_size)
        bold = w.bold or str(w.text).startswith("[b]")
        large = px >= LARGE_PX * u - 0.01 or (bold and px >= LARGE_BOLD_PX * u - 0.01)
        need = LARGE if large else NORMAL
        got = ratio(seen, under)
        if got < need - 0.005:
            out.append(f"{where}: {type(w).__name__} {str(w.text)[:30]!r} {got:.2f}:1 "
                       f"< {need}:1 (text {_hex(seen)} on {_hex(under)}, {px:.0f} px)")
    return out


def _hex(rgb) -> str:
    return "#" + "".join(f"{round(max(0, min(1, c)) * 255):02x}" for c in rgb[:3])
