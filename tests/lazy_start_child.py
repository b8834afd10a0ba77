"""Child process of test_lazy_start.py: the kiosk started headless as ``kiosk run`` starts it,
with what it has imported and read noted at its first frame, once the picker is built, and
after a game is opened. Prints one JSON line.

A fresh process, because the question is what a start loads: the test session has imported
everything already.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def ours() -> list[str]:
    return sorted(m for m in sys.modules if m.split(".")[0] in ("games", "kiosk"))


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

    from kiosk.app import KioskApp

    app = KioskApp(language="en", transitions=False, animate=False, autoplay=False)
    out: dict = {}

    def first_frame(*_a) -> None:
        Window.unbind(on_flip=first_frame)
        out["first_frame"] = {"modules": ours(), "read": list(read),
                              "screens": [s.name for s in app.sm.screens],
                              "current": app.sm.current}

    Window.bind(on_flip=first_frame)
    app._run_prepare()
    runTouchApp(embedded=True)
    for _ in range(6):
        EventLoop.idle()
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
