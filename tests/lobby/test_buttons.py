"""kiosk.platform.buttons: debounce, hold-to-picker, hold-to-repeat, and no GPIO at all.

:class:`ButtonLogic` is tested with made-up times. :class:`Buttons` is tested on gpiozero's
MockFactory (``pin.drive_low()`` is a press: the buttons pull up). MockPin does not emulate
contact bounce, so bounce is made by driving the pin quickly; the times come from a fake
clock (``poll_thread=False``) except in the one test of the real polling thread.
"""

from __future__ import annotations

import sys
import threading
import time

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from kiosk.platform import buttons
from kiosk.platform.buttons import NEW_DEAL, PICKER, UNDO, ButtonLogic, Buttons


@pytest.fixture
def factory():
    old = Device.pin_factory
    Device.pin_factory = MockFactory()
    yield Device.pin_factory
    Device.pin_factory.reset()
    Device.pin_factory = old


class Rig:
    """Buttons on mock pins with a hand-moved clock."""

    def __init__(self, factory, **kw) -> None:
        self.t = 0.0
        self.events: list[str] = []
        self.buttons = Buttons(self.events.append, clock=lambda: self.t, poll_thread=False, **kw)
        self.factory = factory

    def at(self, t: float) -> Rig:
        self.t = t
        return self

    def press(self, pin: int) -> None:
        self.factory.pin(pin).drive_low()

    def release(self, pin: int) -> None:
        self.factory.pin(pin).drive_high()

    def poll_until(self, end: float, step: float = 0.02) -> None:
        while self.t < end - 1e-9:
            self.t = round(self.t + step, 6)
            self.buttons.poll()


# ---------------------------------------------------------------------------- pure logic
def test_logic_undo_repeats_at_a_steady_pace():
    b = ButtonLogic(debounce=0.05, undo_repeat_delay=0.8, undo_repeat_interval=0.4)
    assert b.edge(UNDO, True, 0.0) == [UNDO]
    fired = [t / 100 for t in range(1, 201) if b.poll(t / 100)]
    assert fired == [0.8, 1.2, 1.6, 2.0]
    assert b.edge(UNDO, False, 2.05) == [] and not b.busy()


def test_logic_a_late_poll_does_not_burst():
    b = ButtonLogic(undo_repeat_delay=0.8, undo_repeat_interval=0.4)
    b.edge(UNDO, True, 0.0)
    assert b.poll(5.0) == [UNDO]       # one, not ten
    assert b.poll(5.2) == [] and b.poll(5.4) == [UNDO]


def test_logic_new_deal_on_release_picker_on_hold():
    b = ButtonLogic(new_deal_hold=3.0)
    assert b.edge(NEW_DEAL, True, 0.0) == []
    assert b.poll(2.9) == []
    assert b.edge(NEW_DEAL, False, 2.95) == [NEW_DEAL]
    assert b.edge(NEW_DEAL, True, 10.0) == []
    assert b.poll(13.0) == [PICKER] and b.poll(14.0) == []
    assert b.edge(NEW_DEAL, False, 15.0) == []       # no deal after the picker


def test_logic_bounce_and_a_tap_shorter_than_the_debounce():
    b = ButtonLogic(debounce=0.05)
    assert b.edge(NEW_DEAL, True, 1.0) == []
    assert b.edge(NEW_DEAL, False, 1.01) == []       # bounce (or a very short tap)
    assert b.busy()
    assert b.poll(1.03, {NEW_DEAL: False, UNDO: False}) == []   # too early to trust
    assert b.poll(1.06, {NEW_DEAL: False, UNDO: False}) == [NEW_DEAL]  # it was a tap
    assert not b.busy()


