"""The systemd units and the other boot-time files in systemd/.

Every unit is checked with ``systemd-analyze verify`` inside a scratch root that holds the
host's own units, ours, our helper scripts where the image puts them and the app's entry
point, and any output at all fails the test (verify exits 0 on unknown keys).
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from kiosk.settings import config

from .conftest import IMAGE_BUILD, REPO, SYSTEMD, install_files, need
from .qemu_machine import emulated_boot_options

UNIT_SUFFIXES = (".service", ".timer", ".socket", ".path", ".mount", ".automount", ".target")
UNITS = sorted(p for p in SYSTEMD.iterdir() if p.suffix in UNIT_SUFFIXES)
LIBEXEC = "/usr/local/libexec/solitaire-kiosk"
APP = "/opt/solitaire-kiosk/venv/bin/kiosk"
MAIN = "solitaire-kiosk.service"


def parse_unit(path: Path) -> list[tuple[str, str, str]]:
    """(section, key, value) of a unit file, in order, with repeated keys kept."""
    out, section, pending = [], "", ""
    for raw in path.read_text().splitlines():
        line = pending + raw.strip()
        pending = ""
        if line.endswith("\\"):
            pending = line[:-1] + " "
            continue
        if not line or line[0] in "#;":
            continue
        if line.startswith("["):
            section = line.strip("[]")
            continue
        key, _, value = line.partition("=")
        out.append((section, key.strip(), value.strip()))
    return out


def values(entries, section: str, key: str) -> list[str]:
    return [v for s, k, v in entries if s == section and k == key]


def one(entries, section: str, key: str) -> str:
    found = values(entries, section, key)
    assert len(found) == 1, f"{section}/{key}: {found}"
    return found[0]


def env_of(entries) -> dict[str, str]:
    env = {}
    for item in values(entries, "Service", "Environment"):
        for word in item.split():
            name, _, value = word.partition("=")
            env[name] = value
    return env


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A scratch root for ``systemd-analyze --root``: the distribution's units, ours in
    /etc/systemd/system, the helper scripts where the image installs them, stand-ins for
    the app's entry point and systemctl."""
    need("systemd-analyze")
    root = tmp_path_factory.mktemp("unitroot")
    for system_dir in ("usr/lib/systemd/system", "lib/systemd/system"):
        src = Path("/") / system_dir
        if src.is_dir() and not (root / "usr/lib/systemd/system").exists():
            shutil.copytree(src, root / "usr/lib/systemd/system", symlinks=True)
    etc = root / "etc/systemd/system"
    etc.mkdir(parents=True)
    for unit in UNITS:
        shutil.copy(unit, etc / unit.name)
    libexec = root / LIBEXEC.lstrip("/")
    libexec.mkdir(parents=True)
    for script in (SYSTEMD / "libexec").iterdir():
        shutil.copy(script, libexec / script.name)  # keeps the executable bit
    # The app's entry point comes from the wheel: a stand-in. Any other command a unit runs
    # must exist on Debian itself (this machine): copied from here, or the test fails.
    commands = {APP}
    for unit in UNITS:
        for section, key, value in parse_unit(unit):
            if section == "Service" and key.startswith("Exec") and value:
                commands.add(value.lstrip("-+!@:").split()[0])
    for command in sorted(commands):
        path = root / command.lstrip("/")
        if path.exists():
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        if command == APP:
            path.write_text("#!/bin/sh\n")
            path.chmod(0o755)
        else:
            assert Path(command).is_file(), f"{command} (run by a unit) is not on this system"
            shutil.copy(command, path)
    return root


def analyze(root: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["systemd-analyze", *args, f"--root={root}"],
                          capture_output=True, text=True, timeout=60)


def test_there_are_units():
    names = {u.name for u in UNITS}
    assert {MAIN, "solitaire-kiosk-retry.timer", "solitaire-kiosk-retry.service",
            "solitaire-kiosk-usb@.service", "solitaire-kiosk-seal.service",
            "solitaire-kiosk-config.service"} <= names


