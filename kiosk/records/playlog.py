"""The play log: every game played on the kiosk, move by move, in a local SQLite file.

One ``plays`` row per game and one ``moves`` row per move (see ``docs/operations.md`` "Play
log" for the columns). The rules that matter for a box that is unplugged from the wall:

* **Nothing committed is lost.** WAL mode and ``PRAGMA synchronous=FULL``: every move is its
  own transaction, synced to the card before :meth:`PlayLog.move` returns.
* **Crashes leave no open plays.** A play in progress has ``result`` NULL; the next start
  marks such rows ``interrupted`` and fills their move counts from the moves that made it.
* **The log never stops play.** No method of :class:`PlayLog` raises. When the card is full,
  read-only, below the free-space floor, or the file is damaged, the log keeps plays in
  memory, reports :attr:`PlayLog.status` (``degraded`` + a sentence for the operator menu)
  and writes them out when it can again (see :meth:`PlayLog.retry`).
* **A damaged file is kept.** A file that is not a database or fails ``PRAGMA quick_check``
  is renamed ``plays.db.corrupt-<UTC time>`` (with its ``-wal``/``-shm``) and a new log starts.
* **The log never fills the card.** Plays older than ``max_days`` and, beyond ``max_mb``, the
  oldest plays are pruned (with their moves).

A Pi has no real-time clock, so every play stores the UTC wall clock *and* the boot id, the
monotonic clock and whether the clock was synchronised. Order plays by ``id`` (insertion
order), never by wall time, which can jump backwards across reboots.

Time and the system are reached through a :class:`Clock` object, so tests can fake them.
"""

from __future__ import annotations

import json
import logging
import os
import secrets
import shutil
import sqlite3
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from games.engine.reason import Reason
from games.engine.rng import is_hidden
from kiosk.records import stats
from kiosk.records.clock import Clock, SystemClock, iso

log = logging.getLogger("kiosk.playlog")

RESULTS = ("won", "lost", "abandoned", "interrupted")
#: events kept in memory while the file cannot be written (the oldest go first)
MAX_PENDING_EVENTS = 1000
SOURCES = ("touch", "button", "key", "auto", "demo")
#: notations written to ``moves`` that are not moves of the game
UNDO, REDO = "undo", "redo"

# SQLite primary result codes (err.sqlite_errorcode & 0xff)
_BUSY, _LOCKED, _READONLY, _IOERR, _CORRUPT, _FULL, _CANTOPEN, _NOTADB = 5, 6, 8, 10, 11, 13, 14, 26


def _migration_1(db: Any) -> None:
    db.table("plays").create({
        "id": int, "kiosk": str, "game": str, "options": str, "seed": int, "demo": int,
        "started": str, "started_mono": float, "ended": str, "ended_mono": float,
        "boot_id": str, "clock_synced": int, "duration": float, "result": str,
        "moves": int, "undos": int, "hints": int, "score": int, "cards_left": int,
        "touches": int, "button_presses": int, "app_version": str,
    }, pk="id", not_null={"game", "started"}, if_not_exists=True)
    db.table("moves").create({
        "play_id": int, "seq": int, "move": str, "t": float, "source": str,
    }, pk=("play_id", "seq"), foreign_keys=[("play_id", "plays", "id")],
        not_null={"move"}, if_not_exists=True)
    db.execute("CREATE INDEX IF NOT EXISTS plays_started ON plays(started)")
    db.execute("CREATE INDEX IF NOT EXISTS plays_game ON plays(game, started)")
    db.execute("CREATE INDEX IF NOT EXISTS plays_open ON plays(result) WHERE result IS NULL")


def _migration_2(db: Any) -> None:
    """Events that are not plays: the operator keypad's wrong PINs and lock-outs, so the
    operator can see that someone tried (``kiosk operator events``)."""
    db.table("events").create({
        "id": int, "at": str, "mono": float, "boot_id": str, "clock_synced": int,
        "kind": str, "detail": str, "app_version": str,
    }, pk="id", not_null={"at", "kind"}, if_not_exists=True)
    db.execute("CREATE INDEX IF NOT EXISTS events_kind ON events(kind, id)")


