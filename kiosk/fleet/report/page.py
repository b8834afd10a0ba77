"""The report page: one self-contained HTML file (no script, nothing fetched) with the
period and its comparison on top, the kiosks that need a person, the charts, then the
tables, and the same tables as CSV files beside it.

The page is in English (the office's report is not translated; game names are their
English names).
"""

from __future__ import annotations

import csv
import html
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import IO, Any

from kiosk.fleet import health
from kiosk.fleet.report import charts
from kiosk.fleet.report import queries as q
from kiosk.records.export import safe_cell

#: rows of a table on the page; the CSV file has them all
PAGE_ROWS = 40
#: kiosks named in the box of those that need a person
NEED_LINES = 30

STYLE = """
body { font-family: system-ui, sans-serif; margin: 1.5em auto; max-width: 960px;
       color: #222; padding: 0 1em; }
h1 { font-size: 1.5em; margin-bottom: .2em; } h2 { font-size: 1.15em; margin-top: 1.6em; }
.need { border: 2px solid #c0392b; background: #fdecea; padding: .6em 1em; }
.fine { border: 2px solid #27ae60; background: #eafaf1; padding: .6em 1em; }
.note { border-left: 4px solid #e0a800; background: #fff8e1; padding: .4em 1em; }
table { border-collapse: collapse; font-size: .9em; } td, th { padding: .15em .6em;
  border-bottom: 1px solid #ddd; text-align: left; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; }
figure { margin: 1em 0; } svg { max-width: 100%; height: auto; }
.muted { color: #666; font-size: .9em; }
.up { color: #1e7b34; } .down { color: #b03a2e; }
"""


@dataclass
class Table:
    name: str                 # file stem: report-<name>.csv
    title: str
    header: list[str]
    rows: list[list[Any]]
    #: columns shown right-aligned on the page (numbers), and those of them that are rates
    numeric: frozenset[int] = frozenset()
    percent: frozenset[int] = frozenset()
    #: columns of a change in percent (a number in the CSV file, "+12 %" on the page)
    changes: frozenset[int] = frozenset()


def game_name(gid: str) -> str:
    try:
        from games.engine import registry

        return str(registry.summary(gid)["names"].get("en") or gid)
    except Exception:  # noqa: BLE001 - a game this software does not know: its id
        return gid


def _n(n: int, noun: str) -> str:
    return f"{n:,} {noun}{'' if n == 1 else 's'}"


def change(now: float, before: float) -> str:
    """``+12 %``, ``-5 %``, ``0 %``; ``new`` when there was nothing before."""
    pct = change_pct(now, before)
    if pct == "":
        return "new" if now else ""
    return f"{pct:+.0f} %".replace("+0 %", "0 %").replace("-0 %", "0 %")


def change_pct(now: float, before: float) -> float | str:
    """The change in percent, for the CSV files; empty when there was nothing before."""
    return round(100 * (now - before) / before, 1) if before else ""


def _hours(seconds: float) -> float:
    return round(seconds / 3600, 1)


def _rate(t: q.Tally) -> float | str:
    r = t.win_rate
    return round(r, 4) if r is not None else ""


# ---------------------------------------------------------------------------- tables
def kiosk_table(data: q.PeriodData, before: q.PeriodData, sc: q.Scope) -> Table:
    rows: list[list[Any]] = []
    for name in sc.selected():
        t = data.kiosks.get(name, q.Tally())
        b = before.kiosks.get(name, q.Tally())
        rows.append([name, sc.groups.get(name) or "", t.plays, t.won, _rate(t),
                     _hours(t.seconds), b.plays, change_pct(t.plays, b.plays),
                     data.undated_by_kiosk.get(name, 0), data.unclocked.maybe.get(name, 0)])
    rows.sort(key=lambda r: (-r[2], r[0]))
    return Table("kiosks", "Kiosks: plays, wins, play time, the period before",
                 ["kiosk", "group", "plays", "won", "win_rate", "play_hours", "plays_before",
                  "change_percent", "on_no_day", "perhaps_not_counted"], rows,
                 frozenset({2, 3, 4, 5, 6, 7, 8, 9}), frozenset({4}), frozenset({7}))