def test_the_update_unit_may_give_systemctl_reboot_its_argument():
    """`systemctl reboot "0 tryboot"` writes /run/systemd/reboot-param before it asks for the
    restart: under ProtectSystem=strict that path must be writable, or the restart into an
    installed update never happens (the boot test's first whole A-to-B run waited so)."""
    entries = parse_unit(SYSTEMD / "solitaire-kiosk-update.service")
    assert ("Service", "ProtectSystem", "strict") in entries
    writable = {p for s, k, v in entries if k == "ReadWritePaths" for p in v.split()}
    assert "/run/systemd" in writable, writable


@pytest.mark.parametrize("unit", UNITS, ids=lambda p: p.name)
def test_a_unit_reading_a_boot_partition_waits_for_its_mount(unit: Path):
    """Both boot partitions are mounted "nofail" (/etc/fstab, the slot's cmdline.txt), which
    orders them before no target: a unit that looks at one must say After= its mount, or
    it may look before the card's partition is there (the operator's solitaire-kiosk.toml
    was ignored at random so)."""
    entries = parse_unit(unit)
    after = {u for s, k, v in entries if k == "After" for u in v.split()}
    used = " ".join(v for s, k, v in entries if s in ("Unit", "Service"))
    for path, mount in (("/boot/bootfs", "boot-bootfs.mount"),
                        ("/boot/firmware", "boot-firmware.mount")):
        if path in used:
            assert mount in after, f"{unit.name} reads {path} but is not After={mount}"


@pytest.mark.parametrize("unit", UNITS, ids=lambda p: p.name)
def test_unit_verifies_without_a_single_warning(root: Path, unit: Path):
    names = [unit.name]
    if unit.name.endswith("@.service"):
        names.append(unit.name.replace("@.", "@sda1."))
    for name in names:
        proc = analyze(root, "verify", name)
        output = (proc.stdout + proc.stderr).strip()
        assert proc.returncode == 0 and not output, f"systemd-analyze verify {name}:\n{output}"


def exposure(root: Path, unit: str) -> float:
    proc = analyze(root, "security", "--offline=true", unit)
    match = re.search(r"Overall exposure level for \S+: (\d+\.\d+)", proc.stdout)
    assert match, proc.stdout + proc.stderr
    return float(match.group(1))


def test_kiosk_hardening_exposure(root: Path):
    """docs/platform.md reports these numbers: the unit without its hardening block, and
    with it."""
    text = (SYSTEMD / MAIN).read_text()
    start = text.index("DevicePolicy=")
    end = text.index("\n[Install]")
    (root / "etc/systemd/system/unhardened-kiosk.service").write_text(text[:start] + text[end:])
    before = exposure(root, "unhardened-kiosk.service")
    after = exposure(root, MAIN)
    print(f"systemd-analyze security exposure: before {before}, after {after}")
    assert before >= 8.0
    assert after <= 2.0


@pytest.mark.parametrize("unit", ["solitaire-kiosk-retry.service", "solitaire-kiosk-seal.service",
                                  "solitaire-kiosk-config.service",
                                  "solitaire-kiosk-usb@sda1.service"])
def test_helper_units_are_hardened(root: Path, unit: str):
    assert exposure(root, unit) <= 5.0


