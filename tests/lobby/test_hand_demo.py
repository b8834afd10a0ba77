"""Attract mode's hands against the computer (kiosk.solving.attract.HandDemo, no Kivy): every
seat is the game's own computer player, deciding from its own seat's view, and the show is
one hand. (The table that shows it, drawn as a visitor sees it: tests/ui/test_attract_hands.)"""

from __future__ import annotations

import random

import pytest

import games
from games.families.seats import SeatedGame
from kiosk.solving.attract import HandDemo

HAND_GAMES = ("gin_rummy", "draw_poker", "follow_the_rules")


def play_show(game_id: str, seed_rnd: int = 3) -> tuple[HandDemo, games.Game, list[int]]:
    """The show as the attract screen plays it, a move at a time on the table's game."""
    demo = HandDemo(game_id, {}, random.Random(seed_rnd))
    game = games.new(game_id, demo.seed())
    demo.fast_forward(game)
    seats = []
    while (move := demo.next_move(game)) is not None:
        seats.append(game.to_move)
        game.play(move)
        demo.played += 1
    return demo, game, seats


@pytest.mark.parametrize("game_id", HAND_GAMES)
def test_a_demo_hand_plays_every_seat_to_the_end_of_the_hand(game_id):
    demo, g, seats = play_show(game_id)
    assert isinstance(g, SeatedGame)
    assert demo.hand_over(g) and (len(g.hand_records()) >= 1 or g.over), (game_id, demo.played)
    assert not demo.goes_on(g)
    assert {0, 1} <= set(seats)           # the visitor's seat is the computer's too
    assert 0 < demo.played == len(seats) < demo.max_moves


@pytest.mark.parametrize("game_id", HAND_GAMES)
def test_each_seat_decides_from_its_own_view_only(game_id, monkeypatch):
    """Every decision goes through the seat's View: the player is never handed the game."""
    from games import players

    asked = []
    real = players.player_for

    def watching(gid, level):
        player = real(gid, level)

        def decide(view, rng):
            assert not isinstance(view, games.Game)
            asked.append(view.seat)
            return player(view, rng)
        return decide

    monkeypatch.setattr(players, "player_for", watching)
    demo, _g, seats = play_show(game_id, 5)
    assert asked == seats and len(asked) == demo.played


def test_the_same_draw_shows_the_same_hand():
    a = play_show("gin_rummy", 11)[1]
    b = play_show("gin_rummy", 11)[1]
    assert a.seed == b.seed and [str(m) for m in a.history] == [str(m) for m in b.history]


def test_the_show_stops_at_its_move_cap():
    demo = HandDemo("gin_rummy", {}, random.Random(2), max_moves=3)
    game = games.new("gin_rummy", demo.seed())
    demo.fast_forward(game)
    for _ in range(3):
        game.play(demo.next_move(game))
        demo.played += 1
    assert demo.next_move(game) is None
