"""Never lose a visitor's match by one touch: at Gin Rummy, Follow the Rules and Draw Poker
the Leave button (one name at all three) asks first with the score so far, Keep playing
keeps the match, and a match left in progress comes back when the visitor chooses the game
again. New deal says why it is off while a hand is played."""

from __future__ import annotations

from contextlib import contextmanager

import pytest

from games.families.seats import VISITOR
from kiosk.platform.buttons import NEW_DEAL, PICKER
from kiosk.screens.text_fit import TOUCH_GAP

#: (game, options, the screen's attribute on the app)
TABLES = [("gin_rummy", {}, "gin"), ("follow_the_rules", {}, "trick_table"),
          ("draw_poker", {"opponents": 3}, "poker")]


@contextmanager
def computer_pause(ui, seconds: float):
    """Every hand table's computer waits ``seconds`` before each move for the block (an
    hour: the test moves for it; a blink: the test sees it move)."""
    screens = [getattr(ui.app, attr) for _g, _o, attr in TABLES]
    old = [s.turns.pause for s in screens]
    for s in screens:
        s.turns.pause = seconds
    try:
        yield ui
    finally:
        for s, pause in zip(screens, old, strict=True):
            s.turns.pause = pause


@pytest.fixture
def hands(ui):
    with computer_pause(ui, 3600):  # the computer waits: the test moves for it
        yield ui


def choice(panel, text: str):
    for b in panel.choices.children:
        if b.text == text:
            return b
    raise AssertionError(f"no choice {text!r}: {[b.text for b in panel.choices.children]}")


def mid_match(ui, game_id: str, options: dict):
    """A match under way: the visitor and the computer have moved, hand 2 for the matches."""
    ctl = ui.app.open_game(game_id, 77, dict(options))
    ui.frames(2)
    g = ctl.game
    for _ in range(6):
        moves = g.legal_moves()
        if not moves or g.phase in ("done", "match", "over"):
            break
        ctl.play(moves[0], "touch" if g.to_move == VISITOR else "computer")
    assert g.history
    if game_id != "draw_poker":
        g.vars.update(hand_no=2, scores=(0, 54) if game_id == "gin_rummy" else (3, 5))
    return ctl, g


@pytest.mark.parametrize(("game_id", "options", "attr"), TABLES)
def test_leave_asks_with_the_score_keeps_playing_and_a_left_match_comes_back(
        hands, game_id, options, attr):
    app = hands.app
    ctl, g = mid_match(hands, game_id, options)
    screen = getattr(app, attr)
    screen.refresh()
    assert screen.home.text == "Leave"
    made = len(g.history)
    hands.tap_widget(screen.home)
    assert app.sm.current == screen.name and screen.end.parent is not None
    assert screen.end.title.text == "Leave the table?"
    line = screen.end.line.text
    if game_id == "gin_rummy":
        assert "Hand 2: you 0, the computer 54." in line
    elif game_id == "follow_the_rules":
        assert "Hand 2: you 3, the computer 5." in line
    else:
        assert f"Your chips: {g.vars['chips'][0]}" in line
    assert "Your game is kept: choose this game again to go on." in line
    hands.tap_widget(choice(screen.end, "Keep playing"))
    assert screen.end.parent is None and app.sm.current == screen.name
    assert ctl.game is g and len(g.history) == made
    # leave for real, then choose the same game again: the match is back as it was
    hands.tap_widget(screen.home)
    hands.tap_widget(choice(screen.end, "Leave the table"))
    hands.frames(1)
    assert app.sm.current == "picker"
    again = app.open_game(game_id, None, dict(options))
    hands.frames(2)
    assert again.game is g and len(g.history) == made
    assert "Welcome back: your game goes on." in screen.message.text
    if game_id != "draw_poker":
        assert g.vars["scores"] == ((0, 54) if game_id == "gin_rummy" else (3, 5))


@pytest.mark.parametrize(("game_id", "options", "attr"), TABLES)
def test_the_picker_button_keeps_the_match_too_and_a_finished_one_is_not_brought_back(
        hands, game_id, options, attr):
    app = hands.app
    ctl, g = mid_match(hands, game_id, options)
    app.lobby.on_button(PICKER, "key")
    hands.frames(2)
    assert app.sm.current == "picker"
    assert app.open_game(game_id, None, dict(options)).game is g
    hands.frames(2)
    # the match ends; leaving and coming back deals a fresh one
    g.vars.update(phase="over" if game_id == "draw_poker" else "match")
    app.lobby.on_button(PICKER, "key")
    hands.frames(2)
    fresh = app.open_game(game_id, None, dict(options)).game
    assert fresh is not g and not fresh.history


@pytest.mark.parametrize(("game_id", "options", "attr"), TABLES)
def test_new_deal_says_why_it_is_off_during_a_hand(hands, game_id, options, attr):
    app = hands.app
    ctl, g = mid_match(hands, game_id, options)
    screen = getattr(app, attr)
    made, hand_no = len(g.history), g.vars["hand_no"]
    app.lobby.on_button(NEW_DEAL, "key")
    hands.frames(1)
    assert ctl.game is g and len(g.history) == made and g.vars["hand_no"] == hand_no
    assert "New deal is off until this hand is over" in screen.message.text


def face(button) -> tuple[float, float]:
    """What a finger sees of a button: its face, drawn inset in its box."""
    return tuple(button._rect.size)


def check_targets(buttons, floor: float) -> list[str]:
    """Buttons whose face is under ``floor`` px, or that touch a neighbour in their row."""
    bad = [f"{b.text!r} {face(b)}" for b in buttons if min(face(b)) < floor - 0.5]
    row = sorted(buttons, key=lambda b: b.x)
    for a, b in zip(row, row[1:], strict=False):
        if abs(a.y - b.y) < 1 and b._rect.pos[0] - (a._rect.pos[0] + face(a)[0]) < TOUCH_GAP:
            bad.append(f"no gap between {a.text!r} and {b.text!r}")
    return bad


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
@pytest.mark.parametrize(("game_id", "options", "attr"), TABLES)
def test_every_button_of_a_hand_table_is_a_full_touch_target(hands, game_id, options, attr,
                                                             size):
    hands.resize(*size)
    try:
        mid_match(hands, game_id, options)
        screen = getattr(hands.app, attr)
        hands.frames(2)
        floor = 48 * min(size) / 480
        assert not check_targets([screen.home], floor)
        assert screen.home.top <= screen.height
        assert not check_targets(list(screen.actions.children), floor)
        screen.ask_leave()
        hands.frames(1)
        assert not check_targets(list(screen.end.choices.children), floor)
        screen.stay()
    finally:
        hands.resize(800, 480)


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
def test_draw_poker_opponent_count_buttons_are_full_touch_targets(hands, size):
    app = hands.app
    hands.resize(*size)
    try:
        app.variants.open("draw_poker")
        app.sm.current = "variants"
        hands.frames(3)
        sheet = app.variants
        floor = 48 * min(size) / 480
        assert len(sheet.buttons) == 7
        assert not check_targets(list(sheet.buttons.values()), floor)
        assert not check_targets(list(sheet.level_buttons.values()), floor)
        assert not check_targets([sheet.back], floor)
        assert sheet.box.y >= 0 and sheet.box.top <= size[1]
    finally:
        hands.resize(800, 480)
