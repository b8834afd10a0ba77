"""A slow player is asked "Still playing?" before the table gives up their game (WCAG 2.2.1):
the controller's idle deadline with a warning, on a fake clock and a fake timer (no Kivy)."""

from __future__ import annotations

from kiosk.records.logsession import LogSession
from kiosk.records.playlog import PlayLog
from kiosk.table.controller import TableController

from .conftest import rows
from .test_table_autoplay import FakeTimer


def watched(db_path, clock):
    log = PlayLog(db_path, kiosk="lobby", clock=clock, min_free_mb=0)
    ctl = TableController("klondike", 4711, autoplay=False, clock=clock.mono)
    ctl.keep_log(LogSession(log))
    assert ctl.play(ctl.legal_moves()[0], "tap") is None
    warnings: list[float] = []
    idle: list[float] = []
    ctl.bind(on_idle_warning=warnings.append, on_idle=idle.append)
    return ctl, warnings, idle


def test_the_table_warns_before_it_gives_the_game_up(db_path, clock):
    ctl, warnings, idle = watched(db_path, clock)
    timer = FakeTimer()
    ctl.watch_idle(210, timer, warn=30)
    assert [d for d, _ in timer.due] == [180]          # the question comes first
    clock.advance(180)
    timer.fire()
    assert warnings == [30] and idle == []
    assert [d for d, _ in timer.due] == [30]           # then 30 s to answer it
    assert rows(db_path, "SELECT result FROM plays") == [(None,)]
    clock.advance(30)
    timer.fire()
    assert idle == [210] and warnings == [30]
    assert rows(db_path, "SELECT result FROM plays") == [("abandoned",)]


def test_a_touch_during_the_warning_keeps_the_game_and_warns_again_later(db_path, clock):
    ctl, warnings, idle = watched(db_path, clock)
    timer = FakeTimer()
    ctl.watch_idle(210, timer, warn=30)
    clock.advance(180)
    timer.fire()
    assert warnings == [30]
    clock.advance(25)                                  # 5 s before the end: a touch
    ctl.watch_idle(210, timer, warn=30)
    clock.advance(5)
    timer.fire()                                       # the old deadline: not left
    assert idle == [] and [d for d, _ in timer.due] == [175]
    clock.advance(175)
    timer.fire()                                       # asked again, 180 s after the touch
    assert warnings == [30, 30] and idle == []
    clock.advance(30)
    timer.fire()
    assert idle == [210]
    assert rows(db_path, "SELECT result, moves FROM plays") == [("abandoned", 1)]


def test_without_a_warning_the_deadline_is_as_before(db_path, clock):
    ctl, warnings, idle = watched(db_path, clock)
    timer = FakeTimer()
    ctl.watch_idle(60, timer)
    clock.advance(60)
    timer.fire()
    assert warnings == [] and idle == [60]
