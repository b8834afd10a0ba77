"""Give the memory a finished table freed back to the system (glibc's ``malloc_trim``).

Measured with an in-process loop of demo games (docs/benchmarks.md, "Soak: attract mode
memory"): what a demo table holds in glibc's main heap (card faces and text textures, which
Mesa's llvmpipe keeps in malloc'd memory, the widgets, a deal list being parsed) swings by
20-40 MB from one game to the next. ``free()`` returns memory to the system only from the
top of the heap, so every game whose table needed more than any before left the process's
resident size at its new high-water mark, although the memory was free again: the steps of
the soak's curve at the first showing of a game (Maze +16 MB, Snake +60 MB). ``malloc_trim``
hands the free pages inside the heap back (``madvise``), so resident memory follows what is
in use rather than the largest table ever shown. Elsewhere than glibc it does nothing.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging
from functools import lru_cache

log = logging.getLogger("kiosk.heap")


@lru_cache(maxsize=1)
def _trim():
    """glibc's ``malloc_trim``, or None (musl, macOS: no such call)."""
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        trim = libc.malloc_trim
    except (OSError, AttributeError):
        return None
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    return trim


def give_back() -> bool:
    """Return the free pages of the C heap to the system; True when some were returned.

    Cheap enough between two tables (a few milliseconds for a heap of 100 MB), too dear for
    every frame."""
    trim = _trim()
    if trim is None:
        return False
    try:
        return bool(trim(0))
    except OSError:  # pragma: no cover - a libc that refuses the call
        log.debug("malloc_trim failed", exc_info=True)
        return False


class _MallInfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in (
        "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks",
        "fordblks", "keepcost")]


@lru_cache(maxsize=1)
def _mallinfo2():
    try:
        call = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").mallinfo2
    except (OSError, AttributeError):  # not glibc, or older than 2.33
        return None
    call.restype = _MallInfo2
    call.argtypes = []
    return call


def in_use_mb() -> float | None:
    """MB the C heap has handed out and not had back (glibc's ``mallinfo2``: the main
    heap's blocks in use plus the mmapped ones), or None without glibc. What resident memory
    would be without free pages kept: the soak bench prints both."""
    call = _mallinfo2()
    if call is None:
        return None
    info = call()
    return (info.uordblks + info.hblkhd) / 2**20
