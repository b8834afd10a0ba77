"""A minimal Kivy app with kiosk.platform.systemd_notify attached, for test_watchdog.py.

It checks the notifier on its own, apart from the kiosk's screens: run it as
``python tests/platform/watchdog_app.py`` with SDL_VIDEODRIVER=offscreen, NOTIFY_SOCKET,
WATCHDOG_USEC and KIOSK_DEBUG_FREEZE_AFTER set.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_CONFIG", "1")
os.environ.setdefault("KIVY_NO_FILELOG", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from kivy.app import App  # noqa: E402
from kivy.uix.label import Label  # noqa: E402

from kiosk.platform import systemd_notify  # noqa: E402


class TinyApp(App):
    def build(self):
        return Label(text="watchdog test")


if __name__ == "__main__":
    app = TinyApp()
    systemd_notify.attach(app)
    app.run()
