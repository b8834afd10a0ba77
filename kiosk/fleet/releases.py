"""The office's side of updates from the centre (``kiosk fleet release``): a release records
the version the office wants on all kiosks, a group or one kiosk, with what a kiosk needs
to fetch and check it (URL, size, sha256); halting and resuming a version; how a rollout is
going. The kiosk's side is :mod:`kiosk.updates.centre`; the tables are central migration
0011 (docs/updates.md, "From the centre").

A kiosk wants the newest release that reaches it. A staged rollout is two releases of one
bundle: first ``--group canary``, then (once the canary runs it) everyone. A rollback of a
release on any kiosk it reached halts that version for the whole fleet: no kiosk starts to
fetch or install it until ``kiosk fleet release --resume VERSION``.
"""

from __future__ import annotations

import json
import re
import subprocess
import tempfile
import urllib.parse
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kiosk.fleet.connect import FleetError
from kiosk.updates import download
from kiosk.updates import version as versions


@dataclass(frozen=True)
class Bundle:
    url: str
    version: str
    size: int
    sha256: str


def manifest_version(path: Path, keyring: Path | None = None) -> str:
    """The version in a bundle's manifest (RAUC's own reading of it). With ``keyring`` the
    signature is checked as a kiosk of that keyring would (``kiosk update check``); without
    it the manifest is read unchecked: the kiosk checks the signature before installing."""
    if keyring is not None:
        from kiosk.updates import bundle as bundles

        compatible = bundles.system_compatible() or "solitaire-kiosk-rpi-arm64"
        conf = bundles.host_conf(keyring, compatible)
        try:
            return bundles.check(path, conf=conf, compatible=compatible, running="").version
        except bundles.BundleRefused as err:
            raise FleetError(str(err), "config") from None
        finally:
            conf.unlink()
    try:
        proc = subprocess.run(["rauc", "info", "--no-verify", "--output-format=json",
                               str(path)], capture_output=True, text=True, timeout=300)
    except OSError as err:
        raise FleetError(f"cannot run rauc to read the bundle's version ({err.strerror or err}"
                         "; Debian package rauc), or give it with --version", "config"
                         ) from None
    except subprocess.TimeoutExpired:
        raise FleetError("rauc did not read the bundle in 5 minutes", "config") from None
    if proc.returncode != 0:
        from kiosk.updates.bundle import _rauc_reason

        raise FleetError(f"{path.name}: {_rauc_reason(proc.stderr)}", "config")
    try:
        version = json.loads(proc.stdout.strip().splitlines()[-1]).get("version") or ""
    except (ValueError, IndexError, AttributeError):
        raise FleetError(f"{path.name}: rauc gave no description of it", "config") from None
    return check_version_text(str(version))


def check_version_text(text: str) -> str:
    try:
        return str(versions.parse(text))
    except versions.VersionError as err:
        raise FleetError(f"the bundle's version: {err}", "config") from None


def check_sha256(text: str) -> str:
    value = text.strip().lower()
    if len(value) != 64 or any(c not in "0123456789abcdef" for c in value):
        raise FleetError(f"{text!r:.80} is not a sha256 (64 hexadecimal digits)", "config")
    return value


def describe(url: str, *, file: Path | None = None, sha256: str | None = None,
             size: int | None = None, version: str | None = None,
             keyring: Path | None = None, ca_file: Path | None = None,
             say: Any = lambda _line: None) -> Bundle:
    """What the release records about the bundle at ``url``: given (``sha256``, ``size``
    and ``version`` all three), read from a local copy (``file``), or fetched from the URL
    once, as a kiosk would."""
    try:
        download.check_url(url)
    except download.DownloadError as err:
        raise FleetError(str(err), "config") from None
    if sha256 is not None or size is not None:
        if sha256 is None or size is None or version is None:
            raise FleetError("--sha256, --size and --version go together (or neither: the "
                             "bundle is then fetched once to learn them)", "config")
        if not 0 < size <= download.MAX_SIZE:
            raise FleetError(f"--size {size} is not a bundle's size", "config")
        return Bundle(url, check_version_text(version), size, check_sha256(sha256))
    if file is not None:
        if not file.is_file():
            raise FleetError(f"--file: no such file {file}", "config")
        return _read(url, file, version, keyring)
    with tempfile.TemporaryDirectory(prefix="kiosk-release-") as tmp:
        # the URL's own file name, for the messages (only a plain name: never a path)
        name = urllib.parse.urlsplit(url).path.rsplit("/", 1)[-1]
        if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._+-]{0,200}", name):
            name = "bundle.raucb"
        local = Path(tmp) / name
        try:
            download.fetch_whole(url, local, ca_file=ca_file, say=say)
        except download.DownloadError as err:
            raise FleetError(f"cannot fetch the bundle: {err}", "config") from None
        return _read(url, local, version, keyring)


def _read(url: str, path: Path, version: str | None, keyring: Path | None) -> Bundle:
    found = manifest_version(path, keyring)
    if version is not None and check_version_text(version) != found:
        raise FleetError(f"--version {version} is not the bundle's version ({found})",
                         "config")
    return Bundle(url, found, path.stat().st_size, download.sha256_of(path))


