"""The office's report at fleet scale (issue 32): 5,000 kiosks and a year and more of plays
in a throwaway PostgreSQL on this machine, made by SQL (tests/fleet/fleet_data.py).

* **Before**: the queries of the report as it was (filters on ``left(started, 10)`` and
  the ``plays_per_day`` view), without central migration 0010's indexes.
* **The indexes**: the time migration 0010 takes to build them over the loaded plays,
  their size, and what they cost an insert (a COPY of plays with and without them).
* **After**: the report's queries (kiosk/fleet/report/queries.py) for 7, 31 and 365 days,
  for every kiosk, one group and one kiosk, with the plan nodes that read ``plays``
  (EXPLAIN ANALYZE), and ``kiosk fleet report`` as a whole (queries, charts, page, CSV).

    python -m bench.report [--kiosks 5000] [--days 400] [--plays-per-day 8] [--no-write]
    python -m bench.report --render results.json     # the section again from a saved run
    python -m bench.report --existing DSN --with results.json   # the queries again, on the
                                            # server and data of a run that was kept
    python -m bench.report --sync-cost [--plays 10000] [--runs 3]

Timings are the median of three runs, warm (each query ran once before). Results go to
docs/benchmarks.md, section "Fleet report (bench/report.py)"; each run's figures are also
saved as JSON (``--save``, by default bench-report.json in the temporary directory).

``--sync-cost``: bench/sync.py's catching up (one kiosk's backlog sent by ``kiosk sync``,
against PostgreSQL's COPY of the same rows) on a server with and without migration 0010's
indexes on ``plays``, in pairs, in one run: what the report's indexes cost the kiosks.
Section "Fleet report: what its indexes cost the sync (bench/report.py --sync-cost)".
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import psycopg

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench._report import write_section  # noqa: E402
from bench.sync import _cpu  # noqa: E402
from kiosk.fleet import central  # noqa: E402
from tests.fleet import fleet_data as report_data  # noqa: E402
from tests.fleet.pgserver import PgServer  # noqa: E402

TITLE = "Fleet report (bench/report.py)"
SYNC_TITLE = "Fleet report: what its indexes cost the sync (bench/report.py --sync-cost)"
LAST_DAY = date(2026, 6, 30)
SPANS = (7, 31, 365)
#: a server for a fleet (docs/fleet.md: 16 GB of memory); set before the data is loaded
SERVER = {"shared_buffers": "2GB", "work_mem": "64MB", "maintenance_work_mem": "1GB",
          "effective_cache_size": "12GB", "max_wal_size": "16GB", "random_page_cost": "1.1"}
#: the report's indexes (central migration 0010): dropped for "before", built for "after"
INDEXES = ("plays_report_started", "plays_report_kiosk_started", "plays_unsynced",
           "heartbeats_kiosk_boot")

#: the report's queries before issue 32 (kiosk/fleet/report.py at 4f48375), as they were
OLD = {
    "plays per day": "SELECT day, kiosk, sum(plays)::bigint, sum(won)::bigint FROM plays_per_day"
                     " WHERE day >= %(since)s GROUP BY day, kiosk ORDER BY day, kiosk",
    "games": "SELECT game, count(*), count(*) FILTER (WHERE result = 'won'),"
             " round(count(*) FILTER (WHERE result = 'won')::numeric / nullif(count(*) FILTER"
             " (WHERE result IN ('won', 'lost', 'abandoned')), 0), 4),"
             " percentile_cont(0.5) WITHIN GROUP (ORDER BY duration) FILTER"
             " (WHERE result IN ('won', 'lost', 'abandoned'))"
             " FROM plays WHERE demo = 0 AND clock_synced = 1 AND left(started, 10) >= %(start)s"
             " GROUP BY game ORDER BY count(*) DESC, game",
    "hours": "SELECT substr(started, 12, 2)::int AS hour, count(*) FROM plays"
             " WHERE demo = 0 AND clock_synced = 1 AND left(started, 10) >= %(start)s"
             " GROUP BY 1 ORDER BY 1",
    "matches": "SELECT m.game, coalesce(m.level, ''), count(*),"
               " count(*) FILTER (WHERE m.winner = 'visitor'),"
               " count(*) FILTER (WHERE m.winner LIKE 'computer%%')"
               " FROM matches m JOIN plays p ON p.kiosk = m.kiosk AND p.id = m.play_id"
               " WHERE p.demo = 0 AND p.clock_synced = 1 AND left(p.started, 10) >= %(start)s"
               " GROUP BY 1, 2 ORDER BY 1, 2",
}


def timed(fn, runs: int = 3) -> float:
    fn()  # warm
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def plan_nodes(conn: Any, sql: str, params: dict[str, Any]) -> list[str]:
    """The plan's nodes that read a table or an index, with their rows (EXPLAIN ANALYZE)."""
    plan = conn.execute("EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) " + sql, params).fetchone()[0]
    out: list[str] = []

    def walk(node: dict[str, Any]) -> None:
        kind = node["Node Type"]
        if "Scan" in kind and node.get("Relation Name") in ("plays", "matches", "heartbeats"):
            what = f"{kind} on {node['Relation Name']}"
            if node.get("Index Name"):
                what = f"{kind} using {node['Index Name']}"
            rows = node.get("Actual Rows", 0) * node.get("Actual Loops", 1)
            extra = f", heap fetches {node['Heap Fetches']:,}" if "Heap Fetches" in node else ""
            out.append(f"{what} ({rows:,.0f} rows{extra})")
        for child in node.get("Plans", []):
            walk(child)

    walk(plan[0]["Plan"])
    return out


