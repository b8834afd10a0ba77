"""Every screen a visitor or the operator sees, for the checkers that measure them all.

One app; the language and the window size are switched in-process (as the text-fit check
does); each place is laid out without drawing a frame and handed to the check as the widget
that takes the touches there (a sheet over the table, not the table under it).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import games
from kiosk.settings import variants
from kiosk.settings.config import table_can_play

SIZES = [(800, 480), (720, 1280)]
LANGS = ("zh", "en", "ru")


def settle() -> None:
    """Lay the screen out (Kivy's layouts and labels run before a frame) and let one frame
    run what the screen scheduled for it."""
    from kivy.base import EventLoop
    from kivy.clock import Clock

    for _ in range(3):
        Clock.tick_draw()
    EventLoop.idle()  # what a screen schedules for its next frame (a rebuilt picker's tiles)


def quiet_tables(monkeypatch) -> None:
    """The words and boxes, not the cards: no card is drawn and no solver is asked."""
    from kiosk.screens.hinting import TableHelp
    from kiosk.table.table_view import TableView

    monkeypatch.setattr(TableView, "sync", lambda self, animate=True, on_top=(): None)
    monkeypatch.setattr(TableHelp, "changed", lambda self, what="": None)


def _current(ui):
    return ui.app.sm.current_screen


def places(ui, game_ids: list[str] | None = None,
           sizes=SIZES, langs=LANGS) -> Iterator[tuple[str, str, object]]:
    """(screen key, where, widget to check) for every screen, table and sheet a visitor
    sees, in every language and size. The screen key names whose screen it is (the
    expected-failure sets are keyed by it): "welcome", "picker", "variants", "table",
    "table rules", "table options", "table status" (the bar with the live verdict or a
    hint's line), "table nowin", "table end" (No more moves, You won!), "hand table"
    (each moment of a hand: its phases, a raised card, the Leave panel, the end of a
    visit). The operator's screens, in every state and scroll position:
    tests/ui/operator_walk.py."""
    ids = list(filter(table_can_play, games.ids())) if game_ids is None else game_ids
    for size in sizes:
        for lang in langs:
            ui.reset(lang, size)
            tag = f"{lang} {size[0]}x{size[1]}"
            settle()
            yield "welcome", f"welcome {tag}", _current(ui)
            ui.app.show_picker()
            settle()
            yield "picker", f"picker {tag}", _current(ui)
            for game_id in ids:
                if len(variants.offered(ui.app.cfg, game_id)) >= 2:
                    ui.app.choose_game(game_id)
                    settle()
                    yield "variants", f"{game_id} variants {tag}", _current(ui)
                yield from _table(ui, game_id, tag)
            yield from _end_sheets(ui, tag)
            ui.app.go_welcome()


def _table(ui, game_id: str, tag: str) -> Iterator[tuple[str, str, object]]:
    ui.app.open_position(games.new(game_id, 1))
    settle()
    screen = _current(ui)
    if screen is not ui.app.table:
        yield from _hand_table(ui, game_id, tag)
        return
    yield "table", f"{game_id} {tag}", screen
    sheets: list[tuple[str, Callable[[], None]]] = [("rules", screen.show_rules)]
    if hasattr(screen, "show_options"):
        sheets.append(("options", screen.show_options))
    for kind, show in sheets:
        show()
        settle()
        yield f"table {kind}", f"{game_id} {kind} {tag}", screen.sheet
        screen.close_sheet()
    yield from _status_lines(ui, screen, game_id, tag)


def _status_lines(ui, screen, game_id: str, tag: str) -> Iterator[tuple[str, str, object]]:
    """The bar in every state of its lines: the live verdict ("✓ Still winnable", "No win
    possible from here — Undo?"), a hint's line over the table, and the "No way to win"
    message."""
    from kiosk.solving.hints import LOST, WON

    tr, help_ = ui.app.tr, screen.help
    for verdict in (WON, LOST):
        help_.state.shown = verdict
        help_._paint_verdict()
        settle()
        yield "table status", f"{game_id} {verdict} {tag}", screen
    help_.state.shown = ""
    help_._paint_verdict()
    screen.say(tr("Maybe try this move. No sure win was found in time."))
    settle()
    yield "table status", f"{game_id} hint {tag}", screen
    screen.hush()
    help_.no_win(count=False)
    settle()
    yield "table nowin", f"{game_id} nowin {tag}", screen.sheet
    screen.close_sheet()


def _end_sheets(ui, tag: str) -> Iterator[tuple[str, str, object]]:
    """"No more moves" (Golf played out) and "You won!" (Klondike one move from its win):
    their words are the same at every table."""
    from tests.conftest import arrange

    screen = ui.app.table
    over = games.new("golf", 1)
    while not over.over:
        over.play(over.legal_moves()[-1])
    won = games.new("klondike", 1)
    piles = {f"F{i + 1}": " ".join(f"{r}{s}" for r in "A23456789TJQK")
             for i, s in enumerate("CDHS")}
    arrange(won, piles)
    for game, kind in ((over, "over"), (won, "won")):
        ui.app.open_position(game)  # the table puts its end sheet up at once
        if kind == "over":
            screen._show_over()
        else:
            screen._won(game, now=True)
        screen._end_cascade()
        settle()
        yield "table end", f"{game.info.id} {kind} {tag}", screen.sheet
        screen.close_sheet()


def _hand_table(ui, game_id: str, tag: str) -> Iterator[tuple[str, str, object]]:
    """A hand table at each moment of one hand, played seat by seat through the table's own
    path (its computer turns at once, the visitor's seat by the computer player): each new
    phase, a raised card with its button, the end of the hand, the Leave panel; Draw Poker
    with one and seven opponents and the end of a visit."""
    from kiosk.screens.attract import DemoTurns

    setups = ([{"opponents": 1}, {"opponents": 7}] if game_id == "draw_poker" else [{}])
    for opts in setups:
        ui.app.open_position(games.new(game_id, 1, **opts))
        settle()
        screen = _current(ui)
        name = f"{game_id}{''.join(f' {k}={v}' for k, v in opts.items())}"
        turns, screen.turns = screen.turns, DemoTurns()  # the computer decides at once
        try:
            yield "hand table", f"{name} dealt {tag}", screen
            seen: set[tuple[str, bool]] = set()
            for _ in range(400):
                g = screen.game
                moment = (g.phase, g.to_move == 0)
                if moment not in seen:
                    seen.add(moment)
                    settle()
                    yield "hand table", f"{name} {g.phase} {tag}", screen
                    pick = getattr(screen, "pick", None)
                    hand = g.hand(0) if g.to_move == 0 and hasattr(g, "hand") else []
                    if pick is not None and hand and g.phase in ("discard", "lead", "follow"):
                        for code in hand:  # a card raised, and the button that plays it
                            pick(code)
                            if getattr(screen, "raised", -1) >= 0:
                                break
                        settle()
                        yield "hand table", f"{name} {g.phase} raised {tag}", screen
                if g.phase in ("done", "match", "over") or not screen.demo_step():
                    break
            settle()
            yield "hand table", f"{name} end of hand {tag}", screen
            screen.ask_leave()
            settle()
            yield "hand table", f"{name} leave {tag}", screen
            screen.stay()
            if game_id == "draw_poker":  # out of chips: the end of the visit
                g = screen.game
                g.vars.update(chips=(0, *g.vars["chips"][1:]), phase="over")
                screen.refresh()
                settle()
                yield "hand table", f"{name} visit over {tag}", screen
        finally:
            screen.turns = turns


def assert_only_expected(ui, problems_of: Callable[[object, str], list[str]],
                         expected: dict[str, str]) -> None:
    """Walk every place of :func:`places` and check each with ``problems_of(root, where)``:
    fail on problems of a place ``expected`` does not name (all of them reported), and on a
    place it names that has none now, so a fixed screen is held fixed from then on."""
    found: dict[str, list[str]] = {}
    for key, where, root in places(ui):
        problems = problems_of(root, where)
        if problems:
            found.setdefault(key, []).extend(problems)
    unexpected = {k: v for k, v in found.items() if k not in expected}
    report = "\n".join(p for v in unexpected.values() for p in v)
    assert not unexpected, report[:6000]
    mended = set(expected) - set(found)
    assert not mended, f"fixed now, take them out of EXPECTED: {sorted(mended)}"