def game_table(data: q.PeriodData, before: q.PeriodData) -> Table:
    rows = []
    for gid, t in sorted(data.games.items(), key=lambda gt: (-gt[1].plays, gt[0])):
        median = data.medians.get(gid)
        b = before.games.get(gid, q.Tally())
        rows.append([gid, game_name(gid), t.plays, t.won, _rate(t),
                     round(median / 60, 1) if median is not None else "", _hours(t.seconds),
                     b.plays, change_pct(t.plays, b.plays)])
    return Table("games", "Games: plays, wins, win rate, median minutes of a finished play, "
                 "play time", ["game", "name", "plays", "won", "win_rate", "median_minutes",
                               "play_hours", "plays_before", "change_percent"], rows,
                 frozenset({2, 3, 4, 5, 6, 7, 8}), frozenset({4}), frozenset({8}))


def day_table(data: q.PeriodData, before: q.PeriodData) -> Table:
    shift = timedelta(days=data.period.days)
    rows = []
    for day in data.period.dates():
        t = data.days.get(day, q.Tally())
        b = before.days.get(day - shift, q.Tally())
        rows.append([day.isoformat(), f"{day:%a}", t.plays, t.won, _hours(t.seconds),
                     (day - shift).isoformat(), b.plays])
    return Table("days", "Days: plays of every kiosk of the report, and the same weekday a "
                 "period before", ["day", "weekday", "plays", "won", "play_hours",
                                   "day_before", "plays_before"], rows,
                 frozenset({2, 3, 4, 6}))


def hour_table(data: q.PeriodData, tz: str) -> Table:
    return Table("hours", f"Plays by hour of the day ({tz})", ["hour", "plays", "won"],
                 [[h, t.plays, t.won] for h, t in sorted(data.hours.items())],
                 frozenset({0, 1, 2}))


def match_table(data: q.PeriodData) -> Table:
    return Table("computer-matches", "Matches against the computer by level",
                 ["game", "level", "matches", "visitor_won", "computer_won"],
                 [[g, lv or "(none)", n, v, c] for g, lv, n, v, c in charts.match_rows(data)],
                 frozenset({2, 3, 4}))


