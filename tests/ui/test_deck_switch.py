"""A visitor switches the four-colour deck (clubs green, diamonds blue) on the table's
rules sheet, which says so; the next visitor finds the operator's choice again."""

from __future__ import annotations


def test_a_visitor_switches_the_four_colour_deck_on_the_rules_sheet(ui):
    ui.app.open_game("klondike", 7)
    ui.frames(2)
    t = ui.table
    assert not ui.app.four_colour
    t.show_rules()
    ui.frames(2)
    assert "♣" in t.rules_body.text and "♦" in t.rules_body.text  # the sheet says so
    ui.tap_widget(t.deck_button)
    assert ui.app.four_colour and t.view.four_colour and t.deck_button.selected
    assert all(w.four_colour for w in t.view.cards.values())
    assert t.deck_button.text == ui.app.tr("Four-colour deck: on")
    ui.app.go_welcome()  # the idle timer: the next visitor
    assert not ui.app.four_colour
    ui.app.open_game("klondike", 7)
    ui.frames(2)
    assert not ui.table.view.four_colour



def test_the_switch_reads_on_and_off(ui):
    """Its words against its face, 4.5:1 either way (white on the lit gold was 3.6:1)."""
    from .contrast import contrast_problems
    from .screen_walk import settle

    for lang in ("zh", "en", "ru"):
        ui.reset(lang, (800, 480))
        ui.app.open_game("klondike", 7)
        ui.table.show_rules()
        settle()
        for _ in range(2):
            ui.table.switch_deck()
            settle()
            problems = contrast_problems(ui.table.deck_button, lang)
            assert not problems, "\n".join(problems)
        ui.app.go_welcome()