def _migration_3(db: Any) -> None:
    """Games against the computer: one ``hands`` row per hand (how it ended, who scored,
    the scores after it) and one ``matches`` row per finished match, each with the
    computer's level and version, so a strength or fairness question can be answered from
    the log and a hand replayed with the same player."""
    db.table("hands").create({
        "play_id": int, "seq": int, "kind": str, "winner": str, "points": int,
        "visitor_score": int, "computer_score": int, "visitor_deadwood": int,
        "computer_deadwood": int, "level": str, "computer_version": str, "detail": str,
    }, pk=("play_id", "seq"), foreign_keys=[("play_id", "plays", "id")],
        not_null={"kind"}, if_not_exists=True)
    db.table("matches").create({
        "play_id": int, "game": str, "winner": str, "visitor_score": int,
        "computer_score": int, "hands": int, "level": str, "computer_version": str,
        "detail": str,
    }, pk="play_id", foreign_keys=[("play_id", "plays", "id")], not_null={"game"},
        if_not_exists=True)


def _migration_4(db: Any) -> None:
    """Hands against the computer are dealt from a hidden seed of 128 secret bits
    (:mod:`games.engine.rng`), more than an SQLite integer holds: it is kept as decimal text in
    ``hidden_seed`` (``seed`` is NULL then), so the log still replays the hand exactly."""
    db.execute("ALTER TABLE plays ADD COLUMN hidden_seed TEXT")


def _migration_5(db: Any) -> None:
    """The log's identity: a random id, made once with the file, which a fleet's central
    database uses to tell this log from the one before it when a kiosk's log is replaced
    (a damaged file set aside, a new card: the new file's ids start again at 1)."""
    db.execute("CREATE TABLE IF NOT EXISTS log_identity (id TEXT NOT NULL, created TEXT)")
    if not db.execute("SELECT 1 FROM log_identity").fetchone():
        db.execute("INSERT INTO log_identity (id, created) VALUES (?, ?)",
                   [secrets.token_hex(16), iso(datetime.now(UTC))])


#: (version, migration) in order; a migration runs once, inside the transaction that records it
MIGRATIONS: list[tuple[int, Callable[[Any], None]]] = [(1, _migration_1), (2, _migration_2),
                                                       (3, _migration_3), (4, _migration_4),
                                                       (5, _migration_5)]
#: the columns of a ``hands`` row and of a ``matches`` row (besides ``play_id``)
HAND_COLUMNS = ("seq", "kind", "winner", "points", "visitor_score", "computer_score",
                "visitor_deadwood", "computer_deadwood", "level", "computer_version", "detail")
MATCH_COLUMNS = ("game", "winner", "visitor_score", "computer_score", "hands", "level",
                 "computer_version", "detail")
SCHEMA_VERSION = MIGRATIONS[-1][0]


class SchemaTooNew(Exception):
    """The file was written by a newer version of the kiosk."""


def migrate(db: Any) -> int:
    """Bring ``db`` (a sqlite_utils Database) to :data:`SCHEMA_VERSION`; returns the version."""
    db.table("schema_version").create({"version": int, "applied": str}, pk="version",
                                      if_not_exists=True)
    current = db.execute("SELECT coalesce(max(version), 0) FROM schema_version").fetchone()[0]
    if current > SCHEMA_VERSION:
        raise SchemaTooNew(f"the log has schema version {current}, this kiosk knows "
                           f"{SCHEMA_VERSION}")
    for version, step in MIGRATIONS:
        if version > current:
            with db.atomic():
                step(db)
                db.table("schema_version").insert(
                    {"version": version, "applied": iso(datetime.now(UTC))})
            current = version
    return current


def log_identity(conn: sqlite3.Connection) -> str | None:
    """The log's identity (migration 5); None for a log an older version made and the
    kiosk has not opened since."""
    try:
        row = conn.execute("SELECT id FROM log_identity LIMIT 1").fetchone()
    except sqlite3.OperationalError:
        return None
    return str(row[0]) if row else None


def open_readonly(path: str | os.PathLike[str]) -> sqlite3.Connection:
    """A connection for readers (export, stats) that never creates or changes the file.

    ``mode=rw`` (not ``ro``) because a reader of a WAL database must be able to use the
    ``-shm`` file; ``query_only`` makes sure nothing is written."""
    uri = "file:" + str(Path(path).absolute()).replace("?", "%3f").replace("#", "%23") + "?mode=rw"
    conn = sqlite3.connect(uri, uri=True, timeout=10, isolation_level=None)
    conn.execute("PRAGMA query_only=1")
    return conn


