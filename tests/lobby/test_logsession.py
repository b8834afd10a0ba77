"""kiosk.records.logsession with the real table controller (kiosk.table.controller, no Kivy)."""

from __future__ import annotations

import games
from kiosk.records.logsession import LogSession, TableEvents, cards_left, source_name
from kiosk.records.playlog import PlayLog
from kiosk.table.controller import TableController
from tests.conftest import arrange

from .conftest import rows

RANKS = "A 2 3 4 5 6 7 8 9 T J Q K".split()


def setup(db_path, clock, seed=4711):
    log = PlayLog(db_path, kiosk="lobby", clock=clock, min_free_mb=0)
    ctl = TableController("klondike", seed, autoplay=False, clock=clock.mono)
    return log, ctl, LogSession(log, ctl)


def first_legal(ctl: TableController, source: str = "tap"):
    move = ctl.legal_moves()[0]
    assert ctl.play(move, source) is None
    return move


def almost_won() -> games.Game:
    g = games.new("klondike", 1)
    return arrange(g, {"F1": " ".join(r + "C" for r in RANKS),
                       "F2": " ".join(r + "D" for r in RANKS),
                       "F3": " ".join(r + "H" for r in RANKS),
                       "F4": " ".join(r + "S" for r in RANKS[:-1]), "T1": "KS"})


def test_the_controller_satisfies_the_protocol():
    assert isinstance(TableController("klondike", 1), TableEvents)


def test_moves_undos_and_counters_of_a_play(db_path, clock):
    log, ctl, session = setup(db_path, clock)
    session.touch()                            # before the first move: carried over
    clock.advance(5)
    m1 = first_legal(ctl, "tap")
    clock.advance(2)
    session.button("undo")
    assert ctl.undo("gpio")
    session.hint()
    m2 = first_legal(ctl, "key")
    ctl.leave()
    (row,) = rows(db_path, "SELECT game, seed, options, result, moves, undos, hints, touches,"
                           " button_presses, duration, started, score, cards_left FROM plays")
    g = ctl.game
    assert row == ("klondike", 4711, '{"draw": 1, "redeals": 0, "variant": "standard"}',
                   "abandoned", 2, 1, 1, 1, 1, 7.0, "2025-03-01T12:00:00.000Z", g.score,
                   cards_left(g))
    assert rows(db_path, "SELECT seq, move, t, source FROM moves") == [
        (1, g.notation(m1), 5.0, "touch"), (2, "undo", 7.0, "button"),
        (3, g.notation(m2), 7.0, "key")]


def test_a_won_game(db_path, clock):
    log, ctl, session = setup(db_path, clock)
    ctl.set_game(almost_won())                 # on_change("set_game"): a new deal for the log
    assert ctl.play(ctl.game.parse_move("T1>F4"), "drag") is None
    assert ctl.game.won
    assert rows(db_path, "SELECT seed, result, moves, score, cards_left FROM plays") == [
        (1, "won", 1, 52, 0)]
    assert log.today_wins(now=clock.wall()) == 1


def test_undo_of_a_move_with_its_autoplay_moves_is_one_row(db_path, clock):
    log = PlayLog(db_path, clock=clock, min_free_mb=0)
    ctl = TableController("klondike", 1, autoplay=True, clock=clock.mono)
    game = arrange(games.new("klondike", 1), {"T1": "2C", "T2": "AC", "T3": "KH"})
    ctl.set_game(game)
    session = LogSession(log, ctl)
    assert ctl.play(game.parse_move("T2>F1"), "tap") is None
    assert ctl.autoplay_step() is not None     # 2C follows by itself
    assert ctl.undo("button")                  # takes back both
    session.close()
    assert rows(db_path, "SELECT move, source FROM moves ORDER BY seq") == [
        ("T2>F1", "touch"), ("T1>F1", "auto"), ("undo:2", "touch")]
    assert rows(db_path, "SELECT result, moves, undos FROM plays") == [("interrupted", 2, 1)]


