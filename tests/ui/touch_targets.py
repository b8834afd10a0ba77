"""What a finger can hit, measured from the widgets: every target's box in window pixels,
too small ones and neighbours that touch (used by test_touch_targets and by hand)."""

from __future__ import annotations

from dataclasses import dataclass

from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.stencilview import StencilView

from kiosk.screens.text_fit import TOUCH_PX

#: the least space between two targets, in px per unit: a finger that misses one by a
#: hair must not press its neighbour (the inset a KButton paints inside its box is not a gap)
GAP_PX = 4.0


@dataclass(frozen=True)
class Target:
    name: str
    x: float
    y: float
    w: float
    h: float

    def gap(self, other: Target) -> float:
        """The distance between the two boxes; negative when they overlap."""
        dx = max(other.x - (self.x + self.w), self.x - (other.x + other.w))
        dy = max(other.y - (self.y + self.h), self.y - (other.y + other.h))
        return max(dx, dy)


def _shown(w) -> bool:
    seen = set()
    while w is not None and id(w) not in seen:  # the window is its own parent
        if w.opacity <= 0.01:
            return False
        seen.add(id(w))
        w = w.parent
    return True


def _window_box(w) -> tuple[float, float, float, float]:
    x0, y0 = w.to_window(w.x, w.y)
    x1, y1 = w.to_window(w.right, w.top)
    return x0, y0, x1, y1


def _clip(w, box, window_size) -> tuple[float, float, float, float] | None:
    """The part of ``box`` a finger can reach: inside the window and inside every
    clipping ancestor (a carousel's next page and a scrolled list's hidden rows are laid
    out beside the part shown); None when nothing of it shows."""
    x0, y0, x1, y1 = box
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, window_size[0]), min(y1, window_size[1])
    p, seen = w.parent, set()
    while p is not None and id(p) not in seen:
        if isinstance(p, StencilView):
            a0, b0, a1, b1 = _window_box(p)
            x0, y0, x1, y1 = max(x0, a0), max(y0, b0), min(x1, a1), min(y1, b1)
        seen.add(id(p))
        p = p.parent
    return (x0, y0, x1, y1) if x1 - x0 > 0.5 and y1 - y0 > 0.5 else None


def targets(root, window_size: tuple[int, int]) -> list[tuple[Target, Target]]:
    """The touch targets under ``root`` that show and take touches, each as its whole box
    and the part of it on the screen. A disabled button is not one (the live "still
    winnable" line is a button only while it offers the way back)."""
    out = []
    for w in root.walk(restrict=True):
        if not isinstance(w, ButtonBehavior) or w.disabled or w.width < 1 or w.height < 1 \
                or not _shown(w):
            continue
        box = _window_box(w)
        seen = _clip(w, box, window_size)
        if seen is None:
            continue
        text = str(getattr(w, "text", "") or getattr(w, "game_id", ""))
        name = f"{type(w).__name__} {text[:24]!r}"
        out.append((Target(name, box[0], box[1], box[2] - box[0], box[3] - box[1]),
                    Target(name, seen[0], seen[1], seen[2] - seen[0], seen[3] - seen[1])))
    return out


def face(w) -> tuple[float, float]:
    """What a finger sees of a target: a KButton paints its face inside its box."""
    from kiosk.screens.widgets import KButton

    if isinstance(w, KButton):
        return tuple(w._rect.size)
    return tuple(w.size)


def target_problems(root, window_size: tuple[int, int], where: str) -> list[str]:
    """Targets under ``root`` smaller than 48 px a unit on a side, their box or the face
    they draw (the bar's buttons drew a 44-45 px face in a 49 px box; the operator's pages'
    faces are the operator branch's), or nearer a neighbour than :data:`GAP_PX` units."""
    u = min(window_size) / 480
    found = targets(root, window_size)
    least = TOUCH_PX * u - 0.5
    out = []
    for t, _seen in found:
        if t.w < least or t.h < least:
            out.append(f"{where}: {t.name} is {t.w:.0f}x{t.h:.0f} px, "
                       f"under {TOUCH_PX * u:.0f}")
    for w in ([] if where.startswith("operator ") else root.walk(restrict=True)):
        if not isinstance(w, ButtonBehavior) or w.disabled or not _shown(w) \
                or _clip(w, _window_box(w), window_size) is None:
            continue
        fw, fh = face(w)
        if (fw < least or fh < least) and w.width >= least and w.height >= least:
            out.append(f"{where}: {type(w).__name__} {str(getattr(w, 'text', ''))[:24]!r} "
                       f"draws a {fw:.0f}x{fh:.0f} px face, under {TOUCH_PX * u:.0f}")
    shown = [seen for _t, seen in found]
    for i, a in enumerate(shown):
        for b in shown[i + 1:]:
            if (g := a.gap(b)) < GAP_PX * u - 0.5:
                out.append(f"{where}: {a.name} and {b.name} "
                           + (f"overlap by {-g:.0f} px" if g < 0 else f"{g:.0f} px apart"))
    return out
