"""The kiosk around the table, in the running app: configuration, play log, hardware buttons
(gpiozero's MockFactory), idle timeout, attract mode, the operator's hidden corner, PIN and
menu (statistics, status, export, games, system)."""

from __future__ import annotations

import csv
import time

import pytest

import games
from kiosk.i18n import catalog
from kiosk.lobby import WARNING_SECONDS
from kiosk.records import export
from tests.conftest import arrange
from tests.ui.klondike_win import win_by_one_tap
from tests.ui.logged_rows import db_rows

NEW_DEAL_PIN, UNDO_PIN = 17, 27


def texts(widget) -> str:
    return "\n".join(str(w.text) for w in widget.walk() if hasattr(w, "text"))


def open_klondike(ui, seed=4711):
    ctl = ui.app.open_game("klondike", seed)
    ui.frames(3)
    return ctl


def press(ui, pin: int, hold: float = 0.12) -> None:
    """Press and release a hardware button (wired to ground: low is pressed)."""
    ui.pins.pin(pin).drive_low()
    ui.wait(hold)
    ui.pins.pin(pin).drive_high()
    ui.wait(0.25)  # debounce, the read-back of the level, Clock.schedule_once


def enter_pin(ui, digits: str) -> None:
    for d in digits:
        ui.tap_widget(ui.app.pin.keys[d])
    ui.tap_widget(ui.app.pin.keys["ok"])


@pytest.fixture
def menu(ui):
    """The operator menu, opened the way the app opens it after the PIN."""
    ui.app.show_operator()
    ui.frames(2)
    yield ui.app.operator
    ui.app.go_welcome()


# ---------------------------------------------------------------------------- configuration
def test_configuration_reaches_the_app_and_a_bad_key_is_shown(ui, menu):
    app = ui.app
    problems = app.config_problems()
    assert any("flavour: unknown key" in p for p in problems)
    assert any("buttons.undo_pin: 99" in p for p in problems)
    assert app.cfg.buttons.undo_pin == UNDO_PIN  # the default for that key only
    assert app.cfg.buttons.new_deal_hold == 0.6 and app.pin_guard.matches("4321")
    assert app.lobby.playlog.kiosk == "Test lobby"
    assert app.game_ids() == app.cfg.games
    menu.show("status")
    ui.frames(2)
    shown = texts(menu.panel)
    assert "flavour" in shown and "buttons.undo_pin" in shown
    assert str(ui.config_path) in shown and "The play log is working." in shown


def test_status_page_says_where_the_buttons_are_and_when_one_is_stuck(ui, menu):
    from kiosk.platform.buttons import Buttons

    menu.show("status")
    ui.frames(2)
    shown = texts(menu.panel)
    assert "Connected." in shown and f"New deal: GPIO {NEW_DEAL_PIN}. Undo: GPIO {UNDO_PIN}." in shown
    lobby = ui.app.lobby
    own, seen = lobby.buttons, lobby._presses_seen
    # held for longer than stuck_after (30 s on a kiosk): stuck, said on the page
    lobby.buttons = Buttons(lobby.dispatch, new_deal_pin=5, undo_pin=6, new_deal_hold=0.5,
                            undo_repeat_delay=0.2, stuck_after=0.6, pin_factory=ui.pins)
    try:
        ui.pins.pin(6).drive_low()
        assert ui.until(lambda: lobby.buttons.stuck() == ["undo"], 5)
        menu.show("status")
        ui.frames(2)
        assert "The Undo button is held down: stuck?" in texts(menu.panel)
        ui.pins.pin(6).drive_high()
    finally:
        lobby.buttons.close()
        lobby.buttons, lobby._presses_seen = own, seen


