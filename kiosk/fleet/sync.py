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
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import Any

from kiosk.fleet import central, centre_settings, heartbeat, metrics, state
from kiosk.fleet.connect import FleetError, connect_error, conninfo, describe
from kiosk.fleet.errors import classify
from kiosk.records.playlog import HAND_COLUMNS, MATCH_COLUMNS, log_identity, open_readonly
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
#: the play columns that change when a play ends: the only ones a kiosk may update
#: centrally (central migration 0005)
PLAY_CHANGING = ("moves", "undos", "hints", "touches", "button_presses", "duration",
                 "result", "ended", "ended_mono", "score", "cards_left")
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
    set_aside: int = 0      # rows the centre refused in this pass, set aside
    warnings: list[str] = field(default_factory=list)  # lines that did not stop the pass
    #: the release the centre wants for this kiosk (None: none), once it was asked
    release: Any = None
    release_known: bool = False
    #: the update's state after this pass (kiosk/updates/centre.py), None: not looked at
    update: Any = None


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


#: a row the centre refuses for what it holds (SQLSTATE): a data exception (a seed that is
#: not a number, a value out of range), a NOT NULL or CHECK violation, a row too large
_ROW_FAULTS = ("22", "23502", "23514", "54000")


def _row_fault(err: BaseException) -> bool:
    state_ = getattr(err, "sqlstate", None) or ""
    return any(state_.startswith(code) for code in _ROW_FAULTS)


def _reason(err: BaseException) -> str:
    """The server's words for a refused row, one line: the message and where (the COPY's
    column names the value)."""
    diag = getattr(err, "diag", None)
    primary = getattr(diag, "message_primary", None) or str(err)
    context = getattr(diag, "context", None) or ""
    where = ""
    if "column " in context:
        where = "column " + context.split("column ", 1)[1].split(":", 1)[0].strip() + ": "
    return " ".join((where + primary).split())[:300]


