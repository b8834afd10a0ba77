"""Runs the real kiosk app headless (SDL's offscreen driver) and drives it by touches.

Kivy reads its environment when first imported, so it is configured here, before any test
module imports it. One app lives for the whole session (Kivy has one window per process);
the harness pumps frames itself instead of Kivy's main loop, which avoids kivy's async test
fixtures (broken with pytest 9, see the notes) and keeps every step deterministic.
"""

from __future__ import annotations

import time

import pytest

from kiosk.platform import boot

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
        from kiosk.screens.shots import capture

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
        self.app.visit_learnt.clear()  # each test a new visitor: first hands give tips
        self.app.show_welcome()
        self.frames(2)

    def sit(self, game_id: str, seed: int | None = None, options: dict | None = None):
        """Sit down at ``game_id`` (deal ``seed``) and let the table draw; (controller,
        game)."""
        ctl = self.app.open_game(game_id, seed, dict(options or {}))
        self.frames(2)
        return ctl, ctl.game

    def seasoned(self, *game_ids: str) -> None:
        """A visitor who has played a hand of these games this visit: no more tips."""
        for game_id in game_ids or ("gin_rummy", "follow_the_rules", "draw_poker"):
            self.app.learnt(game_id)

    def until(self, condition, seconds: float = 5.0) -> bool:
        """Pump frames until ``condition()`` holds (True) or the time is up (False)."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            if condition():
                return True
            self.loop.idle()
            time.sleep(0.005)
        return bool(condition())


class FakeRunner:
    """Stands in for ``systemctl``: records the commands, reboots nothing."""

    def __init__(self) -> None:
        self.commands: list[tuple[str, ...]] = []
        self.fail: str | None = None

    def __call__(self, argv):
        from kiosk.settings.operator import CommandResult

        self.commands.append(tuple(argv))
        return CommandResult(self.fail is None, self.fail or "")


#: the session app's configuration: one bad key (reported, default used), long timers so
#: no test is interrupted by the idle or attract timer unless it asks for them
SESSION_CONFIG = """
name = "Test lobby"
operator_pin = "4321"
idle_timeout = 86400
flavour = "vanilla"

[attract]
delay = 86400

[buttons]
new_deal_hold = 0.6
undo_pin = 99
"""


@pytest.fixture(scope="session")
def kiosk(tmp_path_factory):
    from gpiozero.pins.mock import MockFactory
    from kivy.base import runTouchApp

    from kiosk.app import KioskApp
    from kiosk.settings import config

    home = tmp_path_factory.mktemp("kiosk")
    path = home / "config.toml"
    path.write_text(SESSION_CONFIG + f'\n[log]\ndata_dir = "{home / "data"}"\n')
    cfg = config.load(path)
    factory = MockFactory()
    runner = FakeRunner()
    app = KioskApp(cfg=cfg, transitions=False, animate=False, autoplay=False, services=True,
                   data_dir=home / "data", pin_factory=factory, runner=runner)
    app._run_prepare()
    runTouchApp(embedded=True)
    harness = Harness(app)
    harness.pins = factory
    harness.runner = runner
    harness.config_path = path
    harness.frames(3)
    if app.catalog_reader is not None:  # read after the first frame: not under timed tests
        app.catalog_reader.join(60)
    yield harness
    assert not app.keeper.errors, app.keeper.errors
    app.lobby.stop()


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
