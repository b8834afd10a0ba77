"""RAUC's pre-install handler (system.conf [handlers] pre-install, through
``/usr/local/libexec/solitaire-kiosk/rauc-pre-install``): the rules of ``kiosk update
check`` that RAUC itself does not know, enforced for every install, ``rauc install`` by
hand included. RAUC has verified the signature and mounted the bundle when it runs this.

* not older than the running system (RAUC's own ``min-bundle-version`` is a fixed floor,
  not "the running version");
* not while the running slot is on trial: RAUC would write the slot the firmware starts
  (the committed one), the only way back.

A refusal is one line, ``<< error ...``, which RAUC shows as the install's error.
"""

from __future__ import annotations

import configparser
import os
import sys
from collections.abc import Mapping
from pathlib import Path

from . import slots as slot_mod
from . import version as versions


def manifest_version(mount_point: Path) -> str:
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    parser.read_string((mount_point / "manifest.raucm").read_text(encoding="utf-8"))
    return parser.get("update", "version", fallback="")


def pre_install(env: Mapping[str, str], *, running: str | None = None,
                describe=slot_mod.describe) -> str | None:
    """None when the install may go on, else the reason."""
    mount = env.get("RAUC_BUNDLE_MOUNT_POINT")
    if not mount:
        return "RAUC gave no bundle mount point"
    try:
        wanted = versions.parse(manifest_version(Path(mount)))
    except (OSError, configparser.Error, versions.VersionError) as err:
        return f"the bundle has no kiosk version ({err})"
    running = running if running is not None else versions.running_version()
    now = versions.parse_or_none(running)
    if now is not None and wanted < now:
        return f"version {wanted} is older than the running {now}"
    try:
        slots = describe()
    except slot_mod.SlotError as err:
        return f"the slots cannot be read: {err}"
    if slots.on_trial:
        return (f"slot {slots.booted} runs on trial: commit it or restart before another "
                "update")
    return None


def main(argv: list[str]) -> int:
    if argv[:1] != ["pre-install"]:
        print("usage: python -m kiosk.updates.handlers pre-install", file=sys.stderr)
        return 2
    reason = pre_install(os.environ)
    if reason:
        print(f"<< error {reason}")
        return 1
    print("<< handler pre-install: the bundle may be installed")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
