"""The report answers an office's questions (issue 32): a period with both ends, the
office's time zone, some kiosks or a group, the period before, the plays of unsynchronised
clocks dated, counted or said; and its queries can be answered by migration 0010's
indexes. Against the real server, with rows written as the kiosks write them."""

from __future__ import annotations

import csv
from datetime import date

import psycopg
import pytest

from kiosk.commands.cli import main
from kiosk.fleet import central
from kiosk.fleet.report import queries as q


def kiosks(conn, *names: str, group: str | None = None) -> None:
    for name in names:
        central.add_kiosk(conn, name)
        if group:
            conn.execute("UPDATE kiosks SET grp = %s WHERE name = %s", (group, name))


def play(conn, kiosk: str, pid: int, started: str, *, synced: int = 1, boot: str = "b",
         mono: float | None = None, game: str = "klondike", result: str = "won",
         duration: float = 120.0) -> None:
    conn.execute("INSERT INTO plays (kiosk, id, game, started, clock_synced, demo, result,"
                 " duration, boot_id, started_mono) VALUES (%s, %s, %s, %s, %s, 0, %s, %s,"
                 " %s, %s)", (kiosk, pid, game, started, synced, result, duration, boot, mono))


def collect(conn, since: str, until: str, tz: str = "UTC", names=(), groups=()):
    sc = q.scope(conn, list(names), list(groups))
    return q.collect(conn, q.Period(date.fromisoformat(since), date.fromisoformat(until)), sc,
                     q.time_zone(conn, tz))


def test_days_and_hours_are_the_office_s(fleet_dsn, tmp_path, capsys):
    with psycopg.connect(fleet_dsn, autocommit=True) as conn:
        kiosks(conn, "lobby")
        play(conn, "lobby", 1, "2026-03-01T23:30:00.000Z")
        play(conn, "lobby", 2, "2026-03-02T00:30:00.000Z")
        utc = collect(conn, "2026-03-02", "2026-03-02")
        assert utc.total.plays == 1 and set(utc.hours) == {0}
        shanghai = collect(conn, "2026-03-02", "2026-03-02", "Asia/Shanghai")  # UTC+8
        assert shanghai.total.plays == 2 and set(shanghai.hours) == {7, 8}
        assert collect(conn, "2026-03-02", "2026-03-02", "America/New_York").total.plays == 0
        assert collect(conn, "2026-03-01", "2026-03-01", "America/New_York").total.plays == 2
        # the default: the server's (here the database's) TimeZone
        dbname = conn.info.dbname
        conn.execute(f"ALTER DATABASE {dbname} SET timezone = 'Asia/Shanghai'")
    out = tmp_path / "r.html"
    assert main(["fleet", "report", "--dsn", fleet_dsn, "--since", "2026-03-02", "--until",
                 "2026-03-02", "--out", str(out)]) == 0
    capsys.readouterr()
    page = out.read_text()
    assert "in the time zone Asia/Shanghai" in page and "hour of the day (Asia/Shanghai)" in page
    hours = {r["hour"]: r["plays"] for r in csv.DictReader(open(tmp_path / "r-hours.csv"))}
    assert hours == {"7": "1", "8": "1"}


def test_until_is_included_and_a_summer_time_day_has_23_hours(fleet_dsn):
    """Europe/Berlin, 2026-03-29: the clocks go forward; the day is 23:00Z to 22:00Z."""
    with psycopg.connect(fleet_dsn, autocommit=True) as conn:
        kiosks(conn, "lobby")
        for pid, started in enumerate(["2026-03-28T22:59:59.999Z", "2026-03-28T23:00:00.000Z",
                                       "2026-03-29T21:59:59.999Z", "2026-03-29T22:00:00Z",
                                       "2026-03-29T22:00:00.000Z", "2026-03-29T21:59:59Z"]):
            play(conn, "lobby", pid + 1, started)
        d = collect(conn, "2026-03-29", "2026-03-29", "Europe/Berlin")
        assert d.total.plays == 3 and list(d.days) == [date(2026, 3, 29)]
        assert set(d.hours) == {0, 23}
        d = collect(conn, "2026-03-28", "2026-03-30", "Europe/Berlin")
        assert d.total.plays == 6 and [d.days[k].plays for k in sorted(d.days)] == [1, 3, 2]