def test_status_page_says_why_there_are_no_buttons(ui, menu, monkeypatch):
    """The sentence the journal has, in the language the menu is in."""
    import sys

    from gpiozero import Device

    from kiosk.platform.buttons import Buttons

    lobby = ui.app.lobby
    own = lobby.buttons
    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    monkeypatch.setitem(sys.modules, "lgpio", None)
    lobby.buttons = Buttons(lobby.dispatch)
    try:
        assert not lobby.buttons.available
        for lang, words in (("en", "The lgpio module is not installed"),
                            ("ru", "Модуль lgpio не установлен"), ("zh", "没有安装 lgpio 模块")):
            ui.app.set_language(lang)
            menu.show("status")
            ui.frames(2)
            shown = texts(menu.panel)
            assert words in shown, shown
            assert ui.app.tr("Not available. The table's own New deal and Undo work.") in shown
    finally:
        ui.app.set_language("en")
        lobby.buttons = own


def test_default_options_of_a_game_come_from_the_configuration(ui):
    ui.app.cfg.game_options["klondike"] = {"draw": 3}
    try:
        ctl = ui.app.open_game("klondike", 7)
        assert ctl.game.opts["draw"] == 3
        ctl = ui.app.open_game("klondike", 7, {"draw": 1})  # explicit options win
        assert ctl.game.opts["draw"] == 1
    finally:
        del ui.app.cfg.game_options["klondike"]


# ---------------------------------------------------------------------------- buttons
def test_hardware_buttons_drive_the_running_app(ui):
    app = ui.app
    assert app.lobby.buttons.available
    ctl = open_klondike(ui)
    deals, undos = [], []
    ctl.bind(on_new_deal=lambda *a: deals.append(a), on_undo=lambda *a: undos.append(a))
    ui.tap(*ui.card_center("S"))
    assert ctl.moves == 1
    first = app.lobby.session.play
    press(ui, UNDO_PIN)
    assert len(undos) == 1 and ctl.moves == 0 and undos[0][1] == "gpio"
    seed = ctl.seed
    press(ui, NEW_DEAL_PIN)
    assert len(deals) == 1 and ctl.seed != seed and app.sm.current == "table"
    # holding Undo repeats it
    for _ in range(3):
        ui.tap(*ui.card_center("S"))
    assert ctl.moves == 3
    press(ui, UNDO_PIN, hold=1.0)  # at once, then after 0.8 s
    assert len(undos) == 3 and ctl.moves == 1
    # holding New deal (0.6 s here) goes back to the picker, and its release deals nothing
    play = app.lobby.session.play
    ui.pins.pin(NEW_DEAL_PIN).drive_low()
    assert ui.until(lambda: app.sm.current == "picker", 3)
    ui.pins.pin(NEW_DEAL_PIN).drive_high()
    ui.wait(0.25)
    assert len(deals) == 1 and app.sm.current == "picker"
    assert play.result == "abandoned" and first.result == "abandoned"
    # presses, not events: a held Undo repeats but is one press
    assert db_rows(app, "SELECT button_presses FROM plays WHERE id IN (?, ?) ORDER BY id",
                   [first.id, play.id]) == [(2,), (2,)]


def test_presses_while_the_table_animates_and_the_loop_is_busy_are_not_lost(ui):
    """A move's card in flight, and the main loop drawing nothing while a visitor presses
    New deal twice and Undo once (a slow first deal under a software renderer): every press
    acts once, in order, when the loop turns again; the Undo after two fresh deals brings
    back the game the first one put aside."""
    app = ui.app
    ctl = open_klondike(ui)
    view = ui.table.view
    original = ctl.seed
    done = []
    ctl.bind(on_new_deal=lambda *a: done.append(("deal", ctl.seed)),
             on_restore=lambda *a: done.append(("restore", ctl.seed)))
    view.animate = True
    try:
        ui.tap(*ui.card_center("S"))                # the stock: a card flies to the waste
        assert ctl.moves == 1
        first = app.lobby.session.play
        for pin in (NEW_DEAL_PIN, NEW_DEAL_PIN, UNDO_PIN):   # no frame in between
            ui.pins.pin(pin).drive_low()
            time.sleep(0.1)
            ui.pins.pin(pin).drive_high()
            time.sleep(0.1)
        assert done == [], "acted before the loop turned"
        ui.wait(0.5)
        assert [what for what, _ in done] == ["deal", "deal", "restore"], done
        assert len({seed for _, seed in done[:2]} | {original}) == 3
        assert ctl.seed == original and ctl.moves == 1 and app.sm.current == "table"
        assert first.result == "abandoned"
    finally:
        view.animate = False


