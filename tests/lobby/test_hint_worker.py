"""kiosk.solving.hints: the solver's worker process and the book of known positions.

The worker is a real child process (spawn), so these tests start one per module; waits
are generous loops, never assertions on speed.
"""

from __future__ import annotations

import time

import pytest

import games
from games import solver
from kiosk.solving.hints import LOST, UNKNOWN, WON, HintBook, HintWorker, Reply, hint_move
from kiosk.solving.hintworker import answer
from tests.conftest import arrange

#: a Klondike end game: two spades left to play
ENDGAME = {**{f"F{i + 1}": " ".join(f"{r}{s}" for r in "A23456789TJQK")
              for i, s in enumerate("CDH")},
           "F4": " ".join(f"{r}S" for r in "A23456789TJ"), "T1": "KS", "T2": "QS"}
#: a Klondike position with a handful of cards and no aces: no line can ever win
HOPELESS = {"T1": "2H", "T2": "5C", "T3": "KD", "T4": "4C", "T5": "7S", "T6": "9H",
            "T7": "JC", "W": "QC"}


def klondike(piles: dict[str, str]) -> games.Game:
    return arrange(games.new("klondike", 4711), piles)


def wait_for(worker: HintWorker, ids: set[int], seconds: float = 60.0) -> dict[int, Reply]:
    got: dict[int, Reply] = {}
    end = time.monotonic() + seconds
    while time.monotonic() < end and not ids <= set(got):
        for r in worker.poll():
            got[r.id] = r
        time.sleep(0.02)
    return got


@pytest.fixture(scope="module")
def worker():
    w = HintWorker()
    yield w
    w.stop()
    assert not w.alive


def test_the_worker_is_a_separate_process_without_kivy(worker):
    import os

    pong = worker.ping()
    assert worker.alive and worker.pid != os.getpid()
    modules = pong["modules"]
    assert "games" in modules and "kiosk.solving.hintworker" in modules
    assert not [m for m in modules if m.startswith("kivy")]
    assert not [m for m in modules if m.startswith("kiosk.")
                and m not in ("kiosk.solving", "kiosk.solving.hintworker")]


@pytest.mark.parametrize("seed", [3, 7])
def test_a_dealt_position_gets_a_legal_first_move_of_a_win(worker, seed):
    game = games.new("golf", seed)
    for move in game.legal_moves()[:1]:  # a move in: the save carries a history
        game.play(move)
    rid = worker.request(game, seconds=30)
    reply = wait_for(worker, {rid})[rid]
    assert reply.key == game.key()
    if reply.result == LOST:  # a lost Golf deal: the game's own solver agrees
        assert solver.solve(game, max_nodes=2_000_000).result == LOST
        return
    assert reply.result == WON, reply
    first = hint_move(game, reply.moves[0])
    assert first is not None and game.why_illegal(first) is None
    assert solver.replay_wins(game, [game.parse_move(m) for m in reply.moves])
    assert reply.keys[0] == game.key() and len(reply.keys) == len(reply.moves) + 1


def test_a_constructed_position_is_solved_as_it_lies(worker):
    game = klondike(ENDGAME)
    rid = worker.request(game, seconds=30)
    reply = wait_for(worker, {rid})[rid]
    assert reply.result == WON and reply.error is None
    assert reply.moves[0] in ("T2>F4", "T1>F4") and hint_move(game, reply.moves[0])
    assert solver.replay_wins(game, [game.parse_move(m) for m in reply.moves])


def test_a_lost_position_is_reported_lost(worker):
    game = klondike(HOPELESS)
    rid = worker.request(game, seconds=30)
    reply = wait_for(worker, {rid})[rid]
    assert reply.result == LOST and reply.moves == [] and reply.key == game.key()


def test_a_newer_request_stops_the_older_search(worker):
    """A search that would take two minutes gives way at once to the next request; both
    replies come back marked with their ids and positions, so the caller drops the stale
    one. (If the first search were not interrupted, the second answer would wait for it and
    this test would run out of time.)"""
    hard = games.new("napoleons_tomb", 1)
    easy = klondike(ENDGAME)
    old = worker.request(hard, seconds=120)
    new = worker.request(easy, seconds=30)
    got = wait_for(worker, {old, new}, seconds=60)
    assert new in got and got[new].result == WON and got[new].key == easy.key()
    assert old in got and got[old].key == hard.key() and got[old].key != easy.key()


def test_a_cancelled_request_gets_no_reply(worker):
    rid = worker.request(klondike(ENDGAME), seconds=30)
    worker.cancel()
    assert not worker.busy
    follow = worker.request(klondike(HOPELESS), seconds=30)
    got = wait_for(worker, {follow})
    assert rid not in got and got[follow].result == LOST


