"""The strip a fan shows of a covered card holds its whole corner index (a Q, not an "O").

Geometry, not pixels: the glyphs' ink boxes (measured once from the font by card_art) are
compared with the offsets the table geometry gives each game's dealt fans, on the table
area the screen really leaves at 800x480 and 720x1280.
"""

from __future__ import annotations

import pytest

import games
from games.engine.cards import RANK, SUIT, card
from games.families.seats import SeatedGame
from kiosk.table import card_art
from kiosk.table.geometry import FAN_RIGHT, FAN_UP, TableGeometry

SIZES = [(800, 480), (720, 1280)]
EVERY_CARD = [card(r, s) for s in range(4) for r in range(1, 14)]


def _index_depth(w: float) -> float:
    """How far below a card's top edge the ink of the rank and top-right suit reaches."""
    return max(max(g.bottom for g in card_art.corner_index(c, w)[:2]) for c in EVERY_CARD)


def _index_width(w: float) -> float:
    """How far right of a card's left edge the ink of the rank and the suit under it reach."""
    return max(max(g.right for g in card_art.corner_index(c, w)[::2]) for c in EVERY_CARD)


def _covered_steps(geom: TableGeometry, game) -> list[tuple[str, str, float, float]]:
    """``(pile, fan, step, card width)`` of every face-up card covered by the next card."""
    out = []
    for i, spec in enumerate(game.layout):
        if spec.fan == "none":
            continue
        rects = geom.card_rects(i, len(game.cards[i]), game.down[i])
        for k in range(game.down[i], len(rects) - 1):
            a, b = rects[k], rects[k + 1]
            step = a.top - b.top if spec.fan == "down" else b.x - a.x
            if step > 0.5:  # a squared-up waste shows only its top card: nothing to read
                out.append((spec.id, spec.fan, step, a.w))
    return out


def test_every_rank_shows_whole_at_the_smallest_offset(ui):
    """The unsqueezed offsets are the smallest the geometry gives a fan with room; at a
    small and a large card the ink of every rank and suit ends inside them."""
    for w in (28, 41, 63, 80, 97, 160):
        assert _index_depth(w) <= FAN_UP * 1.4 * w, w
        assert _index_width(w) <= FAN_RIGHT * w, w
        q, suit, _side = card_art.corner_index(card(12, 0), w)
        assert q.bottom - q.top > 0.2 * w, "the index shrank to nothing"
        assert suit.left > q.right, "rank and suit overlap"


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_dealt_fans_show_every_index(ui, size):
    ui.resize(*size)
    ui.app.open_game("klondike", 1)
    ui.frames(2)
    x, y, w, h = ui.table.table_area
    for game_id in games.ids():
        if issubclass(games.game_class(game_id), SeatedGame):
            continue  # a hand against the computer is drawn by its own table, not these fans
        game = games.new(game_id, 1)
        geom = TableGeometry(game.layout, x, y, w, h)
        for pile, fan, step, cw in _covered_steps(geom, game):
            need = _index_depth(cw) if fan == "down" else _index_width(cw)
            assert step >= need, (game_id, size, pile, round(step, 1), round(need, 1))


def test_a_long_column_closes_up_its_backs_first():
    """A column too long for the screen squeezes its face-down cards before the face-up
    ones, so the run a visitor builds stays readable as long as it can."""
    g = games.new("klondike", 1)
    geom = TableGeometry(g.layout, 0, 0, 688, 480)
    t7 = g.index["T7"]
    rects = geom.card_rects(t7, 6 + 6, down=6)
    up_steps = [rects[k].top - rects[k + 1].top for k in range(6, 11)]
    down_steps = [rects[k].top - rects[k + 1].top for k in range(0, 6)]
    assert min(up_steps) >= FAN_UP * geom.card_h - 0.01
    assert max(down_steps) < up_steps[0]
    assert all(r.inside(geom.area) for r in rects)


def test_every_card_index_names_its_rank_and_suit(ui):
    for c in (card(10, 1), card(12, 3), card(1, 2)):
        rank, suit, side = card_art.corner_index(c, 80)
        assert rank.text == card_art.RANK_TEXT[RANK[c]]
        assert suit.text == side.text == card_art.SUIT_GLYPHS[SUIT[c]]
