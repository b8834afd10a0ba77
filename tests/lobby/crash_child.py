"""Child process of test_crash.py: plays games into a play log until it is killed.

It prints a line after each call returns, so the parent knows what was committed:
``begin ID``, ``move ID N`` (the play now has N rows in ``moves``), ``end ID RESULT``.
"""

from __future__ import annotations

import random
import sys

from kiosk.records.playlog import PlayLog


def main() -> None:
    path, seed = sys.argv[1], int(sys.argv[2])
    rnd = random.Random(seed)
    log = PlayLog(path, kiosk="crash-test", min_free_mb=0)
    print(f"open {log.interrupted_on_open} {log.status.state}", flush=True)
    while True:
        play = log.begin("klondike", rnd.randint(1, 999_999), {"draw": 3})
        print(f"begin {play.id}", flush=True)
        for i in range(rnd.randint(1, 40)):
            if i and rnd.random() < 0.1:
                log.undo(play, "button")
            else:
                log.move(play, f"T{i % 7 + 1}>F{i % 4 + 1}", rnd.choice(["touch", "auto"]))
            log.count(play, touches=1)
            print(f"move {play.id} {len(play.moves)}", flush=True)
        if rnd.random() < 0.8:
            result = rnd.choice(["won", "lost", "abandoned"])
            log.finish(play, result, score=rnd.randint(0, 52), cards_left=rnd.randint(0, 52))
            print(f"end {play.id} {result}", flush=True)


if __name__ == "__main__":
    main()
