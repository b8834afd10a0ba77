"""Royal Marriage's declared layout uses the screen: large cards at 800x480 and at 720x1280,
and the next place's outline beside the last card, not a third of it under the card (the
queen of hearts at the deal)."""

from __future__ import annotations

import random

import pytest

from kiosk.table.table_view import outline_rect

#: the card width the layout reaches (it was 58 px and 64 px with thirteen places a line)
LEAST_CARD_W = {(800, 480): 70, (720, 1280): 88}


def positions(ctl):
    """The deal, then the row after some play (a longer row, places over two lines)."""
    yield ctl.game
    g = ctl.game
    rnd = random.Random(1)
    for _ in range(40):
        moves = g.legal_moves()
        removes = [m for m in moves if m.kind == "remove"]
        g.play(rnd.choice(removes) if removes and rnd.random() < 0.5 else moves[-1])
    ctl.set_game(g)
    yield g


@pytest.mark.parametrize("size", list(LEAST_CARD_W))
def test_royal_marriage_has_large_cards_and_clear_outlines(ui, size):
    ui.resize(*size)
    ctl = ui.app.open_game("royal_marriage", 5)
    ui.frames(3)
    view = ui.table.view
    for g in positions(ctl):
        ui.frames(2)
        geom = view.geometry()
        assert geom.card_w >= LEAST_CARD_W[size], (size, geom.card_w)
        cards = [r for i in range(len(g.layout))
                 for r in geom.card_rects(i, len(g.cards[i]), g.down[i])]
        for i in range(len(g.layout)):
            b = outline_rect(geom, g.layout, g.cards, i)
            if b is not None and not g.cards[i]:
                # beside the last card of its line, a sliver under it at most (the line
                # above lies over its top half, as over the top of the cards of its line)
                covered = sum(b.overlap(r) for r in cards if abs(r.y - b.y) < 1)
                assert covered <= 0.1 * b.w * b.h, (size, g.layout[i].id, covered)
        assert all(r.inside(geom.area) for r in cards)