def read_events(path: str | os.PathLike[str], prefix: str = "",
                limit: int = 50) -> list[dict[str, Any]]:
    """The last ``limit`` events whose kind starts with ``prefix``, oldest first (readers
    only: a log from before the events table has none). Raises sqlite3.Error."""
    conn = open_readonly(path)
    try:
        if not conn.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name='events'"
                            ).fetchone():
            return []
        rows = conn.execute(
            "SELECT id, at, boot_id, clock_synced, kind, detail FROM events"
            " WHERE substr(kind, 1, ?) = ? ORDER BY id DESC LIMIT ?",
            (len(prefix), prefix, limit)).fetchall()
    finally:
        conn.close()
    return [{"id": r[0], "at": r[1], "boot_id": r[2], "clock_synced": bool(r[3]),
             "kind": r[4], "detail": r[5]} for r in reversed(rows)]


# ---------------------------------------------------------------------------- the log
@dataclass(frozen=True)
class LogStatus:
    state: str                 # "ok" or "degraded"
    message: str               # one sentence for the operator menu
    pending_plays: int = 0     # plays (or parts of plays) waiting in memory
    notes: tuple[str, ...] = ()  # things the operator should know (a file set aside ...)
    #: ``message`` as values the operator's screen translates (sentences of the catalogs)
    parts: tuple[Reason | str, ...] = ()

    @property
    def ok(self) -> bool:
        return self.state == "ok"


@dataclass(eq=False)
class Play:
    """A play in memory. Keep the handle :meth:`PlayLog.begin` returns and pass it back."""

    row: dict[str, Any]
    t0: float
    moves: list[tuple[int, str, float, str]] = field(default_factory=list)
    written: int = 0           # how many of ``moves`` are in the database
    db_id: int | None = None   # the row id once written
    dirty: bool = True         # something to write
    finished: bool = False
    hands: list[dict[str, Any]] = field(default_factory=list)  # games against the computer
    hands_written: int = 0
    match: dict[str, Any] | None = None
    match_written: bool = False

    @property
    def id(self) -> int | None:
        return self.db_id

    @property
    def result(self) -> str | None:
        return self.row["result"]