def test_keys_n_and_u_do_the_buttons_jobs(ui):
    ctl = open_klondike(ui)
    ui.tap(*ui.card_center("S"))
    assert ui.key(117, "u") and ctl.moves == 0
    seed = ctl.seed
    assert ui.key(110, "n") and ctl.seed != seed


# ---------------------------------------------------------------------------- idle
def test_idle_timeout_abandons_the_play_and_welcomes_the_next_visitor(ui):
    app, lobby = ui.app, ui.app.lobby
    app.set_language("ru")  # the visitor switched language
    open_klondike(ui)
    lobby.idle_timeout, lobby.warning_seconds = 1.2, 0.3   # then "Still playing?" for 0.3 s
    try:
        ui.tap(*ui.card_center("S"))
        play = lobby.session.play
        assert play is not None and play.result is None
        ui.wait(0.9)
        ui.tap(*ui.card_center("S"))  # input resets the timer
        ui.wait(0.9)
        assert app.sm.current == "table"
        assert ui.until(lambda: lobby.warning_shown, 4)
        assert ui.until(lambda: app.sm.current == "welcome", 4)
        assert play.result == "abandoned" and app.lang == "en"
        assert db_rows(app, "SELECT result, moves FROM plays WHERE id = ?",
                       [play.id]) == [("abandoned", 2)]
    finally:
        lobby.idle_timeout, lobby.warning_seconds = 86400, WARNING_SECONDS
        lobby.arm()


def test_the_operator_menu_times_out_too(ui, menu):
    lobby = ui.app.lobby
    lobby.idle_timeout, lobby.warning_seconds = 0.3, 0.3
    try:
        lobby.arm()
        assert ui.until(lambda: ui.app.sm.current == "welcome", 3)
    finally:
        lobby.idle_timeout, lobby.warning_seconds = 86400, WARNING_SECONDS
        lobby.arm()


# ---------------------------------------------------------------------------- attract
def test_attract_mode_plays_and_a_touch_wakes_it_without_logging_a_demo(ui):
    app, lobby, demo = ui.app, ui.app.lobby, ui.app.attract
    plays_before = db_rows(app, "SELECT count(*) FROM plays")[0][0]
    lobby.attract_delay = 0.3
    demo.step = 0.03
    try:
        app.show_welcome()
        # settled: the screen manager ignores touches while a transition runs, and even
        # NoTransition's runs until the next frame (the demo's fast-forwarded deal already
        # has its moves, so the touch below could come in that very frame: 1 run in 10)
        # (generous limits: the whole suite on two busy cores once took over 3 s to start
        # the demo; the waits end as soon as it is there)
        assert ui.until(lambda: app.sm.current == "attract"
                        and not app.sm.transition.is_active, 20)
        # (its view too: a loaded run found the view not yet set beside moves made)
        assert ui.until(lambda: demo.ctl is not None and demo.ctl.moves >= 3
                        and demo.view is not None, 20)
        ctl = demo.ctl
        assert ctl.demo and ctl is not app.controller
        assert demo.prompt.text == "Touch the screen to play"
        # a touch on the demo's cards: to the picker at once, the cards are left alone.
        # The touch re-arms the attract timer, which at 0.3 s could fire inside the frame
        # that builds the picker on a loaded machine: the long delay again
        lobby.attract_delay = 86400
        view = demo.view
        x, y = view.to_window(view.center_x, view.top - 80)
        t = ui.touch(x, y)
        t.touch_down()
        ui.frames(1)
        assert app.sm.current == "picker"
        moves = ctl.moves
        t.touch_up()
        ui.wait(0.2)
        assert ctl.moves == moves and not demo.running
        assert db_rows(app, "SELECT count(*) FROM plays")[0][0] == plays_before
        # the demo cycles through the enabled games, in the picker's order
        demo.running = True
        demo._order = app.game_ids()[:3]
        demo._index = -1
        demo._next_game()
        demo._next_game()
        assert demo.games_shown[-2:] == app.game_ids()[:2]
        demo.stop()
        # a hardware button wakes it as well
        lobby.attract_delay = 0.3
        app.show_welcome()
        assert ui.until(lambda: app.sm.current == "attract", 3)
        lobby.on_button("undo")
        assert app.sm.current == "picker" and not demo.running
    finally:
        lobby.attract_delay = 86400
        demo.step = type(demo).step
        demo.stop()


