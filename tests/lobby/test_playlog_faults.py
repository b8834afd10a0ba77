"""The play log when the card misbehaves: damaged file, read-only, full, low on space.

What is real and what is simulated:
* damaged files are real: garbage bytes written over a real file;
* read-only is a real read-only bind mount and "full" a real 256 kB tmpfs. Both need root
  and ``mount`` (the kiosk's CI runs as root); elsewhere those tests are skipped. ``chmod``
  would not do: root ignores permission bits;
* damage found *while running*, and the free-space floor, are injected (a raising write, a
  fake ``free_space``), because a live SQLite connection hides a damaged page in its cache
  and a real nearly-full card cannot be made on demand.
"""

from __future__ import annotations

import contextlib
import sqlite3
import subprocess
from pathlib import Path

import pytest

from kiosk.records.playlog import PlayLog

from .conftest import rows


def new_log(path, clock, **kw) -> PlayLog:
    kw.setdefault("min_free_mb", 0)
    return PlayLog(path, kiosk="lobby", app_version="t", clock=clock, **kw)


def play_some(log: PlayLog, seed: int, moves: int, result: str | None = "lost"):
    p = log.begin("klondike", seed)
    for i in range(moves):
        log.move(p, f"m{i}")
    if result:
        log.finish(p, result)
    return p


def mount(*args: str) -> None:
    run = subprocess.run(["mount", *args], capture_output=True, text=True)
    if run.returncode:
        pytest.skip(f"cannot mount here ({run.stderr.strip()}): needs root")


def umount(path: Path) -> None:
    subprocess.run(["umount", "-l", str(path)], capture_output=True)


@contextlib.contextmanager
def full_stick(stick: Path):
    """``stick`` as a tiny USB stick already full of someone's photos (a 16 kB tmpfs)."""
    stick.mkdir()
    mount("-t", "tmpfs", "-o", "size=16k", "tmpfs", str(stick))
    try:
        with pytest.raises(OSError), open(stick / "photos.jpg", "wb") as fh:
            for _ in range(100):
                fh.write(b"\0" * 1024)
                fh.flush()
        yield stick
    finally:
        umount(stick)


@contextlib.contextmanager
def read_only(directory: Path):
    """Make ``directory`` a read-only bind mount of itself for the duration."""
    mount("--bind", str(directory), str(directory))
    try:
        mount("-o", "remount,bind,ro", str(directory))
        yield
    finally:
        umount(directory)


# ---------------------------------------------------------------------------- damaged files
def corrupted_names(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir() if ".corrupt-" in p.name)


def test_garbage_file_is_set_aside_and_a_new_log_started(db_path, clock):
    db_path.parent.mkdir(parents=True)
    junk = b"this is not a database\x00\xff" * 200
    db_path.write_bytes(junk)
    log = new_log(db_path, clock)
    assert log.status.ok
    (aside,) = corrupted_names(db_path.parent)
    assert aside.startswith("plays.db.corrupt-")
    assert (db_path.parent / aside).read_bytes() == junk          # kept, byte for byte
    assert "set aside" in log.status.notes[0]
    play_some(log, 1, 3)
    assert rows(db_path, "PRAGMA integrity_check") == [("ok",)]
    assert rows(db_path, "SELECT count(*) FROM moves") == [(3,)]


def test_damaged_pages_fail_quick_check_and_are_set_aside(db_path, clock):
    log = new_log(db_path, clock)
    for seed in range(12):
        p = log.begin("klondike", seed)
        for i in range(4):
            log.move(p, f"m{i}" + "x" * 600)
        log.finish(p, "lost")
    log.close()
    data = bytearray(db_path.read_bytes())
    assert len(data) > 5 * 4096
    data[2 * 4096:4 * 4096] = b"\xa5" * (2 * 4096)      # smash two pages, keep the header
    db_path.write_bytes(bytes(data))
    again = new_log(db_path, clock)
    assert again.status.ok and len(corrupted_names(db_path.parent)) == 1
    assert rows(db_path, "SELECT count(*) FROM plays") == [(0,)]    # a fresh log
    play_some(again, 1, 2)
    assert rows(db_path, "PRAGMA integrity_check") == [("ok",)]


def test_stale_wal_of_a_damaged_file_moves_with_it(db_path, clock):
    db_path.parent.mkdir(parents=True)
    db_path.write_bytes(b"garbage" * 100)
    Path(str(db_path) + "-wal").write_bytes(b"old wal" * 100)
    new_log(db_path, clock)
    names = corrupted_names(db_path.parent)
    assert len(names) == 2 and any(n.endswith("-wal") for n in names)


def test_damage_found_while_running_keeps_the_open_play_whole(db_path, clock, monkeypatch):
    """Simulated: the write raises SQLITE_CORRUPT once, as a real damaged page would."""
    log = new_log(db_path, clock)
    play_some(log, 1, 2)                        # a finished play in the old file
    p = log.begin("klondike", 2)
    log.move(p, "a")
    log.move(p, "b")
    real = PlayLog._write_play
    calls = {"n": 0}

    def damaged(self, play):
        calls["n"] += 1
        if calls["n"] == 1:
            raise sqlite3.DatabaseError("database disk image is malformed")
        return real(self, play)

    monkeypatch.setattr(PlayLog, "_write_play", damaged)
    log.move(p, "c")
    assert log.status.ok and len(corrupted_names(db_path.parent)) == 1
    # the new file has the whole open play, not just the last move
    assert rows(db_path, "SELECT seq, move FROM moves") == [(1, "a"), (2, "b"), (3, "c")]
    log.finish(p, "won")
    assert rows(db_path, "SELECT seed, result, moves FROM plays") == [(2, "won", 3)]


