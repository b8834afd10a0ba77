"""Child process of test_memory_bounds.py: the app headless (SDL offscreen, as the soak
bench and the other UI tests run it), one demo game animated at a quick pace, resident
memory read after a warm-up and after a fixed number of frames. Prints one JSON line.

    python tests/ui/frames_child.py friday_the_thirteenth 400

A fresh process (tests/ui/memory_child.py says why).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.ui.memory_child import rss_mb, start_demo  # noqa: E402

WARM_UP_FRAMES = 60


def played(demo) -> int:
    return demo.player.played if demo.player else 0


def main(game_id: str, frames: int) -> None:
    app = start_demo(animate=True, step=0.05, pause=0.2, won_pause=0.5)
    from kivy.base import EventLoop
    from kivy.core.window import Window

    drawn = {"n": 0}
    Window.bind(on_flip=lambda *_a: drawn.__setitem__("n", drawn["n"] + 1))
    demo = app.attract
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
