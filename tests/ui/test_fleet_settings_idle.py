"""The running kiosk takes the centre's settings a sync pass wrote at its next idle moment
(the welcome screen), never in a visitor's game (issue 27)."""

from __future__ import annotations

import copy

from kiosk.settings import overrides


def test_centre_settings_wait_for_the_welcome_screen(ui):
    app = ui.app
    data_dir = app.lobby_data_dir()
    path = data_dir / overrides.FILE_NAME
    before = path.read_bytes() if path.exists() else None
    saved = copy.deepcopy((app.cfg.language, app.cfg.idle_timeout, app.cfg.attract,
                           app.cfg.games, app.cfg.winnable_only, app.cfg.winnable_off,
                           app.cfg.operator_pin))
    lobby = (app.lobby.idle_timeout, app.lobby.attract_enabled, app.lobby.attract_delay)
    seen = app._centre_seen
    try:
        app.open_game("klondike", 5)
        ui.frames(3)
        assert app.sm.current == "table"
        # a sync pass writes a version while a visitor plays
        overrides.save_centre(app.cfg, data_dir, {"idle_timeout": 77, "language": "zh",
                                                  "attract": {"delay": 900}}, 9, [9])
        app.take_centre_settings()  # the 30-second check comes round during the game
        ui.frames(2)
        assert app.sm.current == "table"
        assert (app.cfg.idle_timeout, app.lobby.idle_timeout) == (saved[1], lobby[0])
        assert app.cfg.language == saved[0]
        # the visitor leaves (idle, Home): the welcome screen takes the new settings
        app.go_welcome()
        ui.frames(2)
        assert app.sm.current == "welcome"
        assert (app.cfg.idle_timeout, app.lobby.idle_timeout) == (77, 77)
        assert (app.cfg.attract.delay, app.lobby.attract_delay) == (900, 900)
        assert app.cfg.language == "zh" and app.lang == "zh"
        assert app._centre_seen == (9, [9])
    finally:
        if before is None:
            path.unlink(missing_ok=True)
        else:
            path.write_bytes(before)
        (app.cfg.language, app.cfg.idle_timeout, app.cfg.attract, app.cfg.games,
         app.cfg.winnable_only, app.cfg.winnable_off, app.cfg.operator_pin) = saved
        app.lobby.idle_timeout, app.lobby.attract_enabled, app.lobby.attract_delay = lobby
        app._centre_seen = seen
        app.set_language(saved[0])
        app.lobby.arm()