def old_report(conn: Any, span: int) -> tuple[float, list[str]]:
    since = LAST_DAY - timedelta(days=span - 1)
    params = {"since": since, "start": since.isoformat()}

    def run() -> None:
        for sql in OLD.values():
            conn.execute(sql, params).fetchall()

    nodes = []
    for name, sql in OLD.items():
        nodes += [f"{name}: {n}" for n in plan_nodes(conn, sql, params)]
    return timed(run, runs=1 if span > 31 else 3), nodes


def new_report(conn: Any, span: int, kiosks: list[str], groups: list[str]) -> dict[str, Any]:
    from kiosk.fleet.report import queries as q

    tz = q.time_zone(conn, "UTC")
    sc = q.scope(conn, kiosks, groups)
    period = q.Period(LAST_DAY - timedelta(days=span - 1), LAST_DAY)
    rows = [0]

    def run() -> None:
        rows[0] = 0

        def count(*_row: Any) -> None:
            rows[0] += 1

        q.collect(conn, period, sc, tz, count)
        q.collect_before(conn, period.before(), sc, tz)

    seconds = timed(run, runs=1 if span > 31 and not kiosks and not groups else 3)
    data = q.collect(conn, period, sc, tz)
    b = q.bounds(conn, period, tz)
    now = conn.execute("SELECT now()").fetchone()[0]
    extra, _info = q.unclocked(conn, sc, b, now)
    params = {**q.query_params(sc, b, tz, extra)}
    some = q.kiosk_filter(sc)
    nodes = plan_nodes(conn, q.SUMMARY.format(some=some), params)
    unclocked_nodes = plan_nodes(conn, q.UNCLOCKED.format(
        some_k=" AND k.name = ANY(%(kiosks)s)" if sc.names is not None else ""),
        {**b.params, "kiosks": list(sc.names or ())})
    return {"span": span, "scope": sc.label, "seconds": seconds, "plays": data.total.plays,
            "day_rows": rows[0], "dated": data.unclocked.dated,
            "undated": data.unclocked.undated,
            "maybe": sum(data.unclocked.maybe.values()), "nodes": nodes,
            "unclocked_nodes": unclocked_nodes}


def whole_report(dsn: str, span: int, root: Path) -> float:
    from kiosk.commands.cli import main

    out = root / f"report-{span}.html"
    args = ["fleet", "report", "--dsn", dsn, "--since",
            (LAST_DAY - timedelta(days=span - 1)).isoformat(), "--until", LAST_DAY.isoformat(),
            "--tz", "UTC", "--out", str(out)]
    t0 = time.perf_counter()
    assert main(args) == 0
    return time.perf_counter() - t0


