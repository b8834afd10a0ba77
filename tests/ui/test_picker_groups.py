"""The next visitor starts fresh at the picker: on its first page, with the games against the
computer together under their own tab, and a welcome title that names every game."""

from __future__ import annotations

import pytest

from games.engine.registry import listed
from kiosk.i18n import catalog

SIZES = [(800, 480), (720, 1280)]


def page_ids(picker) -> list[list[str]]:
    return [[t.game_id for t in reversed(page.children) if hasattr(t, "game_id")]
            for page in picker.carousel.slides]


def test_after_idle_the_picker_opens_at_its_first_page(ui):
    app = ui.app
    app.show_picker()
    ui.frames(2)
    picker = app.picker
    picker.carousel.index = 3          # the last visitor browsed to page 4
    ui.frames(2)
    app.go_welcome()                   # what idle does
    ui.frames(2)
    ui.tap(400, 200)                   # the next visitor touches the welcome screen
    assert app.sm.current == "picker" and picker.carousel.index == 0
    assert picker.page.text.startswith("1 / ")


@pytest.mark.parametrize("size", SIZES)
def test_the_games_against_the_computer_are_together_on_their_own_page(ui, size):
    app = ui.app
    ui.resize(*size)
    app.show_picker()
    ui.frames(2)
    picker = app.picker
    pages = page_ids(picker)
    seated = {g for g in app.game_ids() if listed(g).seated}
    assert len(seated) == 3
    with_seated = [k for k, ids in enumerate(pages) if seated & set(ids)]
    assert len(with_seated) == 1, pages             # one page holds all three ...
    assert set(pages[with_seated[0]]) == seated     # ... and nothing else
    assert with_seated[0] == len(pages) - 1         # after the solitaires
    # its tab turns to that page and is lit there
    picker.carousel.index = 0
    ui.frames(2)
    assert picker.tabs["solitaire"].selected and not picker.tabs["versus"].selected
    ui.tap_widget(picker.tabs["versus"])
    ui.wait(0.6)
    assert picker.carousel.index == with_seated[0]
    assert picker.tabs["versus"].selected and not picker.tabs["solitaire"].selected
    assert picker.tabs["versus"].text == "Play against the computer"
    ui.tap_widget(picker.tabs["solitaire"])
    ui.wait(0.6)
    assert picker.carousel.index == 0


def test_one_group_only_needs_no_tabs(ui):
    app = ui.app
    before = list(app.cfg.games)
    try:
        app.set_enabled_games([g for g in before if not listed(g).seated])
        app.show_picker()
        ui.frames(2)
        assert all(t.opacity == 0 and t.disabled for t in app.picker.tabs.values())
    finally:
        app.set_enabled_games(before)


@pytest.mark.parametrize("size", SIZES)
def test_the_welcome_title_names_a_collection_of_card_games(ui, size):
    app = ui.app
    ui.resize(*size)
    for lang, title in (("en", "Card games"), ("ru", "Карточные игры"), ("zh", "纸牌游戏")):
        app.set_language(lang)
        ui.frames(1)
        assert app.welcome.title.text == title == catalog(lang)["Card games"]
        assert not app.welcome.title.is_cut(), (size, lang, app.welcome.title.shown)
