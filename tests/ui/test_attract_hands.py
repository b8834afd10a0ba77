"""Attract mode shows the games against the computer too: one hand of each, computer against
computer, every hand open as a watcher sees it, nothing in the play log, a touch wakes it."""

from __future__ import annotations

from kiosk.settings.config import HAND_TABLES
from kiosk.solving.attract import HandDemo
from tests.ui.logged_rows import db_rows


def plays(app) -> int:
    return db_rows(app, "SELECT count(*) FROM plays")[0][0]


def test_the_demo_rotation_includes_the_games_against_the_computer(ui, monkeypatch):
    app, demo = ui.app, ui.app.attract
    monkeypatch.setattr(demo, "_rnd", __import__("random").Random(4))
    try:
        demo.start()
        assert set(HAND_TABLES) <= set(demo._order)
    finally:
        demo.stop()
        app.show_welcome()


def test_a_hand_is_played_open_and_logs_nothing_and_a_touch_wakes(ui, monkeypatch):
    app, demo = ui.app, ui.app.attract
    monkeypatch.setattr(demo, "step", 60.0)  # the test makes the moves (another test's pace
    monkeypatch.setattr(demo, "pause", 60.0)  # may still be set on the session's screen)
    before = plays(app)
    try:
        demo.start()
        demo._index = demo._order.index("gin_rummy") - 1
        demo._next_game()
        ui.frames(3)
        assert isinstance(demo.player, HandDemo) and demo.ctl.game_id == "gin_rummy"
        assert demo.ctl.demo and demo.ctl.log_session is None
        assert "the computer plays every hand" in demo.caption.text
        for _ in range(8):
            demo._cancel()
            demo._step(0)
            ui.frames(1)
        shown, real = demo.ctl.game, demo.player.real
        assert demo.player.played == 8 and shown.cards == real.cards
        hands = shown.roles["hand"]
        assert any(real.down[h] for h in hands) and not any(shown.down[h] for h in hands)
        # the view draws every card of both hands face up
        faces = {code: w for code, w in demo.view.cards.items()}
        for h in hands:
            for code in shown.cards[h]:
                assert faces[code].face_up, code
        view = demo.view
        x, y = view.to_window(view.center_x, view.center_y)
        t = ui.touch(x, y)
        t.touch_down()
        ui.frames(1)
        t.touch_up()
        ui.frames(2)
        assert app.sm.current == "picker" and not demo.running
        assert plays(app) == before
    finally:
        demo.stop()
        app.show_welcome()
