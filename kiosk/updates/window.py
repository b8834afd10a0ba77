"""The operator's window for restarts into an update from the centre: ``[updates] window =
"03:00-05:00"`` in the kiosk's configuration, read in ``[updates] time_zone`` (the image's
clock is UTC; a lobby's night is local).

A window may cross midnight ("23:30-01:00"). Inside it the kiosk still restarts only at a
quiet moment (:mod:`kiosk.updates.quiet`): a hotel lobby has visitors at night too. A
window that ends before the lobby is quiet waits for the next day's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, time
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

PATTERN = re.compile(r"^\s*(\d{1,2}):(\d{2})\s*-\s*(\d{1,2}):(\d{2})\s*$")


class WindowError(ValueError):
    """Not a window or not a time zone; one line for the config checker."""


@dataclass(frozen=True)
class Window:
    start: time
    end: time

    def __str__(self) -> str:
        return f"{self.start:%H:%M}-{self.end:%H:%M}"

    def contains(self, moment: time) -> bool:
        """Whether the time of day ``moment`` lies in the window (its start included, its
        end not)."""
        if self.start < self.end:
            return self.start <= moment < self.end
        return moment >= self.start or moment < self.end


def parse_window(text: object) -> Window:
    if not isinstance(text, str):
        raise WindowError(f"{text!r} is not a window (write it in quotes, e.g. "
                          '"03:00-05:00")')
    found = PATTERN.match(text)
    if not found:
        raise WindowError(f"{text!r} is not a window (HH:MM-HH:MM, e.g. \"03:00-05:00\")")
    h1, m1, h2, m2 = (int(g) for g in found.groups())
    if h1 > 23 or h2 > 23 or m1 > 59 or m2 > 59:
        raise WindowError(f"{text!r} is not a window: hours are 00 to 23, minutes 00 to 59")
    window = Window(time(h1, m1), time(h2, m2))
    if window.start == window.end:
        raise WindowError(f"{text!r} is not a window: it starts where it ends")
    return window


def zone(name: object) -> ZoneInfo:
    if not isinstance(name, str) or not name.strip():
        raise WindowError(f"{name!r} is not a time zone (write its name in quotes, e.g. "
                          '"Europe/Berlin")')
    try:
        return ZoneInfo(name.strip())
    except (ZoneInfoNotFoundError, ValueError):
        raise WindowError(f"{name!r} is not a time zone this kiosk knows (an IANA name such "
                          'as "Europe/Berlin" or "Asia/Shanghai")') from None


def open_now(window: str | None, time_zone: str | None = None,
             now: datetime | None = None) -> bool:
    """Whether a restart may happen now: always without a window; inside it with one."""
    if window is None:
        return True
    w = parse_window(window)
    tz = zone(time_zone) if time_zone else None
    moment = now.astimezone(tz) if now is not None else datetime.now(tz).astimezone(tz)
    return w.contains(moment.time().replace(tzinfo=None))
