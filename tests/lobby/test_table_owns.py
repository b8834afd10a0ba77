"""The table's controller owns its log session and its idle deadline (kiosk.table.controller,
no Kivy): a fake clock and a fake timer stand in for Kivy's, a real SQLite file for the log."""

from __future__ import annotations

import games
from kiosk.records.logsession import LogSession
from kiosk.records.playlog import PlayLog
from kiosk.table.controller import TableController
from tests.conftest import arrange

from .conftest import rows
from .test_table_autoplay import FakeTimer

RANKS = "A 2 3 4 5 6 7 8 9 T J Q K".split()


def table(db_path, clock, seed=4711, demo=False):
    log = PlayLog(db_path, kiosk="lobby", clock=clock, min_free_mb=0)
    ctl = TableController("klondike", seed, autoplay=False, clock=clock.mono, demo=demo)
    session = LogSession(log)
    ctl.keep_log(session)
    return log, ctl, session


def first_legal(ctl):
    assert ctl.play(ctl.legal_moves()[0], "tap") is None


def test_the_controller_feeds_its_log_touches_buttons_and_hints_included(db_path, clock):
    _log, ctl, session = table(db_path, clock)
    assert ctl.log_session is session and session.controller is ctl
    ctl.touched()                      # before the first move: carried into the play
    ctl.pressed("undo")
    clock.advance(3)
    first_legal(ctl)
    ctl.hint_shown()
    ctl.touched()
    ctl.new_deal(99, "button")         # the old play ends, a new deal waits for a move
    assert rows(db_path, "SELECT seed, result, moves, touches, button_presses, hints, duration"
                         " FROM plays") == [(4711, "abandoned", 1, 2, 1, 1, 3.0)]


def test_a_won_play_ends_won(db_path, clock):
    _log, ctl, _session = table(db_path, clock)
    g = arrange(games.new("klondike", 1), {"F1": " ".join(r + "C" for r in RANKS),
                                           "F2": " ".join(r + "D" for r in RANKS),
                                           "F3": " ".join(r + "H" for r in RANKS),
                                           "F4": " ".join(r + "S" for r in RANKS[:-1]),
                                           "T1": "KS"})
    ctl.set_game(g)
    assert ctl.play(g.parse_move("T1>F4"), "drag") is None
    assert rows(db_path, "SELECT seed, result, moves FROM plays") == [(1, "won", 1)]


def test_a_demo_table_declines_the_log(db_path, clock):
    _log, ctl, session = table(db_path, clock, demo=True)
    first_legal(ctl)
    ctl.leave("idle")
    assert ctl.log_session is None and session.controller is None
    assert rows(db_path, "SELECT count(*) FROM plays") == [(0,)]


def test_the_next_table_ends_the_play_of_the_one_before(db_path, clock):
    log, ctl, session = table(db_path, clock)
    first_legal(ctl)
    nxt = TableController("klondike", 5, autoplay=False, clock=clock.mono)
    nxt.keep_log(session)
    ctl.touched()                      # the old table no longer writes
    assert session.controller is nxt
    assert rows(db_path, "SELECT seed, result, touches FROM plays") == [(4711, "abandoned", 0)]


def test_the_controller_decides_when_the_table_was_left_alone(db_path, clock):
    _log, ctl, _session = table(db_path, clock)
    timer = FakeTimer()
    idle: list[float] = []
    ctl.bind(on_idle=idle.append)
    ctl.watch_idle(60, timer)
    first_legal(ctl)
    clock.advance(40)
    ctl.watch_idle(60, timer)          # input 40 s in: one due call stays pending
    assert [d for d, _ in timer.due] == [60]
    assert ctl.idle_left() == 60
    clock.advance(20)
    timer.fire()                       # 60 s after the first input, 20 s after the last
    assert idle == [] and [d for d, _ in timer.due] == [40]
    assert rows(db_path, "SELECT result FROM plays") == [(None,)]
    clock.advance(40)
    timer.fire()
    assert idle == [60] and timer.due == [] and ctl.idle_left() is None
    assert rows(db_path, "SELECT result, moves FROM plays") == [("abandoned", 1)]


def test_leaving_or_hiding_the_table_stops_its_idle_deadline(clock):
    ctl = TableController("klondike", 4711, autoplay=False, clock=clock.mono)
    timer = FakeTimer()
    ctl.watch_idle(30, timer)
    ctl.stop_idle()
    assert timer.due == [] and ctl.idle_left() is None
    ctl.watch_idle(30, timer)
    ctl.watch_idle(5, timer)           # a new timeout replaces the pending call
    assert [d for d, _ in timer.due] == [5]
    ctl.leave("button")
    assert timer.due == []


# ---------------------------------------------------------------------------- hints
def test_each_table_has_its_own_hint_state():
    from kiosk.table.hint_state import HintState

    a = TableController("klondike", 4711, autoplay=False)
    b = TableController("klondike", 4711, autoplay=False)
    assert isinstance(a.hints, HintState) and a.hints is not b.hints


def test_the_hint_state_follows_the_table_and_drops_a_stale_request():
    from kiosk.solving.hints import LOST, WON, Reply

    ctl = TableController("klondike", 4711, autoplay=False)
    state = ctl.hints
    no_lists = lambda _id, _opts: None  # noqa: E731 - no stored winning lines
    assert state.follow(ctl.game, "start", no_lists) is False
    assert state.ask(ctl.game) == ("search", None)
    state.checking(ctl.game, 1)
    state.searching(ctl.game, 2)      # the hint's search replaces the check of this position
    assert (state.check_req, state.hint_req) == (None, 2)
    start = ctl.game.key()
    move = ctl.legal_moves()[0]
    after = ctl.game.clone()
    after.play(move)
    win = Reply(2, WON, moves=[ctl.game.notation(move)], keys=[start, after.key()], key=start)
    assert state.answered(win) == "hint" and state.hint_req is None
    assert state.ask(ctl.game) == ("move", move)     # known now: no search
    assert state.hint_for(ctl.game, win) == move
    state.searching(ctl.game, 3)
    assert ctl.play(move, "tap") is None
    assert state.follow(ctl.game, "move", no_lists) is True   # its answer would be stale
    assert state.hint_req is None
    assert state.answered(Reply(3, WON, key=start)) == ""     # an old reply is not shown
    assert state.winnable_undos(ctl.game, ctl.undo_groups) == 1
    state.checking(ctl.game, 4)
    assert state.answered(Reply(4, LOST, key=ctl.game.key())) == "check"
    assert state.verdict_of(ctl.game) == LOST and state.ask(ctl.game) == ("lost", None)
    ctl.new_deal(99)
    state.follow(ctl.game, "new_deal", no_lists)      # a new deal, a new book
    assert state.keys == {0: ctl.game.key()} and state.verdict_of(ctl.game) == ""
