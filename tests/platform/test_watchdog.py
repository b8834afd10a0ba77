"""The systemd watchdog sees a frozen screen, not only a dead process.

A real app process runs with SDL's offscreen driver, ``NOTIFY_SOCKET`` pointing at a datagram
socket bound here, ``WATCHDOG_USEC=1000000`` (pings every 0.5 s) and
``KIOSK_DEBUG_FREEZE_AFTER=4`` (the Kivy main loop sleeps 4 s after the first frame). The test
checks that READY=1 arrives, that WATCHDOG=1 pings come at the expected pace, and that they
stop after the freeze while the process is still alive: systemd (``WatchdogSec=``) would
then kill and restart it.
"""

from __future__ import annotations

import os
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

import pytest

from .conftest import REPO

INTERVAL = 0.5          # half of WATCHDOG_USEC=1000000
FREEZE_AFTER = 4.0
READY_TIMEOUT = 90.0    # a loaded 2-core CI machine, Mesa's software renderer


def _run_and_listen(cmd: list[str], tmp_path: Path) -> tuple[list[tuple[float, str]], bool, str]:
    """Start ``cmd`` under a fake systemd; return the (time, message) list, whether the
    process was still alive at the end, and its log."""
    name = f"solitaire-kiosk-watchdog-{os.getpid()}-{time.monotonic_ns()}"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind("\0" + name)  # an abstract socket, as systemd's own may be ("@...")
    sock.settimeout(0.1)
    config = tmp_path / "config.toml"
    config.write_text(f'[log]\ndata_dir = "{tmp_path / "data"}"\n')
    env = dict(os.environ, SDL_VIDEODRIVER="offscreen", NOTIFY_SOCKET="@" + name,
               WATCHDOG_USEC="1000000", KIOSK_DEBUG_FREEZE_AFTER=str(FREEZE_AFTER),
               KIVY_HOME=str(tmp_path / "kivy"), KIVY_NO_FILELOG="1",
               SOLITAIRE_KIOSK_CONFIG=str(config), GPIOZERO_PIN_FACTORY="mock",
               PYTHONPATH=str(REPO))
    env.pop("DISPLAY", None)
    env.pop("WAYLAND_DISPLAY", None)
    log_path = tmp_path / "app.log"
    messages: list[tuple[float, str]] = []
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(cmd, cwd=tmp_path, env=env, stdout=log, stderr=subprocess.STDOUT)
        try:
            start = time.monotonic()
            ready_at = None
            while True:
                now = time.monotonic()
                if ready_at is None and now - start > READY_TIMEOUT:
                    break
                # listen until well after the freeze: 4 s of pings, then 4 s of silence
                if ready_at is not None and now - ready_at > FREEZE_AFTER + 4.0:
                    break
                if proc.poll() is not None:
                    break
                try:
                    data = sock.recv(4096).decode()
                except TimeoutError:
                    continue
                stamp = time.monotonic()
                for line in data.splitlines():
                    messages.append((stamp, line))
                    if line == "READY=1" and ready_at is None:
                        ready_at = stamp
            alive = proc.poll() is None
        finally:
            proc.kill()
            proc.wait(timeout=30)
            sock.close()
    return messages, alive, log_path.read_text(errors="replace")[-4000:]


def _check_watchdog(messages: list[tuple[float, str]], alive: bool, log: str) -> None:
    ready = [t for t, m in messages if m == "READY=1"]
    assert ready, f"no READY=1 from the app (is systemd_notify.attach(app) wired?)\n{log}"
    assert len(ready) == 1, "READY=1 must be sent once"
    pings = [t for t, m in messages if m == "WATCHDOG=1"]
    assert pings and pings[0] >= ready[0], "pings start with READY=1"
    # The pace: one ping per half interval while the main loop runs (4 s: about 8 pings).
    assert len(pings) >= 5, f"only {len(pings)} pings in {FREEZE_AFTER} s\n{log}"
    gaps = [b - a for a, b in zip(pings[1:], pings[2:], strict=False)]
    assert 0.3 <= statistics.median(gaps) <= 0.8, f"ping gaps {gaps}"
    # The freeze: the pings stop about FREEZE_AFTER s after the first frame ...
    assert pings[-1] - ready[0] <= FREEZE_AFTER + 2 * INTERVAL, \
        f"pings went on after the freeze: {[round(p - ready[0], 2) for p in pings]}"
    # ... and stay away for the 4 s the test goes on listening, while the process is
    # alive: only the watchdog can tell that this kiosk is dead.
    assert alive, f"the app died instead of freezing\n{log}"


@pytest.mark.slow
@pytest.mark.timeout(240)
def test_frozen_kiosk_stops_pinging(tmp_path: Path):
    """The real app: ``python -m kiosk run --size 800x480``."""
    wired = [p for p in (REPO / "kiosk").rglob("*.py")
             if p.name != "systemd_notify.py" and "systemd_notify" in p.read_text()]
    if not wired:
        pytest.fail("kiosk run does not call systemd_notify.attach(app): add it before "
                    "app.run() in kiosk/commands/app.py (docs/platform.md, 'Watchdog')")
    messages, alive, log = _run_and_listen(
        [sys.executable, "-m", "kiosk", "run", "--size", "800x480"], tmp_path)
    _check_watchdog(messages, alive, log)


@pytest.mark.slow
@pytest.mark.timeout(240)
def test_frozen_tiny_app_stops_pinging(tmp_path: Path):
    """The notifier alone, on a minimal Kivy app (tests/platform/watchdog_app.py)."""
    messages, alive, log = _run_and_listen(
        [sys.executable, str(Path(__file__).with_name("watchdog_app.py"))], tmp_path)
    _check_watchdog(messages, alive, log)
