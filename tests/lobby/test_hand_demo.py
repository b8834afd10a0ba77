"""Attract mode's hands against the computer (kiosk.solving.attract.HandDemo, no Kivy): every
seat is the game's own computer player, deciding from its own seat's view; one hand is shown,
every hand open on the table's copy while the game itself keeps its hidden hands hidden."""

from __future__ import annotations

import random

import pytest

import games
from games.families.seats import SeatedGame
from kiosk.solving.attract import HandDemo

HAND_GAMES = ("gin_rummy", "draw_poker", "follow_the_rules")


def play_show(game_id: str, seed_rnd: int = 3) -> tuple[HandDemo, games.Game, list[int]]:
    demo = HandDemo(game_id, {}, random.Random(seed_rnd))
    shown = games.new(game_id, demo.seed())
    demo.fast_forward(shown)
    seats = []
    while True:
        seat = demo.real.to_move
        if not demo.advance(shown):
            break
        seats.append(seat)
        hands = shown.roles["hand"]
        assert all(shown.down[h] == 0 for h in hands)           # the watcher sees them all
        assert shown.cards == demo.real.cards
    return demo, shown, seats


@pytest.mark.parametrize("game_id", HAND_GAMES)
def test_a_demo_hand_plays_every_seat_to_the_end_of_the_hand(game_id):
    demo, shown, seats = play_show(game_id)
    g = demo.real
    assert isinstance(g, SeatedGame)
    assert demo.hand_over() and (len(g.hand_records()) >= 1 or g.over), (game_id, demo.played)
    assert {0, 1} <= set(seats)           # the visitor's seat is the computer's too
    assert 0 < demo.played == len(seats) < demo.max_moves


@pytest.mark.parametrize("game_id", HAND_GAMES)
def test_the_game_keeps_the_computer_hands_hidden_the_table_shows_them(game_id):
    demo = HandDemo(game_id, {}, random.Random(7))
    shown = games.new(game_id, demo.seed())
    demo.fast_forward(shown)
    hands = demo.real.roles["hand"]
    assert any(demo.real.down[h] for h in hands)       # the game hides a computer hand ...
    assert not any(shown.down[h] for h in hands)       # ... the watcher's copy does not
    stock = demo.real.roles.get("stock", ())
    assert [shown.down[s] for s in stock] == [demo.real.down[s] for s in stock]


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
    demo, _shown, seats = play_show(game_id, 5)
    assert asked == seats and len(asked) == demo.played


def test_the_same_draw_shows_the_same_hand():
    a = play_show("gin_rummy", 11)[0].real
    b = play_show("gin_rummy", 11)[0].real
    assert a.seed == b.seed and [str(m) for m in a.history] == [str(m) for m in b.history]
