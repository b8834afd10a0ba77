#!/usr/bin/env python3
"""Regenerate docs/screenshots/gin-offer-*, gin-layoff-*, gin-knock-*, gin-levels-* (the
level sheet), trick-hand-* (a finished Follow the Rules hand explained) and the moments a
first-time visitor learns at (issue 34): gin-rules-* (the Rules sheet of a hand table),
gin-learn-draw-*, gin-learn-throw-*, gin-learn-knock-* (the first hand's tips, the melds'
bands, the deadwood line, Knock greyed then lit), trick-follow-* (the suit led marked, the
cards that may not follow dimmed) and poker-hold-* (the first hand's cards to keep), at
800x480 and 720x1280, in zh, en and ru.

Why a script apart from tools/screenshots.py: these moments lie inside a hand, so they are
reached by playing: a seeded deal for the upcard offer and the Follow the Rules hand, and
for the knocks the two hands the UI tests use (tests/ui/test_gin_offer_layoff.py) dealt into
a seeded game, then played through the table's own methods, the computer deciding for
itself, so the pictures show its real moves and words.

    python3 tools/hand_screenshots.py [--out docs/screenshots] [--size 800x480] [--lang en]

(``--size`` and ``--lang`` may be given more than once; without them, every size and
language.)
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kiosk.platform import boot  # noqa: E402
from tools.shot_app import frames, start_app, temporary_home  # noqa: E402
from tools.shot_app import shot as shot_to  # noqa: E402

LANGS = ("zh", "en", "ru")
SIZES = ((800, 480), (720, 1280))
#: the computer knocks with 1 (A♠), discarding the K♥; the visitor can lay off 7♥ and 8♥
KNOCKER = "4H 5H 6H TC TD TS 3C 3D 3S AS KH"
DEFENDER = "7H 8H 2C 2D 2S JC JD JS KC 9D"
#: a first hand's throw: three melds, A♠ and Q♠ in none (deadwood 11 after the best throw)
THROWING = "KH 3C TD 5H AS 3D TS QS 3S 6H TC"
#: ... and one throw from a knock (the K♥ goes, 1 left)
KNOCKING = "KH 3C TD 5H AS 3D TS 4H 3S 6H TC"
#: a deal where, after the visitor passes the upcard, the computer passes it too and the
#: visitor draws: the first hand's draw
LEARN_SEED = 3
WAIT_FRAMES = 3000


def cards(text: str) -> list[int]:
    from games.engine import cards as C

    return [C.parse(t) for t in text.split()]


def first_seed(cls, seat: int = 0) -> int:
    """The first deal in which ``seat`` (the visitor) is to move first."""
    return next(s for s in range(1, 200) if cls(s).to_move == seat)


def deal_hands(g, visitor: str, computer: str, turn: int) -> None:
    """Give the seeded Gin game these two hands, ``turn`` to discard, every other card in
    the stock (the upcard stays on the discard pile)."""
    h0, h1 = g.hands
    want = set(cards(visitor) + cards(computer))
    g.cards[h0], g.cards[h1] = cards(visitor), cards(computer)
    g.cards[g.waste] = [c for c in g.cards[g.waste] if c not in want]
    g.cards[g.stock] = [c for c in range(52) if c not in want and c not in g.cards[g.waste]]
    g.down[h0], g.down[h1], g.down[g.stock] = 0, len(g.cards[h1]), len(g.cards[g.stock])
    g.vars.update(turn=turn, phase="discard", taken=-1, passes=3)


def until(screen, done: Callable[[], bool], what: str) -> None:
    """Let the computer move (its pause cut to nothing) until ``done``; exit naming
    ``what`` if that never comes."""
    screen.turns.pause = 0
    try:
        for _ in range(WAIT_FRAMES):
            if done():
                frames()
                return
            frames(1)
            time.sleep(0.002)
        raise SystemExit(f"hand_screenshots: never reached {what}")
    finally:
        screen.turns.pause = 3600


def learning(app, shot: Callable[[str], None], tag: str) -> None:
    """The moments a first-time visitor learns at: a new visit each time, so the first
    hand's tips show."""
    from games.engine import cards as C
    from games.engine.model import Move
    from games.follow_the_rules import FollowTheRules
    from kiosk.table.trick_texts import computer_play_text

    gin, trick, poker = app.gin, app.trick_table, app.poker
    lang = app.lang
    app.go_welcome()
    app.set_language(lang)
    ctl = app.open_game("gin_rummy", LEARN_SEED)
    frames()
    gin.show_rules()
    frames()
    shot(f"gin-rules-{tag}.png")
    gin.close_rules()
    g = ctl.game
    gin.play(Move("pass"))
    until(gin, lambda: g.to_move == 0 and g.phase == "draw", "the first hand's draw")
    shot(f"gin-learn-draw-{tag}.png")
    deal_hands(g, THROWING, DEFENDER, turn=0)
    gin.refresh()
    frames()
    shot(f"gin-learn-throw-{tag}.png")
    deal_hands(g, KNOCKING, DEFENDER, turn=0)
    gin.refresh()
    frames()
    shot(f"gin-learn-knock-{tag}.png")
    ctl.leave("button")

    seed = next(s for s in range(1, 200) if FollowTheRules(s).to_move == 1)
    ctl = app.open_game("follow_the_rules", seed)
    frames(2)
    t = ctl.game
    lead = min(t.hand(1), key=lambda c: (C.SUIT[c] == t.trump, C.RANK[c]))
    ctl.play(Move("play", extra=(lead,)), "computer")
    trick.said = computer_play_text(lead, True, None)  # as the table says the computer's lead
    trick.refresh()
    frames()
    shot(f"trick-follow-{tag}.png")
    ctl.leave("button")

    ctl = app.open_game("draw_poker", 11, {"opponents": 3})
    frames(2)
    p = ctl.game
    for _ in range(60):
        if p.phase == "draw" and p.to_move == 0:
            break
        moves = p.legal_moves()
        if p.to_move == 0:
            pick = next((m for m in moves if m.kind in ("call", "check", "open")), None)
            poker.play(pick or moves[0])
        else:
            moves = len(p.history)
            until(poker, lambda m=moves: len(p.history) > m, "a computer player's action")
    if p.phase != "draw":
        raise SystemExit("hand_screenshots: the poker hand never reached the draw")
    frames()
    shot(f"poker-hold-{tag}.png")
    ctl.leave("button")
    app.go_welcome()
    app.set_language(lang)


