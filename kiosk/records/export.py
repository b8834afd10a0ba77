"""Export the play log: CSV, JSON or JSON lines, to a file, standard output or a USB stick.

The kiosk keeps writing while an export runs, so every export reads **one consistent
snapshot**: a single read transaction (in WAL mode a reader sees the database as it was when
its transaction began, while the writer carries on). The file is opened so that it is never
created or changed (:func:`kiosk.records.playlog.open_readonly`).

CSV is written for spreadsheets: UTF-8 with a byte-order mark (so Excel shows Chinese and
Russian text correctly) and text cells that a spreadsheet would run as a formula are prefixed
with ``'`` (OWASP's CSV-injection rule: a cell starting with tab or carriage return, or with
``=``, ``+``, ``-`` or ``@`` once leading white space and invisible characters are skipped,
since spreadsheets skip them too: ``" =1"``, ``"\n=1"``, a zero-width space before ``=``).
Look-alikes count as the character they look like: the first visible character is tested
as written and in its NFKC form (``＝1+1``, full-width, is ``=1+1`` to a spreadsheet that
folds widths), and "invisible" includes the blank letters Unicode calls default-ignorable
(the Hangul fillers U+115F, U+1160, U+3164, U+FFA0), combining marks such as U+034F and the
soft hyphen. Numbers stay numbers; text starting with ``-`` is prefixed like any other.

A file is written under a temporary name in its directory, synced, then renamed: a full USB
stick or a pulled cable leaves no truncated ``plays.csv`` that looks like a whole export.

Dates given to ``--since``/``--until`` are the kiosk's *local* dates (what an operator means
by "March 1st"); ``--until`` includes that whole day. A full ISO time is taken as given
(local when it has no offset). Stored times are UTC.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import re
import sqlite3
import tempfile
import unicodedata
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta, tzinfo
from pathlib import Path
from typing import IO, Any

from kiosk.records import playlog
from kiosk.records.playlog import iso, open_readonly

FORMATS = ("csv", "json", "jsonl")
TABLES = ("plays", "moves", "hands", "matches")
#: tables only games against the computer fill: a USB export writes them when they have rows
SEATED_TABLES = ("hands", "matches")
PLAY_COLUMNS = (
    "id", "kiosk", "game", "options", "seed", "hidden_seed", "demo", "started", "ended", "duration", "result",
    "moves", "undos", "hints", "score", "cards_left", "touches", "button_presses",
    "clock_synced", "boot_id", "started_mono", "ended_mono", "app_version",
)
MOVE_COLUMNS = ("play_id", "seq", "move", "t", "source")
HAND_COLUMNS = ("play_id", *playlog.HAND_COLUMNS)
MATCH_COLUMNS = ("play_id", *playlog.MATCH_COLUMNS)
COLUMNS = {"plays": PLAY_COLUMNS, "moves": MOVE_COLUMNS, "hands": HAND_COLUMNS,
           "matches": MATCH_COLUMNS}
#: the characters a formula starts with; U+2212 (the minus sign, also what the superscript
#: and subscript minus fold to) is taken as ``-``
_FORMULA_START = ("=", "+", "-", "@", "\u2212")
_CONTROL_START = ("\t", "\r")
#: categories a spreadsheet shows as nothing before a cell's text: format and control
#: characters, combining and enclosing marks (nothing to combine with), separators
_INVISIBLE_CATEGORIES = frozenset({"Cf", "Cc", "Mn", "Me", "Zs", "Zl", "Zp"})
#: letters and symbols that are drawn blank (Unicode's default-ignorable Hangul fillers,
#: the Khmer inherent vowels) or look blank (the Braille blank)
_BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u17b4\u17b5\u2800")


class ExportError(Exception):
    """Something an operator can fix (no stick, no log, stick full); one sentence."""


# ---------------------------------------------------------------------------- reading
@contextlib.contextmanager
def snapshot(db_path: str | os.PathLike[str]) -> Iterator[sqlite3.Connection]:
    """A connection inside one read transaction: every query sees the same moment."""
    path = Path(db_path)
    if not path.is_file():
        raise ExportError(f"no play log at {path}")
    try:
        conn = open_readonly(path)
    except sqlite3.Error as err:
        raise ExportError(f"cannot open the play log {path}: {err}") from None
    try:
        try:
            conn.execute("BEGIN")
            conn.execute("SELECT count(*) FROM plays").fetchone()  # starts the snapshot
        except sqlite3.Error as err:
            raise ExportError(f"cannot read the play log {path}: {err}") from None
        yield conn
    finally:
        with contextlib.suppress(sqlite3.Error):
            conn.rollback()
        conn.close()


def parse_when(text: str, *, end: bool = False, tz: tzinfo | None = None) -> str:
    """A date or time an operator typed, as the UTC text stored in the log.

    ``2025-03-01`` is local midnight at the start of that day, or with ``end`` at the end
    of it (so ``--until 2025-03-01`` includes March 1st). Raises ValueError.
    """
    text = text.strip()
    if re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
        day = date.fromisoformat(text) + timedelta(days=1 if end else 0)
        moment = datetime(day.year, day.month, day.day)
    else:
        moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=tz) if tz is not None else moment.astimezone()
    return iso(moment)


def _where(since: str | None, until: str | None, game: str | None,
           prefix: str = "") -> tuple[str, list[Any]]:
    clauses, params = [], []
    if since:
        clauses.append(f"{prefix}started >= ?")
        params.append(since)
    if until:
        clauses.append(f"{prefix}started < ?")
        params.append(until)
    if game:
        clauses.append(f"{prefix}game = ?")
        params.append(game)
    return (" WHERE " + " AND ".join(clauses)) if clauses else "", params


def count_rows(conn: sqlite3.Connection, table: str, since: str | None = None,
               until: str | None = None, game: str | None = None) -> int:
    where, params = _where(since, until, game, "p.")
    if table == "plays":
        sql = f"SELECT count(*) FROM plays p{where}"
    elif not _has_table(conn, table):
        return 0
    else:
        sql = f"SELECT count(*) FROM {table} m JOIN plays p ON p.id = m.play_id{where}"
    return conn.execute(sql, params).fetchone()[0]


def _has_table(conn: sqlite3.Connection, table: str) -> bool:
    """A log written before the hands and matches tables existed has none (until the
    kiosk opens it again): it exports as no rows, not as an error."""
    return conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?",
                        (table,)).fetchone() is not None


def rows(conn: sqlite3.Connection, table: str, since: str | None = None,
         until: str | None = None, game: str | None = None) -> Iterator[dict[str, Any]]:
    """Rows of ``plays`` or ``moves`` (of the selected plays), oldest first."""
    where, params = _where(since, until, game, "p.")
    if table == "plays":
        # a log the kiosk has not opened since hidden seeds came has no such column
        has = {r[1] for r in conn.execute("PRAGMA table_info(plays)")}
        cols = ", ".join(f"p.{c}" if c in has else f"NULL AS {c}" for c in PLAY_COLUMNS)
        sql = f"SELECT {cols} FROM plays p{where} ORDER BY p.id"
        names: tuple[str, ...] = PLAY_COLUMNS
    elif table in COLUMNS:
        if not _has_table(conn, table):
            return
        names = COLUMNS[table]
        cols = ", ".join(f"m.{c}" for c in names)
        order = "m.play_id" + (", m.seq" if "seq" in names else "")
        sql = (f"SELECT {cols} FROM {table} m JOIN plays p ON p.id = m.play_id{where}"
               f" ORDER BY {order}")
    else:
        raise ValueError(f"unknown table {table!r}")
    for row in conn.execute(sql, params):
        yield dict(zip(names, row, strict=True))


# ---------------------------------------------------------------------------- writing
def safe_cell(value: Any) -> Any:
    """A CSV cell a spreadsheet will not run as a formula; None becomes empty."""
    if value is None:
        return ""
    if isinstance(value, str) and looks_like_formula(value):
        return "'" + value
    return value


def looks_like_formula(text: str) -> bool:
    """Whether a spreadsheet could take ``text`` for a formula: a tab or carriage return
    first, or a formula's first character (or a look-alike of one) once the leading blank
    and invisible characters are skipped, in the text as written or normalised (NFKC)."""
    if text.startswith(_CONTROL_START):
        return True
    for form in (text, unicodedata.normalize("NFKC", text)):
        first = _visible_start(form)[:1]
        if first and (first in _FORMULA_START or any(
                unicodedata.normalize(nf, first)[:1] in _FORMULA_START
                for nf in ("NFKC", "NFKD"))):
            return True
    return False


def _visible_start(text: str) -> str:
    """``text`` without its leading white space and invisible characters (format and
    control characters such as the zero-width space and the byte-order mark, marks with
    nothing to combine with, the blank fillers): what a spreadsheet shows first."""
    for i, ch in enumerate(text):
        if not (ch.isspace() or ch in _BLANK_LETTERS
                or unicodedata.category(ch) in _INVISIBLE_CATEGORIES):
            return text[i:]
    return ""


def _json_row(row: dict[str, Any]) -> dict[str, Any]:
    out = dict(row)
    if "options" in out and isinstance(out["options"], str):
        try:
            out["options"] = json.loads(out["options"])
        except ValueError:
            pass
    for flag in ("demo", "clock_synced"):
        if flag in out and out[flag] is not None:
            out[flag] = bool(out[flag])
    return out


def write_rows(data: Iterator[dict[str, Any]], columns: tuple[str, ...], fmt: str, out: IO[str],
               progress: Callable[[int], None] | None = None) -> int:
    """Write rows to a text stream (open it with ``newline=""`` for CSV); returns the count."""
    n = 0
    if fmt == "csv":
        writer = csv.writer(out, lineterminator="\r\n")
        writer.writerow(columns)
        for row in data:
            writer.writerow([safe_cell(row[c]) for c in columns])
            n += 1
            if progress and n % 500 == 0:
                progress(n)
    elif fmt == "jsonl":
        for row in data:
            out.write(json.dumps(_json_row(row), ensure_ascii=False) + "\n")
            n += 1
            if progress and n % 500 == 0:
                progress(n)
    elif fmt == "json":
        out.write("[")
        for row in data:
            out.write(("\n" if n == 0 else ",\n") + json.dumps(_json_row(row), ensure_ascii=False))
            n += 1
            if progress and n % 500 == 0:
                progress(n)
        out.write("\n]\n" if n else "]\n")
    else:
        raise ValueError(f"unknown format {fmt!r}")
    if progress:
        progress(n)
    return n


def encoding(fmt: str) -> str:
    return "utf-8-sig" if fmt == "csv" else "utf-8"


@contextlib.contextmanager
def replacing(target: Path, fmt: str) -> Iterator[IO[str]]:
    """A text stream for ``target`` that becomes ``target`` only when all of it is written:
    it goes to a temporary name in the same directory, is synced, then renamed over. On any
    failure (a full stick, a pulled stick) the temporary file is removed and an older
    ``target`` stays as it was; the OSError goes on to the caller."""
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".part")
    try:
        with os.fdopen(fd, "w", encoding=encoding(fmt), newline="") as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        with contextlib.suppress(OSError):  # mkstemp's 0600; FAT sticks have no modes
            os.chmod(tmp, 0o644)
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    _fsync_dir(target.parent)


def export(db_path: str | os.PathLike[str], fmt: str, out: str | os.PathLike[str] | IO[bytes],
           *, table: str = "plays", since: str | None = None, until: str | None = None,
           game: str | None = None) -> int:
    """Export one table to a file path or a binary stream; returns the number of rows."""
    columns = COLUMNS[table]
    with snapshot(db_path) as conn:
        data = rows(conn, table, since, until, game)
        if isinstance(out, str | os.PathLike):
            target = Path(out)
            try:
                with replacing(target, fmt) as fh:
                    n = write_rows(data, columns, fmt, fh)
            except OSError as err:
                raise ExportError(f"cannot write {target}: {err.strerror or err}; "
                                  "nothing was written there") from None
            return n
        text = io.TextIOWrapper(out, encoding=encoding(fmt), newline="", write_through=True)
        try:
            return write_rows(data, columns, fmt, text)
        finally:
            text.flush()
            text.detach()


# ---------------------------------------------------------------------------- USB stick
def _unescape(field_: str) -> str:
    """/proc/mounts escapes space, tab, newline and backslash as octal."""
    return re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), field_)


def _disk_of(dev: str, sys_block: Path) -> Path | None:
    """/sys/block/<disk> for a device node like /dev/sda1 or /dev/mmcblk0p1."""
    name = Path(dev).name
    if (sys_block / name).exists():
        return sys_block / name
    for disk in sys_block.iterdir() if sys_block.is_dir() else ():
        if (disk / name).exists():   # a partition is a sub-directory of its disk
            return disk
    return None


def _removable(disk: Path) -> bool:
    try:
        if (disk / "removable").read_text().strip() == "1":
            return True
    except OSError:
        pass
    try:  # many USB sticks and USB disks say removable=0: trust the bus instead
        return "/usb" in os.path.realpath(disk)
    except OSError:
        return False


def mounts(mounts_file: str | os.PathLike[str] = "/proc/mounts") -> list[tuple[str, Path, str]]:
    """(device, mount point, options) of every mount."""
    out: list[tuple[str, Path, str]] = []
    try:
        text = Path(mounts_file).read_text()
    except OSError:
        return out
    for line in text.splitlines():
        parts = line.split()
        if len(parts) >= 4:
            out.append((_unescape(parts[0]), Path(_unescape(parts[1])), parts[3]))
    return out


def find_usb_mount(configured: str | os.PathLike[str] | None = "/media/usb", *,
                   mounts_file: str | os.PathLike[str] = "/proc/mounts",
                   sys_block: str | os.PathLike[str] = "/sys/block") -> Path | None:
    """Where to write an export: the configured mount point when something writable is
    mounted there, else the first writable mount of a removable (or USB) drive."""
    table = mounts(mounts_file)
    writable = [(dev, mp, opts) for dev, mp, opts in table if "ro" not in opts.split(",")]
    if configured is not None:
        for _, mp, _ in writable:
            if mp == Path(configured):
                return mp
    block = Path(sys_block)
    for dev, mp, _ in writable:
        if not dev.startswith("/dev/") or mp == Path("/") or str(mp).startswith("/boot"):
            continue
        disk = _disk_of(dev, block)
        if disk is not None and _removable(disk):
            return mp
    return None


@dataclass
class UsbExport:
    directory: Path
    files: list[Path] = field(default_factory=list)
    rows: int = 0


def _remove_export(partial: UsbExport) -> None:
    """Take away the files of an export that failed half-way (and its folder when empty):
    the stick holds whole exports or none, never plays without their moves."""
    for path in partial.files:
        with contextlib.suppress(OSError):
            path.unlink()
    with contextlib.suppress(OSError):
        partial.directory.rmdir()
    partial.files.clear()


def _safe_name(text: str) -> str:
    name = "".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in text).strip("-")
    return name[:40] or "kiosk"


def _fsync_dir(path: Path) -> None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def export_to_usb(db_path: str | os.PathLike[str], *, mount: str | os.PathLike[str] | None = None,
                  configured: str | os.PathLike[str] | None = "/media/usb",
                  kiosk_name: str = "kiosk", fmt: str = "csv",
                  progress: Callable[[int, int], None] | None = None,
                  since: str | None = None, until: str | None = None,
                  now: datetime | None = None,
                  mounts_file: str | os.PathLike[str] = "/proc/mounts",
                  sys_block: str | os.PathLike[str] = "/sys/block") -> UsbExport:
    """Write ``plays`` and ``moves`` files to a USB stick, synced; for the operator menu.

    ``progress(done, total)`` is called as rows are written (``total`` counts both files).
    Raises :class:`ExportError` with a sentence for the operator (no stick, stick full ...).
    Runs for a while on a big log: call it from a thread and report progress with
    ``Clock.schedule_once``.
    """
    target = Path(mount) if mount is not None else find_usb_mount(
        configured, mounts_file=mounts_file, sys_block=sys_block)
    if target is None:
        raise ExportError("No USB stick found. Plug one in and try again.")
    stamp = (now or datetime.now(UTC)).astimezone().strftime("%Y%m%d-%H%M%S")
    directory = target / "solitaire-kiosk" / f"{_safe_name(kiosk_name)}-{stamp}"
    ext = {"csv": "csv", "json": "json", "jsonl": "jsonl"}[fmt]
    result = UsbExport(directory)
    with snapshot(db_path) as conn:
        totals = {t: count_rows(conn, t, since, until) for t in TABLES}
        total = sum(totals.values())
        done = 0
        if progress:
            progress(0, total)
        try:
            directory.mkdir(parents=True, exist_ok=True)
            for table in TABLES:
                if table in SEATED_TABLES and not totals[table]:
                    continue
                path = directory / f"{table}.{ext}"
                columns = COLUMNS[table]
                base = done

                def step(n: int, base: int = base) -> None:
                    if progress:
                        progress(base + n, total)

                with replacing(path, fmt) as fh:
                    n = write_rows(rows(conn, table, since, until), columns, fmt, fh, step)
                result.files.append(path)
                done += n
            _fsync_dir(directory.parent)
        except OSError as err:
            _remove_export(result)
            if err.errno == 28:
                raise ExportError("The USB stick is full.") from None
            if err.errno == 30:
                raise ExportError("The USB stick is write-protected.") from None
            raise ExportError(f"Cannot write to the USB stick: {err.strerror or err}.") from None
    result.rows = done
    return result
