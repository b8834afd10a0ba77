"""RAUC's tryboot backend (systemd/libexec/rauc-tryboot), slot-cmdline and the post-install
handler, run here on scratch files the way RAUC and the image run them."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from kiosk.updates.slots import parse_describe
from tests.platform.qemu_machine import autoboot_partition

from .conftest import LIBEXEC

BACKEND = LIBEXEC / "rauc-tryboot"
DISK = "6b696f73"


class Card:
    """The backend's world: autoboot.txt on bootfs, its state file on the data partition,
    /run, and the kernel command line of the running slot."""

    def __init__(self, tmp_path: Path, booted: str = "A") -> None:
        self.dir = tmp_path
        self.autoboot = tmp_path / "bootfs/autoboot.txt"
        self.autoboot.parent.mkdir()
        self.cmdline = tmp_path / "cmdline"
        self.boot(booted)
        self.env = dict(os.environ, SOLITAIRE_KIOSK_AUTOBOOT=str(self.autoboot),
                        SOLITAIRE_KIOSK_SLOT_STATE=str(tmp_path / "data/rauc/slot-state"),
                        SOLITAIRE_KIOSK_TRY_NEXT=str(tmp_path / "run/try-next"),
                        SOLITAIRE_KIOSK_CMDLINE=str(self.cmdline))

    def boot(self, slot: str) -> None:
        root = {"A": "05", "B": "06"}[slot]
        self.cmdline.write_text(f"console=tty3 root=PARTUUID={DISK}-{root} rauc.slot={slot} "
                                "ro quiet\n")

    def power_cut(self) -> None:
        """/run is RAM: what set-primary kept there is gone."""
        (self.dir / "run/try-next").unlink(missing_ok=True)

    def run(self, *args: str, ok: bool = True) -> subprocess.CompletedProcess:
        proc = subprocess.run(["sh", str(BACKEND), *args], capture_output=True, text=True,
                              env=self.env, timeout=30)
        if ok:
            assert proc.returncode == 0, proc.stderr
        return proc

    def out(self, *args: str) -> str:
        return self.run(*args).stdout.strip()

    def describe(self):
        return parse_describe(self.out("describe"))


@pytest.fixture
def card(tmp_path: Path) -> Card:
    c = Card(tmp_path)
    c.run("init", "A")
    return c


def test_a_new_card_starts_slot_a_and_tries_b(card: Card):
    text = card.autoboot.read_text()
    assert len(text.encode()) == 256
    assert "[all]\ntryboot_a_b=1\nboot_partition=2\n[tryboot]\nboot_partition=3\n" in text
    # the harness (the firmware's stand-in) reads it as the Pi's bootloader would
    assert autoboot_partition(text, tryboot=False) == 2
    assert autoboot_partition(text, tryboot=True) == 3
    s = card.describe()
    assert (s.booted, s.committed, s.tryboot, s.next) == ("A", "A", "B", "")
    assert s.states == {"A": "good", "B": "bad"}, "B holds nothing yet"
    assert card.out("get-primary") == "A"
    assert card.out("get-current") == "A"
    assert card.run("on-trial", ok=False).returncode == 1


def test_init_refuses_a_card_that_has_autoboot(card: Card):
    proc = card.run("init", "B", ok=False)
    assert proc.returncode != 0 and "exists" in proc.stderr
    assert autoboot_partition(card.autoboot.read_text(), False) == 2


def test_an_install_is_tried_once_and_committed_only_from_the_tried_slot(card: Card):
    # RAUC's install: the target marked bad, written, then made primary
    card.run("set-state", "B", "bad")
    card.run("set-primary", "B")
    assert card.out("get-primary") == "B"
    assert card.describe().next == "B"
    # marking B good while A runs commits nothing: only the running slot can be committed
    proc = card.run("set-state", "B", "good", ok=False)
    assert proc.returncode != 0 and "only the slot on trial" in proc.stderr
    assert autoboot_partition(card.autoboot.read_text(), False) == 2

    # `reboot "0 tryboot"`: the firmware starts B once
    card.power_cut()
    card.boot("B")
    s = card.describe()
    assert s.booted == "B" and s.committed == "A" and s.states["B"] == "bad"
    assert card.run("on-trial").returncode == 0
    inode = card.autoboot.stat().st_ino
    card.run("set-state", "B", "good")        # `rauc status mark-good booted`
    text = card.autoboot.read_text()
    assert autoboot_partition(text, False) == 3 and autoboot_partition(text, True) == 2
    assert len(text.encode()) == 256 and card.autoboot.stat().st_ino == inode, \
        "rewritten in place, same file, same length"
    s = card.describe()
    assert (s.committed, s.tryboot, s.next) == ("B", "A", "")
    assert s.states == {"A": "good", "B": "good"}, "A stays the way back"
    assert card.run("on-trial", ok=False).returncode == 1


def test_a_trial_that_fails_leaves_autoboot_as_it_was(card: Card):
    card.run("set-state", "B", "bad")
    card.run("set-primary", "B")
    before = card.autoboot.read_bytes()
    card.power_cut()
    card.boot("B")
    card.run("set-state", "B", "bad")          # the health check gave it up
    card.power_cut()
    card.boot("A")                             # the firmware forgot the try
    assert card.autoboot.read_bytes() == before
    s = card.describe()
    assert (s.booted, s.committed, s.next) == ("A", "A", "")
    assert s.states["B"] == "bad"


def test_set_primary_of_the_committed_slot_forgets_a_try(card: Card):
    card.run("set-primary", "B")
    card.run("set-primary", "A")
    assert card.out("get-primary") == "A" and card.describe().next == ""


def test_a_hand_made_autoboot_of_another_length_is_replaced(card: Card):
    card.autoboot.write_text("[all]\r\ntryboot_a_b=1\r\nboot_partition=2\r\n"
                             "[tryboot]\r\nboot_partition=3\r\n")
    assert card.describe().committed == "A", "CRLF lines are read"
    card.run("set-primary", "B")
    card.power_cut()
    card.boot("B")
    card.run("set-state", "B", "good")
    assert len(card.autoboot.read_bytes()) == 256
    assert card.describe().committed == "B"


@pytest.mark.parametrize("args", [("set-state", "C", "good"), ("set-state", "A", "fine"),
                                  ("get-state",), ("frobnicate",), ()])
def test_wrong_calls_fail_with_a_message(card: Card, args: tuple[str, ...]):
    proc = card.run(*args, ok=False)
    assert proc.returncode != 0 and proc.stderr.startswith("rauc-tryboot: ")
    assert len(proc.stderr.strip().splitlines()) == 1


def test_no_autoboot_is_an_error_not_a_guess(tmp_path: Path):
    card = Card(tmp_path)
    proc = card.run("get-primary", ok=False)
    assert proc.returncode != 0 and "bootfs" in proc.stderr


# ----------------------------------------------------------------------- slot-cmdline
def slot_cmdline(path: Path, slot: str, disk: str = DISK) -> subprocess.CompletedProcess:
    return subprocess.run(["sh", str(LIBEXEC / "slot-cmdline"), str(path), slot, disk],
                          capture_output=True, text=True, timeout=30)


def test_slot_cmdline_names_the_slots_own_partitions(tmp_path: Path):
    c = tmp_path / "cmdline.txt"
    c.write_text("console=tty3 root=LABEL=RASPIROOT rw fsck.repair=yes rootwait quiet\n")
    assert slot_cmdline(c, "A").returncode == 0
    words = c.read_text().split()
    assert f"root=PARTUUID={DISK}-05" in words and "rauc.slot=A" in words
    assert f"systemd.mount-extra=PARTUUID={DISK}-02:/boot/firmware:vfat:noatime,nofail" in words
    assert "root=LABEL=RASPIROOT" not in words and "rw" in words and "quiet" in words
    assert slot_cmdline(c, "B").returncode == 0
    again = c.read_text()
    assert again.count("root=") == 1 and again.count("rauc.slot=") == 1
    assert f"root=PARTUUID={DISK}-06" in again and f"PARTUUID={DISK}-03:/boot/firmware" in again
    assert again.endswith("\n") and again.count("\n") == 1


@pytest.mark.parametrize("slot,disk", [("C", DISK), ("A", "6B696F73"), ("A", "kios")])
def test_slot_cmdline_refuses_what_is_not_a_slot(tmp_path: Path, slot: str, disk: str):
    c = tmp_path / "cmdline.txt"
    c.write_text("root=LABEL=X\n")
    proc = slot_cmdline(c, slot, disk)
    assert proc.returncode == 2 and c.read_text() == "root=LABEL=X\n"


# ----------------------------------------------------------------- rauc-post-install
STAND_INS = {
    # mount -t TYPE -o OPTS DEVICE DIR: DIR becomes the "device" (a directory here)
    "mount": '#!/bin/sh\nwhile [ $# -gt 2 ]; do shift; done\nrmdir "$2" && ln -s "$1" "$2"\n',
    "umount": '#!/bin/sh\nrm "$1" && mkdir "$1"\n',
    "mountpoint": '#!/bin/sh\n[ -L "$2" ]\n',
}


def test_post_install_makes_the_new_slot_a_sealed_kiosk_of_this_card(tmp_path: Path):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name, text in STAND_INS.items():
        (bin_dir / name).write_text(text)
        (bin_dir / name).chmod(0o755)
    root_b, boot_b = tmp_path / "root-b", tmp_path / "boot-b"
    wants = root_b / "etc/systemd/system/multi-user.target.wants"
    wants.mkdir(parents=True)
    (wants / "solitaire-kiosk-seal.service").symlink_to("/etc/systemd/system/x")
    (root_b / "etc/machine-id").write_text("")
    boot_b.mkdir()
    (boot_b / "cmdline.txt").write_text("console=tty3 root=LABEL=RASPIROOT rw rootwait\n")
    running = tmp_path / "proc-cmdline"
    running.write_text(f"overlayroot=tmpfs:recurse=0 root=PARTUUID={DISK}-05 rauc.slot=A ro\n")
    env = dict(os.environ, PATH=f"{bin_dir}:{os.environ['PATH']}",
               SOLITAIRE_KIOSK_CMDLINE=str(running), TMPDIR=str(tmp_path),
               RAUC_TARGET_SLOTS="2 4", RAUC_SLOTS="1 2 3 4",
               RAUC_SLOT_NAME_2="rootfs.1", RAUC_SLOT_CLASS_2="rootfs",
               RAUC_SLOT_DEVICE_2=str(root_b), RAUC_SLOT_BOOTNAME_2="B",
               RAUC_SLOT_NAME_4="boot.1", RAUC_SLOT_CLASS_4="boot",
               RAUC_SLOT_DEVICE_4=str(boot_b), RAUC_SLOT_PARENT_4="rootfs.1")
    proc = subprocess.run(["sh", str(LIBEXEC / "rauc-post-install")], capture_output=True,
                          text=True, env=env, timeout=60)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    words = (boot_b / "cmdline.txt").read_text().split()
    assert words[0] == "overlayroot=tmpfs:recurse=0" and "ro" in words and "rw" not in words
    assert f"root=PARTUUID={DISK}-06" in words and "rauc.slot=B" in words
    assert f"systemd.mount-extra=PARTUUID={DISK}-03:/boot/firmware:vfat:noatime,nofail" in words
    assert not (wants / "solitaire-kiosk-seal.service").is_symlink(), "already sealed"
    here = Path("/etc/machine-id").read_text().strip()
    if len(here) == 32:
        assert (root_b / "etc/machine-id").read_text().strip() == here
    assert not list(tmp_path.glob("kiosk-post-install.*")), "its scratch is removed"


def test_post_install_refuses_a_card_without_partuuid_roots(tmp_path: Path):
    running = tmp_path / "proc-cmdline"
    running.write_text("root=/dev/mmcblk0p2 rw\n")
    env = dict(os.environ, SOLITAIRE_KIOSK_CMDLINE=str(running), RAUC_TARGET_SLOTS="")
    proc = subprocess.run(["sh", str(LIBEXEC / "rauc-post-install")], capture_output=True,
                          text=True, env=env, timeout=60)
    assert proc.returncode == 1 and proc.stdout.startswith("<< error ")
