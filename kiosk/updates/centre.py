"""Updates from the centre, the kiosk's side: what each sync pass does with the release the
centre wants for it (``fleet_my_release()``, central migration 0011), after the play log
was sent (docs/updates.md, "From the centre").

The sync unit is the one with the network (the app has none, the root side that installs
has none either), so the pass downloads, for at most ``[updates] download_minutes``, into
``updates/`` of the data directory: resumable (:mod:`kiosk.updates.download`), free space
checked first, size and sha256 checked last. A whole, checked bundle is handed to the
install path of the USB stick (``update.request`` with ``"reboot": "in-window"``; the root
unit checks its signature, installs it with RAUC and restarts at a quiet moment, inside
the operator's window if there is one), and the next passes follow how that ended in
``update-status.json``.

What this pass remembers, in ``centre-update.json`` (written atomically, readable by all:
the operator's page may show it):

==============  ============================================================================
idle            no release for this kiosk
current         the release is the version running
skipped         older than the running version, or a version this kiosk rolled back (it
                does not try it by itself again: the office releases it to this kiosk
                alone, ``--kiosk NAME``, to ask for one more try)
halted          the office or a rollback halted the version; nothing more is fetched
waiting         another update is under way on this kiosk (a USB stick's)
downloading     part of the bundle is here (``bytes``); ``error``: why the last pass stopped
no-room         the data partition has no room for it (the play log comes first)
handed          checked and handed to the root unit, which installs it
done            the release runs (committed); its bundle was removed
rolled-back     it was tried and the kiosk came back on the old version
failed          given up on this release: the bundle failed its check three times, the
                kiosk refused it (signature, compatible, version), or its install failed
                three times; the office's next release (even of the same bundle) tries
                again
unsupported     not an A/B kiosk image (no IMAGE_VERSION): nothing is installed
==============  ============================================================================
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from kiosk.platform.atomicfile import write_atomic

from . import requests as req_mod
from . import status as status_mod
from . import version as versions

STATE_NAME = "centre-update.json"
#: checks of one bundle (or installs of it) that may fail before it is given up
MAX_ATTEMPTS = 3
#: a request the root unit has not answered after this long is made again
REQUEST_PATIENCE = 15 * 60
#: how many of this kiosk's past handovers are remembered (bundle path -> release)
KEEP_HANDED = 8


@dataclass(frozen=True)
class Release:
    """The centre's wanted version for this kiosk (one row of fleet_my_release())."""

    id: int
    version: str
    url: str
    size: int
    sha256: str
    scope: str
    halted: bool

    @property
    def key(self) -> tuple[str, str, int]:
        """The bundle itself: the same bytes under another release (the canary's, then
        everyone's) are the same download."""
        return (self.version, self.sha256, self.size)


@dataclass
class CentreState:
    state: str = "idle"
    release: int | None = None
    version: str | None = None
    url: str | None = None
    size: int | None = None
    sha256: str | None = None
    bytes: int = 0
    error: str | None = None
    attempts: int = 0
    etag: str | None = None
    bundle: str | None = None       # the checked bundle's path, once handed over
    handed: str | None = None       # UTC, ISO: when it was handed over
    handed_mono: float | None = None
    #: bundle path -> release id of this kiosk's handovers (the heartbeat's update_release)
    from_centre: dict[str, int] = field(default_factory=dict)
    #: version -> the release id it was rolled back from, on this kiosk
    rolled_back: dict[str, int] = field(default_factory=dict)
    updated: str | None = None

    @property
    def key(self) -> tuple[Any, Any, Any]:
        return (self.version, self.sha256, self.size)

    def forget_download(self) -> None:
        """Start afresh for another bundle; what the kiosk learnt stays."""
        keep = CentreState(from_centre=self.from_centre, rolled_back=self.rolled_back)
        self.__dict__.update(keep.__dict__)


def updates_dir(data_dir: Path) -> Path:
    return data_dir / req_mod.DOWNLOADS


def bundle_path(data_dir: Path, version: str) -> Path:
    return updates_dir(data_dir) / f"kiosk-{version}.raucb"


def part_path(data_dir: Path, version: str) -> Path:
    return updates_dir(data_dir) / f"kiosk-{version}.raucb.part"