def test_kiosk_unit_essentials():
    u = parse_unit(SYSTEMD / MAIN)
    service = {k for s, k, _ in u if s == "Service"}
    assert one(u, "Service", "Type") == "notify"
    assert one(u, "Service", "NotifyAccess") == "main"
    assert one(u, "Service", "Restart") == "always"
    assert int(one(u, "Service", "WatchdogSec")) >= 10
    # start-rate limit: [Unit] (it is ignored with a warning in [Service]), with a way back
    assert int(one(u, "Unit", "StartLimitBurst")) >= 3
    assert int(one(u, "Unit", "StartLimitIntervalSec")) > 0
    assert one(u, "Unit", "OnFailure") == "solitaire-kiosk-retry.timer"
    # console, user, devices
    assert one(u, "Service", "TTYPath") == "/dev/tty1"
    assert "getty@tty1.service" in " ".join(values(u, "Unit", "Conflicts"))
    assert one(u, "Service", "User") not in ("root", "0")
    assert set(one(u, "Service", "SupplementaryGroups").split()) >= {
        "video", "render", "input", "gpio"}
    assert "PrivateDevices" not in service, "PrivateDevices=yes hides /dev/dri and /dev/input"
    allowed = " ".join(values(u, "Service", "DeviceAllow"))
    for group in ("char-drm", "char-input", "char-gpiochip", "/dev/tty1"):
        assert group in allowed
    assert one(u, "Service", "ProtectSystem") == "strict"
    assert one(u, "Service", "ProtectHome") == "yes"
    assert one(u, "Service", "NoNewPrivileges") == "yes"
    # the play log where the config expects it, a writable working directory (lgpio)
    data = str(config.DEFAULT_DATA_DIR)
    assert "-" + data in values(u, "Service", "ReadWritePaths")
    pres = values(u, "Service", "ExecStartPre")
    assert pres[0] == f"+/usr/bin/install -d -o kiosk -g kiosk -m 0750 {data}", pres
    runtime = Path("/run") / one(u, "Service", "RuntimeDirectory")
    assert Path(one(u, "Service", "WorkingDirectory")) == runtime
    env = env_of(u)
    assert env["SOLITAIRE_KIOSK_CONFIG"] == str(config.DEFAULT_PATH)
    assert env["LG_WD"] == str(runtime)
    # the buttons' chip is found by its label: gpiozero's own factory choice would skip that
    assert "GPIOZERO_PIN_FACTORY" not in env
    # Kivy: nothing written to the card, Escape does not quit, KMS/DRM without X
    assert env["KIVY_NO_FILELOG"] == "1" and env["KIVY_NO_CONFIG"] == "1"
    assert env["KIVY_HOME"].startswith(str(runtime))
    assert env["KCFG_KIVY_EXIT_ON_ESCAPE"] == "0"
    assert env["SDL_VIDEODRIVER"] == "kmsdrm"
    # the Pi 5 DSI helper writes the file the unit reads
    pre = pres[-1].split()
    assert pre[0] == f"{LIBEXEC}/drm-device"
    assert one(u, "Service", "EnvironmentFile") == "-" + pre[1]
    assert one(u, "Service", "ExecStart").split()[:2] == [APP, "run"]
    # the operator menu's exits (kiosk/settings/operator.py): restart, or stay down for maintenance
    from kiosk.settings import operator

    assert {str(operator.EXIT_RESTART), str(operator.EXIT_MAINTENANCE)} <= set(
        one(u, "Service", "SuccessExitStatus").split())
    assert one(u, "Service", "RestartPreventExitStatus") == str(operator.EXIT_MAINTENANCE)
    assert one(u, "Service", "ExecStopPost") == f"+{LIBEXEC}/after-exit"
    assert f'"{operator.EXIT_MAINTENANCE}"' in (SYSTEMD / "libexec/after-exit").read_text() \
        or f"= {operator.EXIT_MAINTENANCE} ]" in (SYSTEMD / "libexec/after-exit").read_text()


def test_kiosk_waits_for_the_play_log_partition():
    need("systemd-escape")
    mount = subprocess.run(["systemd-escape", "--path", "--suffix=mount",
                            str(config.DEFAULT_DATA_DIR)],
                           capture_output=True, text=True, check=True).stdout.strip()
    after = " ".join(values(parse_unit(SYSTEMD / MAIN), "Unit", "After"))
    assert mount in after.split()


def test_kiosk_starts_without_the_play_log_partition():
    """The partition is "nofail": only After= it, never Requires= (StateDirectory= and
    RequiresMountsFor= would add that, and the first QEMU boot showed "Dependency failed")."""
    u = parse_unit(SYSTEMD / MAIN)
    for section, key, value in u:
        assert key not in ("StateDirectory", "RequiresMountsFor", "Requires", "BindsTo"), \
            f"{section}/{key}={value} makes the kiosk fail when the data partition is missing"
    # and its sandbox is built without the directory (for the "+" commands too): "-" on it
    assert f"-{config.DEFAULT_DATA_DIR}" in values(u, "Service", "ReadWritePaths")
    fstab = re.search(r"LABEL=kiosk-data\s+(\S+)\s+ext4\s+(\S+)",
                      (IMAGE_BUILD / "system/install-files.sh").read_text())
    assert fstab and "nofail" in fstab.group(2).split(","), fstab


