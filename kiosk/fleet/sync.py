"""One pass of ``kiosk sync``: send the play log rows the central database has not
confirmed, oldest first, in batches, each committed before the cursor moves.

Delivery is at least once (a pass killed after the server's commit and before the cursor
was written sends that batch again); the upsert on the central keys makes it exactly once
in effect. Plays are the only rows that change after they are written: one sent while
open (``result`` NULL) stays in the cursor's ``open`` list and is sent again, with its late
moves, hands and match, until it has ended (finished or marked ``interrupted``).

The pass never touches the game: it runs in its own process, reads the play log through
the read-only connection the export uses (WAL: the kiosk writes on meanwhile), one short
read transaction per batch so the log's checkpoints are not held back, and it waits on a
busy file rather than failing. Memory is bounded by streaming: rows go from the SQLite
cursor straight into PostgreSQL's COPY, never into a list.
"""

from __future__ import annotations

import fcntl
import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from kiosk.fleet import central, centre_settings, heartbeat, metrics, state
from kiosk.fleet.connect import FleetError, conninfo, describe
from kiosk.records.playlog import HAND_COLUMNS, MATCH_COLUMNS, open_readonly
from kiosk.settings.config import Config

PLAY_COLUMNS = ("id", "kiosk_label", "game", "options", "seed", "demo", "started",
                "started_mono", "ended", "ended_mono", "boot_id", "clock_synced", "duration",
                "result", "moves", "undos", "hints", "score", "cards_left", "touches",
                "button_presses", "app_version", "hidden_seed")
#: the same columns as the local table names them (the local ``kiosk`` is the label)
LOCAL_PLAY_COLUMNS = tuple("kiosk" if c == "kiosk_label" else c for c in PLAY_COLUMNS)
MOVE_COLUMNS = ("play_id", "seq", "move", "t", "source")
HAND_ROW = ("play_id", *HAND_COLUMNS)
MATCH_ROW = ("play_id", *MATCH_COLUMNS)
EVENT_COLUMNS = ("id", "at", "mono", "boot_id", "clock_synced", "kind", "detail",
                 "app_version")
#: central table -> (its columns besides ``kiosk``, its key besides ``kiosk``)
TABLES: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "plays": (PLAY_COLUMNS, ("id",)),
    "moves": (MOVE_COLUMNS, ("play_id", "seq")),
    "hands": (HAND_ROW, ("play_id", "seq")),
    "matches": (MATCH_ROW, ("play_id",)),
    "events": (EVENT_COLUMNS, ("id",)),
}
EVENT_BATCH = 5000
#: rows that never change once the kiosk wrote them: a second copy is simply dropped
IMMUTABLE = {"moves", "hands", "matches", "events"}
#: text columns, read through replace(): PostgreSQL's text cannot hold NUL, SQLite's can
TEXT_COLUMNS = {"kiosk", "game", "options", "hidden_seed", "started", "ended", "boot_id", "result",
                "app_version", "move", "source", "kind", "winner", "level",
                "computer_version", "detail", "at"}


def _select(columns: tuple[str, ...]) -> str:
    return ", ".join(f"replace({c}, char(0), char(65533))" if c in TEXT_COLUMNS else c
                     for c in columns)


@dataclass
class PassResult:
    plays: int = 0          # play rows sent (new ones and open ones again)
    moves: int = 0
    events: int = 0
    batches: int = 0
    skipped: str = ""       # why nothing was attempted (another pass running ...)
    settings: centre_settings.SettingsState | None = None  # None: the centre not reached


