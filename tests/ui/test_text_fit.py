"""No label's text is bigger than its box and none is cut without an ellipsis: every screen
and every game's table, in zh, en and ru, at 800x480 and 720x1280.

One app, the language and the window size switched in-process; a screen is checked from
its widgets' sizes (Kivy knows the box and the laid-out text), without drawing frames for
pictures. Cut text is found by comparing the words Kivy laid out with the label's text.
"""

from __future__ import annotations

import pytest
from kivy.uix.label import Label
from kivy.uix.scrollview import ScrollView

import games
from kiosk.screens.text_fit import ELLIPSIS, READ_PX, TOUCH_PX, FitLabel
from kiosk.settings.config import table_can_play

SIZES = [(800, 480), (720, 1280)]
LANGS = ("zh", "en", "ru")


def _squash(text: str) -> str:
    return "".join(text.split())


def _in_scroll(w) -> bool:
    p, seen = w.parent, set()
    while p is not None and id(p) not in seen:  # the window is its own parent
        if isinstance(p, ScrollView):
            return True
        seen.add(id(p))
        p = p.parent
    return False


def label_problems(root, where: str) -> list[str]:
    """What is wrong with the text of the visible labels under ``root``."""
    out: list[str] = []
    for w in root.walk(restrict=True):
        if not isinstance(w, Label) or not str(w.text).strip() or w.opacity == 0:
            continue
        if w.width < 2 or w.height < 2:
            continue
        w.texture_update()
        tw, th = w.texture_size
        name = f"{where}: {type(w).__name__} {str(w.text)[:40]!r}"
        if not _in_scroll(w) and (tw > w.width + 1 or th > w.height + 1):
            out.append(f"{name} text {tw}x{th} > box {w.width:.0f}x{w.height:.0f}")
        laid = "".join(word.text for line in (w._label._cached_lines or [])
                       for word in line.words)
        shown = _squash(laid)
        if shown != _squash(str(w.text)) and not shown.endswith(ELLIPSIS):
            out.append(f"{name} cut to {laid[-20:]!r}")
        if isinstance(w, FitLabel) and w.is_cut() and not w.shown.endswith(ELLIPSIS):
            out.append(f"{name} shortened without an ellipsis")
    return out


def _unit(ui) -> float:
    return min(ui.window.size) / 480


def _screen_checks(ui, where: str) -> list[str]:
    """Lay the screen out (Kivy's layouts and labels run before a frame) without drawing."""
    from kivy.clock import Clock

    for _ in range(3):
        Clock.tick_draw()
    return label_problems(ui.app.root, where)


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_every_screen_and_table_fits_in_every_language(ui, monkeypatch):
    from kiosk.screens.hinting import TableHelp
    from kiosk.table.table_view import TableView

    # the words, not the cards: no card is drawn and no solver is asked while checking
    monkeypatch.setattr(TableView, "sync", lambda self, animate=True, on_top=(): None)
    monkeypatch.setattr(TableHelp, "changed", lambda self, what="": None)
    problems: list[str] = []
    for size in SIZES:
        for lang in LANGS:
            ui.reset(lang, size)
            tag = f"{lang} {size[0]}x{size[1]}"
            problems += _screen_checks(ui, f"welcome {tag}")
            ui.app.show_picker()
            problems += _screen_checks(ui, f"picker {tag}")
            for game_id in filter(table_can_play, games.ids()):
                ui.app.open_position(games.new(game_id, 1))
                problems += _screen_checks(ui, f"{game_id} {tag}")
                ui.app.table.show_rules()  # the title: the longest names are clipped first
                problems += _screen_checks(ui, f"{game_id} rules {tag}")
                ui.app.table.close_sheet()
    assert not problems, "\n".join(problems[:60]) + f"\n({len(problems)} in all)"


def test_table_bar_text_and_buttons_meet_the_floor(ui):
    """At 800x480 the status, the verdict and the buttons read at >= 18 px (13 px cap
    height) and every button is a 48 px target."""
    for lang in LANGS:
        ui.reset(lang, (800, 480))
        ui.app.open_game("golf", 1)
        ui.frames(2)
        t = ui.table
        u = _unit(ui)
        assert t.status.font_size >= READ_PX * u - 0.01, lang
        for key, b in t.buttons.items():
            if b.parent is None:
                continue
            assert b.font_size >= READ_PX * u - 0.01, (lang, key, b.font_size)
            assert b.height >= TOUCH_PX * u and b.width >= TOUCH_PX * u, (lang, key, b.size)
        sizes = {round(b.font_size, 1) for b in t.buttons.values() if b.parent is not None}
        assert len(sizes) == 1, f"{lang}: the bar's buttons differ in size: {sizes}"
