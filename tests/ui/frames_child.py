"""Child process of test_memory_bounds.py: the app headless (SDL offscreen, as the soak
bench and the other UI tests run it), one demo game animated at a quick pace, resident
memory read after a warm-up and after a fixed number of frames. Prints one JSON line.

    python tests/ui/frames_child.py friday_the_thirteenth 400

A fresh process, because the figure is the process's RSS: the test session's own app has
drawn other things before.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

WARM_UP_FRAMES = 60


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def played(demo) -> int:
    return demo.player.played if demo.player else 0


def main(game_id: str, frames: int) -> None:
    from kiosk.platform import boot

    boot.configure(boot.Screen(800, 480, headless=True), quiet=True)
    from kivy.base import EventLoop, runTouchApp
    from kivy.core.window import Window

    from kiosk.app import KioskApp

    app = KioskApp(language="en", transitions=False, animate=True, autoplay=False)
    app._run_prepare()
    runTouchApp(embedded=True)
    drawn = {"n": 0}
    Window.bind(on_flip=lambda *_a: drawn.__setitem__("n", drawn["n"] + 1))
    demo = app.attract
    demo._rnd = random.Random(5)
    demo.step, demo.pause, demo.won_pause = 0.05, 0.2, 0.5
    demo.running = True
    app.sm.current = "attract"
    demo._order, demo._index = [game_id], -1
    demo._next_game()
    out: dict[str, float] = {}
    # at least ``frames`` frames and 10 demo moves (their pace is wall-clock time, and a
    # loaded machine draws frames faster than moves come), at most 8 times the frames
    while (drawn["n"] < frames or played(demo) < 10) and drawn["n"] < 8 * frames:
        EventLoop.idle()
        if "warm_mb" not in out and drawn["n"] >= WARM_UP_FRAMES:
            out["warm_mb"] = rss_mb()
    out["end_mb"] = rss_mb()
    out["frames"] = drawn["n"]
    out["moves"] = played(demo)
    demo.stop()
    print(json.dumps(out), flush=True)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
