"""The SD-card image's recipe (image-build/debian/build-image.sh), checked without the
network or a build: the package lists of its root, the files the shared scripts install,
the app's installer and lgpio's wheel, the config baked in, the initramfs hook.

The image itself is built by `make test` beside the suite and booted in QEMU
(test_arm64_root.py, test_boot_image.py); these catch a broken recipe in seconds.
"""

from __future__ import annotations

import re
import subprocess
import tomllib
from pathlib import Path

import pytest

from kiosk.settings import config

from .conftest import IMAGE_BUILD, REPO, SYSTEMD, package_list

DEBIAN = IMAGE_BUILD / "debian"
#: the root's three package lists (root.sh): boot, the app's run time, the system around it
LISTS = {name: DEBIAN / name for name in ("packages", "packages-app", "packages-system")}
DEBIAN_NAME = re.compile(r"^[a-z0-9][a-z0-9+.-]+$")
BUILD_IMAGE = (DEBIAN / "build-image.sh").read_text()
SYSTEM = IMAGE_BUILD / "system"
# what the image's system step runs: the shared scripts of image-build/system/
SYSTEM_RUN = "\n".join(p.read_text() for p in sorted(SYSTEM.glob("*.sh")))
INSTALLER = (IMAGE_BUILD / "install-app.sh").read_text()


@pytest.mark.parametrize("name", sorted(LISTS))
def test_package_lists_are_package_names(name: str):
    names = package_list(LISTS[name])
    assert names, f"{name} is empty"
    assert len(names) == len(set(names))
    for package in names:
        assert DEBIAN_NAME.match(package), f"{name}: {package!r}"


def test_the_root_is_made_of_the_three_lists():
    root = (DEBIAN / "root.sh").read_text()
    assert 'lists="$here/packages $here/packages-app $here/packages-system"' in root
    everything = [n for path in LISTS.values() for n in package_list(path)]
    assert len(everything) == len(set(everything)), "a package in two lists"
    assert {"linux-image-arm64", "raspi-firmware", "systemd-sysv", "initramfs-tools"} <= \
        set(package_list(LISTS["packages"]))


def test_runtime_list_has_what_kivy_dlopens_on_the_pi():
    names = set(package_list(LISTS["packages-app"]))
    assert {"python3", "python3-venv", "libegl1", "libgles2", "libgbm1", "libdrm2",
            "libgl1-mesa-dri", "libudev1"} <= names
    assert any(n.startswith("libmtdev1") for n in names)


def test_no_compiler_and_no_raspberry_pi_archive_package_in_the_root():
    """lgpio is built in a throwaway root (lgpio-wheel.sh); the card gets its wheel only."""
    names = {n for path in LISTS.values() for n in package_list(path)}
    assert not names & {"gcc", "build-essential", "python3-dev", "swig", "python3-lgpio"}


def test_every_file_of_systemd_dir_is_installed():
    for path in SYSTEMD.rglob("*"):
        if path.is_dir() or "__pycache__" in path.parts:
            continue
        rel = path.relative_to(SYSTEMD)
        if len(rel.parts) > 1:
            assert f"{rel.parts[0]}/" in SYSTEM_RUN, f"image-build/system does not install {rel}"
        elif path.suffix in (".service", ".timer"):
            assert f'"$sd"/*{path.suffix}' in SYSTEM_RUN
        else:
            assert path.name in SYSTEM_RUN, f"image-build/system does not install {rel}"
    for unit in ("solitaire-kiosk.service", "solitaire-kiosk-seal.service"):
        assert re.search(rf"systemctl enable .*{re.escape(unit)}", SYSTEM_RUN)
    assert "systemctl disable getty@tty1.service" in SYSTEM_RUN
    assert "/usr/local/libexec/solitaire-kiosk" in SYSTEM_RUN


def test_the_build_runs_the_shared_scripts():
    for shared in ("system/install-files.sh", "system/setup-in-root.sh", "system/quiet-boot.sh",
                   "install-app.sh", "add-data-partition.sh"):
        assert shared in BUILD_IMAGE, f"build-image.sh does not run {shared}"
    assert 'install-files.sh" "$root" "$repo/systemd" "$config"' in BUILD_IMAGE


def test_data_partition_matches_the_config_and_the_partitioner():
    fstab = re.search(r"LABEL=([\w-]+)\s+(\S+)\s+ext4\s+(\S+)", SYSTEM_RUN)
    assert fstab, "the image mounts the data partition"
    label, mount, options = fstab.groups()
    assert Path(mount) == config.DEFAULT_DATA_DIR
    assert "nofail" in options.split(",")
    assert f"label={label}" in (IMAGE_BUILD / "add-data-partition.sh").read_text()


def test_config_example_agrees_with_the_image():
    example = tomllib.loads((REPO / "config.example.toml").read_text())
    assert Path(example["log"]["data_dir"]) == config.DEFAULT_DATA_DIR
    usb = example["export"]["usb_mount"]
    assert f"d {usb} " in (SYSTEMD / "tmpfiles.d/solitaire-kiosk.conf").read_text()
    assert usb in (SYSTEMD / "libexec/usb-stick").read_text()
    assert 'install -D -m 640 "$config" "$etc/solitaire-kiosk/config.toml"' in SYSTEM_RUN
    assert Path("/etc/solitaire-kiosk/config.toml") == config.DEFAULT_PATH
    assert example["buttons"]["chip"] == "auto" and example["buttons"]["pull"] == "up"


