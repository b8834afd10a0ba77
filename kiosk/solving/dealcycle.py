"""Which winnable deal comes next: a shuffled cycle through a game's list, kept across restarts.

``random.choice`` over the list would now and then deal the same deal twice in a row, and a
visitor who plays every day would meet repeats long before the list is used up. A cycle deals
every deal of the list once, in a shuffled order, before any deal comes again; the next cycle
is shuffled anew and never starts with the deal the last one ended with.

Only a few numbers are stored per list (the cycle's shuffle salt, the position, the list's
size and the deal the previous cycle ended with), in ``deal-cycles.json`` in the data
directory, written atomically: a restart or a power cut carries on with the same cycle
instead of starting over. Without a data directory (snapshots, tests) the cycle lives in
memory only. A list that grew or shrank starts a new cycle.
"""

from __future__ import annotations

import json
import logging
import random
from pathlib import Path
from typing import Any

from kiosk.platform import readfile
from kiosk.platform.atomicfile import write_atomic

log = logging.getLogger("kiosk.deals")

STATE_FILE = "deal-cycles.json"
#: a few numbers per deal list; a file near this size was not written by the kiosk
MAX_BYTES = 1024 * 1024


def _order(seeds: list[int], salt: int, after: int | None) -> list[int]:
    """The cycle's order: the sorted deals shuffled by ``salt``; a cycle never starts with
    ``after``, the deal the previous one ended with."""
    order = sorted(seeds)
    random.Random(salt).shuffle(order)
    if len(order) > 1 and order[0] == after:
        order[0], order[-1] = order[-1], order[0]
    return order


class DealCycle:
    """Deals of one list in a persisted shuffled cycle. ``key`` names the list in the state
    file (its file name without ``.json``); ``state_dir`` is the data directory, or None."""

    def __init__(self, key: str, seeds: list[int], state_dir: Path | None = None,
                 rnd: random.Random | None = None) -> None:
        if not seeds:
            raise ValueError("a deal cycle needs at least one deal")
        self.key = key
        self.seeds = list(seeds)
        self.path = state_dir / STATE_FILE if state_dir is not None else None
        self.rnd = rnd or random.SystemRandom()
        self.state = self._read().get(key) or {}

    def next(self) -> int:
        """The next deal number (and the position saved for the next start)."""
        st = self.state
        n = len(self.seeds)
        fresh = not (isinstance(st.get("salt"), int) and isinstance(st.get("pos"), int)
                     and st.get("size") == n and 0 <= st["pos"] < n)
        if fresh:
            after = st.get("last") if isinstance(st.get("last"), int) else None
            st = {"salt": self.rnd.randrange(2**32), "pos": 0, "size": n, "after": after}
        order = _order(self.seeds, st["salt"], st.get("after"))
        seed = order[st["pos"]]
        self.state = {**st, "pos": st["pos"] + 1, "last": seed}
        self._write()
        return seed

    # ------------------------------------------------------------------ the state file
    def _read(self) -> dict[str, Any]:
        if self.path is None:
            return {}
        try:
            data = readfile.read_json(self.path, MAX_BYTES)
        except readfile.ReadError as err:
            if not err.missing:
                log.warning("%s: cannot be read (%s); the deal cycles start again", err.name,
                            err.reason)
            return {}
        if not isinstance(data, dict):
            log.warning("%s: cannot be read (not a JSON object); the deal cycles start again",
                        self.path)
            return {}
        # one list's entry that is not an object is that list's cycle starting again
        return {k: v for k, v in data.items() if isinstance(v, dict)}

    def _write(self) -> None:
        if self.path is None:
            return
        data = self._read()
        data[self.key] = self.state
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            write_atomic(self.path, json.dumps(data, sort_keys=True, indent=0) + "\n")
        except OSError as err:  # the deal is still dealt; only the position is not kept
            log.warning("cannot save the deal cycle to %s: %s", self.path, err)