class _Sender:
    def __init__(self, cfg: Config, log_path: Path, data_dir: Path) -> None:
        self.cfg, self.log_path, self.data_dir = cfg, log_path, data_dir
        assert cfg.fleet is not None
        self.batch = cfg.fleet.batch_plays
        self.result = PassResult()
        self.pg: Any = None
        self.local: sqlite3.Connection | None = None
        self.kiosk = ""
        #: added to this log's play and event ids (central migration 0007)
        self.base = 0
        self.log_id: str | None = None
        self.tables: set[str] = set()
        self.play_columns: set[str] = set()
        self.staged = False

    # ---------------------------------------------------------------- connections
    def connect(self) -> None:
        import psycopg

        try:
            self.pg = psycopg.connect(**conninfo(self.cfg))
        except psycopg.Error as err:
            raise connect_error(err, self.cfg.fleet,
                                "cannot connect to the central database: ") from None
        except UnicodeError as err:  # a host name no resolver takes (a label too long)
            raise FleetError(f"cannot connect to the central database: fleet.server is not "
                             f"a host name ({err})", "config", bad_input=True) from None
        self.pg.autocommit = False
        central.check_version(self.pg)
        name = self.pg.execute("SELECT fleet_kiosk_name()").fetchone()[0]
        self.pg.commit()
        if name is None:
            assert self.cfg.fleet is not None
            raise FleetError(f"fleet.user {self.cfg.fleet.user!r} is not a kiosk of this fleet "
                             "(retired, or never added): ask the office (`kiosk fleet "
                             "add-kiosk NAME` prints the [fleet] section)", "retired")
        self.kiosk = str(name)

    def register_log(self, cursor: state.Cursor, continuing: bool) -> None:
        """This log's ordinal at the centre, hence the base of its central ids."""
        ordinal = self.pg.execute("SELECT fleet_log_ordinal(%s, %s)",
                                  (self.log_id, continuing)).fetchone()[0]
        self.pg.commit()
        self.base = int(ordinal) * central.LOG_STRIDE

    def stage(self) -> None:
        """The staging tables, made only when there is something to send: an idle pass
        leaves the server's catalogue alone (issue 32: 1,420 pg_attribute rows churned in
        10 idle passes before)."""
        if self.staged:
            return
        for table, (columns, _key) in TABLES.items():
            cols = ", ".join(f"{c} {_type(table, c)}" for c in columns)
            self.pg.execute(f"CREATE TEMP TABLE IF NOT EXISTS stage_{table} ({cols})"
                            " ON COMMIT DELETE ROWS")
        self.pg.commit()
        self.staged = True

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

    def take_release(self) -> None:
        """The release the centre wants for this kiosk (fleet_my_release(), central
        migration 0011), read now, fetched after the play log was sent and the connection
        closed. A server that cannot say costs this pass its download, nothing else."""
        from kiosk.updates.centre import Release

        def read() -> None:
            row = self.pg.execute("SELECT id, version, url, size, sha256, scope, halted"
                                  " FROM fleet_my_release()").fetchone()
            self.result.release = Release(
                int(row[0]), str(row[1]), str(row[2]), int(row[3]), str(row[4]),
                str(row[5]), bool(row[6])) if row else None
            self.result.release_known = True

        self._alone(read, "the centre's release was not read: ")

    def send_heartbeat(self, beat: heartbeat.Heartbeat) -> None:
        """Its own transaction: a heartbeat the server refuses costs the heartbeat, never
        the rows (they are what the kiosk cannot send again once pruned)."""
        self._alone(lambda: heartbeat.record(self.pg, beat), "the heartbeat was not recorded: ")

    def _alone(self, work: Any, what: str) -> None:
        """``work`` in a transaction of its own that may fail alone: a server that refuses
        it costs it and a warning line; a lost connection still ends the pass."""
        import psycopg

        try:
            work()
            self.pg.commit()
        except psycopg.Error as err:
            self.pg.rollback()
            if self.pg.closed or self.pg.broken:
                raise
            self.result.warnings.append(describe(err, what))

    def open_local(self) -> None:
        self.local = open_readonly(self.log_path)
        # the kiosk holds the file only for a move's transaction: wait, do not compete
        self.local.execute("PRAGMA busy_timeout=60000")
        self.tables = {r[0] for r in self.local.execute(
            "SELECT name FROM sqlite_master WHERE type='table'")}
        self.play_columns = {r[1] for r in self.local.execute("PRAGMA table_info(plays)")}
        self.log_id = log_identity(self.local)

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
        upsert, inside a savepoint so the batch's other tables stay staged. Ids go with this
        log's base added (0 for a kiosk's first log)."""
        import psycopg

        columns, key = TABLES[table]
        names = ", ".join(columns)
        values = ", ".join(f"{c} + %(base)s" if c in ("id", "play_id") else c
                           for c in columns)
        insert = (f"INSERT INTO {table} (kiosk, {names}) SELECT %(kiosk)s, {values} "
                  f"FROM stage_{table}")
        params = {"kiosk": self.kiosk, "base": self.base}
        if table in IMMUTABLE:
            try:
                with self.pg.transaction():  # a savepoint
                    self.pg.execute(insert, params)
                return
            except psycopg.errors.UniqueViolation:
                pass
        if table in IMMUTABLE:
            # no conflict target: naming one needs SELECT, which a kiosk has only on plays
            self.pg.execute(f"{insert} ON CONFLICT DO NOTHING", params)
            return
        sets = ", ".join(f"{c} = EXCLUDED.{c}" for c in PLAY_CHANGING)
        changed = " OR ".join(f"{table}.{c} IS DISTINCT FROM EXCLUDED.{c}"
                              for c in PLAY_CHANGING)
        self.pg.execute(f"{insert} ON CONFLICT (kiosk, {', '.join(key)}) DO UPDATE SET {sets}"
                        f" WHERE {changed}", params)

    def _rows(self, sql: str, params: tuple[Any, ...] | list[Any]) -> Iterator[tuple[Any, ...]]:
        assert self.local is not None
        yield from self.local.execute(sql, params)

    def _send_plays(self, where: str, params: list[Any],
                    moves_where: str, moves_params: list[Any]) -> dict[int, tuple[Any, int]]:
        """Stage and merge plays matching ``where`` with their moves, hands and match, in
        one read snapshot and one central transaction (committed by the caller). Returns
        id -> (result, last move seq) of the plays sent."""
        self.stage()
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
        assert self.local is not None
        n_moves = self._copy("moves", self._rows(
            f"SELECT {_select(MOVE_COLUMNS)} FROM moves WHERE {moves_where}", moves_params))
        self.result.moves += n_moves
        # the last move sent of each play still open (few: the one being played), by a
        # query rather than a look at each of the moves
        still_open = [pid for pid, (res, _) in sent.items() if res is None]
        last_seq: dict[int, int] = {}
        for start in range(0, len(still_open), 500):
            part = still_open[start:start + 500]
            last_seq.update(self.local.execute(
                f"SELECT play_id, max(seq) FROM moves WHERE ({moves_where}) AND play_id IN "
                f"({','.join('?' * len(part))}) GROUP BY play_id", [*moves_params, *part]))
        staged = ["plays"] + (["moves"] if n_moves else [])
        # hands and the match are few: those of the plays sent go again whole
        ids = sorted(sent)
        for table, columns in (("hands", HAND_ROW), ("matches", MATCH_ROW)):
            if table not in self.tables:
                continue
            for start in range(0, len(ids), 500):
                part = ids[start:start + 500]
                marks = ",".join("?" * len(part))
                # most plays have none: no COPY and no merge for nothing
                if self.local.execute(f"SELECT 1 FROM {table} WHERE play_id IN ({marks})"
                                      " LIMIT 1", part).fetchone():
                    self._copy(table, self._rows(f"SELECT {_select(columns)} FROM {table} "
                                                 f"WHERE play_id IN ({marks})", part))
                    if table not in staged:
                        staged.append(table)
        for table in staged:
            self._merge(table)
        return {pid: (res, last_seq.get(pid, 0)) for pid, (res, _) in sent.items()}

    def _send_play_list(self, ids: list[int], after: dict[int, int]
                        ) -> dict[int, tuple[Any, int]]:
        """These plays, with their moves after ``after[id]`` (0: all), committed."""
        marks = ",".join("?" * len(ids))
        if any(after.get(pid, 0) for pid in ids):
            # late moves: seq > the last sent, per play (a short OR list per batch)
            moves_where = " OR ".join(["(play_id = ? AND seq > ?)"] * len(ids))
            moves_params: list[Any] = [v for pid in ids for v in (pid, after.get(pid, 0))]
        else:
            moves_where, moves_params = f"play_id IN ({marks})", list(ids)
        sent = self._send_plays(f"id IN ({marks})", list(ids), moves_where, moves_params)
        self.pg.commit()
        return sent

    def _isolate(self, table: str, ids: list[int], err: BaseException, send: Any) -> Any:
        """A batch the centre refused for a row's content: send it in halves, down to the
        rows it refuses alone, and set those aside. When it takes none of the batch, the
        fault is the centre's, not a row's: the pass fails and nothing is set aside."""
        import psycopg

        got: dict[int, Any] = {}
        refused: list[tuple[int, str]] = []

        def attempt(part: list[int], why: BaseException) -> None:
            if len(part) == 1:
                refused.append((part[0], _reason(why)))
                return
            mid = len(part) // 2
            for half in (part[:mid], part[mid:]):
                try:
                    got.update(send(half))
                except psycopg.Error as again:
                    self.pg.rollback()
                    if not _row_fault(again):
                        raise
                    attempt(half, again)

        attempt(ids, err)
        if not got:
            raise FleetError(describe(err, "the central database refuses every row of the "
                                      "batch: "), "server")
        self._set_aside(table, refused)
        return got

    def _plays_batch(self, ids: list[int], after: dict[int, int], send: Any
                     ) -> dict[int, tuple[Any, int]]:
        import psycopg

        try:
            sent = send()
            self.pg.commit()
            return sent
        except psycopg.Error as err:
            self.pg.rollback()
            if not _row_fault(err):
                raise
            return self._isolate("plays", ids, err,
                                 lambda part: self._send_play_list(part, after))

    def send_open(self, cursor: state.Cursor) -> None:
        """Plays sent while open, again: their row, and moves after the last one sent."""
        if not cursor.open:
            return
        assert self.local is not None
        ids = sorted(cursor.open)
        for start in range(0, len(ids), self.batch):
            chunk = ids[start:start + self.batch]
            self.local.execute("BEGIN")
            try:
                after = {pid: cursor.open[pid] for pid in chunk}
                sent = self._plays_batch(chunk, after, partial(self._send_play_list, chunk,
                                                               after))
            finally:
                self.local.execute("COMMIT")
            self.result.batches += 1
            for pid in chunk:
                if pid not in sent:          # gone from the log, or set aside
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
                lo = cursor.play_id
                hi = self.local.execute(
                    "SELECT max(id) FROM (SELECT id FROM plays WHERE id > ? ORDER BY id LIMIT ?)",
                    (lo, self.batch)).fetchone()[0]
                if hi is None:
                    return
                ids = [r[0] for r in self.local.execute(
                    "SELECT id FROM plays WHERE id > ? AND id <= ? ORDER BY id", (lo, hi))]
                sent = self._plays_batch(ids, {}, partial(
                    self._send_plays, "id > ? AND id <= ?", [lo, hi],
                    "play_id > ? AND play_id <= ? AND seq > ?", [lo, hi, 0]))
            finally:
                self.local.execute("COMMIT")
            self.result.batches += 1
            cursor.play_id = hi
            for pid, (result, seq) in sent.items():
                if result is None:
                    cursor.open[pid] = seq
            state.save_cursor(self.data_dir, cursor)

    def _send_event_rows(self, where: str, params: list[Any]) -> int:
        self.stage()
        n = self._copy("events", self._rows(
            f"SELECT {_select(EVENT_COLUMNS)} FROM events WHERE {where}", params))
        self._merge("events")
        self.pg.commit()
        return n

    def send_events(self, cursor: state.Cursor) -> None:
        import psycopg

        if "events" not in self.tables:
            return
        assert self.local is not None
        while True:
            self.local.execute("BEGIN")
            try:
                lo = cursor.event_id
                hi = self.local.execute(
                    "SELECT max(id) FROM (SELECT id FROM events WHERE id > ? ORDER BY id LIMIT ?)",
                    (lo, EVENT_BATCH)).fetchone()[0]
                if hi is None:
                    return
                try:
                    self.result.events += self._send_event_rows("id > ? AND id <= ?", [lo, hi])
                except psycopg.Error as err:
                    self.pg.rollback()
                    if not _row_fault(err):
                        raise
                    ids = [r[0] for r in self.local.execute(
                        "SELECT id FROM events WHERE id > ? AND id <= ? ORDER BY id", (lo, hi))]

                    def part(chunk: list[int]) -> dict[int, Any]:
                        n = self._send_event_rows(f"id IN ({','.join('?' * len(chunk))})",
                                                  list(chunk))
                        self.result.events += n
                        return dict.fromkeys(chunk, True)

                    self._isolate("events", ids, err, part)
            finally:
                self.local.execute("COMMIT")
            self.result.batches += 1
            cursor.event_id = hi
            state.save_cursor(self.data_dir, cursor)

    # ---------------------------------------------------------------- set aside
    def _set_aside(self, table: str, refused: list[tuple[int, str]]) -> None:
        """Record the refused rows in the data directory (kept for a person; never sent
        again), then tell the centre with an event each."""
        if not refused:
            return
        rows = state.load_set_aside(self.data_dir)
        mine = sum(1 for r in rows if r.log_id == self.log_id)
        now = _now()
        for k, (row_id, reason) in enumerate(refused, start=mine + 1):
            rows.append(state.SetAside(table, row_id, self.log_id, reason, now,
                                       -(self.base + k)))
            import logging

            logging.getLogger("kiosk.fleet").warning(
                "fleet: the centre refused %s row %s; set aside (%s): %s", table, row_id,
                state.SET_ASIDE_NAME, reason)
        state.save_set_aside(self.data_dir, rows)
        self.result.set_aside += len(refused)
        self.send_set_aside_events()

    def send_set_aside_events(self) -> None:
        """Each set-aside row as an event ``sync_set_aside`` with its reason (its id is
        negative: it is the pass's, not the log's); sent once, again if a pass failed."""
        import json

        rows = state.load_set_aside(self.data_dir)
        todo = [r for r in rows if not r.sent]
        if not todo:
            return
        from kiosk import __version__

        for r in todo:
            detail = json.dumps({"table": r.table, "id": r.id, "log_id": r.log_id,
                                 "reason": r.reason}, sort_keys=True)
            self.pg.execute(
                "INSERT INTO events (kiosk, id, at, kind, detail, app_version) VALUES"
                " (%s, %s, %s, 'sync_set_aside', %s, %s) ON CONFLICT DO NOTHING",
                (self.kiosk, r.event_id, r.at, detail, __version__))
            r.sent = True
        self.pg.commit()
        state.save_set_aside(self.data_dir, rows)


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
        raise FleetError("this kiosk has no [fleet] section in its configuration", "config")
    log_path = cfg.existing_db_path()
    data_dir = log_path.parent
    if not data_dir.is_dir():
        raise FleetError(f"the data directory {data_dir} does not exist (the kiosk has "
                         "not run yet)", "config")
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
                _record(data_dir, status, str(err), err.kind)
                raise
            except Exception as err:  # noqa: BLE001 - one line, whatever failed
                kind, message = _describe_any(err)
                _record(data_dir, status, message, kind)
                raise FleetError(message, kind) from None
            status.last_ok, status.last_error, status.sent_plays = _now(), None, result.plays
            status.last_error_kind = None
            status.set_aside = len(state.load_set_aside(data_dir))
            _save_status_quietly(data_dir, status)
            take_update(cfg, data_dir, result)
            return result
        finally:
            write_metrics(cfg, data_dir, log_path)


def take_update(cfg: Config, data_dir: Path, result: PassResult) -> None:
    """The centre's release, after the play log went and the connection closed: at most
    ``[updates] download_minutes`` of downloading, under this pass's lock (so one download
    at a time), then the handover to the root unit (kiosk/updates/centre.py). Whatever
    happens here is a line in the result and the heartbeat, never a failed pass."""
    if not result.release_known:
        return
    from kiosk.updates import centre

    updates = cfg.updates
    budget = centre.Budget(seconds=updates.download_minutes * 60,
                           keep_free=int(updates.keep_free_mb * 1024 * 1024),
                           ca_file=updates.ca_file)
    try:
        result.update = centre.step(data_dir, result.release, budget,
                                    running=centre.running_version())
    except Exception as err:  # noqa: BLE001 - the play log went; this costs the update only
        result.warnings.append(f"the update from the centre: {type(err).__name__}: {err}")


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
    name = state.load_cursor(data_dir).kiosk or cfg.fleet.user
    try:
        metrics.write(metrics.directory_for(cfg.fleet.metrics_dir, data_dir), beat, name)
    except OSError as err:
        import logging

        logging.getLogger("kiosk.fleet").warning(
            "cannot write the metrics for the node exporter in %s: %s",
            metrics.directory_for(cfg.fleet.metrics_dir, data_dir), err.strerror or err)


def _bind_cursor(cursor: state.Cursor, log_id: str | None) -> tuple[state.Cursor, bool]:
    """The cursor for the log ``log_id`` and whether the kiosk has sent from it before it
    had an identity. A cursor of another log confirms nothing of this one: its rows are
    all still to send (their central ids will not meet the old log's: the centre gives
    this log its own ordinal)."""
    if cursor.log_id is None:
        continuing = bool(cursor.play_id or cursor.event_id or cursor.open)
        cursor.log_id = log_id
        return cursor, continuing
    if cursor.log_id != log_id:
        return state.Cursor(log_id=log_id, kiosk=cursor.kiosk), False
    return cursor, False


def _run_locked(cfg: Config, log_path: Path, data_dir: Path) -> PassResult:
    cursor = state.load_cursor(data_dir)
    sender = _Sender(cfg, log_path, data_dir)
    try:
        waiting = None
        continuing = False
        if log_path.is_file():
            sender.open_local()
            assert sender.local is not None
            cursor, continuing = _bind_cursor(cursor, sender.log_id)
            waiting = state.waiting_rows(sender.local, cursor)
        # every pass connects: its heartbeat is how the office knows the kiosk is alive
        bound = state.load_cursor(data_dir)
        sender.connect()
        cursor.kiosk = sender.kiosk
        if sender.local is not None:
            sender.register_log(cursor, continuing)
        if cursor != bound:  # a log bound, a new log, the centre's name for the kiosk
            state.save_cursor(data_dir, cursor)
        settings = sender.take_settings()
        sender.result.settings = settings
        from kiosk.updates.centre import follow_now

        follow_now(data_dir)  # a commit or a rollback of the centre's update: said now
        sender.send_heartbeat(heartbeat.collect(cfg, data_dir, log_path, settings, waiting))
        sender.send_set_aside_events()  # those a failed pass could not tell
        sender.take_release()
        if sender.local is None or not sender.anything_to_send(cursor):
            return sender.result  # caught up: the heartbeat was all
        sender.send_open(cursor)
        sender.send_new(cursor)
        sender.send_events(cursor)
        if sender.result.set_aside:  # the office hears of it now, not in five minutes
            sender.send_heartbeat(heartbeat.collect(cfg, data_dir, log_path, settings,
                                                    state.waiting_rows(sender.local, cursor)))
        return sender.result
    finally:
        sender.close()


def _describe_any(err: BaseException) -> tuple[str, str]:
    """(kind, line) for whatever stopped a pass."""
    try:
        import psycopg
    except ImportError:  # pragma: no cover - psycopg is a dependency
        psycopg = None
    if psycopg is not None and isinstance(err, psycopg.Error):
        kind, line = classify(err)
        return kind, "the central database: " + line
    if isinstance(err, sqlite3.Error):
        return "config", f"cannot read the play log: {err}"
    if isinstance(err, OSError):
        return "config", ("cannot write the sync cursor in the data directory: "
                          f"{err.strerror or err}")
    return "server", f"{type(err).__name__}: {err}"


def _record(data_dir: Path, status: state.Status, message: str, kind: str) -> None:
    status.last_error, status.last_error_kind = message, kind
    status.set_aside = len(state.load_set_aside(data_dir))
    _save_status_quietly(data_dir, status)


def _save_status_quietly(data_dir: Path, status: state.Status) -> None:
    try:
        state.save_status(data_dir, status)
    except OSError:
        pass  # a full disk: the pass's own line still says what happened