def test_some_kiosks_a_group_or_both(fleet_dsn, tmp_path, capsys):
    with psycopg.connect(fleet_dsn, autocommit=True) as conn:
        kiosks(conn, "a1")
        kiosks(conn, "h1", "h2", group="hotels")
        kiosks(conn, "c1", group="clinics")
        for n, k in enumerate(("a1", "h1", "h2", "h2", "c1", "c1", "c1")):
            play(conn, k, n, f"2026-03-0{1 + n % 5}T10:00:00.000Z")
        assert collect(conn, "2026-03-01", "2026-03-07").total.plays == 7
        assert collect(conn, "2026-03-01", "2026-03-07", names=["a1"]).total.plays == 1
        d = collect(conn, "2026-03-01", "2026-03-07", groups=["hotels"])
        assert d.total.plays == 3 and set(d.kiosks) == {"h1", "h2"}
        d = collect(conn, "2026-03-01", "2026-03-07", names=["a1"], groups=["clinics"])
        assert d.total.plays == 4 and set(d.kiosks) == {"a1", "c1"}
    out = tmp_path / "r.html"
    assert main(["fleet", "report", "--dsn", fleet_dsn, "--since", "2026-03-01", "--until",
                 "2026-03-07", "--tz", "UTC", "--group", "hotels", "--out", str(out)]) == 0
    capsys.readouterr()
    rows = list(csv.DictReader(open(tmp_path / "r-kiosks.csv")))
    assert [(r["kiosk"], r["group"], r["plays"]) for r in rows] == [
        ("h2", "hotels", "2"), ("h1", "hotels", "1")]
    assert "group hotels (2 kiosks)" in out.read_text()


def test_totals_play_time_and_the_period_before(fleet_dsn, tmp_path, capsys):
    with psycopg.connect(fleet_dsn, autocommit=True) as conn:
        kiosks(conn, "lobby", "quiet")
        # the week before: 4 plays of lobby; this week: 6 of lobby, 1 of quiet
        for n in range(4):
            play(conn, "lobby", n, f"2026-02-2{3 + n}T10:00:00.000Z", duration=60)
        for n in range(6):
            play(conn, "lobby", 10 + n, f"2026-03-0{2 + n}T10:00:00.000Z", duration=600,
                 result="won" if n < 3 else "lost")
        play(conn, "quiet", 1, "2026-03-08T10:00:00.000Z", result="abandoned", duration=30)
    out = tmp_path / "r.html"
    assert main(["fleet", "report", "--dsn", fleet_dsn, "--since", "2026-03-02", "--until",
                 "2026-03-08", "--tz", "UTC", "--out", str(out)]) == 0
    capsys.readouterr()
    rows = {r["kiosk"]: r for r in csv.DictReader(open(tmp_path / "r-kiosks.csv"))}
    assert rows["lobby"]["plays"] == "6" and rows["lobby"]["plays_before"] == "4"
    assert rows["lobby"]["change_percent"] == "50.0" and rows["lobby"]["play_hours"] == "1.0"
    assert rows["lobby"]["win_rate"] == "0.5"
    assert rows["quiet"]["change_percent"] == "" and rows["quiet"]["win_rate"] == "0.0"
    days = list(csv.DictReader(open(tmp_path / "r-days.csv")))
    assert [d["day_before"] for d in days][:2] == ["2026-02-23", "2026-02-24"]
    assert [d["plays_before"] for d in days][:4] == ["1", "1", "1", "1"]
    page = out.read_text()
    assert "the 7 days before (2026-02-23 to 2026-03-01)" in page
    assert "<td class=n>+50 %</td>" in page  # the kiosks table on the page
    games = {r["game"]: r for r in csv.DictReader(open(tmp_path / "r-games.csv"))}
    assert games["klondike"]["median_minutes"] == "10.0"  # six of 10 min, one of half a min


