"""A quiet moment to restart the kiosk: no visitor is playing.

The app publishes the screen it shows, with the time it appeared, in its runtime directory
(``/run/solitaire-kiosk/lobby.json``, RAM; :func:`publish`, on every change of screen).
The root side (:func:`wait_for_quiet`, used by the USB stick's install and the centre's)
restarts only when that screen has been the attract demo, or the welcome screen, for some
minutes: a visitor who is playing is on a table or the picker, and anyone who touches the
demo ends it. A kiosk whose app is not running at all has nobody to disturb either.
"""

from __future__ import annotations

import json
import logging
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

log = logging.getLogger("kiosk.updates")

LOBBY_NAME = "lobby.json"
#: the app's runtime directory on the image (solitaire-kiosk.service, RuntimeDirectory=)
KIOSK_RUNTIME = Path("/run/solitaire-kiosk")
#: screens on which nobody is playing
QUIET_SCREENS = ("attract", "welcome")
#: minutes of them before a restart (the attract demo starts after [attract] delay, 60 s
#: by default, so this is about four minutes of demo)
QUIET_MINUTES = 5.0


@dataclass(frozen=True)
class Lobby:
    screen: str
    since: float        # time.time() when the screen appeared
    pid: int


def runtime_dir() -> Path | None:
    """Where the app publishes: systemd's RuntimeDirectory (None off systemd: a desktop or
    a test has nobody waiting to restart it)."""
    value = os.environ.get("RUNTIME_DIRECTORY", "").split(":")[0]
    return Path(value) if value else None


def publish(screen: str, directory: Path | None = None, *, now: float | None = None) -> None:
    """The app shows ``screen`` from now on. Never raises: the game goes on regardless."""
    directory = directory if directory is not None else runtime_dir()
    if directory is None:
        return
    data = {"screen": screen, "since": time.time() if now is None else now,
            "pid": os.getpid()}
    tmp = directory / f".{LOBBY_NAME}.tmp"
    try:
        tmp.write_text(json.dumps(data) + "\n", encoding="utf-8")
        os.replace(tmp, directory / LOBBY_NAME)
    except OSError as err:
        log.warning("cannot publish the screen for updates: %s", err)


def read_lobby(path: Path = KIOSK_RUNTIME / LOBBY_NAME) -> Lobby | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return Lobby(str(data["screen"]), float(data["since"]), int(data["pid"]))
    except (OSError, ValueError, KeyError, TypeError):
        return None


def is_quiet(lobby: Lobby | None, kiosk_running: bool, *, now: float,
             minutes: float = QUIET_MINUTES) -> bool:
    """Nobody is playing: the app is not running, or it has shown a quiet screen for
    ``minutes``."""
    if not kiosk_running:
        return True
    if lobby is None:
        return False
    return lobby.screen in QUIET_SCREENS and now - lobby.since >= minutes * 60


def wait_for_quiet(kiosk_running: Callable[[], bool], *, minutes: float = QUIET_MINUTES,
                   lobby_path: Path = KIOSK_RUNTIME / LOBBY_NAME,
                   interrupt: Callable[[], bool] = lambda: False, every: float = 10.0,
                   clock: Callable[[], float] = time.time,
                   sleep: Callable[[float], None] = time.sleep,
                   allowed: Callable[[], bool] = lambda: True) -> str:
    """Wait until nobody is playing ("quiet"), or ``interrupt()`` says to go now ("asked").
    ``allowed``: a quiet moment counts only while it says so (the operator's window,
    :mod:`kiosk.updates.window`)."""
    while True:
        if interrupt():
            return "asked"
        if allowed() and is_quiet(read_lobby(lobby_path), kiosk_running(), now=clock(),
                                  minutes=minutes):
            return "quiet"
        sleep(every)
