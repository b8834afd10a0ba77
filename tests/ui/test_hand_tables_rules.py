"""The Rules button of every hand table (issue 34): the solitaires' Rules sheet with the
game's "how to play this hand" first, in the visitor's language; the computer waits while
it is up; its deck switch turns every card at the table four-coloured. The new words read
at the floor and at 4.5:1, at both sizes in zh, en and ru."""

from __future__ import annotations

import pytest

import games
from kiosk.i18n import game_text
from kiosk.screens.rules_sheet import DECK_NOTE, HOW_HEADING, RULES_HEADING
from kiosk.screens.text_fit import READ_PX
from kiosk.table.card_art import CardWidget
from kiosk.table.hand_fan import HandFan

from .contrast import contrast_problems
from .screen_walk import settle
from .test_hand_tables_leave import TABLES as HAND_TABLES
from .test_hand_tables_leave import computer_pause
from .test_text_fit import label_problems

#: (game, options, the screen's attribute on the app): Draw Poker with all seven opponents
TABLES = [(g, {"opponents": 7} if g == "draw_poker" else o, a) for g, o, a in HAND_TABLES]


@pytest.fixture
def waiting(ui):
    """The computer moves at once when it may (so a test sees that it waits)."""
    with computer_pause(ui, 0.02):
        yield ui


def computer_first(game_id: str, options: dict) -> int:
    return next(s for s in range(1, 80) if games.new(game_id, s, **options).to_move != 0)


@pytest.mark.parametrize("lang", ["zh", "en", "ru"])
@pytest.mark.parametrize(("game_id", "options", "attr"), TABLES)
def test_the_rules_button_shows_how_to_play_then_the_rules_and_the_computer_waits(
        waiting, game_id, options, attr, lang):
    app = waiting.app
    waiting.reset(lang)
    ctl = app.open_game(game_id, computer_first(game_id, options), dict(options))
    screen = getattr(app, attr)
    assert screen.rules_button.text == app.tr("Rules")
    waiting.frames(1)
    waiting.tap_widget(screen.rules_button)  # before the computer's first move is played
    assert not ctl.game.history
    sheet = screen.rules_sheet
    assert sheet is not None and sheet.parent is not None
    entry = app.catalog_entry(game_id)
    assert sheet.title.text == game_text(entry, "names", lang)
    assert [h.text for h in sheet.headings] == [app.tr(HOW_HEADING), app.tr(RULES_HEADING)]
    assert sheet.how.text == entry["how_to_play"][lang].strip()
    assert sheet.body.text.startswith(entry["rules"][lang])
    assert sheet.body.text.endswith(app.tr(DECK_NOTE))
    made = len(ctl.game.history)
    waiting.wait(0.4)
    assert len(ctl.game.history) == made  # the computer waits while the visitor reads
    waiting.tap_widget(sheet.close_button)
    assert screen.rules_sheet is None and sheet.parent is None
    assert waiting.until(lambda: len(ctl.game.history) > made, 10)


@pytest.mark.parametrize(("game_id", "options", "attr"), TABLES)
def test_the_deck_switch_on_the_rules_sheet_reaches_every_card_of_the_table(
        waiting, game_id, options, attr):
    app = waiting.app
    ctl = app.open_game(game_id, 5, dict(options))
    waiting.frames(2)
    screen = getattr(app, attr)
    waiting.seasoned()

    def decks() -> set[bool]:
        found = {w.four_colour for w in screen.walk(restrict=True)
                 if isinstance(w, CardWidget | HandFan)}
        return found

    assert not app.four_colour and decks() == {False}
    waiting.tap_widget(screen.rules_button)
    deck = screen.rules_sheet.deck_button
    assert deck.text == "Four-colour deck: off"
    waiting.tap_widget(deck)
    assert app.four_colour and deck.selected and deck.text == "Four-colour deck: on"
    assert decks() == {True}
    waiting.tap_widget(screen.rules_sheet.close_button)
    if game_id == "draw_poker":  # the opponents' cards too, dealt again in the next deal
        ctl.new_deal(source="button")
        waiting.frames(2)
        assert sum(isinstance(w, HandFan) for w in screen.walk(restrict=True)) == 8
    assert decks() == {True}
    app.go_welcome()  # the next visitor gets the operator's deck again
    assert not app.four_colour and decks() == {False}


def test_the_deck_chosen_at_a_hand_table_is_the_solitaires_deck_too(waiting):
    app = waiting.app
    app.open_game("gin_rummy", 5)
    waiting.frames(2)
    waiting.tap_widget(app.gin.rules_button)
    waiting.frames(2)
    waiting.tap_widget(app.gin.rules_sheet.deck_button)
    assert app.four_colour
    app.gin.close_rules()
    app.open_game("klondike", 7)
    waiting.frames(2)
    assert app.table.view.four_colour and all(w.four_colour for w in app.table.view.cards.values())
    app.go_welcome()


