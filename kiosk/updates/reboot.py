"""The restart into an installed update: ``systemctl reboot --reboot-argument="0 tryboot"``
when RAUC asked for the other slot to be tried, which the Pi firmware does once (and the
QEMU harness of the tests does as the firmware would).

The argument goes in the option: systemd 257 (trixie) refuses the older positional form
``systemctl reboot "0 tryboot"`` with "Too many arguments", and the restart into every
installed update failed so, until the boot test ran one whole."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

from . import slots as slot_mod
from . import status as status_mod
from .version import running_version

TRYBOOT = "0 tryboot"


def reboot_command(slots: slot_mod.Slots) -> list[str] | None:
    """The command that starts what RAUC chose, None when nothing waits to be tried."""
    if slots.next and slots.next != slots.booted:
        return ["systemctl", "reboot", f"--reboot-argument={TRYBOOT}"]
    return None


def reboot_into_update(data_dir: Path, *,
                       describe: Callable[[], slot_mod.Slots] = slot_mod.describe,
                       run: Callable[[list[str]], object] = subprocess.run) -> bool:
    """Restart into the installed update; False when there is none, or the restart could
    not be started (the status says so, and stays "installed")."""
    slots = describe()
    cmd = reboot_command(slots)
    if cmd is None:
        return False
    st = status_mod.load(data_dir)
    if st is None or st.state != "installed":
        # installed by hand (`rauc install`): the next boot still needs the record
        version = slot_mod.slot_versions(slot_mod.rauc_status()).get(slots.next)
        st = status_mod.UpdateStatus("installed", version=version, slot=slots.next,
                                     from_version=running_version(),
                                     started=status_mod.now_iso())
    st.state = "rebooting"
    st.message = f"restarting into {st.version or 'the update'} (slot {slots.next})"
    status_mod.save(data_dir, st)
    code = getattr(run(cmd), "returncode", 0)
    if code:
        # still installed, and said so: "Restart now" (or the next quiet moment's request)
        # tries again, instead of a page that reads "Restarting…" for ever
        st.state = "installed"
        st.message = (f"{st.version or 'the update'} is installed in slot {slots.next}; "
                      f"the restart into it failed ({' '.join(cmd[:2])} exited {code})")
        status_mod.save(data_dir, st)
        return False
    return True
