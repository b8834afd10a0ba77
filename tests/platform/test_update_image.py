"""What an update survives, in QEMU (opt-in: `make update-test`, about an hour): a power cut
in the middle of an install, a power cut during the new slot's first boot, and a bundle
whose kiosk cannot start. Each time the kiosk must come back on the slot that works, by
itself, with every play of its log. The A-to-B update itself, and the refusals, run in
`make test` (tests/platform/test_boot_image.py).

The card is a copy of the built image; the harness plays the Pi firmware
(tests/platform/qemu_machine.py, `Firmware`); the bundles are later builds of the card's
own system signed with the image's keys (tests/platform/update_steps.py). Figures go to
build/update-test.json and docs/benchmarks.md ("Updates").
"""

from __future__ import annotations

import json
import subprocess
import time
from dataclasses import dataclass, field

import pytest

from . import update_steps as up
from .conftest import BuiltImage, need, opt_in
from .qemu_machine import Machine
from .test_boot_image import (
    BOOT_TIMEOUT,
    BUILD,
    PLAYS,
    Kiosk,
    play_rows,
    reference,
    screen_like,
    start_a_game,
    wait_ready,
    wait_until,
)

OPT_IN = "SOLITAIRE_KIOSK_UPDATE_TEST"
pytestmark = opt_in(OPT_IN, "the update's failure cases are",
                    "make update-test, about an hour of boots")
__all__ = ["reference"]   # the app's own pictures (a fixture of test_boot_image.py)

#: a drop-in that keeps the kiosk from ever starting (its ExecStart fails at once)
BROKEN_KIOSK = {"/etc/systemd/system/solitaire-kiosk.service.d/broken.conf":
                "[Service]\nExecStart=\nExecStart=/bin/false\n"}


@dataclass
class Card:
    kiosk: Kiosk
    bundles: dict[str, up.Bundle] = field(default_factory=dict)
    figures: dict[str, float] = field(default_factory=dict)

    @property
    def m(self) -> Machine:
        return self.kiosk.machine

    def boot(self, name: str, *, ready: bool = True) -> Machine:
        """The next power-on, as the firmware starts it after the last run ended."""
        previous = self.kiosk.machine
        if previous.alive():
            previous.pull_the_plug()
        m = previous.power_on_again(name)
        self.kiosk.machine = m
        m.start()
        m.wait_for_shell(BOOT_TIMEOUT)
        m.ok("stty -echo; export SYSTEMD_PAGER=cat SYSTEMD_COLORS=0 PAGER=cat")
        if ready:
            wait_ready(m)
        return m

    def integrity(self) -> str:
        return self.m.ok(f"python3 -c \"import sqlite3; print(sqlite3.connect('file:{PLAYS}"
                         "?mode=ro', uri=True).execute('PRAGMA integrity_check')"
                         ".fetchone()[0])\"")

    def install(self, bundle: up.Bundle, reboot: str) -> None:
        img = up.stick([bundle.path], self.kiosk.workdir / f"stick-{bundle.path.stem}.img")
        self.m.plug_stick(img)
        up.wait_stick_mounted(self.m, bundle.path.name)
        self.m.ok(f"runuser -u kiosk -- kiosk update request install --reboot {reboot} "
                  f"/media/usb/{bundle.path.name}")

    def save(self) -> None:
        BUILD.mkdir(exist_ok=True)
        (BUILD / "update-test.json").write_text(json.dumps(self.figures, indent=1) + "\n")


@pytest.fixture(scope="module")
def card(built_image: BuiltImage, reference, tmp_path_factory: pytest.TempPathFactory):
    need("qemu-system-aarch64", "mcopy", "mtype", "mdir", "sfdisk")
    assert built_image.keys, "no keys for this image"
    workdir = tmp_path_factory.mktemp("update")
    disk = workdir / "disk.img"
    subprocess.run(["cp", "--sparse=always", str(built_image.image), str(disk)], check=True)
    ref, pics = reference
    version = up.image_version(built_image.image, workdir)
    made: dict[str, up.Bundle] = {}

    def make() -> None:
        made["newer"] = up.bundle_of_card(built_image.image, up.next_version(version, 60),
                                          built_image.keys, workdir / "kiosk-update.raucb",
                                          workdir / "newer")
        made["broken"] = up.bundle_of_card(built_image.image, up.next_version(version, 120),
                                           built_image.keys, workdir / "kiosk-broken.raucb",
                                           workdir / "broken", extra_files=BROKEN_KIOSK)
    import threading
    maker = threading.Thread(target=make, daemon=True)
    maker.start()
    first = Machine(disk, workdir, "boot1")          # the first boot seals and restarts
    first.start()
    assert first.wait_exit(BOOT_TIMEOUT) is not None, f"no seal:\n{first.tail()}"
    kiosk = Kiosk(first, workdir, ref, pics)
    c = Card(kiosk)
    c.boot("boot2")
    start_a_game(kiosk, "before")
    wait_until("the game's play logged", lambda: play_rows(c.m), 120)
    maker.join(3600)
    assert set(made) == {"newer", "broken"}, "the bundles were not made"
    c.bundles = made
    c.figures["bundle_mib"] = round(made["newer"].path.stat().st_size / 2**20, 1)
    try:
        yield c
    finally:
        c.save()
        c.m.pull_the_plug()


