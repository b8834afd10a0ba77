"""Tell systemd the kiosk is up, and keep telling it the screen is alive (``sd_notify``).

The unit (``systemd/solitaire-kiosk.service``) is ``Type=notify`` with ``WatchdogSec=``:

* ``READY=1`` is sent once the first frame has been drawn, so "started" means a visitor can
  see the kiosk, not merely that Python is running;
* ``WATCHDOG=1`` is sent from a Kivy ``Clock.schedule_interval`` every half of
  ``$WATCHDOG_USEC``. The clock runs on the Kivy main thread, so when the main loop freezes
  (an endless loop in a handler, a deadlock, a hung GL call) the pings stop and systemd
  restarts the kiosk, exactly as if the process had died;
* ``STOPPING=1`` when the app stops.

The protocol is one datagram to the ``AF_UNIX`` socket named in ``$NOTIFY_SOCKET`` (a path,
or an abstract socket written with a leading ``@``), see sd_notify(3); no library needed.
Without ``$NOTIFY_SOCKET`` (a desktop, the tests) everything here does nothing.

Diagnostic hook: ``KIOSK_DEBUG_FREEZE_AFTER=<seconds>`` freezes the Kivy main loop that many
seconds after the first frame (``time.sleep`` on the main thread, for an hour). The tests use it to
prove that a frozen screen stops the pings; on a Pi, a drop-in with
``Environment=KIOSK_DEBUG_FREEZE_AFTER=60`` shows the watchdog restarting the kiosk. Never
set it in production.

Use: ``systemd_notify.attach(app)`` before ``app.run()``.
"""

from __future__ import annotations

import logging
import os
import socket
import time
from collections.abc import Mapping
from typing import Any

log = logging.getLogger("kiosk.systemd")

FREEZE_ENV = "KIOSK_DEBUG_FREEZE_AFTER"
FREEZE_SECONDS = 3600.0


def socket_address(env: Mapping[str, str] | None = None) -> str | None:
    """The address of ``$NOTIFY_SOCKET`` for ``socket.connect``, or None when unusable.

    ``@name`` is the abstract socket ``\\0name``; other forms (``vsock:``) are not ours.
    """
    env = os.environ if env is None else env
    path = env.get("NOTIFY_SOCKET", "")
    if len(path) < 2:
        return None
    if path[0] == "@":
        return "\0" + path[1:]
    if path[0] == "/":
        return path
    return None


def notify(state: str, env: Mapping[str, str] | None = None) -> bool:
    """Send ``state`` (e.g. ``"READY=1"``, ``"WATCHDOG=1"``, several lines allowed) to
    systemd. Returns True when it was sent; False without a socket or on an error (logged,
    never raised: a kiosk must not fall over because its supervisor went away)."""
    address = socket_address(env)
    if address is None:
        return False
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
            sock.connect(address)
            sock.sendall(state.encode("utf-8"))
    except OSError as err:
        log.warning("sd_notify %r failed: %s", state.split("\n", 1)[0], err)
        return False
    return True


def watchdog_interval(env: Mapping[str, str] | None = None, pid: int | None = None
                      ) -> float | None:
    """Seconds between two ``WATCHDOG=1`` pings: half of ``$WATCHDOG_USEC``, or None when
    systemd did not ask for pings (or asked another process: ``$WATCHDOG_PID``)."""
    env = os.environ if env is None else env
    try:
        usec = int(env.get("WATCHDOG_USEC", ""))
    except ValueError:
        return None
    if usec <= 0:
        return None
    wanted_pid = env.get("WATCHDOG_PID")
    if wanted_pid and wanted_pid != str(os.getpid() if pid is None else pid):
        return None
    return usec / 2_000_000


def freeze_after(env: Mapping[str, str] | None = None) -> float | None:
    """Seconds after the first frame before the main loop freezes (``KIOSK_DEBUG_FREEZE_AFTER``)."""
    env = os.environ if env is None else env
    text = env.get(FREEZE_ENV, "").strip()
    if not text:
        return None
    try:
        seconds = float(text)
    except ValueError:
        log.warning("%s=%r is not a number of seconds; ignored", FREEZE_ENV, text)
        return None
    return max(seconds, 0.0)


class Notifier:
    """What :func:`attach` hooks onto an app: ready on the first frame, pings, freeze."""

    def __init__(self, env: Mapping[str, str] | None = None) -> None:
        self.env = dict(os.environ if env is None else env)
        self.interval = watchdog_interval(self.env)
        self.freeze = freeze_after(self.env)
        self.ready_sent = False
        self.pings = 0
        self._ping_event: Any = None

    @property
    def active(self) -> bool:
        return socket_address(self.env) is not None or self.freeze is not None

    # the app's events ------------------------------------------------------------
    def on_start(self, *_args: Any) -> None:
        from kivy.core.window import Window

        Window.bind(on_flip=self._first_frame)
        Window.canvas.ask_update()

    def on_stop(self, *_args: Any) -> None:
        if self._ping_event is not None:
            self._ping_event.cancel()
            self._ping_event = None
        notify("STOPPING=1\nSTATUS=Stopping", self.env)

    # internals -------------------------------------------------------------------
    def _first_frame(self, *_args: Any) -> None:
        from kivy.clock import Clock
        from kivy.core.window import Window

        Window.unbind(on_flip=self._first_frame)
        if self.ready_sent:
            return
        self.ready_sent = True
        notify("READY=1\nSTATUS=Running", self.env)
        if self.interval is not None:
            self._ping()
            self._ping_event = Clock.schedule_interval(self._ping, self.interval)
            log.info("systemd: watchdog pings every %.2f s from the main loop", self.interval)
        if self.freeze is not None:
            log.warning("systemd: %s is set, the main loop will freeze in %.1f s "
                        "(a diagnostic, never for production)", FREEZE_ENV, self.freeze)
            Clock.schedule_once(self._freeze, self.freeze)

    def _ping(self, *_args: Any) -> None:
        if notify("WATCHDOG=1", self.env):
            self.pings += 1

    def _freeze(self, *_args: Any) -> None:
        log.warning("systemd: %s, the main loop freezes now for %d s", FREEZE_ENV,
                    FREEZE_SECONDS)
        time.sleep(FREEZE_SECONDS)


def attach(app: Any, env: Mapping[str, str] | None = None) -> Notifier | None:
    """Hook systemd's notifications onto a Kivy ``App`` before ``app.run()``.

    Returns the :class:`Notifier`, or None (and changes nothing) when there is neither a
    ``$NOTIFY_SOCKET`` nor a freeze asked for.
    """
    notifier = Notifier(env)
    if not notifier.active:
        return None
    # Kivy keeps only weak references to bound methods: the app holds the notifier.
    app.systemd_notifier = notifier
    app.bind(on_start=notifier.on_start, on_stop=notifier.on_stop)
    return notifier
