"""What a visitor expects of the table: an illegal drop goes back to its slot, a new deal or
Home never loses a game for good, a win is celebrated, and the variants can be chosen."""

from __future__ import annotations

from kivy.animation import Animation

from tests.conftest import arrange


def _klondike_refusal(ui):
    """A Klondike position where T1's 5H cannot go on T2's 9C."""
    ctl = ui.app.open_game("klondike", 4711)
    g = arrange(ctl.game, {"T1": "5H", "T2": "9C", "T3": "KS"}, down={"T2": 0})
    ctl.set_game(g)
    ui.frames(3)
    return ctl, g


def test_an_illegal_drop_during_a_running_animation_ends_on_the_slot(ui):
    """The card is still flying when the second refusal comes (a busy moment): the shake
    and the snap-back are one animation and it ends exactly on the slot."""
    ctl, g = _klondike_refusal(ui)
    view = ui.table.view
    view.animate = True
    try:
        code = g.cards[g.index["T1"]][-1]
        card = view.cards[code]
        slot = view.card_rects()[code]
        # dropped on T2 (illegal): it flies back and wobbles
        x0, y0 = ui.card_center("T1")
        x1, y1 = ui.card_center("T2")
        ui.drag(x0, y0, x1, y1)
        assert ui.until(lambda: ui.table.toast.opacity > 0, 2)
        # at once a second illegal drop while the first animation still runs; then a
        # stray animation pushes it away mid-way (the "busy moment")
        ui.drag(card.center_x, card.center_y, x1, y1, steps=3)
        Animation(x=card.x + 40, d=0.05).start(card)
        ui.frames(2)
        view.shake([card])
        ui.wait(1.0)  # the flight back and the wobble take under half a second
        assert tuple(card.pos) == (round(slot.x), round(slot.y))
    finally:
        view.animate = False