@contextmanager
def _pass_lock(data_dir: Path) -> Iterator[bool]:
    """One pass per kiosk at a time: a second one leaves at once (the timer runs it again
    soon); the kernel frees the lock when a pass dies, SIGKILL included."""
    fd = os.open(data_dir / state.LOCK_NAME, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            yield False
            return
        yield True
    finally:
        os.close(fd)


class _Sender:
    def __init__(self, cfg: Config, log_path: Path, data_dir: Path) -> None:
        self.cfg, self.log_path, self.data_dir = cfg, log_path, data_dir
        assert cfg.fleet is not None
        self.batch = cfg.fleet.batch_plays
        self.result = PassResult()
        self.pg: Any = None
        self.local: sqlite3.Connection | None = None
        self.kiosk = ""
        self.tables: set[str] = set()
        self.play_columns: set[str] = set()

    # ---------------------------------------------------------------- connections
    def connect(self) -> None:
        import psycopg

        try:
            self.pg = psycopg.connect(**conninfo(self.cfg))
        except psycopg.Error as err:
            raise FleetError(describe(err, "cannot connect to the central database: ")) from None
        self.pg.autocommit = False
        central.check_version(self.pg)
        user = self.pg.execute("SELECT current_user::text").fetchone()[0]
        if not user.startswith(central.ROLE_PREFIX):
            raise FleetError(f"fleet.user {user!r} is not a kiosk role "
                             f"({central.ROLE_PREFIX}NAME, made by `kiosk fleet add-kiosk`)")
        self.kiosk = user[len(central.ROLE_PREFIX):]
        for table, (columns, _key) in TABLES.items():
            cols = ", ".join(f"{c} {_type(table, c)}" for c in columns)
            self.pg.execute(f"CREATE TEMP TABLE IF NOT EXISTS stage_{table} ({cols})"
                            " ON COMMIT DELETE ROWS")
        self.pg.commit()

    def take_settings(self) -> centre_settings.SettingsState:
        """Read this kiosk's layers of the centre's settings and apply them when new (one
        short read transaction; the apply is the overrides file's atomic replacement)."""
        layers = [(int(v), str(scope), str(text)) for v, scope, text in self.pg.execute(
            "SELECT version, scope, settings FROM fleet_my_settings()")]
        self.pg.commit()
        try:
            return centre_settings.take(self.cfg, self.data_dir, layers)
        except OSError as err:
            st = centre_settings.load_state(self.data_dir)
            st.error = f"cannot write the centre's settings: {err.strerror or err}"
            return st

    def open_local(self) -> None:
        self.local = open_readonly(self.log_path)
        # the kiosk holds the file only for a move's transaction: wait, do not compete
        self.local.execute("PRAGMA busy_timeout=60000")
        self.tables = {r[0] for r in self.local.execute(
            "SELECT name FROM sqlite_master WHERE type='table'")}
        self.play_columns = {r[1] for r in self.local.execute("PRAGMA table_info(plays)")}

    def anything_to_send(self, cursor: state.Cursor) -> bool:
        assert self.local is not None
        return bool(cursor.open) or state.waiting_rows(self.local, cursor) > 0

    def close(self) -> None:
        for conn in (self.local, self.pg):
            if conn is not None:
                try:
                    conn.close()
                except Exception:  # noqa: BLE001 - closing after a failure
                    pass

    # ---------------------------------------------------------------- sending
    def _copy(self, table: str, rows: Iterator[tuple[Any, ...]]) -> int:
        columns = TABLES[table][0]
        n = 0
        with self.pg.cursor().copy(
                f"COPY stage_{table} ({', '.join(columns)}) FROM STDIN") as copy:
            for row in rows:
                copy.write_row(row)
                n += 1
        return n

    def _merge(self, table: str) -> None:
        """Move the staged rows into the central table: a plain INSERT first (a batch of new
        plays is new almost always, and the plain path is the fast one), and when any row is
        there already (a batch sent again after a pass died past the server's commit), the
        upsert, inside a savepoint so the batch's other tables stay staged."""
        import psycopg

        columns, key = TABLES[table]
        names = ", ".join(columns)
        insert = f"INSERT INTO {table} (kiosk, {names}) SELECT %s, {names} FROM stage_{table}"
        if table in IMMUTABLE:
            try:
                with self.pg.transaction():  # a savepoint
                    self.pg.execute(insert, (self.kiosk,))
                return
            except psycopg.errors.UniqueViolation:
                pass
        rest = [c for c in columns if c not in key]
        sets = ", ".join(f"{c} = EXCLUDED.{c}" for c in rest)
        changed = " OR ".join(f"{table}.{c} IS DISTINCT FROM EXCLUDED.{c}" for c in rest)
        action = "NOTHING" if table in IMMUTABLE else f"UPDATE SET {sets} WHERE {changed}"
        self.pg.execute(f"{insert} ON CONFLICT (kiosk, {', '.join(key)}) DO {action}",
                        (self.kiosk,))

    def _rows(self, sql: str, params: tuple[Any, ...] | list[Any]) -> Iterator[tuple[Any, ...]]:
        assert self.local is not None
        yield from self.local.execute(sql, params)

    def _send_plays(self, where: str, params: list[Any],
                    moves_where: str, moves_params: list[Any]) -> dict[int, tuple[Any, int]]:
        """Stage and merge plays matching ``where`` with their moves, hands and match, in
        one read snapshot and one central transaction (committed by the caller). Returns
        id -> (result, last move seq) of the plays sent."""
        sent: dict[int, tuple[Any, int]] = {}
        # a log the kiosk has not migrated yet (a pass right after an upgrade) lacks the
        # newest columns, and so has nothing for them: they go as NULL
        cols = ", ".join(_select((c,)) if c in self.play_columns else "NULL"
                         for c in LOCAL_PLAY_COLUMNS)

        def plays() -> Iterator[tuple[Any, ...]]:
            for row in self._rows(f"SELECT {cols} FROM plays WHERE {where} ORDER BY id",
                                  params):
                sent[row[0]] = (row[13], 0)
                yield row

        self.result.plays += self._copy("plays", plays())
        if not sent:
            return sent
        last_seq: dict[int, int] = {}

        def moves() -> Iterator[tuple[Any, ...]]:
            for row in self._rows(f"SELECT {_select(MOVE_COLUMNS)} FROM moves WHERE "
                                  f"{moves_where} ORDER BY play_id, seq", moves_params):
                last_seq[row[0]] = row[1]
                yield row

        self.result.moves += self._copy("moves", moves())
        # hands and the match are few: those of the plays sent go again whole
        ids = sorted(sent)
        for table, columns in (("hands", HAND_ROW), ("matches", MATCH_ROW)):
            if table in self.tables:
                for start in range(0, len(ids), 500):
                    part = ids[start:start + 500]
                    self._copy(table, self._rows(
                        f"SELECT {_select(columns)} FROM {table} WHERE play_id IN "
                        f"({','.join('?' * len(part))})", part))
        for table in ("plays", "moves", "hands", "matches"):
            self._merge(table)
        return {pid: (res, last_seq.get(pid, 0)) for pid, (res, _) in sent.items()}

    def send_open(self, cursor: state.Cursor) -> None:
        """Plays sent while open, again: their row, and moves after the last one sent."""
        if not cursor.open:
            return
        assert self.local is not None
        ids = sorted(cursor.open)
        for start in range(0, len(ids), self.batch):
            chunk = ids[start:start + self.batch]
            marks = ",".join("?" * len(chunk))
            self.local.execute("BEGIN")
            try:
                # late moves: seq > the last sent, per play (a short OR list per batch)
                sent = self._send_plays(
                    f"id IN ({marks})", chunk,
                    " OR ".join(["(play_id = ? AND seq > ?)"] * len(chunk)),
                    [v for pid in chunk for v in (pid, cursor.open[pid])])
            finally:
                self.local.execute("COMMIT")
            self.pg.commit()
            self.result.batches += 1
            for pid in chunk:
                if pid not in sent:          # gone from the log: nothing left to send
                    del cursor.open[pid]
                elif sent[pid][0] is not None:
                    del cursor.open[pid]     # ended: its final value is central now
                else:
                    cursor.open[pid] = max(cursor.open[pid], sent[pid][1])
            state.save_cursor(self.data_dir, cursor)

    def send_new(self, cursor: state.Cursor) -> None:
        assert self.local is not None
        while True:
            self.local.execute("BEGIN")
            try:
                hi = self.local.execute(
                    "SELECT max(id) FROM (SELECT id FROM plays WHERE id > ? ORDER BY id LIMIT ?)",
                    (cursor.play_id, self.batch)).fetchone()[0]
                if hi is None:
                    return
                sent = self._send_plays("id > ? AND id <= ?", [cursor.play_id, hi],
                                        "play_id > ? AND play_id <= ? AND seq > ?",
                                        [cursor.play_id, hi, 0])
            finally:
                self.local.execute("COMMIT")
            self.pg.commit()
            self.result.batches += 1
            cursor.play_id = hi
            for pid, (result, seq) in sent.items():
                if result is None:
                    cursor.open[pid] = seq
            state.save_cursor(self.data_dir, cursor)

    def send_events(self, cursor: state.Cursor) -> None:
        if "events" not in self.tables:
            return
        assert self.local is not None
        while True:
            self.local.execute("BEGIN")
            try:
                hi = self.local.execute(
                    "SELECT max(id) FROM (SELECT id FROM events WHERE id > ? ORDER BY id LIMIT ?)",
                    (cursor.event_id, EVENT_BATCH)).fetchone()[0]
                if hi is None:
                    return
                self.result.events += self._copy("events", self._rows(
                    f"SELECT {_select(EVENT_COLUMNS)} FROM events WHERE id > ? AND id <= ?",
                    (cursor.event_id, hi)))
                self._merge("events")
            finally:
                self.local.execute("COMMIT")
            self.pg.commit()
            self.result.batches += 1
            cursor.event_id = hi
            state.save_cursor(self.data_dir, cursor)


_NUMERIC = {"seed": "numeric", "id": "bigint", "play_id": "bigint", "seq": "integer"}


def _type(table: str, column: str) -> str:
    """Staging column types: text for text, numbers as the central table has them."""
    if column in _NUMERIC:
        return _NUMERIC[column]
    if column in ("started_mono", "ended_mono", "duration", "t", "mono"):
        return "double precision"
    if column in ("demo", "clock_synced", "moves", "undos", "hints", "cards_left", "touches",
                  "button_presses", "hands") and not (table == "hands" and column == "kind"):
        return "integer"
    if column in ("score", "points", "visitor_score", "computer_score", "visitor_deadwood",
                  "computer_deadwood"):
        return "bigint"
    return "text"


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def run_pass(cfg: Config) -> PassResult:
    """One pass; raises :class:`FleetError` (one line) when it cannot finish. The status
    file records the outcome either way."""
    if cfg.fleet is None:
        raise FleetError("this kiosk has no [fleet] section in its configuration")
    log_path = cfg.existing_db_path()
    data_dir = log_path.parent
    if not data_dir.is_dir():
        raise FleetError(f"the data directory {data_dir} does not exist (the kiosk has "
                         "not run yet)")
    with _pass_lock(data_dir) as mine:
        if not mine:
            return PassResult(skipped="another sync pass of this kiosk is running; this "
                              "one leaves it the work")
        status = state.load_status(data_dir)
        status.last_attempt = _now()
        try:
            try:
                result = _run_locked(cfg, log_path, data_dir)
            except FleetError as err:
                _record(data_dir, status, str(err))
                raise
            except Exception as err:  # noqa: BLE001 - one line, whatever failed
                message = _describe_any(err)
                _record(data_dir, status, message)
                raise FleetError(message) from None
            status.last_ok, status.last_error, status.sent_plays = _now(), None, result.plays
            _save_status_quietly(data_dir, status)
            return result
        finally:
            write_metrics(cfg, data_dir, log_path)


def write_metrics(cfg: Config, data_dir: Path, log_path: Path) -> None:
    """The pass's figures for the node exporter, after the pass (so they say how it
    ended); a directory that cannot be written costs only this file, never the pass."""
    assert cfg.fleet is not None
    waiting = None
    try:
        if log_path.is_file():
            conn = open_readonly(log_path)
            try:
                waiting = state.waiting_rows(conn, state.load_cursor(data_dir))
            finally:
                conn.close()
    except sqlite3.Error:
        pass
    beat = heartbeat.collect(cfg, data_dir, log_path, centre_settings.load_state(data_dir),
                             waiting)
    try:
        metrics.write(metrics.directory_for(cfg.fleet.metrics_dir, data_dir), beat,
                      cfg.fleet.user.removeprefix(central.ROLE_PREFIX))
    except OSError as err:
        import logging

        logging.getLogger("kiosk.fleet").warning(
            "cannot write the metrics for the node exporter in %s: %s",
            metrics.directory_for(cfg.fleet.metrics_dir, data_dir), err.strerror or err)


def _run_locked(cfg: Config, log_path: Path, data_dir: Path) -> PassResult:
    cursor = state.load_cursor(data_dir)
    sender = _Sender(cfg, log_path, data_dir)
    try:
        waiting = None
        if log_path.is_file():
            sender.open_local()
            assert sender.local is not None
            waiting = state.waiting_rows(sender.local, cursor)
        # every pass connects: its heartbeat is how the office knows the kiosk is alive
        sender.connect()
        settings = sender.take_settings()
        beat = heartbeat.collect(cfg, data_dir, log_path, settings, waiting)
        heartbeat.record(sender.pg, sender.kiosk, beat)
        sender.pg.commit()
        sender.result.settings = settings
        if sender.local is None or not sender.anything_to_send(cursor):
            return sender.result  # caught up: the heartbeat was all
        sender.send_open(cursor)
        sender.send_new(cursor)
        sender.send_events(cursor)
        return sender.result
    finally:
        sender.close()


def _describe_any(err: BaseException) -> str:
    try:
        import psycopg
    except ImportError:  # pragma: no cover - psycopg is a dependency
        psycopg = None
    if psycopg is not None and isinstance(err, psycopg.Error):
        return describe(err, "the central database: ")
    if isinstance(err, sqlite3.Error):
        return f"cannot read the play log: {err}"
    if isinstance(err, OSError):
        return f"cannot write the sync cursor in the data directory: {err.strerror or err}"
    return f"{type(err).__name__}: {err}"


def _record(data_dir: Path, status: state.Status, message: str) -> None:
    status.last_error = message
    _save_status_quietly(data_dir, status)


def _save_status_quietly(data_dir: Path, status: state.Status) -> None:
    try:
        state.save_status(data_dir, status)
    except OSError:
        pass  # a full disk: the pass's own line still says what happened
