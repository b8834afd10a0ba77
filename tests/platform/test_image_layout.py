"""The SD-card image's recipe, checked without the network: pi-gen's stage layout, the
package lists, the files the stage installs, the config that build.sh hands to pi-gen.

pi-gen silently ignores what it does not recognise (a misnamed script, a run script that is
not executable, an unknown config key), so these are the mistakes worth catching here.
"""

from __future__ import annotations

import re
import subprocess
import tomllib
from pathlib import Path

import pytest

from kiosk.settings import config

from .conftest import IMAGE_BUILD, REPO, STAGE, SYSTEMD, package_list

# the sub-stage entries pi-gen's build.sh knows (run_sub_stage), plus our files/ directory
ENTRY = re.compile(r"^\d\d-(run\.sh|run-chroot\.sh|packages|packages-nr|debconf|patches)$")
# the config keys of pi-gen's README (arm64 branch)
PI_GEN_KEYS = {
    "IMG_NAME", "PI_GEN_RELEASE", "RELEASE", "APT_PROXY", "TEMP_REPO", "BASE_DIR", "WORK_DIR",
    "DEPLOY_DIR", "DEPLOY_COMPRESSION", "COMPRESSION_LEVEL", "USE_QEMU", "LOCALE_DEFAULT",
    "TARGET_HOSTNAME", "KEYBOARD_KEYMAP", "KEYBOARD_LAYOUT", "TIMEZONE_DEFAULT",
    "FIRST_USER_NAME", "FIRST_USER_PASS", "DISABLE_FIRST_BOOT_USER_RENAME",
    "PASSWORDLESS_SUDO", "WPA_COUNTRY", "ENABLE_SSH", "PUBKEY_SSH_FIRST_USER",
    "PUBKEY_ONLY_SSH", "SETFCAP", "STAGE_LIST", "EXPORT_CONFIG_DIR", "ENABLE_CLOUD_INIT",
}
DEBIAN_NAME = re.compile(r"^[a-z0-9][a-z0-9+.-]+$")
BUILD = (IMAGE_BUILD / "build.sh").read_text()
SYSTEM = IMAGE_BUILD / "system"
# what the pi-gen stage's system step runs: its own script and the shared ones it calls
SYSTEM_RUN = "\n".join(p.read_text() for p in [STAGE / "01-system/02-run.sh",
                                               *sorted(SYSTEM.glob("*.sh"))])


def test_stage_has_prerun_and_exports_an_image():
    prerun = STAGE / "prerun.sh"
    assert prerun.stat().st_mode & 0o111, "pi-gen runs prerun.sh only when executable"
    assert "copy_previous" in prerun.read_text()
    assert re.search(r'^IMG_SUFFIX="-kiosk"$', (STAGE / "EXPORT_IMAGE").read_text(), re.M)


def test_sub_stages_use_only_names_pi_gen_knows():
    subs = sorted(p for p in STAGE.iterdir() if p.is_dir())
    assert [p.name for p in subs] == ["00-runtime", "01-system", "02-app"]
    for sub in subs:
        for entry in sub.iterdir():
            if entry.name == "files":
                assert entry.is_dir()
                continue
            assert ENTRY.match(entry.name), f"pi-gen would ignore {entry.relative_to(REPO)}"
            if entry.name.endswith("-run.sh"):
                assert entry.stat().st_mode & 0o111, f"{entry} must be executable"
            if entry.name.endswith(".sh"):
                assert entry.read_text().startswith("#!/bin/bash -e\n"), entry


@pytest.mark.parametrize("path", sorted(STAGE.glob("*/*-packages*")),
                         ids=lambda p: str(p.relative_to(STAGE)))
def test_package_lists_are_package_names(path: Path):
    names = package_list(path)
    assert names, f"{path} is empty"
    assert len(names) == len(set(names))
    for name in names:
        assert DEBIAN_NAME.match(name), f"{path.name}: {name!r}"


