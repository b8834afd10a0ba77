"""Crash safety: a real child process writing a play log is SIGKILLed at random moments.

After every kill a new start must find no open play (each becomes ``interrupted``), every
move the child had seen committed must be there, and ``PRAGMA integrity_check`` must be ok.

SIGKILL tests what the process can break: a half-done transaction, a WAL not checkpointed,
a kill between a write and its commit. It does not cut the power: the kernel still writes
out what SQLite handed it. Power cuts are covered by WAL + ``synchronous=FULL`` (SQLite
fsyncs the WAL at every commit), which this test cannot prove on a laptop.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kiosk.records.playlog import PlayLog

from .conftest import rows

ROOT = Path(__file__).resolve().parents[2]
CHILD = Path(__file__).with_name("crash_child.py")


def run_child(db: Path, seed: int, rnd: random.Random) -> list[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, str(CHILD), str(db), str(seed)], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        first = proc.stdout.readline()           # the log is open: the child is running
        assert first.startswith("open "), (first, proc.stderr.read())
        assert first.split()[2] == "ok", first
        time.sleep(rnd.uniform(0.0, 0.25))       # a random moment in the write loop
    finally:
        proc.send_signal(signal.SIGKILL)
        out, _ = proc.communicate(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    return [first.strip()] + out.splitlines()


def check(db: Path, lines: list[str]) -> None:
    acked_moves: dict[int, int] = {}
    acked_end: dict[int, str] = {}
    for line in lines:
        word, *args = line.split()
        if word == "begin":
            acked_moves[int(args[0])] = 0
        elif word == "move":
            acked_moves[int(args[0])] = int(args[1])
        elif word == "end":
            acked_end[int(args[0])] = args[1]
    log = PlayLog(db, min_free_mb=0)             # the restart: marks open plays interrupted
    assert log.status.ok, log.status.message
    log.close()
    assert rows(db, "PRAGMA integrity_check") == [("ok",)]
    assert rows(db, "SELECT count(*) FROM plays WHERE result IS NULL") == [(0,)]
    for play_id, n in acked_moves.items():
        (got,) = rows(db, "SELECT count(*) FROM moves WHERE play_id = ?", [play_id])[0]
        assert got >= n, f"play {play_id}: {n} moves were committed, {got} found"
    for play_id, result in acked_end.items():
        assert rows(db, "SELECT result FROM plays WHERE id = ?", [play_id]) == [(result,)]
    # every interrupted play's counters agree with its moves, and seq has no gaps
    for pid, moves, undos in rows(db, "SELECT id, moves, undos FROM plays"
                                      " WHERE result = 'interrupted'"):
        seqs = [s for (s,) in rows(db, "SELECT seq FROM moves WHERE play_id = ? ORDER BY seq",
                                   [pid])]
        assert seqs == list(range(1, len(seqs) + 1))
        assert moves + undos == len(seqs)


@pytest.mark.parametrize("kills", [
    2,
    pytest.param(30, marks=pytest.mark.slow),
])
def test_sigkill_at_random_points_loses_nothing_committed(tmp_path, kills):
    db = tmp_path / "plays.db"
    rnd = random.Random(20250301 + kills)
    total_lines = 0
    for i in range(kills):
        lines = run_child(db, i, rnd)
        total_lines += len(lines)
        check(db, lines)
    (plays,) = rows(db, "SELECT count(*) FROM plays")[0]
    assert plays >= kills and total_lines > kills
    # the finished ones are untouched by recovery; the rest were all interrupted
    assert rows(db, "SELECT count(*) FROM plays WHERE result NOT IN"
                    " ('won', 'lost', 'abandoned', 'interrupted')") == [(0,)]