def test_read_only_root_and_quiet_boot():
    assert "overlayroot" in package_list(LISTS["packages-system"])
    assert "overlayroot=tmpfs:recurse=0" in (SYSTEMD / "libexec/seal-root").read_text()
    for param in ("quiet", "logo.nologo", "vt.global_cursor_default=0", "consoleblank=0",
                  "console=tty3"):
        assert param in SYSTEM_RUN
    assert "s/ resize\\b//" in SYSTEM_RUN, "no root growth: the data partition follows it"


def test_app_is_installed_from_wheels_into_its_own_venv_with_lgpio():
    assert "--only-binary=:all:" in INSTALLER and "--no-index" in INSTALLER
    assert "python3 -m venv --without-pip" in INSTALLER
    assert "--system-site-packages" not in INSTALLER, "the venv holds all it runs"
    assert '"$app" pip lgpio' in INSTALLER and "one lgpio" in INSTALLER
    assert "import lgpio" in INSTALLER, "the build checks that lgpio loads"
    unit = (SYSTEMD / "solitaire-kiosk.service").read_text()
    assert "ExecStart=/opt/solitaire-kiosk/venv/bin/kiosk run" in unit


def test_lgpio_is_built_from_a_pinned_sdist_in_a_throwaway_root():
    pins = [line for line in (DEBIAN / "gpio-requirements.txt").read_text().splitlines()
            if line and not line.startswith("#")]
    assert len(pins) == 1 and re.fullmatch(
        r"lgpio==[\d.]+ --hash=sha256:[0-9a-f]{64}", pins[0]), pins
    script = (DEBIAN / "lgpio-wheel.sh").read_text()
    assert "--format=null" in script, "the builder root is not kept"
    assert "--require-hashes" in script and "PYPI=1" in script
    assert '"$here/lgpio-wheel.sh" "$pyver"' in BUILD_IMAGE


def test_make_builds_and_boots_the_debian_image():
    makefile = (REPO / "Makefile").read_text()
    assert re.search(r"^image:.*\n\t.*image-build/debian/build-image\.sh \$\(IMAGE\)", makefile,
                     re.M)
    # the recipe may continue on a second line (a backslash)
    assert re.search(r"^boot-test:.*\n\t.*(?:\\\n\t+.*)?tests/platform/test_boot_image\.py",
                     makefile, re.M)
    assert "IMAGE ?= build/solitaire-kiosk-arm64.img" in makefile
    needed = {line.split()[0] for line in (REPO / "tools/debian-packages.txt").read_text()
              .splitlines() if line.strip() and not line.startswith("#")}
    assert {"mmdebstrap", "qemu-system-arm", "qemu-user-static", "dosfstools", "mtools",
            "fdisk", "e2fsprogs", "device-tree-compiler"} <= needed


HOOK = DEBIAN / "overlayroot-tools.hook"
# what overlayroot's init-bottom script runs that Debian's klibc initramfs does not have
# (trixie: "grep: not found" on the console, the root stayed writable), and klibc's mount,
# which knows no --move
OVERLAYROOT_NEEDS = {"grep", "sed", "cp", "rm", "rmdir", "mktemp", "stat", "mount", "umount"}


def test_debian_initramfs_gets_what_overlayroot_runs(tmp_path: Path):
    """The seal's hook, run against stand-in initramfs-tools functions: every program is
    copied, and klibc's mount is removed first (copy_exec keeps a file already there)."""
    dest = tmp_path / "initramfs"
    (dest / "usr/bin").mkdir(parents=True)
    (dest / "usr/bin/mount").write_text("klibc\n")
    log = tmp_path / "copied"
    functions = tmp_path / "hook-functions"
    functions.write_text(
        'copy_exec() { if [ -e "$DESTDIR$2/${1##*/}" ]; then echo "kept $1" >> "$LOG"; '
        'else echo "$1 $2" >> "$LOG"; fi; }\n')
    env = {"PATH": "/usr/bin:/bin", "DESTDIR": str(dest), "LOG": str(log),
           "KIOSK_HOOK_FUNCTIONS": str(functions)}
    assert subprocess.run(["sh", str(HOOK), "prereqs"], env=env, capture_output=True,
                          text=True, check=True).stdout.split() == ["klibc-utils", "overlayroot"]
    subprocess.run(["sh", str(HOOK)], env=env, check=True, timeout=30)
    copied = log.read_text().splitlines()
    assert not [line for line in copied if line.startswith("kept")], copied
    assert {line.split()[0].rsplit("/", 1)[1] for line in copied} == OVERLAYROOT_NEEDS
    assert all(line.split()[1] == "/usr/bin" for line in copied), copied


def test_debian_build_puts_the_hook_in_and_checks_the_initramfs():
    script = (DEBIAN / "build-image.sh").read_text()
    install = script.index("/etc/initramfs-tools/hooks/overlayroot-tools")
    # made once, here: the root comes without one (root.sh diverts update-initramfs)
    rebuild = script.index("update-initramfs -c -k all")
    copy = script.index("/etc/kernel/postinst.d/z50-raspi-firmware")
    assert install < rebuild < copy, "hook, then the initramfs, then the boot partition"
    assert "lsinitramfs" in script and "usr/bin/$prog" in script
    root = (DEBIAN / "root.sh").read_text()
    assert "dpkg-divert --quiet --local --rename --add /usr/sbin/update-initramfs" in root
    assert "dpkg-divert --quiet --local --rename --remove /usr/sbin/update-initramfs" in root
