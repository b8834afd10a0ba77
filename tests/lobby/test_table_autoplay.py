"""The controller owns autoplay's timing (kiosk.table.controller, no Kivy): a fake timer
stands in for Kivy's clock, so each step is seen one at a time."""

from __future__ import annotations

from games import Move
from kiosk.table.controller import TableController
from tests.conftest import arrange


class FakeTimer:
    """Records what is due; ``fire()`` runs the oldest call, as the clock would."""

    def __init__(self) -> None:
        self.due: list[tuple[float, object]] = []

    def __call__(self, delay, fn):
        entry = (delay, fn)
        self.due.append(entry)
        return lambda: self.due.remove(entry) if entry in self.due else None

    def fire(self) -> None:
        _delay, fn = self.due.pop(0)
        fn()


def two_aces_table():
    ctl = TableController("klondike", 4711)
    g = arrange(ctl.game, {"T1": "AH", "T2": "AS", "T3": "KD", "S": "2C"})
    ctl.set_game(g)
    return ctl, g


def test_autoplay_follows_a_players_move_one_step_at_a_time():
    ctl, g = two_aces_table()
    timer = FakeTimer()
    ctl.drive_autoplay(timer, 0.3)
    assert ctl.play(Move("deal"), "tap") is None
    ctl.autoplay_soon()
    assert [d for d, _ in timer.due] == [0.3]  # after the card's flight
    timer.fire()
    assert sum(len(g.cards[i]) for i in g.roles["foundation"]) == 1
    assert [round(d, 2) for d, _ in timer.due] == [0.21]  # the next step comes quicker
    timer.fire()
    assert sum(len(g.cards[i]) for i in g.roles["foundation"]) == 2
    timer.fire()  # nothing safe left: no further step
    assert timer.due == []
    assert ctl.undo_groups == [3]  # the player's move and its two autoplay moves: one Undo


def test_a_held_table_waits_or_stops():
    ctl, g = two_aces_table()
    timer = FakeTimer()
    answer = ["wait"]
    ctl.drive_autoplay(timer, 0.3, hold=lambda: answer[0])
    ctl.autoplay_soon()
    timer.fire()
    assert not ctl.game.history and len(timer.due) == 1  # a finger drags: try again later
    answer[0] = "stop"
    timer.fire()
    assert not ctl.game.history and timer.due == []  # the table is not shown


def test_undo_and_leaving_cancel_a_due_step():
    ctl, g = two_aces_table()
    timer = FakeTimer()
    ctl.drive_autoplay(timer, 0.3)
    ctl.autoplay_soon()
    ctl.undo("button")  # nothing to undo, and the due step is gone
    assert timer.due == []
    ctl.autoplay_soon()
    ctl.leave("idle")
    assert timer.due == []


def test_no_timer_no_autoplay_and_autoplay_off_schedules_nothing():
    ctl, _g = two_aces_table()
    ctl.autoplay_soon()  # no table drives it: nothing happens
    assert not ctl.game.history
    timer = FakeTimer()
    ctl.autoplay = False
    ctl.drive_autoplay(timer, 0.3)
    ctl.autoplay_soon()
    assert timer.due == []