def test_logic_a_stuck_undo_stops_repeating_until_released():
    """Jammed or leant on: Undo repeats for STUCK_AFTER, then nothing (the table can go idle),
    and the thread stops polling; a release and a new press work as ever."""
    b = ButtonLogic(undo_repeat_delay=0.8, undo_repeat_interval=0.4)
    assert b.stuck_after == buttons.STUCK_AFTER == 30.0
    events = b.edge(UNDO, True, 0.0)
    times = [0.0]
    for k in range(1, 6001):                       # a minute, polled every 10 ms
        t = k / 100
        if b.poll(t):
            times.append(t)
        if t == 29.99:
            assert b.busy() and b.stuck() == []
    assert times[-1] < 30.0 and len(times) == 1 + 73   # 0, then 0.8 to 29.6 every 0.4
    assert b.newly_stuck == [UNDO] and b.stuck() == [UNDO] and not b.busy()
    assert b.edge(UNDO, False, 61.0) == [] and b.stuck() == []
    assert b.edge(UNDO, True, 62.0) == [UNDO] and b.poll(62.8) == [UNDO]
    assert events == [UNDO] and b.presses == 2


def test_logic_new_deal_held_down_goes_to_the_picker_once_and_never_deals():
    b = ButtonLogic(new_deal_hold=3.0)
    b.edge(NEW_DEAL, True, 0.0)
    fired = [(k / 10, ev) for k in range(1, 1201) for ev in b.poll(k / 10)]
    assert fired == [(3.0, PICKER)]                  # two minutes held: one event
    assert b.stuck() == [NEW_DEAL] and not b.busy()
    assert b.edge(NEW_DEAL, False, 121.0) == []      # no deal on its release
    assert b.edge(NEW_DEAL, True, 122.0) == [] and b.edge(NEW_DEAL, False, 122.3) == [NEW_DEAL]


# ---------------------------------------------------------------------------- on mock pins
def test_press_undo_and_new_deal(factory):
    rig = Rig(factory)
    assert rig.buttons.available and rig.buttons.problem is None
    rig.press(27)
    assert rig.events == [UNDO]                      # at once, on press
    rig.at(0.2).release(27)
    rig.at(1.0).press(17)
    assert rig.events == [UNDO]                      # not yet: New deal acts on release
    rig.at(1.3).release(17)
    assert rig.events == [UNDO, NEW_DEAL]


def test_bouncing_contacts_give_one_press(factory):
    rig = Rig(factory, debounce_ms=50)
    for i, t in enumerate([0.0, 0.004, 0.009, 0.015, 0.022]):
        rig.at(t)
        rig.press(27) if i % 2 == 0 else rig.release(27)   # ends pressed
    rig.poll_until(0.3)
    assert rig.events == [UNDO]
    for i, t in enumerate([0.5, 0.503, 0.507, 0.512, 0.518]):   # release bounce, ends up
        rig.at(t)
        rig.release(27) if i % 2 == 0 else rig.press(27)
    rig.poll_until(0.7)
    assert rig.events == [UNDO] and not rig.buttons.logic.busy()
    rig.at(1.0).press(27)                                   # the next real press counts
    assert rig.events == [UNDO, UNDO]


def test_new_deal_bounce_deals_once(factory):
    rig = Rig(factory)
    for i, t in enumerate([0.0, 0.005, 0.01, 0.2, 0.205, 0.21, 0.214]):
        rig.at(t)
        rig.press(17) if i in (0, 2, 5) else rig.release(17)
    rig.poll_until(0.5)
    assert rig.events == [NEW_DEAL]


def test_holding_new_deal_goes_to_the_picker_and_does_not_deal(factory):
    rig = Rig(factory, new_deal_hold=3.0)
    rig.press(17)
    rig.poll_until(2.9)
    assert rig.events == []
    rig.poll_until(3.1)
    assert rig.events == [PICKER]
    rig.poll_until(6.0)
    rig.release(17)
    rig.poll_until(6.5)
    assert rig.events == [PICKER]


def test_holding_undo_repeats(factory):
    rig = Rig(factory, undo_repeat_delay=0.8, undo_repeat_interval=0.4)
    rig.press(27)
    rig.poll_until(2.1)
    rig.release(27)
    rig.poll_until(3.0)
    assert rig.events == [UNDO] * 5                  # 0, 0.8, 1.2, 1.6, 2.0


def test_a_stuck_button_is_said_once_in_the_journal(factory, caplog):
    rig = Rig(factory)
    with caplog.at_level("WARNING", logger="kiosk.buttons"):
        rig.press(27)
        rig.poll_until(40.0, step=0.1)
        rig.release(27)
        rig.poll_until(40.5)
    undos = rig.events.count(UNDO)
    assert undos == 74 and rig.events == [UNDO] * undos
    said = [r.getMessage() for r in caplog.records]
    assert said == ["the Undo button has been held down for 30 s: stuck? It does nothing "
                    "more until it is released"]