def insert_cost(conn: Any, n: int = 200_000) -> tuple[float, float]:
    """Seconds to insert ``n`` plays into a copy of ``plays`` with the indexes it had
    before migration 0010 and with the report's as well (what each kiosk's rows pay)."""
    conn.execute("CREATE TEMP TABLE sample AS SELECT * FROM plays LIMIT %s", (n,))
    sql = next(m.sql for m in central.migrations() if m.version == 10)
    report_indexes = [s.strip().replace(" ON plays ", " ON plays_copy ")
                      .replace("CREATE INDEX plays_", "CREATE INDEX copy_")
                      for s in sql.split(";") if "CREATE INDEX" in s and " ON plays " in s]
    seconds = []
    for with_report in (False, True):
        conn.execute("DROP TABLE IF EXISTS plays_copy")
        conn.execute("CREATE TABLE plays_copy (LIKE plays)")
        conn.execute("ALTER TABLE plays_copy ADD PRIMARY KEY (kiosk, id)")
        conn.execute("CREATE INDEX ON plays_copy (game, started)")
        for statement in report_indexes if with_report else []:
            conn.execute(statement)
        t0 = time.perf_counter()
        conn.execute("INSERT INTO plays_copy SELECT * FROM sample")
        seconds.append(time.perf_counter() - t0)
    conn.execute("DROP TABLE plays_copy")
    conn.execute("DROP TABLE sample")
    return seconds[0], seconds[1]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--kiosks", type=int, default=5000)
    ap.add_argument("--days", type=int, default=400)
    ap.add_argument("--plays-per-day", type=float, default=8)
    ap.add_argument("--no-write", action="store_true")
    ap.add_argument("--save", metavar="FILE.json")
    ap.add_argument("--render", metavar="FILE.json")
    ap.add_argument("--sync-cost", action="store_true")
    ap.add_argument("--existing", metavar="DSN")
    ap.add_argument("--with", dest="earlier", metavar="FILE.json")
    ap.add_argument("--plays", type=int, default=10_000)
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args(argv)
    if args.sync_cost:
        text = sync_cost(args.plays, args.runs)
        print(text)
        if not args.no_write:
            write_section(SYNC_TITLE, text)
        return 0
    if args.render:
        text = render(json.loads(Path(args.render).read_text()))
        print(text)
        if not args.no_write:
            write_section(TITLE, text)
        return 0
    if args.existing:
        result = json.loads(Path(args.earlier).read_text())
        root = Path(tempfile.mkdtemp(prefix="bench-report-"))
        measure(args.existing, result, root)
        save = Path(args.save) if args.save else root / "bench-report.json"
        save.write_text(json.dumps(result, default=str, indent=1))
        text = render(json.loads(save.read_text()))
        print(text)
        if not args.no_write:
            write_section(TITLE, text)
        return 0
    pg = PgServer(tls=False)
    root = Path(tempfile.mkdtemp(prefix="bench-report-"))
    result: dict[str, Any] = {"args": vars(args)}
    try:
        with pg.admin() as conn:
            for key, value in SERVER.items():
                conn.execute(f"ALTER SYSTEM SET {key} = '{value}'")
        pg.stop()
        pg.start()
        dsn = pg.create_database("bench_report")
        with psycopg.connect(dsn, autocommit=True) as conn:
            central.migrate(conn)
            for name in INDEXES:
                conn.execute(f"DROP INDEX {name}")
            t0 = time.perf_counter()
            result["counts"] = report_data.fill(conn, kiosks=args.kiosks, days=args.days,
                                                plays_per_day=args.plays_per_day,
                                                last_day=LAST_DAY.isoformat())
            result["fill_s"] = time.perf_counter() - t0
            t0 = time.perf_counter()
            conn.execute("VACUUM ANALYZE")
            result["vacuum_s"] = time.perf_counter() - t0
            result["plays_mb"] = conn.execute(
                "SELECT pg_table_size('plays') / 1048576.0").fetchone()[0]
            print(json.dumps(result, default=str), flush=True)
            # migration 0010's index statements on the loaded table, one by one
            sql = next(m.sql for m in central.migrations() if m.version == 10)
            result["build"] = {}
            for statement in [s.strip() for s in sql.split(";") if "CREATE INDEX" in s]:
                name = statement.split("CREATE INDEX ", 1)[1].split()[0]
                t0 = time.perf_counter()
                conn.execute(statement)
                result["build"][name] = {
                    "seconds": time.perf_counter() - t0,
                    "mb": conn.execute("SELECT pg_relation_size(%s) / 1048576.0",
                                       (name,)).fetchone()[0]}
                print("built", name, result["build"][name], flush=True)
            conn.execute("VACUUM ANALYZE plays")
            result["insert"] = insert_cost(conn)
            print("insert", result["insert"], flush=True)
        measure(dsn, result, root)
    finally:
        pg.destroy()
    save = Path(args.save) if args.save else root / "bench-report.json"
    save.write_text(json.dumps(result, default=str, indent=1))
    print(f"figures saved in {save}")
    text = render(json.loads(save.read_text()))
    print(text)
    if not args.no_write:
        write_section(TITLE, text)
    return 0


