"""The toast under the table says the engine's own reason, in the visitor's language."""

from __future__ import annotations

import pytest

from tests.conftest import arrange

GOLF = {
    "en": "Only cards one rank higher or lower can go on the discard pile.",
    "zh": "只有大一点或小一点的牌才能放到弃牌堆上。",
    "ru": "На сброс можно положить только карту на одно достоинство выше или ниже.",
}


@pytest.mark.parametrize("lang", ["zh", "en", "ru"])
def test_golf_tap_on_a_card_that_does_not_fit(ui, lang):
    """Golf has no foundation: a tap on a column card that does not fit the discard pile
    used to say "Cards can only go onto the discard pile"."""
    ui.reset(lang)
    ctl = ui.app.open_game("golf", 7)
    g = arrange(ctl.game, {"W": "9S", "T1": "4H", "T2": "TD", "S": "2C"})
    ctl.set_game(g)
    ui.frames(3)
    ui.tap(*ui.card_center("T1"))
    ui.frames(2)
    assert not g.history
    assert ui.table.toast.text == GOLF[lang] and ui.table.toast.opacity == 1


@pytest.mark.parametrize("lang", ["zh", "en", "ru"])
def test_a_message_that_fits_one_line_is_drawn_on_one_line(ui, lang):
    """The toast is sized to its text: a short message was measured to fit one line and
    then broken by the label's own slack, leaving "赢。" alone on a second line."""
    ui.reset(lang)
    ui.app.open_game("klondike", 4711)
    ui.frames(2)
    most = ui.table.table_area[2] * 0.9
    one_liners = 0
    for text in ("Try this move: it can still lead to a win.", "No hint found",
                 "Tap a highlighted card to finish the move."):
        ui.table.say(ui.app.tr(text))
        ui.frames(1)
        toast = ui.table.toast
        assert not toast.is_cut()
        if toast.width < most - 1:  # sized to hold the text on one line
            one_liners += 1
            assert "\n" not in toast.shown, (text, toast.shown)
    assert one_liners >= 2


@pytest.mark.parametrize("lang", ["zh", "en", "ru"])
def test_a_message_of_two_lines_has_lines_of_about_one_length(ui, lang):
    """Portrait, where the hint's line is too long for one line in Russian: it was a full
    line with "выиграть." alone under it; the toast is now as narrow as keeps the lines."""
    from kiosk.screens.text_fit import text_width

    ui.reset(lang, size=(720, 1280))
    ui.app.open_game("klondike", 4711)
    ui.frames(2)
    broken = 0
    for text in ("Try this move: it can still lead to a win.",
                 "Maybe try this move. No sure win was found in time.",
                 "Tap a highlighted card to finish the move."):
        ui.table.say(ui.app.tr(text))
        ui.frames(1)
        toast = ui.table.toast
        lines = toast.shown.split("\n")
        assert not toast.is_cut()
        if len(lines) == 2:
            broken += 1
            widths = sorted(text_width(line.strip(), toast.font_size, toast.font_name)
                            for line in lines)
            assert widths[0] >= 0.5 * widths[1], (text, toast.shown)
    assert lang == "zh" or broken


@pytest.mark.parametrize("lang", ["zh", "en", "ru"])
def test_where_every_band_of_the_table_holds_a_card_the_message_covers_the_status(ui, lang):
    """Portrait Napoleon's Tomb: its cross fills the table's height, so the foot, the top
    and the middle all cover a card; the suggestion's two lines hid the 10 of hearts. The
    message now lies over the status line, opaque from edge to edge, and covers no card;
    in landscape it stays on the table."""
    from kiosk.table.geometry import Rect

    for size, on_table in (((720, 1280), False), ((800, 480), True)):
        ui.reset(lang, size=size)
        ui.app.open_game("napoleons_tomb", 1)
        ui.frames(2)
        ui.table.say(ui.app.tr("Maybe try this move. No sure win was found in time."))
        ui.frames(1)
        toast, area = ui.table.toast, ui.table.table_area
        assert not toast.is_cut()
        if on_table:
            assert toast.y >= area[1] and toast._span is None
            continue
        box = Rect(toast.x, toast.y, toast.width, toast.height)
        cards = ui.table.view.card_rects().values()
        assert sum(box.overlap(r) for r in cards) == 0
        assert toast.top == pytest.approx(area[1]) and toast._span == (area[0], area[2])
        assert toast._c.a == 1


def test_a_line_about_one_deal_is_gone_from_the_next(ui):
    """A line speaks of the deal it was said over: leaving the table, opening another game
    or dealing again takes it off at once (an English suggestion stayed over the next
    visitor's Russian table when the language changed within its seconds)."""
    ui.reset("en")
    ui.app.open_game("klondike", 4711)
    ui.frames(2)
    toast = ui.table.toast
    ui.table.say(ui.app.tr("Maybe try this move. No sure win was found in time."), 30)
    ui.frames(2)
    assert toast.opacity == 1
    ui.app.show_picker()
    ui.frames(2)
    assert toast.opacity == 0
    ui.reset("ru")
    ui.app.open_game("klondike", 4711)
    ui.frames(2)
    assert toast.opacity == 0
    ui.table.say(ui.app.tr("No hint found"), 30)
    ui.frames(2)
    assert toast.opacity == 1
    ui.app.open_game("golf", 7)   # another game, straight from the table
    ui.frames(2)
    assert toast.opacity == 0
    ui.table.say(ui.app.tr("No hint found"), 30)
    ui.table.new_deal()
    ui.frames(2)
    assert toast.opacity == 0
