"""``kiosk update serve``: the root side of the app's requests (solitaire-kiosk-update.service,
started by solitaire-kiosk-update.path when ``update.request`` appears): the install, then
the restart at a quiet moment (or at once, when the operator asks for it meanwhile)."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

from . import quiet
from . import requests as req_mod
from . import status as status_mod
from .install import InstallError, install
from .reboot import reboot_into_update


def kiosk_running() -> bool:
    proc = subprocess.run(["systemctl", "is-active", "--quiet", "solitaire-kiosk.service"],
                          timeout=60)
    return proc.returncode == 0


def serve(data_dir: Path, usb_mount: Path, *, quiet_minutes: float = quiet.QUIET_MINUTES,
          say: Callable[[str], None] = print,
          install_fn: Callable[..., object] = install,
          reboot_fn: Callable[[Path], bool] = reboot_into_update,
          running: Callable[[], bool] = kiosk_running,
          wait: Callable[..., str] = quiet.wait_for_quiet) -> int:
    """Do the pending request; 0 done (or none), 1 the install failed, 2 a bad request."""
    try:
        request = req_mod.take(data_dir, usb_mount)
    except req_mod.RequestError as err:
        say(f"update request refused: {err}")
        status_mod.save(data_dir, status_mod.UpdateStatus("refused", message=str(err)))
        return 2
    if request is None:
        return 0
    if request.action == "reboot":
        if not reboot_fn(data_dir):
            say("no installed update waits for a restart")
        return 0
    assert request.bundle is not None
    try:
        install_fn(request.bundle, data_dir, say=say)
    except InstallError as err:
        say(str(err))
        return 1
    if request.reboot == "no":
        return 0
    if request.reboot == "when-quiet":

        def asked() -> bool:
            # the operator's "Restart now" while we wait: a reboot request
            try:
                pending = req_mod.take(data_dir, usb_mount)
            except req_mod.RequestError:
                return False
            return pending is not None and pending.action == "reboot"
        say(f"waiting for a quiet moment ({quiet_minutes:g} min without a visitor)")
        how = wait(running, minutes=quiet_minutes, interrupt=asked)
        say("the operator asked for the restart" if how == "asked" else "nobody is playing")
    reboot_fn(data_dir)
    return 0
