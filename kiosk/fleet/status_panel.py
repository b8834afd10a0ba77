"""The fleet's lines on the operator menu's Status page: the last sync, the rows waiting,
the last error, and a "Sync now" button.

The kiosk itself never reaches the network (its unit has ``IPAddressDeny=any``): on the
Pi "Sync now" leaves a request file in the data directory, which
``solitaire-kiosk-sync.path`` turns into a pass of the sync unit; off systemd (a desktop,
the tests) it starts ``kiosk sync`` as a child process. Either way the pass runs in its
own process and the screen never waits for it.
"""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from kiosk.fleet import state

log = logging.getLogger("kiosk.fleet")

#: the file "Sync now" leaves for solitaire-kiosk-sync.path (the pass removes it)
REQUEST_NAME = "fleet-sync.request"


@dataclass(frozen=True)
class FleetStatus:
    last_ok: str | None
    last_error: str | None
    waiting: int | None      # None: the log cannot be read now


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
    return FleetStatus(status.last_ok, status.last_error, waiting)


def request_sync(cfg: Any, *, under_systemd: bool | None = None) -> None:
    """Start a pass now, without waiting for it."""
    data_dir = cfg.existing_db_path().parent
    if under_systemd is None:
        under_systemd = bool(os.environ.get("INVOCATION_ID"))
    if under_systemd:
        (data_dir / REQUEST_NAME).write_text("sync now\n")
        return
    args = [sys.executable, "-m", "kiosk", "sync"]
    if cfg.path is not None:
        args += ["--config", str(cfg.path)]
    subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                     stderr=subprocess.DEVNULL, start_new_session=True)


def clear_request(data_dir: Path) -> None:
    try:
        (data_dir / REQUEST_NAME).unlink()
    except OSError:
        pass


def _when(iso_text: str) -> str:
    """The pass's UTC time in the kiosk's local time, to the minute."""
    try:
        t = datetime.fromisoformat(iso_text.replace("Z", "+00:00"))
    except ValueError:
        return iso_text
    return t.astimezone().strftime("%Y-%m-%d %H:%M")


def add_to(page: Any, col: Any, u: float, ok_color: Any, warn_color: Any) -> None:
    """The fleet's lines and button, added to the Status page's column ``col`` (the page's
    own text and button helpers keep the menu's look)."""
    app = page.app
    cfg = app.cfg
    if getattr(cfg, "fleet", None) is None:
        return
    tr = app.tr
    st = read_status(cfg)
    col.add_widget(page.text(tr("Fleet sync"), u, size=15, color=(1, 1, 1, 0.6),
                             bold=True))
    last = tr("Last sync: {when}", when=_when(st.last_ok)) if st.last_ok else \
        tr("Last sync: never")
    col.add_widget(page.text(last, u, color=ok_color if st.last_ok else warn_color))
    if st.waiting is not None:
        col.add_widget(page.text(tr("Rows waiting: {n}", n=st.waiting), u))
    if st.last_error:
        col.add_widget(page.text(tr("Last error: {error}", error=st.last_error), u,
                                 size=15, color=warn_color))

    def sync_now() -> None:
        # the button itself answers: the page keeps no empty line for a message
        try:
            request_sync(cfg)
        except OSError as err:
            log.error("Sync now: %s", err)
            button.text = tr("The sync could not be started.")
            return
        button.text = tr("Sync started.")

    button = page.button(tr("Sync now"), u, sync_now)
    col.add_widget(button)
    page.widgets["fleet_sync_now"] = button
