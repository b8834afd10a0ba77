"""The Gin Rummy table's two choices beyond draw and discard: the first upcard offer (take
or pass, the computer's answer said in words) and laying off by touch at a knock, with the
knocker's melds shown and the computer's own lay-offs said one by one."""

from __future__ import annotations

import json

import pytest

from games.engine import cards as C
from games.engine.model import Move
from games.gin_rummy import GinRummy

from .test_gin_table import button, gin, tap_card, visitor_first  # noqa: F401


def cs(text: str) -> list[int]:
    return [C.parse(t) for t in text.split()]


def dealt_position(g: GinRummy, visitor: str, computer: str, turn: int) -> None:
    """The table's game with these hands, ``turn`` to discard, the rest in the stock."""
    h0, h1 = g.hands
    want = set(cs(visitor) + cs(computer))
    free = [c for c in range(52) if c not in want and c not in g.cards[g.waste]]
    g.cards[h0], g.cards[h1] = cs(visitor), cs(computer)
    g.cards[g.stock] = free
    g.cards[g.waste] = [c for c in g.cards[g.waste] if c not in want]
    g.down[h0], g.down[h1], g.down[g.stock] = 0, len(g.cards[h1]), len(g.cards[g.stock])
    g.vars.update(turn=turn, phase="discard", taken=-1, passes=3)


def visitor_first_with(gin, visitor: str, computer: str, turn: int):  # noqa: F811
    """A deal where the visitor is first, with these hands and ``turn`` to discard."""
    ctl = gin.app.open_game("gin_rummy", visitor_first())
    gin.frames(2)
    dealt_position(ctl.game, visitor, computer, turn)
    return ctl


def offered_to_visitor(gin, seed: int) -> GinRummy:  # noqa: F811
    ctl = gin.app.open_game("gin_rummy", seed)
    gin.frames(2)
    g = ctl.game
    assert g.phase == "offer" and g.to_move == 0
    return g


def test_the_visitor_takes_the_first_upcard_with_one_tap(gin):  # noqa: F811
    g = offered_to_visitor(gin, visitor_first())
    up = g.top(g.waste)
    assert gin.app.gin.tip.text.startswith(f"Tip: the {C.pretty(up)} makes")  # a first hand
    gin.seasoned()  # a visitor who has played a hand reads the short question instead
    gin.app.gin.refresh()
    gin.frames(2)  # the new row of buttons is laid out
    assert "The first upcard: take it, or pass." in gin.app.gin.message.text
    assert not gin.app.gin.tip.text
    gin.tap_widget(button(gin, f"Take the {C.pretty(up)}"))
    assert g.phase == "discard" and up in g.hand(0) and g.vars["taken"] == up


#: deals the visitor does not deal: the computer passes the upcard back (3), takes it (8)
@pytest.mark.parametrize("seed,answer", [(3, "pass"), (8, "take")])
def test_a_pass_hands_the_upcard_to_the_computer_whose_answer_is_said(gin, seed, answer):  # noqa: F811
    g = offered_to_visitor(gin, seed)
    up = g.top(g.waste)
    gin.tap_widget(button(gin, "Pass"))
    assert g.history[0] == Move("pass")
    assert gin.until(lambda: g.to_move == 0, 10)
    said = gin.app.gin.message.text
    assert g.history[1] == Move(answer)
    if answer == "pass":  # both passed: the visitor must draw from the stock
        assert f"The computer passes the {C.pretty(up)}." in said
        buttons = gin.app.gin.actions.children
        assert [b.text for b in buttons if not getattr(b, "greyed", False)] == \
            ["Draw from stock"]
        assert sorted(b.text for b in buttons if getattr(b, "greyed", False)) == \
            ["Gin", "Knock"]  # in sight, greyed: a card must be drawn first
    else:
        out = C.pretty(g.history[2].extra[0])
        assert said.startswith(f"The computer takes the {C.pretty(up)} and discards the {out}")


def test_the_visitor_lays_off_by_touch_after_the_computer_knocks(gin):  # noqa: F811
    ctl = visitor_first_with(gin, "7H 8H 2C 2D 2S JC JD JS KC 9D",
                             "4H 5H 6H TC TD TS 3C 3D 3S AS KH", turn=1)
    g = ctl.game
    assert ctl.play(Move("knock", extra=(C.parse("KH"),)), "computer") is None
    screen = gin.app.gin
    screen.refresh()
    assert g.phase == "layoff" and screen.theirs.face_up
    # the knocker's melds stay shown, deadwood (A♠) raised
    assert set(screen.theirs.codes) == set(g.hand(1)) and screen.theirs.marked == {
        C.parse("AS")}
    assert screen.theirs.breaks == {3, 6, 9}  # three melds shown apart, then the deadwood
    seven, eight = C.parse("7H"), C.parse("8H")
    run_card = screen.theirs.center_of(C.parse("5H"))
    tap_card(gin, eight)  # raise the 8♥, then tap the run: it does not chain yet
    assert [b.text for b in screen.actions.children] == ["Done"]
    gin.tap(*run_card)
    assert "The 8♥ does not join that run" in screen.message.text and eight in screen.mine.codes
    tap_card(gin, seven)
    gin.tap_widget(button(gin, "On 4♥ 5♥ 6♥"))
    assert g.vars["laid"] == ((seven, g.lying_melds().index(tuple(cs("4H 5H 6H 7H")))),)
    assert seven not in screen.mine.codes and seven in screen.theirs.codes
    tap_card(gin, eight)
    gin.tap(*screen.theirs.center_of(C.parse("5H")))
    assert {c for c, _i in g.vars["laid"]} == {seven, eight}
    gin.tap_widget(button(gin, "Done"))
    result = g.vars["result"]
    assert g.phase == "done" and {c for c, _i in result.laid_off} == {seven, eight}
    assert "The computer knocks with 1, you have 19: it scores 18." in screen.message.text
    logged = json.loads(gin.app.lobby.session.play.hands[-1]["detail"])
    assert sorted(c for c, _i in logged["laid_off"]) == ["7H", "8H"]


def test_the_computer_lays_off_in_words_after_the_visitor_knocks(gin):  # noqa: F811
    g = visitor_first_with(gin, "4H 5H 6H TC TD TS 3C 3D 3S AS KH",
                           "7H 8H 2C 2D 2S JC JD JS KC 9D", turn=0).game
    screen = gin.app.gin
    screen.refresh()
    tap_card(gin, C.parse("KH"))
    gin.tap_widget(button(gin, "Knock"))
    gin.tap_widget(button(gin, "Yes, knock"))
    assert g.phase == "layoff" and g.to_move == 1
    heard = []
    assert gin.until(lambda: (heard.append(screen.message.text), g.phase == "done")[1], 10)
    assert any("The computer lays off the 7♥ on your 4♥ 5♥ 6♥." in t for t in heard)
    assert [g.notation(m) for m in g.history[-3:]][-1] == "done"
    assert "The computer laid off: 7♥ 8♥." in screen.message.text
    assert {C.parse("7H"), C.parse("8H")} <= set(screen.mine.codes)
