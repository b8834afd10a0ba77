"""Child process of test_deck_config.py: ``kiosk run`` as it starts on the Pi (the same
``make_app``, reading the configuration file), sat down at Gin Rummy; once the table is up
it opens Follow the Rules and Draw Poker too, and prints one JSON line: for each table, the
deck of every card widget on it (``four_colour``), then ends.

    python tests/ui/deck_child.py --config cfg.toml --game gin_rummy --size 800x480 ...
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))


def main() -> None:
    from kiosk.commands import app as app_cmd
    from kiosk.commands.cli import build_parser

    args = build_parser().parse_args(["run", *sys.argv[1:]])

    def ready(app) -> None:
        from kivy.clock import Clock

        from kiosk.table.card_art import CardWidget
        from kiosk.table.hand_fan import HandFan

        def decks(screen) -> list[bool]:
            return sorted({bool(w.four_colour) for w in screen.walk(restrict=True)
                           if isinstance(w, CardWidget | HandFan)})

        def report(_dt) -> None:
            out = {"app": bool(app.four_colour), "gin": decks(app.gin)}
            app.open_game("follow_the_rules", 3)
            out["trick"] = decks(app.trick_table)
            app.open_game("draw_poker", 3, {"opponents": 7})
            out["poker"] = decks(app.poker)
            out["poker_fans"] = sum(isinstance(w, HandFan) for w in app.poker.walk())
            print("DECKS " + json.dumps(out), flush=True)
            app.stop()

        Clock.schedule_once(report, 0.5)

    app = app_cmd.make_app(args, on_ready=ready)
    app.run()


if __name__ == "__main__":
    main()
