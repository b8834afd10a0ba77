"""How the kiosk app asks for an install or a restart without any privilege of its own.

The app runs as the ``kiosk`` user, sandboxed and cut off from the network
(docs/platform.md, "Hardening"); RAUC and the reboot need root. Like the operator's "Sync
now" (:mod:`kiosk.fleet.status_panel`), the app leaves a small JSON file,
``update.request``, in the data directory; ``solitaire-kiosk-update.path`` starts
``solitaire-kiosk-update.service`` (root), which takes the file away first thing
(:func:`take`) and does what it asks (``kiosk update serve``). The root side trusts nothing
in it: the action must be one of two, and the bundle must lie on the USB stick or in the
data directory's ``updates/`` folder (where the centre's download puts it).

A request, one of::

    {"action": "install", "bundle": "/media/usb/kiosk.raucb", "reboot": "when-quiet"}
    {"action": "install", "bundle": "/var/lib/solitaire-kiosk/updates/V.raucb",
     "reboot": "in-window"}        # the centre's download (kiosk/updates/centre.py)
    {"action": "reboot"}           # restart into the installed update now
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

from kiosk.platform.atomicfile import write_atomic

REQUEST_NAME = "update.request"
#: the centre's downloads (issue 33, item 6), in the data directory
DOWNLOADS = "updates"
#: "in-window": at a quiet moment inside the configuration's ``[updates] window`` (the
#: centre's downloads ask for it; without a window it is "when-quiet")
REBOOT_POLICIES = ("when-quiet", "in-window", "now", "no")


class RequestError(ValueError):
    """A request the root side refuses; one line."""


@dataclass(frozen=True)
class Request:
    action: str                       # "install" or "reboot"
    bundle: Path | None = None
    reboot: str = "when-quiet"


def allowed_roots(data_dir: Path, usb_mount: Path) -> tuple[Path, ...]:
    return (usb_mount, data_dir / DOWNLOADS)


def _write(data_dir: Path, data: dict) -> Path:
    path = data_dir / REQUEST_NAME
    write_atomic(path, json.dumps(data) + "\n", mode=0o644)
    return path


def request_install(data_dir: Path, bundle: Path, reboot: str = "when-quiet") -> Path:
    if reboot not in REBOOT_POLICIES:
        raise RequestError(f"reboot must be one of {', '.join(REBOOT_POLICIES)}")
    return _write(data_dir, {"action": "install", "bundle": str(bundle), "reboot": reboot})


def request_reboot(data_dir: Path) -> Path:
    return _write(data_dir, {"action": "reboot"})


def pending(data_dir: Path) -> bool:
    return (data_dir / REQUEST_NAME).exists()


def parse(text: str, data_dir: Path, usb_mount: Path) -> Request:
    try:
        data = json.loads(text)
    except ValueError:
        raise RequestError("the update request is not JSON") from None
    if not isinstance(data, dict):
        raise RequestError("the update request is not a JSON object")
    action = data.get("action")
    if action == "reboot":
        return Request("reboot")
    if action != "install":
        raise RequestError(f"unknown update request {action!r}")
    reboot = data.get("reboot", "when-quiet")
    if reboot not in REBOOT_POLICIES:
        raise RequestError(f"unknown reboot policy {reboot!r}")
    raw = data.get("bundle")
    if not isinstance(raw, str) or not raw:
        raise RequestError("the install request names no bundle")
    bundle = Path(os.path.realpath(raw))
    if not any(bundle.is_relative_to(os.path.realpath(root))
               for root in allowed_roots(data_dir, usb_mount)):
        raise RequestError(f"{raw}: bundles are installed from the USB stick or the "
                           "centre's downloads only")
    return Request("install", bundle, reboot)


def take(data_dir: Path, usb_mount: Path) -> Request | None:
    """The request, removed from the data directory (a request is done once, whatever
    happens next); None when there is none."""
    path = data_dir / REQUEST_NAME
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    try:
        path.unlink()
    except FileNotFoundError:
        pass
    return parse(text, data_dir, usb_mount)
