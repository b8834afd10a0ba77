"""Attract mode shows every game in turn, for months: the text it draws must not need a
font of its own for each label (issue 12).

Every (font, size) Kivy draws is a FreeType face of its own in Kivy's font cache (about
0.5 MB for the kiosk's CJK font, 64 faces at most, then the oldest is closed and opened
again when asked for). Text shrunk to fit its box used to be drawn at sizes of its own
(6 % steps down from each label's own size), so nearly every label of every game and language opened faces of its own. Shrunk text now
takes the sizes of one short ladder (:data:`kiosk.screens.text_fit.SIZE_LADDER`). Counts of
distinct sizes, no timings.
"""

from __future__ import annotations

from kiosk.platform.boot import FONT_REGULAR

#: label sizes the screens ask for (px at 800x480 times the unit of 4 window sizes: 24)
WANTS = sorted({round(base * u, 3) for base in (15, 16, 18, 20, 22, 26, 30)
                for u in (1.0, 1.25, 1.5, 2.25)})
TEXT = "Touch the screen to play: Beleaguered Castle, Four Corner Towers"


def test_labels_shrunk_to_fit_share_a_few_font_sizes():
    from kiosk.screens.text_fit import fit

    shrunk: set[float] = set()
    for want in WANTS:
        for width in range(80, 800, 24):
            _text, px = fit(TEXT, want, 9.0, float(width), want * 2.6, str(FONT_REGULAR))
            if px != want:
                shrunk.add(px)
    # no more sizes than the ladder has between the floor and the largest size wanted
    # (34); before the ladder 54, the chains of 6 % steps down from each size wanted
    from kiosk.screens.text_fit import SIZE_LADDER

    steps = [s for s in SIZE_LADDER if 9.0 <= s <= max(WANTS)]
    assert len(shrunk) >= 10, "the widths should have made the text shrink"
    assert len(shrunk) <= len(steps) + 1, (len(shrunk), sorted(shrunk))
