"""The app tells the updates which screen it shows (kiosk/updates/quiet.py): the root side
restarts into an installed update only after minutes of the welcome screen or the attract
demo, and commits a new slot only once the app has drawn its first screen."""

from __future__ import annotations

import os

from kiosk.updates import quiet


def test_the_app_publishes_each_screen_it_shows(ui, tmp_path, monkeypatch):
    monkeypatch.setenv("RUNTIME_DIRECTORY", str(tmp_path))
    path = tmp_path / quiet.LOBBY_NAME
    ui.app.show_picker()
    ui.frames(2)
    picker = quiet.read_lobby(path)
    assert picker is not None and picker.screen == "picker" and picker.pid == os.getpid()
    assert not quiet.is_quiet(picker, True, now=picker.since + 3600), "a visitor is choosing"
    ui.app.show_welcome()
    ui.frames(2)
    welcome = quiet.read_lobby(path)
    assert welcome.screen == "welcome" and welcome.since >= picker.since
    assert quiet.is_quiet(welcome, True, now=welcome.since + quiet.QUIET_MINUTES * 60)