def measure(dsn: str, result: dict[str, Any], root: Path) -> None:
    """The report's queries before (the old ones, which cannot use migration 0010's
    indexes) and after, and the whole command, on a loaded server, one after the other."""
    with psycopg.connect(dsn, autocommit=True) as conn:
        result["old"] = {}
        for span in SPANS:
            result["old"][span] = old_report(conn, span)
            print("old", span, json.dumps(result["old"][span]), flush=True)
    with psycopg.connect(dsn) as conn:
        result["new"] = []
        for span in SPANS:
            for kiosks, groups in (([], []), ([], ["g07"]), (["k0042"], [])):
                r = new_report(conn, span, kiosks, groups)
                result["new"].append(r)
                print("new", json.dumps(r), flush=True)
            conn.rollback()
    result["whole"] = {span: whole_report(dsn, span, root) for span in SPANS}
    print("whole", result["whole"], flush=True)


def sync_cost(plays: int, runs: int) -> str:
    """``kiosk sync`` catching up ``plays`` plays, with and without the report's indexes."""
    import shutil

    from bench import sync as bench_sync

    report_indexes = INDEXES[:3]  # those on plays
    rows: dict[bool, list[dict[str, Any]]] = {False: [], True: []}
    for _ in range(runs):
        for with_indexes in (False, True):
            pg = PgServer(tls=False)
            root = Path(tempfile.mkdtemp(prefix="bench-report-sync-"))
            try:
                dsn = pg.create_database("bench_fleet")
                with psycopg.connect(dsn, autocommit=True) as conn:
                    central.migrate(conn)
                    if not with_indexes:
                        for name in report_indexes:
                            conn.execute(f"DROP INDEX {name}")
                r = bench_sync.catch_up(pg, dsn, root, plays)
                rows[with_indexes].append(r)
                print(with_indexes, json.dumps(r), flush=True)
            finally:
                pg.destroy()
                shutil.rmtree(root, ignore_errors=True)

    def med(with_indexes: bool, key: str) -> float:
        return statistics.median(r[key] for r in rows[with_indexes])

    return "\n".join([
        f"{time.strftime('%Y-%m-%d')}, this machine ({_cpu()}): bench/sync.py's catching up, "
        f"{plays:,} plays of {bench_sync.MOVES} moves, on a server without and with "
        f"migration 0010's indexes on `plays` ({', '.join(report_indexes)}), {runs} pairs "
        "in one run, medians.",
        "",
        "| server | kiosk sync | COPY of the same rows | sync/COPY |",
        "|---|---:|---:|---:|",
        *(f"| {'with' if w else 'without'} the report's indexes | {med(w, 'sync_s'):.2f} s | "
          f"{med(w, 'copy_s'):.2f} s | {med(w, 'ratio'):.2f}x |" for w in (False, True)),
        "",
        f"The sync took {med(True, 'sync_s') / med(False, 'sync_s'):.2f}x the time with the "
        "indexes (COPY into tables of the same shape, indexes included, "
        f"{med(True, 'copy_s') / med(False, 'copy_s'):.2f}x).",
    ])


