"""The GPIO chip the buttons are wired to, found by its label, and gpiozero's lgpio pin
factory on that chip.

A chip's number (``/dev/gpiochipN``) depends on the kernel and on the order its drivers
probed: a Pi 5's header was ``gpiochip4`` on its first kernels and ``gpiochip0`` later, and a
Pi 4 has a second chip (the firmware's expander) beside the header's. The label does not
change: ``pinctrl-rp1`` on a Pi 5, ``pinctrl-bcm2711`` on a Pi 4, ``pinctrl-bcm2835`` on
the Pi 3, Zero 2 W and older. ``[buttons] chip = "auto"`` looks for those three;
another label names any other chip (QEMU's ``virt`` board: ``9030000.pl061``).

The pins are the chip's line numbers. On the three header chips line *n* is BCM GPIO *n*,
so the config's BCM numbers need no table, and the same code drives a Pi and any other
board: gpiozero's :class:`~gpiozero.pins.lgpio.LGPIOFactory` opens the chip by the number
found here, and its board description is the chip's lines instead of the Pi's revision
table (which only a Pi has, and which would tie the buttons to ``gpiochip0``).

Every way of failing is a :class:`ButtonsUnavailable` with one sentence, in English for the
journal and as a :class:`~games.engine.reason.Reason` for the operator's Status page.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from games.engine.reason import Reason

AUTO = "auto"
#: the 40-pin header's chip on each Pi, newest first (a Pi 5 has a bcm2712 pinctrl too, but
#: its header is on RP1)
HEADER_LABELS = ("pinctrl-rp1", "pinctrl-bcm2711", "pinctrl-bcm2835")
#: GPIO_V2_LINE_FLAG_USED, as lgpio's gpio_get_line_info reports it (bit 0, "in use by the
#: kernel": another driver or another program holds the line)
LINE_USED = 1
DEV = Path("/dev")


class ButtonsUnavailable(Exception):
    """The buttons cannot work on this machine; ``reason`` says why (one sentence)."""

    def __init__(self, reason: Reason) -> None:
        super().__init__(str(reason))
        self.reason = reason


@dataclass(frozen=True)
class Chip:
    number: int     # N of /dev/gpiochipN
    label: str
    lines: int


def list_chips(lg: Any, dev: Path | None = None) -> tuple[list[Chip], list[str]]:
    """The GPIO chips of this machine, and one note per chip that could not be opened."""
    dev = DEV if dev is None else dev
    chips, notes = [], []
    numbers = sorted(int(m.group(1)) for p in dev.glob("gpiochip*")
                     if (m := re.fullmatch(r"gpiochip(\d+)", p.name)))
    for n in numbers:
        try:
            handle = lg.gpiochip_open(n)
        except Exception as err:  # noqa: BLE001 - lgpio.error, or the OS's
            notes.append(f"/dev/gpiochip{n}: {_text(err)}")
            continue
        try:
            _status, lines, _name, label = lg.gpio_get_chip_info(handle)
            chips.append(Chip(n, str(label), int(lines)))
        except Exception as err:  # noqa: BLE001
            notes.append(f"/dev/gpiochip{n}: {_text(err)}")
        finally:
            lg.gpiochip_close(handle)
    return chips, notes


def find_chip(wanted: str, chips: list[Chip], notes: Iterable[str] = ()) -> Chip:
    """The chip labelled ``wanted`` (``"auto"``: the Pi's header chip)."""
    labels = HEADER_LABELS if wanted == AUTO else (wanted,)
    for label in labels:
        for chip in chips:
            if chip.label == label:
                return chip
    seen = ", ".join(f"{c.label} (gpiochip{c.number})" for c in chips) or "none"
    problems = "; ".join(notes)
    if wanted == AUTO:
        reason = Reason("No Raspberry Pi GPIO header found (no chip labelled {labels}); "
                        "chips here: {chips}.", labels=" / ".join(HEADER_LABELS), chips=seen)
    else:
        reason = Reason("No GPIO chip labelled {label} (buttons.chip); chips here: {chips}.",
                        label=wanted, chips=seen)
    if problems:
        reason = Reason("{reason} Could not open: {problems}.", reason=reason,
                        problems=problems)
    raise ButtonsUnavailable(reason)


def check_lines(lg: Any, handle: int, chip: Chip, pins: dict[str, int]) -> None:
    """Every pin is a line of ``chip`` and free: not held by a kernel driver (a power key,
    an overlay's LED) or by another program."""
    for name, line in pins.items():
        if not 0 <= line < chip.lines:
            raise ButtonsUnavailable(Reason(
                "The {button} button's pin {pin} is not on {chip}, which has lines 0 to "
                "{last}.", button=_button(name), pin=line, chip=chip.label, last=chip.lines - 1))
        _status, _offset, flags, _line_name, user = lg.gpio_get_line_info(handle, line)
        if flags & LINE_USED:
            raise ButtonsUnavailable(Reason(
                "The {button} button's pin {pin} on {chip} is in use by {user}.",
                button=_button(name), pin=line, chip=chip.label,
                user=str(user) if user else Reason("another driver")))


def _button(name: str) -> Reason:
    """The button's name as the screen's own button says it (translated with the sentence)."""
    return Reason("New deal") if name == "new_deal" else Reason("Undo")


def _text(err: BaseException) -> str:
    """lgpio's errors print as repr() of their text: quotes off."""
    return str(err).strip("'\"")


def describe(err: BaseException) -> str:
    """An exception as a phrase: lgpio's own text ("GPIO busy"), else the type and text."""
    if type(err).__module__ == "lgpio" or type(err).__name__ == "error":
        return _text(err)
    return f"{type(err).__name__}: {err}"


def chip_board(chip: Chip) -> Any:
    """gpiozero's description of a board whose one header is ``chip``'s lines, line *n*
    named ``n``, ``"GPIOn"`` and ``"BCMn"`` (the Pi's numbering on its header chips)."""
    from gpiozero.pins import BoardInfo, HeaderInfo, PinInfo

    pins = {
        line + 1: PinInfo(number=line + 1, name=f"GPIO{line}",
                          names=frozenset({line, str(line), f"GPIO{line}", f"BCM{line}"}),
                          pull="", row=line + 1, col=1, interfaces=frozenset({"gpio"}))
        for line in range(chip.lines)
    }
    header = HeaderInfo(name=chip.label, rows=chip.lines, columns=1, pins=pins)
    return BoardInfo(revision="", model=chip.label, pcb_revision="", released="", soc="",
                     manufacturer="", memory=0, storage="", usb=0, usb3=0, ethernet=0,
                     eth_speed=0, wifi=False, bluetooth=False, csi=0, dsi=0,
                     headers={chip.label: header}, board="")


def open_factory(wanted: str, pins: dict[str, int], lg: Any = None,
                 dev: Path | None = None) -> Any:
    """gpiozero's lgpio pin factory on the chip labelled ``wanted``, its ``pins`` checked
    (``{"new_deal": 17, "undo": 27}``); :class:`ButtonsUnavailable` says why not."""
    if lg is None:
        try:
            lg = importlib.import_module("lgpio")
        except ImportError:
            raise ButtonsUnavailable(Reason(
                "The lgpio module is not installed (it is on the kiosk's SD card image, not "
                "on a desktop).")) from None
    chips, notes = list_chips(lg, dev)
    if not chips and not notes:
        raise ButtonsUnavailable(Reason("This machine has no GPIO chip (/dev/gpiochip*)."))
    chip = find_chip(wanted, chips, notes)
    from gpiozero.pins.lgpio import LGPIOFactory

    class ChipFactory(LGPIOFactory):
        """LGPIOFactory on the chip found by label, described by its own lines."""

        def __init__(self) -> None:
            super().__init__(chip=chip.number)
            self._info = chip_board(chip)   # PiFactory keeps the board here
            self.chip_label = chip.label

    try:
        factory = ChipFactory()
    except Exception as err:  # noqa: BLE001 - lgpio.error: permission, a vanished chip
        raise ButtonsUnavailable(Reason("Could not open the GPIO chip {chip} (gpiochip{n}): "
                                        "{error}.", chip=chip.label, n=chip.number,
                                        error=_text(err))) from None
    try:
        check_lines(lg, factory._handle, chip, pins)
    except BaseException:
        factory.close()
        raise
    return factory
