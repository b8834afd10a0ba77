"""Child process of test_crash_restart.py: ``kiosk run`` as it starts on the Pi (the same
``make_app``: configuration, play log, buttons), plus a finger that taps the stock every
0.3 s and prints ``MOVES <n> <play id>`` once each move is in the play log.

    python tests/ui/kiosk_child.py --config cfg.toml --game klondike --seed 4711 ...
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))


def main() -> None:
    from kiosk.commands import app as app_cmd
    from kiosk.commands.cli import build_parser

    args = build_parser().parse_args(["run", *sys.argv[1:]])

    def ready(app) -> None:
        from kivy.clock import Clock
        from kivy.tests.common import UnitTestTouch

        def tap(_dt) -> None:
            ctl, view = app.controller, app.table.view
            g = ctl.game
            stock = g.index["S"]
            rects = view.geometry().card_rects(stock, len(g.cards[stock]), g.down[stock])
            r = rects[-1] if rects else view.geometry().base(stock)
            touch = UnitTestTouch(r.x + r.w / 2, r.y + r.h / 2)
            touch.touch_down()
            touch.touch_up()
            play = app.lobby.session.play
            print(f"MOVES {ctl.moves} {play.id if play else None}", flush=True)

        Clock.schedule_interval(tap, 0.3)

    app = app_cmd.make_app(args, on_ready=ready)
    app.run()


if __name__ == "__main__":
    main()
