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
    "table rules", "table options", "hand table". The operator's screens, in every state
    and scroll position: tests/ui/operator_walk.py."""
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
            ui.app.go_welcome()


def _table(ui, game_id: str, tag: str) -> Iterator[tuple[str, str, object]]:
    ui.app.open_position(games.new(game_id, 1))
    settle()
    screen = _current(ui)
    if screen is not ui.app.table:
        yield "hand table", f"{game_id} {tag}", screen
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
