"""Runs the real kiosk app headless (SDL's offscreen driver) and drives it by touches.

Kivy reads its environment when first imported, so it is configured here, before any test
module imports it. One app lives for the whole session (Kivy has one window per process);
the harness pumps frames itself instead of Kivy's main loop, which avoids kivy's async test
fixtures (broken with pytest 9, see the notes) and keeps every step deterministic.
"""

from __future__ import annotations

import time

import pytest

from kiosk import boot

boot.configure(boot.Screen(800, 480, headless=True), quiet=True)


class Harness:
    """The app under test plus ways to touch it."""

    def __init__(self, app) -> None:
        from kivy.base import EventLoop
        from kivy.core.window import Window

        self.app = app
        self.loop = EventLoop
        self.window = Window

    # ------------------------------------------------------------------ time
    def frames(self, n: int = 2) -> None:
        for _ in range(n):
            self.loop.idle()

    def wait(self, seconds: float) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            self.loop.idle()
            time.sleep(0.005)

    # ------------------------------------------------------------------ fingers
    def touch(self, x: float, y: float):
        from kivy.tests.common import UnitTestTouch

        return UnitTestTouch(x, y)

    def tap(self, x: float, y: float) -> None:
        t = self.touch(x, y)
        t.touch_down()
        self.frames(1)
        t.touch_up()
        self.frames(2)

    def tap_widget(self, widget) -> None:
        x, y = widget.to_window(widget.center_x, widget.center_y)
        self.tap(x, y)

    def drag(self, x0: float, y0: float, x1: float, y1: float, steps: int = 8) -> None:
        t = self.touch(x0, y0)
        t.touch_down()
        self.frames(1)
        for k in range(1, steps + 1):
            t.touch_move(x0 + (x1 - x0) * k / steps, y0 + (y1 - y0) * k / steps)
            self.frames(1)
        t.touch_up()
        self.frames(2)

    def key(self, key: int, codepoint: str | None = None) -> bool:
        return bool(self.window.dispatch("on_keyboard", key, 0, codepoint, []))

    # ------------------------------------------------------------------ screen
    def resize(self, w: int, h: int) -> None:
        if tuple(self.window.size) != (w, h):
            self.window.size = (w, h)
        self.frames(3)

    def screenshot(self, path) -> None:
        from kiosk.shots import capture

        done = []
        capture(path, done.append)
        for _ in range(20):
            self.frames(1)
            if done:
                return
        raise AssertionError("no frame was drawn")

    @property
    def table(self):
        return self.app.table

    def card_center(self, pile_id: str, index: int = -1) -> tuple[float, float]:
        view = self.table.view
        g = view.ctl.game
        i = g.index[pile_id]
        rects = view.geometry().card_rects(i, len(g.cards[i]), g.down[i])
        r = rects[index] if rects else view.geometry().base(i)
        # the visible strip of a covered card is its top part
        if rects and index not in (-1, len(rects) - 1):
            return r.x + r.w / 2, r.top - 6
        return r.x + r.w / 2, r.y + r.h / 2

    def reset(self, lang: str = "en", size: tuple[int, int] = (800, 480)) -> None:
        self.resize(*size)
        self.app.set_language(lang)
        self.app.table.close_sheet()
        self.app.show_welcome()
        self.frames(2)


@pytest.fixture(scope="session")
def kiosk():
    from kivy.base import runTouchApp

    from kiosk.app import KioskApp

    app = KioskApp(language="en", transitions=False, animate=False, autoplay=False)
    app._run_prepare()
    runTouchApp(embedded=True)
    harness = Harness(app)
    harness.frames(3)
    yield harness
    assert not app.keeper.errors, app.keeper.errors


@pytest.fixture
def ui(kiosk):
    """The session's app, back on the welcome screen in English at 800x480."""
    kiosk.reset()
    kiosk.app.keeper.errors.clear()
    yield kiosk
    assert not kiosk.app.keeper.errors, kiosk.app.keeper.errors


def pytest_collection_modifyitems(items) -> None:
    """A generous time limit for every UI test, so a hung frame loop fails instead of
    stalling CI (pytest-timeout)."""
    for item in items:
        if "tests/ui/" in str(item.fspath).replace("\\", "/") and \
                item.get_closest_marker("timeout") is None:
            item.add_marker(pytest.mark.timeout(180))
