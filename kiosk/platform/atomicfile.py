"""Replacing a file so that it is never seen half-written: the operator's settings, the
deal cycle and the winnable-deal lists all go through :func:`write_atomic`."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def write_atomic(path: Path, text: str, mode: int | None = None) -> None:
    """Temporary file in the same directory, fsync, rename over, fsync the directory: a
    crash or a power cut leaves the old file or the new one, never half of either. An
    existing file keeps its mode and owner; a new one is 0644. ``mode`` forces the mode
    (0600 for a secret) from the first byte on, so the text is never readable by others."""
    try:
        st = path.stat()
    except FileNotFoundError:
        st = None
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        if mode is not None:
            os.fchmod(fd, mode)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        if st is not None:
            if mode is None:
                os.chmod(tmp, st.st_mode & 0o7777)
            try:
                os.chown(tmp, st.st_uid, st.st_gid)
            except OSError:
                pass
        elif mode is None:
            os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    try:
        dfd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)
    except OSError:
        pass