# ---------------------------------------------------------------------------- operator
def test_a_config_that_did_not_parse_puts_a_small_mark_on_the_welcome_screen(ui, tmp_path):
    app = ui.app
    mark = app.welcome.mark
    app.show_picker()
    ui.frames(2)
    app.go_welcome()
    ui.frames(2)
    assert mark.opacity == 0  # a clean configuration: nothing at all
    app.cfg.broken_file = tmp_path / "config.toml"
    try:
        for size in ((800, 480), (720, 1280)):
            ui.resize(*size)
            app.show_picker()
            ui.frames(2)
            app.go_welcome()
            ui.frames(2)
            w, h = ui.window.size
            assert mark.opacity == 1 and mark.x < w * 0.05 and mark.top < h * 0.05
            assert max(mark.size) < min(w, h) * 0.03  # a speck, with nothing to read
            assert not [c for c in mark.children]
    finally:
        app.cfg.broken_file = None
        ui.resize(800, 480)
        app.show_picker()
        ui.frames(2)
        app.go_welcome()
        ui.frames(2)
    assert mark.opacity == 0


def test_operator_menu_needs_a_five_second_hold_and_the_pin(ui):
    app = ui.app
    guard = app.pin_guard
    w, h = ui.window.size
    t = ui.touch(12, h - 12)  # the top left corner of the welcome screen
    t.touch_down()
    ui.wait(4.5)
    assert app.sm.current == "welcome"
    ui.wait(0.8)
    assert app.sm.current == "pin"
    t.touch_up()
    ui.frames(2)
    assert app.sm.current == "pin"  # the release did not also open the picker
    enter_pin(ui, "1234")
    assert app.sm.current == "pin" and app.pin.entered == "" and app.pin.message.text == ""
    for _ in range(4):
        enter_pin(ui, "0000")
    assert guard.locked() and "Too many wrong tries" in app.pin.message.text
    enter_pin(ui, "4321")  # even the right PIN waits for the lock
    assert app.sm.current == "pin"
    real = guard.clock
    guard.clock = lambda: real() + 61
    try:
        ui.wait(1.1)
        assert not app.pin.keys["4"].disabled and app.pin.message.text == ""
        enter_pin(ui, "4321")
        assert app.sm.current == "operator"
    finally:
        guard.clock = real
        guard._locked_until = 0.0
    ui.tap_widget(app.operator.close)
    assert app.sm.current == "welcome"


def test_a_corner_touch_that_moves_away_is_no_hold(ui):
    app = ui.app
    app.show_picker()
    ui.frames(2)
    w, h = ui.window.size
    t = ui.touch(12, h - 12)
    t.touch_down()
    ui.frames(1)
    t.touch_move(300, h - 200)
    assert app.lobby._corner_ev is None
    t.touch_up()
    ui.frames(2)
    assert app.sm.current == "picker"


def test_statistics_page(ui, menu):
    app = ui.app
    ctl = open_klondike(ui, 99)
    win_by_one_tap(ui, ctl)
    assert ctl.game.won
    app.show_operator("stats")
    ui.frames(2)
    menu.pages["stats"].scope = "all"
    menu.rebuild()
    shown = texts(menu.panel)
    assert "Klondike" in shown and "All games" in shown and "Median time" in shown
    data = app.statistics()
    assert data["games"]["klondike"]["all"]["wins"] >= 1


