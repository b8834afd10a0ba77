"""Text is drawn at a few sizes, the rungs of one ladder (issue 28).

Kivy's text provider keeps one SDL_ttf face open per (font, size, bold) it is asked for
(about 0.5 MB each for the kiosk's CJK font). Sizes computed as ``N * unit``, shrunk by 6 %
steps to fit, or taken from a card's width were nearly all different: 80 faces over the
50 deals of bench/app.py. Counts of sizes and faces asked for, no timings.
"""

from __future__ import annotations

from kiosk.platform.boot import FONT_REGULAR
from kiosk.screens.font_faces import watch_font_faces
from kiosk.screens.font_ladder import RUNGS

#: label sizes the screens ask for (px at 800x480) and the unit of 4 window sizes
BASES = (15, 17, 19, 20, 21, 22, 26, 30, 46)
UNITS = (1.0, 1.25, 1.5, 2.25)
TEXT = "Touch the screen to play: Beleaguered Castle, Four Corner Towers"
#: games opened by the face count: a solitaire of each layout family, the hand tables
TOUR = ("klondike", "eight_off", "scorpion", "golf", "pyramid", "canfield", "accordion",
        "aces_up", "gin_rummy", "draw_poker", "follow_the_rules")


def _on_ladder(px: float) -> bool:
    return float(px) in {float(r) for r in RUNGS}


def test_fitted_text_is_drawn_at_rungs():
    """The size fitting chooses is a rung (or the reading floor, READ_PX units, the one
    size allowed off the ladder: 22.5 px at a unit of 1.25), however wide the box; before:
    the size wanted, or 6 % steps down from it."""
    from kiosk.screens.text_fit import READ_PX, fit

    sizes: set[float] = set()
    for u in UNITS:
        floor = READ_PX * u
        for want in (base * u for base in BASES):
            for width in range(80, 800, 24):
                _text, px = fit(TEXT, want, floor, float(width), want * 2.6,
                                str(FONT_REGULAR))
                assert _on_ladder(px) or abs(px - floor) < 1e-6, (want, width, px)
                sizes.add(px)
    # the 18 rungs from 12 to 60 px and 2 floors off the ladder (22.5, 40.5)
    assert len(sizes) <= 20, sorted(sizes)


def test_plain_labels_and_fit_font_take_rungs(ui):
    """A plain label sized ``19 * unit`` draws at 18 px, and its core label at that size
    (a size drawn that is not the label's is a text cut by Kivy)."""
    from kiosk.screens.text_fit import LadderLabel
    from kiosk.screens.widgets import Wrapped, fit_font

    lab = LadderLabel(text="Pot", font_size=19)
    assert lab.font_size == 18.0 and isinstance(lab.font_size, float)
    lab.font_size = 26.208
    lab.texture_update()
    assert lab.font_size == 24.0 and lab._label.options["font_size"] == 24.0
    assert Wrapped(text="Statistics", font_size=17 * 1.5).font_size == 24.0
    assert _on_ladder(fit_font("Карточные игры", 34 * 1.5, 200, bold=True))


def test_card_glyphs_take_a_few_sizes(ui):
    """Every card width drew its index at sizes of its own (one face each): 31 to 120 px
    wide cards now share the ladder's rungs."""
    from kiosk.table.card_art import corner_index

    sizes = {g.px for w in range(31, 121) for g in corner_index(1 + 13, float(w))}
    assert all(_on_ladder(px) for px in sizes), sorted(sizes)
    assert len(sizes) <= 20, sorted(sizes)  # before: every whole px from 6 to 37


def test_a_tour_of_tables_asks_for_few_font_faces(ui):
    """The faces Kivy is asked for while a visitor opens eleven tables one after another
    (solitaires of each layout, the hand tables), in English at 800x480: each distinct
    (size, font, bold) is a face kept open: 26 here, 53 before the ladder."""
    ui.reset("en", (800, 480))
    seen, stop = watch_font_faces()
    try:
        for k, game_id in enumerate(TOUR):
            ui.app.open_game(game_id, 100 + k)
            ui.frames(3)
        ui.app.go_welcome()
        ui.frames(3)
    finally:
        stop()
    sizes = {float(fid.split("|")[0]) for fid in seen}
    off = sorted(s for s in sizes if not _on_ladder(s))
    assert len(seen) <= 30 and len(off) <= 2, (len(seen), off, sorted(seen))
