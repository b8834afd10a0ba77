"""The office's view (``kiosk fleet report``): one self-contained HTML page with the kiosks
that need a person on top, charts of what is played where, and the same tables as CSV
files beside it.

The charts are drawn by matplotlib (the ``office`` extra; never installed on a kiosk) as
SVG inlined into the page, so the page opens in any browser, offline, and can be mailed as
one file. The queries are those of the part 1 views (``plays_per_day``, ``game_results``,
``computer_matches``) limited to the report's dates, so a reporting tool reading the views
directly gets the same numbers (docs/fleet.md).

Days and hours come only from plays whose kiosk clock was synchronised (``clock_synced =
1``); the hours are UTC, as the kiosks record them.
"""

from __future__ import annotations

import csv
import html
import io
from dataclasses import dataclass
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")  # no display at the office's cron job either
import matplotlib.pyplot as plt  # noqa: E402 - after the backend is chosen

from kiosk.fleet import health  # noqa: E402

#: matplotlib's default cycle, colour-blind friendlier: tab10
PALETTE = [plt.get_cmap("tab10")(k)[:3] for k in range(10)]


#: the computer's levels, easiest first (games/players)
LEVEL_ORDER = {"easy": 0, "medium": 1, "hard": 2}


@dataclass
class Table:
    name: str                 # file stem: report-<name>.csv
    title: str
    header: list[str]
    rows: list[list[Any]]


def _game_name(gid: str) -> str:
    try:
        from games.engine import registry

        return registry.summary(gid)["names"].get("en") or gid
    except Exception:  # noqa: BLE001 - a game this software does not know: its id
        return gid


def _tables(conn: Any, since: date) -> list[Table]:
    start = since.isoformat()
    plays_per_day = conn.execute(
        "SELECT day, kiosk, sum(plays)::bigint, sum(won)::bigint FROM plays_per_day"
        " WHERE day >= %s GROUP BY day, kiosk ORDER BY day, kiosk", (since,)).fetchall()
    # the view's rule for a trusted date, applied to each query below
    dated = "demo = 0 AND clock_synced = 1 AND left(started, 10) >= %s"
    games = conn.execute(
        f"SELECT game, count(*), count(*) FILTER (WHERE result = 'won'),"
        f" round(count(*) FILTER (WHERE result = 'won')::numeric / nullif(count(*) FILTER"
        f" (WHERE result IN ('won', 'lost', 'abandoned')), 0), 4),"
        f" percentile_cont(0.5) WITHIN GROUP (ORDER BY duration) FILTER"
        f" (WHERE result IN ('won', 'lost', 'abandoned'))"
        f" FROM plays WHERE {dated} GROUP BY game ORDER BY count(*) DESC, game",
        (start,)).fetchall()
    hours = conn.execute(
        f"SELECT substr(started, 12, 2)::int AS hour, count(*) FROM plays WHERE {dated}"
        " GROUP BY 1 ORDER BY 1", (start,)).fetchall()
    matches = conn.execute(
        "SELECT m.game, coalesce(m.level, ''), count(*),"
        " count(*) FILTER (WHERE m.winner = 'visitor'),"
        " count(*) FILTER (WHERE m.winner LIKE 'computer%%')"
        " FROM matches m JOIN plays p ON p.kiosk = m.kiosk AND p.id = m.play_id"
        " WHERE p.demo = 0 AND p.clock_synced = 1 AND left(p.started, 10) >= %s"
        " GROUP BY 1, 2 ORDER BY 1, 2", (start,)).fetchall()
    return [
        Table("plays-per-day", "Plays per day by kiosk", ["day", "kiosk", "plays", "won"],
              [[d.isoformat(), k, n, w] for d, k, n, w in plays_per_day]),
        Table("games", "Games: plays, wins, win rate, median minutes of a finished play",
              ["game", "name", "plays", "won", "win_rate", "median_minutes"],
              [[g, _game_name(g), n, w, float(r) if r is not None else "",
                round(m / 60, 1) if m is not None else ""] for g, n, w, r, m in games]),
        Table("hours", "Plays by hour of the day (UTC)", ["hour_utc", "plays"],
              [[h, n] for h, n in hours]),
        Table("computer-matches", "Matches against the computer by level",
              ["game", "level", "matches", "visitor_won", "computer_won"],
              [[g, lv or "(none)", n, v, c] for g, lv, n, v, c in
               sorted(matches, key=lambda m: (m[0], LEVEL_ORDER.get(m[1], 9), m[1]))]),
    ]


