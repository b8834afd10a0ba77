"""``kiosk update serve``: the root side of the app's requests (solitaire-kiosk-update.service,
started by solitaire-kiosk-update.path when ``update.request`` appears): the install, then
the restart at a quiet moment (or at once, when the operator asks for it meanwhile)."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from functools import partial
from pathlib import Path

from . import quiet
from . import requests as req_mod
from . import status as status_mod
from .install import InstallError, install
from .reboot import reboot_into_update
from .window import open_now


def kiosk_running() -> bool:
    proc = subprocess.run(["systemctl", "is-active", "--quiet", "solitaire-kiosk.service"],
                          timeout=60)
    return proc.returncode == 0


def serve(data_dir: Path, usb_mount: Path, *, quiet_minutes: float = quiet.QUIET_MINUTES,
          say: Callable[[str], None] = print,
          install_fn: Callable[..., object] = install,
          reboot_fn: Callable[[Path], bool] = reboot_into_update,
          running: Callable[[], bool] = kiosk_running,
          wait: Callable[..., str] = quiet.wait_for_quiet,
          window: str | None = None, time_zone: str | None = None) -> int:
    """Do the pending request; 0 done (or none), 1 the install failed, 2 a bad request.
    ``window``/``time_zone``: the configuration's ``[updates]``, for "in-window" requests
    (the centre's)."""
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
    window = window if request.reboot == "in-window" else None
    allowed = partial(open_now, window, time_zone)
    if window is not None:
        st = status_mod.load(data_dir)
        if st is not None and st.state == "installed":
            st.message += (f"; restarts between {window.replace('-', ' and ')}"
                           f"{f' ({time_zone})' if time_zone else ''} when nobody is playing")
            status_mod.save(data_dir, st)
    if request.reboot in ("when-quiet", "in-window"):

        def asked() -> bool:
            # the operator's "Restart now" while we wait: a reboot request (any other
            # request stays where it is: the wait can last until the window, and an
            # install asked for meanwhile must not be lost)
            try:
                text = (data_dir / req_mod.REQUEST_NAME).read_text(encoding="utf-8")
                if req_mod.parse(text, data_dir, usb_mount).action != "reboot":
                    return False
                pending = req_mod.take(data_dir, usb_mount)
            except (OSError, req_mod.RequestError):
                return False
            return pending is not None and pending.action == "reboot"
        say(f"waiting for a quiet moment ({quiet_minutes:g} min without a visitor)"
            + (f" between {window} ({time_zone or 'local time'})" if window else ""))
        how = wait(running, minutes=quiet_minutes, interrupt=asked, allowed=allowed)
        say("the operator asked for the restart" if how == "asked" else "nobody is playing")
    if not reboot_fn(data_dir):
        say("the restart into the update did not start")
        return 1
    return 0
