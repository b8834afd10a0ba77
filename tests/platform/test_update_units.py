"""The updates' part of the image, checked without building it: RAUC's configuration
against the card's layout (build-image.sh, slot-cmdline, rauc-tryboot), the units and the
emulated boots' longer clocks for them."""

from __future__ import annotations

import base64
import configparser
import re

import pytest

from .conftest import IMAGE_BUILD, REPO, SYSTEMD, install_files
from .qemu_machine import EMULATED_UPDATE_DROPINS, emulated_boot_options
from .test_qemu_options import seconds
from .test_units import exposure, one, parse_unit, root  # noqa: F401 (root: a fixture)

CONF = SYSTEMD / "rauc/system.conf"
BUILD = (IMAGE_BUILD / "debian/build-image.sh").read_text()
SLOTS = {"A": {"boot": 2, "root": 5}, "B": {"boot": 3, "root": 6}}


def system_conf() -> configparser.ConfigParser:
    parser = configparser.ConfigParser(interpolation=None)
    parser.read_string(CONF.read_text())
    return parser


def test_rauc_slots_are_the_cards_partitions():
    conf = system_conf()
    disk = re.search(r"^disk_id=([0-9a-f]{8})$", BUILD, re.M).group(1)
    for letter, index in (("A", 0), ("B", 1)):
        rootfs = conf[f"slot.rootfs.{index}"]
        boot = conf[f"slot.boot.{index}"]
        assert rootfs["bootname"] == letter and rootfs["type"] == "ext4"
        assert rootfs["device"] == f"/dev/disk/by-partuuid/{disk}-{SLOTS[letter]['root']:02d}"
        assert boot["device"] == f"/dev/disk/by-partuuid/{disk}-{SLOTS[letter]['boot']:02d}"
        assert boot["type"] == "vfat" and boot["parent"] == f"rootfs.{index}"
    slot_cmdline = (SYSTEMD / "libexec/slot-cmdline").read_text()
    assert "A) boot=02 root=05 ;;" in slot_cmdline and "B) boot=03 root=06 ;;" in slot_cmdline
    backend = (SYSTEMD / "libexec/rauc-tryboot").read_text()
    assert "A) echo 2 ;;" in backend and "B) echo 3 ;;" in backend


def test_rauc_refuses_what_the_docs_say_it_refuses():
    conf = system_conf()
    assert conf["system"]["bootloader"] == "custom"
    assert conf["system"]["bundle-formats"] == "-plain"
    assert conf["system"]["data-directory"].startswith("/var/lib/solitaire-kiosk/")
    assert conf["keyring"]["path"] == "/etc/rauc/keyring.pem"
    assert conf["keyring"]["check-purpose"] == "codesign"
    assert conf["keyring"]["use-bundle-signing-time"] == "true"
    assert 'install -D -m 644 "$keyring" "$root/etc/rauc/keyring.pem"' in BUILD
    for key in ("bootloader-custom-backend", "pre-install", "post-install"):
        path = conf["handlers"][key]
        assert path.startswith("/usr/local/libexec/solitaire-kiosk/")
        script = SYSTEMD / "libexec" / path.rsplit("/", 1)[1]
        assert script.is_file() and script.stat().st_mode & 0o111, script


def test_the_compatible_is_one_string_everywhere():
    compatible = system_conf()["system"]["compatible"]
    assert "$conf" in (IMAGE_BUILD / "bundle.sh").read_text(), "bundle.sh reads system.conf"
    assert compatible in (REPO / "kiosk/commands/update.py").read_text()


def test_the_image_installs_and_starts_what_updates_need(tmp_path):
    r = install_files(tmp_path)
    assert (r / "etc/rauc/system.conf").read_text() == CONF.read_text()
    assert (r / "etc/systemd/system/rauc.service.d/solitaire-kiosk.conf").is_file()
    for unit in ("solitaire-kiosk-update.path", "solitaire-kiosk-update.service",
                 "solitaire-kiosk-commit.service", "solitaire-kiosk-trial.timer",
                 "solitaire-kiosk-trial.service"):
        assert (r / "etc/systemd/system" / unit).is_file(), unit
    setup = (IMAGE_BUILD / "system/setup-in-root.sh").read_text()
    assert re.search(r"systemctl enable solitaire-kiosk-update\.path solitaire-kiosk-commit"
                     r"\.service \\\n\s+solitaire-kiosk-trial\.timer", setup)


def test_the_path_unit_watches_the_file_the_app_leaves():
    from kiosk.settings.config import DEFAULT_DATA_DIR
    from kiosk.updates.requests import REQUEST_NAME

    path = parse_unit(SYSTEMD / "solitaire-kiosk-update.path")
    assert one(path, "Path", "PathExists") == f"{DEFAULT_DATA_DIR}/{REQUEST_NAME}"
    assert one(path, "Path", "Unit") == "solitaire-kiosk-update.service"
    service = parse_unit(SYSTEMD / "solitaire-kiosk-update.service")
    assert one(service, "Service", "ExecStart").endswith("kiosk update serve")
    assert one(service, "Service", "TimeoutStartSec") == "infinity"


def test_the_commit_does_not_hold_up_the_boot_and_the_trial_timer_needs_no_python():
    commit = parse_unit(SYSTEMD / "solitaire-kiosk-commit.service")
    assert one(commit, "Service", "Type") == "exec"
    assert one(commit, "Install", "WantedBy") == "multi-user.target"
    trial = parse_unit(SYSTEMD / "solitaire-kiosk-trial.service")
    assert one(trial, "Service", "ExecCondition") == \
        "/usr/local/libexec/solitaire-kiosk/rauc-tryboot on-trial"
    assert "python" not in (SYSTEMD / "libexec/rauc-tryboot").read_text().lower()
    timer = parse_unit(SYSTEMD / "solitaire-kiosk-trial.timer")
    # the timer gives up later than the commit's own deadline (kiosk/updates/commit.py)
    from kiosk.updates.commit import DEADLINE_MINUTES
    assert seconds(one(timer, "Timer", "OnBootSec")) > DEADLINE_MINUTES * 60


@pytest.mark.parametrize("unit", ["solitaire-kiosk-update.service",
                                  "solitaire-kiosk-commit.service",
                                  "solitaire-kiosk-trial.service"])
def test_update_units_are_hardened(root, unit: str):  # noqa: F811
    assert exposure(root, unit) <= 5.0


def test_emulated_boots_lengthen_the_updates_clocks_in_the_same_order():
    words = emulated_boot_options().split()
    dropins = {}
    for word in words:
        found = re.match(r"systemd\.set_credential_binary=systemd\.unit-dropin\.([^:]+):(.*)$",
                         word)
        if found:
            dropins[found.group(1)] = base64.b64decode(found.group(2)).decode()
    for unit, text in EMULATED_UPDATE_DROPINS.items():
        assert dropins[unit] == text
    deadline = int(re.search(r"COMMIT_DEADLINE_MINUTES=(\d+)",
                             dropins["solitaire-kiosk-commit.service"]).group(1))
    trial = seconds(re.findall(r"OnBootSec=(\S+)", dropins["solitaire-kiosk-trial.timer"])[-1])
    assert 15 < deadline and deadline * 60 < trial, (deadline, trial)
