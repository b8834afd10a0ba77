"""Tables that look laid out by a person: clean grids, rows that show only their next place,
no lopsided layouts, and portrait cards at least as large as landscape ones.

Geometry only (the outlines the view would draw, on the table areas the screen leaves).
"""

from __future__ import annotations

import pytest

import games
from kiosk.table.geometry import MAX_GAP, TableGeometry
from kiosk.table.table_view import outline_rect


def _areas(ui) -> dict[str, tuple]:
    out = {}
    for size, name in (((800, 480), "landscape"), ((720, 1280), "portrait")):
        ui.resize(*size)
        ui.app.open_game("klondike", 1)
        ui.frames(1)
        out[name] = ui.table.table_area
    return out


def _outlines(game, geom) -> list:
    return [r for i in range(len(game.layout))
            if (r := outline_rect(geom, game.layout, game.cards, i)) is not None]


@pytest.mark.parametrize("game_id", ["poker_squares", "monte_carlo", "bagua"])
def test_an_empty_grid_is_clean_cells(game_id):
    g = games.new(game_id, 1)
    for i in g.roles["grid"]:
        g.cards[i], g.down[i] = [], 0
    geom = TableGeometry(g.layout, 0, 0, 688, 480)
    cells = [outline_rect(geom, g.layout, g.cards, i) for i in g.roles["grid"]]
    for a in range(len(cells)):
        for b in range(a + 1, len(cells)):
            assert cells[a].overlap(cells[b]) == 0, (game_id, a, b)
    assert all(c.w > geom.card_w * 0.4 and c.h > geom.card_h * 0.4 for c in cells)


def test_a_row_that_grows_shows_only_its_next_place():
    g = games.new("royal_marriage", 1)
    geom = TableGeometry(g.layout, 0, 0, 688, 480)
    row = [i for i, p in enumerate(g.layout) if p.role == "tableau"]
    shown = [i for i in row if outline_rect(geom, g.layout, g.cards, i) is not None]
    filled = [i for i in row if g.cards[i]]
    assert shown == [max(filled) + 1], (shown, filled)


def test_a_cleared_pyramid_place_leaves_no_outline():
    g = games.new("pyramid", 1)
    geom = TableGeometry(g.layout, 0, 0, 688, 480)
    top = g.roles["tableau"][-1]
    g.cards[top] = []
    assert outline_rect(geom, g.layout, g.cards, top) is None


def test_layouts_have_no_wide_empty_bands():
    """Napoleon's Tomb drew its stock far to the right of its cross: the layout sat in the
    left half. Every layout now keeps at most MAX_GAP of felt between its groups."""
    for game_id in games.ids():
        g = games.new(game_id, 1)
        geom = TableGeometry(g.layout, 0, 0, 688, 480)
        spans = sorted((geom.base(i).x, geom.base(i).right) for i in range(len(g.layout)))
        reach = spans[0][1]
        for left, right in spans[1:]:
            assert left - reach <= MAX_GAP * geom.card_w + 1 or \
                any(p.fan == "right" for p in g.layout), (game_id, left, reach)
            reach = max(reach, right)
    g = games.new("napoleons_tomb", 1)
    geom = TableGeometry(g.layout, 0, 0, 688, 480)
    xs = [geom.base(i) for i in range(len(g.layout))]
    left, right = min(r.x for r in xs), max(r.right for r in xs)
    assert abs((left + right) / 2 - 344) < 2, "centred"
    assert left < 0.1 * 688 and right > 0.9 * 688, "spread over the table"


def test_portrait_cards_are_at_least_as_large_as_landscape(ui):
    areas = _areas(ui)
    small = []
    for game_id in games.ids():
        g = games.new(game_id, 1)
        land = TableGeometry(g.layout, *areas["landscape"]).card_w
        port = TableGeometry(g.layout, *areas["portrait"]).card_w
        if port < land - 0.5:
            small.append((game_id, round(land), round(port)))
    assert not small, small


def test_an_outline_is_drawn_for_ordinary_empty_places():
    g = games.new("klondike", 1)
    geom = TableGeometry(g.layout, 0, 0, 688, 480)
    shown = _outlines(g, geom)
    assert len(shown) == len(g.layout)  # no pile overlaps another: all drawn as before
