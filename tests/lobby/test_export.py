"""kiosk.records.export and kiosk.records.stats, and the `kiosk export` / `kiosk stats` commands."""

from __future__ import annotations

import csv
import io
import json
import os
import sqlite3
import subprocess
import sys
import threading
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest

from kiosk.commands import cli
from kiosk.records import export, stats
from kiosk.records.playlog import PlayLog

from .conftest import FakeClock

ROOT = Path(__file__).resolve().parents[2]
CST = timezone(timedelta(hours=8))   # a kiosk in Shanghai


def make_log(db_path: Path, clock: FakeClock) -> Path:
    """Four days of plays; names and moves with awkward text."""
    log = PlayLog(db_path, kiosk="=HYPERLINK(\"x\") 图书馆 Библиотека", clock=clock,
                  min_free_mb=0)
    plan = [  # (game, result, seconds, demo)
        ("klondike", "won", 300, False), ("klondike", "lost", 100, False),
        ("golf", "won", 60, False), ("klondike", "won", 200, True),
    ]
    for day in range(4):
        for game, result, secs, demo in plan:
            p = log.begin(game, day * 10 + 1, {"draw": 3} if game == "klondike" else {},
                          demo=demo)
            log.move(p, "-T1>F1", "touch")
            log.move(p, "@deal", "demo" if demo else "button")
            clock.advance(secs)
            log.finish(p, result, score=10, cards_left=-3 if result == "lost" else 0)
        clock.advance(86_400 - 660)
    log.close()
    return db_path


@pytest.fixture
def db(db_path, clock) -> Path:
    return make_log(db_path, clock)


def test_csv_has_bom_neutralised_formulas_and_real_numbers(db, tmp_path):
    out = tmp_path / "plays.csv"
    assert export.export(db, "csv", out) == 16
    raw = out.read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")
    table = list(csv.reader(io.StringIO(raw.decode("utf-8-sig"))))
    head, first = table[0], dict(zip(table[0], table[1], strict=True))
    assert tuple(head) == export.PLAY_COLUMNS and len(table) == 17
    assert first["kiosk"] == "'=HYPERLINK(\"x\") 图书馆 Библиотека"
    assert first["seed"] == "1" and first["duration"] == "300.0"
    lost = dict(zip(head, table[2], strict=True))
    assert lost["cards_left"] == "-3"        # a number, not text: left as it is
    moves = tmp_path / "moves.csv"
    export.export(db, "csv", moves, table="moves")
    cells = list(csv.reader(io.StringIO(moves.read_text("utf-8-sig"))))
    assert cells[1][2] == "'-T1>F1" and cells[2][2] == "'@deal"


#: text a spreadsheet runs as a formula: OWASP's starts, and the same after white space or
#: invisible characters that a spreadsheet skips (space, newline, no-break and ideographic
#: spaces, zero-width space, word joiner, byte-order mark, a control character)
FORMULAS = ("=1+1", "+1", "-1", "@SUM(A1)", "\tx", "\rx", " =1", "\n=1", "\u200b=1",
            "\ufeff+1", "\u00a0-1", "\u3000@x", "\u2060=1", " \u200b\n\t=HYPERLINK(1)",
            "\x00=1", "\r\n@x")
#: text that is no formula and stays as it is
PLAIN = ("ok", " ok", "\u200bok", "1=1", "a-b", "图书馆", "", " ")


@pytest.mark.parametrize("value, safe", [
    *((f, "'" + f) for f in FORMULAS), *((p, p) for p in PLAIN),
    (None, ""), (-5, -5), (2.5, 2.5),
])
def test_safe_cell(value, safe):
    assert export.safe_cell(value) == safe


def _text_columns(conn: sqlite3.Connection, table: str) -> list[str]:
    return [r[1] for r in conn.execute(f"PRAGMA table_info({table})") if "TEXT" in r[2].upper()]


