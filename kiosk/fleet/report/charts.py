"""The report's charts, drawn by matplotlib as SVG text to inline in the page."""

from __future__ import annotations

import io
from typing import Any

import matplotlib

matplotlib.use("Agg")  # no display at the office's cron job either
import matplotlib.pyplot as plt  # noqa: E402 - after the backend is chosen

from kiosk.fleet.report.queries import Table, _game_name  # noqa: E402

#: matplotlib's default cycle, colour-blind friendlier: tab10
PALETTE = [plt.get_cmap("tab10")(k)[:3] for k in range(10)]


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


def chart_days(t: Table) -> str:
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


def chart_games(t: Table) -> str:
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


def chart_hours(t: Table) -> str:
    fig, ax = plt.subplots(figsize=(9, 2.8))
    counts = dict((h, n) for h, n in t.rows)
    ax.bar(range(24), [counts.get(h, 0) for h in range(24)], color=PALETTE[1], width=0.85)
    ax.set_xticks(range(0, 24, 2))
    ax.set_xlabel("hour of the day (UTC)")
    ax.set_ylabel("plays")
    ax.set_title("When visitors play")
    ax.spines[["top", "right"]].set_visible(False)
    return _svg(fig)


def chart_matches(t: Table) -> str:
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