def test_a_power_cut_in_the_middle_of_an_install_leaves_the_kiosk_as_it_was(card: Card):
    plays = play_rows(card.m)
    autoboot = card.m.ok("cat /boot/bootfs/autoboot.txt")
    card.install(card.bundles["newer"], "no")
    started = time.monotonic()
    wait_until("the install half way", lambda: (
        (s := up.update_status(card.m)) and s["state"] == "installing"
        and (s["percent"] or 0) >= 40 and s), 3600, every=3)
    card.figures["install_to_40_percent_s"] = round(time.monotonic() - started, 1)
    card.m.pull_the_plug()
    m = card.boot("after-cut-install")
    assert (m.firmware.partition, m.firmware.tryboot) == (2, False)
    st = up.update_status(m)
    assert st["state"] == "failed" and "interrupted" in st["message"], st
    assert card.integrity() == "ok"
    # every play is still there; the one that was open when the power went is "interrupted"
    after = dict(play_rows(m))
    assert all(after.get(i) == (r if r != "None" else "interrupted") for i, r in plays), \
        (plays, after)
    assert m.ok("cat /boot/bootfs/autoboot.txt") == autoboot
    assert up.guest_status(m)["booted"] == "A"
    screen_like(m, card.kiosk.pictures, "welcome", card.kiosk.workdir / "after-cut.png",
                timeout=900)


def test_a_power_cut_during_the_new_slots_first_boot_comes_back_on_a(card: Card):
    ids = [i for i, _r in play_rows(card.m)]
    card.install(card.bundles["newer"], "now")
    assert card.m.wait_exit(3600) is not None, "no restart into the update"
    assert card.m.restart_command() == "0 tryboot"
    m = card.boot("b-first-boot", ready=False)       # B, on trial: the shell answers
    assert (m.firmware.partition, m.firmware.tryboot) == (3, True)
    card.figures["b_power_on_to_shell_s"] = round(time.monotonic() - m.started, 1)
    m.pull_the_plug()                                  # mid-boot
    m = card.boot("after-cut-b")
    assert (m.firmware.partition, m.firmware.tryboot) == (2, False), "the flag is gone"
    st = up.update_status(m)
    assert st["state"] == "rolled-back", st
    s = up.guest_status(m)
    assert (s["booted"], s["committed"], s["on_trial"]) == ("A", "A", False), s
    assert card.integrity() == "ok"
    assert [i for i, _r in play_rows(m)][:len(ids)] == ids


def test_a_bundle_whose_kiosk_cannot_start_is_tried_once_and_given_up(card: Card):
    ids = [i for i, _r in play_rows(card.m)]
    card.install(card.bundles["broken"], "now")
    assert card.m.wait_exit(3600) is not None and card.m.restart_command() == "0 tryboot"
    m = card.boot("broken-b", ready=False)
    assert m.firmware.partition == 3
    tried = time.monotonic()
    # the commit unit sees the kiosk unit give up, marks B bad and restarts: no tryboot
    assert m.wait_exit(3600) is not None, f"the broken slot was not given up:\n{m.tail()}"
    card.figures["broken_b_power_on_to_given_up_s"] = round(time.monotonic() - tried, 1)
    assert m.restart_command() == ""
    m = card.boot("after-broken")
    assert (m.firmware.partition, m.firmware.tryboot) == (2, False)
    st = up.update_status(m)
    assert st["state"] == "rolled-back" and "kept failing" in st["message"], st
    assert up.rauc_slots(m)["rootfs.1"]["boot_status"] == "bad"
    assert [i for i, _r in play_rows(m)][:len(ids)] == ids
    screen_like(m, card.kiosk.pictures, "welcome", card.kiosk.workdir / "after-broken.png",
                timeout=900)


def test_after_all_that_the_update_installs_and_is_committed(card: Card):
    ids = [i for i, _r in play_rows(card.m)]
    card.install(card.bundles["newer"], "now")
    started = time.monotonic()
    assert card.m.wait_exit(3600) is not None and card.m.restart_command() == "0 tryboot"
    card.figures["install_and_restart_s"] = round(time.monotonic() - started, 1)
    m = card.boot("good-b")
    st = wait_until("B committed", lambda: (
        (s := up.update_status(m)) and s["state"] == "committed" and s), 3600, every=10)
    card.figures["b_power_on_to_committed_s"] = round(time.monotonic() - m.started, 1)
    assert st["version"] == card.bundles["newer"].version
    s = up.guest_status(m)
    assert (s["booted"], s["committed"]) == ("B", "B")
    assert [i for i, _r in play_rows(m)][:len(ids)] == ids
