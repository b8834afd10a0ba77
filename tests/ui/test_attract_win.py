"""Attract mode in the running app: a solved deal is replayed to its win, the win is
celebrated as at the table, then the next game comes; the rotation covers every enabled
game."""

from __future__ import annotations

import pytest

from kiosk.solving import deals

#: a game whose stored lines are short (about 30 moves), so the show ends quickly
SHORT = "monte_carlo"


def _labels(widget):
    from kivy.uix.label import Label

    out = [widget.text] if isinstance(widget, Label) else []
    for child in widget.children:
        out += _labels(child)
    return out


def test_attract_mode_replays_a_solved_deal_to_the_win_and_goes_on(ui):
    if deals.load(SHORT) is None:
        pytest.skip(f"no deal list for {SHORT}")
    app, demo = ui.app, ui.app.attract
    cls = type(demo)
    demo.step, demo.won_pause = 0.01, 0.6
    try:
        demo.running = True
        app.sm.current = "attract"
        demo._order, demo._index = [SHORT], -1
        demo._next_game()
        first = demo.ctl
        assert demo.player.replays and demo._pace == 0.01
        assert ui.until(lambda: demo.sheet is not None, 30), "the demo never reached its win"
        assert first.game.won and demo.wins >= 1
        assert "Solved!" in _labels(demo.sheet)
        # the banner stays above the cover: "touch the screen to play" is still readable
        kids = demo.root.children
        assert kids.index(demo.banner) < kids.index(demo.sheet) < kids.index(demo.view)
        # after the pause, the next demo deals a fresh table
        assert ui.until(lambda: demo.ctl is not first and demo.sheet is None, 5)
        assert not demo.ctl.game.won
    finally:
        demo.step, demo.won_pause = cls.step, cls.won_pause
        demo.stop()
    assert demo.sheet is None


def test_the_rotation_shows_every_enabled_game_then_starts_over(ui, monkeypatch):
    app, demo = ui.app, ui.app.attract
    enabled = app.game_ids()[:5]  # a few games keep it quick; the order logic is the same
    monkeypatch.setattr(app, "game_ids", lambda: enabled)
    try:
        demo.start()
        first = demo.games_shown[-1]
        for _ in enabled:
            demo._next_game()
        shown = demo.games_shown[-len(enabled) - 1:]
        assert sorted(shown[:-1]) == sorted(enabled) and shown[-1] == first
    finally:
        demo.stop()
        app.show_welcome()


def test_the_celebration_is_the_tables_firework(ui):
    from kivy.uix.floatlayout import FloatLayout

    from kiosk.screens.celebration import fireworks

    layer = FloatLayout(size=(800, 480))
    fireworks(layer, (800, 480), seed=3)
    assert len(layer.children) == 18
    assert {c.text for c in layer.children} <= set("♠♥♦♣★")


def test_the_table_and_the_demo_share_the_celebration(ui):
    from kivy.uix.floatlayout import FloatLayout

    ui.app.open_game("clock", seed=26)
    layer = FloatLayout(size=(800, 480))
    ui.app.table._celebrate(layer)
    assert len(layer.children) == 18
    ui.app.go_welcome()
