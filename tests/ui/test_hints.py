"""The table's Hint button and live "still winnable" line, in the running app.

The solver runs in the app's worker process; the tests wait for its answers with generous
loops (never assertions on speed) and check what the table shows against the engine: the
hinted move is legal and a win follows from it, the play log counts the hint, a lost
position offers an Undo that undoes, and the live line follows the moves.
"""

from __future__ import annotations

import pytest

import games
from games import solver
from kiosk.solving import deals
from kiosk.solving.hints import WON
from tests.conftest import arrange
from tests.ui.logged_rows import db_rows

WAIT = 90.0
#: a Klondike end game with choices left: the jack, queen and king of spades to play
ENDGAME = {**{f"F{i + 1}": " ".join(f"{r}{s}" for r in "A23456789TJQK")
              for i, s in enumerate("CDH")},
           "F4": " ".join(f"{r}S" for r in "A23456789T"), "T1": "KS", "T2": "QS",
           "T3": "JS"}
#: a Klondike end game with eleven legal moves (one card face down)
MIDGAME = {**{f"F{i + 1}": " ".join(f"{r}{s}" for r in "A23456789") for i, s in enumerate("CDHS")},
           "T1": "KH QC", "T2": "KS QH JS", "T3": "KD JH", "T4": "KC QS JD TC", "T5": "JC TS",
           "S": "TH QD TD"}
#: no aces anywhere: lost from the start, yet the stock still deals (not "no more moves")
HOPELESS = {"T1": "2H", "T2": "5C", "T3": "KD", "T4": "4C", "T5": "7S", "T6": "9H",
            "T7": "JC", "W": "QC", "S": "8D 3S 6H"}


def hints_logged(app) -> int:
    return db_rows(app, "SELECT COALESCE(SUM(hints), 0) FROM plays")[0][0]


def sit_at(ui, piles: dict[str, str], down: dict[str, int] | None = None):
    ctl = ui.app.open_game("klondike", 4711)
    ctl.set_game(arrange(ctl.game, piles, down=down))
    ui.frames(3)
    return ctl


def tap_hint(ui):
    ui.tap_widget(ui.table.buttons["hint"])


def wins_after(game: games.Game, move: games.Move) -> bool:
    g = game.clone()
    g.play(move)
    return solver.solve(g, max_nodes=2_000_000).result == WON


def test_hint_shows_a_legal_move_that_still_wins_and_is_counted(ui):
    ctl = sit_at(ui, MIDGAME, down={"T5": 1})
    help_ = ui.table.help
    before = hints_logged(ui.app)
    tap_hint(ui)
    view = ui.table.view
    assert ui.until(lambda: view.hint_move is not None, WAIT)
    move = view.hint_move
    assert ctl.game.why_illegal(move) is None
    assert wins_after(ctl.game, move)
    assert view.hint_source == move.src and view.hint_target == move.dst
    assert ui.table.help.button.text == "Hint"            # the dots are gone
    assert ui.app.lobby.session.play.row["hints"] == 1    # written with the next move
    assert ui.table.help.shown == WON                      # the live line learnt it too
    # the hint does not play the move ...
    assert not ctl.game.history
    # ... and when the visitor plays it, the next hint comes from the same line at once
    ctl.play(move, "tap")
    ui.frames(2)
    assert view.hint_move is None                          # the old hint is gone
    tap_hint(ui)
    assert help_._hint_req is None and view.hint_move is not None
    assert ctl.game.why_illegal(view.hint_move) is None
    assert wins_after(ctl.game, view.hint_move)
    ui.tap_widget(ui.table.buttons["home"])                # the play ends: all is written
    assert hints_logged(ui.app) == before + 2


def test_a_deal_of_the_winnable_list_is_hinted_from_its_stored_line(ui):
    deal_list = deals.load("golf")
    if deal_list is None or not deal_list.deals:
        return
    deal = deal_list.deals[0]
    ctl = ui.app.open_game("golf", deal["seed"])
    ui.frames(3)
    tap_hint(ui)
    line = deals.deal_line(deal_list, deal)
    assert ui.table.help._hint_req is None                 # no search needed
    assert ctl.game.notation(ui.table.view.hint_move) == line[0]
    assert ui.table.help.shown == WON                      # known before any check