#: how many of the new words show at each moment: the Rules button, then Gin's tip, its
#: deadwood line and greyed buttons, Follow the Rules' suit led
SHOWING = {"offer": 5, "throw": 5, "knock": 4, "confirm": 2, "follow": 2, "draw": 1}


def new_words(screen) -> list:
    """The labels this issue added to a hand table, those showing now."""
    found = [screen.rules_button]
    for name in ("tip", "deadwood", "led"):
        label = getattr(screen, name, None)
        if label is not None and str(label.text).strip() and label.opacity:
            found.append(label)
    found += [b for b in screen.actions.children if getattr(b, "greyed", False)]
    return found


def floor_problems(labels, u: float, where: str) -> list[str]:
    floor = READ_PX * u - 0.01
    return [f"{where}: {str(w.text)[:40]!r} at {w.font_size:.1f} px" for w in labels
            if w.font_size < floor]


def sheet_labels(sheet) -> list:
    return [sheet.title, *sheet.headings, sheet.how, sheet.body, sheet.deck_button,
            sheet.close_button]


def first_hand_moments(app, game_id: str, screen):
    """The moments of a first hand at which the new words show (each yielded once it is
    on the table): Gin's offer, a throw and a possible knock; Follow the Rules' follow;
    Draw Poker's draw."""
    from games.engine import cards as C
    from games.engine.model import Move
    from games.follow_the_rules import FollowTheRules

    from .test_gin_offer_layoff import dealt_position
    from .test_gin_table import visitor_first

    if game_id == "gin_rummy":
        ctl = app.open_game(game_id, visitor_first())
        yield "offer"
        dealt_position(ctl.game, "KH 3C TD 5H AS 3D TS QS 3S 6H TC",
                       "7H 8H 2C 2D 2S JC JD JS KC 9D", turn=0)
        screen.refresh()
        yield "throw"
        dealt_position(ctl.game, "KH 3C TD 5H AS 3D TS 4H 3S 6H TC",
                       "7H 8H 2C 2D 2S JC JD JS KC 9D", turn=0)
        screen.refresh()
        yield "knock"
        screen.said = ("You take the {card}; it is framed in gold in your hand.",
                       {"card": "J♣"})  # the longest words a confirmation stands under
        screen.going_out("knock")
        yield "confirm"
    elif game_id == "follow_the_rules":
        seed = next(s for s in range(1, 99) if FollowTheRules(s).to_move == 1)
        ctl = app.open_game(game_id, seed)
        g = ctl.game
        ctl.play(Move("play", extra=(min(g.hand(1), key=lambda c: C.RANK[c]),)), "computer")
        screen.refresh()
        yield "follow"
    else:
        ctl = app.open_game(game_id, 11, {"opponents": 3})
        g = ctl.game
        for _ in range(60):
            if g.phase == "draw" and g.to_move == 0:
                break
            moves = g.legal_moves()
            pick = next((m for m in moves if m.kind in ("call", "check", "open")), None)
            ctl.play(pick or moves[0], "touch" if g.to_move == 0 else "computer")
        screen.refresh()
        yield "draw"


@pytest.mark.slow
@pytest.mark.timeout(600)
@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
@pytest.mark.parametrize("lang", ["zh", "en", "ru"])
def test_the_new_words_read_at_the_floor_and_at_4_5_to_1(ui, lang, size):
    app = ui.app
    u = min(size) / 480
    problems: list[str] = []
    for game_id, _options, attr in TABLES:
        ui.reset(lang, size)
        screen = getattr(app, attr)
        pause, screen.turns.pause = screen.turns.pause, 3600
        try:
            for moment in first_hand_moments(app, game_id, screen):
                settle()
                where = f"{game_id} {moment} {lang} {size}"
                words = new_words(screen)
                assert len(words) == SHOWING[moment], (where, [w.text for w in words])
                problems += floor_problems(words, u, where)
                for w in words:
                    problems += contrast_problems(w, where)
                    problems += label_problems(w, where)
                problems += floor_problems([screen.message], u, where + " message")
                header = getattr(screen, "score", None) or screen.header  # between the
                problems += floor_problems([header], u, where + " header")  # two buttons
                problems += label_problems(header, where)
                problems += contrast_problems(screen.message, where)
            screen.show_rules()
            settle()
            where = f"{game_id} rules {lang} {size}"
            labels = sheet_labels(screen.rules_sheet)
            problems += floor_problems(labels, u, where)
            problems += contrast_problems(screen.rules_sheet, where)
            problems += label_problems(screen.rules_sheet, where)
            screen.close_rules()
        finally:
            screen.turns.pause = pause
    assert not problems, "\n".join(problems)