def test_a_dead_worker_gives_no_hint_and_is_replaced():
    w = HintWorker()
    try:
        w.start()
        first_pid = w.pid
        rid = w.request(games.new("napoleons_tomb", 1), seconds=120)
        w._proc.kill()  # the worker dies mid-search (out of memory, a bug ...)
        got = wait_for(w, {rid}, seconds=30)
        assert got[rid].result == UNKNOWN and got[rid].error
        assert not w.busy
        rid = w.request(klondike(ENDGAME), seconds=30)  # a new worker takes over
        got = wait_for(w, {rid})
        assert got[rid].result == WON and w.pid != first_pid and w.restarts == 1
    finally:
        w.stop()


def test_a_crash_inside_a_request_and_a_hung_worker_are_survived(monkeypatch):
    w = HintWorker(grace=0.5)
    try:
        game = klondike(ENDGAME)
        rid = w.request(game, seconds=30)
        got = wait_for(w, {rid})
        assert got[rid].result == WON
        # a request the child cannot rebuild: an error reply, the child lives on
        msg_game = klondike(ENDGAME)
        monkeypatch.setattr(msg_game, "key", lambda: b"not this position")
        rid = w.request(msg_game, seconds=30)
        got = wait_for(w, {rid})
        assert got[rid].result == UNKNOWN and "does not rebuild" in got[rid].error
        assert w.alive
        # a child that stops answering (here: stopped by a signal) is replaced
        import os
        import signal

        os.kill(w.pid, signal.SIGSTOP)
        rid = w.request(game, seconds=0.2)
        got = wait_for(w, {rid}, seconds=30)
        assert got[rid].result == UNKNOWN
        rid = w.request(game, seconds=30)
        assert wait_for(w, {rid})[rid].result == WON
    finally:
        w.stop()


def test_the_book_knows_every_position_of_a_line_and_lost_ones():
    game = klondike(ENDGAME)
    line = ["T2>F4", "T1>F4"]
    book = HintBook()
    assert book.add_known_line(game, line)
    assert book.next_move(game.key()) == "T2>F4" and book.verdict(game.key()) == WON
    game.play("T2>F4")
    assert book.next_move(game.key()) == "T1>F4"
    assert not book.add_known_line(klondike(ENDGAME), ["T1>F4"])  # illegal: not a line
    lost = klondike(HOPELESS)
    book.add(Reply(1, LOST, key=lost.key()))
    assert book.verdict(lost.key()) == LOST and book.next_move(lost.key()) is None
    assert hint_move(lost, "T1>F4") is None and hint_move(lost, None) is None


def test_a_worker_that_cannot_start_gives_no_hint_and_no_log_flood(monkeypatch, caplog):
    now = [100.0]
    w = HintWorker(clock=lambda: now[0])

    def broken() -> None:
        raise OSError("no processes left")

    monkeypatch.setattr(w, "start", broken)
    game = klondike(ENDGAME)
    first = w.request(game, seconds=1)
    second = w.request(game, seconds=1)
    got = {r.id: r for r in w.poll()}
    assert got[first].result == UNKNOWN and got[second].result == UNKNOWN
    assert sum("cannot send" in r.message for r in caplog.records) == 1
    now[0] += 61
    w.request(game, seconds=1)                      # tried again after the back-off
    assert sum("cannot send" in r.message for r in caplog.records) == 2


# ---------------------------------------------------------------- no win found in time
def _first_moves(game: games.Game) -> list[games.Move]:
    """The engine moves the search tries first, in its order (a compound by its first)."""
    from games.search import Compound, searchable

    g = searchable(game)
    safe = g.solver_autoplay()
    return [safe] if safe is not None else [
        m.moves[0] if type(m) is Compound else m for m in g.solver_moves(True)]


def test_no_win_in_time_gives_the_searchs_best_move_as_a_suggestion_not_a_line():
    game = games.new("accordion", 1)
    out = answer(game, should_stop=lambda: True)      # the budget is gone at once
    assert out["result"] == UNKNOWN and out["moves"] == [] and out["keys"] == []
    move = hint_move(game, out["suggestion"])
    assert move is not None and move == _first_moves(game)[0]
    # a proved answer carries no suggestion
    assert answer(klondike(ENDGAME), should_stop=lambda: False)["suggestion"] is None
    assert answer(klondike(HOPELESS), should_stop=lambda: False)["suggestion"] is None


