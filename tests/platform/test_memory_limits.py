"""The kiosk's memory limits, sized from the board's RAM at boot (systemd/system-generators/
solitaire-kiosk-memory, docs/platform.md "Memory limits").

The generator runs here on fake /proc/meminfo files of the boards the kiosk runs on (what
their kernels report: the RAM less the GPU's share and the kernel's own reservations), and
its drop-in is checked against the rule and by ``systemd-analyze verify``. The boot on a
512 MB board itself is tests/platform/test_boot_512m.py.
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

from .conftest import SYSTEMD, install_files
from .test_units import MAIN, analyze, one, parse_unit, root  # noqa: F401 - root: a fixture

GENERATOR = SYSTEMD / "system-generators/solitaire-kiosk-memory"
MIB = 1024 * 1024
#: MemTotal (kB) as the boards' kernels report it, with the default GPU memory
BOARDS = {
    "Pi Zero 2 W / 3A+ (512 MB)": 436_000,
    "QEMU -m 512 (the boot test)": 477_576,   # measured in the guest
    "Pi 3B (1 GB)": 948_000,
    "Pi 4 2 GB": 1_893_000,
    "Pi 4 4 GB": 3_881_000,
    "Pi 5 8 GB": 8_245_000,
}
#: what the kernel, systemd, journald, udev and logind need beside the kiosk (MiB)
SYSTEM_RESERVE = 128
#: the app's resident size after start in attract mode (MiB, bench/soak.py)
APP_AT_START = 205


PASSWD = "root:x:0:0::/root:/bin/sh\nkiosk:x:989:989:Solitaire kiosk:/var/lib/solitaire-kiosk:/usr/sbin/nologin\n"


def run_generator(tmp_path: Path, meminfo: str | None, *args: str, passwd: str = PASSWD):
    env = dict(os.environ)
    (tmp_path / "passwd").write_text(passwd)
    env["SOLITAIRE_KIOSK_PASSWD"] = str(tmp_path / "passwd")
    if meminfo is not None:
        path = tmp_path / "meminfo"
        path.write_text(meminfo)
        env["SOLITAIRE_KIOSK_MEMINFO"] = str(path)
    out = tmp_path / "generator"
    argv = ["sh", str(GENERATOR), *(args if args else (str(out), str(tmp_path / "early"),
                                                       str(tmp_path / "late")))]
    proc = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=30)
    return proc, out / f"{MAIN}.d/50-memory.conf"


def meminfo(total_kib: int) -> str:
    return (f"MemTotal:       {total_kib:>8} kB\nMemFree:        {total_kib // 2:>8} kB\n"
            f"MemAvailable:   {total_kib // 2:>8} kB\n")


def mib(value: str) -> int:
    match = re.fullmatch(r"(\d+)M", value)
    assert match, f"not a size in MiB: {value}"
    return int(match.group(1))


def limits_in_force(tmp_path: Path, total_kib: int) -> tuple[str, str]:
    """(MemoryHigh, MemoryMax) of the kiosk on a board with this MemTotal: the unit's own,
    replaced by the generator's drop-in where it writes one."""
    unit = parse_unit(SYSTEMD / MAIN)
    high, top = one(unit, "Service", "MemoryHigh"), one(unit, "Service", "MemoryMax")
    if GENERATOR.exists():
        proc, dropin = run_generator(tmp_path, meminfo(total_kib))
        assert proc.returncode == 0, proc.stderr
        d = parse_unit(dropin)
        high, top = one(d, "Service", "MemoryHigh"), one(d, "Service", "MemoryMax")
    return high, top


def as_mib(value: str, total_mib: int) -> int:
    if value.endswith("%"):
        return total_mib * int(value[:-1]) // 100
    return mib(value)


@pytest.mark.parametrize("board", BOARDS)
def test_the_limits_fit_the_board(tmp_path: Path, board: str):
    """On every board the kiosk is killed (and restarted) before the rest of the system is
    short of memory, and reclaimed from before it is killed; from 1 GB up the measured
    limits (512M/768M) hold, so a leak still ends in a restart soon."""
    total = BOARDS[board] // 1024
    high, top = limits_in_force(tmp_path, BOARDS[board])
    high_mib, max_mib = as_mib(high, total), as_mib(top, total)
    assert max_mib <= total - SYSTEM_RESERVE, (board, total, high, top)
    assert 0 < high_mib < max_mib <= 768 and high_mib <= 512, (board, high, top)
    # never below the app's own size after start (about 205 MB, docs/benchmarks.md, "Soak"):
    # a kiosk throttled or killed from its first minute would be worse than none
    assert high_mib >= APP_AT_START and max_mib >= high_mib + 32, (board, high, top)
    if total >= 1800:
        assert (high_mib, max_mib) == (512, 768), (board, high, top)