@pytest.mark.parametrize("payload", FORMULAS + PLAIN[:5])
def test_every_text_field_of_every_format(db, tmp_path, payload):
    """Each text column of both tables holds the payload: CSV prefixes it exactly when it is
    a formula, JSON and JSON lines (no spreadsheet runs them) keep it exactly."""
    conn = sqlite3.connect(db)
    columns = {t: _text_columns(conn, t) for t in export.TABLES
               if t not in export.SEATED_TABLES}  # no rows here: tests/lobby/test_gin_playlog.py
    assert {"kiosk", "game", "result", "boot_id", "app_version"} <= set(columns["plays"])
    assert {"move", "source"} <= set(columns["moves"])
    with conn:
        for table, cols in columns.items():
            conn.execute(f"UPDATE {table} SET " + ", ".join(f"{c} = ?" for c in cols),
                         [payload] * len(cols))
    conn.close()
    for table, cols in columns.items():
        out = tmp_path / f"{table}.csv"
        export.export(db, "csv", out, table=table)
        got = list(csv.DictReader(io.StringIO(out.read_bytes().decode("utf-8-sig"), newline="")))
        assert got
        want = "'" + payload if payload in FORMULAS else payload
        for row in got:
            for c in cols:
                assert row[c] == want, (table, c)
        for fmt in ("json", "jsonl"):
            out = tmp_path / f"{table}.{fmt}"
            export.export(db, fmt, out, table=table)
            text = out.read_bytes().decode("utf-8")
            data = json.loads(text) if fmt == "json" else [json.loads(x) for x in
                                                             text.splitlines()]
            for row in data:
                for c in cols:
                    if c != "options":  # JSON text of the options is written as JSON
                        assert row[c] == payload, (fmt, table, c)


def test_json_and_jsonl_keep_text_and_types(db, tmp_path):
    out = tmp_path / "p.json"
    export.export(db, "json", out, game="golf")
    data = json.loads(out.read_text("utf-8"))
    assert len(data) == 4 and all(r["game"] == "golf" for r in data)
    assert data[0]["kiosk"].startswith("=HYPERLINK") and data[0]["options"] == {}
    assert data[0]["demo"] is False and isinstance(data[0]["seed"], int)
    lines = tmp_path / "m.jsonl"
    export.export(db, "jsonl", lines, table="moves", game="golf")
    rows_ = [json.loads(x) for x in lines.read_text("utf-8").splitlines()]
    assert len(rows_) == 8 and rows_[0]["move"] == "-T1>F1"
    empty = tmp_path / "e.json"
    assert export.export(db, "json", empty, game="nosuch") == 0
    assert json.loads(empty.read_text()) == []


def test_date_filters_are_local_days(db, tmp_path):
    # plays start 2025-03-01 12:00 UTC and then daily; Shanghai is 8 hours ahead (20:00)
    since = export.parse_when("2025-03-02", tz=CST)
    until = export.parse_when("2025-03-03", end=True, tz=CST)
    assert since == "2025-03-01T16:00:00.000Z" and until == "2025-03-03T16:00:00.000Z"
    with export.snapshot(db) as conn:
        got = list(export.rows(conn, "plays", since, until))
    assert {r["started"][:10] for r in got} == {"2025-03-02", "2025-03-03"}
    assert export.parse_when("2025-03-02T10:00:00+00:00") == "2025-03-02T10:00:00.000Z"
    with pytest.raises(ValueError):
        export.parse_when("yesterday")


def test_snapshot_is_consistent_while_the_kiosk_writes(db, clock):
    """One read transaction: rows written after it began are not seen, the writer is not
    blocked (WAL)."""
    writer = PlayLog(db, clock=clock, min_free_mb=0, recover=False)
    with export.snapshot(db) as conn:
        before = export.count_rows(conn, "plays")
        done = threading.Event()

        def write():
            p = writer.begin("golf", 5)
            writer.move(p, "x")
            writer.finish(p, "won")
            done.set()

        t = threading.Thread(target=write)
        t.start()
        assert done.wait(10), "the writer was blocked by the export"
        t.join()
        assert writer.status.ok
        assert export.count_rows(conn, "plays") == before
        assert sum(1 for _ in export.rows(conn, "plays")) == before
    with export.snapshot(db) as conn:
        assert export.count_rows(conn, "plays") == before + 1


def test_export_never_creates_a_log(tmp_path):
    with pytest.raises(export.ExportError, match="no play log"):
        export.export(tmp_path / "none.db", "csv", tmp_path / "x.csv")
    assert not (tmp_path / "none.db").exists()


# ---------------------------------------------------------------------------- USB
def fake_system(tmp_path: Path, mounts: str) -> tuple[Path, Path]:
    proc = tmp_path / "mounts"
    proc.write_text(mounts)
    block = tmp_path / "sys_block"
    for disk, removable in (("mmcblk0", "0"), ("sda", "1"), ("sdb", "0")):
        (block / disk).mkdir(parents=True)
        (block / disk / "removable").write_text(removable + "\n")
    (block / "mmcblk0" / "mmcblk0p2").mkdir()
    (block / "sda" / "sda1").mkdir()
    return proc, block