# ---------------------------------------------------------------------------- read-only
def test_read_only_card_keeps_plays_in_memory_until_writable(db_path, clock):
    log = new_log(db_path, clock)
    play_some(log, 1, 2)
    log.close()
    with read_only(db_path.parent):
        with pytest.raises(OSError):          # the mount really is read-only, even for root
            (db_path.parent / "probe").write_text("x")
        log = new_log(db_path, clock, retry_interval=0)
        assert not log.status.ok and "read-only" in log.status.message
        p = play_some(log, 2, 4, result=None)
        play_some(log, 3, 1)
        assert log.status.pending_plays == 2
        assert "2 games kept in memory" in log.status.message
        assert not log.retry()
    assert log.retry(), log.status.message
    assert log.status.ok and log.status.pending_plays == 0   # all written; p goes on
    log.move(p, "late")
    log.finish(p, "won")
    assert rows(db_path, "SELECT seed, result, moves FROM plays ORDER BY id") == [
        (1, "lost", 2), (2, "won", 5), (3, "lost", 1)]
    assert rows(db_path, "PRAGMA integrity_check") == [("ok",)]


# ---------------------------------------------------------------------------- full disk
@pytest.fixture
def tiny_tmpfs(tmp_path):
    where = tmp_path / "card"
    where.mkdir()
    mount("-t", "tmpfs", "-o", "size=256k", "tmpfs", str(where))
    yield where
    umount(where)


def test_full_card_degrades_then_catches_up(tiny_tmpfs, clock):
    db = tiny_tmpfs / "plays.db"
    log = new_log(db, clock, retry_interval=0)
    assert log.status.ok
    logged = 0
    p = log.begin("klondike", 1)
    while log.status.ok and logged < 2000:
        log.move(p, f"{logged:05d}" + "x" * 400)
        logged += 1
    assert not log.status.ok, "the 256 kB card never filled"
    assert "full" in log.status.message
    for _ in range(20):                       # play goes on
        log.move(p, f"{logged:05d}" + "x" * 400)
        logged += 1
    log.finish(p, "lost")
    assert not log.status.ok
    mount("-o", "remount,size=4m", str(tiny_tmpfs))   # the operator makes room
    assert log.retry(), log.status.message
    assert rows(db, "SELECT count(*), max(seq) FROM moves") == [(logged, logged)]
    assert rows(db, "SELECT result, moves FROM plays") == [("lost", logged)]
    assert rows(db, "PRAGMA integrity_check") == [("ok",)]


def test_free_space_floor_pauses_the_log(db_path, clock):
    """Simulated free space: a fake ``free_space`` says 10 MB, then 500 MB."""
    free = {"bytes": 500_000_000}
    log = new_log(db_path, clock, min_free_mb=50, retry_interval=0,
                  free_space=lambda p: free["bytes"])
    play_some(log, 1, 1)
    free["bytes"] = 10_000_000
    play_some(log, 2, 3)
    assert not log.status.ok and "less than 50 MB free" in log.status.message
    assert rows(db_path, "SELECT count(*) FROM plays") == [(1,)]     # nothing more written
    free["bytes"] = 500_000_000
    play_some(log, 3, 1)                       # the next write catches up by itself
    assert log.status.ok
    assert rows(db_path, "SELECT seed, moves FROM plays ORDER BY id") == [(1, 1), (2, 3), (3, 1)]


def test_retry_waits_for_its_interval(db_path, clock, monkeypatch):
    """Simulated: one write fails with an I/O error."""
    log = new_log(db_path, clock, retry_interval=30)
    real = PlayLog._write_play
    fail = {"once": True}

    def flaky(self, play):
        if fail.pop("once", False):
            raise sqlite3.OperationalError("disk I/O error")
        return real(self, play)

    monkeypatch.setattr(PlayLog, "_write_play", flaky)
    play_some(log, 1, 1)
    assert not log.status.ok and "disk I/O error" in log.status.message
    play_some(log, 2, 1)
    assert not log.status.ok                   # 30 s have not passed: no new attempt
    assert rows(db_path, "SELECT count(*) FROM plays") == [(0,)]
    clock.advance(31)
    play_some(log, 3, 1)
    assert log.status.ok
    assert rows(db_path, "SELECT seed FROM plays ORDER BY id") == [(1,), (2,), (3,)]


def test_low_space_at_start_shows_in_the_status(db_path, clock):
    log = new_log(db_path, clock, min_free_mb=50, free_space=lambda p: 1_000_000)
    assert not log.status.ok and "less than 50 MB" in log.status.message


def test_memory_is_bounded_while_the_card_is_unusable(tmp_path, clock):
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("")                     # the data "directory" cannot be created
    log = new_log(blocker / "plays.db", clock, max_pending_moves=100, retry_interval=0)
    assert not log.status.ok and "cannot be opened" in log.status.message
    for seed in range(30):
        play_some(log, seed, 10)
    assert sum(len(p.moves) for p in log._plays) <= 100
    assert log.lost_plays == 20 and "20 game(s) could not be kept" in log.status.message
    open_play = play_some(log, 99, 150, result=None)   # an open play is never dropped
    assert open_play in log._plays and len(open_play.moves) == 150


def test_nothing_raises_even_with_a_closed_connection(db_path, clock):
    log = new_log(db_path, clock, retry_interval=0)
    p = log.begin("klondike", 1)
    log._db.conn.close()                       # a programming error elsewhere
    log.move(p, "a")
    log.count(p, touches=1)
    log.finish(p, "won")
    assert log.today_wins() >= 0 and log.prune() >= 0
    assert log.retry() and rows(db_path, "SELECT result, moves FROM plays") == [("won", 1)]
