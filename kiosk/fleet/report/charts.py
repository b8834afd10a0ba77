"""The report's charts, drawn by matplotlib as SVG text to inline in the page.

Each chart is a figure made by a ``figure_*`` function (the tests measure those: no tick
labels overlap, no legend covers a bar) and turned into SVG by :func:`svg`. Legends stand
outside the plotting area, so no bar can be under one whatever the data.

The chart of days chooses its bars and its date axis by the length of the period: a bar
per day up to three months, per week up to two years, per month beyond, always as plays
per day (a week at the period's edge that has three of its days in the period is their
average, not a short bar); tick labels a day apart for a week or so, Mondays for a month
or two, months for a year, quarters and years beyond.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

import matplotlib

matplotlib.use("Agg")  # no display at the office's cron job either
import matplotlib.dates as mdates  # noqa: E402 - after the backend is chosen
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.ticker import FuncFormatter, MaxNLocator  # noqa: E402

from kiosk.fleet.report.queries import LEVEL_ORDER, PeriodData  # noqa: E402

#: the same SVG for the same data: ids from a fixed salt, not at random
matplotlib.rcParams["svg.hashsalt"] = "solitaire-kiosk-report"

#: matplotlib's default cycle, colour-blind friendlier: tab10
PALETTE = [plt.get_cmap("tab10")(k)[:3] for k in range(10)]
#: the period before, as a line over the bars
BEFORE = (0.15, 0.15, 0.15)
WIDTH = 9.0


def svg(fig: Figure) -> str:
    buf = io.StringIO()
    fig.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None})
    plt.close(fig)
    text = buf.getvalue()
    return text[text.index("<svg"):]  # inline: no XML declaration or doctype


def _empty(ax: Any, what: str) -> None:
    ax.text(0.5, 0.5, f"no {what} in this period", ha="center", va="center",
            transform=ax.transAxes, color="#666")
    ax.set_xticks([])
    ax.set_yticks([])


def _plain(ax: Any) -> None:
    ax.spines[["top", "right"]].set_visible(False)


def _legend_outside(ax: Any, **kw: Any) -> None:
    """Beside the plotting area, on its right: never over a bar."""
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0,
              frameon=False, fontsize=8, **kw)


# ---------------------------------------------------------------------------- days
@dataclass(frozen=True)
class Buckets:
    """How the days of a period are drawn: ``size`` days a bar ("day", "week", "month")."""

    kind: str
    starts: list[date]          # each bar's first day (within the period)
    lengths: list[int]          # days of the period in each bar

    def of(self, day: date) -> int:
        """The bar ``day`` falls in."""
        lo, hi = 0, len(self.starts) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self.starts[mid] <= day:
                lo = mid
            else:
                hi = mid - 1
        return lo


def buckets(since: date, until: date) -> Buckets:
    days = (until - since).days + 1
    starts: list[date] = []
    if days <= 92:
        kind = "day"
        starts = [since + timedelta(days=n) for n in range(days)]
    elif days <= 731:
        kind = "week"
        starts = [since]
        monday = since + timedelta(days=(7 - since.weekday()) % 7 or 7)
        while monday <= until:
            starts.append(monday)
            monday += timedelta(days=7)
    else:
        kind = "month"
        starts = [since]
        first = (since.replace(day=1) + timedelta(days=32)).replace(day=1)
        while first <= until:
            starts.append(first)
            first = (first + timedelta(days=32)).replace(day=1)
    ends = [*starts[1:], until + timedelta(days=1)]
    return Buckets(kind, starts, [(e - s).days for s, e in zip(starts, ends, strict=True)])


def _per_day(values: dict[date, int], b: Buckets, shift: int = 0) -> list[float]:
    """Plays per day in each bar: a bar's sum over its days in the period."""
    sums = [0.0] * len(b.starts)
    for day, n in values.items():
        d = day + timedelta(days=shift)
        if b.starts[0] <= d < b.starts[-1] + timedelta(days=b.lengths[-1]):
            sums[b.of(d)] += n
    return [s / n for s, n in zip(sums, b.lengths, strict=True)]


