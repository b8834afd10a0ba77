"""Attract mode shows the games against the computer too: one hand of each, computer against
computer, on the game's own hand table drawn as a visitor sees it (names, chips, the pot,
the words; it was unlabelled rows of cards in the solitaire layout), every text at the
reading floor (the caption was 16 px), nothing in the play log, and a touch wakes it."""

from __future__ import annotations

import pytest

from kiosk.screens.gin_table import GinTableScreen
from kiosk.screens.poker_table import PokerTableScreen
from kiosk.screens.trick_table import TrickTableScreen
from kiosk.settings.config import HAND_TABLES
from kiosk.solving.attract import HandDemo
from tests.ui.logged_rows import db_rows

from .floors import text_floor_problems
from .test_text_fit import LANGS, SIZES, label_problems

TABLES = {"gin_rummy": GinTableScreen, "draw_poker": PokerTableScreen,
          "follow_the_rules": TrickTableScreen}


def plays(app) -> int:
    return db_rows(app, "SELECT count(*) FROM plays")[0][0]


@pytest.fixture
def demo(ui, monkeypatch):
    screen = ui.app.attract
    monkeypatch.setattr(screen, "step", 60.0)  # the test makes the moves (another test's pace
    monkeypatch.setattr(screen, "pause", 60.0)  # may still be set on the session's screen)
    yield screen
    screen.stop()
    ui.app.show_welcome()


def show(ui, demo, game_id: str, moves: int) -> None:
    demo.start()
    demo._order, demo._index = [game_id], -1
    demo._next_game()
    demo._cancel()
    for _ in range(moves):
        if not demo.play_one():
            break
        ui.frames(1)
    ui.frames(2)


def test_the_demo_rotation_includes_the_games_against_the_computer(ui, monkeypatch):
    app, screen = ui.app, ui.app.attract
    monkeypatch.setattr(screen, "_rnd", __import__("random").Random(4))
    try:
        screen.start()
        assert set(HAND_TABLES) <= set(screen._order)
    finally:
        screen.stop()
        app.show_welcome()


@pytest.mark.parametrize("game_id", sorted(TABLES))
def test_a_hand_is_shown_on_its_own_table_and_logs_nothing_and_a_touch_wakes(ui, demo,
                                                                              game_id):
    app = ui.app
    before = plays(app)
    show(ui, demo, game_id, 8)
    assert isinstance(demo.player, HandDemo) and demo.ctl.game_id == game_id
    assert demo.ctl.demo and demo.ctl.log_session is None
    table = demo.hand_table
    assert isinstance(table, TABLES[game_id]) and table.ctl is demo.ctl
    assert table.parent is not None and table is not app.sm.built(table.name)
    assert demo.view is None or demo.view.parent is None  # no solitaire rows of cards
    assert demo.player.played == 8 and len(demo.ctl.game.history) >= 8
    assert "the computer plays every hand" in demo.caption.text
    words = {str(w.text) for w in table.walk() if hasattr(w, "text") and str(w.text).strip()}
    g = demo.ctl.game
    assert table.message.text.strip()  # what the last seat did, in words
    if game_id == "draw_poker":  # names, chips and the pot
        assert {"Player 1", "Pot\n" + str(g.vars["pot"])} <= words, words
        assert any(w.endswith("chips") for w in words), words
    else:  # the score line: the hand and both players
        assert any(w.startswith("Hand 1") and "Computer" in w for w in words), words
    assert table.home.opacity == 0  # no Leave in a demo: any touch wakes the kiosk
    view_x, view_y = table.to_window(table.center_x, table.center_y)
    t = ui.touch(view_x, view_y)
    t.touch_down()
    ui.frames(1)
    t.touch_up()
    ui.frames(2)
    assert app.sm.current == "picker" and not demo.running
    assert plays(app) == before


@pytest.mark.parametrize("size", SIZES)
def test_the_demo_reads_at_the_floor_in_every_language(ui, demo, size):
    """The banner's caption (16 px a unit before) and every text of the demo's table at
    the reading floor, whole, in each language; a landscape hand table keeps the whole
    height, the banner beside it."""
    problems = []
    for lang in LANGS:
        ui.reset(lang, size)
        for game_id in (*sorted(TABLES), "klondike"):
            show(ui, demo, game_id, 6)
            where = f"{game_id} demo {lang} {size}"
            problems += text_floor_problems(demo, where)
            problems += label_problems(demo, where)
            problems += [f"{where}: {lab.text!r} cut" for lab in (demo.prompt, demo.caption)
                         if lab.is_cut()]
            table = demo.hand_table
            if table is not None and size[0] > size[1]:
                assert table.height == size[1] and table.right <= demo.banner.x, where
            demo.stop()
    assert not problems, "\n".join(problems)
