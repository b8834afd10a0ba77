"""An install: the bundle checked, ``rauc install`` run, its progress in the status file,
then (when asked) a restart into the new slot at a quiet moment.

RAUC does the writing: it marks the slot that is not running bad, writes the bundle's root
and boot images to it (each checked by dm-verity as it is read), runs the post-install
handler (the slot's cmdline.txt, the machine id) and asks the backend to try that slot at
the next ``reboot "0 tryboot"``. Nothing the running system boots from is touched, so a
power cut at any moment of it leaves the kiosk as it was (the next boot settles the status
file: :func:`kiosk.updates.commit.settle`).
"""

from __future__ import annotations

import fcntl
import re
import subprocess
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from games.engine.reason import Reason

from . import bundle as bundles
from . import slots as slot_mod
from . import status as status_mod
from .status import UpdateStatus
from .version import running_version

#: `rauc install`'s progress lines: "  40% Copying image to rootfs.1"
PROGRESS = re.compile(r"^\s*(\d{1,3})% (.*)$")
LOCK_NAME = "update.lock"
ON_TRIAL = ("this kiosk runs slot {slot} on trial; it must be committed (or the kiosk "
            "restarted) before another update")


class InstallError(Exception):
    """The install did not happen or did not finish; ``str()`` is the one line. The
    status file says the same (refused or failed)."""


@contextmanager
def locked(data_dir: Path) -> Iterator[None]:
    """One update at a time on a kiosk (the USB stick's and the centre's could meet)."""
    with open(data_dir / LOCK_NAME, "a") as fh:
        try:
            fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            raise InstallError("another update is being installed") from None
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def progress_lines(lines: Iterator[str]) -> Iterator[tuple[int | None, str]]:
    """(percent, message) of each line of ``rauc install`` (None: not a progress line)."""
    for raw in lines:
        line = raw.rstrip("\n")
        found = PROGRESS.match(line)
        if found:
            yield min(100, int(found.group(1))), found.group(2).strip()
        elif line.strip():
            yield None, line.strip()


def install(bundle: Path, data_dir: Path, *,
            describe: Callable[[], slot_mod.Slots] = slot_mod.describe,
            check: Callable[[Path], bundles.BundleInfo] = bundles.check,
            command: tuple[str, ...] = ("rauc", "install"),
            say: Callable[[str], None] = lambda _line: None) -> UpdateStatus:
    """Install ``bundle`` to the slot that is not running; the status file follows it."""
    bundle = Path(bundle)
    with locked(data_dir):
        st = UpdateStatus("checking", message=f"checking {bundle.name}", bundle=str(bundle),
                          from_version=running_version(), started=status_mod.now_iso())
        status_mod.save(data_dir, st)
        try:
            slots = describe()
            if slots.on_trial:
                raise bundles.BundleRefused(bundle.name, Reason(ON_TRIAL, slot=slots.booted))
            info = check(bundle)
        except (bundles.BundleRefused, slot_mod.SlotError) as err:
            st.state, st.message = "refused", str(err)
            status_mod.save(data_dir, st)
            raise InstallError(str(err)) from None
        st.state, st.version, st.slot, st.percent = "installing", info.version, slots.other, 0
        st.message = f"installing {info.version} to slot {slots.other}"
        status_mod.save(data_dir, st)
        say(st.message)
        last_error = ""
        last_write = 0.0
        try:
            proc = subprocess.Popen([*command, str(bundle)], stdout=subprocess.PIPE,
                                    stderr=subprocess.STDOUT, text=True, bufsize=1)
        except OSError as err:
            st.state, st.message = "failed", f"cannot run rauc: {err.strerror or err}"
            status_mod.save(data_dir, st)
            raise InstallError(st.message) from None
        assert proc.stdout is not None
        for percent, message in progress_lines(iter(proc.stdout.readline, "")):
            if percent is None:
                if message.startswith("LastError:"):
                    last_error = message.removeprefix("LastError:").strip()
                continue
            say(f"{percent:3d}% {message}")
            if percent != st.percent or time.monotonic() - last_write > 5:
                st.percent, st.message = percent, message
                status_mod.save(data_dir, st)
                last_write = time.monotonic()
        code = proc.wait()
        if code != 0:
            st.state = "failed"
            st.message = (f"the install of {info.version} failed: "
                          f"{last_error or f'rauc exited {code}'}; the kiosk runs as before")
            status_mod.save(data_dir, st)
            raise InstallError(st.message)
        st.state, st.percent = "installed", 100
        st.message = f"{info.version} is installed in slot {slots.other}"
        status_mod.save(data_dir, st)
        return st