def date_axis(ax: Any, since: date, until: date) -> None:
    """Ticks and labels for a period of this length that never run into each other."""
    days = (until - since).days + 1
    fmt: Callable[[float, Any], str]
    if days <= 10:
        ax.xaxis.set_major_locator(mdates.DayLocator())
        fmt = _weekday_day
    elif days <= 62:
        ax.xaxis.set_major_locator(mdates.WeekdayLocator(byweekday=mdates.MO))
        ax.xaxis.set_minor_locator(mdates.DayLocator())
        fmt = _weekday_day
    elif days <= 130:
        ax.xaxis.set_major_locator(mdates.WeekdayLocator(byweekday=mdates.MO, interval=2))
        ax.xaxis.set_minor_locator(mdates.WeekdayLocator(byweekday=mdates.MO))
        fmt = _day
    elif days <= 800:
        ax.xaxis.set_major_locator(mdates.MonthLocator())
        fmt = _month_year
    elif days <= 2200:
        ax.xaxis.set_major_locator(mdates.MonthLocator(bymonth=(1, 4, 7, 10)))
        ax.xaxis.set_minor_locator(mdates.MonthLocator())
        fmt = _month_year
    else:
        ax.xaxis.set_major_locator(mdates.YearLocator())
        fmt = _year
    ax.xaxis.set_major_formatter(FuncFormatter(fmt))
    ax.tick_params(axis="x", labelsize=8)
    lo = mdates.date2num(since) - 0.6
    hi = mdates.date2num(until) + 0.6
    ax.set_xlim(lo, hi)


def _weekday_day(x: float, _pos: Any) -> str:
    d = mdates.num2date(x)
    return f"{d:%a}\n{d.day} {d:%b}"


def _day(x: float, _pos: Any) -> str:
    d = mdates.num2date(x)
    return f"{d.day} {d:%b}"


def _year(x: float, _pos: Any) -> str:
    return f"{mdates.num2date(x):%Y}"


def _month_year(x: float, pos: Any) -> str:
    """The month, with its year under it in January and on the first label."""
    d = mdates.num2date(x)
    return d.strftime("%b\n%Y") if d.month == 1 or pos == 0 else d.strftime("%b")


def figure_days(data: PeriodData, before: PeriodData | None = None) -> Figure:
    """Plays per day: each kiosk in its colour when there are a few (``top_days``), else
    the days' totals; the period before as a line, shifted by the period's length (the
    same weekday a period ago when the period is whole weeks)."""
    p = data.period
    fig, ax = plt.subplots(figsize=(WIDTH, 3.6))
    b = buckets(p.since, p.until)
    x = [mdates.date2num(s) + (n - 1) / 2 for s, n in zip(b.starts, b.lengths, strict=True)]
    widths = [0.85 * n for n in b.lengths]
    active = sum(1 for t in data.kiosks.values() if t.plays)
    if not data.days:
        _empty(ax, "plays")
    else:
        bottom = [0.0] * len(x)
        for n, (kiosk, days) in enumerate(data.top_days.items()):
            values = _per_day(days, b)
            ax.bar(x, values, widths, bottom=bottom, label=kiosk,
                   color=PALETTE[n % len(PALETTE)])
            bottom = [a + v for a, v in zip(bottom, values, strict=True)]
        if not data.top_days:
            ax.bar(x, _per_day({d: t.plays for d, t in data.days.items()}, b), widths,
                   color=PALETTE[0], label=f"{active:,} kiosks")
        if before is not None and before.days:
            prev = _per_day({d: t.plays for d, t in before.days.items()}, b, shift=p.days)
            edges = [mdates.date2num(s) - 0.5 for s in b.starts]
            edges.append(mdates.date2num(p.until) + 0.5)
            ax.stairs(prev, edges, baseline=None, color=BEFORE, linestyle="--", linewidth=1.2,
                      label=f"the {p.days:,} days before")
        date_axis(ax, p.since, p.until)
        # the legend lists the stack as it stands: its top kiosk first, the line last
        handles, labels = ax.get_legend_handles_labels()
        bars = [i for i, h in enumerate(handles) if not _is_line(h)]
        order = bars[::-1] + [i for i in range(len(handles)) if i not in bars]
        ax.legend([handles[i] for i in order], [labels[i] for i in order], loc="upper left",
                  bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0, frameon=False, fontsize=8)
    unit = {"day": "plays", "week": "plays per day\n(weekly average)",
            "month": "plays per day\n(monthly average)"}[b.kind]
    ax.set_ylabel(unit)
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_title("Plays per day by kiosk" if data.top_days else "Plays per day")
    _plain(ax)
    return fig


