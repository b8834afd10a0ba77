"""The buttons' GPIO chip found by its label (kiosk.platform.gpiochip), through gpiozero's
LGPIOFactory, over a stand-in lgpio (tests/lobby/fake_lgpio.py): the Pi's header chips by
``"auto"``, another chip by its label, and every way of failing as one sentence with the
kiosk running on without buttons."""

from __future__ import annotations

import sys

import pytest
from gpiozero import Button, Device
from gpiozero.exc import PinInvalidPin
from gpiozero.pins.mock import MockFactory

from kiosk.platform import buttons, gpiochip
from kiosk.platform.buttons import NEW_DEAL, UNDO, Buttons
from kiosk.platform.gpiochip import (
    AUTO,
    ButtonsUnavailable,
    Chip,
    chip_board,
    find_chip,
    list_chips,
    open_factory,
)

from .fake_lgpio import FakeChip, FakeLgpio

PI4 = {0: FakeChip("pinctrl-bcm2711", 58), 1: FakeChip("raspberrypi-exp-gpio", 8)}
# a Pi 5 on a kernel that numbers RP1's chip 4, after the SoC's own chips
PI5 = {0: FakeChip("gpio-brcmstb@107d508500", 32), 1: FakeChip("gpio-brcmstb@107d508520", 15),
       4: FakeChip("pinctrl-rp1", 54), 10: FakeChip("gpio-brcmstb@107d517c00", 32)}


@pytest.fixture
def fake(tmp_path, monkeypatch):
    """Install a FakeLgpio over some chips as ``lgpio``; gpiozero's lgpio module is imported
    afresh with it. Returns a function chips -> the fake."""
    made = []

    def install(chips: dict[int, FakeChip]) -> FakeLgpio:
        lg = FakeLgpio(chips, tmp_path / f"dev{len(made)}")
        monkeypatch.setitem(sys.modules, "lgpio", lg)
        monkeypatch.delitem(sys.modules, "gpiozero.pins.lgpio", raising=False)
        monkeypatch.setattr(gpiochip, "DEV", tmp_path / f"dev{len(made)}")
        monkeypatch.setattr(Device, "pin_factory", None)
        monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
        made.append(lg)
        return lg

    yield install
    sys.modules.pop("gpiozero.pins.lgpio", None)   # not to be kept with a fake inside


def chips_of(spec: dict[int, FakeChip]) -> list[Chip]:
    return [Chip(n, c.label, c.lines) for n, c in sorted(spec.items())]


# ---------------------------------------------------------------------------- finding the chip
def test_auto_finds_each_pis_header_by_label_not_number():
    assert find_chip(AUTO, chips_of(PI4)) == Chip(0, "pinctrl-bcm2711", 58)
    assert find_chip(AUTO, chips_of(PI5)) == Chip(4, "pinctrl-rp1", 54)
    pi3 = {0: FakeChip("pinctrl-bcm2835", 54), 1: FakeChip("raspberrypi-exp-gpio", 8)}
    assert find_chip(AUTO, chips_of(pi3)).label == "pinctrl-bcm2835"
    assert find_chip("raspberrypi-exp-gpio", chips_of(PI4)) == Chip(1, "raspberrypi-exp-gpio", 8)


def test_a_missing_chip_names_what_is_there():
    with pytest.raises(ButtonsUnavailable) as auto:
        find_chip(AUTO, [Chip(0, "9030000.pl061", 8)])
    assert str(auto.value) == ("No Raspberry Pi GPIO header found (no chip labelled pinctrl-rp1 "
                               "/ pinctrl-bcm2711 / pinctrl-bcm2835); chips here: "
                               "9030000.pl061 (gpiochip0).")
    with pytest.raises(ButtonsUnavailable) as named:
        find_chip("pinctrl-rp1", chips_of(PI4), ["/dev/gpiochip7: no permission"])
    assert "No GPIO chip labelled pinctrl-rp1 (buttons.chip)" in str(named.value)
    assert "Could not open: /dev/gpiochip7: no permission." in str(named.value)
    assert named.value.reason.msgid == "{reason} Could not open: {problems}."


def test_list_chips_reads_every_gpiochip_and_notes_the_unopenable(tmp_path):
    spec = {0: FakeChip("pinctrl-bcm2711", 58), 2: FakeChip("locked", 4, openable=False)}
    lg = FakeLgpio(spec, tmp_path / "dev")
    (tmp_path / "dev/gpiochipX").touch()          # not a chip's node
    chips, notes = list_chips(lg, tmp_path / "dev")
    assert chips == [Chip(0, "pinctrl-bcm2711", 58)]
    assert notes == ["/dev/gpiochip2: no permission to update GPIO"]
    assert lg.open_handles == set()                # every one closed again


def test_the_chips_lines_are_the_pins_names():
    """Line n answers to n, "n", "GPIOn" and "BCMn", as BCM numbers do on the Pi's header
    chips; a line the chip lacks is no pin."""
    board = chip_board(Chip(0, "9030000.pl061", 8))

    class OnTheChip(MockFactory):
        def _get_board_info(self):
            return board

    f = OnTheChip()
    try:
        b = Button(3, pin_factory=f, bounce_time=None)
        assert f.pin("GPIO3") is b.pin and f.pin("BCM3") is b.pin
        b.pin.drive_low()
        assert b.is_pressed
        with pytest.raises(PinInvalidPin):
            Button(9, pin_factory=f)
    finally:
        f.close()


