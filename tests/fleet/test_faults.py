"""Real faults against a real server. After each, the central tables are compared with
the union of the kiosks' logs row by row: nothing lost, nothing doubled, every changed row
at its last value."""

from __future__ import annotations

import errno
import fcntl
import os
import random
import signal
import subprocess
import sys
import time
import tracemalloc

import pytest

from kiosk.fleet import state
from kiosk.fleet import sync as sync_mod

from .conftest import REPO, assert_central_matches, central_rows
from .pgserver import wait_until


def _fail_at_merge(monkeypatch, n: int, action) -> list[int]:
    """Run ``action`` when the pass merges its ``n``-th staged table (mid-batch: rows of
    the batch are on the server, not committed)."""
    calls = [0]
    real = sync_mod._Sender._merge

    def merge(self, table):
        calls[0] += 1
        if calls[0] == n:
            action()
        return real(self, table)

    monkeypatch.setattr(sync_mod._Sender, "_merge", merge)
    return calls


def test_server_stopped_and_started_mid_batch(make_kiosk, fleet_dsn, pg, monkeypatch, capsys):
    a, b = make_kiosk("stop_a"), make_kiosk("stop_b")
    a.play(230, moves=4)
    b.play(40, finish=False)
    a.play(5, finish=False)
    try:
        # the 3rd batch's first merge (plays and moves: two merges a batch without hands)
        _fail_at_merge(monkeypatch, 5, lambda: pg.stop("fast"))
        assert a.sync() == 1
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "kiosk: sync: " in err, err
        assert state.load_status(a.data_dir).last_error
        assert b.sync() == 1  # the server is down: nothing sent, one line
        assert "not accepting connections" in capsys.readouterr().err
        a.play(3)  # the kiosk plays on
    finally:
        pg.start()
    monkeypatch.undo()
    confirmed = state.load_cursor(a.data_dir).play_id
    assert confirmed == 100  # two batches of 50 committed before the stop
    assert a.sync() == 0 and b.sync() == 0
    assert_central_matches(fleet_dsn, [a, b])
    assert state.load_status(a.data_dir).last_error is None


def test_session_terminated_by_the_server_mid_batch(make_kiosk, fleet_dsn, pg, monkeypatch,
                                                    capsys):
    a = make_kiosk("term")
    a.play(180, moves=6)

    def terminate():
        with pg.admin() as conn:
            n = conn.execute("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                             "WHERE usename = %s", (a.role,)).fetchone()[0]
        assert n == 1

    _fail_at_merge(monkeypatch, 3, terminate)
    assert a.sync() == 1
    assert "connection" in capsys.readouterr().err
    monkeypatch.undo()
    assert a.sync() == 0
    assert_central_matches(fleet_dsn, [a])


def test_a_cursor_that_cannot_be_written_sends_the_batch_again_once(make_kiosk, fleet_dsn,
                                                                     monkeypatch, capsys):
    """The server committed, the card is full: the cursor stays behind and the next pass
    sends that batch again; the upsert keeps one copy."""
    a = make_kiosk("full")
    a.play(120, moves=3)
    real = state.save_cursor
    calls = [0]

    def save(data_dir, cursor):
        calls[0] += 1
        if calls[0] == 3:  # (the first binds the cursor to the play log, then a batch each)
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(data_dir, cursor)

    monkeypatch.setattr(state, "save_cursor", save)
    assert a.sync() == 1
    err = capsys.readouterr().err
    assert "No space left on device" in err and err.count("\n") == 1
    monkeypatch.undo()
    assert state.load_cursor(a.data_dir).play_id == 50
    assert len(central_rows(fleet_dsn)["plays"]) == 100  # batch 2 is central already
    assert a.sync() == 0
    assert_central_matches(fleet_dsn, [a])


WRITER = """
import sys, time
from kiosk.records.playlog import PlayLog
log = PlayLog(sys.argv[1], kiosk="writer", app_version="test")
n = 0
while True:
    n += 1
    p = log.begin("golf", n, {})
    for k in range(n % 9):
        log.move(p, f"T{k}>W")
    if n % 5:
        log.finish(p, "won" if n % 2 else "lost", score=n, cards_left=0)
    else:
        pending = p  # left open: sent open, then ended below
    if n % 5 == 1 and n > 5:
        log.move(pending, "T1>W")
        log.finish(pending, "abandoned", score=0, cards_left=3)
    if n % 50 == 0:
        log.event("pin_wrong", {"n": n})
    time.sleep(0.002)
"""


def _sigkill_run(kiosk, kills: int, seed: int) -> int:
    """Start `kiosk sync` and SIGKILL it at a random moment, ``kills`` times, while
    another process writes plays; returns how many passes were killed before exiting."""
    rnd = random.Random(seed)
    writer = subprocess.Popen([sys.executable, "-c", WRITER, str(kiosk.db_path)], cwd=REPO)
    killed = 0
    try:
        assert wait_until(lambda: kiosk.db_path.exists(), 20)
        for _ in range(kills):
            proc = subprocess.Popen([sys.executable, "-m", "kiosk", "sync", "--config",
                                     str(kiosk.config)], cwd=REPO, stdout=subprocess.DEVNULL,
                                    stderr=subprocess.PIPE)
            time.sleep(rnd.uniform(0.05, 1.2))
            if proc.poll() is None:
                proc.send_signal(signal.SIGKILL)
                killed += 1
            _out, err = proc.communicate(timeout=60)
            assert proc.returncode in (0, -signal.SIGKILL), err
    finally:
        writer.send_signal(signal.SIGTERM)
        writer.wait(timeout=30)
    return killed


def _finish_open_plays(kiosk) -> None:
    """The writer was stopped mid-play: its next start marks the open play interrupted."""
    from kiosk.records.playlog import PlayLog

    PlayLog(kiosk.db_path, kiosk="writer", app_version="test").close()


def _killed_syncs_lose_nothing(kiosk, fleet_dsn: str, plays: int, kills: int, seed: int,
                               at_least: int) -> None:
    """``plays`` waiting, ``kills`` sync passes started while plays are written and killed
    at random moments (``at_least`` of them really killed mid-pass): one clean pass after
    still sends every play once."""
    kiosk.backlog(plays, moves=3)
    killed = _sigkill_run(kiosk, kills, seed=seed)
    assert killed >= at_least
    _finish_open_plays(kiosk)
    assert kiosk.sync() == 0
    assert_central_matches(fleet_dsn, [kiosk])


def test_sync_killed_at_random_moments_while_plays_are_written(make_kiosk, fleet_dsn):
    _killed_syncs_lose_nothing(make_kiosk("killed", batch_plays=20), fleet_dsn, plays=300,
                               kills=12, seed=1, at_least=3)


@pytest.mark.slow
def test_sync_killed_three_hundred_times(make_kiosk, fleet_dsn):
    _killed_syncs_lose_nothing(make_kiosk("killed_many", batch_plays=20), fleet_dsn,
                               plays=3000, kills=300, seed=2, at_least=100)


def _peak_memory(kiosk) -> int:
    tracemalloc.start()
    try:
        assert kiosk.sync() == 0
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_a_large_backlog_is_sent_with_bounded_memory(make_kiosk, fleet_dsn):
    """A kiosk offline for months: peak memory of the pass does not grow with the backlog
    (rows are streamed from SQLite into COPY, a batch at a time)."""
    small, large = make_kiosk("small"), make_kiosk("large")
    small.backlog(300, moves=10)
    large.backlog(3000, moves=10)
    assert _peak_memory(small) > 0  # imports and first connection out of the way
    small.backlog(300, moves=10)
    peak_small = _peak_memory(small)
    peak_large = _peak_memory(large)
    assert peak_large < 1.5 * peak_small + 200_000, (peak_small, peak_large)
    assert_central_matches(fleet_dsn, [small, large])


def test_two_passes_of_one_kiosk_at_once(make_kiosk, fleet_dsn, capsys):
    a = make_kiosk("twice")
    a.backlog(400, moves=5)
    # one pass holds the kiosk's lock: the other leaves at once, sending nothing
    fd = os.open(a.data_dir / state.LOCK_NAME, os.O_RDWR | os.O_CREAT)
    fcntl.flock(fd, fcntl.LOCK_EX)
    try:
        assert a.sync() == 0
        assert "another sync pass" in capsys.readouterr().out
        assert central_rows(fleet_dsn)["plays"] == []
    finally:
        os.close(fd)
    # two real processes at once: neither doubles
    procs = [subprocess.Popen([sys.executable, "-m", "kiosk", "sync", "--config", str(a.config)],
                              cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True) for _ in range(2)]
    outs = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], outs
    assert_central_matches(fleet_dsn, [a])