def test_a_lost_position_says_so_and_its_undo_undoes(ui):
    ctl = sit_at(ui, HOPELESS)
    ui.tap(*ui.card_center("S"))                           # one deal: still lost
    assert len(ctl.game.history) == 1 and not ctl.game.over
    before = hints_logged(ui.app)
    tap_hint(ui)
    assert ui.until(lambda: ui.table._sheet_kind == "nowin", WAIT)
    panel = "\n".join(str(w.text) for w in ui.table.sheet.walk() if hasattr(w, "text"))
    assert "No way to win from here" in panel
    assert ui.table.view.hint_move is None                 # never a wrong hint
    ui.tap_widget(ui.table.help.undo_button)
    ui.frames(2)
    assert ui.table.sheet is None and not ctl.game.history
    ui.tap_widget(ui.table.buttons["home"])
    assert hints_logged(ui.app) == before + 1              # the message counts as a hint


def test_undo_goes_back_to_the_last_position_known_to_be_winnable(ui):
    ctl = sit_at(ui, HOPELESS)
    help_ = ui.table.help
    start = ctl.game.key()
    ui.tap(*ui.card_center("S"))
    ui.tap(*ui.card_center("S"))
    assert len(ctl.game.history) == 2
    help_.book.add_line([start], [])                      # pretend the start was winnable
    assert help_.winnable_undos() == 2
    help_.no_win()
    ui.frames(2)
    assert help_.undo_button.text == "Undo 2 moves"
    ui.tap_widget(help_.undo_button)
    ui.frames(2)
    assert not ctl.game.history and ctl.game.key() == start


def test_the_live_line_follows_the_moves_and_stops_off_the_table(ui):
    ctl = sit_at(ui, ENDGAME)
    help_ = ui.table.help
    ui.tap(*ui.card_center("T3"))                          # the jack home
    assert len(ctl.game.history) == 1
    assert ui.until(lambda: help_.verdict.text == "✓ Still winnable", WAIT)
    # a lost position: the line says so, and a tap on it undoes
    ctl = sit_at(ui, HOPELESS)
    ui.tap(*ui.card_center("S"))
    assert ui.until(lambda: help_.shown == "lost", WAIT)
    assert help_.verdict.text == ui.app.tr("No win possible from here — Undo?")
    assert "Undo" in help_.verdict.text
    ui.tap_widget(help_.verdict)
    ui.frames(2)
    assert not ctl.game.history
    # leaving the table stops the checking
    ui.tap(*ui.card_center("S"))
    ui.tap_widget(ui.table.buttons["home"])
    ui.frames(2)
    assert help_._check_ev is None and help_._check_req is None
    assert help_.worker is None or not help_.worker.busy
    ui.wait(ui.app.cfg.table.check_delay + 0.3)
    assert help_._check_req is None


def test_hint_button_fits_in_every_language_and_size(ui):
    from kivy.core.text import Label as CoreLabel

    for size in ((800, 480), (720, 1280)):
        for lang in ("zh", "en", "ru"):
            ui.reset(lang, size)
            sit_at(ui, ENDGAME)
            ui.frames(3)
            for key, b in ui.table.buttons.items():
                assert b.parent is not None, key
                assert b.height >= 40 * min(size) / 480, (key, size)
                for word in str(b.text).split():
                    core = CoreLabel(text=word, font_size=b.font_size)
                    core.refresh()
                    assert core.texture.size[0] <= b.width - 12, (lang, size, key, word)
            verdict = ui.table.help.verdict
            for shown in ("won", "lost"):
                ui.table.help._show_verdict(shown)
                verdict.texture_update()
                assert verdict.text and verdict.texture_size[1] <= verdict.height, (lang, size)
            ui.table.help._show_verdict("")
    ui.reset()


def test_moves_of_other_kinds_light_their_piles(ui):
    """A pairing game's "remove" lights both cards; a deal lights the stock."""
    ctl = ui.app.open_game("pyramid", 3)
    ui.frames(3)
    view = ui.table.view
    remove = next((m for m in ctl.legal_moves() if m.kind != "move" and m.src >= 0), None)
    if remove is not None:
        view.show_hint(remove)
        lit = {p for p in (view.hint_source, view.hint_target) if p >= 0}
        assert lit and lit <= {remove.src, remove.dst, *remove.extra}
    ctl = ui.app.open_game("golf", 3)
    ui.frames(3)
    deal = next(m for m in ctl.legal_moves() if m.kind == "deal")
    view.show_hint(deal)
    assert view.hint_move == deal
    assert view.hint_source in ctl.game.roles["stock"] or view.hint_source == deal.src
    ctl.play(deal, "tap")
    ui.frames(2)
    assert view.hint_move is None                          # gone with the next change


