"""Retention in a fleet: plays the central database has not confirmed are not pruned by
age; when max_mb forces it anyway, the loss is an event (which reaches the centre)."""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime, timedelta

from kiosk.fleet import state
from kiosk.records.playlog import PlayLog
from kiosk.settings import config


class Clock:
    def __init__(self) -> None:
        self._wall = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)
        self._mono = 1000.0

    def wall(self):
        return self._wall

    def mono(self):
        return self._mono

    def boot_id(self):
        return "boot-1"

    def synced(self):
        return True

    def advance(self, seconds: float) -> None:
        self._mono += seconds
        self._wall += timedelta(seconds=seconds)


def _cfg(tmp_path, fleet: bool, **log):
    text = f'[log]\ndata_dir = "{tmp_path}"\n' + "".join(f"{k} = {v}\n" for k, v in log.items())
    if fleet:
        text += '[fleet]\nserver = "central.example.org"\nuser = "kiosk_x"\n'
    cfg = config.load_text(text)
    assert not cfg.problems
    return cfg


def _fill(log: PlayLog, clock: Clock, n: int, step_days: float = 1, pad: int = 0) -> None:
    for i in range(n):
        p = log.begin("klondike", i + 1)
        log.move(p, "T1>F1" + "x" * pad)
        log.move(p, "T2>F1" + "x" * pad)
        log.finish(p, "lost")
        clock.advance(step_days * 86_400)


def _ids(path) -> list[int]:
    with sqlite3.connect(path) as conn:
        return [r[0] for r in conn.execute("SELECT id FROM plays ORDER BY id")]


def test_unconfirmed_plays_are_not_pruned_by_age(tmp_path):
    clock = Clock()
    cfg = _cfg(tmp_path, fleet=True, max_days=10, max_mb=0)
    log = PlayLog.from_config(cfg, clock=clock, prune_interval=1e12)
    _fill(log, clock, 20)
    assert log.prune() == 0                   # never synced: nothing is confirmed
    state.save_cursor(tmp_path, state.Cursor(play_id=6, open={4: 2}))
    assert log.prune() == 3                   # 1-3 confirmed and old; 4 was sent open
    assert _ids(cfg.db_path())[0] == 4
    state.save_cursor(tmp_path, state.Cursor(play_id=20))
    assert log.prune() == 7                   # now only age decides: days 0..9 go
    assert _ids(cfg.db_path())[0] == 11
    log.close()


def test_without_a_fleet_age_pruning_is_as_before(tmp_path):
    clock = Clock()
    cfg = _cfg(tmp_path, fleet=False, max_days=10, max_mb=0)
    log = PlayLog.from_config(cfg, clock=clock, prune_interval=1e12)
    _fill(log, clock, 20)
    assert log.prune() == 10
    log.close()


def test_size_pruning_of_unconfirmed_plays_is_recorded_as_an_event(tmp_path):
    clock = Clock()
    cfg = _cfg(tmp_path, fleet=True, max_days=0, max_mb=0.2)
    state.save_cursor(tmp_path, state.Cursor(play_id=5))
    log = PlayLog.from_config(cfg, clock=clock, prune_interval=0)
    _fill(log, clock, 80, step_days=0.01, pad=1500)
    assert _ids(cfg.db_path())[0] > 6         # max_mb still wins over the fleet
    with sqlite3.connect(cfg.db_path()) as conn:
        events = [json.loads(d) for (d,) in conn.execute(
            "SELECT detail FROM events WHERE kind = 'plays_pruned_unsent'")]
    assert events and events[0]["first_id"] == 6
    assert sum(e["plays"] for e in events) == _ids(cfg.db_path())[0] - 6
    log.close()


def test_in_a_fleet_the_newest_play_is_never_pruned_so_ids_never_start_again(tmp_path):
    """A kiosk left alone for longer than max_days: every play is old and confirmed. If
    all went, SQLite would number the next play 1 again, an id the centre already has, and
    the sync (which sends ids above its cursor) would never send it."""
    clock = Clock()
    cfg = _cfg(tmp_path, fleet=True, max_days=10, max_mb=0)
    log = PlayLog.from_config(cfg, clock=clock, prune_interval=1e12)
    _fill(log, clock, 5)
    state.save_cursor(tmp_path, state.Cursor(play_id=5))
    clock.advance(400 * 86_400)
    assert log.prune() == 4
    p = log.begin("klondike", 99)
    log.finish(p, "won")
    assert p.id == 6
    log.close()
