"""One owner per table: every change reaches the engine through the controller, and the
table view redraws once per change, whoever asked (the New deal button on the screen, a
hardware button, a key, a tap, a drag, Undo).

The view's redraw is :meth:`kiosk.table.table_view.TableView.sync` (``rebuild`` ends in it);
the tests count its calls. Autoplay is off so that a move is one change, not a chain.
"""

from __future__ import annotations

import pytest

from kiosk.platform.buttons import NEW_DEAL, UNDO
from tests.conftest import arrange


@pytest.fixture
def table(ui, monkeypatch):
    ctl = ui.app.open_game("klondike", 4711)
    ui.frames(3)
    ctl.autoplay = False
    view = ui.table.view
    redraws: list[tuple] = []
    real = view.sync

    def counting(*args, **kw):
        redraws.append(args)
        return real(*args, **kw)

    monkeypatch.setattr(view, "sync", counting)
    return ctl, redraws


def test_a_new_deal_by_the_screen_button_redraws_once(ui, table):
    ctl, redraws = table
    seed = ctl.seed
    ui.tap_widget(ui.table.buttons["new"])
    ui.frames(2)
    assert ui.app.controller.seed != seed
    assert len(redraws) == 1


@pytest.mark.parametrize("source", ["gpio", "key"])
def test_a_new_deal_by_a_hardware_button_or_key_redraws_once(ui, table, source):
    ctl, redraws = table
    seed = ctl.seed
    ui.app.lobby.on_button(NEW_DEAL, source)
    ui.frames(2)
    assert ctl.seed != seed
    assert len(redraws) == 1


def test_a_move_by_a_tap_redraws_once(ui, table):
    ctl, redraws = table
    ui.tap(*ui.card_center("S"))
    ui.frames(2)
    assert ctl.moves == 1
    assert len(redraws) == 1


def test_a_move_by_a_drag_redraws_once(ui, table):
    ctl, redraws = table
    g = arrange(ctl.game, {"T1": "9H", "T2": "8S", "S": "2C"})
    ctl.set_game(g)
    ui.frames(2)
    redraws.clear()
    ui.drag(*ui.card_center("T2"), *ui.card_center("T1"))
    ui.frames(2)
    assert len(g.history) == 1
    assert len(redraws) == 1


@pytest.mark.parametrize("by", ["screen", "gpio"])
def test_an_undo_redraws_once(ui, table, by):
    ctl, redraws = table
    ui.tap(*ui.card_center("S"))
    ui.frames(2)
    redraws.clear()
    if by == "screen":
        ui.tap_widget(ui.table.buttons["undo"])
    else:
        ui.app.lobby.on_button(UNDO, by)
    ui.frames(2)
    assert ctl.moves == 0
    assert len(redraws) == 1


def test_hardware_buttons_enter_through_the_controller(ui, table, monkeypatch):
    """The lobby hands a button to the table's controller, not to the screen."""
    ctl, _redraws = table
    screen = ui.table
    monkeypatch.setattr(screen, "new_deal", lambda *a, **k: pytest.fail("through the screen"))
    monkeypatch.setattr(screen, "undo", lambda *a, **k: pytest.fail("through the screen"))
    asked: list[tuple[str, str]] = []
    ctl.bind(on_new_deal=lambda _g, _old, source: asked.append(("new_deal", source)),
             on_undo=lambda _undone, source: asked.append(("undo", source)))
    ui.tap(*ui.card_center("S"))
    ui.app.lobby.on_button(UNDO, "gpio")
    ui.app.lobby.on_button(NEW_DEAL, "gpio")
    ui.frames(2)
    assert asked == [("undo", "gpio"), ("new_deal", "gpio")]


def test_the_table_keeps_its_log_session_idle_deadline_and_hint_state(ui, table):
    """The lobby hands the log session to the visitor's table and lends it the clock; the
    table's controller holds them, and the screen's help draws the controller's hint state."""
    ctl, _redraws = table
    lobby = ui.app.lobby
    assert ctl.log_session is lobby.session and lobby.session.controller is ctl
    assert lobby._idle_ev is None                  # no lobby timer on the table ...
    left = ctl.idle_left()
    # ... the table's own: the quiet time, then "Still playing?" counts down
    assert left is not None and 0 < left <= lobby.idle_timeout + lobby.warning_seconds
    assert ui.table.help.state is ctl.hints
    touches = []
    ctl.bind(on_touch=lambda: touches.append(1))
    ui.tap(*ui.card_center("S"))
    assert touches == [1]                          # a touch reaches the log through it
    ui.tap_widget(ui.table.buttons["home"])
    ui.frames(2)
    assert ctl.idle_left() is None                 # left: no deadline


def test_the_idle_timeout_on_the_table_is_the_controllers(ui, table):
    ctl, _redraws = table
    lobby = ui.app.lobby
    left: list[str] = []
    ctl.bind(on_leave=lambda _game, source: left.append(source))
    before = lobby.idle_timeout, lobby.warning_seconds
    lobby.idle_timeout, lobby.warning_seconds = 0.3, 0.3
    try:
        lobby.arm()
        assert lobby._idle_ev is None and ctl.idle_left() is not None
        assert ui.until(lambda: ui.app.sm.current == "welcome", 3)
        assert left == ["idle"]
    finally:
        lobby.idle_timeout, lobby.warning_seconds = before
        lobby.arm()