def _one_failed_line(kiosk, capsys) -> str:
    assert kiosk.sync() == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("kiosk: sync: "), err
    assert state.load_status(kiosk.data_dir).last_error
    # and the kiosk plays on
    kiosk.play(1)
    return err


def test_a_wrong_password(make_kiosk, fleet_dsn, capsys):
    a = make_kiosk("badpw")
    a.play(5)
    (a.data_dir / "fleet.secret").write_text("not-the-password\n")
    assert "refused the kiosk's password" in _one_failed_line(a, capsys)
    assert central_rows(fleet_dsn)["plays"] == []


def test_tls_verify_full_with_the_operators_ca_and_a_wrong_ca(make_kiosk, fleet_dsn, pg,
                                                              capsys):
    a = make_kiosk("tls", server="localhost", sslmode="verify-full",
                   sslrootcert=str(pg.certs["other_ca"]))
    a.play(5)
    assert "certificate" in _one_failed_line(a, capsys)
    assert central_rows(fleet_dsn)["plays"] == []
    a.fleet["sslrootcert"] = str(pg.certs["ca"])
    a.write_config()
    assert a.sync() == 0  # the same pass, verified against the operator's CA, goes through
    assert_central_matches(fleet_dsn, [a])


def test_an_unreachable_host(make_kiosk, fleet_dsn, capsys):
    a = make_kiosk("nohost", server="192.0.2.1", connect_timeout=2)
    a.play(5)
    t0 = time.monotonic()
    _one_failed_line(a, capsys)
    assert time.monotonic() - t0 < 30
    assert central_rows(fleet_dsn)["plays"] == []


def test_a_kiosk_without_a_fleet_section_connects_nowhere(tmp_path, capsys):
    from kiosk.commands.cli import main

    cfg = tmp_path / "config.toml"
    cfg.write_text(f'[log]\ndata_dir = "{tmp_path}"\n')
    assert main(["sync", "--config", str(cfg), "--configured"]) == 1
    assert main(["sync", "--config", str(cfg)]) == 0
    assert "no connection made" in capsys.readouterr().out
    assert not (tmp_path / state.STATUS_NAME).exists()
