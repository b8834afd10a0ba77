"""The operator's variant buttons are read whole: a game with many variants (Draw Poker's
seven opponent counts) wraps them over rows instead of squeezing them into one ("2 соп…")."""

from __future__ import annotations

import pytest

from kiosk.settings import variants


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
def test_every_variant_button_of_the_games_page_shows_its_whole_name(ui, size):
    app = ui.app
    ui.reset("ru", size)
    try:
        app.show_operator()
        app.operator.show("games")
        ui.frames(4)
        buttons = app.operator.widgets["variants"]
        poker = [b for (g, _k), b in buttons.items() if g == "draw_poker"]
        assert len(poker) == len(variants.variants_of("draw_poker")) == 7
        cut = [b.text for b in buttons.values() if b.is_cut()]
        assert cut == []
        rows = {round(b.y) for b in poker}
        assert len(rows) >= 2  # seven counts do not fit one row of readable buttons
        for b in buttons.values():
            assert b.width >= 100 and b.height >= 40
    finally:
        app.show_welcome()
        ui.reset()
