"""On a tall table the small group that stands beside the rest (Napoleon's Tomb's stock
and waste beside its cross, Poker Squares' next card beside the grid, Eight Off's column of
foundations) goes above it, centred, so the cards are drawn larger; a wide table keeps the
layout as the game declares it. Geometry only."""

from __future__ import annotations

import math

import games
from kiosk.table import geometry
from kiosk.table.geometry import TableGeometry

#: the table areas the screen leaves at 800x480 (bar at the right) and 720x1280 (bar below)
LANDSCAPE = (0, 0, 656, 480)
PORTRAIT = (0, 264, 720, 1016)


def _split(game_id: str, roles: tuple[str, ...]):
    g = games.new(game_id, 1)
    side = [i for i, p in enumerate(g.layout) if p.role in roles]
    rest = [i for i in range(len(g.layout)) if i not in side]
    return g, side, rest


def test_napoleons_tomb_stacks_its_stock_and_waste_above_the_cross():
    g, side, rest = _split("napoleons_tomb", ("stock", "waste"))
    tall = TableGeometry(g.layout, *PORTRAIT)
    assert min(tall.base(i).y for i in side) > max(tall.base(i).top for i in rest), \
        "the stock and waste sit above the cross"
    middle = (min(tall.base(i).x for i in side) + max(tall.base(i).right for i in side)) / 2
    cross = (min(tall.base(i).x for i in rest) + max(tall.base(i).right for i in rest)) / 2
    assert abs(middle - cross) < 2, "centred over it"
    assert abs(cross - (PORTRAIT[0] + PORTRAIT[2] / 2)) < 2, "and on the table"
    wide = TableGeometry(g.layout, *LANDSCAPE)
    assert min(wide.base(i).x for i in side) > max(wide.base(i).right for i in rest), \
        "a wide table keeps them beside the cross"


def test_stacking_draws_larger_cards_and_keeps_every_pile_apart(monkeypatch):
    ids = games.ids()
    stacked = {g: TableGeometry(games.new(g, 1).layout, *PORTRAIT) for g in ids}
    monkeypatch.setattr(geometry, "PORTRAIT_GAIN", math.inf)  # the rule switched off
    beside = {g: TableGeometry(games.new(g, 1).layout, *PORTRAIT) for g in ids}
    grew = {g: stacked[g].card_w / beside[g].card_w for g in ids}
    assert all(v >= 1 for v in grew.values()), grew
    for game_id in ("napoleons_tomb", "poker_squares", "eight_off", "pyramid"):
        assert grew[game_id] > 1.1, (game_id, grew[game_id])
    for game_id in ids:
        tall, flat = stacked[game_id], beside[game_id]
        n = len(tall.layout)
        for a in range(n):
            assert tall.base(a).inside(tall.area), (game_id, tall.layout[a].id)
            for b in range(a + 1, n):
                if flat.base(a).overlap(flat.base(b)) == 0:
                    assert tall.base(a).overlap(tall.base(b)) == 0, \
                        (game_id, tall.layout[a].id, tall.layout[b].id)


def test_eight_offs_column_of_foundations_becomes_a_row():
    g, side, _rest = _split("eight_off", ("foundation",))
    tall = TableGeometry(g.layout, *PORTRAIT)
    assert len({round(tall.base(i).y) for i in side}) == 1, "one row"
    xs = sorted(tall.base(i).x for i in side)
    assert all(b - a >= tall.card_w for a, b in zip(xs, xs[1:], strict=False))
