"""Child process of test_config_starts.py: ``kiosk run`` as it starts on the Pi (the same
argument parser and ``make_app``: configuration, overrides, Kivy settings, window, play log,
buttons), headless. Once the app is up it opens the first enabled game (``--game`` opens
one itself), lets a few frames draw, prints one ``STARTED`` line with what it ended up
with, and stops the app with the app's own exit status.

    python tests/lobby/start_child.py --config cfg.toml --windowed [--game klondike]

With ``--kivy-settings-only`` it stops before the window: it prints the settings Kivy's
window would be made from, as Kivy itself parses them, one ``SETTINGS`` line per file.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))


def settings_only(paths: list[str]) -> None:
    """For each configuration: the start path up to the window, then Kivy's own parse."""
    from kiosk.commands import app as app_cmd
    from kiosk.commands.cli import build_parser
    from kiosk.platform import boot

    for path in paths:
        args = build_parser().parse_args(["run", "--config", path, "--windowed"])
        cfg, _data_dir, _notes = app_cmd.load_config(args)
        screen = boot.decide_screen(None, False, False, rotation=cfg.rotation)
        boot.configure(screen, quiet=True)
        from kivy.config import Config

        got = {"rotation": Config.getint("graphics", "rotation"),
               "width": Config.getint("graphics", "width"),
               "height": Config.getint("graphics", "height"),
               "resizable": Config.getboolean("graphics", "resizable"),
               "show_cursor": Config.getint("graphics", "show_cursor"),
               "multisamples": Config.getint("graphics", "multisamples"),
               "fullscreen": Config.get("graphics", "fullscreen")}
        print("SETTINGS", path, json.dumps(got), flush=True)


def main() -> int:
    if sys.argv[1:2] == ["--kivy-settings-only"]:
        settings_only(sys.argv[2:])
        return 0
    from kiosk.commands import app as app_cmd
    from kiosk.commands.cli import build_parser

    args = build_parser().parse_args(["run", *sys.argv[1:]])

    def ready(app) -> None:
        from kivy.clock import Clock
        from kivy.core.window import Window

        if app.controller is None:
            app.open_game(app.game_ids()[0])

        def report(_dt) -> None:
            game = app.controller.game
            print("STARTED", json.dumps({
                "rotation": Window.rotation, "lang": app.lang, "game": game.info.id,
                "seed": game.seed, "options": game.opts, "errors": len(app.keeper.errors),
                "problems": app.config_problems()}), flush=True)
            app.stop()

        Clock.schedule_once(report, 0.5)

    app = app_cmd.make_app(args, on_ready=ready)
    app.run()
    return app.exit_code


if __name__ == "__main__":
    sys.exit(main())
