"""No label's text is bigger than its box and none is cut without an ellipsis: every screen
and every game's table, in zh, en and ru, at 800x480 and 720x1280.

One app, the language and the window size switched in-process; a screen is checked from
its widgets' sizes (Kivy knows the box and the laid-out text), without drawing frames for
pictures. Cut text is found by comparing the words Kivy laid out with the label's text; a
word split over two lines ("Подска / зка") by a line end where Unicode's line breaking
allows none, and by a FitLabel whose drawn lines or size are not the ones it chose.
"""

from __future__ import annotations

import pytest
from kivy.uix.label import Label
from kivy.uix.scrollview import ScrollView

import games
from kiosk.screens.line_break import break_units
from kiosk.screens.text_fit import ELLIPSIS, READ_PX, TOUCH_PX, FitLabel
from kiosk.screens.widgets import KButton
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
        lines = _laid_lines(w)
        laid = "".join(lines)
        shown = _squash(laid)
        shortened = ELLIPSIS in shown and ELLIPSIS not in str(w.text)
        if shown != _squash(str(w.text)) and not shortened:
            out.append(f"{name} cut to {laid[-20:]!r}")
        if not shortened and (split := _split_word(lines, str(w.text))):
            out.append(f"{name} split inside a word: {split!r}")
        drawn = w._label.options["font_size"]
        if abs(drawn - w.font_size) > 0.01:
            out.append(f"{name} drawn at {drawn:.1f} px, not its {w.font_size:.1f} px")
        if isinstance(w, FitLabel):
            if w.is_cut() and ELLIPSIS not in w.shown:
                out.append(f"{name} shortened without an ellipsis")
            chosen = [ln.strip() for ln in w.shown.split("\n") if ln.strip()]
            if [ln.strip() for ln in lines if ln.strip()] != chosen:
                out.append(f"{name} laid out as {lines!r}, not its {chosen!r}")
    return out


def _laid_lines(w) -> list[str]:
    """The lines of text Kivy laid out for label ``w`` (what is drawn)."""
    return ["".join(word.text for word in line.words)
            for line in (w._label._cached_lines or [])]


def _split_word(lines: list[str], text: str) -> str:
    """The first line end of ``lines`` where ``text`` has no line break opportunity
    (UAX #14), as "end / start"; "" when every line ends where a line may end."""
    allowed, pos = set(), 0
    for paragraph in text.split("\n"):
        for unit in break_units(paragraph):
            pos += len(_squash(unit))
            allowed.add(pos)
    at = 0
    for before, after in zip(lines, lines[1:], strict=False):
        at += len(_squash(before))
        if at not in allowed and _squash(before) and _squash(after):
            return f"{before.strip()} / {after.strip()}"
    return ""


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


def test_portrait_russian_bar_keeps_its_words_whole(ui):
    """The portrait table after a change of language: "Подсказка" was drawn at the size it
    was given before it shrank (30 px, not 22.5) and Kivy split it over two lines."""
    for lang in ("en", "ru"):
        ui.reset(lang, (720, 1280))
        ui.app.open_game("klondike", 4711)
        ui.frames(3)
    problems = label_problems(ui.table.bar, "ru 720x1280 bar")
    assert not problems, "\n".join(problems)


def test_a_shrunk_label_draws_the_size_it_chose(ui):
    """A FitLabel given a size at which its word does not fit draws it smaller, whole."""
    b = KButton(text="Подсказка", size_hint=(None, None), size=(116, 200))
    b.font_size = 22.5
    b.font_size = 30
    b.texture_update()
    assert b.font_size < 30
    assert b._label.options["font_size"] == b.font_size
    assert not label_problems(b, "button"), label_problems(b, "button")


def test_a_word_too_wide_even_shrunk_ends_in_an_ellipsis(ui):
    """Below the smallest size a word is shortened with "…", never split in two."""
    from kiosk.screens.text_fit import fit, text_width

    font = KButton().font_name
    word = "Достопримечательность"
    width = text_width(word, 18 * 0.8, font) * 0.6
    text, px = fit(word, 24, 18, width, 200, font)
    assert "\n" not in text and text.endswith(ELLIPSIS), text
    assert word.startswith(text[:-1]) and text_width(text, px, font) <= width
    grown, _px = fit("Наша " + word, 24, 18, width, None, font)
    assert grown.split("\n")[-1].endswith(ELLIPSIS), grown


def status_problems(ui, where: str) -> list[str]:
    """The bar's status and verdict lines whole: a part that does not fit is left out, never
    cut ("On…" was drawn for "On foundations: 0" beside "No win possible — Undo?")."""
    t = ui.app.table
    return [f"{where}: {lab.text!r} drawn as {lab.shown!r}" for lab in (t.status, t.help.verdict)
            if lab.opacity > 0 and lab.parent is not None and lab.is_cut()]


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_the_status_lines_fit_in_every_state(ui, monkeypatch):
    """Every game's bar with each of its lines' states (the live verdict won and lost, a
    hint's line over the table, the "No way to win" message, the end sheets), in zh, en and
    ru at both sizes: no text larger than its box, none cut, the status whole."""
    from .screen_walk import _end_sheets, _status_lines, quiet_tables, settle

    quiet_tables(monkeypatch)
    problems: list[str] = []
    for size in SIZES:
        for lang in LANGS:
            ui.reset(lang, size)
            tag = f"{lang} {size[0]}x{size[1]}"
            for game_id in filter(table_can_play, games.ids()):
                ui.app.open_position(games.new(game_id, 1))
                settle()
                if ui.app.sm.current_screen is not ui.app.table:
                    continue
                for _key, where, root in _status_lines(ui, ui.app.table, game_id, tag):
                    problems += label_problems(root, where) + status_problems(ui, where)
                    problems += label_problems(ui.app.table.toast, where)
            for _key, where, root in _end_sheets(ui, tag):
                problems += label_problems(root, where)
    assert not problems, "\n".join(problems[:60]) + f"\n({len(problems)} in all)"


def test_a_crowded_bar_leaves_status_parts_out_whole(ui):
    """Klondike at 800x480 with "No win possible from here — Undo?" in the bar: the status
    drew "On…"; now the parts that matter least leave first (the deal's number, the time)
    and the score stays whole, every bar button with a 48 px face."""
    from kiosk.solving.hints import LOST

    from .touch_targets import face

    for lang in LANGS:
        ui.reset(lang, (800, 480))
        ui.app.open_game("klondike", 4711)
        t = ui.table
        t.help.state.shown = LOST
        t.help._paint_verdict()
        ui.frames(3)
        assert not status_problems(ui, lang), status_problems(ui, lang)
        score = t.score_text(t.ctl.game.score)
        shown = " ".join(t.status.shown.split())  # a part may take two lines
        assert t.status.opacity == 1 and " ".join(score.split()) in shown, (lang, shown)
        for b in t.bar.children:
            if b in t.buttons.values():
                assert min(face(b)) >= 48 - 0.5, (lang, b.text, face(b))
