"""Play statistics: per game plays, wins, win rate and median time, today and all time; for
the games against the computer matches, hands and (poker) chips by computer level.

What counts: finished plays that are not attract-mode demos (in-progress plays are left out;
``interrupted`` plays count as plays, not wins). ``median_time`` is the median duration of
those plays, ``median_win_time`` that of the won ones (seconds, from the monotonic clock, so a
clock change never distorts them).

**What "today" means on a box without a real-time clock.** Today is the kiosk's *local* date
(the time zone of the system) according to its clock now. A play belongs to today when the
local date of its start is today's date *and* its start time can be trusted: either the
clock was synchronised when it started (``clock_synced``), or it started during the current
boot (same ``boot_id``), whose clock is the one that says what "today" is, so they agree
with each other even when neither is right. Plays from earlier boots with an unsynchronised
clock are left out of "today" because a Pi that booted without network may have restarted
its clock from an old saved time; they still count in the all-time figures. The welcome
screen's :func:`today_wins` follows the same rule.
"""

from __future__ import annotations

import sqlite3
import statistics
from datetime import date, datetime, time, timedelta, tzinfo
from typing import Any

from kiosk.records.clock import Clock, SystemClock, iso

_COUNTED = "demo = 0 AND result IS NOT NULL"


def day_bounds(day: date, tz: tzinfo | None = None) -> tuple[str, str]:
    """UTC text bounds [start, end) of a local day."""
    def midnight(d: date) -> datetime:
        m = datetime.combine(d, time())
        return m.replace(tzinfo=tz) if tz is not None else m.astimezone()
    return iso(midnight(day)), iso(midnight(day + timedelta(days=1)))


def _today(clock: Clock, now: datetime | None, tz: tzinfo | None) -> tuple[date, str, bool]:
    moment = now or clock.wall()
    local = moment.astimezone(tz) if tz is not None else moment.astimezone()
    return local.date(), clock.boot_id(), bool(clock.synced())


def _today_where(day: date, boot: str, tz: tzinfo | None) -> tuple[str, list[Any]]:
    start, end = day_bounds(day, tz)
    return (f"{_COUNTED} AND started >= ? AND started < ? AND (clock_synced = 1 OR boot_id = ?)",
            [start, end, boot])


def today_wins(conn: sqlite3.Connection, *, clock: Clock | None = None,
               now: datetime | None = None, tz: tzinfo | None = None) -> int:
    """Wins today (see the module docstring for what "today" means)."""
    day, boot, _ = _today(clock or SystemClock(), now, tz)
    where, params = _today_where(day, boot, tz)
    return conn.execute(f"SELECT count(*) FROM plays WHERE {where} AND result = 'won'",
                        params).fetchone()[0]


def _summary(rows: list[tuple[str | None, float | None]]) -> dict[str, Any]:
    plays = len(rows)
    wins = sum(1 for r, _ in rows if r == "won")
    times = [d for _, d in rows if d is not None]
    win_times = [d for r, d in rows if r == "won" and d is not None]
    return {
        "plays": plays,
        "wins": wins,
        "win_rate": round(wins / plays, 4) if plays else None,
        "median_time": round(statistics.median(times), 1) if times else None,
        "median_win_time": round(statistics.median(win_times), 1) if win_times else None,
    }


def stats(conn: sqlite3.Connection, *, clock: Clock | None = None, now: datetime | None = None,
          tz: tzinfo | None = None) -> dict[str, Any]:
    """All figures as JSON-ready data: ``{"today": date, "games": {id: {"all": ..., "today":
    ...}}, "total": {"all": ..., "today": ...}, "against_computer": {"<game> (<level>)":
    ...}, "against_computer_today": ..., "solitaires": {"all": ..., "today": ...}}``."""
    day, boot, synced = _today(clock or SystemClock(), now, tz)
    where, params = _today_where(day, boot, tz)
    per_all: dict[str, list[tuple[str | None, float | None]]] = {}
    per_today: dict[str, list[tuple[str | None, float | None]]] = {}
    for game, result, duration in conn.execute(
            f"SELECT game, result, duration FROM plays WHERE {_COUNTED} ORDER BY id"):
        per_all.setdefault(game, []).append((result, duration))
    for game, result, duration in conn.execute(
            f"SELECT game, result, duration FROM plays WHERE {where} ORDER BY id", params):
        per_today.setdefault(game, []).append((result, duration))
    games = {g: {"all": _summary(per_all[g]), "today": _summary(per_today.get(g, []))}
             for g in sorted(per_all)}
    every = [r for g in per_all.values() for r in g]
    every_today = [r for g in per_today.values() for r in g]
    lone = [g for g in per_all if not against_the_computer(g)]
    return {
        "today": day.isoformat(),
        "clock_synced": synced,
        "games": games,
        "total": {"all": _summary(every), "today": _summary(every_today)},
        # the solitaires alone: a visit to the poker table is no solitaire's play
        "solitaires": {"all": _summary([r for g in lone for r in per_all[g]]),
                       "today": _summary([r for g in lone for r in per_today.get(g, [])])},
        "against_computer": against_computer(conn),
        "against_computer_today": against_computer(conn, *_today_plays(day, boot, tz)),
    }


def against_the_computer(game: str) -> bool:
    """A game played against the computer (its figures are matches and hands); a game the
    catalog no longer knows counts as a solitaire."""
    import games

    try:
        return bool(games.listed(game).seated)
    except games.GameError:
        return False


