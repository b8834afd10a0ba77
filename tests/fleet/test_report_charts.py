"""The report's charts read at any length of period (issue 32): the date axis of the chart
of days never has labels that run into each other (7, 31 and 365 days and the lengths
around them), and no legend covers a bar. Measured on the figures matplotlib lays out,
before they become SVG."""

from __future__ import annotations

import random
from datetime import date, timedelta

import pytest
from matplotlib.transforms import Bbox

from kiosk.fleet.report import charts
from kiosk.fleet.report.queries import Period, PeriodData, Tally

UNTIL = date(2026, 6, 30)


def period_data(days: int, kiosks: int = 8, seed: int = 1) -> PeriodData:
    rnd = random.Random(seed)
    p = Period(UNTIL - timedelta(days=days - 1), UNTIL)
    d = PeriodData(p)
    names = [f"kiosk-{k:02d}" for k in range(kiosks)]
    for day in p.dates():
        for k in names:
            n = rnd.randint(0, 30)
            d.days.setdefault(day, Tally()).add(n, n // 3, n, 300 * n)
            d.kiosks.setdefault(k, Tally()).add(n, n // 3, n, 300 * n)
            if kiosks <= 10:
                d.top_days.setdefault(k, {})[day] = n
    for g in ("klondike", "pyramid", "golf", "gin_rummy"):
        d.games[g] = Tally(rnd.randint(10, 500), 5, 9, 3000.0)
    d.matches = {("gin_rummy", lv): (30, 12, 18) for lv in ("easy", "medium", "hard")}
    return d


def before_of(d: PeriodData) -> PeriodData:
    b = PeriodData(d.period.before())
    shift = timedelta(days=d.period.days)
    b.days = {day - shift: Tally(t.plays // 2) for day, t in d.days.items()}
    b.games = {g: Tally(t.plays // 2) for g, t in d.games.items()}
    return b


def _drawn(fig):
    fig.canvas.draw()
    return fig.canvas.get_renderer()


def x_labels(fig, ax) -> list[tuple[str, Bbox]]:
    renderer = _drawn(fig)
    lo, hi = ax.get_xlim()
    out = []
    for tick in ax.xaxis.get_major_ticks():
        label = tick.label1
        if label.get_visible() and label.get_text() and lo <= tick.get_loc() <= hi:
            out.append((label.get_text(), label.get_window_extent(renderer)))
    return out


def bars(ax) -> list[Bbox]:
    from matplotlib.patches import Rectangle

    return [p.get_window_extent() for p in ax.patches
            if isinstance(p, Rectangle) and p.get_height() and p.get_width()]


@pytest.mark.parametrize("days", [1, 2, 7, 10, 11, 14, 31, 45, 62, 63, 92, 93, 130, 200,
                                  365, 366, 731, 800, 1500, 2200, 4000])
def test_date_labels_never_overlap_and_say_enough(days):
    fig = charts.figure_days(period_data(days), None)
    ax = fig.axes[0]
    labels = x_labels(fig, ax)
    assert len(labels) >= min(days, 2), (days, [t for t, _b in labels])
    boxes = [b for _t, b in labels]
    for a, b in zip(boxes, boxes[1:], strict=False):
        assert a.x1 + 2 <= b.x0, (days, [t for t, _b in labels])
    # a week: every day named; a month: every Monday; a year: every month
    texts = [t for t, _b in labels]
    if days == 7:
        assert len(texts) == 7 and all("\n" in t for t in texts)
    if days == 31:
        assert 4 <= len(texts) <= 5 and all(t.startswith("Mon") for t in texts)
    if days == 365:
        assert len(texts) >= 11 and "2025" in texts[0] and any("2026" in t for t in texts)
    charts.plt.close(fig)


@pytest.mark.parametrize("days", [7, 31, 365, 1500])
def test_no_legend_covers_a_bar(days):
    data = period_data(days)
    for fig in (charts.figure_days(data, before_of(data)),
                charts.figure_games(data, before_of(data), str),
                charts.figure_matches(data, str)):
        renderer = _drawn(fig)
        legends = [lg for lg in [*fig.legends, *(ax.get_legend() for ax in fig.axes)] if lg]
        assert legends, fig
        for lg in legends:
            box = lg.get_window_extent(renderer)
            for ax in fig.axes:
                for bar in bars(ax):
                    assert not box.overlaps(bar), (days, ax.get_title(), box, bar)
                # nor the title or the tick labels of a chart
                title = ax.title.get_window_extent(renderer)
                assert not ax.get_title() or not box.overlaps(title), ax.get_title()
        charts.plt.close(fig)


def test_long_periods_draw_weeks_and_months_as_plays_per_day():
    b = charts.buckets(date(2026, 1, 1), date(2026, 12, 31))  # Thursday to Thursday
    assert b.kind == "week" and b.lengths[0] == 4 and sum(b.lengths) == 365
    assert all(s.weekday() == 0 for s in b.starts[1:])
    # a partial week at an edge is the average of its days, not a short bar
    values = {date(2026, 1, 1) + timedelta(days=n): 10 for n in range(365)}
    assert set(charts._per_day(values, b)) == {10.0}
    m = charts.buckets(date(2020, 1, 15), date(2026, 6, 30))
    assert m.kind == "month" and m.starts[1] == date(2020, 2, 1) and m.lengths[0] == 17
    assert charts.buckets(date(2026, 6, 1), date(2026, 6, 30)).kind == "day"


def test_a_few_kiosks_are_stacked_top_first_many_are_one_total():
    data = period_data(31, kiosks=8)
    fig = charts.figure_days(data, before_of(data))
    texts = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert texts == [f"kiosk-{k:02d}" for k in range(7, -1, -1)] + ["the 31 days before"]
    assert fig.axes[0].get_title() == "Plays per day by kiosk"
    charts.plt.close(fig)
    data = period_data(31, kiosks=60)
    fig = charts.figure_days(data, before_of(data))
    texts = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert texts == ["60 kiosks", "the 31 days before"]
    assert fig.axes[0].get_title() == "Plays per day"
    charts.plt.close(fig)
