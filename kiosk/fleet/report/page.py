"""The report page: one self-contained HTML file, the kiosks that need a person on top,
the charts, then the tables, and the same tables as CSV files beside it."""

from __future__ import annotations

import csv
import html
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

from kiosk.fleet import health
from kiosk.fleet.report import charts
from kiosk.fleet.report.queries import Table
from kiosk.fleet.report.queries import tables as _tables

STYLE = """
body { font-family: system-ui, sans-serif; margin: 1.5em auto; max-width: 960px;
       color: #222; }
h1 { font-size: 1.5em; } h2 { font-size: 1.15em; margin-top: 1.6em; }
.need { border: 2px solid #c0392b; background: #fdecea; padding: .6em 1em; }
.fine { border: 2px solid #27ae60; background: #eafaf1; padding: .6em 1em; }
table { border-collapse: collapse; font-size: .9em; } td, th { padding: .15em .6em;
  border-bottom: 1px solid #ddd; text-align: left; }
figure { margin: 1em 0; } svg { max-width: 100%; height: auto; }
.muted { color: #666; font-size: .9em; }
"""


def _health_block(kiosks: list[health.KioskHealth]) -> str:
    need = [k for k in kiosks if k.needs_person]
    if not need:
        return (f'<div class="fine" id="health">Every kiosk is fine ({_n(len(kiosks), "kiosk")}:'
                " heartbeats on time, no restarts, card space, settings taken).</div>")
    items = "".join(
        f"<li><b>{html.escape(k.name)}</b>: {html.escape('; '.join(k.needs))}</li>"
        for k in need)
    verb = "needs" if len(need) == 1 else "need"
    return (f'<div class="need" id="health"><b>{len(need)} of {_n(len(kiosks), "kiosk")} '
            f"{verb} a person</b><ul>{items}</ul></div>")


def _n(n: int, noun: str) -> str:
    return f"{n:,} {noun}{'' if n == 1 else 's'}"


def _html_table(t: Table, limit: int = 40) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in t.header)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(str(v))}</td>" for v in r) + "</tr>"
                   for r in t.rows[:limit])
    more = (f'<p class="muted">{len(t.rows) - limit} more rows in the CSV file.</p>'
            if len(t.rows) > limit else "")
    return f"<table><tr>{head}</tr>{body}</table>{more}"


def build(conn: Any, *, since: date, out: Path) -> list[Path]:
    """Write the page to ``out`` and the CSV tables beside it; returns the CSV paths."""
    tables = {t.name: t for t in _tables(conn, since)}
    kiosks = health.assess(conn, remember=False)
    csv_paths = []
    for t in tables.values():
        path = out.with_name(f"{out.stem}-{t.name}.csv")
        with open(path, "w", newline="", encoding="utf-8") as fh:
            writer = csv.writer(fh)
            writer.writerow(t.header)
            writer.writerows(t.rows)
        csv_paths.append(path)
    drawn = [
        ("chart-days", charts.chart_days(tables["plays-per-day"])),
        ("chart-games", charts.chart_games(tables["games"])),
        ("chart-hours", charts.chart_hours(tables["hours"])),
        ("chart-matches", charts.chart_matches(tables["computer-matches"])),
    ]
    total = sum(r[2] for r in tables["plays-per-day"].rows)
    links = " ".join(f'<a href="{html.escape(p.name)}">{html.escape(p.name)}</a>'
                     for p in csv_paths)
    made = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    parts = [
        "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">",
        f"<title>Solitaire kiosks since {since.isoformat()}</title>",
        f"<style>{STYLE}</style></head><body>",
        f"<h1>Solitaire kiosks: {_n(len(kiosks), 'kiosk')}, {_n(total, 'play')} since "
        f"{since.isoformat()}</h1>",
        f'<p class="muted">Made {made}. Tables as CSV: {links}</p>',
        _health_block(kiosks),
        *(f'<figure id="{cid}">{svg}</figure>' for cid, svg in drawn),
        "<h2>The tables</h2>",
        *(f"<h3>{html.escape(t.title)}</h3>{_html_table(t)}" for t in tables.values()),
        "</body></html>",
    ]
    out.write_text("\n".join(parts), encoding="utf-8")
    return csv_paths
