"""The boot test's emulation-only kernel options (tests/platform/qemu_machine.py), checked
without QEMU: cheap, in `make test`, where the boot itself does not run."""

from __future__ import annotations

import base64
import re

from .conftest import SYSTEMD
from .qemu_machine import KIOSK_UNIT, emulated_boot_options
from .test_units import one, parse_unit


def seconds(text: str) -> int:
    """systemd's time spans as the unit and the drop-in write them: 120, 90s, 20min."""
    number, unit = re.fullmatch(r"(\d+)(s|min)?", text).groups()
    return int(number) * (60 if unit == "min" else 1)


def test_emulated_boots_give_the_kiosk_a_longer_start_timeout_as_a_credential():
    words = [w for w in emulated_boot_options().split() if "set_credential" in w]
    assert len(words) == 1, "one kernel command line word (the kernel splits at spaces)"
    key, _, value = words[0].partition("=")
    assert key == "systemd.set_credential_binary"
    name, _, data = value.partition(":")
    assert name == f"systemd.unit-dropin.{KIOSK_UNIT}"
    dropin = base64.b64decode(data, validate=True).decode()
    lines = dropin.splitlines()
    assert lines[0] == "[Service]" and len(lines) == 2, dropin
    key, _, timeout = lines[1].partition("=")
    assert key == "TimeoutStartSec"
    own = one(parse_unit(SYSTEMD / KIOSK_UNIT), "Service", "TimeoutStartSec")
    # the app needed more than the unit's own 120 s to its first frame under TCG
    assert seconds(timeout) >= 5 * seconds(own), (timeout, own)
