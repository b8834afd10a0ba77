"""The app end to end, driven by simulated touches on a headless window."""

from __future__ import annotations

import games
from games import Move
from kiosk.i18n import catalog, game_text
from kiosk.screens.rules_sheet import DECK_NOTE
from kiosk.settings.config import default_games
from tests.conftest import arrange
from tests.ui.klondike_win import win_by_one_tap


def open_klondike(ui, seed=4711):
    ctl = ui.app.open_game("klondike", seed)
    ui.frames(3)
    return ctl


def test_welcome_picker_table(ui):
    assert ui.app.sm.current == "welcome"
    ui.tap(400, 200)
    assert ui.app.sm.current == "picker"
    picker = ui.app.picker
    tiles = [t for page in picker.carousel.slides for t in page.children
             if hasattr(t, "game_id")]
    assert sorted(t.game_id for t in tiles) == sorted(default_games())  # every game has a tile
    assert picker.carousel.index == 0
    ui.tap_widget(picker.next)                   # page through with the arrow
    ui.wait(0.6)
    assert picker.carousel.index == 1
    tile = next(t for t in picker.carousel.slides[1].children if hasattr(t, "game_id"))
    ui.tap_widget(tile)                          # a quick tap, as a visitor does
    ui.wait(0.3)  # the carousel hands a tap to the tile once it knows it is no swipe
    assert ui.app.sm.current == "table"
    assert ui.app.controller.game_id == tile.game_id
    ui.tap_widget(ui.table.buttons["home"])
    ui.wait(0.3)  # beside the boots of make test the screen change took more than one turn
    assert ui.app.sm.current == "picker" and picker.carousel.index == 1


def test_swipe_turns_the_page(ui):
    ui.app.show_picker()
    ui.frames(2)
    picker = ui.app.picker
    picker.carousel.index = 0
    ui.frames(2)
    cx, cy = picker.carousel.to_window(*picker.carousel.center)
    t = ui.touch(cx + 150, cy)
    t.touch_down()
    ui.frames(1)
    for k in range(1, 9):
        t.touch_move(cx + 150 - 40 * k, cy)
        ui.frames(1)
    t.touch_up()
    ui.wait(0.8)
    assert picker.carousel.index == 1 and ui.app.sm.current == "picker"


def test_tap_stock_deals_once(ui):
    ctl = open_klondike(ui)
    moves = []
    ctl.bind(on_move=lambda m, s: moves.append(m))
    ui.tap(*ui.card_center("S"))
    assert moves == [Move("deal")]
    assert len(ctl.game.history) == 1
    assert len(ctl.game.pile("W")) == 1


def test_tap_card_moves_it_exactly_once(ui):
    ctl = open_klondike(ui)
    g = arrange(ctl.game, {"T1": "KS QH", "T2": "JS", "T3": "9D", "S": "2C 3C"},
                down={"T1": 0})
    ctl.set_game(g)
    ui.frames(2)
    moves = []
    ctl.bind(on_move=lambda m, s: moves.append((m, s)))
    ui.tap(*ui.card_center("T2"))
    assert moves == [(Move("move", g.index["T2"], g.index["T1"], 1), "tap")]
    assert [games.engine.cards.text(c) for c in g.pile("T1")] == ["KS", "QH", "JS"]
    assert g.pile("T2") == []
    # the drawn card went with it
    view = ui.table.view
    js = g.pile("T1")[-1]
    assert view.card_rects()[js].x == view.geometry().base(g.index["T1"]).x