def test_runtime_list_has_what_kivy_dlopens_on_the_pi():
    names = set(package_list(STAGE / "00-runtime/00-packages-nr"))
    assert {"python3", "python3-venv", "libegl1", "libgles2", "libgbm1", "libdrm2",
            "libgl1-mesa-dri", "libudev1"} <= names
    assert any(n.startswith("libmtdev1") for n in names)


def test_build_hands_pi_gen_only_known_config_keys():
    keys = set(re.findall(r'(?:echo|printf) \'?"?([A-Z_]+)=', BUILD))
    assert {"IMG_NAME", "STAGE_LIST", "ENABLE_SSH", "DEPLOY_COMPRESSION"} <= keys
    assert keys <= PI_GEN_KEYS, keys - PI_GEN_KEYS
    assert re.search(r'STAGE_LIST=\\"stage0 stage1 stage2 stage-kiosk\\"', BUILD)
    assert re.search(r"pigen_ref=\$\{PI_GEN_REF:-[0-9a-f]{40}\}", BUILD), "pin pi-gen"
    assert "--branch arm64" in BUILD, "64-bit images come from pi-gen's arm64 branch"


def test_ssh_is_off_unless_a_key_is_given():
    before_key = BUILD.split('if [ -n "${KIOSK_SSH_KEY:-}" ]; then', 1)[1]
    with_key, without_key = before_key.split("else", 1)
    assert "ENABLE_SSH=1" in with_key and "PUBKEY_ONLY_SSH=1" in with_key
    assert "ENABLE_SSH=0" in without_key.split("fi", 1)[0]


def test_every_file_the_stage_uses_is_in_the_repo_or_put_there_by_build():
    provided = {
        "files/systemd": SYSTEMD,
        "files/config.toml": REPO / "config.example.toml",
        "files/wheels": None,  # built by build.sh
        "files/install-app.sh": IMAGE_BUILD / "install-app.sh",
        "files/system": SYSTEM,
        "files/docs": REPO / "docs",
    }
    for script in STAGE.glob("*/*.sh"):
        for ref in set(re.findall(r"files/[\w.-]+", script.read_text())):
            local = script.parent / ref
            if local.exists():
                continue
            assert ref in provided, f"{script.relative_to(REPO)} uses {ref}"
            source = provided[ref]
            assert source is None or source.exists(), source
            assert f'{script.parent.name}/{ref}' in BUILD.replace('"', ""), \
                f"build.sh does not put {ref} into {script.parent.name}"


def test_every_file_of_systemd_dir_is_installed():
    for path in SYSTEMD.rglob("*"):
        if path.is_dir() or "__pycache__" in path.parts:
            continue
        rel = path.relative_to(SYSTEMD)
        if len(rel.parts) > 1:
            assert f"{rel.parts[0]}/" in SYSTEM_RUN, f"02-run.sh does not install {rel}"
        elif path.suffix in (".service", ".timer"):
            assert f'"$sd"/*{path.suffix}' in SYSTEM_RUN
        else:
            assert path.name in SYSTEM_RUN, f"02-run.sh does not install {rel}"
    for unit in ("solitaire-kiosk.service", "solitaire-kiosk-seal.service"):
        assert re.search(rf"systemctl enable .*{re.escape(unit)}", SYSTEM_RUN)
    assert "systemctl disable getty@tty1.service" in SYSTEM_RUN
    assert "/usr/local/libexec/solitaire-kiosk" in SYSTEM_RUN


def test_data_partition_matches_the_config_and_the_partitioner():
    fstab = re.search(r"LABEL=([\w-]+)\s+(\S+)\s+ext4\s+(\S+)", SYSTEM_RUN)
    assert fstab, "the stage mounts the data partition"
    label, mount, options = fstab.groups()
    assert Path(mount) == config.DEFAULT_DATA_DIR
    assert "nofail" in options.split(",")
    assert f"label={label}" in (IMAGE_BUILD / "add-data-partition.sh").read_text()
    assert "add-data-partition.sh" in BUILD


