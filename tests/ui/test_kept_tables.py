"""Kept means kept (issue 34): a match left at a hand table stays on its shelf until the
visitor sits down at that game again or the kiosk resets after idling, whatever other games
are opened meanwhile: one shelf per game (and variant), at most KEPT_TABLES of them. All by
simulated touches through the real app: the picker's tiles, the variant sheet, the Leave
panel."""

from __future__ import annotations

import pytest

from kiosk.table.kept import KEPT_TABLES

from .test_hand_tables_leave import computer_pause


@pytest.fixture
def lobby(ui):
    with computer_pause(ui, 3600):  # the computer waits: the test moves for it
        yield ui


def pick(ui, game_id: str, variant: str):
    """From the picker: the game's tile, then the variant's button on the sheet."""
    app = ui.app
    app.show_picker(game_id)
    ui.wait(0.4)  # the carousel turns to the tile's page
    tile = next(t for page in app.picker.carousel.slides for t in page.children
                if getattr(t, "game_id", "") == game_id)
    ui.tap_widget(tile)
    ui.wait(0.2)
    assert app.sm.current == "variants"
    ui.tap_widget(app.variants.buttons[variant])
    ui.frames(2)
    assert app.controller.game_id == game_id
    return app.controller


def leave(ui, screen) -> None:
    """The Leave button, then "Leave the table" on its panel."""
    ui.tap_widget(screen.home)
    choice = next(b for b in screen.end.choices.children if b.text == "Leave the table")
    ui.tap_widget(choice)
    ui.frames(1)
    assert ui.app.sm.current == "picker"


def test_gin_left_at_computer_37_survives_a_draw_poker_visit(lobby):
    """The reported case: Gin left at "Computer 37", Draw Poker opened and played, then Gin
    again gave Hand 1 at 0-0. Now the match comes back, and so does the poker table."""
    app = lobby.app
    gin = pick(lobby, "gin_rummy", "normal")
    g = gin.game
    g.play(g.legal_moves()[0])  # the visitor has played: a match in progress
    g.vars.update(hand_no=3, scores=(0, 37))
    app.gin.refresh()
    assert app.gin.score.text == "Hand 3 · You 0 · Computer 37"
    leave(lobby, app.gin)

    poker = pick(lobby, "draw_poker", "3")
    p = poker.game
    assert p is not g and not p.history
    lobby.until(lambda: p.to_move == 0, 1)
    for _ in range(8):  # the computer players and the visitor bet
        if p.to_move == 0:
            first = next(b for b in app.poker.actions.children)
            lobby.tap_widget(first)
        else:
            poker.play(p.clone().computer_move(p.computer_rng()), "computer")
            app.poker.refresh()
            lobby.frames(1)
    assert p.history
    leave(lobby, app.poker)

    back = pick(lobby, "gin_rummy", "normal")
    assert back.game is g and g.vars["hand_no"] == 3 and g.vars["scores"] == (0, 37)
    assert app.gin.score.text == "Hand 3 · You 0 · Computer 37"
    assert "Welcome back: your game goes on." in app.gin.message.text
    leave(lobby, app.gin)
    assert pick(lobby, "draw_poker", "3").game is p  # the poker table was kept too


def test_another_variant_is_a_table_of_its_own_and_idle_forgets_every_one(lobby):
    app = lobby.app
    normal = pick(lobby, "gin_rummy", "normal").game
    normal.play(normal.legal_moves()[0])
    leave(lobby, app.gin)
    easy = pick(lobby, "gin_rummy", "easy").game
    assert easy is not normal and not easy.history  # the easy computer: a fresh match
    leave(lobby, app.gin)  # an untouched deal keeps nothing and pushes nothing out
    assert pick(lobby, "gin_rummy", "normal").game is normal
    leave(lobby, app.gin)
    app.go_welcome()  # the idle timeout: the next visitor
    assert app.lobby.kept.games == []
    fresh = pick(lobby, "gin_rummy", "normal").game
    assert fresh is not normal and not fresh.history


def test_the_shelves_are_bounded(lobby):
    """Left tables of more games than KEPT_TABLES: the longest left goes first."""
    app = lobby.app
    games_left = ["klondike", "golf", "pyramid", "canfield", "clock", "scorpion",
                  "accordion"]
    assert len(games_left) == KEPT_TABLES + 1
    for game_id in games_left:
        ctl = app.open_game(game_id, 7)
        ctl.play(ctl.legal_moves()[0])
        app.table.go_home()
    kept = [g for g, _o in app.lobby.kept.games]
    assert kept == games_left[1:]
    again = app.open_game("klondike", 8)  # the first one left was let go
    assert not again.shelved
    again = app.open_game("golf", 8)  # the others come back under Undo, as before
    assert again.shelved == 1
    app.go_welcome()