def test_both_buttons_at_once_are_independent(factory):
    rig = Rig(factory)
    rig.press(17)
    rig.at(0.1).press(27)
    rig.at(0.3).release(27)
    rig.poll_until(3.2)
    assert rig.events == [UNDO, PICKER]


def test_the_polling_thread_with_real_time(factory):
    got: list[str] = []
    seen = threading.Event()

    def dispatch(ev: str) -> None:                   # the app's Clock.schedule_once stand-in
        got.append(ev)
        if len(got) >= 4:
            seen.set()

    b = Buttons(dispatch, undo_repeat_delay=0.15, undo_repeat_interval=0.05, new_deal_hold=0.2)
    try:
        factory.pin(27).drive_low()
        assert seen.wait(5)
        factory.pin(27).drive_high()
        time.sleep(0.1)
        n = len(got)
        time.sleep(0.2)
        assert len(got) == n                         # released: no more repeats
        factory.pin(17).drive_low()
        deadline = time.monotonic() + 5
        while PICKER not in got and time.monotonic() < deadline:
            time.sleep(0.02)
        factory.pin(17).drive_high()
        time.sleep(0.1)
        assert got[:4] == [UNDO] * 4 and got[-1] == PICKER and NEW_DEAL not in got
    finally:
        b.close()
    assert not b.available and b.devices == {}


def test_a_failing_dispatch_does_not_break_the_buttons(factory):
    calls = []

    def bad(ev):
        calls.append(ev)
        raise RuntimeError("UI gone")

    b = Buttons(bad, poll_thread=False)
    factory.pin(27).drive_low()
    time.sleep(0.06)
    factory.pin(27).drive_high()
    time.sleep(0.06)
    factory.pin(27).drive_low()
    assert calls == [UNDO, UNDO]
    b.close()


# ---------------------------------------------------------------------------- no GPIO
def test_no_lgpio_at_all(monkeypatch, caplog):
    """A laptop or CI: no lgpio (the image has it); the kiosk carries on, says why once."""
    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    monkeypatch.setitem(sys.modules, "lgpio", None)   # `import lgpio` fails
    monkeypatch.setattr(buttons, "_warned", False)
    with caplog.at_level("INFO", logger="kiosk.buttons"):
        first = Buttons(lambda ev: None)
        second = Buttons(lambda ev: None)
    assert not first.available and not second.available
    assert "lgpio module is not installed" in first.problem
    assert first.reason.msgid.startswith("The lgpio module is not installed")
    warnings = [r for r in caplog.records if r.levelname == "WARNING"]
    assert len(warnings) == 1, warnings                               # said once
    assert "keys N and U" in warnings[0].getMessage()
    assert warnings[0].getMessage().count("\n") == 0                 # one line
    first.close()


def test_an_unplugged_or_busy_pin(factory, monkeypatch):
    """The factory works but a pin cannot be had (in use by another program, say)."""
    from gpiozero.exc import GPIOPinInUse

    real = factory.pin

    def pin(spec, *a, **kw):
        if spec in (27, "GPIO27", "BCM27"):
            raise GPIOPinInUse("pin 27 is already in use")
        return real(spec, *a, **kw)

    monkeypatch.setattr(factory, "pin", pin)
    b = Buttons(lambda ev: None, poll_thread=False)
    assert not b.available and "GPIOPinInUse" in b.problem
    assert b.devices == {}
    Buttons(lambda ev: None, poll_thread=False)     # pin 17 was released: no "in use"


def test_from_config():
    from kiosk.settings.config import load_text

    cfg = load_text("[buttons]\nnew_deal_pin = 5\nundo_pin = 6\ndebounce_ms = 20\n")
    f = MockFactory()
    b = Buttons.from_config(cfg.buttons, lambda ev: None, pin_factory=f, poll_thread=False)
    assert b.available and b.pins == {NEW_DEAL: 5, UNDO: 6}
    assert b.logic.debounce == 0.02
    b.close()
