"""What the operator page "Software update" shows about a USB stick: the update bundles on
it (``*.raucb`` in its top folder) and, for the one it offers, whether this kiosk may
install it. The check is :func:`kiosk.updates.bundle.check` (RAUC verifies the signature
against the image's keyring), run by the app itself as the kiosk user: ``rauc info`` of a
verity bundle reads only the signed manifest, so it needs no privilege and takes a second.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from . import bundle as bundles
from . import version as versions


@dataclass(frozen=True)
class Offer:
    """The stick's bundle: ``info`` when it may be installed, else ``refusal`` (one line)."""
    path: Path
    info: bundles.BundleInfo | None = None
    refusal: str | None = None

    @property
    def installable(self) -> bool:
        """Newer than the running system (the same version is not offered again here)."""
        return self.info is not None and self.info.relation == "newer"


def find_bundles(mount: Path) -> list[Path]:
    """The ``.raucb`` files in the stick's top folder (never raises)."""
    try:
        return sorted(p for p in mount.iterdir() if p.suffix == ".raucb" and p.is_file())
    except OSError:
        return []


def offer(mount: Path, *, check: Callable[[Path], bundles.BundleInfo] = bundles.check
          ) -> Offer | None:
    """The bundle the page offers: of those on the stick that may be installed, the
    newest; when none may, the first one with its reason; None without any bundle."""
    found = find_bundles(mount)
    if not found:
        return None
    good: list[bundles.BundleInfo] = []
    refused: list[Offer] = []
    for path in found:
        try:
            good.append(check(path))
        except bundles.BundleRefused as err:
            refused.append(Offer(path, refusal=str(err)))
    if good:
        best = max(good, key=lambda info: versions.parse(info.version))
        return Offer(best.path, info=best)
    return refused[0]