# ------------------------------------------------------------------- the central side
def record(conn: Any, bundle: Bundle, scope: str, target: str | None) -> int:
    """Store the release; returns its id."""
    with conn.transaction():
        if scope == "kiosk" and not conn.execute(
                "SELECT 1 FROM kiosks WHERE name = %s AND retired IS NULL",
                (target,)).fetchone():
            raise FleetError(f"no kiosk named {target!r} in the central database "
                             "(`kiosk fleet add-kiosk`)", "config")
        return int(conn.execute(
            "INSERT INTO releases (version, url, size, sha256, scope, target)"
            " VALUES (%s, %s, %s, %s, %s, %s) RETURNING id",
            (bundle.version, bundle.url, bundle.size, bundle.sha256, scope, target)
        ).fetchone()[0])


@dataclass
class Halt:
    version: str
    halted: Any
    kiosk: str | None
    release_id: int | None
    reason: str


def halts(conn: Any) -> list[Halt]:
    """The versions halted now, newest first."""
    return [Halt(*r) for r in conn.execute(
        "SELECT version, halted, kiosk, release_id, reason FROM release_halts"
        " WHERE resumed IS NULL ORDER BY halted DESC")]


def halt(conn: Any, version: str, reason: str = "halted by the office") -> bool:
    """Halt ``version`` by hand; False when it was halted already."""
    version = check_version_text(version)
    with conn.transaction():
        return conn.execute(
            "INSERT INTO release_halts AS h (version, reason) VALUES (%s, %s)"
            " ON CONFLICT (version) DO UPDATE SET halted = now(), kiosk = NULL,"
            " release_id = NULL, reason = EXCLUDED.reason, resumed = NULL, resumed_by = NULL"
            " WHERE h.resumed IS NOT NULL", (version, reason)).rowcount == 1


def resume(conn: Any, version: str) -> tuple[bool, int]:
    """The office says go on: ``version`` is no longer halted, and its rollbacks so far
    are seen (``fleet status`` stops listing those kiosks). (was it halted, rollbacks
    acknowledged)."""
    version = check_version_text(version)
    with conn.transaction():
        lifted = conn.execute(
            "UPDATE release_halts SET resumed = now(), resumed_by = current_user"
            " WHERE version = %s AND resumed IS NULL", (version,)).rowcount == 1
        seen = conn.execute(
            "UPDATE release_rollbacks SET acknowledged = now() WHERE version = %s"
            " AND acknowledged IS NULL", (version,)).rowcount
    return lifted, int(seen)


@dataclass
class Progress:
    """A release and how far its kiosks are, from their newest heartbeats."""

    id: int
    version: str
    scope: str
    target: str | None
    created: Any
    kiosks: int = 0           # kiosks it reaches now (and wants: no newer release reaches)
    running: int = 0          # run its version
    installing: int = 0       # handed over, installed, waiting for their restart, on trial
    downloading: int = 0
    rolled_back: int = 0
    failed: int = 0           # gave up (a check, no room, refused, failed installs)
    halted: bool = False

    @property
    def waiting(self) -> int:
        return self.kiosks - self.running - self.installing - self.downloading \
            - self.rolled_back - self.failed


_PROGRESS = """
WITH wanted AS (
    SELECT DISTINCT ON (k.name) k.name, r.id
    FROM kiosks k JOIN releases r ON r.scope = 'all' OR (r.scope = 'group' AND r.target = k.grp)
                                  OR (r.scope = 'kiosk' AND r.target = k.name)
    WHERE k.retired IS NULL
    ORDER BY k.name, r.id DESC
), beats AS (
    SELECT w.id, h.* FROM wanted w
    LEFT JOIN LATERAL (SELECT system_version, update_state, update_version, download_state,
                              download_release
                       FROM heartbeats h WHERE h.kiosk = w.name
                       ORDER BY h.received DESC, h.id DESC LIMIT 1) h ON true
)
SELECT r.id, r.version, r.scope, r.target, r.created,
       count(b.id),
       count(b.id) FILTER (WHERE b.system_version = r.version),
       count(b.id) FILTER (WHERE b.system_version IS DISTINCT FROM r.version
                           AND b.update_version = r.version
                           AND b.update_state IN ('checking', 'installing', 'installed',
                                                  'rebooting', 'trying')),
       count(b.id) FILTER (WHERE b.system_version IS DISTINCT FROM r.version
                           AND b.download_state IN ('downloading', 'handed')
                           AND NOT (b.update_version = r.version AND b.update_state IN
                               ('checking', 'installing', 'installed', 'rebooting', 'trying',
                                'rolled-back'))),
       count(b.id) FILTER (WHERE b.system_version IS DISTINCT FROM r.version
                           AND b.update_version = r.version
                           AND b.update_state = 'rolled-back'),
       count(b.id) FILTER (WHERE b.system_version IS DISTINCT FROM r.version
                           AND b.download_state IN ('failed', 'no-room')
                           AND NOT (b.update_version = r.version
                                    AND b.update_state = 'rolled-back')),
       EXISTS (SELECT 1 FROM release_halts h WHERE h.version = r.version
               AND h.resumed IS NULL)
FROM releases r LEFT JOIN beats b ON b.id = r.id
GROUP BY r.id ORDER BY r.id DESC LIMIT %(limit)s
"""


def progress(conn: Any, limit: int = 20) -> list[Progress]:
    """The newest releases, each with the kiosks that want it now and where they are."""
    return [Progress(*row) for row in conn.execute(_PROGRESS, {"limit": limit})]


def describe_target(scope: str, target: str | None) -> str:
    return {"all": "all kiosks", "group": f"group {target}", "kiosk": f"kiosk {target}"
            }[scope]
