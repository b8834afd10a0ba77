"""What the memory tests and their child processes share: resident memory as the kernel
counts it, the demo app a child starts, and reading the one JSON line a child prints.

A child is a fresh process because the figure is the process's RSS: the test session's own
app has drawn other things before. Nothing here imports Kivy at import time, so a child can
configure the headless screen first.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def rss_mb() -> float:
    """This process's resident memory in MB (0 where /proc does not say)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def start_demo(animate: bool, **pace: float):
    """The app headless at 800x480 (SDL offscreen, as the soak bench and the UI tests run
    it), its attract demo running with a seeded choice of moves; ``pace`` sets the demo's
    step, pause and won_pause before it starts. Returns the app."""
    from kiosk.platform import boot

    boot.configure(boot.Screen(800, 480, headless=True), quiet=True)
    from kivy.base import runTouchApp

    from kiosk.app import KioskApp

    app = KioskApp(language="en", transitions=False, animate=animate, autoplay=False)
    app._run_prepare()
    runTouchApp(embedded=True)
    demo = app.attract
    demo._rnd = random.Random(5)
    for name, value in pace.items():
        setattr(demo, name, value)
    demo.running = True
    app.sm.current = "attract"
    return app


def run_child(script: str, args: list[str], timeout: float) -> dict:
    """Run ``script`` (beside this file) in a fresh Python and return the last JSON line it
    printed; its stderr's end is the message when it fails or prints none."""
    proc = subprocess.run([sys.executable, str(HERE / script), *args], capture_output=True,
                          text=True, timeout=timeout)
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
    assert proc.returncode == 0 and lines, proc.stderr[-3000:]
    return json.loads(lines[-1])