def _is_line(handle: Any) -> bool:
    from matplotlib.patches import StepPatch

    return isinstance(handle, StepPatch)


# ---------------------------------------------------------------------------- games
def figure_games(data: PeriodData, before: PeriodData | None,
                 name: Callable[[str], str]) -> Figure:
    """The most played games (with the period before as a mark) and their win rates."""
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(WIDTH, 3.8))
    rows = sorted(data.games.items(), key=lambda gt: (-gt[1].plays, gt[0]))[:12][::-1]
    if rows:
        names = [name(g) for g, _t in rows]
        ax1.barh(names, [t.plays for _g, t in rows], color=PALETTE[0], label="this period")
        if before is not None and before.games:
            prev = [before.games[g].plays if g in before.games else 0 for g, _t in rows]
            ax1.scatter(prev, names, marker="|", s=140, color=BEFORE, zorder=3,
                        label="the period before")
        rated = [(name(g), t.win_rate) for g, t in rows if t.win_rate is not None]
        ax2.barh([n for n, _r in rated], [100 * (r or 0) for _n, r in rated],
                 color=PALETTE[2])
        ax2.set_xlim(0, 100)
        ax2.set_xlabel("% of finished plays won")
    else:
        _empty(ax1, "plays")
        _empty(ax2, "plays")
    ax1.set_title("Most played games")
    ax1.set_xlabel("plays")
    ax2.set_title("Win rate by game")
    for ax in (ax1, ax2):
        _plain(ax)
        ax.tick_params(axis="y", labelsize=8)
    fig.tight_layout(rect=(0, 0.08, 1, 1))
    if rows:  # under both charts: never over a bar
        fig.legend(*ax1.get_legend_handles_labels(), loc="lower left",
                   bbox_to_anchor=(0.0, 0.0), ncol=2, frameon=False, fontsize=8)
    return fig


# ---------------------------------------------------------------------------- hours
def figure_hours(data: PeriodData, tz: str) -> Figure:
    fig, ax = plt.subplots(figsize=(WIDTH, 2.8))
    ax.bar(range(24), [data.hours[h].plays if h in data.hours else 0 for h in range(24)],
           color=PALETTE[1], width=0.85)
    ax.set_xticks(range(0, 24, 2))
    ax.set_xlabel(f"hour of the day ({tz})")
    ax.set_ylabel("plays")
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_title("When visitors play")
    _plain(ax)
    return fig


# ---------------------------------------------------------------------------- matches
def match_rows(data: PeriodData) -> list[tuple[str, str, int, int, int]]:
    """(game, level, matches, visitor won, computer won), by game, easiest level first."""
    return [(g, lv, *counts) for (g, lv), counts in sorted(
        data.matches.items(), key=lambda kv: (kv[0][0], LEVEL_ORDER.get(kv[0][1], 9),
                                              kv[0][1]))]


def figure_matches(data: PeriodData, name: Callable[[str], str]) -> Figure:
    fig, ax = plt.subplots(figsize=(WIDTH, 3.2))
    rows = match_rows(data)
    if rows:
        labels = [f"{name(g)}\n{lv or '(no level)'}" for g, lv, *_ in rows]
        x = range(len(rows))
        ax.bar([i - 0.2 for i in x], [r[3] for r in rows], width=0.4, label="visitor won",
               color=PALETTE[2])
        ax.bar([i + 0.2 for i in x], [r[4] for r in rows], width=0.4,
               label="computer won", color=PALETTE[3])
        ax.set_xticks(list(x), labels, fontsize=8)
        _legend_outside(ax)
    else:
        _empty(ax, "matches against the computer")
    ax.set_ylabel("matches")
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_title("Matches against the computer by level")
    _plain(ax)
    return fig
