"""Child process of test_memory_bounds.py: the app headless, the demo tables of a few games
whose cards are dealt face up (a face of each card at each game's card size), resident
memory read after the first table and after the last. Prints one JSON line.

    python tests/ui/faces_child.py la_belle_lucie the_fan beleaguered_castle accordion

A fresh process, because the figure is the process's RSS: the test session's own app has
drawn other things before.
"""

from __future__ import annotations

import gc
import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

#: frames drawn of each table (the first lays it out, the next draw its cards)
FRAMES = 4


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def main(game_ids: list[str]) -> None:
    from kiosk.platform import boot

    boot.configure(boot.Screen(800, 480, headless=True), quiet=True)
    from kivy.base import EventLoop, runTouchApp

    from kiosk.app import KioskApp
    from kiosk.table import caches

    app = KioskApp(language="en", transitions=False, animate=False, autoplay=False)
    app._run_prepare()
    runTouchApp(embedded=True)
    demo = app.attract
    demo._rnd = random.Random(5)
    demo.running = True
    app.sm.current = "attract"
    out: dict = {"sizes": []}
    for n, game_id in enumerate(game_ids):
        demo._order, demo._index = [game_id], -1
        demo._next_game()
        demo._cancel()  # the tables are only drawn, no move is played
        for _ in range(FRAMES):
            EventLoop.idle()
        gc.collect()
        out["sizes"].append(list(next(iter(demo.view.cards.values())).size))
        if n == 0:
            out["first_mb"] = rss_mb()
    out["end_mb"] = rss_mb()
    out.update(caches.sizes())
    demo.stop()
    print(json.dumps(out), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