def test_an_untouched_deal_is_not_a_play(db_path, clock):
    log, ctl, session = setup(db_path, clock)
    session.touch()
    ctl.new_deal()
    ctl.leave()
    assert rows(db_path, "SELECT count(*) FROM plays") == [(0,)]


def test_new_deal_abandons_and_over_means_lost_unless_undone(db_path, clock):
    log, ctl, session = setup(db_path, clock, seed=1)
    first_legal(ctl)
    ctl.new_deal(seed=2)                       # abandoned
    first_legal(ctl)
    session.on_over(ctl.game)                  # as the controller says when stuck
    ctl.undo()                                 # revived: not lost after all
    ctl.leave()                                # abandoned
    ctl.new_deal(seed=3)
    first_legal(ctl)
    session.on_over(ctl.game)
    ctl.new_deal(seed=4)                       # stuck, then dealt again: lost
    assert rows(db_path, "SELECT seed, result FROM plays ORDER BY id") == [
        (1, "abandoned"), (2, "abandoned"), (3, "lost")]


def test_a_new_controller_ends_the_play_of_the_old_one(db_path, clock):
    log, ctl, session = setup(db_path, clock)
    first_legal(ctl)
    other = TableController("klondike", 99, autoplay=False)
    session.attach(other)                      # the app opened another game
    first_legal(other)
    first_legal(ctl)                           # the old controller is no longer heard
    session.close()
    assert rows(db_path, "SELECT seed, result, moves FROM plays ORDER BY id") == [
        (4711, "abandoned", 1), (99, "interrupted", 1)]


def test_demo_plays_are_flagged(db_path, clock):
    log, ctl, session = setup(db_path, clock)
    ctl.demo = True
    ctl.new_deal(seed=9)
    first_legal(ctl, "auto")
    ctl.leave()
    assert rows(db_path, "SELECT demo, result FROM plays") == [(1, "abandoned")]
    assert rows(db_path, "SELECT source FROM moves") == [("demo",)]


def test_close_unbinds(db_path, clock):
    log, ctl, session = setup(db_path, clock)
    first_legal(ctl)
    session.close()
    assert rows(db_path, "SELECT result FROM plays") == [("interrupted",)]
    first_legal(ctl)
    assert rows(db_path, "SELECT count(*) FROM moves") == [(1,)]


def test_sources_are_normalised():
    assert [source_name(s) for s in ("tap", "drag", "button", "gpio", "key", "auto", "demo",
                                     "telepathy")] == [
        "touch", "touch", "touch", "button", "key", "auto", "demo", "touch"]


def test_a_broken_event_never_raises_into_the_ui(db_path, clock):
    log, ctl, session = setup(db_path, clock)
    session.on_move(object(), "tap")           # not a Move, not text: logged, ignored
    session.on_won(1, 2, 3)                    # extra arguments are fine
    session.on_undo(None)
    assert rows(db_path, "SELECT count(*) FROM plays") == [(0,)]


def test_a_kivy_style_dispatcher_without_optional_events(db_path, clock):
    class Minimal:
        def __init__(self):
            self.game = games.new("klondike", 3)
            self.handlers = {}

        def bind(self, **kw):
            for k in kw:
                if k not in ("on_new_deal", "on_move", "on_undo", "on_won", "on_over",
                             "on_leave"):
                    raise ValueError(k)
            self.handlers.update(kw)

        def unbind(self, **kw):
            for k in kw:
                self.handlers.pop(k)

    log = PlayLog(db_path, clock=clock, min_free_mb=0)
    ctl = Minimal()
    session = LogSession(log, ctl)
    assert set(ctl.handlers) == {"on_new_deal", "on_move", "on_undo", "on_won", "on_over",
                                 "on_leave"}
    ctl.handlers["on_move"]("deal", "tap")
    session.close()
    assert ctl.handlers == {}
    assert rows(db_path, "SELECT move FROM moves") == [("deal",)]
