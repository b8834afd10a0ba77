"""The fleet sync's figures (issue 26): catching up a year of plays, an idle pass, and 200
kiosks at once, against a throwaway PostgreSQL server on this machine.

* **Catching up**: one kiosk's backlog of N plays (20 moves each) sent by ``kiosk sync`` in
  one run, in rows per second, against PostgreSQL's own ``COPY`` of the same rows from the
  same file in the same run (target: the sync within 3x of COPY), and the pass's peak
  memory (target: the same for 10,000 and 100,000 plays).
* **Idle pass**: a pass with nothing to send, as the timer runs it every five minutes: its
  CPU time (process start, imports, connection, the queries), and that time scaled to a
  Raspberry Pi 4 with bench/hint.py's calibration (target: well under a second).
* **Fleet**: 200 kiosks (200 plays each) syncing at once against one server, each pass in
  its own thread with its own connection: the time until all are caught up and the
  server's peak connection count.

    python -m bench.sync [--plays 10000 100000] [--kiosks 200] [--no-write]

Results go to docs/benchmarks.md, section "Fleet sync (bench/sync.py)".
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import psycopg

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench._report import write_section  # noqa: E402
from kiosk.fleet import central  # noqa: E402
from tests.fleet.conftest import Kiosk  # noqa: E402
from tests.fleet.pgserver import PgServer  # noqa: E402

TITLE = "Fleet sync (bench/sync.py)"
MOVES = 20

PASS = """
import json, resource, sys, time
from kiosk.commands.cli import main
t0 = time.monotonic()
rc = main(["sync", "--config", sys.argv[1]])
ru = resource.getrusage(resource.RUSAGE_SELF)
# VmHWM, not ru_maxrss: Linux carries ru_maxrss over from the parent through fork and exec
hwm = next(int(line.split()[1]) for line in open("/proc/self/status")
           if line.startswith("VmHWM:"))
print(json.dumps({"rc": rc, "wall": time.monotonic() - t0, "cpu": ru.ru_utime + ru.ru_stime,
                  "maxrss_kb": hwm}))
