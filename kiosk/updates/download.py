"""A bundle fetched over HTTP(S) from any static web server: resumable, bounded in time,
checked against the size and sha256 the office recorded.

The transport is not what makes a bundle trusted: RAUC's signature, checked on the kiosk
against the image's keyring, is (docs/updates.md). The size and sha256 come from the
central database over the fleet's verified TLS connection, so plain HTTP cannot slip other
bytes in either: whatever a network changes fails the sha256 and is thrown away. HTTPS
adds privacy (which version a kiosk fetches) and, with the office's CA
(``[updates] ca_file``), refuses an impostor before a byte is stored.

Resuming: a transfer cut (a network that drops, the pass's time budget spent, a power
cut) leaves ``NAME.raucb.part``; the next pass asks for the rest (``Range: bytes=N-``, with
``If-Range`` naming the file's ETag, so a file that changed on the server meanwhile is sent
whole again instead of being spliced). A server that ignores Range sends the whole file,
which is then written from the start. No proxy from the environment is used.
"""

from __future__ import annotations

import errno
import hashlib
import http.client
import os
import re
import socket
import ssl
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from kiosk import __version__

CHUNK = 256 * 1024
#: seconds a connection may be silent before the pass gives up on it (and resumes later)
TIMEOUT = 30.0
#: no kiosk bundle comes near this; a release saying more is a mistake
MAX_SIZE = 16 * 1024**3
_CONTENT_RANGE = re.compile(r"^bytes (\d+)-(\d+)/(\d+|\*)$")

#: what went wrong, for the caller's decision: try again at the next pass ("network",
#: "server"), count it against the bundle ("mismatch"), or make room first ("room")
KINDS = ("network", "server", "mismatch", "room", "config")


class DownloadError(Exception):
    """One line for a person; ``kind`` one of :data:`KINDS`."""

    def __init__(self, message: str, kind: str, etag: str | None = None) -> None:
        assert kind in KINDS, kind
        super().__init__(message)
        self.kind = kind
        #: a cut transfer: the server's ETag of what was kept, for the resume
        self.etag = etag


def mb(n: int | float) -> str:
    return f"{n / 1024 / 1024:,.0f} MB" if n >= 1024 * 1024 else f"{n / 1024:,.0f} kB"


def check_url(url: str) -> str:
    """``url`` when it is an http or https URL with a host; DownloadError (config) else."""
    if not isinstance(url, str) or not url or len(url) > 2000 or any(
            c.isspace() or not c.isprintable() for c in url):
        raise DownloadError(f"{url!r:.80} is not a URL", "config")
    parts = urllib.parse.urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise DownloadError(f"{url}: a bundle's URL starts with http:// or https:// and "
                            "names a host", "config")
    return url


def opener(ca_file: Path | None = None) -> urllib.request.OpenerDirector:
    """urllib without proxies from the environment; https verified against ``ca_file``
    (else the system's certificates)."""
    try:
        ctx = ssl.create_default_context(cafile=str(ca_file) if ca_file else None)
    except (OSError, ssl.SSLError) as err:
        raise DownloadError(f"cannot read the CA file {ca_file} ([updates] ca_file): "
                            f"{getattr(err, 'strerror', None) or err}", "config") from None
    return urllib.request.build_opener(urllib.request.ProxyHandler({}),
                                       urllib.request.HTTPSHandler(context=ctx))


def free_bytes(directory: Path) -> int:
    st = os.statvfs(directory)
    return st.f_bavail * st.f_frsize


def _reason(err: BaseException, url: str) -> DownloadError:
    """One line for a failed request."""
    if isinstance(err, urllib.error.HTTPError):
        return DownloadError(f"{url}: the server answered {err.code} {err.reason}", "server")
    reason = getattr(err, "reason", err)
    if isinstance(reason, ssl.SSLCertVerificationError):
        return DownloadError(f"{url}: the server's certificate cannot be verified "
                             f"({reason.verify_message or reason}); [updates] ca_file names "
                             "the office's CA", "network")
    if isinstance(reason, socket.timeout | TimeoutError):
        return DownloadError(f"{url}: the server did not answer in {TIMEOUT:.0f} s", "network")
    if isinstance(reason, socket.gaierror):
        return DownloadError(f"{url}: the server's name cannot be resolved ({reason})",
                             "network")
    text = getattr(reason, "strerror", None) or str(reason)
    return DownloadError(f"{url}: {text}", "network")


