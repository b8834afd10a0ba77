"""Helpers of the update tests: throwaway signing keys and small signed bundles, made on
this machine with the product's own scripts (image-build/signing-keys.sh, bundle.sh)."""

from __future__ import annotations

import os
import shutil
import subprocess
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
    subprocess.run(["sh", str(REPO / "image-build/signing-keys.sh"), str(out), name],
                   check=True, capture_output=True, timeout=120)
    return out


@pytest.fixture(scope="session")
def keys(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """This office's CA (the kiosk's keyring) and signing key."""
    return make_keys(tmp_path_factory.mktemp("keys"), "Update tests")


@pytest.fixture(scope="session")
def other_keys(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Another office's: its bundles must be refused."""
    return make_keys(tmp_path_factory.mktemp("other-keys"), "Another office")


def small_bundle(out: Path, version: str, keys: Path, *, extra: bytes = b"") -> Path:
    """A signed verity bundle of a few hundred kB (a root with one file of noise, so the
    squashfs is not empty); the real root's bundle is the image build's."""
    need("rauc", "mksquashfs", "mke2fs", "mkfs.vfat", "mcopy")
    work = out.parent / f"{out.stem}-work"
    (work / "root").mkdir(parents=True, exist_ok=True)
    (work / "root/noise").write_bytes(os.urandom(200_000) + extra)
    (work / "cmdline.txt").write_text("console=tty3 root=LABEL=RASPIROOT rw rootwait\n")
    subprocess.run(["mke2fs", "-q", "-F", "-t", "ext4", "-d", str(work / "root"),
                    str(work / "rootfs.ext4"), "8M"], check=True)
    subprocess.run(["mkfs.vfat", "-C", str(work / "boot.vfat"), "8192"], check=True,
                   capture_output=True)
    subprocess.run(["mcopy", "-i", str(work / "boot.vfat"), str(work / "cmdline.txt"), "::"],
                   check=True)
    env = dict(os.environ, KIOSK_SIGNING_KEY=str(keys / "signing.key.pem"),
               KIOSK_SIGNING_CERT=str(keys / "signing.cert.pem"))
    proc = subprocess.run(["sh", str(REPO / "image-build/bundle.sh"), str(out), version,
                           str(work / "rootfs.ext4"), str(work / "boot.vfat")],
                          capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    shutil.rmtree(work)
    return out


def host_conf(path: Path, keyring: Path) -> Path:
    """A RAUC configuration with the kiosk's keyring rules, for checks on this machine."""
    path.write_text(f"[system]\ncompatible={COMPATIBLE}\nbootloader=noop\n[keyring]\n"
                    f"path={keyring}\ncheck-purpose=codesign\nuse-bundle-signing-time=true\n")
    return path
