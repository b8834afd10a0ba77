"""What a visitor expects of the table: an illegal drop goes back to its slot, a new deal or
Home never loses a game for good, a win is celebrated, and the variants can be chosen."""

from __future__ import annotations

import pytest
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


def _deal_4711_played_into(ui):
    """Klondike 4711 after two moves from the stock: its controller and position key."""
    ctl = ui.app.open_game("klondike", 4711)
    ui.frames(3)
    return ctl, _play_stock(ui, ctl)


def test_new_deal_by_touch_key_and_button_then_undo_brings_the_game_back(ui):
    app = ui.app
    ctl, key = _deal_4711_played_into(ui)
    # the on-screen buttons
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
    ctl, key = _deal_4711_played_into(ui)
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


RANKS = "A 2 3 4 5 6 7 8 9 T J Q K".split()


def _almost_won(ui):
    ctl = ui.app.open_game("klondike", 1)
    g = arrange(ctl.game, {"F1": " ".join(r + "C" for r in RANKS),
                           "F2": " ".join(r + "D" for r in RANKS),
                           "F3": " ".join(r + "H" for r in RANKS),
                           "F4": " ".join(r + "S" for r in RANKS[:-1]), "T1": "KS"})
    ctl.set_game(g)
    ui.frames(3)
    return ctl


def test_a_win_starts_the_cascade_a_tap_ends_it_and_the_table_goes_on(ui):
    from kiosk.screens import celebration

    app, table = ui.app, ui.table
    app.animate = True
    try:
        ctl = _almost_won(ui)
        ui.tap(*ui.card_center("T1"))                 # the last king goes home: won
        assert ctl.game.won
        moves = ctl.moves
        assert ui.until(lambda: table.cascade is not None and table.cascade.launched >= 2, 5)
        cascade = table.cascade
        assert table.sheet is None                    # the cards first, then "You won!"
        # bounded: a fixed pool of pictures, whatever the number of frames
        assert len(cascade._trail) == celebration.TRAIL
        assert len(cascade.canvas.children) <= 2 * (celebration.TRAIL
                                                    + celebration.FLYING) + 4
        ui.tap(400, 240)                              # a tap ends it at once ...
        assert table.cascade is None and not cascade.running and cascade.parent is None
        assert table._sheet_kind == "won"             # ... and the sheet comes
        assert ctl.moves == moves                     # the tap played nothing
        ui.tap_widget(next(w for w in table.sheet.walk()
                           if getattr(w, "text", "") == "Play again"))
        assert not ctl.game.won and table.sheet is None and table.cascade is None
        ui.tap(*ui.card_center("S"))                  # the table is usable again
        assert ctl.moves == 1 and not ctl.game.won
    finally:
        app.animate = False


def test_the_cascade_ends_by_itself_and_a_new_deal_stops_it(ui):
    app, table = ui.app, ui.table
    app.animate = True
    try:
        ctl = _almost_won(ui)
        ui.tap(*ui.card_center("T1"))
        assert ui.until(lambda: table.cascade is not None, 5)
        table.cascade._seconds = 0.5                  # the end of its few seconds
        assert ui.until(lambda: table._sheet_kind == "won", 5) and table.cascade is None
        ctl.new_deal()
        ctl2 = _almost_won(ui)
        ui.tap(*ui.card_center("T1"))
        assert ui.until(lambda: table.cascade is not None, 5)
        cascade = table.cascade
        ui.key(110, "n")                              # the New deal key mid-cascade
        assert not cascade.running and table.cascade is None and table.sheet is None
        assert not ctl2.game.won
    finally:
        app.animate = False


def test_attract_mode_celebrates_with_the_cascade_and_goes_on(ui):
    from kiosk.screens.celebration import Cascade
    from kiosk.solving import deals

    if deals.load("monte_carlo") is None:
        pytest.skip("no deal list for monte_carlo")
    app, demo = ui.app, ui.app.attract
    cls = type(demo)
    demo.step, demo.won_pause = 0.01, 1.0
    app.animate = True
    try:
        demo.running = True
        app.sm.current = "attract"
        demo._order, demo._index = ["monte_carlo"], -1
        demo._next_game()
        first = demo.ctl
        assert ui.until(lambda: demo.sheet is not None, 30), "the demo never reached its win"
        cascades = [w for w in demo.sheet.children if isinstance(w, Cascade)]
        assert len(cascades) == 1 and cascades[0].running
        assert ui.until(lambda: demo.ctl is not first and demo.sheet is None, 8)
        ui.frames(3)  # the cascade stops at its next frame off the screen
        assert not cascades[0].running and not demo.ctl.game.won   # stopped with its sheet
    finally:
        app.animate = False
        demo.step, demo.won_pause = cls.step, cls.won_pause
        demo.stop()


def _tile(ui, game_id: str):
    picker = ui.app.picker
    picker.show_game(game_id)
    ui.wait(0.5)
    return next(t for page in picker.carousel.slides for t in page.children
                if getattr(t, "game_id", "") == game_id)


