"""kiosk.solving.attract: the demo replays a stored winning line, else plays by itself, and stops."""

from __future__ import annotations

import random

import pytest

import games
from kiosk.solving import deals
from kiosk.solving.attract import DemoPlayer


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


#: the shipped lists (not the temporary files of a `kiosk winnable` writing one)
LISTS = sorted(p for p in deals.DEALS_DIR.glob("*.json") if not p.name.startswith("."))


@pytest.mark.parametrize("path", LISTS, ids=[p.stem for p in LISTS])
def test_the_demo_plays_a_stored_line_of_every_list_to_a_win(path):
    """Attract mode on every game with a list ends in a win, however long the line (the
    auto-player's move cap never cuts a stored line short)."""
    lst = deals.read(path)
    player = DemoPlayer(lst.game, lst.options, rnd=random.Random(path.stem), max_moves=5)
    assert player.replays, f"{path.name}: the demo does not replay a stored line"
    assert lst.find(player.seed()) is not None
    game = play_out(player)
    assert game.won, f"{lst.game} #{player.seed()}"
    assert player.played == len(player.line)


def test_the_demo_picks_the_shortest_of_a_few_drawn_deals(monkeypatch):
    lst = deals.DealList("clock", {}, [{"seed": s, "moves": ["x"] * k}
                                       for s, k in ((26, 0), (5, 9), (7, 3))])
    monkeypatch.setattr(deals, "load", lambda *a, **k: lst)
    monkeypatch.setattr("kiosk.solving.attract.CANDIDATES", 50)
    assert DemoPlayer("clock", rnd=random.Random(3)).seed() == 26


def test_the_pace_spreads_a_long_line_and_keeps_a_short_one_calm():
    from kiosk.solving import attract

    player = DemoPlayer("clock", rnd=random.Random(1))
    player.line = ["m"] * 20
    assert player.pace() == attract.SLOWEST
    player.line = ["m"] * 150
    assert player.pace() == pytest.approx(attract.SHOW_SECONDS / 150)
    player.line = ["m"] * 5000
    assert player.pace() == attract.FASTEST
    assert player.pace(slowest=0.01) == 0.01  # the tests' fast show
    player.line = None
    assert player.pace() == attract.SLOWEST


def test_a_stored_line_that_stops_short_of_the_win_is_not_shown(monkeypatch):
    g = games.new("clock", 26)
    first = g.notation(g.legal_moves()[0])
    short = deals.DealList("clock", {}, [{"seed": 26, "moves": [first]}])
    monkeypatch.setattr(deals, "load", lambda *a, **k: short)
    monkeypatch.setattr(deals, "line", lambda game, moves: [first])
    assert not DemoPlayer("clock", rnd=random.Random(1)).replays
