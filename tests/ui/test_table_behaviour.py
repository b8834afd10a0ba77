"""What a visitor expects of the table: an illegal drop goes back to its slot, a new deal or
Home never loses a game for good, a win is celebrated, and the variants can be chosen."""

from __future__ import annotations

from kivy.animation import Animation

from tests.conftest import arrange


def _klondike_refusal(ui):
    """A Klondike position where T1's 5H cannot go on T2's 9C."""
    ctl = ui.app.open_game("klondike", 4711)
    g = arrange(ctl.game, {"T1": "5H", "T2": "9C", "T3": "KS"}, down={"T2": 0})
    ctl.set_game(g)
    ui.frames(3)
    return ctl, g


def test_an_illegal_drop_during_a_running_animation_ends_on_the_slot(ui):
    """The card is still flying when the second refusal comes (a busy moment): the shake
    and the snap-back are one animation and it ends exactly on the slot."""
    ctl, g = _klondike_refusal(ui)
    view = ui.table.view
    view.animate = True
    try:
        code = g.cards[g.index["T1"]][-1]
        card = view.cards[code]
        slot = view.card_rects()[code]
        # dropped on T2 (illegal): it flies back and wobbles
        x0, y0 = ui.card_center("T1")
        x1, y1 = ui.card_center("T2")
        ui.drag(x0, y0, x1, y1)
        assert ui.until(lambda: ui.table.toast.opacity > 0, 2)
        # at once a second illegal drop while the first animation still runs; then a
        # stray animation pushes it away mid-way (the "busy moment")
        ui.drag(card.center_x, card.center_y, x1, y1, steps=3)
        Animation(x=card.x + 40, d=0.05).start(card)
        ui.frames(2)
        view.shake([card])
        assert ui.until(lambda: not any(card.uid in a._widgets
                                        for a in Animation._instances), 10)
        assert tuple(card.pos) == (round(slot.x), round(slot.y))
    finally:
        view.animate = False


NEW_DEAL_PIN, UNDO_PIN = 17, 27


def _press(ui, pin: int) -> None:
    ui.pins.pin(pin).drive_low()
    ui.wait(0.12)
    ui.pins.pin(pin).drive_high()
    ui.wait(0.25)  # debounce, the read-back of the level, Clock.schedule_once


def _play_stock(ui, ctl, n: int = 2):
    before = ctl.moves
    for _ in range(n):
        ui.tap(*ui.card_center("S"))
    assert ctl.moves == before + n
    return ctl.game.key()


def test_new_deal_by_touch_key_and_button_then_undo_brings_the_game_back(ui):
    app = ui.app
    ctl = app.open_game("klondike", 4711)
    ui.frames(3)
    # the on-screen buttons
    key = _play_stock(ui, ctl)
    ui.tap_widget(ui.table.buttons["new"])
    assert ctl.seed != 4711 and ctl.moves == 0
    assert "Undo" in str(ui.table.toast.text) and not ui.table.buttons["undo"].disabled
    ui.tap_widget(ui.table.buttons["undo"])
    assert ctl.seed == 4711 and ctl.game.key() == key
    assert app.lobby.session.game is ctl.game
    # the keys N and U
    assert ui.key(110, "n") and ctl.seed != 4711
    assert ui.key(117, "u") and ctl.game.key() == key
    # the hardware buttons (a child pressing New deal three times)
    for _ in range(3):
        _press(ui, NEW_DEAL_PIN)
    assert ctl.seed != 4711 and ctl.shelved == 1
    _press(ui, UNDO_PIN)
    assert ctl.seed == 4711 and ctl.game.key() == key and ctl.shelved == 0


def test_home_then_the_same_game_undo_brings_it_back_but_not_after_idle(ui):
    app = ui.app
    ctl = app.open_game("klondike", 4711)
    ui.frames(3)
    key = _play_stock(ui, ctl)
    ui.tap_widget(ui.table.buttons["home"])
    assert app.sm.current == "picker"
    again = app.open_game("klondike")
    ui.frames(3)
    ui.tap_widget(ui.table.buttons["undo"])
    assert again.seed == 4711 and again.game.key() == key
    _play_stock(ui, again, 1)
    ui.tap_widget(ui.table.buttons["home"])
    app.go_welcome()  # what the idle timer does on the picker
    third = app.open_game("klondike")
    ui.frames(3)
    assert third.shelved == 0 and not third.can_undo
