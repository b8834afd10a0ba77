"""The new words of the hand tables fit in every language at both screen sizes: the Leave
panel of Gin and Follow the Rules, Follow the Rules' match end, Gin's drawn card."""

from __future__ import annotations

import os

import pytest

from games.engine import cards as C
from tests.ui.test_hand_tables_leave import hands, mid_match
from tests.ui.test_text_fit import LANGS, SIZES, label_problems

__all__ = ["hands"]  # the fixture, used by name

#: PNGs of each moment go here when set (a person looks at them)
SHOTS = os.environ.get("HANDS_SHOTS", "")


def shot(ui, name: str) -> None:
    if SHOTS:
        ui.screenshot(os.path.join(SHOTS, f"{name}.png"))


def match_end(ui, g) -> None:
    """The trick table's last hand of a match, as the reported one: the visitor reaches 10
    with Jack, the computer's Game is not counted."""
    mine = [C.parse(t) for t in ("2H", "JH", "4C", "AH", "3C")]
    rest = [c for c in range(52) if c not in mine]
    for pile in range(len(g.cards)):
        g.cards[pile], g.down[pile] = [], 0
    g.cards[g.captured[0]], g.cards[g.captured[1]] = mine, rest
    g.vars.update(trump=C.HEARTS, scores=(7, 9))
    g._end_hand()


@pytest.mark.slow
@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", LANGS)
def test_the_hand_tables_new_words_fit(hands, lang, size):
    app = hands.app
    hands.reset(lang, size)
    problems: list[str] = []
    try:
        for game_id, attr in (("gin_rummy", "gin"), ("follow_the_rules", "trick_table")):
            ctl, g = mid_match(hands, game_id, {})
            screen = getattr(app, attr)
            screen.ask_leave()
            hands.frames(2)
            where = f"{game_id} leave {lang} {size}"
            problems += label_problems(screen.end, where)
            shot(hands, f"{game_id}-leave-{lang}-{size[0]}x{size[1]}")
            screen.stay()
            from kiosk.platform.buttons import NEW_DEAL

            app.lobby.on_button(NEW_DEAL, "key")
            hands.frames(2)
            problems += label_problems(screen, f"{game_id} new deal {lang} {size}")
            # two short lines are drawn at the table's size, not shrunk to the floor (a box
            # taken from the grown label once shrank them to 12 px)
            assert screen.message.font_size >= screen._message_px * 0.8, (game_id, lang)
            shot(hands, f"{game_id}-newdeal-{lang}-{size[0]}x{size[1]}")
        g = app.open_game("follow_the_rules", 5).game
        hands.frames(2)
        match_end(hands, g)
        app.trick_table.refresh()
        hands.frames(2)
        assert g.phase == "match"
        problems += label_problems(app.trick_table, f"match end {lang} {size}")
        shot(hands, f"trick-match-end-{lang}-{size[0]}x{size[1]}")
        # gin: the visitor's draw, said and framed
        g = app.open_game("gin_rummy", 4711).game
        hands.frames(2)
        while g.phase == "offer" or g.to_move != 0:
            moves = g.legal_moves()
            g.play(next((m for m in moves if m.kind == "pass"), moves[0]))
        app.gin.play(next(m for m in g.legal_moves() if m.kind == "stock"))
        hands.frames(2)
        assert app.gin.fresh >= 0
        problems += label_problems(app.gin, f"gin drawn {lang} {size}")
        shot(hands, f"gin-drawn-{lang}-{size[0]}x{size[1]}")
    finally:
        hands.reset()
    assert not problems, "\n".join(problems)