def test_unsynchronised_plays_are_dated_counted_or_said(fleet_dsn, tmp_path, capsys):
    """Four kinds of boot: synchronised later in the boot (dated by that play), never but
    with a heartbeat (dated by the server's clock), neither but between two synchronised
    plays of the period (counted, on no day), neither and only perhaps in the period
    (said, not counted)."""
    fake = "2025-01-01T00:10:00.000Z"  # what an unsynchronised Pi's clock says
    with psycopg.connect(fleet_dsn, autocommit=True) as conn:
        kiosks(conn, "pi")
        play(conn, "pi", 10, fake, synced=0, boot="B1", mono=100)
        play(conn, "pi", 11, fake, synced=0, boot="B1", mono=200)
        play(conn, "pi", 12, "2026-03-05T10:00:00.000Z", boot="B1", mono=1000)
        play(conn, "pi", 20, fake, synced=0, boot="B2", mono=600)
        play(conn, "pi", 21, fake, synced=0, boot="B2", mono=1200)
        conn.execute("INSERT INTO heartbeats (kiosk, received, boot_id, uptime) VALUES"
                     " ('pi', '2026-03-06T12:00:00Z', 'B2', 3600)")
        play(conn, "pi", 29, "2026-03-07T10:00:00.000Z", boot="B3a", mono=50)
        play(conn, "pi", 30, fake, synced=0, boot="B3", mono=70)
        play(conn, "pi", 31, "2026-03-07T15:00:00.000Z", boot="B4", mono=80)
        play(conn, "pi", 39, "2026-03-07T20:00:00.000Z", boot="B4", mono=5000)
        play(conn, "pi", 40, fake, synced=0, boot="B5", mono=90)
        play(conn, "pi", 41, "2026-03-09T10:00:00.000Z", boot="B6", mono=60)
        d = collect(conn, "2026-03-01", "2026-03-08")
        assert (d.unclocked.dated, d.unclocked.undated, d.unclocked.maybe) == (4, 1, {"pi": 1})
        assert d.total.plays == 9 and d.kiosks["pi"].plays == 9
        assert {k.isoformat(): t.plays for k, t in d.days.items()} == {
            "2026-03-05": 3, "2026-03-06": 2, "2026-03-07": 3}
        assert d.hours[9].plays == 2 and d.hours[11].plays == 2  # 09:45, 09:46:40; 11:10, 11:20
        assert d.undated_by_kiosk == {"pi": 1}
        # a later period holds the "perhaps" one too: its bracket reaches into it
        later = collect(conn, "2026-03-09", "2026-03-09")
        assert later.total.plays == 1 and later.unclocked.maybe == {"pi": 1}
    out = tmp_path / "r.html"
    assert main(["fleet", "report", "--dsn", fleet_dsn, "--since", "2026-03-01", "--until",
                 "2026-03-08", "--tz", "UTC", "--out", str(out)]) == 0
    capsys.readouterr()
    page = out.read_text()
    assert ("6 plays were made while the kiosk's clock was not synchronised: 4 dated from a "
            "later play or a heartbeat of the same boot") in page
    assert "1 certainly in this period, on no known day" in page
    assert "1 perhaps in this period and not counted (pi 1" in page
    row = next(csv.DictReader(open(tmp_path / "r-kiosks.csv")))
    assert (row["plays"], row["on_no_day"], row["perhaps_not_counted"]) == ("9", "1", "1")
    per_day = list(csv.DictReader(open(tmp_path / "r-plays-per-day.csv")))
    assert sum(int(r["plays"]) for r in per_day) == 8  # the one on no day is in no day


def _reads(conn, sql: str, params, table: str = "plays") -> set[tuple[str, str]]:
    """(node type, index or table) of every plan node that reads ``table``."""
    plan = conn.execute("EXPLAIN (FORMAT JSON) " + sql, params).fetchone()[0]
    out: set[tuple[str, str]] = set()

    def walk(node) -> None:
        if node.get("Relation Name") == table:
            out.add((node["Node Type"], node.get("Index Name", table)))
        for child in node.get("Plans", []):
            walk(child)

    walk(plan[0]["Plan"])
    return out


