"""What ``kiosk sync`` remembers between passes, in two small files of the data directory.

``fleet-cursor.json``: how far the central database has confirmed the play log: the last
play id and event id it committed, and the plays that were still open (``result`` NULL)
when sent, which are sent again until they have ended. It is replaced atomically and only
after the server committed the batch, so a pass killed at any moment sends again at most
one batch (which the upsert absorbs).

The cursor belongs to one play log, named by the log's identity (``log_id``): when the
log is replaced (a damaged file set aside, a new card), a cursor of the old log confirms
nothing of the new one, whose ids start again at 1.

``fleet-status.json``: the last pass's outcome for the operator menu (last success, last
error and its kind, rows set aside). ``fleet-set-aside.json``: the rows the centre
refused, with the reason, kept for a person (docs/fleet.md, "Rows the centre refuses").
The kiosk's own process only reads these files.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from kiosk.platform.atomicfile import write_atomic

CURSOR_NAME = "fleet-cursor.json"
STATUS_NAME = "fleet-status.json"
LOCK_NAME = "fleet-sync.lock"
SET_ASIDE_NAME = "fleet-set-aside.json"


@dataclass
class Cursor:
    #: every play with an id up to this one was committed centrally (open ones: see below)
    play_id: int = 0
    event_id: int = 0
    #: plays sent while still open: id -> the last move seq sent
    open: dict[int, int] = field(default_factory=dict)
    #: the identity of the play log these ids belong to; None: a cursor written before
    #: logs had one (it belongs to the log the kiosk has)
    log_id: str | None = None
    #: the name the centre knows this kiosk by (for the metrics when it cannot be asked)
    kiosk: str | None = None

    def confirmed_through(self) -> int:
        """The highest id such that every play up to it is confirmed at its final value."""
        if self.open:
            return min(self.open) - 1
        return self.play_id


@dataclass
class Status:
    last_ok: str | None = None        # UTC, ISO, the end of the last pass that succeeded
    last_attempt: str | None = None
    last_error: str | None = None     # one line; None after a pass that succeeded
    sent_plays: int = 0               # in the last pass
    last_error_kind: str | None = None  # one of kiosk.fleet.errors.KINDS; None after success
    set_aside: int = 0                # rows the centre refused, set aside so far


def _read_json(path: Path) -> dict[str, Any] | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def load_cursor(data_dir: Path) -> Cursor:
    """The cursor, or a fresh one: a lost or damaged file means sending everything again,
    which costs time but never a row (the upsert keeps one copy)."""
    data = _read_json(data_dir / CURSOR_NAME)
    if data is None:
        return Cursor()
    try:
        log_id = data.get("log_id")
        return Cursor(int(data.get("play_id", 0)), int(data.get("event_id", 0)),
                      {int(k): int(v) for k, v in dict(data.get("open", {})).items()},
                      str(log_id) if log_id is not None else None,
                      str(data["kiosk"]) if data.get("kiosk") else None)
    except (TypeError, ValueError):
        return Cursor()


def save_cursor(data_dir: Path, cursor: Cursor) -> None:
    write_atomic(data_dir / CURSOR_NAME, json.dumps(asdict(cursor), sort_keys=True))


def load_status(data_dir: Path) -> Status:
    data = _read_json(data_dir / STATUS_NAME) or {}
    known = {k: data[k] for k in Status.__dataclass_fields__ if k in data}
    try:
        return Status(**known)
    except TypeError:
        return Status()


def save_status(data_dir: Path, status: Status) -> None:
    write_atomic(data_dir / STATUS_NAME, json.dumps(asdict(status), sort_keys=True))


def waiting_rows(conn: sqlite3.Connection, cursor: Cursor) -> int:
    """Plays and events the central database has not confirmed (for the status page)."""
    plays = conn.execute("SELECT count(*) FROM plays WHERE id > ?",
                         (cursor.play_id,)).fetchone()[0]
    try:
        events = conn.execute("SELECT count(*) FROM events WHERE id > ?",
                              (cursor.event_id,)).fetchone()[0]
    except sqlite3.OperationalError:  # a log from before the events table
        events = 0
    return plays + len(cursor.open) + events


def confirmed_through(data_dir: Path, log_id: str | None = None) -> int | None:
    """For the log's retention: the last play id of the log ``log_id`` confirmed
    centrally; None when this kiosk has never synced (then nothing is confirmed), 0 when
    the cursor is another log's."""
    if not (data_dir / CURSOR_NAME).exists():
        return None
    cursor = load_cursor(data_dir)
    if cursor.log_id is not None and cursor.log_id != log_id:
        return 0
    return cursor.confirmed_through()


@dataclass
class SetAside:
    """A row the centre refused: kept here for a person, and told to the centre as an
    event (``event_id``, negative, so that it never meets a log's own event ids)."""
    table: str           # "plays" (with its moves, hands and match) or "events"
    id: int              # the row's id in the play log
    log_id: str | None
    reason: str          # the server's words, one line
    at: str              # when (UTC)
    event_id: int
    sent: bool = False   # the event reached the centre


def load_set_aside(data_dir: Path) -> list[SetAside]:
    data = _read_json(data_dir / SET_ASIDE_NAME) or {}
    out = []
    for row in data.get("rows", []) if isinstance(data.get("rows"), list) else []:
        try:
            out.append(SetAside(**{k: row[k] for k in SetAside.__dataclass_fields__
                                   if k in row}))
        except TypeError:
            continue
    return out


def save_set_aside(data_dir: Path, rows: list[SetAside]) -> None:
    write_atomic(data_dir / SET_ASIDE_NAME,
                 json.dumps({"rows": [asdict(r) for r in rows]}, indent=1, sort_keys=True))
