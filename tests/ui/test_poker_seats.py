"""The Draw Poker seats read for everyone: every seat text at the reading floor and at
4.5:1 on the seat's own fill in every state (the winner's chips were gold on gold, 2.0:1,
its name and hand 3.3-3.5:1, the chips of the seat to move 2.55:1, the text about 16 px),
the computer players' cards large enough to read with seven at the table at 800x480 (each
card showed a 14 px sliver), and the visitor's hand named whole ("Your hand: One / pair")."""

from __future__ import annotations

import pytest
from kivy.core.window import Window

from games.engine.model import Move
from kiosk.screens.text_fit import text_width
from kiosk.table.poker_words import HAND_NAMES, render

from .contrast import contrast_problems
from .floors import text_floor_problems
from .test_text_fit import LANGS, SIZES, label_problems

STATES = ("idle", "turn", "out", "won")
#: the words a seat can show (with the largest amounts a visit reaches)
TAGS = [("opens {amount}", {"amount": 1000}), ("passes", {}), ("checks", {}),
        ("bets {amount}", {"amount": 1000}), ("calls {amount}", {"amount": 1000}),
        ("raises to {amount}", {"amount": 1000}), ("folds", {}), ("stands pat", {}),
        ("draws {count}", {"count": 3}), ("dealer", {}), ("out of chips", {})]


@pytest.fixture
def poker(ui):
    screen = ui.app.poker
    old = screen.turns.pause
    screen.turns.pause = 3600  # the test plays the computer's moves itself
    yield ui
    screen.turns.pause = old


def sit(ui, opponents: int):
    app = ui.app
    app.open_game("draw_poker", 1, {"opponents": opponents})
    ui.frames(2)
    return app.poker, app.controller.game


def to_the_showdown(ui, screen, g) -> None:
    """Everyone calls and stands pat until the hand is shown down."""
    app = ui.app
    for _ in range(200):
        if g.phase in ("done", "over"):
            break
        if g.computer_to_move:
            seat, before = g.to_move, g.vars["contrib"][g.to_move]
            move = g.computer_move()
            app.controller.play(move, "computer")
            screen._after(seat, move, before)
            continue
        kinds = {m.kind for m in g.legal_moves()}
        if g.phase == "open":
            screen.play(Move("open" if "open" in kinds else "pass"))
        elif g.phase == "draw":
            screen.play(Move("stand"))
        else:
            screen.play(Move("call" if "call" in kinds else "check"))
    ui.frames(2)


def longest(texts: list[str], font: str) -> str:
    return max(texts, key=lambda t: text_width(t, 20, font))


@pytest.mark.parametrize("size", SIZES)
def test_every_seat_text_reads_in_every_state(poker, size):
    problems: list[str] = []
    for lang in LANGS:
        poker.reset(lang, size)
        app = poker.app
        tr, trn = app.tr, app.trn
        for n in (1, 4, 5, 7):
            screen, g = sit(poker, n)
            font = screen.seats[0].words.font_name
            words = longest([render(t, tr, trn) for t in TAGS] + [tr(h) for h in HAND_NAMES],
                            font)
            chips = trn("{n} chip", "{n} chips", 8000)
            for state in STATES:
                for k, seat in enumerate(screen.seats, 1):
                    seat.show(tr("Player {n}", n=k), chips, words, g.hand(k),
                              state == "won", state)
                poker.frames(1)
                where = f"{n} opponents, {state}, {lang} {size}"
                for k, seat in enumerate(screen.seats, 1):
                    problems += contrast_problems(seat, f"seat {k} {where}")
                    problems += text_floor_problems(seat, f"seat {k} {where}")
                    problems += label_problems(seat, f"seat {k} {where}")
                    problems += [f"seat {k} {where}: {lab.text!r} cut to {getattr(lab, 'shown', '')!r}"
                                 for lab in (seat.name, seat.chips, seat.words)
                                 if lab.opacity and getattr(lab, "is_cut", bool)()]
    assert not problems, "\n".join(problems[:40]) + f"\n({len(problems)} in all)"


@pytest.mark.parametrize("size", SIZES)
def test_seven_players_cards_can_be_read(poker, size):
    """At the showdown every hand turned up shows each card's corner and half its face or
    more, the cards at least a tenth of the screen's short side tall; while the hands are
    played the backs show the same way or not at all."""
    poker.resize(*size)
    screen, g = sit(poker, 7)
    u = min(Window.size) / 480
    for moment in ("dealt", "showdown"):
        if moment == "showdown":
            to_the_showdown(poker, screen, g)
            assert g.phase == "done"
        shown = 0
        for k, seat in enumerate(screen.seats, 1):
            fan = seat.fan
            if not fan.codes or fan.opacity < 0.05 or seat.opacity < 0.05:
                continue
            shown += 1
            w, h = fan.card_size()
            assert h >= 48 * u - 0.5, (moment, k, size, h)
            assert fan.step() >= 0.5 * w - 0.5, (moment, k, size, fan.step(), w)
            lo, hi = fan.to_window(*fan.pos), fan.to_window(fan.right, fan.top)
            assert seat.collide_point(*seat.to_parent(*fan.pos)) or lo[1] >= 0, (k, lo, hi)
        if moment == "showdown":
            assert shown >= len(g.vars["result"]["shown"]) - 1  # the visitor's is below


@pytest.mark.parametrize("size", SIZES)
def test_the_hand_is_named_whole(poker, size):
    """"Your hand: One pair" is one line where it fits, else the hand's name whole on the
    line under "Your hand:" (it was drawn "Your hand: One / pair")."""
    problems = []
    for lang in LANGS:
        poker.reset(lang, size)
        for n in (2, 7):
            screen, _g = sit(poker, n)
            label = screen.my_hand
            for msgid in HAND_NAMES:
                name = poker.app.tr(msgid)
                label.text = screen._hand_text(name)
                poker.frames(1)
                lines = [ln.strip() for ln in label.shown.split("\n")]
                if label.is_cut() or not any(name in ln for ln in lines):
                    problems.append(f"{lang} {size} {n}: {name!r} drawn as {lines!r}")
    assert not problems, "\n".join(problems)
