"""kiosk.attract: the demo replays a stored winning line, else plays by itself, and stops."""

from __future__ import annotations

import random

import pytest

import games
from kiosk import deals
from kiosk.attract import DemoPlayer


def play_out(player: DemoPlayer) -> games.Game:
    g = games.new(player.game_id, player.seed(), **player.options)
    for _ in range(2000):
        move = player.next_move(g)
        if move is None:
            return g
        g.play(move)  # the engine checks every demo move
    raise AssertionError("the demo never stopped")


def test_a_stored_winning_line_wins():
    if deals.load("clock") is None:
        pytest.skip("no deal list for clock")
    player = DemoPlayer("clock", rnd=random.Random(2))
    assert player.replays
    assert play_out(player).won


@pytest.mark.parametrize("game_id", ["klondike", "pyramid", "sliding_eleven", "accordion"])
def test_the_auto_player_never_repeats_a_position_and_stops(game_id, monkeypatch):
    monkeypatch.setattr(deals, "load", lambda *a, **k: None)
    player = DemoPlayer(game_id, rnd=random.Random(1), max_moves=400)
    assert not player.replays
    g = games.new(game_id, player.seed())
    seen = {g.key()}
    while (move := player.next_move(g)) is not None:
        g.play(move)
        assert g.key() not in seen
        seen.add(g.key())
    assert player.played <= 400


def test_a_broken_list_falls_back_to_the_auto_player(tmp_path, monkeypatch):
    good = deals.DealList("klondike", {}, [{"seed": 5, "moves": ["T9>F9"]}])
    monkeypatch.setattr(deals, "load", lambda *a, **k: good)
    player = DemoPlayer("klondike", rnd=random.Random(1))
    assert not player.replays
    assert play_out(player).history


def test_max_moves_ends_the_show(monkeypatch):
    monkeypatch.setattr(deals, "load", lambda *a, **k: None)
    player = DemoPlayer("snake", rnd=random.Random(1), max_moves=7)
    g = play_out(player)
    assert len(g.history) == 7
