"""What the operator menu's Status page says about the fleet's sync, without drawing it:
the last sync, the rows waiting, the rows the centre refused, what the last error means for
the operator, and "Sync now" with the pass it started followed to its end.

The kiosk itself never reaches the network (its unit has ``IPAddressDeny=any``): on the
Pi "Sync now" leaves a request file in the data directory, which
``solitaire-kiosk-sync.path`` turns into a pass of the sync unit; off systemd (a desktop,
the tests) it starts ``kiosk sync`` as a child process. Either way the pass runs in its
own process and the screen never waits for it: it looks at the pass's status file once a
second (:class:`SyncWatch`) and shows the outcome when the file changes.

An error is shown by its kind (``Status.last_error_kind``: :data:`ADVICE`), as a sentence
in the operator's language that says what to do; the pass's own line, the server's words,
stays in the journal. The page is drawn by :mod:`kiosk.screens.operator.status_fleet`.
"""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import time
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from kiosk.fleet import state

log = logging.getLogger("kiosk.fleet")

#: the file "Sync now" leaves for solitaire-kiosk-sync.path (the pass removes it)
REQUEST_NAME = "fleet-sync.request"
#: how long "Sync now" follows a pass: the sync unit's TimeoutStartSec, and a minute
WATCH_SECONDS = 16 * 60.0


def _(msgid: str) -> str:
    """Marks a msgid for tools/messages.py; the Status page translates it."""
    return msgid


#: what the operator can do about each kind of error (kiosk/fleet/errors.py names the
#: kinds); ``{now}`` is the kiosk's clock
ADVICE: dict[str, str] = {
    "no-network": _("The kiosk cannot reach the central server. Check the network cable or "
                    "Wi-Fi; if they work, the server may be down: tell the office."),
    "tls-untrusted": _("The central server's certificate is not the one this kiosk trusts "
                       "(a wrong certificate file or server name). Tell the office."),
    "tls-clock": _("The kiosk's clock says {now}, and the server's certificate is not valid "
                   "at that time. If the clock is wrong, check the network: the kiosk sets "
                   "its clock from it. If the clock is right, tell the office."),
    "auth": _("The central server refused this kiosk's password. Tell the office: it can "
              "give the kiosk a new one."),
    "retired": _("The office has taken this kiosk out of the fleet. If that is a mistake, "
                 "ask the office to add it again."),
    "schema-old": _("The central database must be updated by the office (`kiosk fleet "
                    "init`)."),
    "schema-new": _("This kiosk's software is older than the central database: update the "
                    "kiosk's software."),
    "config": _("This kiosk's fleet settings cannot be used (the [fleet] section of its "
                "configuration, or its password or certificate file). Check them or tell "
                "the office."),
    "server": _("The central server reported a problem (for example a full disk). Tell the "
                "office if it lasts."),
}
#: an error of a kind this software does not know (or from before kinds were recorded)
ADVICE_UNKNOWN = _("The reason is in the kiosk's system journal (solitaire-kiosk-sync). "
                   "Tell the office if it lasts.")
#: said after every error: nothing is lost
KEPT = _("Plays stay on this kiosk and are sent once the sync works again.")


@dataclass(frozen=True)
class FleetStatus:
    last_ok: str | None
    last_error: str | None
    waiting: int | None      # None: the log cannot be read now
    last_error_kind: str | None = None
    last_attempt: str | None = None
    sent_plays: int = 0
    set_aside: int = 0


def _count(value: Any) -> int:
    """A count from the status file, which another process wrote: 0 when it is not one."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def read_status(cfg: Any) -> FleetStatus:
    """What the Status page shows; reads the log read-only, never raises."""
    from kiosk.records.playlog import open_readonly

    data_dir = cfg.existing_db_path().parent
    status = state.load_status(data_dir)
    waiting: int | None = None
    try:
        conn = open_readonly(cfg.existing_db_path())
        try:
            waiting = state.waiting_rows(conn, state.load_cursor(data_dir))
        finally:
            conn.close()
    except Exception as err:  # noqa: BLE001 - a status line, not a failure
        log.warning("cannot count the rows waiting for the fleet: %s", err)
    return FleetStatus(_text(status.last_ok), _text(status.last_error), waiting,
                       _text(status.last_error_kind), _text(status.last_attempt),
                       _count(status.sent_plays), _count(status.set_aside))


def advice(kind: str | None) -> str:
    """The msgid that tells the operator what to do about an error of ``kind``."""
    return ADVICE.get(kind or "", ADVICE_UNKNOWN)


def request_sync(cfg: Any, *, under_systemd: bool | None = None) -> subprocess.Popen | None:
    """Start a pass now, without waiting for it; the child process when it is one."""
    data_dir = cfg.existing_db_path().parent
    if under_systemd is None:
        under_systemd = bool(os.environ.get("INVOCATION_ID"))
    if under_systemd:
        (data_dir / REQUEST_NAME).write_text("sync now\n")
        return None
    args = [sys.executable, "-m", "kiosk", "sync"]
    if cfg.path is not None:
        args += ["--config", str(cfg.path)]
    return subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)


def clear_request(data_dir: Path) -> None:
    try:
        (data_dir / REQUEST_NAME).unlink()
    except OSError:
        pass


def when(iso_text: str) -> str:
    """A pass's UTC time in the kiosk's local time, to the minute."""
    try:
        t = datetime.fromisoformat(iso_text.replace("Z", "+00:00"))
    except ValueError:
        return iso_text
    return t.astimezone().strftime("%Y-%m-%d %H:%M")


def now_text() -> str:
    """The kiosk's clock, as :func:`when` writes a time."""
    return datetime.now().astimezone().strftime("%Y-%m-%d %H:%M")


def _stamp(data_dir: Path) -> tuple[int, int] | None:
    """Which status file is there: a pass replaces it (a new inode) when it ends."""
    try:
        st = (data_dir / state.STATUS_NAME).stat()
    except OSError:
        return None
    return st.st_ino, st.st_mtime_ns


class SyncWatch:
    """A pass the operator asked for, followed through the pass's status file: the pass
    writes it once, when it ends (a pass that found another one running leaves it to that
    one, which writes it when it ends)."""

    RUNNING, DONE, NO_RESULT, TIMEOUT = "running", "done", "no result", "timeout"

    def __init__(self, data_dir: Path, child: subprocess.Popen | None,
                 clock: Any = time.monotonic) -> None:
        self.data_dir = data_dir
        self.child = child
        self.clock = clock
        self.started = clock()
        self.before = _stamp(data_dir)
        self._ended_at: float | None = None

    def check(self) -> str:
        """:attr:`RUNNING`, :attr:`DONE` (the status file says how it went),
        :attr:`NO_RESULT` (the child ended without writing it) or :attr:`TIMEOUT`."""
        if _stamp(self.data_dir) != self.before:
            return self.DONE
        now = self.clock()
        if self.child is not None and self.child.poll() is not None:
            # its last write may land just after it ends: one more look before giving up
            if self._ended_at is None:
                self._ended_at = now
            elif now - self._ended_at >= 1.0:
                return self.NO_RESULT
        if now - self.started > WATCH_SECONDS:
            return self.TIMEOUT
        return self.RUNNING
