"""Where the play log and its readers get their times: the wall clock, the monotonic clock,
the boot id and whether the clock was synchronised, and the one text form of a UTC time.

A module of its own so that :mod:`kiosk.records.stats` (which reads the log) and
:mod:`kiosk.records.playlog` (which writes it and asks stats for today's wins) both stand on
it instead of on each other: that was an import circle.
"""

from __future__ import annotations

import subprocess
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Protocol

BOOT_ID_FILE = Path("/proc/sys/kernel/random/boot_id")
SYNC_MARKER = Path("/run/systemd/timesync/synchronized")


class Clock(Protocol):
    """Where the log gets its times; :class:`SystemClock` on the kiosk, a fake in tests."""

    def wall(self) -> datetime: ...        # aware UTC datetime
    def mono(self) -> float: ...           # monotonic seconds (this boot)
    def boot_id(self) -> str: ...          # changes at every boot
    def synced(self) -> bool: ...          # has the wall clock been synchronised this boot?


class SystemClock:
    """The real clocks. ``synced`` looks for systemd-timesyncd's marker file
    (``/run/systemd/timesync/synchronized``, "synced at some point since boot"), else asks
    ``timedatectl`` (chrony and other daemons); a "no" is re-checked at most once a minute."""

    def __init__(self, marker: Path = SYNC_MARKER, boot_id_file: Path = BOOT_ID_FILE) -> None:
        self._marker, self._boot_file = marker, boot_id_file
        self._boot: str | None = None
        self._synced = False
        self._checked = -1e9

    def wall(self) -> datetime:
        return datetime.now(UTC)

    def mono(self) -> float:
        return time.monotonic()

    def boot_id(self) -> str:
        if self._boot is None:
            try:
                self._boot = self._boot_file.read_text().strip()
            except OSError:
                self._boot = ""
        return self._boot

    def synced(self) -> bool:
        if self._synced:
            return True
        now = time.monotonic()
        if now - self._checked < 60:
            return False
        self._checked = now
        if self._marker.exists():
            self._synced = True
        else:
            try:
                out = subprocess.run(["timedatectl", "show", "-p", "NTPSynchronized", "--value"],
                                     capture_output=True, text=True, timeout=2)
                self._synced = out.stdout.strip() == "yes"
            except (OSError, subprocess.SubprocessError):
                pass
        return self._synced


def iso(dt: datetime) -> str:
    """UTC time as ``2025-03-01T14:05:09.120Z``: fixed width, so text order is time order."""
    dt = dt.astimezone(UTC)
    return dt.strftime("%Y-%m-%dT%H:%M:%S.") + f"{dt.microsecond // 1000:03d}Z"


# ---------------------------------------------------------------------------- schema
