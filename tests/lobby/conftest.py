"""Helpers of the lobby (config, play log, buttons, export) tests."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

import games
from kiosk.records.playlog import Play, PlayLog


class FakeClock:
    """A clock the test moves by hand (the PlayLog's ``clock`` protocol)."""

    def __init__(self, wall: datetime | None = None, boot: str = "boot-1",
                 synced: bool = True) -> None:
        self._wall = wall or datetime(2025, 3, 1, 12, 0, tzinfo=UTC)
        self._mono = 1000.0
        self.boot = boot
        self.is_synced = synced

    def wall(self) -> datetime:
        return self._wall

    def mono(self) -> float:
        return self._mono

    def boot_id(self) -> str:
        return self.boot

    def synced(self) -> bool:
        return self.is_synced

    def advance(self, seconds: float) -> None:
        self._mono += seconds
        self._wall += timedelta(seconds=seconds)

    def reboot(self, boot: str, wall: datetime | None = None) -> None:
        self.boot, self._mono = boot, 5.0
        if wall is not None:
            self._wall = wall


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "plays.db"


def rows(path: Path, sql: str, params=()) -> list[tuple]:
    conn = sqlite3.connect(path)
    try:
        return conn.execute(sql, params).fetchall()
    finally:
        conn.close()


def log_visit(db_path: Path, clock: FakeClock, game_id: str, seed: int, game: games.Game,
              moves: Iterable[games.Move]) -> Play:
    """Play ``moves`` on ``game`` in a fresh play log, telling the log after every move and at
    the end as the table tells it, and close the log: what a visit against the computer
    leaves in the log, for the tests to read back. ``moves`` is read one move at a time,
    after the one before is played, so it may look at the game."""
    log = PlayLog(db_path, kiosk="t", clock=clock, min_free_mb=0)
    play = log.begin(game_id, seed, dict(game.opts))
    for move in moves:
        game.play(move)
        log.seated(play, game)
    log.finish(play, "won" if game.won else "lost", score=game.score)
    log.close()
    return play