def size(text: str) -> tuple[int, int]:
    """``WxH`` as one of :data:`SIZES` (the layouts the docs show)."""
    try:
        w, h = (int(x) for x in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not WIDTHxHEIGHT") from None
    if (w, h) not in SIZES:
        raise argparse.ArgumentTypeError(
            f"{text} is not one of " + ", ".join(f"{a}x{b}" for a, b in SIZES))
    return w, h


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    ap.add_argument("--size", type=size, action="append", help="800x480 or 720x1280")
    ap.add_argument("--lang", choices=LANGS, action="append")
    args = ap.parse_args(argv)
    sizes, langs = args.size or SIZES, args.lang or LANGS
    boot.configure(boot.Screen(*sizes[0], headless=True), quiet=True)

    from kivy.core.window import Window

    from games.engine import cards as C
    from games.engine.model import Move
    from games.follow_the_rules import FollowTheRules
    from games.gin_rummy import GinRummy

    home = temporary_home("kiosk-hand-shots-", after_log="[buttons]\nundo_pin = 27\n")
    app = start_app(home, services=True)
    gin, trick = app.gin, app.trick_table
    gin.turns.pause = trick.turns.pause = app.poker.turns.pause = 3600  # the script moves it
    gin_seed, trick_seed = first_seed(GinRummy), first_seed(FollowTheRules)

    def shot(name: str) -> None:
        shot_to(args.out / name)

    def gin_deal(visitor: str, computer: str, turn: int):
        ctl = app.open_game("gin_rummy", gin_seed)
        frames(2)
        deal_hands(ctl.game, visitor, computer, turn)
        gin.refresh()
        return ctl.game

    for w, h in sizes:
        Window.size = (w, h)
        frames(3)
        for lang in langs:
            app.set_language(lang)
            tag = f"{w}x{h}-{lang}"
            app.choose_game("gin_rummy")
            frames()
            if app.sm.current != "variants":
                raise SystemExit("hand_screenshots: Gin Rummy's level sheet is not offered")
            shot(f"gin-levels-{tag}.png")

            app.open_game("gin_rummy", gin_seed)  # the first upcard offered to the visitor
            frames()
            shot(f"gin-offer-{tag}.png")

            # the computer knocks; the visitor lays the 7♥ off and raises the 8♥
            g = gin_deal(DEFENDER, KNOCKER, turn=1)
            until(gin, lambda g=g: g.phase == "layoff" and g.to_move == 0,
                  "the computer's knock")
            gin.pick(C.parse("7H"))
            gin.pick_meld(C.parse("5H"))
            gin.pick(C.parse("8H"))
            if [c for c, _i in g.vars["laid"]] != [C.parse("7H")] or gin.raised != C.parse("8H"):
                raise SystemExit("hand_screenshots: the 7♥ was not laid off, the 8♥ not raised")
            frames()
            shot(f"gin-layoff-{tag}.png")

            # the visitor knocks; the computer lays off and the hand is scored
            g = gin_deal(KNOCKER, DEFENDER, turn=0)
            gin.play(Move("knock", extra=(C.parse("KH"),)))
            until(gin, lambda g=g: g.phase == "done", "the end of the visitor's knock")
            if g.vars["result"].knocker != 0:
                raise SystemExit("hand_screenshots: the visitor's knock was not scored")
            shot(f"gin-knock-{tag}.png")

            learning(app, shot, tag)

            # a whole Follow the Rules hand: the visitor plays its first playable card
            ctl = app.open_game("follow_the_rules", trick_seed)
            frames(2)
            t = ctl.game
            while t.phase not in ("done", "match"):
                if t.to_move == 0:
                    trick.play(t.legal_moves()[0])
                else:
                    moves = len(t.history)
                    until(trick, lambda t=t, m=moves: len(t.history) > m or t.phase == "done",
                          "the computer's card")
            frames()
            shot(f"trick-hand-{tag}.png")
            ctl.leave("button")
    app.lobby.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