def test_find_usb_mount(tmp_path):
    stick = tmp_path / "my stick"
    escaped = str(stick).replace(" ", "\\040")
    proc, block = fake_system(tmp_path, f"""\
/dev/mmcblk0p2 / ext4 rw,noatime 0 0
/dev/mmcblk0p1 /boot/firmware vfat rw 0 0
tmpfs /run tmpfs rw 0 0
/dev/sda1 {escaped} vfat rw,nosuid 0 0
""")
    got = export.find_usb_mount("/media/usb", mounts_file=proc, sys_block=block)
    assert got == stick                       # the octal escape is decoded
    proc.write_text(proc.read_text() + "/dev/sdb1 /media/usb vfat rw 0 0\n")
    assert export.find_usb_mount("/media/usb", mounts_file=proc, sys_block=block) == Path(
        "/media/usb")                         # the configured mount point wins
    proc.write_text("/dev/mmcblk0p2 / ext4 rw 0 0\n/dev/sda1 /mnt/ro vfat ro 0 0\n")
    assert export.find_usb_mount(None, mounts_file=proc, sys_block=block) is None


def test_export_to_usb_writes_synced_files_and_reports_progress(db, tmp_path):
    stick = tmp_path / "stick"
    stick.mkdir()
    proc, block = fake_system(tmp_path, f"/dev/sda1 {stick} vfat rw 0 0\n")
    seen: list[tuple[int, int]] = []
    res = export.export_to_usb(db, configured=None, kiosk_name="Lobby 1/东", mounts_file=proc,
                               sys_block=block, progress=lambda d, t: seen.append((d, t)),
                               now=datetime(2025, 3, 9, 10, 0, tzinfo=UTC))
    assert res.rows == 16 + 32
    assert [p.name for p in res.files] == ["plays.csv", "moves.csv"]
    assert res.directory.parent == stick / "solitaire-kiosk"
    assert res.directory.name.startswith("Lobby-1-东-2025030")
    assert seen[0] == (0, 48) and seen[-1] == (48, 48)
    assert all(a <= b for (a, _), (b, _) in zip(seen, seen[1:], strict=False))
    assert res.files[0].read_bytes().startswith(b"\xef\xbb\xbf")


def test_export_to_usb_without_a_stick(db, tmp_path):
    proc, block = fake_system(tmp_path, "/dev/mmcblk0p2 / ext4 rw 0 0\n")
    with pytest.raises(export.ExportError, match="No USB stick"):
        export.export_to_usb(db, configured="/media/usb", mounts_file=proc, sys_block=block)


def test_export_to_a_full_stick(db, tmp_path):
    from .test_playlog_faults import full_stick

    with full_stick(tmp_path / "stick") as stick:
        with pytest.raises(export.ExportError, match="full"):
            export.export_to_usb(db, mount=stick)
        assert _files(stick) == ["photos.jpg"]


def _files(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file())


def _grow(db: Path, times: int) -> None:
    """Double the plays and their moves ``times`` times (a log of some months)."""
    conn = sqlite3.connect(db)
    plays = [c for c in export.PLAY_COLUMNS if c != "id"]
    with conn:
        for _ in range(times):
            top = conn.execute("SELECT max(id) FROM plays").fetchone()[0]
            conn.execute(f"INSERT INTO plays (id, {', '.join(plays)}) SELECT id + ?, "
                         f"{', '.join(plays)} FROM plays", (top,))
            conn.execute("INSERT INTO moves (play_id, seq, move, t, source) SELECT "
                         "play_id + ?, seq, move, t, source FROM moves", (top,))
    conn.close()


@pytest.fixture
def nearly_full_stick(tmp_path):
    """A real 64 kB tmpfs with 48 kB of someone's photos on it: 16 kB are free, less than
    an export needs, so writing starts and then fails half-way."""
    from .test_playlog_faults import mount, umount

    stick = tmp_path / "stick"
    stick.mkdir()
    mount("-t", "tmpfs", "-o", "size=64k", "tmpfs", str(stick))
    try:
        (stick / "photos.jpg").write_bytes(b"\0" * 48 * 1024)
        yield stick
    finally:
        umount(stick)


def test_usb_export_that_runs_out_of_room_leaves_nothing_half_written(db, nearly_full_stick):
    _grow(db, 5)                                    # 512 plays: about 90 kB of CSV
    with pytest.raises(export.ExportError, match="full"):
        export.export_to_usb(db, mount=nearly_full_stick, kiosk_name="lobby")
    assert _files(nearly_full_stick) == ["photos.jpg"]