def load(data_dir: Path) -> CentreState:
    try:
        data = json.loads((data_dir / STATE_NAME).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return CentreState()
    if not isinstance(data, dict):
        return CentreState()
    known = {f.name for f in fields(CentreState)}
    try:
        st = CentreState(**{k: v for k, v in data.items() if k in known})
        st.from_centre = {str(k): int(v) for k, v in dict(st.from_centre).items()}
        st.rolled_back = {str(k): int(v) for k, v in dict(st.rolled_back).items()}
        return st
    except (TypeError, ValueError):
        return CentreState()


def save(data_dir: Path, st: CentreState) -> CentreState:
    st.updated = status_mod.now_iso()
    write_atomic(data_dir / STATE_NAME, json.dumps(asdict(st), indent=1) + "\n", mode=0o644)
    return st


def _remove(path: Path | str | None) -> None:
    if path:
        try:
            Path(path).unlink()
        except FileNotFoundError:
            pass
        except OSError:
            pass  # the root side made it root's; it goes with the next release


def _clear_files(data_dir: Path, keep: tuple[Path, ...] = ()) -> None:
    """Remove downloads this kiosk no longer needs (space for the play log)."""
    folder = updates_dir(data_dir)
    if not folder.is_dir():
        return
    for entry in folder.iterdir():
        if entry.name.endswith((".raucb", ".raucb.part")) and entry not in keep:
            _remove(entry)


def booted_slot(cmdline: Path = Path("/proc/cmdline")) -> str | None:
    """The running slot (``rauc.slot=`` of the kernel's command line), None off the
    A/B image."""
    try:
        words = cmdline.read_text(encoding="ascii", errors="replace").split()
    except OSError:
        return None
    for word in words:
        if word.startswith("rauc.slot="):
            return word.split("=", 1)[1] or None
    return None


def running_version() -> str | None:
    return versions.running_version()


# ------------------------------------------------------------------- the root side's outcome
def follow(data_dir: Path, st: CentreState, *, mono: Callable[[], float] = time.monotonic
           ) -> None:
    """What the root side did with the bundle this kiosk handed over: installed and
    committed, rolled back, refused, failed (then handed over again, up to
    :data:`MAX_ATTEMPTS` times), or not taken yet."""
    if st.state != "handed" or not st.bundle:
        return
    upd = status_mod.load(data_dir)
    ours = upd is not None and upd.bundle == st.bundle and (
        not st.handed or not upd.started or upd.started >= st.handed)
    if not ours:
        waited = mono() - (st.handed_mono or 0.0)
        if req_mod.pending(data_dir) or 0 <= waited < REQUEST_PATIENCE:
            return
        _again(data_dir, st, "the update service did not take the request", mono)
        return
    assert upd is not None
    version = st.version or "the update"
    if upd.state == "committed":
        st.state, st.error = "done", None
        _remove(st.bundle)
    elif upd.state == "rolled-back":
        st.state, st.error = "rolled-back", upd.message
        if st.version and st.release is not None:
            st.rolled_back[st.version] = st.release
        _remove(st.bundle)
    elif upd.state == "refused":
        st.state, st.error = "failed", f"this kiosk refused {version}: {upd.message}"
        _remove(st.bundle)
    elif upd.state == "failed":
        _again(data_dir, st, upd.message, mono)


def follow_now(data_dir: Path) -> None:
    """:func:`follow` alone, before the pass's heartbeat: the root side's outcome (a
    commit, a rollback) is in the heartbeat of the pass that first sees it. Never raises."""
    try:
        st = load(data_dir)
        if st.state == "handed":
            follow(data_dir, st)
            save(data_dir, st)
    except (OSError, req_mod.RequestError):
        pass  # the pass's own step says it, later


def _again(data_dir: Path, st: CentreState, why: str, mono: Callable[[], float]) -> None:
    st.attempts += 1
    if st.attempts >= MAX_ATTEMPTS or not st.bundle or not Path(st.bundle).is_file():
        st.state, st.error = "failed", f"gave up after {st.attempts} attempts: {why}"
        _remove(st.bundle)
        return
    st.error = why
    _hand_over(data_dir, st, Path(st.bundle), mono)


def _hand_over(data_dir: Path, st: CentreState, bundle: Path,
               mono: Callable[[], float]) -> None:
    req_mod.request_install(data_dir, bundle, reboot="in-window")
    st.state, st.bundle = "handed", str(bundle)
    st.handed, st.handed_mono = status_mod.now_iso(), mono()
    if st.release is not None:
        st.from_centre[str(bundle)] = st.release
        while len(st.from_centre) > KEEP_HANDED:
            del st.from_centre[next(iter(st.from_centre))]


# ------------------------------------------------------------------- one pass
@dataclass
class Budget:
    """What one pass may spend on the download."""

    seconds: float
    keep_free: int
    ca_file: Path | None = None


def step(data_dir: Path, release: Release | None, budget: Budget, *,
         running: str | None = None, mono: Callable[[], float] = time.monotonic
         ) -> CentreState:
    """One pass's work on the release (None: the centre wants nothing for this kiosk).
    Never raises for what the network, the server or the card does: the state says it."""
    st = load(data_dir)
    try:
        follow(data_dir, st, mono=mono)
        _decide(data_dir, st, release, budget, running, mono)
    except (OSError, req_mod.RequestError) as err:
        st.error = f"cannot write in the data directory: {getattr(err, 'strerror', None) or err}"
    save(data_dir, st)
    return st


def _decide(data_dir: Path, st: CentreState, release: Release | None, budget: Budget,
            running: str | None, mono: Callable[[], float]) -> None:
    if st.state == "handed":
        return  # the root side has it; follow() reports how it ends
    if release is None:
        if st.state not in ("done", "rolled-back", "failed", "idle"):
            _clear_files(data_dir)
        st.forget_download()
        return
    if release.key != st.key:
        if st.state not in ("done", "rolled-back", "failed"):
            _clear_files(data_dir, keep=(part_path(data_dir, release.version),))
        st.forget_download()
        st.version, st.sha256, st.size = release.version, release.sha256, release.size
    elif st.state == "failed" and st.release is not None and release.id != st.release:
        st.state, st.attempts, st.error = "idle", 0, None  # released again: a new try
    st.release, st.url = release.id, release.url
    why = _not_now(data_dir, st, release, running)
    if why is not None:
        st.state, st.error = why
        if st.state in ("current", "skipped", "unsupported"):
            _clear_files(data_dir)
        return
    if st.state == "failed":
        return  # given up on this release; the office's next release is a new try
    _download(data_dir, st, release, budget, mono)


def _not_now(data_dir: Path, st: CentreState, release: Release, running: str | None
             ) -> tuple[str, str | None] | None:
    """(state, line) when this pass fetches nothing, else None."""
    if running is None:
        return ("unsupported", "not an A/B kiosk image (no IMAGE_VERSION in /etc/os-release): "
                "updates from the centre are not installed")
    try:
        wanted, now = versions.parse(release.version), versions.parse(running)
    except versions.VersionError as err:
        return ("unsupported", str(err))
    if wanted == now:
        return ("current", None)
    if wanted < now:
        return ("skipped", f"{release.version} is older than the running {running}")
    before = st.rolled_back.get(release.version)
    if before is not None:
        if not (release.scope == "kiosk" and release.id > before):
            if st.state == "rolled-back":
                return ("rolled-back", st.error)
            return ("skipped", f"{release.version} was rolled back on this kiosk (release "
                    f"{before}); it is not tried again unless released to this kiosk alone")
        if st.state == "rolled-back":  # the office asks this kiosk for one more try
            st.state, st.attempts = "idle", 0
    if st.state == "done":
        return ("done", None)  # committed: the running version only lags behind
    if st.state == "failed":
        return None
    if release.halted:
        return ("halted", f"{release.version} is halted at the office; nothing more is "
                "fetched until it is resumed")
    upd = status_mod.load(data_dir)
    if upd is not None and upd.state in status_mod.BUSY:
        return ("waiting", f"another update is under way ({upd.state}: {upd.message})")
    if req_mod.pending(data_dir):
        return ("waiting", "another update request waits for the update service")
    return None


def _download(data_dir: Path, st: CentreState, release: Release, budget: Budget,
              mono: Callable[[], float]) -> None:
    from . import download  # only a pass that downloads pays for urllib and http.client

    part = part_path(data_dir, release.version)
    final = bundle_path(data_dir, release.version)
    if final.is_file() and final.stat().st_size == release.size:
        os.replace(final, part)  # handed over once and taken back: check it again
    st.state, st.error = "downloading", None
    try:
        got = download.fetch(release.url, part, size=release.size,
                             deadline=mono() + budget.seconds, keep_free=budget.keep_free,
                             etag=st.etag, ca_file=budget.ca_file, clock=mono)
        st.bytes, st.etag = got.have, got.etag
        if not got.complete:
            return
        download.verify(part, release.sha256)
    except download.DownloadError as err:
        st.bytes = part.stat().st_size if part.is_file() else 0
        st.error = str(err)
        if err.etag:
            st.etag = err.etag
        if err.kind == "room":
            st.state, st.etag = "no-room", None
        elif err.kind in ("mismatch", "config"):
            st.attempts += 1
            st.etag = None
            if st.attempts >= MAX_ATTEMPTS or err.kind == "config":
                st.state = "failed"
                st.error = f"gave up after {st.attempts} attempts: {err}"
        return
    except OSError as err:
        st.error = f"cannot keep the download in {part.parent}: {err.strerror or err}"
        st.state = "no-room"
        return
    os.replace(part, final)
    st.bytes = release.size
    _hand_over(data_dir, st, final, mono)


# ------------------------------------------------------------------- the heartbeat's part
def heartbeat_fields(data_dir: Path) -> dict[str, Any]:
    """The heartbeat's update columns (central migration 0011); reads only, never raises."""
    st = load(data_dir)
    upd = status_mod.load(data_dir)
    out: dict[str, Any] = {
        "system_version": running_version(), "booted_slot": booted_slot(),
        "update_state": None, "update_version": None, "update_message": None,
        "update_release": None, "download_release": None, "download_state": None,
        "download_bytes": None, "download_error": None}
    if upd is not None:
        out.update(update_state=upd.state, update_version=upd.version,
                   update_message=upd.message or None,
                   update_release=st.from_centre.get(upd.bundle or ""))
    if st.release is not None:
        out.update(download_release=st.release, download_state=st.state,
                   download_bytes=st.bytes, download_error=st.error)
    return out


def summary(st: CentreState) -> str | None:
    """One line for ``kiosk sync``'s output, None when there is nothing to say."""
    from .download import mb

    if st.release is None or st.state in ("idle", "current"):
        return None
    if st.state == "downloading" and st.size:
        line = (f"update {st.version}: {mb(st.bytes)} of {mb(st.size)} "
                f"({100 * st.bytes // st.size}%)")
        return line + (f"; {st.error}" if st.error else "")
    return f"update {st.version}: {st.state}" + (f": {st.error}" if st.error else "")
