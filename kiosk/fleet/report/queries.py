"""The report's queries: the tables behind its charts and CSV files (the part 1 views'
rules, limited to the report's dates)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

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


def tables(conn: Any, since: date) -> list[Table]:
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