def write_csv(path: Path, t: Table) -> None:
    with open(path, "w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        writer.writerow(t.header)
        writer.writerows([safe_cell(v) for v in row] for row in t.rows)


@contextmanager
def _day_kiosk_csv(path: Path) -> Iterator[Any]:
    """The per day and kiosk file, written as the rows come from the server."""
    fh: IO[str]
    with open(path, "w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        writer.writerow(["day", "kiosk", "plays", "won"])

        def row(day: date, kiosk: str, plays: int, won: int) -> None:
            writer.writerow([day.isoformat(), safe_cell(kiosk), plays, won])

        yield row


# ---------------------------------------------------------------------------- html
def _html_table(t: Table, limit: int = PAGE_ROWS, ends: bool = False) -> str:
    """The first ``limit`` rows; ``ends``: the first and the last half of them (the most
    and the least played kiosks)."""
    def cells(tag: str, values: list[Any], head: bool = False) -> str:
        return "".join(f'<{tag}{" class=n" if i in t.numeric else ""}>'
                       f"{html.escape(str(v) if head else _shown(v, i, t))}</{tag}>"
                       for i, v in enumerate(values))

    head = cells("th", [h.replace("_", " ") for h in t.header], head=True)
    rows = t.rows
    gap = ""
    if len(rows) > limit and ends:
        half = limit // 2
        gap = (f'<tr><td colspan="{len(t.header)}" class="muted">... {len(rows) - limit:,} '
               "more in the CSV file; the least played:</td></tr>")
        body = ("".join(f"<tr>{cells('td', r)}</tr>" for r in rows[:half]) + gap
                + "".join(f"<tr>{cells('td', r)}</tr>" for r in rows[-half:]))
    else:
        body = "".join(f"<tr>{cells('td', r)}</tr>" for r in rows[:limit])
    more = (f'<p class="muted">{len(rows) - limit:,} more rows in the CSV file.</p>'
            if len(rows) > limit and not ends else "")
    return f"<table><tr>{head}</tr>{body}</table>{more}"


def _shown(v: Any, column: int, t: Table) -> str:
    if column in t.changes:
        return "" if v == "" else f"{v:+.0f} %".replace("+0 %", "0 %").replace("-0 %", "0 %")
    if column in t.percent and isinstance(v, float):
        return f"{100 * v:.0f} %"
    if isinstance(v, int):
        return f"{v:,}"
    return str(v)


def _health_block(kiosks: list[health.KioskHealth]) -> str:
    need = [k for k in kiosks if k.needs_person]
    if not need:
        return (f'<div class="fine" id="health">Every kiosk is fine ({_n(len(kiosks), "kiosk")}:'
                " heartbeats on time, no restarts, card space, settings taken).</div>")
    items = "".join(
        f"<li><b>{html.escape(k.name)}</b>: {html.escape('; '.join(k.needs))}</li>"
        for k in need[:NEED_LINES])
    if len(need) > NEED_LINES:
        items += (f"<li>and {len(need) - NEED_LINES:,} more: <code>kiosk fleet status</code> "
                  "lists them all</li>")
    verb = "needs" if len(need) == 1 else "need"
    return (f'<div class="need" id="health"><b>{len(need):,} of {_n(len(kiosks), "kiosk")} '
            f"{verb} a person</b><ul>{items}</ul></div>")


def _summary(data: q.PeriodData, before: q.PeriodData, sc: q.Scope) -> str:
    t, b = data.total, before.total
    active = sum(1 for k in data.kiosks.values() if k.plays)
    active_before = sum(1 for k in before.kiosks.values() if k.plays)

    def won(x: q.Tally) -> str:
        return f"{x.won:,} ({100 * x.win_rate:.0f} %)" if x.win_rate is not None \
            else f"{x.won:,}"

    def row(what: str, now: str, then: str, delta: str) -> str:
        cls = " up" if delta.startswith("+") else " down" if delta.startswith("-") else ""
        return (f"<tr><th>{what}</th><td class=n>{now}</td><td class=n>{then}</td>"
                f'<td class="n{cls}">{delta}</td></tr>')

    median = data.medians.get("")
    rows = [
        row("plays", f"{t.plays:,}", f"{b.plays:,}", change(t.plays, b.plays)),
        row("won (of finished plays)", won(t), won(b), change(t.won, b.won)),
        row("play time", f"{_hours(t.seconds):,} h", f"{_hours(b.seconds):,} h",
            change(t.seconds, b.seconds)),
        row("kiosks with plays", f"{active:,} of {len(sc.groups):,}", f"{active_before:,}",
            change(active, active_before)),
    ]
    med = (f'<p class="muted">A finished play lasted {median / 60:.1f} minutes (median).</p>'
           if median is not None else "")
    return (f'<table id="summary"><tr><th></th><th class=n>{html.escape(str(data.period))}</th>'
            f"<th class=n>the {data.period.days:,} days before ({html.escape(str(before.period))})"
            f"</th><th class=n>change</th></tr>{''.join(rows)}</table>{med}")


def _clocks(data: q.PeriodData) -> str:
    u = data.unclocked
    maybe = sum(u.maybe.values())
    if not (u.dated or u.undated or maybe):
        return ('<p class="muted" id="clocks">Every play of this period was made with a '
                "synchronised clock.</p>")
    parts = []
    if u.dated:
        parts.append(f"{u.dated:,} dated from a later play or a heartbeat of the same boot "
                     "(they are on their days and hours)")
    if u.undated:
        parts.append(f"{u.undated:,} certainly in this period, on no known day (counted in "
                     "the totals, kiosks and games, not in the days and hours)")
    if maybe:
        who = ", ".join(f"{html.escape(k)} {n:,}" for k, n in list(u.maybe.items())[:10])
        more = f" and {len(u.maybe) - 10:,} more kiosks" if len(u.maybe) > 10 else ""
        parts.append(f"{maybe:,} perhaps in this period and not counted ({who}{more}; the "
                     "kiosks CSV file has them all)")
    total = u.dated + u.undated + maybe
    were = "play was" if total == 1 else "plays were"
    return (f'<p class="note" id="clocks">{total:,} {were} made while the kiosk\'s clock '
            f"was not synchronised: {'; '.join(parts)}.</p>")


def build(conn: Any, *, since: date | None, out: Path, until: date | None = None,
          tz: str | None = None, kiosks: tuple[str, ...] = (),
          groups: tuple[str, ...] = ()) -> list[Path]:
    """Write the page to ``out`` and the CSV tables beside it; returns the CSV paths.
    ``until`` defaults to today and ``since`` to the six days before it (in ``tz``, by
    default the server's time zone). Raises :class:`queries.ReportInputError` for what the
    server does not know (a time zone, a kiosk, a group) and for ``until`` before
    ``since``."""
    zone = q.time_zone(conn, tz)
    last = until or q.today(conn, zone)
    first = since or last - timedelta(days=6)
    if last < first:
        raise q.ReportInputError(f"--until {last.isoformat()} is before --since "
                                 f"{first.isoformat()}")
    sc = q.scope(conn, list(kiosks), list(groups))
    period = q.Period(first, last)

    def csv_path(name: str) -> Path:
        return out.with_name(f"{out.stem}-{name}.csv")

    per_day = csv_path("plays-per-day")
    with _day_kiosk_csv(per_day) as rows:
        data = q.collect(conn, period, sc, zone, rows)
    before = q.collect_before(conn, period.before(), sc, zone)
    selected = set(sc.groups)
    kiosk_health = [k for k in health.assess(conn, remember=False) if k.name in selected]
    tables = [kiosk_table(data, before, sc), game_table(data, before), day_table(data, before),
              hour_table(data, zone), match_table(data)]
    csv_paths = [per_day]
    for t in tables:
        write_csv(csv_path(t.name), t)
        csv_paths.append(csv_path(t.name))
    figures = [
        ("chart-days", charts.figure_days(data, before)),
        ("chart-games", charts.figure_games(data, before, game_name)),
        ("chart-hours", charts.figure_hours(data, zone)),
        ("chart-matches", charts.figure_matches(data, game_name)),
    ]
    drawn = [(cid, charts.svg(fig)) for cid, fig in figures]
    links = " ".join(f'<a href="{html.escape(p.name)}">{html.escape(p.name)}</a>'
                     for p in csv_paths)
    made = conn.execute("SELECT now() AT TIME ZONE %s", (zone,)).fetchone()[0]
    made_text = made.strftime("%Y-%m-%d %H:%M") if isinstance(made, datetime) else str(made)
    title = f"Solitaire kiosks, {period}"
    parts = [
        "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">",
        f"<title>{html.escape(title)}</title>",
        f"<style>{STYLE}</style></head><body>",
        f"<h1>{html.escape(title)}</h1>",
        f'<p class="muted">{_n(period.days, "day")} in the time zone {html.escape(zone)}; '
        f"{html.escape(sc.label)}; compared with the {period.days:,} days before. Made "
        f"{made_text} ({html.escape(zone)}). Tables as CSV: {links}</p>",
        _health_block(kiosk_health),
        _summary(data, before, sc),
        _clocks(data),
        *(f'<figure id="{cid}">{svg}</figure>' for cid, svg in drawn),
        "<h2>The tables</h2>",
        *(f"<h3>{html.escape(t.title)}</h3>{_html_table(t, ends=t.name == 'kiosks')}"
          for t in tables),
        "</body></html>",
    ]
    out.write_text("\n".join(parts), encoding="utf-8")
    return csv_paths
