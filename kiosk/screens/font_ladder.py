"""The few font sizes the kiosk draws text at.

Kivy's text provider opens one SDL_ttf face per (font file, size, bold) it is asked for and
keeps it open (about 0.5 MB each for the kiosk's CJK font, 0.2 MB for the bold subset).
Sizes computed as ``N * unit``, shrunk by a few percent to fit, or taken from a card's width
were nearly all different: about 80 faces after 50 deals (docs/benchmarks.md, "Touch table
notes"). Every size drawn is therefore a rung of one short ladder: text wanted at 19 px is
drawn at 18, a label shrinks from rung to rung, a card index takes the largest rung that
fits its corner. Rungs are whole pixels (a face is opened at the whole size anyway, and
18.0 and 18.000001 were two faces), every pixel up to 16 px, where one pixel is a visible
step, then about 10 % apart, which the eye takes for the same size once the text is apart.

No Kivy here: the card drawing and the text fitting both use it.
"""

from __future__ import annotations

from bisect import bisect_right

#: the sizes text is drawn at, in px, smallest first
RUNGS: tuple[int, ...] = (
    4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 18, 20, 22, 24, 27, 30, 33, 36, 40, 44,
    48, 54, 60, 66, 72, 80, 90, 100, 112, 128, 144, 160, 180, 200, 224, 256,
)


def rung(px: float) -> float:
    """The largest rung at most ``px`` (``px`` itself below the smallest rung): the size
    that text wanted at ``px`` is drawn at."""
    k = bisect_right(RUNGS, px + 1e-6)
    return float(RUNGS[k - 1]) if k else float(px)


def rungs_between(low: float, high: float, keep_low: bool = True) -> list[float]:
    """The rungs from ``high`` down to ``low`` (both included), largest first; with
    ``keep_low``, ``low`` itself last when it is not a rung (a floor a visitor must read,
    such as 22.5 px on a 1024x600 panel, is kept rather than rounded down below it);
    without, ``low`` only when no rung lies between."""
    steps = [float(r) for r in reversed(RUNGS) if low - 1e-6 <= r <= high + 1e-6]
    if not steps or (keep_low and abs(steps[-1] - low) > 1e-6):
        steps.append(float(low))
    return steps
