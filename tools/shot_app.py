"""What the screenshot scripts share: the real kiosk app headless in a temporary home, its
frames pumped by hand, and a picture saved from what its window shows.

The scripts call ``boot.configure`` first (Kivy reads the screen when first imported), so
nothing here imports Kivy or the app before it is called.
"""

from __future__ import annotations

import tempfile
from pathlib import Path


def temporary_home(prefix: str, before_log: str = "", after_log: str = "") -> Path:
    """A fresh data directory holding a config.toml that logs there; ``before_log`` and
    ``after_log`` are TOML written around its ``[log]`` table."""
    home = Path(tempfile.mkdtemp(prefix=prefix))
    (home / "config.toml").write_text(f'{before_log}[log]\ndata_dir = "{home}"\n{after_log}')
    return home


def start_app(home: Path, services: bool, **app_args):
    """The app on ``home``'s config, without transitions, animations or autoplay (a picture
    shows a settled screen), with mock GPIO pins, running embedded: the caller draws its
    frames with :func:`frames`. ``app_args`` go to KioskApp (a prepared play log)."""
    from gpiozero.pins.mock import MockFactory
    from kivy.base import runTouchApp

    from kiosk.app import KioskApp
    from kiosk.settings import config

    app = KioskApp(cfg=config.load(home / "config.toml"), transitions=False, animate=False,
                   autoplay=False, services=services, data_dir=home,
                   pin_factory=MockFactory(), **app_args)
    app._run_prepare()
    runTouchApp(embedded=True)
    return app


def frames(n: int = 3) -> None:
    """Draw ``n`` frames."""
    from kivy.base import EventLoop

    for _ in range(n):
        EventLoop.idle()


def shot(path: Path, say: bool = True) -> None:
    """Save the next frame the window draws to ``path`` (printing the path if ``say``);
    exit with a message naming the picture if none comes within 30 frames."""
    from kiosk.screens.shots import capture

    done: list = []
    capture(path, done.append)
    for _ in range(30):
        frames(1)
        if done:
            if say:
                print(path)
            return
    raise SystemExit(f"no frame for {path}")