def test_fstab_leaves_the_device_timeout_to_systemd():
    """udev under load (QEMU) named the partitions after more than a minute on the image's
    first boots, past the 20 s once written here: the lines carry no device timeout, so the
    manager's default applies, which a boot under emulation raises on its command line."""
    for script in ("system/install-files.sh", "debian/build-image.sh"):
        text = (IMAGE_BUILD / script).read_text()
        lines = [line for line in text.splitlines()
                 if "nofail" in line and ("LABEL=" in line or "PARTUUID=" in line)]
        assert lines, script
        assert not any("x-systemd.device-timeout" in line for line in lines), (script, lines)
    options = emulated_boot_options()
    assert "systemd.default_device_timeout_sec=" in options, options


def test_retry_timer_rearms_and_resets_the_start_limit():
    t = parse_unit(SYSTEMD / "solitaire-kiosk-retry.timer")
    assert one(t, "Timer", "RemainAfterElapse") == "no"
    assert one(t, "Timer", "Unit") == "solitaire-kiosk-retry.service"
    s = parse_unit(SYSTEMD / "solitaire-kiosk-retry.service")
    commands = values(s, "Service", "ExecStart")
    assert any("reset-failed" in c and MAIN in c for c in commands)
    assert any(" start " in c and MAIN in c for c in commands)


def test_usb_rule_starts_the_mount_unit():
    rules = [line for line in (SYSTEMD / "90-solitaire-kiosk-usb.rules").read_text().splitlines()
             if line.strip() and not line.startswith("#")]
    assert rules
    pair = re.compile(r'^\s*[A-Z_]+(\{[^}]*\})?\s*(==|!=|=|\+=|-=|:=)\s*"[^"]*"\s*$')
    for rule in rules:
        for part in rule.split(","):
            assert pair.match(part), f"not a udev key/value: {part!r}"
    joined = " ".join(rules)
    assert 'ACTION!="remove"' in joined and 'SUBSYSTEMS=="usb"' in joined
    assert 'ENV{SYSTEMD_WANTS}+="solitaire-kiosk-usb@%k.service"' in joined
    assert 'TAG+="systemd"' in joined


def test_gpio_rule_gives_the_chips_to_the_kiosks_group():
    """Debian's /dev/gpiochip* are root's alone: the buttons need the gpio group's access,
    and the kiosk user is in that group."""
    rules = [line for line in (SYSTEMD / "91-solitaire-kiosk-gpio.rules").read_text()
             .splitlines() if line.strip() and not line.startswith("#")]
    assert rules == ['SUBSYSTEM=="gpio", KERNEL=="gpiochip*", GROUP="gpio", MODE="0660"']
    sysusers = (SYSTEMD / "sysusers.d/solitaire-kiosk.conf").read_text().splitlines()
    assert "m kiosk gpio" in sysusers
    unit = parse_unit(SYSTEMD / MAIN)
    assert "char-gpiochip rw" in values(unit, "Service", "DeviceAllow")
    assert "gpio" in one(unit, "Service", "SupplementaryGroups").split()