def _hand_outcome(winner: str | None) -> str:
    """A hand's column: the visitor alone took it (won); nobody did, or the visitor shared a
    split pot with a computer player (drawn: "visitor, computer 2" is no lost hand); else
    lost (a computer player took it alone, or several computer players split it)."""
    seats = [w.strip() for w in (winner or "").split(",") if w.strip()]
    if seats == ["visitor"]:
        return "hands_won"
    if not seats or "visitor" in seats:
        return "hands_drawn"
    return "hands_lost"


def starting_chips(game: str) -> int | None:
    """The visitor's chips before the first hand of a game played for chips (Draw Poker);
    None for a game played for points. From the engine, so the figure follows its rules."""
    if game != "draw_poker":
        return None
    from games import draw_poker

    return draw_poker.STACK


def _today_plays(day: date, boot: str, tz: tzinfo | None) -> tuple[str, list[Any]]:
    """The plays of today (same rule as the solitaires' figures), unfinished ones too: a
    visit to the poker table that is still going has played its hands."""
    start, end = day_bounds(day, tz)
    return ("p.started >= ? AND p.started < ? AND (p.clock_synced = 1 OR p.boot_id = ?)",
            [start, end, boot])


def against_computer(conn: sqlite3.Connection, where: str = "",
                     params: list[Any] | None = None) -> dict[str, dict[str, Any]]:
    """Per game against the computer and computer level (demos left out; all time unless
    ``where`` narrows the plays ``p``): matches finished and won by the visitor; hands
    won, lost and drawn (a split pot the visitor shared is drawn); for a game played for
    chips the chips the visitor won and lost, hand by hand."""
    have = {r[0] for r in conn.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('hands', 'matches')")}
    if have != {"hands", "matches"}:
        return {}
    plays = "p.demo = 0" + (f" AND {where}" if where else "")
    args = list(params or [])
    out: dict[str, dict[str, Any]] = {}

    def entry(game: str, level: str | None) -> dict[str, Any]:
        e = out.setdefault(f"{game} ({level or '?'})", {
            "game": game, "level": level, "matches": 0, "matches_won": 0, "hands": 0,
            "hands_won": 0, "hands_lost": 0, "hands_drawn": 0})
        if starting_chips(game) is not None:
            e.setdefault("chips_won", 0)
            e.setdefault("chips_lost", 0)
        return e

    chips_before: dict[int, int | None] = {}
    for play_id, game, level, winner, chips in conn.execute(
            "SELECT h.play_id, p.game, h.level, h.winner, h.visitor_score FROM hands h "
            f"JOIN plays p ON p.id = h.play_id WHERE {plays} ORDER BY h.play_id, h.seq",
            args):
        e = entry(game, level)
        e["hands"] += 1
        e[_hand_outcome(winner)] += 1
        if "chips_won" not in e or chips is None:
            continue
        before = chips_before.get(play_id, starting_chips(game))
        if before is not None:
            change = chips - before
            e["chips_won" if change > 0 else "chips_lost"] += abs(change)
        chips_before[play_id] = chips
    for game, level, winner, n in conn.execute(
            "SELECT p.game, m.level, m.winner, count(*) FROM matches m JOIN plays p ON "
            f"p.id = m.play_id WHERE {plays} GROUP BY p.game, m.level, m.winner", args):
        e = entry(game, level)
        e["matches"] += n
        e["matches_won"] += n if winner == "visitor" else 0
    return dict(sorted(out.items()))


def _mmss(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    s = int(round(seconds))
    return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}" if s >= 3600 else f"{s // 60}:{s % 60:02d}"


def _rate(r: float | None) -> str:
    return "-" if r is None else f"{r * 100:.0f}%"


def format_text(data: dict[str, Any]) -> str:
    """The table ``kiosk stats`` prints."""
    note = "" if data["clock_synced"] else " (clock not synchronised)"
    lines = [f"Play statistics, today = {data['today']}{note}",
             f"{'game':<24} {'plays':>6} {'wins':>5} {'win%':>5} {'median':>7} {'win med':>7}"
             f"   {'today':>5} {'wins':>5}"]

    def line(name: str, s: dict[str, Any]) -> str:
        a, t = s["all"], s["today"]
        return (f"{name:<24} {a['plays']:>6} {a['wins']:>5} {_rate(a['win_rate']):>5} "
                f"{_mmss(a['median_time']):>7} {_mmss(a['median_win_time']):>7}   "
                f"{t['plays']:>5} {t['wins']:>5}")

    for game, s in data["games"].items():
        lines.append(line(game, s))
    lines.append(line("all games", data["total"]))
    seated = data.get("against_computer") or {}
    if seated:
        lines.append("")
        lines.append(f"{'against the computer':<24} {'matches':>7} {'won':>5} {'hands':>6} "
                     f"{'won':>5} {'lost':>5} {'tied':>5} {'chips +':>8} {'chips -':>8}")
        for name, e in seated.items():
            won, lost = (f"{e[k]:>8}" if k in e else f"{'-':>8}" for k in ("chips_won",
                                                                            "chips_lost"))
            lines.append(f"{name:<24} {e['matches']:>7} {e['matches_won']:>5} {e['hands']:>6} "
                         f"{e['hands_won']:>5} {e['hands_lost']:>5} {e['hands_drawn']:>5} "
                         f"{won} {lost}")
    return "\n".join(lines)
