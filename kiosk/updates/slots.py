"""Which slot runs, which one the firmware starts, and what each holds.

The truth about booting is the firmware's ``autoboot.txt``, read through RAUC's backend
(``rauc-tryboot describe``, the same script RAUC calls), so this module and RAUC can never
disagree; what each slot holds (the bundle's version, when it was installed) is RAUC's
(``rauc status --output-format=json --detailed``).
"""

from __future__ import annotations

import json
import os
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

BACKEND = Path(os.environ.get("SOLITAIRE_KIOSK_RAUC_BACKEND",
                              "/usr/local/libexec/solitaire-kiosk/rauc-tryboot"))
SLOTS = ("A", "B")
#: RAUC's name of each slot's root (system.conf)
ROOT_SLOT = {"A": "rootfs.0", "B": "rootfs.1"}


class SlotError(RuntimeError):
    """The slots cannot be read (not an A/B card, no bootfs partition); one line."""


@dataclass(frozen=True)
class Slots:
    booted: str                   # the running slot ("" when the command line names none)
    committed: str                # the slot the firmware starts
    tryboot: str                  # the slot `reboot "0 tryboot"` starts once
    next: str                     # the slot RAUC asked to try at the next reboot ("" none)
    states: dict[str, str] = field(default_factory=dict)   # slot -> good / bad

    @property
    def on_trial(self) -> bool:
        """The running slot was started once by tryboot and is not committed yet."""
        return bool(self.booted) and self.booted != self.committed

    @property
    def other(self) -> str:
        return "B" if self.booted == "A" else "A"


def parse_describe(text: str) -> Slots:
    values = dict(line.split("=", 1) for line in text.splitlines() if "=" in line)
    return Slots(booted=values.get("booted", ""), committed=values.get("committed", ""),
                 tryboot=values.get("tryboot", ""), next=values.get("next", ""),
                 states={s: values.get(f"state_{s}", "") for s in SLOTS})


def describe(backend: Path = BACKEND) -> Slots:
    try:
        proc = subprocess.run([str(backend), "describe"], capture_output=True, text=True,
                              timeout=60)
    except OSError as err:
        raise SlotError(f"cannot run {backend}: {err.strerror or err} (not an A/B image?)"
                        ) from None
    except subprocess.TimeoutExpired:
        raise SlotError(f"{backend} did not answer in 60 s") from None
    if proc.returncode != 0:
        last = (proc.stderr.strip().splitlines() or ["failed"])[-1]
        raise SlotError(last)
    slots = parse_describe(proc.stdout)
    if slots.committed not in SLOTS:
        raise SlotError(f"{backend} names no committed slot")
    return slots


def rauc_status() -> dict[str, Any]:
    """``rauc status`` as JSON, {} when RAUC cannot be asked (its message is logged by
    the caller's one line: this is for showing versions, never for deciding)."""
    try:
        proc = subprocess.run(["rauc", "status", "--detailed", "--output-format=json"],
                              capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired):
        return {}
    if proc.returncode != 0:
        return {}
    try:
        data = json.loads(proc.stdout)
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


def slot_versions(status: dict[str, Any]) -> dict[str, str]:
    """The version RAUC last installed in each slot (slot letter -> version); a slot the
    image laid out (A on a new card) has none."""
    out: dict[str, str] = {}
    for entry in status.get("slots") or []:
        if not isinstance(entry, dict):
            continue
        for info in entry.values():
            if not isinstance(info, dict) or info.get("class") != "rootfs":
                continue
            bundle = (info.get("slot_status") or {}).get("bundle") or {}
            version = bundle.get("version")
            bootname = info.get("bootname")
            if bootname in SLOTS and isinstance(version, str) and version:
                out[bootname] = version
    return out
