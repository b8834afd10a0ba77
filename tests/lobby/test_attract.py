"""kiosk.solving.attract: the demo replays a stored winning line, else plays by itself, and stops."""

from __future__ import annotations

import random

import pytest

import games
from kiosk.solving import attract, deals
from kiosk.solving.attract import DemoPlayer


def play_out(player: DemoPlayer) -> games.Game:
    g = games.new(player.game_id, player.seed(), **player.options)
    player.fast_forward(g)  # as the attract screen does
    for _ in range(2000):
        move = player.next_move(g)
        if move is None:
            return g
        g.play(move)  # the engine checks every demo move
    raise AssertionError("the demo never stopped")


def stored(game_id: str, lines: dict[int, list[str]]) -> deals.StoredDeals:
    """A deal list as :func:`deals.stored` gives it, with these lines."""
    return deals.StoredDeals(game_id, {}, list(lines),
                             {s: " ".join(m) for s, m in lines.items()}, {})


def test_a_stored_winning_line_wins():
    if deals.stored("clock") is None:
        pytest.skip("no deal list for clock")
    player = DemoPlayer("clock", rnd=random.Random(2))
    assert player.replays
    assert play_out(player).won


@pytest.mark.parametrize("game_id", ["klondike", "pyramid", "sliding_eleven", "accordion"])
def test_the_auto_player_never_repeats_a_position_and_stops(game_id, monkeypatch):
    monkeypatch.setattr(deals, "stored", lambda *a, **k: None)
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
    good = stored("klondike", {5: ["T9>F9"]})
    monkeypatch.setattr(deals, "stored", lambda *a, **k: good)
    player = DemoPlayer("klondike", rnd=random.Random(1))
    assert not player.replays
    assert play_out(player).history


def test_max_moves_ends_the_show(monkeypatch):
    monkeypatch.setattr(deals, "stored", lambda *a, **k: None)
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
    assert player.skipped + player.played == len(player.line)
    assert player.played <= attract.MAX_SHOWN


def test_the_demo_picks_the_shortest_of_a_few_drawn_deals(monkeypatch):
    lst = stored("clock", {s: ["x"] * k for s, k in ((26, 0), (5, 9), (7, 3))})
    monkeypatch.setattr(deals, "stored", lambda *a, **k: lst)
    monkeypatch.setattr("kiosk.solving.attract.CANDIDATES", 50)
    assert DemoPlayer("clock", rnd=random.Random(3)).seed() == 26


def test_the_pace_spreads_a_long_line_and_keeps_a_short_one_calm():
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
    short = stored("clock", {26: [first]})
    monkeypatch.setattr(deals, "stored", lambda *a, **k: short)
    monkeypatch.setattr(deals, "line", lambda game, moves: [first])
    assert not DemoPlayer("clock", rnd=random.Random(1)).replays


@pytest.mark.parametrize("game_id", ["snake", "shamrocks"])
def test_no_demo_holds_the_lobby_longer_than_a_show(game_id):
    """Snake's stored lines are 665 to 64 275 moves: played whole at the fastest pace, the
    soak's Snake demo (b4f6e46) was still on at the end of the run, 18 minutes later. Every
    demo now shows at most MAX_SHOWN moves and still ends in the win."""
    if deals.stored(game_id) is None:
        pytest.skip(f"no deal list for {game_id}")
    for n in range(2):
        player = DemoPlayer(game_id, rnd=random.Random(n))
        assert player.replays
        game = play_out(player)
        assert game.won
        assert player.played <= attract.MAX_SHOWN
        assert player.played * player.pace() <= attract.SHOW_SECONDS + attract.SLOWEST


def test_a_long_line_is_shown_from_its_end(monkeypatch):
    """A list whose every line is longer than a show: the deal opens with all but the last
    MAX_SHOWN moves made, and the demo plays those to the win."""
    monkeypatch.setattr(attract, "MAX_SHOWN", 5)
    player = DemoPlayer("clock", rnd=random.Random(1))  # the shipped list
    assert player.replays and len(player.line) > 5
    assert player.skipped == len(player.line) - 5
    table = games.new("clock", player.seed())
    player.fast_forward(table)
    assert len(table.history) == player.skipped
    assert play_out(player).won and player.played == 5
    assert player.pace() == attract.SLOWEST  # 5 moves shown: the calm pace


def test_the_demo_reads_the_list_as_the_table_keeps_it(monkeypatch):
    """Attract mode reads the file's strings (deals.stored), never the parsed list."""
    monkeypatch.setattr(deals, "load", lambda *a, **k: pytest.fail("deals.load"))
    if deals.stored("clock") is None:
        pytest.skip("no deal list for clock")
    assert DemoPlayer("clock", rnd=random.Random(2)).replays
