"""kiosk.records.playlog: the schema, the rows a play leaves, recovery of open plays, retention."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest

from kiosk.records import playlog
from kiosk.records.playlog import PlayLog

from .conftest import FakeClock, rows


def new_log(path, clock, **kw) -> PlayLog:
    kw.setdefault("min_free_mb", 0)
    return PlayLog(path, kiosk="lobby", app_version="9.9", clock=clock, **kw)


def test_file_settings_and_schema(db_path, clock):
    log = new_log(db_path, clock)
    assert log.status.ok and log.status.message == "The play log is working."
    assert rows(db_path, "PRAGMA journal_mode") == [("wal",)]
    assert rows(db_path, "PRAGMA auto_vacuum") == [(2,)]  # incremental
    assert rows(db_path, "SELECT max(version) FROM schema_version") == [(playlog.SCHEMA_VERSION,)]
    cols = {r[1]: r[2] for r in rows(db_path, "PRAGMA table_info(plays)")}
    assert cols["id"] == "INTEGER" and cols["seed"] == "INTEGER" and cols["options"] == "TEXT"
    assert cols["duration"] == "REAL" and cols["demo"] == "INTEGER"
    pk = [r[1] for r in rows(db_path, "PRAGMA table_info(moves)") if r[5]]
    assert pk == ["play_id", "seq"]
    # synchronous is per connection: check the log's own one
    assert log._db.conn.execute("PRAGMA synchronous").fetchone() == (2,)  # FULL
    log.close()


def test_a_play_leaves_one_row_and_its_moves(db_path, clock):
    log = new_log(db_path, clock)
    play = log.begin("klondike", 4711, {"draw": 3}, demo=False)
    clock.advance(2)
    log.move(play, "T7>T4", "touch")
    clock.advance(1.5)
    log.move(play, "deal", "button")
    log.undo(play, "button")
    log.move(play, "deal", "key")
    log.count(play, touches=12, buttons=3, hints=2)
    clock.advance(10)
    log.finish(play, "won", score=52, cards_left=0)
    (row,) = rows(db_path, "SELECT kiosk, game, options, seed, demo, started, ended, boot_id,"
                           " clock_synced, duration, result, moves, undos, hints, score,"
                           " cards_left, touches, button_presses, app_version, started_mono,"
                           " ended_mono FROM plays")
    assert row == ("lobby", "klondike", json.dumps({"draw": 3}), 4711, 0,
                   "2025-03-01T12:00:00.000Z", "2025-03-01T12:00:13.500Z", "boot-1", 1, 13.5,
                   "won", 3, 1, 2, 52, 0, 12, 3, "9.9", 1000.0, 1013.5)
    assert rows(db_path, "SELECT seq, move, t, source FROM moves ORDER BY seq") == [
        (1, "T7>T4", 2.0, "touch"), (2, "deal", 3.5, "button"), (3, "undo", 3.5, "button"),
        (4, "deal", 3.5, "key")]
    assert play.id == 1 and play.result == "won"
    log.finish(play, "lost")  # twice: no-op
    log.move(play, "T1>T2")   # after the end: ignored
    assert rows(db_path, "SELECT result, moves FROM plays") == [("won", 3)]
    log.close()


def test_each_move_is_committed_before_move_returns(db_path, clock):
    log = new_log(db_path, clock)
    play = log.begin("klondike", 1)
    assert rows(db_path, "SELECT result FROM plays") == [(None,)]  # written at once
    for i in range(5):
        log.move(play, f"m{i}")
        # a second connection sees it: it is committed, not only in a transaction
        assert rows(db_path, "SELECT count(*) FROM moves") == [(i + 1,)]
    log.close()


def test_started_can_be_the_deal_time(db_path, clock):
    log = new_log(db_path, clock)
    dealt = clock.mono()
    clock.advance(30)
    play = log.begin("klondike", 2, t0=dealt)
    clock.advance(5)
    log.finish(play, "abandoned")
    assert rows(db_path, "SELECT started, duration, started_mono FROM plays") == [
        ("2025-03-01T12:00:00.000Z", 35.0, 1000.0)]


def test_open_plays_become_interrupted_with_their_moves(db_path, clock):
    log = new_log(db_path, clock)
    done = log.begin("klondike", 1)
    log.move(done, "a")
    log.finish(done, "lost")
    open_play = log.begin("klondike", 2)
    clock.advance(4)
    for m in ("a", "b", "c"):
        log.move(open_play, m)
    log.undo(open_play)
    log.count(open_play, touches=7)
    clock.advance(1)
    log.move(open_play, "d")    # the touches were written with this move
    # no close(): the process dies here
    clock.reboot("boot-2")
    again = new_log(db_path, clock)
    assert again.interrupted_on_open == 1
    assert rows(db_path, "SELECT id, result, moves, undos, duration, touches FROM plays") == [
        (1, "lost", 1, 0, 0.0, 0), (2, "interrupted", 4, 1, 5.0, 7)]
    # a second start finds nothing to do
    assert new_log(db_path, clock).interrupted_on_open == 0


def test_a_reader_never_marks_plays_interrupted(db_path, clock):
    log = new_log(db_path, clock)
    play = log.begin("klondike", 1)
    new_log(db_path, clock, recover=False)
    assert rows(db_path, "SELECT result FROM plays") == [(None,)]
    log.finish(play, "won")


def test_migrations_run_once_and_a_newer_file_is_refused(db_path, clock):
    new_log(db_path, clock).close()
    new_log(db_path, clock).close()
    assert rows(db_path, "SELECT count(*) FROM schema_version") == [(len(playlog.MIGRATIONS),)]
    import sqlite3
    conn = sqlite3.connect(db_path)
    conn.execute("INSERT INTO schema_version VALUES (99, 'future')")
    conn.commit()
    conn.close()
    log = new_log(db_path, clock)
    assert not log.status.ok and "newer kiosk version" in log.status.message
    play = log.begin("klondike", 1)  # still no exception
    log.move(play, "a")
    assert log.status.pending_plays == 1


def test_unknown_result_and_source_are_normalised(db_path, clock):
    log = new_log(db_path, clock)
    play = log.begin("klondike", 1)
    log.move(play, "a", "telepathy")
    log.finish(play, "exploded")
    assert rows(db_path, "SELECT source FROM moves") == [("touch",)]
    assert rows(db_path, "SELECT result FROM plays") == [("abandoned",)]


def test_a_failing_clock_does_not_stop_play(db_path):
    class Broken(FakeClock):
        def boot_id(self):
            raise OSError("no /proc")

    log = new_log(db_path, Broken())
    play = log.begin("klondike", 1)
    log.move(play, "a")
    log.finish(play, "won")
    assert rows(db_path, "SELECT result, moves FROM plays") == [("won", 1)]


def test_system_clock_sources(tmp_path):
    boot = tmp_path / "boot_id"
    boot.write_text("abc-123\n")
    marker = tmp_path / "synchronized"
    c = playlog.SystemClock(marker=marker, boot_id_file=boot)
    assert c.boot_id() == "abc-123"
    assert c.wall().tzinfo is UTC and c.mono() > 0
    marker.write_text("")
    c._checked = -1e9
    assert c.synced() is True
    assert playlog.SystemClock(boot_id_file=tmp_path / "none").boot_id() == ""


def test_iso_is_fixed_width_utc():
    t = datetime(2025, 1, 2, 3, 4, 5, 678900, tzinfo=UTC)
    assert playlog.iso(t) == "2025-01-02T03:04:05.678Z"
    east = t.astimezone(__import__("datetime").timezone(timedelta(hours=8)))
    assert playlog.iso(east) == "2025-01-02T03:04:05.678Z"


# ---------------------------------------------------------------------------- retention
def fill(log: PlayLog, clock: FakeClock, n: int, moves: int = 3, step_days: float = 0.0,
         pad: int = 0) -> None:
    for i in range(n):
        p = log.begin("klondike", i + 1)
        for k in range(moves):
            log.move(p, f"T{k}>F1 {i}" + "x" * pad)
        log.finish(p, "lost")
        clock.advance(step_days * 86_400)


def test_age_pruning_removes_old_plays_and_their_moves(db_path, clock):
    log = new_log(db_path, clock, max_days=10, prune_interval=1e12)
    fill(log, clock, 20, step_days=1)   # plays on days 0..19
    assert log.prune() == 10            # now day 20: the plays of days 0..9 are too old
    assert rows(db_path, "SELECT min(id), count(*) FROM plays") == [(11, 10)]
    assert rows(db_path, "SELECT count(*) FROM moves WHERE play_id < 11") == [(0,)]
    assert rows(db_path, "SELECT count(*) FROM moves") == [(30,)]


def test_pruning_also_runs_by_itself_after_plays(db_path, clock):
    log = new_log(db_path, clock, max_days=10)    # at most once an hour (monotonic)
    fill(log, clock, 20, step_days=1)
    # each finish prunes (a day apart > an hour): at the last one (day 19) days 0..8 went
    assert rows(db_path, "SELECT min(id), count(*) FROM plays") == [(10, 11)]


def test_age_pruning_waits_for_a_synced_clock_and_uses_id_order(db_path, clock):
    log = new_log(db_path, clock, max_days=10, prune_interval=1e12)
    clock.is_synced = False
    fill(log, clock, 5, step_days=1)    # plays 1-5 with an untrusted clock
    assert log.prune() == 0             # the clock now is not trusted either
    clock.is_synced = True
    fill(log, clock, 3, step_days=1)    # plays 6-8, synced
    clock.advance(20 * 86_400)
    # 1-5 were never synced, but they come before 6-8, which are too old: all go
    assert log.prune() == 8
    open_play = log.begin("klondike", 99)
    clock.advance(400 * 86_400)
    assert log.prune() == 0             # an open play is never pruned
    log.finish(open_play, "won")


def test_size_pruning_keeps_the_file_under_the_limit(db_path, clock):
    log = new_log(db_path, clock, max_mb=0.2, prune_interval=0)
    fill(log, clock, 80, moves=2, pad=1500)    # about 250 kB of moves
    assert log._used_bytes() <= 200_000
    (n,) = rows(db_path, "SELECT count(*) FROM plays")[0]
    assert 30 < n < 80
    first = rows(db_path, "SELECT min(id), max(id) FROM plays")[0]
    assert first[1] == 80 and first[0] == 80 - n + 1  # the oldest went first
    assert rows(db_path, "SELECT count(*) FROM moves WHERE play_id < ?", [first[0]]) == [(0,)]
    assert db_path.stat().st_size < 400_000            # incremental vacuum gave pages back


def test_today_wins_from_the_log(db_path, clock):
    log = new_log(db_path, clock)
    for result in ("won", "won", "lost"):
        p = log.begin("klondike", 1)
        log.move(p, "a")
        log.finish(p, result)
    demo = log.begin("klondike", 1, demo=True)
    log.move(demo, "a", "demo")
    log.finish(demo, "won")
    assert log.today_wins(now=clock.wall()) == 2


@pytest.mark.parametrize("result", playlog.RESULTS)
def test_every_result_is_accepted(db_path, clock, result):
    log = new_log(db_path, clock)
    p = log.begin("klondike", 1)
    log.finish(p, result)
    assert rows(db_path, "SELECT result FROM plays") == [(result,)]
