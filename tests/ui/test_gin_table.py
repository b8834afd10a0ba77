"""The Gin Rummy table by touch: a visitor plays a hand, the computer answers in the
background, a knock shows both hands in melds and deadwood."""

from __future__ import annotations

import threading

import pytest

from games.engine import cards as C
from games.families.melds import deadwood
from games.gin_rummy import GinRummy


@pytest.fixture
def gin(ui):
    screen = ui.app.gin
    old = screen.turns.pause
    screen.turns.pause = 0.02  # the pause is for people; the tests need not wait for it
    yield ui
    screen.turns.pause = old


def button(ui, text: str):
    for b in ui.app.gin.actions.children:
        if b.text == text:
            return b
    raise AssertionError(f"no button {text!r}: {[b.text for b in ui.app.gin.actions.children]}")


def tap_card(ui, code: int) -> None:
    ui.tap(*ui.app.gin.mine.center_of(code))


def visitor_turn(ui, g) -> None:
    """One turn as a person would take it: draw from the stock; knock (or go gin) when
    allowed, after the confirmation; else raise the card whose loss leaves the least
    deadwood and tap it again."""
    ui.tap_widget(button(ui, "Draw from stock"))
    assert g.phase == "discard"
    hand = g.hand(0)
    made = len(g.history)
    out = min(hand, key=lambda c: (deadwood(x for x in hand if x != c), -C.RANK[c]))
    tap_card(ui, out)
    assert ui.app.gin.raised == out and g.phase == "discard"
    kinds = {b.text for b in ui.app.gin.actions.children if not getattr(b, "greyed", False)}
    if "Gin" in kinds or "Knock" in kinds:  # in sight from the start; lit when possible
        word = "Gin" if "Gin" in kinds else "Knock"
        ui.tap_widget(button(ui, word))
        assert g.phase == "discard", "a knock waits for the confirmation tap"
        ui.tap_widget(button(ui, "Yes, go gin" if word == "Gin" else "Yes, knock"))
    else:
        tap_card(ui, out)
    assert g.history[made].extra == (out,)  # the computer may have answered already


def test_a_visitor_plays_a_whole_hand_by_touch_and_the_log_keeps_it(gin):
    ctl = gin.app.open_game("gin_rummy", 4711)
    gin.frames(3)
    assert gin.app.sm.current == "gin"
    g = ctl.game
    said = set()
    for _turn in range(60):
        if g.phase in ("done", "match"):
            break
        assert gin.until(lambda: g.phase in ("done", "match") or g.to_move == 0, 10)
        if gin.app.gin.said:
            said.add(gin.app.gin.said[0])
        if g.to_move == 0 and g.phase == "offer":
            gin.tap_widget(button(gin, "Pass"))
        elif g.to_move == 0 and g.phase == "draw":
            visitor_turn(gin, g)
        elif g.to_move == 0 and g.phase == "layoff":
            gin.tap_widget(button(gin, "Done"))
    assert g.phase == "done" and g.vars["result"]
    assert any(s.startswith("The computer") for s in said)
    assert "Next hand" in [b.text for b in gin.app.gin.actions.children]
    play = gin.app.lobby.session.play
    assert len(play.hands) == 1 and play.hands[0]["kind"] == g.vars["result"].kind
    gin.tap_widget(button(gin, "Next hand"))
    assert g.vars["hand_no"] == 2 and g.phase in ("offer", "discard") and not g.vars["result"]


def test_the_computer_decides_off_the_ui_thread(gin, monkeypatch):
    threads = []
    real = GinRummy.computer_move

    def spy(self, rng=None):
        threads.append(threading.current_thread())
        return real(self, rng)

    monkeypatch.setattr(GinRummy, "computer_move", spy)
    for seed in range(1, 40):  # a deal where the computer moves first
        g = GinRummy(seed)
        if g.to_move == 1:
            break
    ctl = gin.app.open_game("gin_rummy", seed)
    assert gin.until(lambda: ctl.game.to_move == 0, 10)
    assert threads and all(t is not threading.main_thread() for t in threads)
    assert gin.app.gin.said[0].startswith("The computer")
    assert gin.app.gin.message.text.startswith("The computer")


