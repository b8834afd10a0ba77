"""A bundle checked before anything is written: RAUC verifies its signature against the
image's keyring (``rauc info``: for a verity bundle only the signed manifest is read, so a
check takes a second, not a read of the whole file), then this module compares its
``compatible`` with the system's and its version with the running system's.

Every refusal is one line that names the bundle and what is wrong with it, for the
operator's screen and for ``kiosk update check`` (status 2).
"""

from __future__ import annotations

import configparser
import json
import os
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from games.engine.reason import Reason

from . import version as versions

SYSTEM_CONF = Path("/etc/rauc/system.conf")


class BundleRefused(Exception):
    """The bundle may not be installed here. ``str()`` is the one line (English, for the
    command line and the status file): the bundle's name and :attr:`reason`, which the
    operator page shows in its own language (``app.tr_reason``)."""

    def __init__(self, name: str, reason: Reason) -> None:
        super().__init__(f"{name}: {reason}")
        self.name = name
        self.reason = reason


def _(text: str) -> str:
    """Marks a reason for the catalogs (tools/messages.py); the operator page translates it
    (``app.tr_reason``), the command line prints it as it is."""
    return text


#: why a bundle is refused
NO_FILE = _("no such file")
NOT_BUNDLE = _("not an update bundle (a .raucb file)")
DAMAGED = _("it is not a RAUC bundle, or it is damaged")
PLAIN = _("it is not a verity bundle (make it with `make bundle`)")
UNTRUSTED = _("it is not signed with a key this kiosk trusts")
NO_RAUC = _("this system cannot check update bundles (no RAUC)")
RAUC_FAILED = _("RAUC cannot read it: {error}")
SLOW = _("RAUC did not read it in 5 minutes")
OTHER_SYSTEM = _("made for {bundle}, not for this kiosk ({kiosk})")
NOT_A_VERSION = _("its version {version} is not a kiosk version")
OLDER = _("version {version} is older than the running {running}")


@dataclass(frozen=True)
class BundleInfo:
    path: Path
    compatible: str
    version: str
    description: str
    size: int
    #: the running system's version, and how the bundle's compares: "newer" or "same"
    running: str | None = None
    relation: str = "newer"

    def to_json(self) -> dict[str, Any]:
        return {"path": str(self.path), "compatible": self.compatible, "version": self.version,
                "description": self.description, "size": self.size, "running": self.running,
                "relation": self.relation}


def system_compatible(conf: Path = SYSTEM_CONF) -> str | None:
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    try:
        parser.read_string(conf.read_text(encoding="utf-8"))
    except (OSError, configparser.Error):
        return None
    return parser.get("system", "compatible", fallback=None)


def _rauc_reason(stderr: str) -> Reason:
    """RAUC's error as the part a person can act on (its "rauc-Message:" lines are its
    log, not the error)."""
    lines = [ln.strip() for ln in stderr.splitlines()
             if ln.strip() and "rauc-Message:" not in ln and "rauc-WARNING" not in ln]
    low = " ".join(lines).lower()
    if "invalid bundle" in low or "magic" in low or "too small" in low:
        return Reason(DAMAGED)
    if "plain" in low or ("format" in low and "not" in low and "allowed" in low):
        return Reason(PLAIN)
    if "signature" in low or "verif" in low or "certificate" in low or "issuer" in low:
        return Reason(UNTRUSTED)
    return Reason(RAUC_FAILED, error=lines[-1] if lines else "no message")


def inspect(path: Path, *, conf: Path | None = None, keyring: Path | None = None
            ) -> tuple[str, str, str]:
    """(compatible, version, description) of a bundle whose signature RAUC accepted."""
    name = path.name
    if not path.is_file():
        raise BundleRefused(name, Reason(NO_FILE))
    if path.suffix != ".raucb":
        raise BundleRefused(name, Reason(NOT_BUNDLE))
    cmd = ["rauc", "info", "--output-format=json"]
    if conf is not None:
        cmd += ["--conf", str(conf)]
    if keyring is not None:
        cmd += ["--keyring", str(keyring)]
    try:
        proc = subprocess.run([*cmd, str(path)], capture_output=True, text=True, timeout=300)
    except OSError:
        raise BundleRefused(name, Reason(NO_RAUC)) from None
    except subprocess.TimeoutExpired:
        raise BundleRefused(name, Reason(SLOW)) from None
    if proc.returncode != 0:
        raise BundleRefused(name, _rauc_reason(proc.stderr))
    try:
        # rauc prints its JSON as the last line (warnings may come before it)
        info = json.loads(proc.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        raise BundleRefused(name, Reason(RAUC_FAILED, error="no description")) from None
    return (str(info.get("compatible") or ""), str(info.get("version") or ""),
            str(info.get("description") or ""))


def check(path: Path, *, running: str | None = None, compatible: str | None = None,
          conf: Path | None = None, keyring: Path | None = None) -> BundleInfo:
    """The bundle, if this kiosk may install it; else :class:`BundleRefused`.

    ``running`` and ``compatible`` default to the system's (os-release, system.conf);
    ``conf``/``keyring`` point RAUC at another configuration (an office's computer)."""
    path = Path(path)
    bundle_compatible, bundle_version, description = inspect(path, conf=conf,
                                                            keyring=keyring)
    name = path.name
    want = compatible if compatible is not None else system_compatible(conf or SYSTEM_CONF)
    if want is not None and bundle_compatible != want:
        raise BundleRefused(name, Reason(OTHER_SYSTEM, bundle=bundle_compatible or "nothing",
                                         kiosk=want))
    try:
        new = versions.parse(bundle_version)
    except versions.VersionError:
        raise BundleRefused(name, Reason(NOT_A_VERSION, version=bundle_version)) from None
    running = running if running is not None else versions.running_version()
    relation = "newer"
    now = versions.parse_or_none(running)
    if now is not None and new < now:
        raise BundleRefused(name, Reason(OLDER, version=str(new), running=str(now)))
    if now is not None and new == now:
        relation = "same"
    return BundleInfo(path, bundle_compatible, bundle_version, description,
                      path.stat().st_size, running, relation)


def host_conf(keyring: Path, compatible: str) -> Path:
    """A RAUC configuration for checking a bundle away from the kiosk (an office's computer:
    ``kiosk update check --keyring``, ``kiosk fleet release --keyring``): the given keyring,
    the kiosk's rules for it (system.conf's check-purpose). The caller removes the file."""
    fd, name = tempfile.mkstemp(prefix="kiosk-rauc-", suffix=".conf")
    with os.fdopen(fd, "w") as fh:
        fh.write(f"[system]\ncompatible={compatible}\nbootloader=noop\n[keyring]\n"
                 f"path={keyring.resolve()}\ncheck-purpose=codesign\n"
                 "use-bundle-signing-time=true\n")
    return Path(name)
