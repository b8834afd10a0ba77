"""A stand-in for the ``lgpio`` module over made-up GPIO chips, for the chip-by-label path
(kiosk.platform.gpiochip) and gpiozero's LGPIOFactory on it, which MockFactory skips.

Each :class:`FakeChip` has a label, a number of lines, lines held by other drivers (their
consumer's name) and the level on each line; :meth:`FakeLgpio.drive` changes a level and
calls the callbacks lgpio would call from its thread. Only what the chip search, gpiozero's
LGPIOPin and its factory call is here; the real lgpio runs on the image (the QEMU boot test
presses a real line of the guest's kernel).
"""

from __future__ import annotations

import time
import types
from dataclasses import dataclass, field
from pathlib import Path


class error(Exception):  # noqa: N801 - lgpio's own name
    def __str__(self) -> str:
        return repr(self.args[0])


@dataclass
class FakeChip:
    label: str
    lines: int
    used: dict[int, str] = field(default_factory=dict)     # line -> consumer
    levels: dict[int, int] = field(default_factory=dict)   # driven from outside
    openable: bool = True


class _Callback:
    def __init__(self, owner: FakeLgpio, key: tuple[int, int]) -> None:
        self.owner, self.key = owner, key

    def cancel(self) -> None:
        self.owner.callbacks.pop(self.key, None)


class FakeLgpio(types.ModuleType):
    SET_PULL_NONE, SET_PULL_UP, SET_PULL_DOWN = 128, 32, 64
    SET_BIAS_DISABLE, SET_BIAS_PULL_UP, SET_BIAS_PULL_DOWN = 128, 32, 64
    RISING_EDGE, FALLING_EDGE, BOTH_EDGES = 1, 2, 3
    error = error

    def __init__(self, chips: dict[int, FakeChip], dev: Path) -> None:
        super().__init__("lgpio")
        self.chips = chips
        self.claimed: dict[tuple[int, int], int] = {}     # (chip, line) -> flags
        self.callbacks: dict[tuple[int, int], object] = {}
        self.open_handles: set[int] = set()
        dev.mkdir(parents=True, exist_ok=True)
        for n in chips:
            (dev / f"gpiochip{n}").touch()

    # chips
    def gpiochip_open(self, n: int) -> int:
        chip = self.chips.get(n)
        if chip is None:
            raise error("can not open gpiochip")
        if not chip.openable:
            raise error("no permission to update GPIO")
        self.open_handles.add(n)
        return n

    def gpiochip_close(self, handle: int) -> int:
        self.open_handles.discard(handle)
        for key in [k for k in self.claimed if k[0] == handle]:
            del self.claimed[key]
        return 0

    def gpio_get_chip_info(self, handle: int) -> list:
        chip = self.chips[handle]
        return [0, chip.lines, f"gpiochip{handle}", chip.label]

    def gpio_get_line_info(self, handle: int, line: int) -> list:
        chip = self.chips[handle]
        if not 0 <= line < chip.lines:
            raise error("bad GPIO number")
        held = line in chip.used or (handle, line) in self.claimed
        user = chip.used.get(line, "lg" if (handle, line) in self.claimed else "")
        return [0, line, 1 if held else 0, "", user]

    # lines
    def _line(self, handle: int, line: int) -> FakeChip:
        chip = self.chips[handle]
        if not 0 <= line < chip.lines:
            raise error("bad GPIO number")
        return chip

    def gpio_claim_input(self, handle: int, line: int, flags: int = 0) -> int:
        chip = self._line(handle, line)
        if line in chip.used:
            raise error("GPIO busy")
        self.claimed[(handle, line)] = flags
        return 0

    def gpio_claim_output(self, handle: int, line: int, level: int = 0, flags: int = 0) -> int:
        raise error("the buttons never drive a line")

    def gpio_free(self, handle: int, line: int) -> int:
        self.claimed.pop((handle, line), None)
        return 0

    def gpio_get_mode(self, handle: int, line: int) -> int:
        return self.claimed.get((handle, line), 0)

    def gpio_read(self, handle: int, line: int) -> int:
        """The driven level; an open line (a button not pressed) follows its bias."""
        chip = self._line(handle, line)
        if line in chip.levels:
            return chip.levels[line]
        return 0 if self.claimed.get((handle, line), 0) & self.SET_PULL_DOWN else 1

    def gpio_set_debounce_micros(self, handle: int, line: int, micros: int) -> int:
        return 0

    def gpio_claim_alert(self, handle: int, line: int, edges: int, flags: int = 0,
                         notify: int | None = None) -> int:
        self.claimed[(handle, line)] = flags
        return 0

    def callback(self, handle: int, line: int, edges: int, func) -> _Callback:
        self.callbacks[(handle, line)] = func
        return _Callback(self, (handle, line))

    # the world outside
    def drive(self, chip: int, line: int, level: int) -> None:
        """The level on a line changes (a press or a release): lgpio's alert."""
        self.chips[chip].levels[line] = level
        func = self.callbacks.get((chip, line))
        if func is not None:
            func(chip, line, level, time.monotonic_ns())