def test_cli_export_to_a_full_disk_keeps_the_old_file(db, nearly_full_stick, capsys):
    out = nearly_full_stick / "plays.csv"
    assert cli.main(["export", "--db", str(db), "--out", str(out)]) == 0
    small = out.read_bytes()
    capsys.readouterr()
    _grow(db, 5)
    assert cli.main(["export", "--db", str(db), "--out", str(out)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("kiosk: cannot write") and "space" in err[0]
    assert out.read_bytes() == small                # the earlier export is still whole
    assert _files(nearly_full_stick) == ["photos.jpg", "plays.csv"]
    out.unlink()
    assert cli.main(["export", "--db", str(db), "--out", str(out)]) == 2
    assert _files(nearly_full_stick) == ["photos.jpg"]  # no truncated plays.csv


# ---------------------------------------------------------------------------- stats
def test_stats_per_game_all_time_and_today(db):
    clock = FakeClock(wall=datetime(2025, 3, 4, 23, 0, tzinfo=UTC), boot="boot-1")
    with export.snapshot(db) as conn:
        data = stats.stats(conn, clock=clock, tz=UTC)
        wins_today = stats.today_wins(conn, clock=clock, tz=UTC)
    k, g = data["games"]["klondike"], data["games"]["golf"]
    assert k["all"] == {"plays": 8, "wins": 4, "win_rate": 0.5, "median_time": 200.0,
                        "median_win_time": 300.0}       # demo plays are left out
    assert g["all"]["plays"] == 4 and g["all"]["win_rate"] == 1.0
    assert data["today"] == "2025-03-04"
    assert k["today"]["plays"] == 2 and g["today"]["wins"] == 1
    assert data["total"]["today"] == {"plays": 3, "wins": 2, "win_rate": 0.6667,
                                      "median_time": 100.0, "median_win_time": 180.0}
    assert wins_today == 2
    text = stats.format_text(data)
    assert "klondike" in text and "50%" in text and "5:00" in text


def test_today_trusts_only_synced_or_this_boot(db_path):
    clock = FakeClock(wall=datetime(2025, 3, 1, 9, 0, tzinfo=UTC), boot="old", synced=False)
    log = PlayLog(db_path, clock=clock, min_free_mb=0)
    for boot, synced in (("old", False), ("old", True), ("new", False)):
        clock.boot, clock.is_synced = boot, synced
        p = log.begin("golf", 1)
        log.move(p, "x")
        log.finish(p, "won")
    clock.boot = "new"
    assert log.today_wins(now=clock.wall()) == 2    # the unsynced play of another boot: no
    with export.snapshot(db_path) as conn:
        assert stats.stats(conn, clock=clock)["total"]["all"]["wins"] == 3


def test_day_bounds_in_a_time_zone():
    from datetime import date

    assert stats.day_bounds(date(2025, 3, 2), CST) == ("2025-03-01T16:00:00.000Z",
                                                      "2025-03-02T16:00:00.000Z")


# ---------------------------------------------------------------------------- CLI
def test_cli_export_and_stats(db, tmp_path, capsys):
    out = tmp_path / "x.jsonl"
    assert cli.main(["export", "--db", str(db), "--format", "jsonl", "--out", str(out),
                     "--since", "2025-03-03", "--game", "klondike"]) == 0
    assert "rows written" in capsys.readouterr().err
    assert all(json.loads(x)["game"] == "klondike" for x in out.read_text().splitlines())
    assert cli.main(["stats", "--db", str(db), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["games"]["golf"]["all"]["wins"] == 4
    assert cli.main(["stats", "--db", str(db)]) == 0
    assert "all games" in capsys.readouterr().out


def test_cli_finds_the_log_through_the_config(db, tmp_path, capsys):
    cfg = tmp_path / "k.toml"
    cfg.write_text(f'[log]\ndata_dir = "{db.parent}"\n')
    assert cli.main(["stats", "--config", str(cfg), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["total"]["all"]["plays"] == 12


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "kiosk", *args], cwd=ROOT,
                          capture_output=True, timeout=60,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})


def test_cli_in_a_subprocess(db, tmp_path):
    got = run("export", "--db", str(db))                    # CSV to standard output
    assert got.returncode == 0 and got.stdout.startswith(b"\xef\xbb\xbfid,kiosk,game")
    assert len(got.stdout.decode("utf-8-sig").splitlines()) == 17
    for args, words in [
        (("export", "--db", str(tmp_path / "none.db")), "no play log"),
        (("export", "--db", str(db), "--since", "soon"), "not a date"),
        (("stats", "--db", str(tmp_path / "none.db")), "no play log"),
        (("export", "--db", str(db), "--out", str(tmp_path / "no" / "dir.csv")), "cannot write"),
    ]:
        bad = run(*args)
        err = bad.stderr.decode().strip().splitlines()
        assert bad.returncode == 2 and len(err) == 1, (args, err)
        assert err[0].startswith("kiosk: ") and words in err[0]
    bad = run("export", "--format", "xml")
    assert bad.returncode == 2 and bad.stderr.decode().strip().splitlines()[-1].startswith(
        "kiosk: ")