def test_the_variant_sheet_offers_the_named_variants_in_the_visitors_language(ui):
    app = ui.app
    for lang, draw3 in (("zh", "每次翻三张"), ("ru", "По три карты"), ("en", "Draw 3")):
        app.set_language(lang)
        app.show_picker()
        ui.frames(2)
        ui.tap_widget(_tile(ui, "klondike"))
        ui.wait(0.3)
        assert app.sm.current == "variants"
        sheet = app.variants
        assert list(sheet.buttons) == ["draw1", "draw3", "draw3_three_passes"]
        assert draw3 in sheet.buttons["draw3"].text
        sheet.go_back()
    ui.tap_widget(_tile(ui, "klondike"))
    ui.wait(0.3)
    ui.tap_widget(app.variants.buttons["draw3"])
    assert app.sm.current == "table"
    assert app.controller.game.opts["draw"] == 3 and app.controller.game.opts["redeals"] == -1
    ui.tap_widget(ui.table.buttons["new"])        # a new deal keeps the chosen variant
    assert app.controller.game.opts["draw"] == 3
    # Pyramid face up
    ui.tap_widget(ui.table.buttons["home"])
    ui.tap_widget(_tile(ui, "pyramid"))
    ui.wait(0.3)
    ui.tap_widget(app.variants.buttons["face_up"])
    g = app.controller.game
    stock = set(g.roles.get("stock", ()))
    assert g.opts["all_face_up"] and not any(d for i, d in enumerate(g.down) if i not in stock)


def test_the_hardware_buttons_answer_the_variant_sheet(ui):
    app = ui.app
    app.show_picker()
    ui.tap_widget(_tile(ui, "klondike"))
    ui.wait(0.3)
    assert app.sm.current == "variants"
    _press(ui, UNDO_PIN)                           # Undo: back to the games
    assert app.sm.current == "picker"
    ui.tap_widget(_tile(ui, "klondike"))
    ui.wait(0.3)
    _press(ui, NEW_DEAL_PIN)                       # New deal: the default variant
    assert app.sm.current == "table" and app.controller.game.opts["draw"] == 1


def test_the_operator_chooses_what_is_offered_and_the_default(ui):
    app, cfg = ui.app, ui.app.cfg
    try:
        cfg.variant_offer["klondike"] = ["draw1", "draw3"]
        cfg.variant_default["klondike"] = "draw3"
        app.show_picker()
        ui.tap_widget(_tile(ui, "klondike"))
        ui.wait(0.3)
        assert list(app.variants.buttons) == ["draw1", "draw3"]
        assert app.variants.default().key == "draw3"
        app.variants.choose()                      # what New deal on the sheet does
        assert app.controller.game.opts["draw"] == 3
        cfg.variant_offer["klondike"] = ["draw3"]  # one variant offered: no sheet
        app.show_picker()
        ui.tap_widget(_tile(ui, "klondike"))
        ui.wait(0.3)
        assert app.sm.current == "table" and app.controller.game.opts["draw"] == 3
    finally:
        cfg.variant_offer.pop("klondike", None)
        cfg.variant_default.pop("klondike", None)


def test_the_operator_menu_sets_the_variants_and_the_sheet_follows(ui):
    from kivy.uix.scrollview import ScrollView

    app, cfg = ui.app, ui.app.cfg
    menu = app.operator
    config_text = ui.config_path.read_text()
    try:
        app.show_operator()
        menu.show("games")
        ui.frames(3)

        def tap(key: str) -> None:
            b = menu.widgets["variants"][("klondike", key)]
            sv = next(w for w in menu.panel.walk() if isinstance(w, ScrollView))
            sv.scroll_to(b, animate=False)
            ui.frames(3)
            ui.tap_widget(b)

        tap("draw3")              # offered -> the default
        assert cfg.variant_default["klondike"] == "draw3"
        assert "★" in menu.widgets["variants"][("klondike", "draw3")].text
        tap("draw1")              # offered -> the default (draw3 stays offered)
        tap("draw1")              # the default -> off
        assert cfg.variant_offer["klondike"] == ["draw3", "draw3_three_passes"]
        assert cfg.variant_default["klondike"] == "draw3"
        saved = ui.config_path.read_text()   # the menu edits the configuration file
        assert 'offer_variants = ["draw3", "draw3_three_passes"]' in saved
        assert 'default_variant = "draw3"' in saved
        app.show_picker()
        ui.tap_widget(_tile(ui, "klondike"))
        ui.wait(0.3)
        assert list(app.variants.buttons) == ["draw3", "draw3_three_passes"]
        assert app.variants.default().key == "draw3"
    finally:
        cfg.variant_offer.pop("klondike", None)
        cfg.variant_default.pop("klondike", None)
        ui.config_path.write_text(config_text)
        app.go_welcome()
