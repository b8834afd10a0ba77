"""A least-recently-used cache of textures bounded in bytes and in entries.

The kiosk runs for months: a cache keyed by pixel size meets a new size with every game
layout, every window size and every language, so a cache without a bound grows until the
Pi runs out of (GPU) memory. A texture costs width x height x 4 bytes, so the budget is in
bytes; the entry bound keeps many tiny textures from adding up in bookkeeping. Evicting an
entry only drops the cache's reference: a widget still showing the texture keeps it alive.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable
from typing import Any


def texture_bytes(width: int, height: int) -> int:
    """What an RGBA texture of ``width`` x ``height`` pixels costs."""
    return max(1, int(width)) * max(1, int(height)) * 4


class TextureCache:
    """``get``/``put`` by key; the least recently used entries go once either bound is
    passed. ``on_evict(key, value)`` is told of each entry that goes."""

    def __init__(self, max_bytes: int, max_entries: int, on_evict=None) -> None:
        if max_bytes <= 0 or max_entries <= 0:
            raise ValueError("a texture cache needs positive bounds")
        self.max_bytes = max_bytes
        self.max_entries = max_entries
        self.on_evict = on_evict
        self._items: OrderedDict[Hashable, tuple[Any, int]] = OrderedDict()
        self.nbytes = 0

    def __len__(self) -> int:
        return len(self._items)

    def __contains__(self, key: Hashable) -> bool:
        return key in self._items

    def keys(self) -> list[Hashable]:
        return list(self._items)

    def get(self, key: Hashable) -> Any | None:
        item = self._items.get(key)
        if item is None:
            return None
        self._items.move_to_end(key)
        return item[0]

    def put(self, key: Hashable, value: Any, nbytes: int) -> None:
        old = self._items.pop(key, None)
        if old is not None:
            self.nbytes -= old[1]
        self._items[key] = (value, nbytes)
        self.nbytes += nbytes
        while len(self._items) > 1 and (self.nbytes > self.max_bytes
                                        or len(self._items) > self.max_entries):
            self._drop_oldest()

    def discard(self, key: Hashable) -> None:
        item = self._items.pop(key, None)
        if item is not None:
            self.nbytes -= item[1]
            if self.on_evict is not None:
                self.on_evict(key, item[0])

    def clear(self) -> None:
        for key in list(self._items):
            self.discard(key)

    def _drop_oldest(self) -> None:
        key = next(iter(self._items))
        self.discard(key)
