"""The operator's Games page is a list under a finger: a drag that scrolls it never presses
a button (a slow drag used to switch "winnable deals only" and save it), a plain tap still
does, and a saved change leaves the list where it was instead of jumping to its top."""

from __future__ import annotations

import pytest
from kivy.uix.scrollview import ScrollView

from kiosk.settings import config


@pytest.fixture
def games_page(ui):
    app = ui.app
    path = ui.config_path
    original = path.read_text()
    overrides = app.lobby_data_dir() / "overrides.toml"
    had_overrides = overrides.read_text() if overrides.exists() else None
    winnable = set(app.cfg.winnable_only), set(app.cfg.winnable_off)
    app.show_operator("games")
    ui.frames(3)
    try:
        yield app.operator
    finally:
        path.write_text(original)
        if had_overrides is None:
            overrides.unlink(missing_ok=True)
        else:
            overrides.write_text(had_overrides)
        app.cfg.winnable_only, app.cfg.winnable_off = (set(s) for s in winnable)
        app.go_welcome()


def _scroller(menu) -> ScrollView:
    return next(w for w in menu.panel.walk() if isinstance(w, ScrollView))


def _visible(menu, kind: str):
    """The first game whose ``kind`` button ("winnable" or "toggles") is in sight, and it."""
    sv = _scroller(menu)
    x, y, top = sv.x, sv.y, sv.top
    for game, b in menu.widgets[kind].items():
        bx, by = b.to_window(*b.center)
        sx, sy = sv.to_window(x, y)
        if sy + 10 < by - b.height / 2 and by + b.height / 2 < sv.to_window(x, top)[1] - 10:
            return game, b
    raise AssertionError(f"no {kind} button in sight")


def _slow_drag(ui, widget, dx: float, dy: float, steps: int = 6) -> None:
    """A finger that rests on ``widget`` longer than the scroll timeout, then slides."""
    x0, y0 = widget.to_window(widget.center_x, widget.top - 4)
    t = ui.touch(x0, y0)
    t.touch_down()
    ui.wait(_scroller(ui.app.operator).scroll_timeout / 1000 + 0.15)  # Kivy hands it on
    for k in range(1, steps + 1):
        t.touch_move(x0 + dx * k / steps, y0 + dy * k / steps)
        ui.frames(1)
    t.touch_up()
    ui.wait(0.35)  # a tap's release comes 0.2 s after the touch ends


def test_a_slow_drag_that_starts_on_a_button_presses_nothing(ui, games_page):
    menu = games_page
    before_text = ui.config_path.read_text()
    game, switch = _visible(menu, "winnable")
    before = ui.app.cfg.winnable(game)[0]
    distance = _scroller(menu).scroll_distance
    # the finger stays on the button (its release would count) but slides past the
    # distance that makes it a scroll
    assert switch.height - 8 > distance + 6
    _slow_drag(ui, switch, 0, -(distance + 6))
    assert ui.app.cfg.winnable(game)[0] == before
    assert ui.config_path.read_text() == before_text
    assert not (ui.app.lobby_data_dir() / "overrides.toml").exists()
    assert menu.pages["games"].note == ""
    game, toggle = _visible(menu, "toggles")
    _slow_drag(ui, toggle, distance + 6, 0)  # sideways too
    assert game in ui.app.game_ids()
    assert ui.config_path.read_text() == before_text


def test_a_slow_drag_scrolls_the_list(ui, games_page):
    menu = games_page
    sv = _scroller(menu)
    assert sv.children[0].height > sv.height  # there is something to scroll
    first = next(iter(menu.widgets["toggles"].values()))
    _slow_drag(ui, first, 0, 120)
    assert _scroller(menu).scroll_y < 1


def test_a_tap_still_switches_and_saves(ui, games_page):
    menu = games_page
    game, switch = _visible(menu, "winnable")
    before = ui.app.cfg.winnable(game)[0]
    ui.tap_widget(switch)
    assert ui.until(lambda: ui.app.cfg.winnable(game)[0] is not before, 2)
    assert config.load(ui.config_path).winnable(game)[0] is not before


def test_a_saved_change_keeps_the_list_where_it_was(ui, games_page):
    menu = games_page
    sv = _scroller(menu)
    sv.scroll_y = 0.6
    ui.frames(3)
    offset = (1 - sv.scroll_y) * (sv.children[0].height - sv.height)
    game, switch = _visible(menu, "winnable")
    before = ui.app.cfg.winnable(game)[0]
    ui.tap_widget(switch)
    assert ui.until(lambda: ui.app.cfg.winnable(game)[0] is not before, 2)
    ui.frames(3)
    sv = _scroller(menu)
    assert sv.scroll_y < 1
    after = (1 - sv.scroll_y) * (sv.children[0].height - sv.height)
    assert abs(after - offset) < 2, (offset, after)