def visitor_first() -> int:
    return next(s for s in range(1, 50) if GinRummy(s).to_move == 0)


def knock_position(g: GinRummy) -> int:
    """The visitor to discard from A-2-3♣, three fives, 9-10-J♥, 2♦ and K♠: throwing the
    K♠ knocks with 2."""
    want = [C.parse(t) for t in ("AC", "2C", "3C", "5D", "5H", "5S", "9H", "TH", "JH",
                                 "2D", "KS")]
    h0, h1 = g.hands
    others = [c for c in g.cards[h0] + g.cards[h1] + g.cards[g.stock] if c not in want
              and c not in g.cards[g.waste]]
    g.cards[h0] = want
    g.cards[h1] = others[:10]
    g.cards[g.stock] = others[10:]
    g.down[h1], g.down[g.stock], g.down[h0] = 10, len(g.cards[g.stock]), 0
    g.vars.update(turn=0, phase="discard", taken=-1, passes=3)
    return C.parse("KS")


@pytest.mark.parametrize("lang", ["en"])
def test_a_knock_asks_to_be_sure_then_shows_both_hands_in_melds(gin, lang):
    ctl = gin.app.open_game("gin_rummy", visitor_first())
    gin.frames(2)
    g = ctl.game
    king = knock_position(g)
    gin.app.gin.refresh()
    tap_card(gin, king)
    gin.tap_widget(button(gin, "Knock"))
    assert g.phase == "discard"  # asked once more, naming the card that goes
    assert ("Knock, throwing away the K♠? Your deadwood: 2; if the computer's is 2 or less, "
            "it scores.") in gin.app.gin.message.text
    gin.tap_widget(button(gin, "Yes, knock"))
    assert gin.until(lambda: g.phase == "done", 10)  # after the computer's lay-offs
    result = g.vars["result"]
    assert g.phase == "done" and result.knocker == 0
    mine = gin.app.gin.mine
    # the knocker's melds, each followed by what the computer laid off on it
    melded = [c for i, m in enumerate(result.melds[0])
              for c in sorted((*m, *(x for x, w in result.laid_off if w == i)),
                              key=lambda c: (C.RANK[c], C.SUIT[c]))]
    assert mine.codes[:len(melded)] == melded
    assert set(mine.codes) == set(g.hand(0)) | {x for x, _ in result.laid_off}
    assert mine.marked == {C.parse("2D")}
    theirs = gin.app.gin.theirs
    assert theirs.face_up and theirs.marked == set(result.dead[1]) - {c for c, _ in
                                                                     result.laid_off}
    line = gin.app.gin.message.text
    assert f"You knock with 2, the computer has {result.deadwood[1]}" in line or \
        line.startswith("Undercut")


def test_the_last_hand_ends_the_match_and_the_log_keeps_it(gin):
    ctl = gin.app.open_game("gin_rummy", visitor_first())
    gin.frames(2)
    g = ctl.game
    king = knock_position(g)
    g.vars["hand_no"] = 30  # the last hand of a 30-hand match
    gin.app.gin.refresh()
    tap_card(gin, king)
    gin.tap_widget(button(gin, "Knock"))
    gin.tap_widget(button(gin, "Yes, knock"))
    assert gin.until(lambda: g.phase == "match", 10)
    you, them = g.final_scores
    assert g.phase == "match" and you > them
    assert f"You win the match, {you} to {them}!" in gin.app.gin.message.text
    play = gin.app.lobby.session.play
    assert play.match is not None and play.match["winner"] == "visitor"
    gin.tap_widget(button(gin, "New match"))
    assert ctl.game is not g and ctl.game.vars["hand_no"] == 1


def test_the_undo_button_says_why_it_is_off_and_takes_nothing_back(gin):
    from kiosk.platform.buttons import UNDO

    ctl = gin.app.open_game("gin_rummy", visitor_first())
    gin.frames(2)
    g = ctl.game
    gin.tap_widget(button(gin, f"Take the {C.pretty(g.top(g.waste))}"))
    made = list(ctl.game.history)
    gin.app.lobby.on_button(UNDO, "key")
    gin.frames(2)
    assert ctl.game.history == made
    assert "Undo is off in games against the computer" in gin.app.gin.message.text