# ---------------------------------------------------------------------------- the factory
def test_buttons_on_the_header_chip_found_by_auto(fake):
    lg = fake(PI5)
    events: list[str] = []
    t = [0.0]
    b = Buttons(events.append, clock=lambda: t[0], poll_thread=False)
    try:
        assert b.available, b.problem
        assert b._factory.chip == 4 and b._factory.chip_label == "pinctrl-rp1"
        assert lg.claimed[(4, 17)] & lg.SET_PULL_UP and lg.claimed[(4, 27)] & lg.SET_PULL_UP
        lg.drive(4, 27, 0)                          # Undo pressed: low, wired to ground
        t[0] = 0.2
        lg.drive(4, 27, 1)
        t[0] = 1.0
        lg.drive(4, 17, 0)
        t[0] = 1.2
        lg.drive(4, 17, 1)
        assert events == [UNDO, NEW_DEAL]
    finally:
        b.close()
    assert lg.open_handles == set() and not lg.claimed


def test_buttons_on_another_chip_wired_to_3v3(fake):
    """QEMU's virt board: its PL061 by label, lines 3 and 4, pressed is high."""
    lg = fake({0: FakeChip("9030000.pl061", 8)})
    events: list[str] = []
    b = Buttons(events.append, chip="9030000.pl061", new_deal_pin=3, undo_pin=4, pull="down",
                poll_thread=False)
    try:
        assert b.available, b.problem
        assert lg.claimed[(0, 3)] & lg.SET_PULL_DOWN
        lg.drive(0, 4, 1)
        assert events == [UNDO]
    finally:
        b.close()


@pytest.mark.parametrize(("chips", "kw", "said"), [
    ({0: FakeChip("9030000.pl061", 8)}, {},
     "No Raspberry Pi GPIO header found (no chip labelled pinctrl-rp1 / pinctrl-bcm2711 / "
     "pinctrl-bcm2835); chips here: 9030000.pl061 (gpiochip0)."),
    ({}, {}, "This machine has no GPIO chip (/dev/gpiochip*)."),
    ({0: FakeChip("pinctrl-bcm2711", 58, openable=False)}, {},
     "No Raspberry Pi GPIO header found (no chip labelled pinctrl-rp1 / pinctrl-bcm2711 / "
     "pinctrl-bcm2835); chips here: none. Could not open: /dev/gpiochip0: no permission to "
     "update GPIO."),
    ({0: FakeChip("9030000.pl061", 8, used={3: "GPIO Key Poweroff"})},
     {"chip": "9030000.pl061", "new_deal_pin": 3, "undo_pin": 4},
     "The New deal button's pin 3 on 9030000.pl061 is in use by GPIO Key Poweroff."),
    ({0: FakeChip("9030000.pl061", 8)}, {"chip": "9030000.pl061"},
     "The New deal button's pin 17 is not on 9030000.pl061, which has lines 0 to 7."),
    ({0: FakeChip("pinctrl-bcm2711", 58, used={27: ""})}, {},
     "The Undo button's pin 27 on pinctrl-bcm2711 is in use by another driver."),
])
def test_each_failure_is_one_sentence_and_the_kiosk_runs_on(fake, caplog, monkeypatch,
                                                             chips, kw, said):
    lg = fake(chips)
    monkeypatch.setattr(buttons, "_warned", False)
    with caplog.at_level("INFO", logger="kiosk.buttons"):
        b = Buttons(lambda ev: None, poll_thread=False, **kw)
    assert not b.available and b.devices == {}
    assert str(b.reason) == said
    warnings = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert warnings == [f"hardware buttons not available: {said} The screen's New deal and "
                        "Undo (and the keys N and U) still work."]
    assert lg.open_handles == set(), "the chip was left open"
    b.close()


def test_a_line_taken_between_the_check_and_the_claim(fake):
    """Another program wins the race: lgpio's "GPIO busy" is the sentence."""
    lg = fake({0: FakeChip("pinctrl-bcm2711", 58)})
    real = lg.gpio_claim_input

    def claim(handle, line, flags=0):
        if line == 27:
            raise lg.error("GPIO busy")
        return real(handle, line, flags)

    lg.gpio_claim_input = claim
    b = Buttons(lambda ev: None, poll_thread=False)
    assert not b.available
    assert str(b.reason) == "The hardware buttons could not start: GPIO busy."
    assert lg.open_handles == set()


def test_open_factory_without_lgpio(monkeypatch):
    monkeypatch.setitem(sys.modules, "lgpio", None)
    with pytest.raises(ButtonsUnavailable, match="lgpio module is not installed"):
        open_factory(AUTO, {NEW_DEAL: 17, UNDO: 27})


def test_gpiozeros_own_factory_choice_is_kept(monkeypatch):
    """GPIOZERO_PIN_FACTORY (or a Device.pin_factory set before) is gpiozero's word: no chip
    search then."""
    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    monkeypatch.setattr(buttons, "open_factory", lambda *a: pytest.fail("searched for a chip"))
    b = Buttons(lambda ev: None, poll_thread=False)
    try:
        assert b.available and b._factory is None
    finally:
        b.close()
        if Device.pin_factory is not None:
            Device.pin_factory.close()