def test_config_example_agrees_with_the_image():
    example = tomllib.loads((REPO / "config.example.toml").read_text())
    assert Path(example["log"]["data_dir"]) == config.DEFAULT_DATA_DIR
    usb = example["export"]["usb_mount"]
    assert f"d {usb} " in (SYSTEMD / "tmpfiles.d/solitaire-kiosk.conf").read_text()
    assert usb in (SYSTEMD / "libexec/usb-stick").read_text()
    assert 'install -D -m 640 "$config" "$etc/solitaire-kiosk/config.toml"' in SYSTEM_RUN
    assert "install-files.sh \"${ROOTFS_DIR}\" files/systemd files/config.toml" in SYSTEM_RUN
    assert Path("/etc/solitaire-kiosk/config.toml") == config.DEFAULT_PATH


def test_read_only_root_and_quiet_boot():
    assert "overlayroot" in package_list(STAGE / "01-system/00-packages-nr")
    assert "overlayroot=tmpfs:recurse=0" in (SYSTEMD / "libexec/seal-root").read_text()
    for param in ("quiet", "logo.nologo", "vt.global_cursor_default=0", "consoleblank=0",
                  "console=tty3"):
        assert param in SYSTEM_RUN
    assert "s/ resize\\b//" in SYSTEM_RUN, "no root growth: the data partition follows it"
    assert "ENABLE_CLOUD_INIT=0" in BUILD


def test_app_is_installed_from_the_wheel_into_its_own_venv():
    chroot = (STAGE / "02-app/01-run-chroot.sh").read_text()
    assert "install-app.sh" in chroot and "/opt/solitaire-kiosk" in chroot
    installer = (IMAGE_BUILD / "install-app.sh").read_text()
    assert "--only-binary=:all:" in installer
    assert "python3 -m venv --system-site-packages" in installer
    unit = (SYSTEMD / "solitaire-kiosk.service").read_text()
    assert "ExecStart=/opt/solitaire-kiosk/venv/bin/kiosk run" in unit


DEBIAN = IMAGE_BUILD / "debian"


def test_debian_build_shares_the_system_and_app_scripts_with_pi_gen():
    """Both images get the kiosk from the same scripts: nothing of it is copied."""
    script = (DEBIAN / "build-image.sh").read_text()
    for shared in ("system/install-files.sh", "system/setup-in-root.sh", "system/quiet-boot.sh",
                   "install-app.sh", "add-data-partition.sh"):
        assert shared in script, f"build-image.sh does not run {shared}"
    stage = (STAGE / "01-system/02-run.sh").read_text()
    for shared in ("install-files.sh", "setup-in-root.sh", "quiet-boot.sh"):
        assert shared in stage, f"the pi-gen stage does not run {shared}"
    root = (DEBIAN / "root.sh").read_text()
    assert "00-runtime/00-packages-nr" in root and "01-system/00-packages-nr" in root


@pytest.mark.parametrize("path", [DEBIAN / "packages"], ids=["debian/packages"])
def test_debian_package_list_is_package_names(path: Path):
    names = package_list(path)
    assert {"linux-image-arm64", "raspi-firmware", "systemd-sysv", "initramfs-tools"} <= set(names)
    for name in names:
        assert DEBIAN_NAME.match(name), name


def test_make_builds_and_boots_the_debian_image():
    makefile = (REPO / "Makefile").read_text()
    assert re.search(r"^image:.*\n\t.*image-build/debian/build-image\.sh \$\(IMAGE\)", makefile,
                     re.M)
    assert re.search(r"^boot-test:.*\n\t.*tests/platform/test_boot_image\.py", makefile, re.M)
    assert "IMAGE ?= build/solitaire-kiosk-arm64.img" in makefile
    needed = {line.split()[0] for line in (REPO / "tools/debian-packages.txt").read_text()
              .splitlines() if line.strip() and not line.startswith("#")}
    assert {"mmdebstrap", "qemu-system-arm", "qemu-user-static", "dosfstools", "mtools",
            "fdisk", "e2fsprogs"} <= needed


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
