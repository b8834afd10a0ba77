"""The boot test's emulation-only kernel options (tests/platform/qemu_machine.py), checked
without QEMU: cheap, in `make test`, where the boot itself does not run."""

from __future__ import annotations

import base64
import re

from .conftest import SYSTEMD
from .qemu_machine import EMULATED_WATCHDOG_S, KIOSK_UNIT, emulated_boot_options
from .test_units import one, parse_unit


def seconds(text: str) -> int:
    """systemd's time spans as the unit and the drop-in write them: 120, 90s, 20min."""
    number, unit = re.fullmatch(r"(\d+)(s|min)?", text).groups()
    return int(number) * (60 if unit == "min" else 1)


def emulated_dropin() -> dict[str, str]:
    """The [Service] settings of the credential drop-in the emulated boots carry."""
    words = [w for w in emulated_boot_options().split()
             if w.startswith(f"systemd.set_credential_binary=systemd.unit-dropin.{KIOSK_UNIT}:")]
    assert len(words) == 1, "one kernel command line word (the kernel splits at spaces)"
    key, _, value = words[0].partition("=")
    assert key == "systemd.set_credential_binary"
    name, _, data = value.partition(":")
    assert name == f"systemd.unit-dropin.{KIOSK_UNIT}"
    lines = base64.b64decode(data, validate=True).decode().splitlines()
    assert lines[0] == "[Service]", lines
    return dict(line.partition("=")[::2] for line in lines[1:])


def test_emulated_boots_give_the_kiosk_a_longer_start_timeout_as_a_credential():
    timeout = emulated_dropin()["TimeoutStartSec"]
    own = one(parse_unit(SYSTEMD / KIOSK_UNIT), "Service", "TimeoutStartSec")
    # the app needed more than the unit's own 120 s to its first frame under TCG
    assert seconds(timeout) >= 5 * seconds(own), (timeout, own)


def test_emulated_boots_give_the_kiosk_a_longer_watchdog_and_nothing_else():
    dropin = emulated_dropin()
    assert set(dropin) == {"TimeoutStartSec", "WatchdogSec"}, dropin
    own = one(parse_unit(SYSTEMD / KIOSK_UNIT), "Service", "WatchdogSec")
    # under TCG the main loop went more than the unit's 30 s without a turn after READY=1
    assert seconds(dropin["WatchdogSec"]) == EMULATED_WATCHDOG_S >= 4 * seconds(own), dropin