# ---------------------------------------------------------------------------- charts
def _svg(fig: Any) -> str:
    buf = io.StringIO()
    fig.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None})
    plt.close(fig)
    text = buf.getvalue()
    return text[text.index("<svg"):]  # inline: no XML declaration or doctype


def _empty(ax: Any, what: str) -> None:
    ax.text(0.5, 0.5, f"no {what} since the report's first day", ha="center", va="center",
            transform=ax.transAxes, color="#666")
    ax.set_xticks([])
    ax.set_yticks([])


def _chart_days(t: Table) -> str:
    fig, ax = plt.subplots(figsize=(9, 3.6))
    days = sorted({r[0] for r in t.rows})
    kiosks = sorted({r[1] for r in t.rows})
    if not days:
        _empty(ax, "plays")
    bottom = [0] * len(days)
    index = {d: i for i, d in enumerate(days)}
    for n, kiosk in enumerate(kiosks):
        values = [0] * len(days)
        for day, k, plays, _won in t.rows:
            if k == kiosk:
                values[index[day]] = plays
        ax.bar(range(len(days)), values, bottom=bottom, label=kiosk,
               color=PALETTE[n % len(PALETTE)], width=0.85)
        bottom = [a + b for a, b in zip(bottom, values, strict=True)]
    if days:
        step = max(1, len(days) // 12)
        ax.set_xticks(range(0, len(days), step), [d[5:] for d in days[::step]])
        ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0), frameon=False)
    ax.set_ylabel("plays")
    ax.set_title("Plays per day by kiosk")
    ax.spines[["top", "right"]].set_visible(False)
    return _svg(fig)


def _chart_games(t: Table) -> str:
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(9, 3.6))
    rows = t.rows[:12]
    names = [r[1] for r in rows][::-1]
    if rows:
        ax1.barh(names, [r[2] for r in rows][::-1], color=PALETTE[0])
        rated = [r for r in rows if r[4] != ""][::-1]
        ax2.barh([r[1] for r in rated], [100 * r[4] for r in rated], color=PALETTE[2])
        ax2.set_xlim(0, 100)
        ax2.set_xlabel("% of finished plays won")
    else:
        _empty(ax1, "plays")
        _empty(ax2, "plays")
    ax1.set_title("Most played games")
    ax1.set_xlabel("plays")
    ax2.set_title("Win rate by game")
    for ax in (ax1, ax2):
        ax.spines[["top", "right"]].set_visible(False)
        ax.tick_params(axis="y", labelsize=8)
    fig.tight_layout()
    return _svg(fig)


def _chart_hours(t: Table) -> str:
    fig, ax = plt.subplots(figsize=(9, 2.8))
    counts = dict((h, n) for h, n in t.rows)
    ax.bar(range(24), [counts.get(h, 0) for h in range(24)], color=PALETTE[1], width=0.85)
    ax.set_xticks(range(0, 24, 2))
    ax.set_xlabel("hour of the day (UTC)")
    ax.set_ylabel("plays")
    ax.set_title("When visitors play")
    ax.spines[["top", "right"]].set_visible(False)
    return _svg(fig)


def _chart_matches(t: Table) -> str:
    fig, ax = plt.subplots(figsize=(9, 3.2))
    if t.rows:
        labels = [f"{_game_name(g)}\n{lv}" for g, lv, *_ in t.rows]
        x = range(len(t.rows))
        ax.bar([i - 0.2 for i in x], [r[3] for r in t.rows], width=0.4, label="visitor won",
               color=PALETTE[2])
        ax.bar([i + 0.2 for i in x], [r[4] for r in t.rows], width=0.4,
               label="computer won", color=PALETTE[3])
        ax.set_xticks(list(x), labels, fontsize=8)
        ax.legend(fontsize=8, frameon=False)
    else:
        _empty(ax, "matches against the computer")
    ax.set_ylabel("matches")
    ax.set_title("Matches against the computer by level")
    ax.spines[["top", "right"]].set_visible(False)
    return _svg(fig)


# ---------------------------------------------------------------------------- the page
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
    charts = [
        ("chart-days", _chart_days(tables["plays-per-day"])),
        ("chart-games", _chart_games(tables["games"])),
        ("chart-hours", _chart_hours(tables["hours"])),
        ("chart-matches", _chart_matches(tables["computer-matches"])),
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
        *(f'<figure id="{cid}">{svg}</figure>' for cid, svg in charts),
        "<h2>The tables</h2>",
        *(f"<h3>{html.escape(t.title)}</h3>{_html_table(t)}" for t in tables.values()),
        "</body></html>",
    ]
    out.write_text("\n".join(parts), encoding="utf-8")
    return csv_paths