def test_a_suggestion_leaves_out_a_move_into_a_dead_end(monkeypatch):
    from games.search.accordion import AccordionSearch

    game = games.new("accordion", 1)
    first, second = _first_moves(game)[:2]
    monkeypatch.setattr(AccordionSearch, "solver_hopeless",
                        lambda self: bool(self.history) and self.history[-1] == first)
    assert answer(game, should_stop=lambda: True)["suggestion"] == game.notation(second)
    # every move a dead end: nothing to suggest ("No hint found")
    monkeypatch.setattr(AccordionSearch, "solver_hopeless", lambda self: bool(self.history))
    assert answer(game, should_stop=lambda: True)["suggestion"] is None


def test_the_worker_sends_the_suggestion_and_the_book_does_not_keep_it(worker):
    game = games.new("napoleons_tomb", 1)                 # far beyond the budget
    rid = worker.request(game, seconds=0.0)
    reply = wait_for(worker, {rid})[rid]
    assert reply.result == UNKNOWN and reply.error is None and reply.key == game.key()
    move = hint_move(game, reply.suggestion)
    assert move is not None and game.why_illegal(move) is None
    book = HintBook()
    book.add(reply)
    assert book.verdict(game.key()) is None and book.next_move(game.key()) is None


class FakeClock:
    """The worker's clock, moved by hand: idle times pass without waiting for them."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_the_worker_starts_on_first_use_and_ends_when_unused():
    clock = FakeClock()
    w = HintWorker(clock=clock, idle_stop=300)
    try:
        assert not w.alive and w.pid is None                   # nothing before the first use
        assert w.retire_if_idle()                              # nothing to end either
        rid = w.request(klondike(ENDGAME), seconds=30)
        assert w.alive
        first = w.pid
        got = wait_for(w, {rid})
        assert got[rid].result == WON
        clock.now += 299
        assert not w.retire_if_idle() and w.alive              # used 299 s ago: kept
        assert w.idle_left() == pytest.approx(1)
        clock.now += 2
        assert w.retire_if_idle() and not w.alive              # unused for 301 s: ended
        rid = w.request(klondike(HOPELESS), seconds=30)        # and the next use starts one
        got = wait_for(w, {rid})
        assert got[rid].result == LOST and w.alive and w.pid != first
        assert w.restarts == 0                                 # an idle end is no failure
    finally:
        w.stop()


def test_a_busy_worker_is_not_ended_for_idleness():
    clock = FakeClock()
    w = HintWorker(clock=clock, idle_stop=1)
    try:
        rid = w.request(games.new("napoleons_tomb", 1), seconds=600)
        clock.now += 5
        assert not w.retire_if_idle() and w.alive and w.busy
        w.cancel()
        assert w.retire_if_idle() and not w.alive
        assert rid not in {r.id for r in w.poll()}
    finally:
        w.stop()


def test_a_search_stores_a_bounded_number_of_positions(worker):
    """A check with a long budget on a deal far beyond it stops at MAX_NODES positions (about
    100 bytes each), not at the budget (600 s here), so one search cannot fill a 512 MB
    board; it answers with the suggestion as for any search out of budget."""
    from kiosk.solving.hints import MAX_NODES

    assert MAX_NODES <= 1_000_000
    game = games.new("napoleons_tomb", 1)
    rid = worker.request(game, seconds=600)
    reply = wait_for(worker, {rid}, seconds=400)[rid]
    assert reply.result == UNKNOWN and reply.error is None
    assert MAX_NODES <= reply.nodes <= MAX_NODES + 1_000 and reply.seconds < 600
    assert reply.suggestion


def test_a_worker_past_its_memory_bound_leaves_and_nothing_is_lost():
    """A child whose memory is past the bound after an answer leaves (status 0) and gives
    its memory back; a request it had not read when it left goes to a new child, and the
    next request starts one: no "No hint found", no restart counted as a failure."""
    from kiosk.solving.hints import request_message

    w = HintWorker(rss_limit=1)          # every answer leaves the child "too big"
    try:
        first = w.request(klondike(ENDGAME), seconds=30)
        w._proc.join(60)                 # it answered, said it leaves, and is gone
        assert w._proc.exitcode == 0
        # a request that crossed the child's "leaving" (sent, never read by it)
        late = klondike(HOPELESS)
        w._pending[99] = (late.key(), time.monotonic() + 60)
        w._sent[99] = request_message(late, 99, 30)
        got = wait_for(w, {first, 99})
        assert got[first].result == WON and got[99].result == LOST
        assert got[first].error is None and got[99].error is None
        end = time.monotonic() + 30
        while w.alive and time.monotonic() < end:   # the second child leaves too
            w.poll()
            time.sleep(0.05)
        assert not w.alive and w.restarts == 0
        rid = w.request(klondike(ENDGAME), seconds=30)         # the next use: a new child
        assert wait_for(w, {rid})[rid].result == WON and w.restarts == 0
    finally:
        w.stop()