@dataclass
class Fetched:
    have: int                  # bytes in the file now
    complete: bool             # have == the release's size
    etag: str | None           # the server's ETag of the file, for the next resume


def _remove(path: Path) -> None:
    try:
        path.unlink()
    except FileNotFoundError:
        pass


def fetch(url: str, part: Path, *, size: int, deadline: float, keep_free: int = 0,
          etag: str | None = None, ca_file: Path | None = None,
          clock: Callable[[], float] = time.monotonic) -> Fetched:
    """Bring ``part`` closer to the whole file of ``size`` bytes, until ``deadline``
    (``clock()`` time). Raises DownloadError: a cut transfer keeps what came (kind
    "network"), a file that cannot be the released one is removed ("mismatch"), and so is
    a partial download when the data partition has no room for the rest ("room"): the
    play log's room comes first."""
    check_url(url)
    if not 0 < size <= MAX_SIZE:
        raise DownloadError(f"the release's size {size} is not a bundle's size", "config")
    part.parent.mkdir(parents=True, exist_ok=True)
    have = _size(part)
    if have > size:
        _remove(part)
        have = 0
    if have == size:
        return Fetched(have, True, etag)
    free = free_bytes(part.parent)
    if free - (size - have) < keep_free:
        _remove(part)
        raise DownloadError(
            f"not enough room on the data partition for the update: it needs {mb(size)} and "
            f"must leave {mb(keep_free)} for the play log; {mb(free + have)} free", "room")
    headers = {"User-Agent": f"solitaire-kiosk/{__version__}", "Accept-Encoding": "identity"}
    if have:
        headers["Range"] = f"bytes={have}-"
        if etag:
            headers["If-Range"] = etag
    try:
        response = opener(ca_file).open(urllib.request.Request(url, headers=headers),
                                        timeout=TIMEOUT)
    except urllib.error.HTTPError as err:
        if err.code == 416 and have:
            _remove(part)
            raise DownloadError(f"{url}: the server's file is shorter than the release's "
                                f"{size} bytes; the partial download was removed",
                                "mismatch") from None
        raise _reason(err, url) from None
    except (urllib.error.URLError, OSError, http.client.HTTPException) as err:
        raise _reason(err, url) from None
    with response:
        have, total = _start(response, url, part, have, size)
        return _receive(response, url, part, have=have, size=size, total=total,
                        deadline=deadline, clock=clock)


def _start(response, url: str, part: Path, have: int, size: int) -> tuple[int, int | None]:
    """Where the response's bytes go (the offset in the file) and the file's size on the
    server, if it says."""
    total: int | None = None
    if response.status == 206:
        found = _CONTENT_RANGE.match(response.headers.get("Content-Range", ""))
        if not found or int(found.group(1)) != have:
            raise DownloadError(f"{url}: the server sent a range that was not asked for",
                                "server")
        total = None if found.group(3) == "*" else int(found.group(3))
    elif response.status == 200:
        have = 0  # the whole file: no Range support, or it changed since (If-Range)
        length = response.headers.get("Content-Length")
        total = int(length) if length and length.isdigit() else None
    else:
        raise DownloadError(f"{url}: the server answered {response.status}", "server")
    if total is not None and total != size:
        _remove(part)
        raise DownloadError(f"{url}: the server's file is {total} bytes, the release says "
                            f"{size}; not the released bundle", "mismatch")
    return have, total


