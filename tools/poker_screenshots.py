#!/usr/bin/env python3
"""Regenerate docs/screenshots/poker-*: the choice of opponents, the Draw Poker table at its
four moments (the start, a bet to answer, the draw with cards marked, the showdown), the
end screen and a full table of seven computer players (its start and showdown), at 800x480
and 720x1280, in zh, en and ru.

Why a script apart from tools/screenshots.py: the moments come from playing one seeded
deal (four opponents, deal 1) through the table's own methods, as a visitor would, so the
pictures show real computer actions and their words.

    python3 tools/poker_screenshots.py [--out docs/screenshots]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kiosk.platform import boot  # noqa: E402
from tools.shot_app import frames, start_app, temporary_home  # noqa: E402
from tools.shot_app import shot as shot_to  # noqa: E402

LANGS = ("zh", "en", "ru")
SIZES = ((800, 480), (720, 1280))
SEED, OPPONENTS = 1, 4


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    args = ap.parse_args()
    boot.configure(boot.Screen(*SIZES[0], headless=True), quiet=True)

    from kivy.core.window import Window

    from games.engine import cards as C
    from games.engine.model import Move

    home = temporary_home("kiosk-poker-shots-", after_log="[buttons]\nundo_pin = 27\n")
    app = start_app(home, services=True)
    screen = app.poker
    screen.turns.pause = 3600  # the script plays the computer's moves itself

    def shot(name: str) -> None:
        shot_to(args.out / name)

    def computer_until_visitor(g) -> None:
        while g.computer_to_move:
            seat, before = g.to_move, g.vars["contrib"][g.to_move]
            move = g.computer_move()
            app.controller.play(move, "computer")
            screen._after(seat, move, before)

    def visitor(g) -> Move:
        kinds = {m.kind for m in g.legal_moves()}
        if g.phase == "open":
            return Move("open" if "open" in kinds else "pass")
        return Move("call" if "call" in kinds else "check")

    for w, h in SIZES:
        Window.size = (w, h)
        frames(3)
        for lang in LANGS:
            app.set_language(lang)
            app.choose_game("draw_poker")
            frames()
            shot(f"poker-opponents-{w}x{h}-{lang}.png")
            app.open_game("draw_poker", SEED, {"opponents": OPPONENTS})
            g = app.controller.game
            tag = f"{w}x{h}-{lang}"
            computer_until_visitor(g)
            frames()
            shot(f"poker-start-{tag}.png")
            screen.play(visitor(g))
            computer_until_visitor(g)
            frames()
            shot(f"poker-betting-{tag}.png")
            while g.phase != "draw":
                screen.play(visitor(g))
                computer_until_visitor(g)
            hand = g.hand(0)
            for code in [c for c in hand if [C.RANK[x] for x in hand].count(C.RANK[c]) < 2][:3]:
                screen.pick(code)
            frames()
            shot(f"poker-draw-{tag}.png")
            while g.phase not in ("done", "over"):
                screen.play(None if g.phase == "draw" else visitor(g))
                computer_until_visitor(g)
            frames()
            shot(f"poker-showdown-{tag}.png")
            g.vars.update(chips=(0, *g.vars["chips"][1:]), phase="over")
            screen.refresh()
            frames()
            shot(f"poker-end-{tag}.png")
            # a full table: seven computer players, their cards shown at the showdown
            app.open_game("draw_poker", SEED, {"opponents": 7})
            g = app.controller.game
            computer_until_visitor(g)
            frames()
            shot(f"poker-seven-{tag}.png")
            while g.phase not in ("done", "over"):
                screen.play(Move("stand") if g.phase == "draw" else visitor(g))
                computer_until_visitor(g)
            frames()
            shot(f"poker-seven-showdown-{tag}.png")
    app.lobby.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
