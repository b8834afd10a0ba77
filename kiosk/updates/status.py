"""``update-status.json`` in the data directory: what the update is doing now, or how the
last one ended. The root-side parts (``kiosk update install``, ``commit``, ``serve``) write
it, atomically, readable by everyone; the kiosk's operator page and the fleet's sync pass
(the heartbeat: the last update's outcome) only read it.

States, in the order an update goes through them::

    checking -> installing (percent) -> installed (waiting for a quiet moment)
             -> rebooting -> trying (the new slot runs on trial) -> committed
                                                               \\-> rolled-back
    refused (the bundle was not accepted; nothing was written)
    failed (the install stopped; the running system is as it was)

``committed``, ``rolled-back``, ``refused`` and ``failed`` are final; a new update starts
again at ``checking``. A file left ``checking`` or ``installing`` by a power cut becomes
``failed`` at the next boot (:func:`kiosk.updates.commit.settle`).
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, fields
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from kiosk.platform.atomicfile import write_atomic

STATUS_NAME = "update-status.json"
STATES = ("checking", "installing", "installed", "rebooting", "trying", "committed",
          "rolled-back", "refused", "failed")
FINAL = ("committed", "rolled-back", "refused", "failed")
#: the states in which work is under way (a second install is refused meanwhile)
BUSY = ("checking", "installing", "installed", "rebooting", "trying")


def now_iso() -> str:
    return datetime.now(UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")


@dataclass
class UpdateStatus:
    state: str
    message: str = ""                  # one line for a person (the operator page shows it)
    percent: int | None = None         # installing: 0-100
    bundle: str | None = None          # where the bundle was read from
    version: str | None = None         # the bundle's version
    from_version: str | None = None    # the version that ran when the update started
    slot: str | None = None            # the slot written to (A or B)
    started: str | None = None         # UTC, ISO: when the update started
    updated: str | None = None         # UTC, ISO: this state's time

    @property
    def final(self) -> bool:
        return self.state in FINAL

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def path_in(data_dir: Path) -> Path:
    return data_dir / STATUS_NAME


def load(data_dir: Path) -> UpdateStatus | None:
    """The file's status; None when there is none or it cannot be read (never raises)."""
    try:
        data = json.loads(path_in(data_dir).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("state") not in STATES:
        return None
    known = {f.name for f in fields(UpdateStatus)}
    try:
        return UpdateStatus(**{k: v for k, v in data.items() if k in known})
    except TypeError:
        return None


def save(data_dir: Path, status: UpdateStatus) -> UpdateStatus:
    """Write ``status`` (its ``updated`` time set now); 0644: the app reads it."""
    status.updated = now_iso()
    write_atomic(path_in(data_dir), json.dumps(status.to_json(), indent=1) + "\n", mode=0o644)
    return status
