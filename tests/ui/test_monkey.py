"""Random fingers on every game, animations on: the app never errs and the game stays whole."""

from __future__ import annotations

import random

import pytest

import games
from games.families.seats import SeatedGame
from kiosk.settings.config import table_can_play

#: one game of each way of playing runs always; the rest with the slow tests. The pile
#: table's games only: the hand tables have their own (tests/ui/test_poker_table.py)
QUICK = {"klondike", "pyramid", "monte_carlo", "accordion", "sliding_eleven"}
GAMES = [g if g in QUICK else pytest.param(g, marks=pytest.mark.slow) for g in games.ids()
         if table_can_play(g) and not issubclass(games.game_class(g), SeatedGame)]


@pytest.mark.parametrize("game_id", GAMES)
def test_random_touches_keep_the_game_whole(ui, game_id):
    rnd = random.Random(game_id)
    ui.app.animate = True
    try:
        ctl = ui.app.open_game(game_id, rnd.randint(1, 1000))
        ui.frames(2)
        before = sorted(c for pile in ctl.game.cards for c in pile)
        x0, y0, w, h = ui.table.table_area
        for _ in range(30):
            x, y = x0 + rnd.random() * w, y0 + rnd.random() * h
            if rnd.random() < 0.6:
                ui.tap(x, y)
            else:
                ui.drag(x, y, x0 + rnd.random() * w, y0 + rnd.random() * h, steps=3)
            if rnd.random() < 0.1:
                ui.table.undo("test")
                ui.frames(1)
        ui.wait(0.3)
        after = sorted(c for pile in ctl.game.cards for c in pile)
        assert after == before
        view = ui.table.view
        assert set(view.cards) == set(after)
        assert not ui.app.keeper.errors
    finally:
        ui.app.animate = False
        ui.table.view.animate = False
        ui.table.close_sheet()
