"""Gin: the card the visitor just drew is said and framed in gold in the hand, so it is
found among eleven; the frame goes with the discard."""

from __future__ import annotations

from games.engine import cards as C
from tests.ui.test_gin_table import button, gin, tap_card

__all__ = ["gin"]  # the fixture, used by name


def to_the_visitors_draw(ui, g) -> None:
    for _ in range(20):
        assert ui.until(lambda: g.to_move == 0, 10)
        if g.phase == "draw":
            return
        if g.phase == "offer":
            ui.tap_widget(button(ui, "Pass"))
    raise AssertionError(f"no draw for the visitor: {g.phase}")


def at_the_visitors_draw(ui):
    """Deal 4711 and play on to the visitor's first draw: the game and the gin screen."""
    ctl = ui.app.open_game("gin_rummy", 4711)
    ui.frames(3)
    to_the_visitors_draw(ui, ctl.game)
    return ctl.game, ui.app.gin


def take_the_upcard(ui):
    """At the visitor's first draw, take the upcard: the game, the screen and the card."""
    g, screen = at_the_visitors_draw(ui)
    up = g.top(g.waste)
    ui.tap_widget(button(ui, f"Take the {C.pretty(up)}"))
    return g, screen, up


def test_the_drawn_card_is_said_and_framed_until_the_discard(gin):
    g, screen = at_the_visitors_draw(gin)
    before = set(g.hand(0))
    gin.tap_widget(button(gin, "Draw from stock"))
    (drawn,) = set(g.hand(0)) - before
    assert screen.fresh == drawn and screen.mine.fresh == drawn
    assert f"You draw the {C.pretty(drawn)}; it is framed in gold in your hand." \
        in screen.message.text
    # the frame lies on the drawn card's visible strip
    x, y, w, h = screen.mine._mark.rounded_rectangle[:4]
    cx, cy = screen.mine.to_widget(*screen.mine.center_of(drawn))
    assert screen.mine._mark_color.a == 1 and x <= cx <= x + w and y <= cy <= y + h
    out = next(c for c in g.hand(0) if c != drawn)
    tap_card(gin, out)
    assert screen.mine.fresh == drawn  # still framed while the visitor chooses
    tap_card(gin, out)
    assert screen.fresh == -1 and screen.mine._mark_color.a == 0


def test_a_taken_upcard_is_said_and_framed_too(gin):
    g, screen, up = take_the_upcard(gin)
    assert screen.fresh == up and screen.mine.fresh == up
    assert f"You take the {C.pretty(up)}; it is framed in gold in your hand." \
        in screen.message.text


def test_the_upcard_just_taken_is_not_raised_for_a_discard_the_rules_refuse(gin):
    g, screen, up = take_the_upcard(gin)
    tap_card(gin, up)
    assert screen.raised == -1 and up in g.hand(0) and g.phase == "discard"
    assert f"You may not discard the {C.pretty(up)} you just took" in screen.message.text
    assert not any(b.text.startswith("Discard") for b in screen.actions.children)
