"""A kiosk's health in one row: what ``kiosk sync`` records centrally at every pass and
writes for the node exporter (:mod:`kiosk.fleet.metrics`).

The pass runs as the kiosk user in its own unit, so it reads what that user may: the boot
id from /proc (the sync unit has no ProcSubset=pid for it), the uptime from the boot clock,
the data partition's free space, the play log read-only, and the kiosk unit's figures from systemd (``systemctl show``: its memory and ``NRestarts``). The
watchdog kills come from the kiosk unit's ExecStopPost helper (``after-exit``), which adds
a line with the boot id to ``watchdog-kills`` in the data directory for each one, because
systemd keeps only the last stop's result. Every figure that cannot be read is None: a
heartbeat is never refused for want of one.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import time
from dataclasses import asdict, dataclass, fields
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from kiosk import __version__
from kiosk.fleet import state
from kiosk.fleet.centre_settings import SettingsState
from kiosk.settings import overrides
from kiosk.settings.config import Config

KIOSK_UNIT = "solitaire-kiosk.service"
#: one line per watchdog kill: "<boot id> watchdog" (systemd/libexec/after-exit)
WATCHDOG_NAME = "watchdog-kills"


@dataclass
class Heartbeat:
    sent: str
    clock_synced: int | None
    app_version: str
    boot_id: str | None
    uptime: float | None
    last_play: str | None
    data_free: int | None
    data_size: int | None
    memory: int | None
    restarts: int | None
    watchdog_kills: int | None
    config_problems: str | None
    settings_version: int | None
    settings_rejected: int | None
    settings_error: str | None
    log_status: str
    waiting: int | None
    last_sync_ok: str | None
    last_sync_error: str | None
    set_aside: int = 0                # rows the centre refused, set aside so far
    set_aside_reason: str | None = None  # the last one's reason
    # the system and its updates (central migration 0011, kiosk/updates/centre.py)
    system_version: str | None = None    # IMAGE_VERSION of the running slot
    booted_slot: str | None = None       # A or B
    update_state: str | None = None      # update-status.json: the last update's state
    update_version: str | None = None
    update_message: str | None = None
    update_release: int | None = None    # the centre's release it came from (None: a stick)
    download_release: int | None = None  # the release the sync pass works on
    download_state: str | None = None
    download_bytes: int | None = None
    download_error: str | None = None

    def as_row(self) -> dict[str, Any]:
        return asdict(self)


COLUMNS = tuple(f.name for f in fields(Heartbeat))


def _read(path: str) -> str | None:
    try:
        with open(path, encoding="ascii") as fh:
            return fh.read().strip()
    except (OSError, ValueError):
        return None


def boot_id() -> str | None:
    return _read("/proc/sys/kernel/random/boot_id")


def uptime() -> float | None:
    """Seconds since boot, suspend included (no /proc needed)."""
    try:
        return time.clock_gettime(time.CLOCK_BOOTTIME)
    except (AttributeError, OSError):
        return None


def clock_synced() -> int | None:
    """1 when systemd-timesyncd (or another NTP client) has set the clock this boot."""
    if os.path.exists("/run/systemd/timesync/synchronized"):
        return 1
    return 0 if os.path.isdir("/run/systemd") else None


def unit_properties(unit: str = KIOSK_UNIT) -> dict[str, str]:
    """``systemctl show``'s properties of the kiosk unit; empty off systemd (a desktop, a
    container) or when systemd does not answer in time."""
    try:
        out = subprocess.run(["systemctl", "show", unit, "--property=NRestarts,MemoryCurrent"],
                             capture_output=True, text=True, timeout=10, check=False)
    except (OSError, subprocess.SubprocessError):
        return {}
    if out.returncode != 0:
        return {}
    return dict(line.split("=", 1) for line in out.stdout.splitlines() if "=" in line)


def _int(text: str | None) -> int | None:
    try:
        value = int(text) if text is not None else None
    except ValueError:
        return None
    # systemd says "[not set]" or 2^64-1 for a figure it does not track
    return None if value is None or value >= 2**63 else value


def watchdog_kills(data_dir: Path, boot: str | None) -> int | None:
    try:
        lines = (data_dir / WATCHDOG_NAME).read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        return 0
    except (OSError, ValueError):
        return None
    return sum(1 for line in lines if boot is None or line.split()[:1] == [boot])


def _last_play(log_path: Path) -> tuple[str | None, str]:
    """The last play's start and the log's status as the pass sees it."""
    from kiosk.records.playlog import open_readonly

    if not log_path.is_file():
        return None, "ok (nothing played yet)"
    try:
        conn = open_readonly(log_path)
        try:
            conn.execute("PRAGMA busy_timeout=10000")
            row = conn.execute("SELECT started FROM plays ORDER BY id DESC LIMIT 1").fetchone()
        finally:
            conn.close()
    except sqlite3.Error as err:
        return None, f"cannot read the play log: {err}"
    return (row[0] if row else None), "ok"


def collect(cfg: Config, data_dir: Path, log_path: Path, settings: SettingsState,
            waiting: int | None) -> Heartbeat:
    """The figures of this moment; reads only, never raises."""
    boot = boot_id()
    free: int | None
    size: int | None
    try:
        usage = shutil.disk_usage(data_dir)
        free, size = usage.free, usage.total
    except OSError:
        free = size = None
    props = unit_properties()
    last_play, log_status = _last_play(log_path)
    status = state.load_status(data_dir)
    aside = state.load_set_aside(data_dir)
    from kiosk.updates import centre

    return Heartbeat(**centre.heartbeat_fields(data_dir),
        sent=datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z"),
        clock_synced=clock_synced(), app_version=__version__, boot_id=boot, uptime=uptime(),
        last_play=last_play, data_free=free, data_size=size,
        memory=_int(props.get("MemoryCurrent")), restarts=_int(props.get("NRestarts")),
        watchdog_kills=watchdog_kills(data_dir, boot),
        config_problems="\n".join([*cfg.problems, *overrides.problems(data_dir)]) or None,
        settings_version=settings.applied, settings_rejected=settings.rejected,
        settings_error=settings.error, log_status=log_status, waiting=waiting,
        last_sync_ok=status.last_ok, last_sync_error=status.last_error,
        set_aside=len(aside),
        set_aside_reason=f"{aside[-1].table} {aside[-1].id}: {aside[-1].reason}" if aside
        else None)


def record(pg: Any, beat: Heartbeat) -> None:
    """Send the row (the caller commits). The server's function sets its id, its time and
    the kiosk (central migration 0006); a field added here and as a column of the same
    name there travels without any other change."""
    from psycopg.types.json import Jsonb

    pg.execute("SELECT fleet_heartbeat(%s)", (Jsonb(beat.as_row()),))
