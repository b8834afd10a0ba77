"""Every shell script passes shellcheck; the boot helpers do what the units expect of them.

The helpers run here against stand-ins: a fake /sys for the DRM card choice, stand-in
mount/blkid/findmnt commands for the USB stick, a scratch cmdline.txt for the seal, a small
image file for the data partition.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from .conftest import IMAGE_BUILD, REPO, SYSTEMD, need

SKIP_DIRS = {".git", ".venv", "venv", "build", "dist", "node_modules", "__pycache__", "work",
             "deploy", ".pytest_cache", ".ruff_cache", ".hypothesis", ".benchmarks"}
SHELLS = ("#!/bin/sh", "#!/bin/bash", "#!/usr/bin/env bash", "#!/usr/bin/env sh")


def shell_scripts() -> list[Path]:
    found = []
    for dirpath, dirnames, filenames in os.walk(REPO):
        dirnames[:] = [d for d in dirnames if d not in SKIP_DIRS]
        for name in filenames:
            path = Path(dirpath, name)
            if name.endswith(".sh"):
                found.append(path)
                continue
            try:
                with open(path, "rb") as fh:
                    first = fh.readline(64).decode("ascii", "replace")
            except OSError:
                continue
            if first.startswith(SHELLS):
                found.append(path)
    return sorted(found)


def test_every_shell_script_passes_shellcheck():
    need("shellcheck")
    scripts = shell_scripts()
    names = {p.relative_to(REPO).as_posix() for p in scripts}
    assert {"systemd/libexec/drm-device", "image-build/debian/build-image.sh", ".ci/run"} <= names
    proc = subprocess.run(["shellcheck", "--shell=bash", "--severity=style",
                           *[str(p) for p in scripts if _is_bash(p)]],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    posix = [str(p) for p in scripts if not _is_bash(p)]
    proc = subprocess.run(["shellcheck", "--shell=sh", "--severity=style", *posix],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def _is_bash(path: Path) -> bool:
    first = path.read_text(errors="replace").split("\n", 1)[0]
    return "bash" in first or (path.suffix == ".sh" and not first.startswith("#!/bin/sh"))


# ---------------------------------------------------------------- drm-device (ExecStartPre)
DRM = SYSTEMD / "libexec/drm-device"


def fake_sysfs(tmp_path: Path, connectors: dict[str, str]) -> Path:
    sysfs = tmp_path / "sys"
    drm = sysfs / "class/drm"
    drm.mkdir(parents=True)
    for card in {name.split("-")[0] for name in connectors} | {"renderD128"}:
        (drm / card).mkdir(exist_ok=True)
    for name, status in connectors.items():
        (drm / name).mkdir()
        (drm / name / "status").write_text(status + "\n")
    return sysfs


def run_drm(tmp_path: Path, connectors: dict[str, str], **env: str) -> tuple[str, str]:
    sysfs = fake_sysfs(tmp_path, connectors)
    out = tmp_path / "run" / "display.env"
    out.parent.mkdir()
    full_env = {k: v for k, v in os.environ.items() if k != "SDL_KMSDRM_DEVICE_INDEX"}
    proc = subprocess.run([str(DRM), str(out)], env=full_env | {
        "SOLITAIRE_KIOSK_SYSFS": str(sysfs), **env}, capture_output=True, text=True, timeout=30)
    assert proc.returncode == 0, proc.stderr
    assert not (tmp_path / "run" / "display.env.tmp").exists()
    return out.read_text(), proc.stderr


def test_pi5_dsi_panel_wins_over_hdmi(tmp_path: Path):
    """Pi 5 with Touch Display 2: the RP1 DSI card may come after the vc4 HDMI card."""
    text, log = run_drm(tmp_path, {"card1-HDMI-A-1": "connected",
                                   "card1-HDMI-A-2": "disconnected",
                                   "card2-DSI-1": "connected"})
    assert text == "SDL_KMSDRM_DEVICE_INDEX=2\n"
    assert "card2-DSI-1" in log


def test_hdmi_screen_when_no_panel(tmp_path: Path):
    text, _ = run_drm(tmp_path, {"card0-HDMI-A-1": "disconnected",
                                 "card1-HDMI-A-2": "connected", "card2-DSI-1": "disconnected"})
    assert text == "SDL_KMSDRM_DEVICE_INDEX=1\n"


def test_no_display_leaves_sdl_to_probe(tmp_path: Path):
    text, log = run_drm(tmp_path, {"card1-HDMI-A-1": "disconnected"})
    assert text == ""
    assert "no connected display" in log


def test_operator_override_is_kept(tmp_path: Path):
    text, _ = run_drm(tmp_path, {"card2-DSI-1": "connected"}, SDL_KMSDRM_DEVICE_INDEX="0")
    assert text == "SDL_KMSDRM_DEVICE_INDEX=0\n"


# ---------------------------------------------------------------- usb-stick (udev + unit)
USB = SYSTEMD / "libexec/usb-stick"

STAND_INS = {
    # findmnt -n -o SOURCE --mountpoint M: what the test says is mounted there
    "findmnt": 'cat "$FAKE/mounted" 2>/dev/null || true',
    "blkid": 'cat "$FAKE/fstype"',
    "id": 'case "$1" in -u) echo 1001;; -g) echo 1002;; esac',
    "mount": 'echo "mount $*" >> "$FAKE/calls"',
    "umount": 'echo "umount $*" >> "$FAKE/calls"',
    "sync": 'true',
}


def run_usb(tmp_path: Path, *args: str, fstype: str = "vfat",
            mounted: str | None = None) -> tuple[subprocess.CompletedProcess, list[str]]:
    fake = tmp_path / "fake"
    bin_dir = fake / "bin"
    bin_dir.mkdir(parents=True, exist_ok=True)
    for name, body in STAND_INS.items():
        (bin_dir / name).write_text(f"#!/bin/sh\n{body}\n")
        (bin_dir / name).chmod(0o755)
    (fake / "fstype").write_text(fstype + "\n")
    if mounted:
        (fake / "mounted").write_text(mounted + "\n")
    env = dict(os.environ, PATH=f"{bin_dir}:{os.environ['PATH']}", FAKE=str(fake),
               SOLITAIRE_KIOSK_USB_MOUNT=str(tmp_path / "media/usb"))
    proc = subprocess.run([str(USB), *args], env=env, capture_output=True, text=True, timeout=30)
    calls = (fake / "calls").read_text().splitlines() if (fake / "calls").exists() else []
    return proc, calls


@pytest.mark.parametrize("fstype", ["vfat", "exfat"])
def test_first_stick_is_mounted_for_the_kiosk_user(tmp_path: Path, fstype: str):
    proc, calls = run_usb(tmp_path, "mount", "/dev/sda1", fstype=fstype)
    assert proc.returncode == 0, proc.stderr
    assert len(calls) == 1
    words = calls[0].split()
    assert words[:3] == ["mount", "-t", fstype]
    options = words[4].split(",")
    assert {"nosuid", "nodev", "noexec", "uid=1001", "gid=1002", "umask=0022"} <= set(options)
    assert words[5:] == ["/dev/sda1", str(tmp_path / "media/usb")]
    assert (tmp_path / "media/usb").is_dir()


def test_second_stick_is_left_alone(tmp_path: Path):
    proc, calls = run_usb(tmp_path, "mount", "/dev/sdb1", mounted="/dev/sda1")
    assert proc.returncode == 0
    assert calls == []
    assert "already holds /dev/sda1" in proc.stdout


def test_unknown_file_system_is_refused_politely(tmp_path: Path):
    proc, calls = run_usb(tmp_path, "mount", "/dev/sda1", fstype="ntfs")
    assert proc.returncode == 0 and calls == []
    assert "FAT32 or exFAT" in proc.stderr


def test_unmount_only_the_stick_that_went(tmp_path: Path):
    _, calls = run_usb(tmp_path, "unmount", "/dev/sdb1", mounted="/dev/sda1")
    assert calls == []
    _, calls = run_usb(tmp_path, "unmount", "/dev/sda1", mounted="/dev/sda1")
    assert calls == [f"umount {tmp_path / 'media/usb'}"]


def test_usb_helper_usage(tmp_path: Path):
    proc, _ = run_usb(tmp_path, "eject", "/dev/sda1")
    assert proc.returncode == 2


# ---------------------------------------------------------------- seal-root (first boot)
SEAL = SYSTEMD / "libexec/seal-root"
CMDLINE = ("console=serial0,115200 console=tty3 root=PARTUUID=abcd-02 rootfstype=ext4 "
           "fsck.repair=yes rootwait quiet\n")


def test_seal_puts_the_root_under_an_overlay_once(tmp_path: Path):
    cmdline = tmp_path / "cmdline.txt"
    cmdline.write_text(CMDLINE)
    env = dict(os.environ, SOLITAIRE_KIOSK_NO_REBOOT="1")
    for _ in range(2):
        proc = subprocess.run([str(SEAL), str(cmdline)], env=env, capture_output=True,
                              text=True, timeout=30)
        assert proc.returncode == 0, proc.stderr
    text = cmdline.read_text()
    assert text == "overlayroot=tmpfs:recurse=0 " + CMDLINE
    assert len(text.splitlines()) == 1


@pytest.mark.parametrize("line, sealed", [
    # Debian's raspi-firmware: the initramfs mounted the root rw, and overlayroot kept it so
    ("console=tty3 root=LABEL=RASPIROOT rw fsck.repair=yes rootwait\n",
     "overlayroot=tmpfs:recurse=0 console=tty3 root=LABEL=RASPIROOT ro fsck.repair=yes "
     "rootwait\n"),
    ("root=LABEL=RASPIROOT quiet rw\n",
     "overlayroot=tmpfs:recurse=0 root=LABEL=RASPIROOT quiet ro\n"),
    ("rw root=/dev/mmcblk0p2 rootwait\n",
     "overlayroot=tmpfs:recurse=0 ro root=/dev/mmcblk0p2 rootwait\n"),
    ("root=/dev/mmcblk0p2 rwx=1 rootwait\n",
     "overlayroot=tmpfs:recurse=0 root=/dev/mmcblk0p2 rwx=1 rootwait\n"),
])
def test_seal_mounts_the_lower_root_read_only(tmp_path: Path, line: str, sealed: str):
    cmdline = tmp_path / "cmdline.txt"
    cmdline.write_text(line)
    env = dict(os.environ, SOLITAIRE_KIOSK_NO_REBOOT="1")
    proc = subprocess.run([str(SEAL), str(cmdline)], env=env, capture_output=True,
                          text=True, timeout=30)
    assert proc.returncode == 0, proc.stderr
    assert cmdline.read_text() == sealed


# ---------------------------------------------------------------- the data partition
def test_data_partition_is_appended_to_the_image(tmp_path: Path):
    need("sfdisk", "mke2fs", "dumpe2fs", "e2fsck")
    img = tmp_path / "pi.img"
    with open(img, "wb") as fh:  # the image's layout in small: boot (FAT) and root, 8 MiB aligned
        fh.truncate(40 * 1024 * 1024)
    subprocess.run(["sfdisk", "--quiet", str(img)], check=True, text=True, timeout=30,
                   input="start=16384, size=16384, type=c\nstart=32768, size=49152, type=83\n")
    script = IMAGE_BUILD / "add-data-partition.sh"
    proc = subprocess.run([str(script), str(img), "16"], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    dump = subprocess.run(["sfdisk", "--json", str(img)], capture_output=True, text=True,
                          check=True).stdout
    parts = json.loads(dump)["partitiontable"]["partitions"]
    assert len(parts) == 3
    third = parts[2]
    assert third["start"] == 40 * 2048 and third["size"] == 16 * 2048
    assert third["start"] % (8 * 2048) == 0
    assert img.stat().st_size == (40 + 16) * 1024 * 1024
    spec = f"{img}?offset={third['start'] * 512}"
    info = subprocess.run(["dumpe2fs", "-h", spec], capture_output=True, text=True,
                          timeout=60).stdout
    assert "Filesystem volume name:   kiosk-data" in info
    assert "has_journal" in info
    check = subprocess.run(["e2fsck", "-fn", spec], capture_output=True, text=True, timeout=60)
    assert check.returncode == 0, check.stdout + check.stderr
    # a second run must not add a fourth partition
    again = subprocess.run([str(script), str(img), "16"], capture_output=True, text=True,
                           timeout=60)
    assert again.returncode != 0


# ---------------------------------------------------------------- after-exit (ExecStopPost)
AFTER_EXIT = SYSTEMD / "libexec/after-exit"


@pytest.mark.parametrize(("code", "status", "getty"), [
    ("exited", "76", True),    # the operator menu's maintenance console
    ("exited", "75", False),   # the operator menu's restart: Restart=always
    ("exited", "0", False),
    ("killed", "TERM", False),
    ("dumped", "ABRT", False),  # the watchdog
])
def test_maintenance_console_gets_a_login_prompt(tmp_path: Path, code: str, status: str,
                                                  getty: bool):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "systemctl").write_text(f'#!/bin/sh\necho "$*" >> {tmp_path}/calls\n')
    (bin_dir / "systemctl").chmod(0o755)
    env = dict(os.environ, PATH=f"{bin_dir}:{os.environ['PATH']}", EXIT_CODE=code,
               EXIT_STATUS=status)
    proc = subprocess.run([str(AFTER_EXIT)], env=env, capture_output=True, text=True,
                          timeout=30)
    assert proc.returncode == 0, proc.stderr
    calls = (tmp_path / "calls").read_text().splitlines() if getty else []
    assert calls == (["--no-block start getty@tty1.service"] if getty else [])
    assert (tmp_path / "calls").exists() == getty
