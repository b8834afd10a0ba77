"""Helpers of the update tests: throwaway signing keys and small signed bundles, made on
this machine with the product's own scripts (image-build/signing-keys.sh, bundle.sh)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SYSTEMD = REPO / "systemd"
LIBEXEC = SYSTEMD / "libexec"
COMPATIBLE = "solitaire-kiosk-rpi-arm64"


def need(*tools: str) -> None:
    missing = [t for t in tools if shutil.which(t) is None]
    if missing:
        pytest.fail(f"missing {', '.join(missing)}: `make test` installs them from "
                    "tools/debian-packages.txt")


def make_keys(out: Path, name: str) -> Path:
    need("openssl")
    from tests.platform.update_steps import make_keys as make

    return make(out, name)


@pytest.fixture(scope="session")
def keys(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """This office's CA (the kiosk's keyring) and signing key."""
    return make_keys(tmp_path_factory.mktemp("keys"), "Update tests")


@pytest.fixture(scope="session")
def other_keys(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Another office's: its bundles must be refused."""
    return make_keys(tmp_path_factory.mktemp("other-keys"), "Another office")


def small_bundle(out: Path, version: str, keys: Path) -> Path:
    """A small signed bundle (tests/platform/update_steps.py)."""
    need("rauc", "mksquashfs", "mke2fs", "mkfs.vfat", "mcopy")
    from tests.platform.update_steps import small_bundle as make

    return make(out, version, keys)


def host_conf(path: Path, keyring: Path) -> Path:
    """A RAUC configuration with the kiosk's keyring rules, for checks on this machine."""
    path.write_text(f"[system]\ncompatible={COMPATIBLE}\nbootloader=noop\n[keyring]\n"
                    f"path={keyring}\ncheck-purpose=codesign\nuse-bundle-signing-time=true\n")
    return path