def test_drag_legal_and_illegal(ui):
    ctl = open_klondike(ui)
    g = arrange(ctl.game, {"T1": "9H", "T2": "8S", "T4": "9S", "S": "2C"})
    ctl.set_game(g)
    ui.frames(2)
    view = ui.table.view
    eight = g.pile("T2")[0]
    home = tuple(view.cards[eight].pos)
    # illegal: onto the black nine: flies back, says why
    ui.drag(*ui.card_center("T2"), *ui.card_center("T4"))
    assert g.pile("T2") == [eight] and not g.history
    assert "8" in ui.table.toast.text and ui.table.toast.opacity == 1
    ui.wait(0.5)
    assert tuple(view.cards[eight].pos) == home
    # legal: onto the red nine
    ui.drag(*ui.card_center("T2"), *ui.card_center("T1"))
    assert g.pile("T1")[-1] == eight and len(g.history) == 1


def test_drag_run_to_target_lights_up(ui):
    ctl = open_klondike(ui)
    g = arrange(ctl.game, {"T1": "TH", "T2": "KD 9S 8H", "T3": "TC"}, down={"T2": 1})
    ctl.set_game(g)
    ui.frames(2)
    view = ui.table.view
    x0, y0 = ui.card_center("T2", 1)
    t = ui.touch(x0, y0)
    t.touch_down()
    ui.frames(1)
    t.touch_move(x0 + 40, y0 - 30)
    ui.frames(1)
    assert set(view._drag_targets) == {g.index["T1"]}  # the red ten only
    assert len(view._drag) == 2
    x1, y1 = ui.card_center("T1")
    t.touch_move(x1, y1)
    ui.frames(1)
    t.touch_up()
    ui.frames(2)
    assert [games.engine.cards.text(c) for c in g.pile("T1")] == ["TH", "9S", "8H"]
    assert g.down[g.index["T2"]] == 0  # the king turned over


def test_undo_button_and_keys(ui):
    ctl = open_klondike(ui)
    ui.tap(*ui.card_center("S"))
    assert ctl.moves == 1
    ui.tap_widget(ui.table.buttons["undo"])
    assert ctl.moves == 0
    ui.tap(*ui.card_center("S"))
    assert ui.key(117, "u") and ctl.moves == 0
    seed = ctl.seed
    assert ui.key(110, "n")
    assert ui.app.controller.moves == 0 and ui.app.controller.seed != seed


def test_switch_language_everywhere(ui):
    ui.app.show_picker()
    ui.frames(2)
    picker = ui.app.picker
    ui.tap_widget(picker.langs.buttons["zh"])
    assert ui.app.lang == "zh"
    assert picker.title.text == catalog("zh")["Choose a game"]
    names = {t.children[-1].text for p in picker.carousel.slides for t in p.children
             if hasattr(t, "game_id")}
    assert game_text(games.catalog()[0], "names", "zh") in names
    assert ui.table.buttons["undo"].text == catalog("zh")["Undo"]
    ui.app.show_welcome()
    ui.frames(2)
    ui.tap_widget(ui.app.welcome.langs.buttons["ru"])
    assert ui.app.lang == "ru" and ui.app.sm.current == "welcome"
    assert ui.app.welcome.subtitle.text == catalog("ru")["Touch the screen to play"]


def test_rules_sheet_in_every_language(ui):
    open_klondike(ui)
    for lang in ("zh", "en", "ru"):
        ui.app.set_language(lang)
        ui.tap_widget(ui.table.buttons["rules"])
        assert ui.table._sheet_kind == "rules"
        body = ui.table.rules_body
        rules = games.catalog()[games.ids().index("klondike")]["rules"][lang]
        assert body.text.startswith(rules)  # then the deck switch's paragraph
        assert body.text.endswith(ui.app.tr(DECK_NOTE))
        ui.frames(2)
        scroll = body.parent
        assert body.height > scroll.height  # long enough to need scrolling
        assert scroll.scroll_y == 1
        x, y = scroll.to_window(*scroll.center)
        ui.drag(x, y - 100, x, y + 100, steps=10)  # a finger pushes the text up
        ui.wait(0.2)
        assert scroll.scroll_y < 1
        ui.table.close_sheet()


