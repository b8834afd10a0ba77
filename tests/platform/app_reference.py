"""The real app, headless, as the boot tests' reference scripts run it.

tests/platform/boot_reference.py (the boot test's welcome, picker and first table) and
tour_reference.py (the 512 MB tour) both draw what the image must show with the app itself,
with the image's config, at the screen's size: one place starts it and takes its pictures,
so the two references can never drift apart in how the app is set up.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any


def start_app(config_file: Path, size: tuple[int, int], prefix: str) -> Any:
    """The kiosk app with its services, running embedded (frames on demand), its data in a
    fresh temporary directory: no play of a previous run shows in its screens."""
    from kiosk.platform import boot

    boot.configure(boot.Screen(*size, headless=True), quiet=True)
    from gpiozero.pins.mock import MockFactory
    from kivy.base import runTouchApp

    from kiosk.app import KioskApp
    from kiosk.settings import config

    home = Path(tempfile.mkdtemp(prefix=prefix))
    app = KioskApp(cfg=config.load(config_file), transitions=False, animate=False,
                   autoplay=False, services=True, data_dir=home, pin_factory=MockFactory())
    app._run_prepare()
    runTouchApp(embedded=True)
    return app


def shot(path: Path, who: str) -> None:
    """The next frame as a PNG (the app's own renderer); ``who`` names the script when no
    frame comes."""
    from kivy.base import EventLoop

    from kiosk.screens.shots import capture

    done: list = []
    capture(path, done.append)
    for _ in range(60):
        EventLoop.idle()
        if done:
            return
    raise SystemExit(f"{who}: no frame for {path.name}")