"""


#: the image's venv is byte-compiled at install: so are the passes measured here (in a
#: cache of their own, whatever PYTHONDONTWRITEBYTECODE says)
ENV = {**os.environ, "PYTHONPYCACHEPREFIX": str(Path(tempfile.gettempdir()) / "bench-sync-pyc")}
ENV.pop("PYTHONDONTWRITEBYTECODE", None)


def run_pass(config: Path) -> dict:
    proc = subprocess.run([sys.executable, "-c", PASS, str(config)], cwd=REPO, env=ENV,
                          capture_output=True, text=True, timeout=3600)
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    assert result["rc"] == 0, proc.stderr
    return result


def idle_cpu(config: Path) -> float:
    """CPU seconds of a whole `kiosk sync` process (start, imports, pass) with nothing to send."""
    before = _children_cpu()
    proc = subprocess.run([sys.executable, "-m", "kiosk", "sync", "--config", str(config)],
                          cwd=REPO, env=ENV, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0 and "sent 0 plays" in proc.stdout, proc.stdout + proc.stderr
    return _children_cpu() - before


def _children_cpu() -> float:
    import resource

    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def copy_baseline(pg: PgServer, dsn: str, db_path: Path) -> tuple[int, float]:
    """PostgreSQL's own COPY of the same rows (plays and moves) from the same file into
    tables of the same shape, as the owner: rows and seconds."""
    import sqlite3

    from kiosk.fleet.sync import LOCAL_PLAY_COLUMNS, MOVE_COLUMNS, PLAY_COLUMNS

    src = sqlite3.connect(db_path)
    rows = 0
    with psycopg.connect(dsn) as conn:
        conn.execute("DROP TABLE IF EXISTS copy_moves, copy_plays")
        conn.execute("CREATE TABLE copy_plays (LIKE plays INCLUDING ALL)")
        conn.execute("CREATE TABLE copy_moves (LIKE moves INCLUDING ALL)")
        conn.commit()
        t0 = time.perf_counter()
        with conn.cursor().copy(f"COPY copy_plays (kiosk, {', '.join(PLAY_COLUMNS)}) "
                                "FROM STDIN") as copy:
            for row in src.execute(f"SELECT {', '.join(LOCAL_PLAY_COLUMNS)} FROM plays"):
                copy.write_row(("copy", *row))
                rows += 1
        with conn.cursor().copy(f"COPY copy_moves (kiosk, {', '.join(MOVE_COLUMNS)}) "
                                "FROM STDIN") as copy:
            for row in src.execute(f"SELECT {', '.join(MOVE_COLUMNS)} FROM moves"):
                copy.write_row(("copy", *row))
                rows += 1
        conn.commit()
        seconds = time.perf_counter() - t0
        conn.execute("DROP TABLE copy_moves, copy_plays")
        conn.commit()
    src.close()
    return rows, seconds


def catch_up(pg: PgServer, dsn: str, root: Path, n: int, repeats: int) -> dict:
    """The same backlog sent ``repeats`` times by fresh kiosks (copies of one play log),
    each time right after PostgreSQL's own COPY of it: the machine is shared, so each side
    is its best of the runs, and the ratio theirs (a load spike in one run moves neither)."""
    first = Kiosk(pg, dsn, f"year-{n}-0", root, batch_plays=500)
    t0 = time.perf_counter()
    first.backlog(n, moves=MOVES)
    made = time.perf_counter() - t0
    rows = n * (1 + MOVES)
    copies, passes = [], []
    for r in range(repeats):
        copy_rows, copy_s = copy_baseline(pg, dsn, first.db_path)
        assert copy_rows == rows
        copies.append(copy_s)
        k = first if r == 0 else Kiosk(pg, dsn, f"year-{n}-{r}", root, batch_plays=500)
        if r:
            shutil.copy(first.db_path, k.db_path)
        passes.append(run_pass(k.config))
    best = min(passes, key=lambda p: p["wall"])
    copy_s = min(copies)
    idle_cpu(first.config)  # the byte-code cache written
    idle = min(idle_cpu(first.config) for _ in range(3))
    # a pass's fixed cost, whatever it sends: process, imports, connection, the checks,
    # the settings, the heartbeat, the files it writes (an idle pass of the same kiosk)
    fixed = min(run_pass(first.config)["wall"] for _ in range(3))
    return {"plays": n, "rows": rows, "made_s": made, "sync_s": best["wall"],
            "sync_all": [round(p["wall"], 2) for p in passes], "copy_all": [
                round(c, 2) for c in copies], "sync_rows_s": rows / best["wall"],
            "copy_s": copy_s, "copy_rows_s": rows / copy_s, "ratio": best["wall"] / copy_s,
            "peak_mb": max(p["maxrss_kb"] for p in passes) / 1024, "idle_cpu": idle,
            "fixed_s": fixed, "ratio_rows": (best["wall"] - fixed) / copy_s}


def fleet(pg: PgServer, dsn: str, root: Path, kiosks: int, plays: int) -> dict:
    from kiosk.fleet.sync import run_pass as one_pass
    from kiosk.settings import config

    made = []
    for i in range(kiosks):
        k = Kiosk(pg, dsn, f"k-{i:03d}", root)
        k.backlog(plays, moves=MOVES)
        made.append(config.load(k.config))
    peak = [0]
    done = threading.Event()

    def watch() -> None:
        with pg.admin() as conn:
            while not done.is_set():
                n = conn.execute("SELECT count(*) FROM pg_stat_activity "
                                 "WHERE usename LIKE 'kiosk\\_%'").fetchone()[0]
                peak[0] = max(peak[0], n)
                time.sleep(0.02)

    errors: list[str] = []

    def run(cfg) -> None:
        try:
            one_pass(cfg)
        except Exception as err:  # noqa: BLE001 - counted and reported
            errors.append(str(err))

    watcher = threading.Thread(target=watch)
    watcher.start()
    threads = [threading.Thread(target=run, args=(cfg,)) for cfg in made]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    seconds = time.perf_counter() - t0
    done.set()
    watcher.join()
    with psycopg.connect(dsn) as conn:
        central_plays = conn.execute("SELECT count(*) FROM plays WHERE kiosk LIKE 'k-%'"
                                     ).fetchone()[0]
    return {"kiosks": kiosks, "plays_each": plays, "seconds": seconds, "peak_conn": peak[0],
            "errors": len(errors), "first_error": errors[0] if errors else "",
            "central_plays": central_plays}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--plays", type=int, nargs="+", default=[10_000, 100_000])
    ap.add_argument("--kiosks", type=int, default=200)
    ap.add_argument("--fleet-plays", type=int, default=200)
    ap.add_argument("--repeats", type=int, default=3,
                    help="runs of each catch-up and of its COPY (the best of each counts)")
    ap.add_argument("--no-write", action="store_true")
    args = ap.parse_args(argv)
    from bench.hint import measured_slowdown

    slowdown = measured_slowdown()
    pg = PgServer(tls=False, max_connections=args.kiosks + 50)
    root = Path(tempfile.mkdtemp(prefix="bench-sync-"))
    try:
        dsn = pg.create_database("bench_fleet")
        with psycopg.connect(dsn, autocommit=True) as conn:
            central.migrate(conn)
        ups = [catch_up(pg, dsn, root, n, args.repeats) for n in args.plays]
        for r in ups:
            print(json.dumps(r))
        fl = fleet(pg, dsn, root, args.kiosks, args.fleet_plays) if args.kiosks else None
        print(json.dumps(fl))
    finally:
        pg.destroy()
        shutil.rmtree(root, ignore_errors=True)
    lines = [
        f"{time.strftime('%Y-%m-%d')}, this machine ({_cpu()}), PostgreSQL 15 on the same "
        "machine over its Unix socket (fsync off: the server is not what is measured), "
        f"{MOVES} moves a play, batches of 500 plays. A Pi 4 is {slowdown:.1f}x slower than "
        "this machine (bench/hint.py's n-body calibration). Each backlog was sent "
        f"{args.repeats} times by fresh kiosks, each run right after a COPY of the same rows: "
        "each side is its best run (the machine is shared), all runs in brackets.",
        "",
        "| backlog | rows | kiosk sync | rows/s | COPY of the same rows | rows/s | sync/COPY |"
        " the same, less the pass's fixed cost | peak memory of the pass |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in ups:
        lines.append(f"| {r['plays']:,} plays | {r['rows']:,} | {r['sync_s']:.1f} s "
                     f"({', '.join(f'{x:.1f}' for x in r['sync_all'])}) | "
                     f"{r['sync_rows_s']:,.0f} | {r['copy_s']:.1f} s "
                     f"({', '.join(f'{x:.1f}' for x in r['copy_all'])}) | "
                     f"{r['copy_rows_s']:,.0f} | {r['ratio']:.2f}x | {r['ratio_rows']:.2f}x "
                     f"({r['fixed_s']:.2f} s) | {r['peak_mb']:.0f} MB |")
    idle = min(r["idle_cpu"] for r in ups)
    lines += ["", f"Idle pass (nothing to send: process start, imports, one connection, the "
              f"schema's version, the kiosk's name and its log's ordinal, the settings, the "
              f"heartbeat; no staging table): {idle:.2f} CPU s here, about "
              f"{idle * slowdown:.1f} CPU s on a Pi 4 (this machine's venv is an editable "
              "install, whose import finder the image's venv does not have)."]
    if fl:
        lines += ["", f"Fleet: {fl['kiosks']} kiosks of {fl['plays_each']} plays "
                  f"({fl['plays_each'] * (1 + MOVES):,} rows each) syncing at once, one thread and "
                  f"one connection each (all in this one process: the client side, not the server, "
                  f"set the pace): all caught up in {fl['seconds']:.1f} s, peak "
                  f"{fl['peak_conn']} kiosk connections on the server, {fl['errors']} failed "
                  f"passes, {fl['central_plays']:,} plays central."]
    text = "\n".join(lines)
    print(text)
    if not args.no_write:
        write_section(TITLE, text)
    return 0


def _cpu() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip() + f", {len(__import__('os').sched_getaffinity(0))} cores"
    except OSError:
        pass
    return "unknown CPU"


if __name__ == "__main__":
    sys.exit(main())
