"""kiosk.logsession: the controller's events become plays and moves in the log.

The controller here is a stub that dispatches the way a Kivy EventDispatcher does (every
handler gets the controller first), with a real game from the engine.
"""

from __future__ import annotations

import games
from kiosk.logsession import EVENTS, LogSession, TableEvents, cards_left
from kiosk.playlog import PlayLog

from .conftest import rows


class StubController:
    def __init__(self) -> None:
        self.handlers: dict[str, list] = {}
        self.game = None
        self.demo = False

    def bind(self, **kw):
        for name, fn in kw.items():
            self.handlers.setdefault(name, []).append(fn)

    def unbind(self, **kw):
        for name, fn in kw.items():
            self.handlers[name].remove(fn)

    def dispatch(self, name, *args):
        for fn in list(self.handlers.get(name, ())):
            fn(self, *args)

    # what the UI does
    def deal(self, seed, demo=False):
        self.game, self.demo = games.new("klondike", seed), demo
        self.dispatch("on_new_deal", self.game)

    def play_first_legal(self, source="touch"):
        move = self.game.legal_moves()[0]
        self.game.play(move)
        self.dispatch("on_move", move, source)
        return move


def setup(db_path, clock):
    log = PlayLog(db_path, kiosk="lobby", clock=clock, min_free_mb=0)
    ctrl = StubController()
    return log, ctrl, LogSession(log, ctrl)


def test_the_stub_matches_the_protocol():
    assert isinstance(StubController(), TableEvents)


def test_a_game_played_and_won(db_path, clock):
    log, ctrl, session = setup(db_path, clock)
    ctrl.dispatch("on_touch")               # before any deal: nothing to count on
    ctrl.deal(4711)
    clock.advance(5)
    ctrl.dispatch("on_touch")
    ctrl.dispatch("on_touch")
    m1 = ctrl.play_first_legal()
    clock.advance(2)
    ctrl.dispatch("on_button", "undo")
    ctrl.game.undo()
    ctrl.dispatch("on_undo", "button")
    ctrl.dispatch("on_hint")
    ctrl.play_first_legal("key")
    ctrl.dispatch("on_move", "T1>F1", "auto")  # notation text works too
    clock.advance(3)
    ctrl.dispatch("on_won")
    ctrl.dispatch("on_over")                   # a won game is also over: no change
    ctrl.dispatch("on_leave")
    (row,) = rows(db_path, "SELECT game, seed, options, result, moves, undos, hints, touches,"
                           " button_presses, duration, started, score, cards_left FROM plays")
    g = ctrl.game
    assert row == ("klondike", 4711, '{"draw": 1, "redeals": 0, "variant": "standard"}', "won",
                   3, 1, 1, 2, 1, 10.0, "2025-03-01T12:00:00.000Z", g.score, cards_left(g))
    assert rows(db_path, "SELECT seq, move, t, source FROM moves") == [
        (1, g.notation(m1), 5.0, "touch"), (2, "undo", 7.0, "button"),
        (3, g.notation(m1), 7.0, "key"), (4, "T1>F1", 7.0, "auto")]


def test_an_untouched_deal_is_not_a_play(db_path, clock):
    log, ctrl, session = setup(db_path, clock)
    ctrl.deal(1)
    ctrl.dispatch("on_touch")
    ctrl.deal(2)
    ctrl.dispatch("on_leave")
    assert rows(db_path, "SELECT count(*) FROM plays") == [(0,)]


def test_new_deal_abandons_and_over_means_lost_unless_undone(db_path, clock):
    log, ctrl, session = setup(db_path, clock)
    ctrl.deal(1)
    ctrl.play_first_legal()
    ctrl.deal(2)                               # abandoned
    ctrl.play_first_legal()
    ctrl.dispatch("on_over")
    ctrl.dispatch("on_undo")                   # revived: not lost after all
    ctrl.dispatch("on_leave")                  # abandoned
    ctrl.deal(3)
    ctrl.play_first_legal()
    ctrl.dispatch("on_over")
    ctrl.deal(4)                               # stuck, then dealt again: lost
    assert rows(db_path, "SELECT seed, result FROM plays ORDER BY id") == [
        (1, "abandoned"), (2, "abandoned"), (3, "lost")]


def test_demo_plays_are_flagged(db_path, clock):
    log, ctrl, session = setup(db_path, clock)
    ctrl.deal(9, demo=True)
    ctrl.play_first_legal("demo")
    ctrl.dispatch("on_leave")
    assert rows(db_path, "SELECT demo, result FROM plays") == [(1, "abandoned")]
    assert rows(db_path, "SELECT source FROM moves") == [("demo",)]


def test_close_marks_the_open_play_interrupted_and_unbinds(db_path, clock):
    log, ctrl, session = setup(db_path, clock)
    ctrl.deal(5)
    ctrl.play_first_legal()
    session.close()
    assert rows(db_path, "SELECT result FROM plays") == [("interrupted",)]
    assert all(not fns for fns in ctrl.handlers.values())
    assert set(ctrl.handlers) == set(EVENTS)


def test_attach_to_a_table_that_already_has_a_game(db_path, clock):
    log = PlayLog(db_path, clock=clock, min_free_mb=0)
    ctrl = StubController()
    ctrl.game = games.new("klondike", 77)
    session = LogSession(log, ctrl)
    ctrl.play_first_legal()
    session.close("abandoned")
    assert rows(db_path, "SELECT seed, result FROM plays") == [(77, "abandoned")]


def test_a_broken_event_never_raises_into_the_ui(db_path, clock):
    log, ctrl, session = setup(db_path, clock)
    ctrl.dispatch("on_move", object(), "touch")   # before a deal, with a strange move
    ctrl.deal(1)
    ctrl.dispatch("on_move", object(), "touch")   # not a Move, not text: logged, ignored
    ctrl.dispatch("on_won", 1, 2, 3)              # extra arguments are fine
    assert rows(db_path, "SELECT count(*) FROM plays") == [(0,)]