def test_a_worker_that_dies_while_thinking_gives_no_hint_not_an_error(ui):
    ui.app.open_game("napoleons_tomb", 1)            # far beyond a hint's budget
    ui.frames(3)
    help_ = ui.table.help
    tap_hint(ui)
    assert help_._hint_req is not None and help_.button.text.startswith("•")
    assert help_.worker.alive
    help_.worker._proc.kill()                              # the worker dies mid-search
    assert ui.until(lambda: help_._hint_req is None, WAIT)
    assert ui.table.toast.text == "No hint found" and ui.table.view.hint_move is None
    assert help_.button.text == "Hint"
    # the next hint starts a new worker
    sit_at(ui, ENDGAME)
    tap_hint(ui)
    assert ui.until(lambda: ui.table.view.hint_move is not None, WAIT)
    assert help_.worker.alive and help_.worker.restarts >= 1


def test_no_win_found_in_time_shows_a_suggested_move_said_as_a_suggestion(ui, monkeypatch):
    """A position far beyond the budget: the Hint button still shows a legal move, the one
    the search rates best, and the table says it is a suggestion, not a sure win."""
    monkeypatch.setattr(ui.app.cfg.table, "hint_seconds", 0.2)
    ctl = ui.app.open_game("napoleons_tomb", 1)
    ui.frames(3)
    help_ = ui.table.help
    before = hints_logged(ui.app)
    tap_hint(ui)
    view = ui.table.view
    assert ui.until(lambda: help_._hint_req is None, WAIT)
    move = view.hint_move
    assert move is not None and ctl.game.why_illegal(move) is None
    assert ui.table.toast.text == "Maybe try this move. No sure win was found in time."
    assert help_.book.verdict(ctl.game.key()) is None     # not remembered as a win
    assert help_.shown == ""                              # nor shown as "Still winnable"
    ui.tap_widget(ui.table.buttons["home"])
    assert hints_logged(ui.app) == before + 1


def test_the_worker_runs_only_between_its_first_use_and_its_idle_time(ui, monkeypatch):
    """No solver process while nobody asks (a table sat at, attract mode, the welcome
    screen): it starts with the first hint and ends once unused for its idle time (0.5 s
    here instead of minutes), and a hint after that still comes (a new worker)."""
    monkeypatch.setattr(ui.app.cfg.table, "winnable_check", False)
    help_ = ui.table.help
    if getattr(help_, "_retire_ev", None) is not None:   # an earlier test's use
        help_._retire_ev.cancel()
        help_._retire_ev = None
    worker = help_._worker()
    worker.stop()
    idle, worker.idle_stop = getattr(worker, "idle_stop", None), 0.5
    failures = worker.restarts
    sit_at(ui, ENDGAME)
    ui.wait(ui.app.cfg.table.check_delay + 0.5)
    assert not worker.alive                                 # sat down, asked nothing yet
    tap_hint(ui)
    assert worker.alive
    assert ui.until(lambda: ui.table.view.hint_move is not None, WAIT)
    assert ui.until(lambda: not worker.alive, 30)            # unused: ended
    ctl = sit_at(ui, MIDGAME)
    tap_hint(ui)                                            # and the next hint still comes
    assert ui.until(lambda: ui.table.view.hint_move is not None, WAIT)
    assert ctl.game.why_illegal(ui.table.view.hint_move) is None
    assert worker.restarts == failures                       # an idle end is no failure
    worker.idle_stop = idle


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
def test_the_no_win_sheet_lets_home_through(ui, size):
    """An open "No way to win" message lies low on the table and leaves the bar in use:
    Home goes to the picker (it took every touch, Home's included, until Close), while a
    tap on the dimmed cards still does nothing."""
    ui.resize(*size)
    ctl = sit_at(ui, HOPELESS)
    ui.table.help.no_win(count=False)
    ui.frames(2)
    assert ui.table._sheet_kind == "nowin"
    moves = len(ctl.game.history)
    ui.tap(*ui.card_center("S"))                           # the stock, under the dim
    assert len(ctl.game.history) == moves and ui.table._sheet_kind == "nowin"
    ui.tap_widget(ui.table.buttons["home"])
    assert ui.app.sm.current == "picker"