def render(r: dict[str, Any]) -> str:
    """The section's text from a run's figures (as saved: JSON keys are text)."""
    a, c = r["args"], r["counts"]
    r = {**r, "old": {int(k): v for k, v in r["old"].items()},
         "whole": {int(k): v for k, v in r["whole"].items()},
         "plays_mb": float(r["plays_mb"]),
         "build": {k: {"seconds": float(v["seconds"]), "mb": float(v["mb"])}
                   for k, v in r["build"].items()}}
    lines = [
        f"{time.strftime('%Y-%m-%d')}, this machine ({_cpu()}), PostgreSQL 15 on the same "
        "machine over its Unix socket, set as for a fleet's server ("
        + ", ".join(f"{k} {v}" for k, v in SERVER.items()) + "). "
        f"{c['kiosks']:,} kiosks in 50 groups, {a['days']} days of plays up to "
        f"{LAST_DAY.isoformat()} at {a['plays_per_day']:g} plays a day per kiosk on average "
        f"(a kiosk fills 20 % to 80 % of its slots, weekends busier): {c['plays']:,} plays "
        f"({r['plays_mb']:,.0f} MB), {c['unsynced']:,} of them of unsynchronised clocks "
        f"({100 * c['unsynced'] / c['plays']:.1f} %), {c['matches']:,} matches, "
        f"{c['heartbeats']:,} heartbeats; made by SQL in {r['fill_s']:.0f} s. "
        "Median of three warm runs (one for the old queries and the whole fleet at 365 "
        "days).",
        "",
        "**Before** (the report's queries as they were, without migration 0010):",
        "",
        "| days | the four queries | plan nodes that read plays |",
        "|---:|---:|---|",
    ]
    for span in SPANS:
        seconds, nodes = r["old"][span]
        lines.append(f"| {span} | {seconds:.2f} s | {'; '.join(sorted(set(nodes)))} |")
    lines += ["", "**Migration 0010** on this table (CREATE INDEX each, one transaction):", "",
              "| index | build | size |", "|---|---:|---:|"]
    for name, b in r["build"].items():
        lines.append(f"| {name} | {b['seconds']:.1f} s | {b['mb']:,.0f} MB |")
    without, with_ = r["insert"]
    lines += ["", f"What they cost an insert: 200,000 plays into a copy of `plays` in "
              f"{without:.2f} s without them, {with_:.2f} s with them "
              f"({with_ / without:.2f}x; plays are about 5 % of a kiosk's rows, moves the rest).",
              "", "**After** (kiosk/fleet/report/queries.py: the period and the period before, "
              "all queries of the page):", "",
              "| days | kiosks | plays in the period | queries | per day and kiosk rows | "
              "unsynchronised: dated, on no day, perhaps | plan nodes that read plays |",
              "|---:|---|---:|---:|---:|---|---|"]
    for n in r["new"]:
        lines.append(f"| {n['span']} | {n['scope']} | {n['plays']:,} | {n['seconds']:.2f} s | "
                     f"{n['day_rows']:,} | {n['dated']:,}, {n['undated']:,}, {n['maybe']:,} | "
                     f"{'; '.join(n['nodes'])} |")
    first = r["new"][0]
    lines += ["", "The unsynchronised plays' query (every kiosk): "
              + "; ".join(sorted(set(first["unclocked_nodes"]))) + ".", "",
              "`kiosk fleet report` as a whole (every kiosk: queries, health, charts, page, "
              "CSV files): " + ", ".join(f"{span} days {s:.1f} s"
                                         for span, s in r["whole"].items()) + "."]
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
