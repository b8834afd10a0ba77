"""Child process of test_memory_bounds.py: the app headless, the demo tables of a few games
whose cards are dealt face up (a face of each card at each game's card size), resident
memory read after the first table and after the last. Prints one JSON line.

    python tests/ui/faces_child.py la_belle_lucie the_fan beleaguered_castle accordion

A fresh process (tests/ui/memory_child.py says why).
"""

from __future__ import annotations

import gc
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.ui.memory_child import rss_mb, start_demo  # noqa: E402

#: frames drawn of each table (the first lays it out, the next draw its cards)
FRAMES = 4


def main(game_ids: list[str]) -> None:
    app = start_demo(animate=False)
    from kivy.base import EventLoop

    from kiosk.table import caches

    demo = app.attract
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