def test_export_to_a_usb_stick(ui, menu, tmp_path, monkeypatch):
    app = ui.app
    open_klondike(ui, 5)
    ui.tap(*ui.card_center("S"))
    app.table.go_home()
    stick = tmp_path / "stick"
    stick.mkdir()
    monkeypatch.setattr(export, "find_usb_mount", lambda *a, **k: stick)
    app.show_operator("export")
    ui.frames(2)
    button = next(w for w in menu.panel.walk() if getattr(w, "text", "") ==
                  "Export to the USB stick")
    ui.tap_widget(button)
    assert ui.until(lambda: not menu.pages["export"].state["running"], 30)
    state = menu.pages["export"].state
    assert not state["error"], state
    (folder,) = (stick / "solitaire-kiosk").iterdir()
    assert folder.name.startswith("Test-lobby-")
    with open(folder / "plays.csv", encoding="utf-8-sig", newline="") as fh:
        plays = list(csv.DictReader(fh))
    with open(folder / "moves.csv", encoding="utf-8-sig", newline="") as fh:
        moves = list(csv.DictReader(fh))
    assert len(plays) == db_rows(app, "SELECT count(*) FROM plays")[0][0] >= 1
    seated = 0  # hands and matches against the computer (the Gin table's tests play some)
    for name in ("hands.csv", "matches.csv"):
        if (folder / name).is_file():
            with open(folder / name, encoding="utf-8-sig", newline="") as fh:
                seated += len(list(csv.DictReader(fh)))
    assert state["rows"] == len(plays) + len(moves) + seated
    assert f"{state['rows']} rows written" in texts(menu.panel)
    # no stick: one clear sentence, in the operator's language
    monkeypatch.setattr(export, "find_usb_mount", lambda *a, **k: None)
    app.set_language("zh")
    ui.frames(2)
    ui.tap_widget(next(w for w in menu.panel.walk() if getattr(w, "text", "") ==
                       catalog("zh")["Export to the USB stick"]))
    assert ui.until(lambda: not menu.pages["export"].state["running"], 10)
    assert menu.pages["export"].state["error"]
    assert catalog("zh")["No USB stick found. Plug one in and try again."] in texts(menu.panel)


def test_export_to_a_full_usb_stick_says_so_and_leaves_no_partial_file(ui, menu, tmp_path,
                                                                       monkeypatch):
    from tests.lobby.test_playlog_faults import full_stick

    app = ui.app
    open_klondike(ui, 5)
    ui.tap(*ui.card_center("S"))
    app.table.go_home()
    with full_stick(tmp_path / "stick") as stick:
        monkeypatch.setattr(export, "find_usb_mount", lambda *a, **k: stick)
        app.show_operator("export")
        ui.frames(2)
        ui.tap_widget(next(w for w in menu.panel.walk() if getattr(w, "text", "") ==
                           "Export to the USB stick"))
        assert ui.until(lambda: not menu.pages["export"].state["running"], 30)
        assert menu.pages["export"].state["error"]
        assert "The USB stick is full." in texts(menu.panel)
        assert [p.name for p in stick.rglob("*") if p.is_file()] == ["photos.jpg"]


def test_games_and_language_are_saved_in_the_config_file(ui, menu):
    app = ui.app
    path = ui.config_path
    before = app.game_ids()
    original = path.read_text()
    try:
        menu.show("games")
        ui.frames(2)
        ui.tap_widget(menu.widgets["toggles"]["klondike"])
        assert "klondike" not in app.game_ids()
        assert app.game_ids() == [g for g in before if g != "klondike"]
        app.show_picker()
        ui.frames(3)
        tiles = {t.game_id for page in app.picker.carousel.slides for t in page.children
                 if hasattr(t, "game_id")}
        assert "klondike" not in tiles and len(tiles) == len(before) - 1
        from kiosk.settings import config

        saved = config.load(path)
        assert saved.games == app.game_ids()
        assert 'flavour = "vanilla"' in path.read_text()  # the rest of the file is kept
        app.show_operator("games")
        ui.frames(2)
        ui.tap_widget(menu.widgets["toggles"]["klondike"])  # back where it was
        assert app.game_ids() == before
        assert config.load(path).games == before
    finally:
        path.write_text(original)
        app.set_enabled_games(before)
        path.write_text(original)