def test_the_drop_in_says_the_ram_and_verifies(tmp_path: Path, root: Path):  # noqa: F811
    proc, dropin = run_generator(tmp_path, meminfo(BOARDS["Pi Zero 2 W / 3A+ (512 MB)"]))
    assert proc.returncode == 0 and proc.stdout == proc.stderr == ""
    text = dropin.read_text()
    assert "MemTotal 425 MiB" in text
    d = parse_unit(dropin)
    assert (one(d, "Service", "MemoryHigh"), one(d, "Service", "MemoryMax")) == ("247M", "297M")
    # an operator's `systemctl edit` (override.conf) sorts after it, so it wins
    assert sorted([dropin.name, "override.conf"])[-1] == "override.conf"
    target = root / f"etc/systemd/system/{MAIN}.d"
    target.mkdir(parents=True, exist_ok=True)
    (target / dropin.name).write_text(text)
    try:
        check = analyze(root, "verify", MAIN)
        output = (check.stdout + check.stderr).strip()
        assert check.returncode == 0 and not output, output
    finally:
        (target / dropin.name).unlink()


@pytest.mark.parametrize("content", ["", "MemFree: 1000 kB\n", "MemTotal: lots kB\n"],
                         ids=["empty", "no MemTotal", "not a number"])
def test_a_meminfo_without_memtotal_leaves_the_units_limits(tmp_path: Path, content: str):
    proc, dropin = run_generator(tmp_path, content)
    assert proc.returncode == 2 and not dropin.exists()
    assert proc.stderr.count("\n") == 1 and "no MemTotal in" in proc.stderr, proc.stderr


def test_no_output_directory_is_a_usage_error(tmp_path: Path):
    proc = subprocess.run(["sh", str(GENERATOR)], capture_output=True, text=True, timeout=30)
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and "no output directory" in proc.stderr


def test_the_unit_alone_holds_on_any_board():
    """Without the drop-in (a generator that failed) the unit's own limits are shares of
    the RAM, never more than a 512 MB board has."""
    unit = parse_unit(SYSTEMD / MAIN)
    for key in ("MemoryHigh", "MemoryMax"):
        value = one(unit, "Service", key)
        assert value.endswith("%") and 0 < int(value[:-1]) < 100, (key, value)


def test_the_images_install_the_generator(tmp_path: Path):
    root_dir = install_files(tmp_path)
    installed = root_dir / "etc/systemd/system-generators/solitaire-kiosk-memory"
    assert installed.read_bytes() == GENERATOR.read_bytes()
    assert installed.stat().st_mode & 0o111 == 0o111


def test_the_kiosk_users_slice_gets_the_same_limits(tmp_path: Path):
    """PAMName=login puts the app (and its hint worker) in a logind session scope under
    user-UID.slice, out of the service's cgroup: the slice carries the same limits."""
    proc, dropin = run_generator(tmp_path, meminfo(BOARDS["QEMU -m 512 (the boot test)"]))
    assert proc.returncode == 0, proc.stderr
    service = parse_unit(dropin)
    user_slice = parse_unit(tmp_path / "generator/user-989.slice.d/50-memory.conf")
    for key in ("MemoryHigh", "MemoryMax"):
        assert one(user_slice, "Slice", key) == one(service, "Service", key)
    assert one(user_slice, "Slice", "MemoryMax") == "338M"


def test_without_a_kiosk_user_only_the_service_is_limited(tmp_path: Path):
    proc, dropin = run_generator(tmp_path, meminfo(BOARDS["Pi 3B (1 GB)"]),
                                 passwd="root:x:0:0::/root:/bin/sh\n")
    assert proc.returncode == 0 and dropin.exists()
    assert not list((tmp_path / "generator").glob("user-*.slice.d"))
    assert proc.stderr.count("\n") == 1 and "no user kiosk" in proc.stderr