class PlayLog:
    """The play log of one kiosk process. All methods return normally, whatever the disk does.

    >>> import tempfile, os
    >>> log = PlayLog(os.path.join(tempfile.mkdtemp(), "plays.db"), kiosk="doc")
    >>> p = log.begin("klondike", 7, {"draw": 1})
    >>> log.move(p, "T7>T4"); log.finish(p, "abandoned", score=0, cards_left=52)
    >>> log.status.state, p.id
    ('ok', 1)
    """

    def __init__(self, path: str | os.PathLike[str], *, kiosk: str = "", app_version: str = "",
                 clock: Clock | None = None, max_days: int = 0, max_mb: float = 0,
                 min_free_mb: float = 50, retry_interval: float = 30.0, recover: bool = True,
                 prune_interval: float = 3600.0, max_pending_moves: int = 50_000,
                 free_space: Callable[[Path], int] | None = None,
                 confirmed: Callable[[], int | None] | None = None,
                 confirmed_for: Callable[[str | None], int | None] | None = None) -> None:
        if not app_version:
            from kiosk import __version__ as app_version
        self.path = Path(path)
        self.kiosk, self.app_version = kiosk, app_version
        self.clock: Clock = clock or SystemClock()
        self.max_days, self.max_mb, self.min_free_mb = max_days, max_mb, min_free_mb
        self.retry_interval, self.prune_interval = retry_interval, prune_interval
        self.max_pending_moves = max_pending_moves
        self._free_space = free_space or (lambda p: shutil.disk_usage(p).free)
        #: in a fleet: the last play id the central database confirmed (None: none yet);
        #: plays after it are not pruned by age, and pruning them by size is an event
        #: ``confirmed_for``: the same, asked with this log's identity (a cursor of the log
        #: before confirms nothing of this one)
        self._confirmed_for = confirmed_for
        self._confirmed = confirmed
        self.identity: str | None = None
        self._recover = recover
        self._recovered = False
        self._db: Any = None
        self._plays: list[Play] = []
        self._events: list[dict[str, Any]] = []
        self._problem: str | None = None
        self._problem_value: str | Reason = ""
        self._retry_at = 0.0
        self._pruned_at: float | None = None
        self.notes: list[str] = []
        self.interrupted_on_open = 0
        self.lost_plays = 0
        self._try_open()

    @classmethod
    def from_config(cls, cfg: Any, **kwargs: Any) -> PlayLog:
        """A log in the configured data directory with the configured retention."""
        from kiosk import __version__

        if getattr(cfg, "fleet", None) is not None and "confirmed" not in kwargs:
            from kiosk.fleet.state import confirmed_through

            data_dir = cfg.db_path().parent
            kwargs["confirmed_for"] = lambda log_id: confirmed_through(data_dir, log_id)
        return cls(cfg.db_path(), kiosk=cfg.name, app_version=__version__,
                   max_days=cfg.log.max_days, max_mb=cfg.log.max_mb,
                   min_free_mb=cfg.log.min_free_mb, **kwargs)

    # ------------------------------------------------------------------ public API
    @property
    def status(self) -> LogStatus:
        pending = sum(1 for p in self._plays if p.dirty)
        notes = tuple(self.notes)
        if self._problem is None:
            return LogStatus("ok", "The play log is working.", pending, notes,
                             ("The play log is working.",))
        held = (f" {pending} game{'s' if pending != 1 else ''} kept in memory until it can write."
                if pending else " It will try again.")
        lost = (f" {self.lost_plays} game(s) could not be kept." if self.lost_plays else "")
        parts: tuple[Reason | str, ...] = (self._problem_value, Reason(
            "{n} game(s) kept in memory until it can write.", n=pending) if pending
            else "It will try again.")
        if self.lost_plays:
            parts += (Reason("{n} game(s) could not be kept.", n=self.lost_plays),)
        return LogStatus("degraded", self._problem + held + lost, pending, notes, parts)

    def begin(self, game: str, seed: int, options: dict[str, Any] | None = None, *,
              demo: bool = False, t0: float | None = None) -> Play:
        """A new play; its row is written at once (result NULL until it ends).

        ``t0``: the monotonic time the game was dealt, when that was earlier than now."""
        c = self.clock
        play = Play(row={
            "kiosk": self.kiosk, "game": game,
            "seed": None if is_hidden(seed) else seed,
            "hidden_seed": str(seed) if is_hidden(seed) else None,
            "options": json.dumps(options or {}, sort_keys=True, ensure_ascii=False),
            "demo": int(bool(demo)), "started": "", "started_mono": None, "ended": None,
            "ended_mono": None, "boot_id": "", "clock_synced": 0, "duration": None,
            "result": None, "moves": 0, "undos": 0, "hints": 0, "score": None,
            "cards_left": None, "touches": 0, "button_presses": 0,
            "app_version": self.app_version,
        }, t0=0.0)
        try:
            now = c.mono()
            play.t0 = now if t0 is None or t0 > now else t0
            started = datetime.fromtimestamp(c.wall().timestamp() - (now - play.t0), UTC)
            play.row.update(started=iso(started), started_mono=round(play.t0, 3),
                            boot_id=c.boot_id(), clock_synced=int(bool(c.synced())))
        except Exception:  # a faulty clock source must not stop play either
            log.exception("clock source failed")
            play.row["started"] = iso(datetime.now(UTC))
        self._plays.append(play)
        self._write()
        return play

    def move(self, play: Play, move: str, source: str = "touch") -> None:
        """Record a move (its notation) and commit it."""
        self._add(play, move, source)

    def undo(self, play: Play, source: str = "touch", n: int = 1) -> None:
        """Record one undo as a ``moves`` row, so the sequence replays exactly: ``undo``
        takes back one engine move, ``undo:N`` takes back N (a move with the autoplay moves
        it caused)."""
        play.row["undos"] += 1
        self._add(play, UNDO if n == 1 else f"{UNDO}:{n}", source)

    def redo(self, play: Play, source: str = "touch") -> None:
        self._add(play, REDO, source)

    def hand(self, play: Play, record: dict[str, Any]) -> None:
        """Record a finished hand of a game against the computer (:data:`HAND_COLUMNS`;
        ``detail`` may be any JSON-ready value). Written at once, like a move."""
        if play.finished:
            log.error("hand after the end of play %s ignored", play.db_id)
            return
        row = {k: record.get(k) for k in HAND_COLUMNS}
        row["seq"] = len(play.hands) + 1
        row["detail"] = _json_text(record.get("detail"))
        play.hands.append(row)
        play.dirty = True
        self._write()

    def match(self, play: Play, record: dict[str, Any]) -> None:
        """Record the end of a match against the computer (:data:`MATCH_COLUMNS`); a
        second call for the same play is ignored."""
        if play.match is not None or play.finished:
            return
        row = {k: record.get(k) for k in MATCH_COLUMNS}
        row["detail"] = _json_text(record.get("detail"))
        play.match = row
        play.dirty = True
        self._write()

    def seated(self, play: Play, game: Any) -> None:
        """Record what a game against the computer has finished since the last call: the
        table calls this after every move, whoever made it."""
        records = getattr(game, "hand_records", None)
        if records is None:
            return
        for record in records()[len(play.hands):]:
            self.hand(play, record)
        summary = game.match_record()
        if summary is not None:
            self.match(play, summary)

    def count(self, play: Play, *, touches: int = 0, buttons: int = 0, hints: int = 0) -> None:
        """Add to the counters; they are written with the next move or at the end."""
        play.row["touches"] += touches
        play.row["button_presses"] += buttons
        play.row["hints"] += hints

    def finish(self, play: Play, result: str, *, score: int | None = None,
               cards_left: int | None = None) -> None:
        """End a play: ``won``, ``lost``, ``abandoned`` or ``interrupted``. Ending twice is a
        no-op."""
        if play.finished:
            return
        if result not in RESULTS:
            log.error("unknown result %r recorded as abandoned", result)
            result = "abandoned"
        try:
            now = self.clock.mono()
            wall = iso(self.clock.wall())
        except Exception:
            log.exception("clock source failed")
            now, wall = play.t0, iso(datetime.now(UTC))
        play.row.update(result=result, ended=wall, ended_mono=round(now, 3),
                        duration=round(max(0.0, now - play.t0), 3), score=score,
                        cards_left=cards_left)
        play.finished = True
        play.dirty = True
        self._write()
        self._maybe_prune()

    def event(self, kind: str, detail: dict[str, Any] | None = None) -> None:
        """Record something that happened at the kiosk outside a play (``kind`` such as
        ``pin_wrong``; ``detail`` is stored as JSON). Written at once, like a move; kept in
        memory while the file cannot be written."""
        c = self.clock
        row: dict[str, Any] = {"at": "", "mono": None, "boot_id": "", "clock_synced": 0,
                               "kind": str(kind), "app_version": self.app_version,
                               "detail": json.dumps(detail or {}, sort_keys=True,
                                                    ensure_ascii=False, default=str)}
        try:
            row.update(at=iso(c.wall()), mono=round(c.mono(), 3), boot_id=c.boot_id(),
                       clock_synced=int(bool(c.synced())))
        except Exception:
            log.exception("clock source failed")
            row["at"] = iso(datetime.now(UTC))
        self._events.append(row)
        del self._events[:-MAX_PENDING_EVENTS]
        self._write()

    def retry(self) -> bool:
        """Try to write what is waiting now (the app may call this from a timer);
        returns True when the log is ok afterwards."""
        self._retry_at = 0.0
        self._write()
        return self._problem is None

    def close(self) -> None:
        """Write what can be written and close the file (open plays stay open: call
        :meth:`finish` first)."""
        self._write()
        self._disconnect()

    def today_wins(self, now: datetime | None = None) -> int:
        """Wins (not demo) the welcome screen may show; see :func:`kiosk.records.stats.today_wins`."""
        self._write()
        try:
            if self._db is not None:
                return stats.today_wins(self._db.conn, clock=self.clock, now=now)
        except Exception:
            log.exception("today_wins failed")
        return sum(1 for p in self._plays if p.row["result"] == "won" and not p.row["demo"])

    def prune(self) -> int:
        """Apply the retention limits now; returns how many plays were removed."""
        if self._db is None:
            return 0
        try:
            n = self._prune_age() + self._prune_size()
        except Exception as err:  # noqa: BLE001 - never raise into the game
            self._disconnect()
            self._fail(err)
            return 0
        self._pruned_at = self._mono()
        if n:
            log.info("pruned %d old plays from the log", n)
        return n

    # ------------------------------------------------------------------ opening
    def _mono(self) -> float:
        try:
            return self.clock.mono()
        except Exception:
            return time.monotonic()

    def _try_open(self) -> bool:
        try:
            self._open()
        except Exception as err:  # noqa: BLE001 - never raise into the game
            self._disconnect()
            self._fail(err, opening=True)
            return False
        return True

    def _open(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        if not _has_sqlite_header(self.path):
            # before SQLite sees it: closing a connection to such a file deletes its -wal
            self._set_aside("file is not a database")
        try:
            db = self._connect()
        except sqlite3.DatabaseError as err:
            if not _is_corrupt(err):
                raise
            self._set_aside(str(err))
            db = self._connect()
        self._db = db
        if self._recover and not self._recovered:
            self._mark_interrupted()
            self._recovered = True
        if self._problem is not None:
            log.warning("play log is working again")
        self._problem = None
        self._maybe_prune(force=self._pruned_at is None)
        self._min_free_reached()

    def _connect(self) -> Any:
        """Open, check and migrate the file; raises sqlite3 errors."""
        from sqlite_utils import Database

        fresh = not self.path.exists() or self.path.stat().st_size == 0
        conn = sqlite3.connect(str(self.path), timeout=5.0, check_same_thread=False)
        try:
            if fresh:
                conn.execute("PRAGMA auto_vacuum=INCREMENTAL")
            check = conn.execute("PRAGMA quick_check").fetchall()
            if check != [("ok",)]:
                detail = "; ".join(str(r[0]) for r in check[:3])
                raise sqlite3.DatabaseError(f"quick_check failed: {detail}")
            db = Database(conn)
            if db.journal_mode != "wal":
                db.enable_wal()
            conn.execute("PRAGMA synchronous=FULL")
            conn.execute("PRAGMA journal_size_limit=4194304")
            migrate(db)
            self.identity = log_identity(conn)
        except BaseException:
            conn.close()
            raise
        return db

    def _set_aside(self, why: str) -> None:
        """Rename a damaged file (and its -wal/-shm) out of the way; never deletes it."""
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
        target = self.path.with_name(f"{self.path.name}.corrupt-{stamp}")
        k = 1
        while target.exists():
            k += 1
            target = self.path.with_name(f"{self.path.name}.corrupt-{stamp}-{k}")
        for suffix in ("-wal", "-shm", ""):
            src = Path(str(self.path) + suffix)
            if src.exists():
                os.replace(src, Path(str(target) + suffix))
        note = (f"The log file was damaged ({why}); it was set aside as {target.name} "
                "and a new log was started.")
        log.error(note)
        self.notes.append(note)
        # plays of this session that were in the old file must be written again, whole
        for p in self._plays:
            p.db_id, p.written, p.dirty = None, 0, True

    def _mark_interrupted(self) -> None:
        own = [p.db_id for p in self._plays if p.db_id is not None]
        marks = ",".join("?" * len(own))
        db = self._db
        with db.atomic():
            cur = db.execute(f"""
                UPDATE plays SET result = 'interrupted',
                  moves = (SELECT count(*) FROM moves m WHERE m.play_id = plays.id
                           AND m.move != 'redo' AND m.move != 'undo'
                           AND m.move NOT LIKE 'undo:%'),
                  undos = (SELECT count(*) FROM moves m WHERE m.play_id = plays.id
                           AND (m.move = 'undo' OR m.move LIKE 'undo:%')),
                  duration = coalesce((SELECT max(t) FROM moves m
                                       WHERE m.play_id = plays.id), 0)
                WHERE result IS NULL {f"AND id NOT IN ({marks})" if own else ""}""", own)
            self.interrupted_on_open = cur.rowcount
        if cur.rowcount:
            log.warning("marked %d unfinished plays as interrupted", cur.rowcount)

    def _disconnect(self) -> None:
        db, self._db = self._db, None
        if db is not None:
            try:
                db.conn.close()
            except Exception:
                pass

    # ------------------------------------------------------------------ writing
    def _add(self, play: Play, move: str, source: str) -> None:
        if play.finished:
            log.error("move %r after the end of play %s ignored", move, play.db_id)
            return
        if source not in SOURCES:
            source = "touch"
        t = round(max(0.0, self._mono() - play.t0), 3)
        play.moves.append((len(play.moves) + 1, str(move), t, source))
        if not _is_undo(move) and move != REDO:
            play.row["moves"] += 1
        play.row["duration"] = t
        play.dirty = True
        self._write()

    def _write(self) -> None:
        """Write every play that has something new, oldest first; on a failure keep them."""
        for attempt in (1, 2):
            try:
                if self._db is None:
                    if self._mono() < self._retry_at or not self._try_open():
                        break
                if self._min_free_reached():
                    break
                for play in list(self._plays):
                    if play.dirty:
                        self._write_play(play)
                    if play.finished and not play.dirty:
                        self._plays.remove(play)
                if self._events:
                    with self._db.atomic():
                        self._db.table("events").insert_all(self._events)
                    self._events = []
                if self._problem is not None:
                    log.warning("the play log is writing again")
                    self._problem = None
                return
            except Exception as err:  # noqa: BLE001 - never raise into the game
                self._disconnect()
                if attempt == 1 and _is_corrupt(err) and self._set_aside_quietly(str(err)):
                    self._retry_at = 0.0
                    continue  # damaged while running: write everything to a new file
                self._fail(err)
                break
        self._trim_memory()

    def _set_aside_quietly(self, why: str) -> bool:
        try:
            self._set_aside(why)
        except OSError as err:
            log.error("could not set the damaged log aside: %s", err)
            return False
        return True

    def _write_play(self, play: Play) -> None:
        db = self._db
        row = play.row
        new = play.moves[play.written:]
        with db.atomic():
            if play.db_id is None:
                play_id = db.table("plays").insert(row).last_pk
            else:
                play_id = play.db_id
                db.execute(
                    "UPDATE plays SET moves=?, undos=?, hints=?, touches=?, button_presses=?,"
                    " duration=?, result=?, ended=?, ended_mono=?, score=?, cards_left=?"
                    " WHERE id=?",
                    [row["moves"], row["undos"], row["hints"], row["touches"],
                     row["button_presses"], row["duration"], row["result"], row["ended"],
                     row["ended_mono"], row["score"], row["cards_left"], play_id])
            if new:
                db.conn.executemany(
                    "INSERT INTO moves (play_id, seq, move, t, source) VALUES (?, ?, ?, ?, ?)",
                    [(play_id, *m) for m in new])
            hands = play.hands[play.hands_written:]
            if hands:
                db.conn.executemany(
                    f"INSERT INTO hands (play_id, {', '.join(HAND_COLUMNS)}) VALUES "
                    f"(?{', ?' * len(HAND_COLUMNS)})",
                    [(play_id, *(h[k] for k in HAND_COLUMNS)) for h in hands])
            if play.match is not None and not play.match_written:
                db.conn.execute(
                    f"INSERT INTO matches (play_id, {', '.join(MATCH_COLUMNS)}) VALUES "
                    f"(?{', ?' * len(MATCH_COLUMNS)})",
                    (play_id, *(play.match[k] for k in MATCH_COLUMNS)))
        play.db_id = play_id
        play.written += len(new)
        play.hands_written += len(hands)
        play.match_written = play.match is not None
        play.dirty = False
        if play.finished:
            play.moves = []  # written for good; free the memory
            play.written = 0
            play.hands, play.hands_written = [], 0

    def _min_free_reached(self) -> bool:
        if self.min_free_mb <= 0:
            return False
        try:
            free = self._free_space(self.path.parent)
        except OSError:
            return False
        if free >= self.min_free_mb * 1_000_000:
            return False
        self._degrade(Reason("The memory card has less than {n} MB free, so the play log is "
                             "paused.", n=format(self.min_free_mb, "g")))
        return True

    def _fail(self, err: BaseException, opening: bool = False) -> None:
        code = getattr(err, "sqlite_errorcode", 0) & 0xFF
        text = str(err)
        if code == _FULL or "disk is full" in text or getattr(err, "errno", 0) == 28:
            sentence = "The memory card is full, so the play log cannot write."
        elif code == _READONLY or "readonly" in text or "read-only" in text.lower() \
                or getattr(err, "errno", 0) == 30 or self._read_only_fs():
            sentence = "The memory card is read-only, so the play log cannot write."
        elif code in (_BUSY, _LOCKED):
            sentence = "The play log is busy (another program holds it)."
        elif isinstance(err, SchemaTooNew):
            sentence = f"The play log was written by a newer kiosk version ({err})."
        elif opening:
            sentence = f"The play log cannot be opened ({text})."
        else:
            sentence = f"The play log cannot write ({text})."
        self._degrade(sentence, err)

    def _read_only_fs(self) -> bool:
        try:
            return bool(os.statvfs(self.path.parent).f_flag & os.ST_RDONLY)
        except OSError:
            return False

    def _degrade(self, value: str | Reason, err: BaseException | None = None) -> None:
        sentence = str(value)
        self._problem_value = value
        if sentence != self._problem:  # say it once, not at every retry
            if err is not None:
                log.error("%s [%s: %s]", sentence, type(err).__name__, err)
            else:
                log.error("%s", sentence)
        self._problem = sentence
        self._retry_at = self._mono() + self.retry_interval

    def _trim_memory(self) -> None:
        """Bound what waits in memory: drop the oldest finished plays first."""
        total = sum(len(p.moves) - p.written for p in self._plays)
        while total > self.max_pending_moves:
            old = next((p for p in self._plays if p.finished), None)
            if old is None:
                break
            total -= len(old.moves) - old.written
            self._plays.remove(old)
            self.lost_plays += 1

    # ------------------------------------------------------------------ retention
    def _maybe_prune(self, force: bool = False) -> None:
        if self._db is None or not (self.max_days or self.max_mb):
            return
        if not force and self._pruned_at is not None and \
                self._mono() - self._pruned_at < self.prune_interval:
            return
        self.prune()

    def _prune_age(self) -> int:
        """Remove plays older than ``max_days``, judged only when the clock is synchronised.

        A play's wall time can only be trusted if its clock was synced, but ids give the true
        order: everything up to the newest *synced* play that is too old is too old as well.
        """
        if not self.max_days or not self.clock.synced():
            return 0
        cutoff = iso(datetime.fromtimestamp(self.clock.wall().timestamp()
                                            - self.max_days * 86_400, UTC))
        last = self._db.execute(
            "SELECT max(id) FROM plays WHERE clock_synced = 1 AND started < ?"
            " AND result IS NOT NULL", [cutoff]).fetchone()[0]
        if last is not None and self._in_fleet:
            last = min(last, self._confirmed_id() or 0, self._newest() - 1)
        if not last:
            return 0
        return self._delete("id <= ? AND result IS NOT NULL", [last])

    @property
    def _in_fleet(self) -> bool:
        return self._confirmed is not None or self._confirmed_for is not None

    def _confirmed_id(self) -> int | None:
        if self._confirmed_for is not None:
            return self._confirmed_for(self.identity)
        return self._confirmed() if self._confirmed is not None else None

    def _newest(self) -> int:
        """The highest play id. In a fleet it is never pruned: ids are SQLite rowids, which
        start again at 1 in an emptied table, and a new play under an id the centre has
        already confirmed would never be sent."""
        return self._db.execute("SELECT coalesce(max(id), 0) FROM plays").fetchone()[0]

    def _used_bytes(self) -> int:
        conn = self._db.conn
        page = conn.execute("PRAGMA page_size").fetchone()[0]
        count = conn.execute("PRAGMA page_count").fetchone()[0]
        free = conn.execute("PRAGMA freelist_count").fetchone()[0]
        return (count - free) * page

    def _prune_size(self) -> int:
        if not self.max_mb:
            return 0
        limit = self.max_mb * 1_000_000
        removed = 0
        confirmed = (self._confirmed_id() or 0) if self._in_fleet else None
        unsent: list[int] = []
        while self._used_bytes() > limit:
            total = self._db.execute(
                "SELECT count(*) FROM plays WHERE result IS NOT NULL").fetchone()[0]
            if not total:
                break
            # a tenth of the plays at a time, so the log settles below the limit
            batch = max(1, total // 10)
            last = self._db.execute(
                "SELECT max(id) FROM (SELECT id FROM plays WHERE result IS NOT NULL"
                " ORDER BY id LIMIT ?)", [batch]).fetchone()[0]
            if confirmed is not None:
                last = min(last, self._newest() - 1)
                if last < 1 or not self._db.execute(
                        "SELECT 1 FROM plays WHERE id <= ? AND result IS NOT NULL",
                        [last]).fetchone():
                    break  # only the newest play is left: it stays (see _newest)
            if confirmed is not None and last > confirmed:
                unsent += [r[0] for r in self._db.execute(
                    "SELECT id FROM plays WHERE id > ? AND id <= ? AND result IS NOT NULL",
                    [confirmed, last])]
            removed += self._delete("id <= ? AND result IS NOT NULL", [last])
        if removed:
            self._db.execute("PRAGMA incremental_vacuum")
        if unsent:
            # the size limit wins over the fleet: say so, and the event reaches the centre
            log.warning("max_mb pruned %d plays the central database has not got", len(unsent))
            self.event("plays_pruned_unsent", {"plays": len(unsent), "first_id": min(unsent),
                                               "last_id": max(unsent)})
        return removed

    def _delete(self, where: str, params: Iterable[Any]) -> int:
        params = list(params)
        with self._db.atomic():
            for table in ("moves", "hands", "matches"):
                self._db.execute(
                    f"DELETE FROM {table} WHERE play_id IN (SELECT id FROM plays WHERE {where})",
                    params)
            return self._db.execute(f"DELETE FROM plays WHERE {where}", params).rowcount


def _json_text(value: Any) -> str | None:
    if value is None:
        return None
    try:
        return json.dumps(value, sort_keys=True, ensure_ascii=False)
    except (TypeError, ValueError):
        return json.dumps(str(value), ensure_ascii=False)


def _is_undo(move: str) -> bool:
    return move == UNDO or move.startswith(UNDO + ":")


def _has_sqlite_header(path: Path) -> bool:
    """False for a non-empty file that does not start like an SQLite database."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(16)
    except FileNotFoundError:
        return True
    return not head or head == b"SQLite format 3\x00"


def _is_corrupt(err: BaseException) -> bool:
    code = getattr(err, "sqlite_errorcode", 0) & 0xFF
    text = str(err)
    return code in (_CORRUPT, _NOTADB) or "not a database" in text or "malformed" in text \
        or text.startswith("quick_check failed")