def test_restart_reboot_shutdown_and_maintenance(ui, menu):
    app = ui.app
    exits: list[int] = []
    app.system.exit_app = exits.append
    try:
        menu.show("system")
        ui.frames(2)

        def tap(key: str) -> None:
            ui.tap_widget(menu.widgets["system"][key])

        tap("reboot")
        assert menu.widgets["system"]["reboot"].text == "Tap again to confirm"
        assert ui.runner.commands == []
        tap("reboot")
        assert ui.until(lambda: ui.runner.commands == [("systemctl", "reboot")], 5)
        ui.runner.fail = "Access denied"
        tap("poweroff")
        tap("poweroff")
        assert ui.until(lambda: "Could not shut down: Access denied" in texts(menu.panel), 5)
        assert ui.runner.commands[-1] == ("systemctl", "poweroff")
        tap("restart")
        tap("restart")
        assert exits == [75]
        tap("maintenance")
        tap("maintenance")
        assert app.sm.current == "pin" and app.pin.purpose == "maintenance"
        enter_pin(ui, "4321")
        assert exits == [75, 76]
    finally:
        ui.runner.fail = None
        ui.runner.commands.clear()
        app.system.exit_app = app.exit_app


# ---------------------------------------------------------------------------- the table
def test_welcome_shows_todays_wins(ui):
    app = ui.app
    before = app.lobby.today_wins()
    ctl = open_klondike(ui, 123)
    win_by_one_tap(ui, ctl)
    assert ctl.game.won
    app.go_welcome()
    ui.frames(2)
    assert app.lobby.today_wins() == before + 1
    assert app.welcome.wins_badge.opacity == 1
    assert str(before + 1) in app.welcome.wins.text if before else "A game won" in \
        app.welcome.wins.text


def test_score_label_and_refusals_in_the_visitors_language(ui):
    app = ui.app
    ctl = open_klondike(ui)
    assert "On foundations: 0" in app.table.status.text
    g = arrange(ctl.game, {"T1": "9H", "T2": "8S", "T4": "9S", "S": "2C"})
    ctl.set_game(g)
    app.set_language("zh")
    ui.frames(2)
    assert "已收牌：0" in app.table.status.text
    ui.drag(*ui.card_center("T2"), *ui.card_center("T4"))
    assert app.table.toast.text == "8♠ 只能放在 红色的 9 上。"
    app.set_language("ru")
    ui.drag(*ui.card_center("T2"), *ui.card_center("T4"))
    assert app.table.toast.text == "8♠ можно положить только на красную 9."
    entry = app.catalog_entry("pyramid")
    assert entry["score"]["label"] == "cards removed"
    app.open_game("pyramid", 3)
    ui.frames(2)
    assert "Убрано: 0" in app.table.status.text   # a start reads as a start, not as -52


def test_every_score_label_is_translated():
    labels = {e["score"]["label"] for e in games.catalog() if e.get("score")}
    for lang in ("zh", "ru", "en"):
        missing = [label for label in labels if not catalog(lang).get(label)]
        assert not missing, (lang, missing)


def test_the_app_stops_cleanly(ui):
    """on_stop's work (the open play ends interrupted, the log closes) without stopping the
    session's app: a second Lobby on the same log."""
    from kiosk.lobby import Lobby
    from kiosk.records.playlog import PlayLog

    app = ui.app
    log = PlayLog(app.lobby.playlog.path.parent / "other.db", min_free_mb=0)
    lobby = Lobby(app, app.cfg, services=False, playlog=log)
    from kiosk.records.logsession import LogSession

    lobby.session = LogSession(log)
    ctl = open_klondike(ui, 77)
    lobby.follow(ctl)
    ui.tap(*ui.card_center("S"))
    play = lobby.session.play
    started = time.monotonic()
    lobby.stop()
    assert play.result == "interrupted" and time.monotonic() - started < 5
