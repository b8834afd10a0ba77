"""Child process of test_lazy_start.py: the kiosk started headless as ``kiosk run`` starts it,
with what it has imported and read noted at its first frame, once the picker is built, and
after a game is opened. Prints one JSON line.

``services DIR``: as ``kiosk run`` with its play log in DIR (gpiozero's mock pins): at the
first frame a visitor switches the language and sits down at once, before the frames in
which the log is opened and the other catalogs are read; the play must be logged.

A fresh process, because the question is what a start loads: the test session has imported
everything already.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

# the repository instead of tests/, whose platform/ package would hide the standard
# library's platform (sqlite-utils imports it when the play log opens)
sys.path[0] = str(Path(__file__).resolve().parents[1])


def ours() -> list[str]:
    return sorted(m for m in sys.modules if m.split(".")[0] in ("games", "kiosk"))


#: libraries the first frame does without: the play log's, the line breaker's
LATER = ("sqlite3", "sqlite_utils", "uniseg")


def later_loaded() -> list[str]:
    return sorted(m for m in sys.modules if m.split(".")[0] in LATER)


def log_opened(app) -> bool:
    """Whether the lobby's play log is open (read without opening it)."""
    kept = vars(app.lobby)
    return kept.get("_playlog", kept.get("playlog")) is not None


def fan(app) -> list[list[float]]:
    return [list(card.size) for card in app.welcome.cards]


def main() -> None:
    from kiosk.platform import boot, readfile

    boot.configure(boot.Screen(800, 480, headless=True), quiet=True)
    read: list[str] = []
    real_read_json = readfile.read_json

    def noting_read_json(path, *a, **kw):
        read.append(Path(path).name)
        return real_read_json(path, *a, **kw)

    readfile.read_json = noting_read_json
    from kivy.base import EventLoop, runTouchApp
    from kivy.clock import Clock
    from kivy.core.window import Window

    from kiosk import i18n

    preloads: list[str] = []
    real_preload = i18n.preload

    def noting_preload() -> None:
        preloads.append("started")
        real_preload()

    i18n.preload = noting_preload
    from kiosk.app import KioskApp

    services = sys.argv[1:2] == ["services"]
    kw: dict = {}
    if services:
        from gpiozero.pins.mock import MockFactory

        from kiosk.settings import config

        data = Path(sys.argv[2])
        (data / "config.toml").write_text(f'[log]\ndata_dir = "{data}"\n', encoding="utf-8")
        kw = {"cfg": config.load(data / "config.toml"), "services": True, "data_dir": data,
              "pin_factory": MockFactory()}
    app = KioskApp(language="en", transitions=False, animate=False, autoplay=False, **kw)
    out: dict = {}

    def first_frame(*_a) -> None:
        Window.unbind(on_flip=first_frame)
        out["first_frame"] = {"modules": ours(), "read": list(read),
                              "screens": [s.name for s in app.sm.screens],
                              "current": app.sm.current, "later": later_loaded(),
                              "preloads": list(preloads), "fan": fan(app),
                              "log_open": log_opened(app)}
        if services:  # a visitor at once: another language, a game, a move
            app.set_language("ru")
            out["title_ru"] = app.welcome.title.text
            ctl = app.open_game("klondike", 1)
            ctl.play(ctl.game.legal_moves()[0], "tap")
            out["played"] = ctl.game_id

    Window.bind(on_flip=first_frame)
    app._run_prepare()
    runTouchApp(embedded=True)
    for _ in range(6):
        EventLoop.idle()
    out["fan_later"] = fan(app)
    if services:
        app.stop()
        out["errors"] = [repr(e) for e in app.keeper.errors]
        import sqlite3

        conn = sqlite3.connect(data / "plays.db")
        out["plays"] = conn.execute("SELECT game, seed, moves FROM plays").fetchall()
        conn.close()
        print(json.dumps(out))
        return
    out["idle"] = {"modules": ours(), "screens": [s.name for s in app.sm.screens],
                   "tiles": sorted(tile.game_id for page in app.picker.carousel.slides
                                   for tile in page.children if hasattr(tile, "game_id"))}
    app.open_game("klondike", 1)
    for _ in range(2):
        EventLoop.idle()
    out["opened"] = {"modules": ours(), "screens": [s.name for s in app.sm.screens],
                     "current": app.sm.current}
    Clock.schedule_once(lambda _dt: None, 0)
    app.stop()
    print(json.dumps(out))


if __name__ == "__main__":
    main()