def test_win_screen_and_play_again(ui):
    ctl = open_klondike(ui)
    win_by_one_tap(ui, ctl)
    ui.wait(0.1)
    assert ctl.game.won and ui.table._sheet_kind == "won"
    again = ui.table.sheet.panel.children[0].children[-1]
    assert again.text == "Play again"
    ui.tap_widget(again)
    assert ui.table.sheet is None and ui.app.controller.moves == 0
    assert not ui.app.controller.game.won


def test_no_more_moves_offers_undo(ui):
    ctl = open_klondike(ui)
    g = arrange(ctl.game, {"T1": "2H", "T2": "5C", "T3": "KD", "T4": "4C", "T5": "7S",
                           "T6": "9H", "T7": "JC", "W": "QC"})
    ctl.set_game(g)
    ui.frames(2)
    ui.tap(*ui.card_center("W"))   # the queen onto the king: then nothing is left to do
    ui.wait(0.4)
    assert g.over and not g.won
    assert ui.table._sheet_kind == "over"
    row = ui.table.sheet.panel.children[0]
    undo = row.children[-1]
    ui.tap_widget(undo)
    ui.frames(2)
    assert ui.table.sheet is None and not g.history


def test_lockdown_escape_f1_close(ui):
    open_klondike(ui)
    assert ui.key(27) is True                  # Escape is swallowed
    assert ui.key(282) is True                 # F1 too
    ui.frames(2)
    assert ui.app._app_settings is None        # no settings panel was built
    assert ui.window.dispatch("on_request_close") is True
    assert ui.loop.status == "started" and ui.app.sm.current == "table"


def test_errors_in_handlers_do_not_stop_the_app(ui, monkeypatch):
    ctl = open_klondike(ui)

    def broken(*_a, **_k):
        raise RuntimeError("engine bug")

    monkeypatch.setattr(ctl, "legal_moves", broken)
    ui.tap(*ui.card_center("T7"))              # the view catches and logs it
    assert ui.loop.status == "started"


def test_autoplay_follows_and_undo_takes_it_back(ui):
    ui.app.autoplay = True
    try:
        ctl = open_klondike(ui)
        g = arrange(ctl.game, {"T1": "AS", "T2": "2S", "T3": "KH", "S": "5C"})
        ctl.set_game(g)
        ui.frames(2)
        ui.tap(*ui.card_center("T1"))
        ui.wait(0.8)
        assert [games.engine.cards.text(c) for c in g.pile("F1")] == ["AS", "2S"]
        ui.tap_widget(ui.table.buttons["undo"])
        ui.wait(0.5)
        assert not g.history and g.pile("T1") and g.pile("T2")
    finally:
        ui.app.autoplay = False


def test_four_colour_deck_setting(ui):
    ui.app.four_colour = True
    try:
        open_klondike(ui)
        view = ui.table.view
        assert view.four_colour and all(w.four_colour for w in view.cards.values())
    finally:
        ui.app.four_colour = False
        ui.table.view.four_colour = False


def test_taps_during_animation_are_safe(ui):
    ui.app.animate = True
    try:
        ctl = ui.app.open_game("klondike", 4711, {"draw": "3"})
        ui.frames(3)
        stock = ui.card_center("S")
        for _ in range(3):           # three quick taps, each while the last deal still flies
            ui.tap(*stock)
        assert [m.kind for m in ctl.game.history] == ["deal"] * 3
        ui.wait(0.5)
        view = ui.table.view
        for code, r in view.card_rects().items():
            w = view.cards[code]
            assert (round(w.x), round(w.y)) == (round(r.x), round(r.y))
        waste = ctl.game.index["W"]
        rects = view.geometry().card_rects(waste, len(ctl.game.cards[waste]), 0)
        assert rects[-1].x > rects[-2].x > rects[-3].x == rects[0].x  # the top three spread
        top = rects[-1]
        assert view.hit(top.right - 5, top.y + 5) == (waste, len(rects) - 1)
    finally:
        ui.app.animate = False
        ui.table.view.animate = False