def test_the_queries_are_answered_by_the_report_s_indexes(fleet_dsn):
    """With sequential scans priced out, every query of the page reads plays through
    migration 0010's indexes (or a primary key lookup): their conditions match the
    indexes' (partial, COLLATE "C"). Without the indexes the same plans scan the table."""
    with psycopg.connect(fleet_dsn, autocommit=True) as conn:
        kiosks(conn, "a", "b", group="g")
        for n in range(300):
            play(conn, "a" if n % 2 else "b", n, f"2026-03-{1 + n % 28:02d}T1{n % 10}:00:00.000Z",
                 synced=0 if n % 50 == 0 else 1, mono=n)
        conn.execute("ANALYZE")
        conn.execute("SET enable_seqscan = off")
        conn.execute("SET enable_bitmapscan = off")
        for names in ((), ("a",)):
            sc = q.scope(conn, list(names), [])
            p = q.Period(date(2026, 3, 1), date(2026, 3, 7))
            b = q.bounds(conn, p, "UTC")
            q.unclocked(conn, sc, b, conn.execute("SELECT now()").fetchone()[0])
            # a dated play of an unsynchronised clock: the union's second half is planned
            params = q.query_params(sc, b, "UTC", q.Extra(["a"], [1], [None]))
            index = "plays_report_kiosk_started" if names else "plays_report_started"
            params["seated"] = ["gin_rummy"]
            for sql in (q.SUMMARY, q.BEFORE, q.MATCHES):
                reads = _reads(conn, sql.format(some=q.kiosk_filter(sc)), params)
                assert ("Index Only Scan", index) in reads, reads
                assert {i for _kind, i in reads} == {index, "plays_pkey"}, reads
            # the matches: looked up by key, a play at a time, never the whole table read
            plan = str(conn.execute("EXPLAIN (FORMAT JSON) " + q.MATCHES.format(
                some=q.kiosk_filter(sc)), params).fetchone()[0])
            assert _reads(conn, q.MATCHES.format(some=q.kiosk_filter(sc)), params,
                          "matches") == {("Index Scan", "matches_pkey")}
            assert ".id))" in plan and "play_id = " in plan and "'Hash Join'" not in plan
            some = " AND k.name = ANY(%(kiosks)s)" if names else ""
            reads = _reads(conn, q.UNCLOCKED.format(some_k=some),
                           {**b.params, "kiosks": list(names)})
            assert {i for _kind, i in reads} == {"plays_unsynced", "plays_report_kiosk_started",
                                                  "plays_pkey"}, reads
        conn.execute("DROP INDEX plays_report_started")
        sc = q.scope(conn, [], [])
        reads = _reads(conn, q.SUMMARY.format(some=""), q.query_params(
            sc, q.bounds(conn, q.Period(date(2026, 3, 1), date(2026, 3, 7)), "UTC"), "UTC",
            q.Extra()))
        assert ("Seq Scan", "plays") in reads or all(
            i != "plays_report_started" for _k, i in reads)


@pytest.mark.parametrize("tz", ["UTC", "Europe/Berlin", "Asia/Kolkata", "Asia/Kathmandu"])
def test_bounds_are_the_kiosk_s_own_text(fleet_dsn, tz):
    """Millisecond text in the kiosks' format: byte order is time order against every
    stored form ('...00Z' and '...00.000Z' are the same instant)."""
    with psycopg.connect(fleet_dsn) as conn:
        b = q.bounds(conn, q.Period(date(2026, 7, 1), date(2026, 7, 1)), tz)
        lo, hi = b.params["lo"], b.params["hi"]
        assert len(lo) == len(hi) == 24 and lo.endswith("Z") and lo[19] == "."
        assert (b.hi - b.lo).total_seconds() == 86400