def _receive(response, url: str, part: Path, *, have: int, size: int, total: int | None,
             deadline: float, clock: Callable[[], float]) -> Fetched:
    """Append what comes to ``part`` (unbuffered: a full partition is seen at the write
    that fills it) until the file is whole, the deadline or the end of the transfer."""
    stopped: BaseException | None = None
    try:
        fh = open(part, "ab" if have else "wb", buffering=0)
    except OSError as err:
        raise DownloadError(f"cannot write {part}: {err.strerror or err}", "room") from None
    with fh:
        try:
            while have < size and clock() < deadline:
                try:
                    chunk = response.read(min(CHUNK, size - have))
                except (OSError, http.client.HTTPException) as err:
                    stopped = err
                    break
                if not chunk:
                    break
                _write_all(fh, chunk)
                have += len(chunk)
            if have == size and total is None and response.read(1):
                fh.close()
                _remove(part)
                raise DownloadError(f"{url}: the server sent more than the release's {size} "
                                    "bytes; not the released bundle", "mismatch")
            if not fh.closed:
                os.fsync(fh.fileno())
        except OSError as err:
            if err.errno in (errno.ENOSPC, errno.EDQUOT):
                fh.close()
                _remove(part)
                raise DownloadError("the data partition filled up during the download; the "
                                    "partial download was removed (the play log comes "
                                    "first)", "room") from None
            raise DownloadError(f"cannot write {part}: {err.strerror or err}", "room"
                                ) from None
    if have < size and clock() < deadline:
        why = (getattr(stopped, "strerror", None) or str(stopped) or type(stopped).__name__
               ) if stopped else "the connection was closed"
        raise DownloadError(f"{url}: the transfer stopped at {mb(have)} of {mb(size)} "
                            f"({why}); the next pass resumes it", "network",
                            response.headers.get("ETag"))
    return Fetched(have, have == size, response.headers.get("ETag"))


def _write_all(fh, data: bytes) -> None:
    """An unbuffered write may take part of the data (a partition that fills up takes what
    fits); the rest is written until it raises."""
    view = memoryview(data)
    while view:
        view = view[fh.write(view):]


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        while chunk := fh.read(1024 * 1024):
            digest.update(chunk)
    return digest.hexdigest()


def verify(part: Path, sha256: str) -> None:
    """The whole file against the release's sha256; a file that differs is removed."""
    got = sha256_of(part)
    if got != sha256:
        _remove(part)
        raise DownloadError(f"the downloaded bundle's sha256 is {got[:12]}..., the release "
                            f"says {sha256[:12]}...: not the released file; it was removed",
                            "mismatch")


def fetch_whole(url: str, dest: Path, *, ca_file: Path | None = None,
                say: Callable[[str], None] = lambda _line: None) -> tuple[int, str]:
    """The whole file at ``url`` into ``dest`` (the office's ``fleet release``, which
    fetches a bundle once to learn its size, sha256 and version); (size, sha256)."""
    check_url(url)
    headers = {"User-Agent": f"solitaire-kiosk/{__version__}", "Accept-Encoding": "identity"}
    try:
        response = opener(ca_file).open(urllib.request.Request(url, headers=headers),
                                        timeout=TIMEOUT)
    except (urllib.error.URLError, OSError, http.client.HTTPException) as err:
        raise _reason(err, url) from None
    digest = hashlib.sha256()
    size = 0
    last = time.monotonic()
    with response, open(dest, "wb") as fh:
        while True:
            try:
                chunk = response.read(CHUNK)
            except OSError as err:
                raise DownloadError(f"{url}: the transfer stopped at {mb(size)} "
                                    f"({err.strerror or err})", "network") from None
            if not chunk:
                break
            size += len(chunk)
            if size > MAX_SIZE:
                raise DownloadError(f"{url}: more than {mb(MAX_SIZE)}; not a bundle", "server")
            digest.update(chunk)
            fh.write(chunk)
            if time.monotonic() - last > 5:
                say(f"fetched {mb(size)}")
                last = time.monotonic()
    length = response.headers.get("Content-Length")
    if length and length.isdigit() and int(length) != size:
        raise DownloadError(f"{url}: the transfer stopped at {mb(size)} of "
                            f"{mb(int(length))}", "network")
    if size == 0:
        raise DownloadError(f"{url}: the server sent an empty file", "server")
    return size, digest.hexdigest()
