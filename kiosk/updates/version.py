"""A system's version: the app's version and the build's UTC time, ``0.1.0+20251206.221530``.

The image and every bundle built from the same root carry the same string (the image in
``/etc/os-release`` as ``IMAGE_VERSION``, the bundle in its manifest). The app's version
orders first and the build's time breaks ties, so a rebuild of the same app (Debian's
security fixes) is newer and an older app built later is still older: an office that must
go back to an older app builds it under a new app version (docs/updates.md).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

OS_RELEASE = Path("/etc/os-release")
PATTERN = re.compile(r"^(\d+(?:\.\d+)*)\+(\d{8})\.(\d{6})$")


class VersionError(ValueError):
    """Not a version of ours; the message is one line."""


@dataclass(frozen=True, order=True)
class Version:
    app: tuple[int, ...]
    built: str                     # YYYYMMDDHHMMSS, UTC
    text: str = field(compare=False)

    def __str__(self) -> str:
        return self.text


def make_version(app: str, when: datetime) -> str:
    """The version of a build of ``app`` made at ``when`` (converted to UTC)."""
    stamp = when.astimezone(UTC).strftime("%Y%m%d.%H%M%S")
    text = f"{app}+{stamp}"
    parse(text)
    return text


def parse(text: str) -> Version:
    found = PATTERN.match(text.strip())
    if not found:
        raise VersionError(f"{text!r} is not a kiosk version (APP+YYYYMMDD.HHMMSS, e.g. "
                           "0.1.0+20251206.221530)")
    app, date, time = found.groups()
    return Version(tuple(int(p) for p in app.split(".")), date + time, text.strip())


def parse_or_none(text: str | None) -> Version | None:
    """The version ``text`` names, None for none or one that is no version: a running
    system of another scheme (a hand-built image) never blocks an update by its own."""
    if not text:
        return None
    try:
        return parse(text)
    except VersionError:
        return None


def read_os_release(path: Path = OS_RELEASE) -> dict[str, str]:
    """KEY=value lines of os-release(5), quotes removed; {} when it cannot be read."""
    out: dict[str, str] = {}
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError:
        return out
    for line in lines:
        key, sep, value = line.strip().partition("=")
        if sep and key and not key.startswith("#"):
            out[key] = value.strip().strip("\"'")
    return out


def running_version(path: Path = OS_RELEASE) -> str | None:
    """The running system's version (``IMAGE_VERSION``), None off the kiosk's image."""
    return read_os_release(path).get("IMAGE_VERSION") or None