def test_sysusers_and_tmpfiles_apply(tmp_path: Path):
    need("systemd-sysusers", "systemd-tmpfiles")
    root = tmp_path / "root"
    (root / "etc").mkdir(parents=True)
    proc = subprocess.run(["systemd-sysusers", f"--root={root}",
                           str(SYSTEMD / "sysusers.d/solitaire-kiosk.conf")],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    passwd = (root / "etc/passwd").read_text()
    assert re.search(r"^kiosk:x:\d+:\d+:", passwd, re.M)
    groups = {line.split(":")[0]: line.split(":")[3].split(",")
              for line in (root / "etc/group").read_text().splitlines()}
    for group in ("video", "render", "input", "gpio"):
        assert "kiosk" in groups[group]
    proc = subprocess.run(["systemd-tmpfiles", f"--root={root}", "--create",
                           str(SYSTEMD / "tmpfiles.d/solitaire-kiosk.conf")],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert (root / "media/usb").is_dir()


@pytest.mark.parametrize(("dropin", "default"), [
    ("logind.conf.d/solitaire-kiosk.conf", "/etc/systemd/logind.conf"),
    ("journald.conf.d/solitaire-kiosk.conf", "/etc/systemd/journald.conf"),
    ("system.conf.d/solitaire-kiosk.conf", "/etc/systemd/system.conf"),
])
def test_config_dropins_use_known_keys(dropin: str, default: str):
    """Every key of a drop-in is one systemd documents in its own default file."""
    reference = Path(default)
    if not reference.exists():
        pytest.skip(f"{default} is not installed on this machine to compare with")
    known = set(re.findall(r"^#?([A-Za-z]+)=", reference.read_text(), re.M))
    sections = set(re.findall(r"^\[(\w+)\]", reference.read_text(), re.M))
    text = (SYSTEMD / dropin).read_text()
    assert set(re.findall(r"^\[(\w+)\]", text, re.M)) <= sections
    keys = re.findall(r"^([A-Za-z]+)=", text, re.M)
    assert keys and set(keys) <= known, set(keys) - known


# Keys that exist only when the kernel has the option: the Pi's and Debian's arm64 kernels
# have it, a CI machine's kernel may not (tests/platform/test_boot_image.py reads the key on
# the image's own kernel).
KERNEL_OPTION_KEYS = {"kernel.sysrq": "CONFIG_MAGIC_SYSRQ"}


def test_sysctl_keys_exist():
    for line in (SYSTEMD / "sysctl.d/90-solitaire-kiosk.conf").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            key = line.split("=")[0].strip()
            if key in KERNEL_OPTION_KEYS and not Path("/proc/sys", *key.split(".")).exists():
                continue
            assert Path("/proc/sys", *key.split(".")).exists(), key


def test_polkit_rule_allows_only_reboot_and_poweroff_to_the_kiosk_user():
    text = (SYSTEMD / "polkit-1/50-solitaire-kiosk.rules").read_text()
    actions = set(re.findall(r'"(org\.freedesktop\.[\w.-]+)"', text))
    assert actions == {"org.freedesktop.login1.reboot",
                       "org.freedesktop.login1.reboot-multiple-sessions",
                       "org.freedesktop.login1.power-off",
                       "org.freedesktop.login1.power-off-multiple-sessions"}
    assert 'subject.user !== "kiosk"' in text
    assert text.count("(") == text.count(")") and text.count("{") == text.count("}")
    node = shutil.which("node") or shutil.which("nodejs")
    if node:
        proc = subprocess.run([node, "--check", "-"], input=text, capture_output=True,
                              text=True, timeout=60)
        assert proc.returncode == 0, proc.stderr


def test_sysrq_key_is_off():
    """Alt+SysRq+B on a visitor's USB keyboard must not reboot the kiosk."""
    settings = {}
    for line in (SYSTEMD / "sysctl.d/90-solitaire-kiosk.conf").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            key, _, value = line.partition("=")
            settings[key.strip()] = value.strip()
    assert settings.get("kernel.sysrq") == "0"


def test_ctrl_alt_del_is_masked_in_the_installed_root(tmp_path: Path):
    """The images' shared installer masks ctrl-alt-del.target (systemd's own verdict on the
    result) and the system drop-in turns off the 7-presses forced reboot."""
    need("systemctl")
    root = install_files(tmp_path)
    target = root / "etc/systemd/system/ctrl-alt-del.target"
    assert target.is_symlink() and str(target.readlink()) == "/dev/null"
    state = subprocess.run(["systemctl", f"--root={root}", "is-enabled", "ctrl-alt-del.target"],
                           capture_output=True, text=True, timeout=60)
    assert state.stdout.strip() == "masked", state.stdout + state.stderr
    manager = (root / "etc/systemd/system.conf.d/solitaire-kiosk.conf").read_text()
    assert re.search(r"^CtrlAltDelBurstAction=none$", manager, re.M)
    sysctl = (root / "etc/sysctl.d/90-solitaire-kiosk.conf").read_text()
    assert re.search(r"^kernel\.sysrq = 0$", sysctl, re.M)


def test_shared_installer_refuses_a_wrong_root(tmp_path: Path):
    proc = subprocess.run(["sh", str(IMAGE_BUILD / "system/install-files.sh"),
                           str(tmp_path / "nothing"), str(SYSTEMD),
                           str(REPO / "config.example.toml")],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and "not a root file system" in proc.stderr
