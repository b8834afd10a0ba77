"""The SD-card image from Debian's archive, booted in QEMU from power-on to the welcome screen.

`make test` builds the image beside the suite (tools/test.sh) and this file boots it once
its build has ended; `make image` builds build/solitaire-kiosk-arm64.img
(image-build/debian/build-image.sh) and `make boot-test` runs this file on it
(SOLITAIRE_KIOSK_IMAGE). Where neither is at hand (not root, no binfmt_misc), it is
skipped with the reason. A copy of the image is booted (tests/platform/qemu_machine.py),
so the built image stays as it was made, and everything is checked from outside: over the
serial console (a root shell that only this test's kernel command line opens) and QEMU's
monitor (screendumps, touches, keys, the power plug).

The boots: the first one seals the root (solitaire-kiosk-seal.service adds overlayroot to
cmdline.txt and reboots; QEMU, run with -no-reboot, then ends), the second is the kiosk as a
lobby sees it every day, the third follows a power cut in the middle of a game.

The hardware buttons are wired to a real GPIO line of the guest's kernel: QEMU's PL061, its
line 3 pulsed over QMP (qemu_machine.py says how), configured the way an operator configures a
kiosk, by ``solitaire-kiosk.toml`` on the boot partition, written before the boot: New deal
on that line in the second boot, Undo on it in the third (QEMU pulses no other line).
Figures of the run go to build/boot-timings.json and docs/benchmarks.md ("Boot").
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from . import update_steps as up
from .conftest import REPO, BuiltImage, need
from .pictures import Picture, difference, read_png, write_png
from .qemu_machine import (
    EMULATED_START_TIMEOUT,
    EMULATED_WATCHDOG,
    EMULATED_WATCHDOG_S,
    PL061_LABEL,
    PULSED_LINE,
    Machine,
    gpio_dtb,
    put_boot_file,
)

pytestmark = pytest.mark.slow

BUILD = REPO / "build"
UNIT = "solitaire-kiosk.service"
PLAYS = "/var/lib/solitaire-kiosk/plays.db"
BOOT_TIMEOUT = 1800     # TCG emulation of a 4-core Pi on a loaded 2-core machine is slow
SAME_SCREEN = 20.0      # pictures.difference below this: the same screen drawn twice
# From READY=1 to the welcome screen in a screendump: the first frames come from llvmpipe
# (Mesa's software GL, its shaders compiled by LLVM) under TCG; a Pi draws with its GPU.
FIRST_FRAME_TIMEOUT = 900
# the guest's view of the display, saved next to boot-screen.png when it is not the welcome
DISPLAY_PROBES = (
    "cat /sys/class/tty/tty0/active",
    "for s in /sys/class/drm/card*-*/status; do echo \"$s $(cat $s)\"; done",
    "mountpoint -q /sys/kernel/debug || mount -t debugfs debugfs /sys/kernel/debug; "
    "cat /sys/kernel/debug/dri/*/state 2>&1 | head -n 80",
    "ls -l /proc/$(systemctl show -p MainPID --value solitaire-kiosk.service)/fd "
    "2>&1 | grep -E 'dri|tty' || true",
    "journalctl -b -u solitaire-kiosk.service --no-hostname -o cat | "
    "grep -iE 'GL|SDL|window|render|drm|kms' | tail -n 40",
)


#: the PL061's line that nothing pulses: the other button's
QUIET_LINE = 4
#: from QEMU's pulse to the play log's row, under TCG on a loaded machine
BUTTON_TIMEOUT = 180


def buttons_config(new_deal_pin: int, undo_pin: int) -> str:
    """The image's configuration (config.example.toml) with the buttons on the PL061's
    lines: QEMU's line idles low and goes high when pulsed, as a button wired to 3.3 V."""
    text = (REPO / "config.example.toml").read_text()
    for key, value in (("new_deal_pin", str(new_deal_pin)), ("undo_pin", str(undo_pin)),
                       ("chip", f'"{PL061_LABEL}"'), ("pull", '"down"')):
        text, n = re.subn(rf"^{key} = .*$", f"{key} = {value}", text, count=1, flags=re.M)
        assert n == 1, f"config.example.toml has no {key} line"
    return text


def wait_lines_held(m: Machine) -> str:
    """The PL061's two lines held by the kiosk (lgpio's "lg"): it takes them as it starts,
    and a loaded machine's emulated start may still be on its way; or why not."""
    def both_held() -> str | None:
        text = held_lines(m)
        return text if len(re.findall(r"\|lg\s*\)", text)) == 2 else None
    try:
        return wait_until("the kiosk holding the PL061's lines", both_held, 120)
    except AssertionError as err:
        raise AssertionError(f"{err}; {buttons_diagnosis(m)}") from None


def buttons_diagnosis(m: Machine) -> str:
    """Why the kiosk may not hold its lines: the config import's run, the buttons' settings
    the kiosk read, what its journal says about buttons."""
    probes = ("systemctl show solitaire-kiosk-config -p ActiveState -p ConditionResult",
              "grep -E '^(chip|new_deal_pin|undo_pin|pull) ' /etc/solitaire-kiosk/config.toml",
              f"journalctl -b -u {UNIT} --no-hostname -o cat | grep -i button | tail -n 5")
    return "; ".join(f"$ {probe}: {m.sh(probe)[1].strip()!r}" for probe in probes)


def play_row(m: Machine, play_id: int) -> dict:
    out = m.ok(f"python3 -c \"import json, sqlite3; db = sqlite3.connect('file:{PLAYS}?mode=ro', "
               "uri=True); db.row_factory = sqlite3.Row; print(json.dumps(dict(db.execute("
               f"'SELECT * FROM plays WHERE id = {play_id}').fetchone())))\"")
    return json.loads(out)


def moves_of(m: Machine, play_id: int) -> list[tuple[str, str]]:
    out = m.ok(f"python3 -c \"import json, sqlite3; db = sqlite3.connect('file:{PLAYS}?mode=ro', "
               "uri=True); print(json.dumps(db.execute('SELECT move, source FROM moves "
               f"WHERE play_id = {play_id} ORDER BY seq').fetchall()))\"")
    return [tuple(row) for row in json.loads(out)]


def held_lines(m: Machine) -> str:
    """The PL061's lines as the kernel's debugfs lists them (the holder's name, direction)."""
    return m.ok("mountpoint -q /sys/kernel/debug || mount -t debugfs debugfs /sys/kernel/debug; "
                f"sed -n '/{PL061_LABEL}/,/^$/p' /sys/kernel/debug/gpio")


# every process whose controlling terminal is a virtual console (tty_nr of /proc/PID/stat:
# major 4, minors 1-63), as "ttyN command"; the image has no procps, so no `ps`
ON_VTS = (r"for s in /proc/[0-9]*/stat; do read -r l 2>/dev/null < $s || continue; "
          r"c=${l#*\(}; c=${c%\)*}; set -- ${l##*\) }; n=$5; "
          r'[ $((n >> 8)) -eq 4 ] && [ $((n & 255)) -lt 64 ] && echo "tty$((n & 255)) $c"; '
          r"done; true")


@dataclass
class Kiosk:
    machine: Machine
    workdir: Path
    reference: dict
    pictures: dict[str, Picture]
    timings: dict[str, float] = field(default_factory=dict)
    first_cmdline: str = ""
    # the first screen after READY=1: (picture, differences), or why it was not the welcome
    welcome: tuple[Picture, dict[str, float]] | None = None
    welcome_error: str = ""

    def save_timings(self) -> None:
        BUILD.mkdir(exist_ok=True)
        (BUILD / "boot-timings.json").write_text(json.dumps(self.timings, indent=1) + "\n")


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict, dict[str, Picture]]:
    """The welcome screen, the picker, the variant sheet (when offered) and a table as the
    app draws them here, at 800x480."""
    out = tmp_path_factory.mktemp("reference")
    proc = subprocess.run([sys.executable, "-m", "tests.platform.boot_reference", str(out),
                           str(REPO / "config.example.toml"), "800x480"],
                          cwd=REPO, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    ref = json.loads((out / "reference.json").read_text())
    names = ("welcome", "picker", "variants", "table")
    pics = {name: read_png(out / f"{name}.png") for name in names
            if (out / f"{name}.png").exists()}
    return ref, pics


def unit_state(m: Machine, *props: str) -> dict[str, str]:
    out = m.ok(f"systemctl show {UNIT} " + " ".join(f"-p {p}" for p in props))
    return dict(line.split("=", 1) for line in out.splitlines() if "=" in line)


def wait_until(what: str, check, timeout: float, every: float = 3.0):
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not after {timeout:.0f} s")
        time.sleep(every)


def wait_ready(m: Machine, timeout: float = BOOT_TIMEOUT) -> dict[str, str]:
    """The kiosk unit active: Type=notify, so READY=1 came (the first frame was drawn)."""
    def ready():
        state = unit_state(m, "ActiveState", "SubState", "MainPID", "NRestarts",
                           "ActiveEnterTimestampMonotonic")
        return state if state.get("ActiveState") == "active" else None
    return wait_until(f"{UNIT} ready", ready, timeout)


def boot(disk: Path, workdir: Path, name: str, dtb: Path | None = None) -> Machine:
    m = Machine(disk, workdir, name, dtb=dtb)
    m.start()
    m.wait_for_shell(BOOT_TIMEOUT)
    m.ok("stty -echo; export SYSTEMD_PAGER=cat SYSTEMD_COLORS=0 PAGER=cat")
    return m


def brightness(shot: Picture) -> float:
    """Mean of every 97th byte: 0 for the black screen of a display nothing drew on."""
    sample = shot.rgb[::97]
    return sum(sample) / max(1, len(sample))


def screen_like(m: Machine, pics: dict[str, Picture], want: str, path: Path,
                timeout: float = 180,
                seen: list[tuple[float, float]] | None = None) -> tuple[Picture, dict[str, float]]:
    """Screendumps until the screen is the reference ``want`` (closest of all, and close).
    ``seen`` collects (seconds since QEMU's start, brightness) of every dump."""
    deadline = time.monotonic() + timeout
    while True:
        shot = m.screendump(path)
        if seen is not None:
            seen.append((round(time.monotonic() - m.started, 1), round(brightness(shot), 1)))
        scores = {name: difference(shot, pic) for name, pic in pics.items()}
        if min(scores, key=scores.get) == want and scores[want] < SAME_SCREEN:
            write_png(path, shot)
            return shot, scores
        if time.monotonic() > deadline:
            write_png(path, shot)
            raise AssertionError(f"the screen is not the {want} screen (saved as {path}): "
                                 f"differences {scores}")
        time.sleep(3)


def open_plays(m: Machine) -> list[int]:
    out = m.ok(f"python3 -c \"import sqlite3; db = sqlite3.connect('file:{PLAYS}?mode=ro', "
               "uri=True); print(*[r[0] for r in db.execute('SELECT id FROM plays WHERE "
               "result IS NULL AND demo = 0')])\"")
    return [int(v) for v in out.split()]


def start_a_game(k: Kiosk, name: str) -> Picture:
    """Touch the welcome screen, the picker's first tile and, when the image's config offers
    its variants, the default one: the table is shown; then the stock, the first move."""
    m, ref = k.machine, k.reference
    try:
        screen_like(m, k.pictures, "welcome", k.workdir / f"{name}-welcome.png", timeout=30)
    except AssertionError:
        # the attract demo (after [attract] delay on the welcome screen): a touch ends it
        m.touch(*ref["welcome_touch"])
        screen_like(m, k.pictures, "welcome", k.workdir / f"{name}-welcome.png")
    m.touch(*ref["welcome_touch"])
    screen_like(m, k.pictures, "picker", k.workdir / f"{name}-picker.png")
    m.touch(*ref["tile_touch"])
    if ref.get("variant_touch"):   # the image's config offers variants of the first game
        screen_like(m, k.pictures, "variants", k.workdir / f"{name}-variants.png")
        m.touch(*ref["variant_touch"])
    shot, _ = screen_like(m, k.pictures, "table", k.workdir / f"{name}-table.png")
    m.touch(*ref["move_touch"])   # the first move: the play's row is written then
    return shot


@pytest.fixture(scope="module")
def kiosk(built_image: BuiltImage, reference, tmp_path_factory: pytest.TempPathFactory):
    need("qemu-system-aarch64", "mcopy", "mtype", "mdir", "sfdisk")
    workdir = tmp_path_factory.mktemp("boot")
    disk = workdir / "disk.img"
    subprocess.run(["cp", "--sparse=always", str(built_image.image), str(disk)], check=True)
    ref, pics = reference
    dtb = gpio_dtb(workdir / "virt-gpio.dtb", 2048)

    # 1st boot: the kiosk comes up, the seal unit adds overlayroot and reboots
    first = Machine(disk, workdir, "boot1", dtb=dtb)
    first_cmdline = first.cmdline
    first.start()
    try:
        status = first.wait_exit(BOOT_TIMEOUT)
        assert status is not None, f"the first boot did not reboot:\n{first.tail()}"
        first_seconds = time.monotonic() - first.started
    finally:
        first.pull_the_plug()

    # 2nd boot: the kiosk as every day, its New deal button on the pulsed line
    put_boot_file(disk, "solitaire-kiosk.toml", buttons_config(PULSED_LINE, QUIET_LINE))
    m = boot(disk, workdir, "boot2", dtb)
    k = Kiosk(m, workdir, ref, pics, first_cmdline=first_cmdline)
    k.timings["first_boot_to_seal_reboot_s"] = round(first_seconds, 1)
    k.timings["shell_s"] = round(time.monotonic() - m.started, 1)
    state = wait_ready(m)
    k.timings["qemu_start_to_ready_s"] = round(time.monotonic() - m.started, 1)
    k.timings["kernel_to_ready_s"] = round(int(state["ActiveEnterTimestampMonotonic"]) / 1e6, 1)
    # The welcome screen at once, before the attract demo ([attract] delay) can replace it.
    BUILD.mkdir(exist_ok=True)
    seen: list[tuple[float, float]] = []
    try:
        k.welcome = screen_like(m, pics, "welcome", BUILD / "boot-screen.png",
                                timeout=FIRST_FRAME_TIMEOUT, seen=seen)
        k.timings["qemu_start_to_welcome_s"] = round(time.monotonic() - m.started, 1)
    except AssertionError as err:
        k.welcome_error = str(err)
    lit = [t for t, level in seen if level > 1]
    if lit:
        k.timings["qemu_start_to_first_drawn_dump_s"] = lit[0]
    k.timings["dumps_until_welcome"] = len(seen)
    if k.welcome is None:
        diagnosis = [f"dumps (s, brightness): {seen}"]
        for probe in DISPLAY_PROBES:
            diagnosis.append(f"$ {probe}\n{m.sh(probe, timeout=300)[1]}")
        (BUILD / "boot-screen-diagnosis.txt").write_text("\n".join(diagnosis) + "\n")
    k.save_timings()
    try:
        yield k
    finally:
        k.save_timings()
        k.machine.pull_the_plug()


def test_first_boot_seals_the_root_and_reboots(bundles, kiosk: Kiosk):
    assert "overlayroot" not in kiosk.first_cmdline
    assert "overlayroot=tmpfs:recurse=0" in kiosk.machine.cmdline
    # the lower root mounted read-only by the initramfs (overlayroot keeps it as mounted)
    assert " rw " in f" {kiosk.first_cmdline} " and " ro " in f" {kiosk.machine.cmdline} "
    assert "systemd.debug_shell" not in kiosk.machine.cmdline, "the image has no console shell"
    proc_cmdline = kiosk.machine.ok("cat /proc/cmdline")
    assert "overlayroot=tmpfs:recurse=0" in proc_cmdline


def test_kiosk_unit_is_ready_and_pinged_by_its_watchdog(kiosk: Kiosk):
    m = kiosk.machine
    state = unit_state(m, "Type", "ActiveState", "SubState", "WatchdogUSec",
                       "WatchdogTimestampMonotonic", "MainPID")
    assert state["Type"] == "notify" and state["ActiveState"] == "active", state
    # the emulated boot's drop-in (qemu_machine.py); the unit's own 30 s is checked below
    assert state["WatchdogUSec"] == EMULATED_WATCHDOG, state
    first = int(state["WatchdogTimestampMonotonic"])
    asked = time.monotonic()
    later = wait_until("a watchdog ping", lambda: (
        int(unit_state(m, "WatchdogTimestampMonotonic")["WatchdogTimestampMonotonic"])
        > first), EMULATED_WATCHDOG_S, every=5)
    assert later
    kiosk.timings["watchdog_ping_seen_after_s"] = round(time.monotonic() - asked, 1)
    assert m.ok(f"grep -x 'WatchdogSec=30' /etc/systemd/system/{UNIT}")
    log = m.ok(f"journalctl -b -u {UNIT} --no-hostname -o cat | tail -n 50")
    assert "Traceback" not in log, log


def test_only_the_emulated_boot_lengthens_the_start_timeout(kiosk: Kiosk):
    """The boot test's credential drop-in is in force, and the image's unit keeps its own."""
    m = kiosk.machine
    state = unit_state(m, "TimeoutStartUSec", "DropInPaths", "FragmentPath")
    assert state["TimeoutStartUSec"] == EMULATED_START_TIMEOUT, state
    assert state["FragmentPath"] == f"/etc/systemd/system/{UNIT}", state
    assert all(p.startswith("/run/") for p in state["DropInPaths"].split()), state
    assert m.ok(f"grep -x 'TimeoutStartSec=120' /etc/systemd/system/{UNIT}")
    assert "set_credential" not in kiosk.machine.cmdline, "the image's cmdline.txt has it"


def test_welcome_screen_is_the_apps_own(kiosk: Kiosk):
    assert kiosk.welcome, kiosk.welcome_error
    shot, scores = kiosk.welcome
    kiosk.timings["welcome_difference"] = round(scores["welcome"], 2)
    kiosk.timings["welcome_vs_table_difference"] = round(scores["table"], 2)
    assert (shot.width, shot.height) == (800, 480)
    print(f"boot-screen.png: differences {scores}")


def test_a_touch_starts_a_game(kiosk: Kiosk):
    shot = start_a_game(kiosk, "touch")
    write_png(BUILD / "boot-table.png", shot)
    plays = wait_until("an open play in the log", lambda: open_plays(kiosk.machine), 60)
    assert len(plays) == 1, plays


def test_new_deal_button_on_a_gpio_line(kiosk: Kiosk):
    """QEMU's pulse on the PL061's line 3, which the kiosk holds through lgpio (found by the
    chip's label): the open play ends abandoned with one button press, the table shows a
    new deal, and the next move's play counts no press (the pulse was one action)."""
    m = kiosk.machine
    lines = wait_lines_held(m)
    print(f"the PL061's lines:\n{lines}")
    assert re.search(r"gpio-\d+ \(\s*\|lg\s*\) in\s+lo", lines), lines   # 3 and 4
    assert len(re.findall(r"\|lg\s*\)", lines)) == 2, lines
    journal = m.ok(f"journalctl -b -u {UNIT} --no-hostname -o cat | grep -c "
                   "'hardware buttons not available' || true")
    assert journal == "0", "the kiosk says it has no buttons"
    plays = wait_until("an open play in the log", lambda: open_plays(m), 60)
    before = m.screendump(kiosk.workdir / "before-new-deal.png")
    pulsed = time.monotonic()
    m.pulse_gpio()
    row = wait_until("the play ended by the New deal button",
                     lambda: (r := play_row(m, plays[-1]))["result"] and r, BUTTON_TIMEOUT)
    kiosk.timings["gpio_pulse_to_logged_new_deal_s"] = round(time.monotonic() - pulsed, 1)
    assert row["result"] == "abandoned" and row["button_presses"] == 1, row
    # the row is written when the old play ends; the new deal is drawn after it (a frame
    # or two later, many seconds under emulation on a loaded machine)
    shots: list[Picture] = []

    def redrawn() -> bool:
        shots.append(m.screendump(kiosk.workdir / "after-new-deal.png"))
        return difference(before, shots[-1]) > 1.0
    try:
        wait_until("a new deal on the screen", redrawn, 90)
    finally:
        write_png(BUILD / "boot-new-deal.png", shots[-1])
    m.touch(*kiosk.reference["move_touch"])     # the new deal's first move: its play's row
    new = wait_until("the new deal's play", lambda: open_plays(m), 60)
    assert new[-1] > plays[-1] and play_row(m, new[-1])["button_presses"] == 0


def test_no_getty_or_shell_on_the_display(kiosk: Kiosk):
    m = kiosk.machine
    gettys = m.ok("systemctl list-units --all --plain --no-legend 'getty@*' 'autovt@*' "
                  "| grep -w active || true")
    assert gettys == "", gettys
    on_vts = m.ok(ON_VTS)
    assert all(re.match(r"tty1\s", line) for line in on_vts.splitlines()), on_vts
    commands = {line.split()[1] for line in on_vts.splitlines()}
    assert not commands & {"agetty", "getty", "login", "sh", "dash", "bash"}, on_vts
    m.keys("ctrl", "alt", "f2")
    time.sleep(5)
    assert m.ok("cat /sys/class/tty/tty0/active") == "tty1"
    assert m.ok("systemctl list-units --plain --no-legend 'getty@*' 'autovt@*' "
                "| grep -w running || true") == ""


def test_ctrl_alt_del_and_sysrq_do_nothing(kiosk: Kiosk):
    m = kiosk.machine
    assert m.ok("cat /proc/sys/kernel/sysrq") == "0"
    assert m.ok("systemctl is-enabled ctrl-alt-del.target || true") == "masked"
    assert m.ok("systemctl show -p CtrlAltDelBurstAction --value") == "none"
    boot_id = m.ok("cat /proc/sys/kernel/random/boot_id")
    pid = unit_state(m, "MainPID")["MainPID"]
    for _ in range(8):   # more than systemd's burst of 7 in 2 s
        m.keys("ctrl", "alt", "delete")
    m.keys("alt", "sysrq", "b")   # SysRq "reBoot now"
    m.keys("alt", "sysrq", "c")   # SysRq "Crash"
    time.sleep(10)
    assert m.alive(), "QEMU ended: the machine rebooted"
    assert m.ok("cat /proc/sys/kernel/random/boot_id") == boot_id
    assert unit_state(m, "MainPID")["MainPID"] == pid


def test_root_is_read_only_and_the_play_log_has_its_partition(kiosk: Kiosk):
    m = kiosk.machine
    assert m.ok("findmnt -n -o FSTYPE /") == "overlay"
    lower = m.ok("findmnt -n -o OPTIONS /media/root-ro")
    assert "ro" in lower.split(","), lower
    status, _ = m.sh("touch /media/root-ro/written")
    assert status != 0, "the root partition is writable"
    source, fstype, options = m.ok(
        "findmnt -n -o SOURCE,FSTYPE,OPTIONS /var/lib/solitaire-kiosk").split()
    assert fstype == "ext4" and "rw" in options.split(","), (source, fstype, options)
    assert m.ok(f"blkid -s LABEL -o value {source}") == "kiosk-data"
    assert m.ok(f"test -f {PLAYS} && echo yes") == "yes"


def test_frozen_app_is_restarted_by_the_watchdog(kiosk: Kiosk):
    m = kiosk.machine
    before = unit_state(m, "MainPID", "NRestarts", "WatchdogUSec", "TimeoutStopUSec")
    stopped_at = float(m.ok(f"kill -STOP {before['MainPID']}; cut -d' ' -f1 /proc/uptime"))

    def restarted():
        s = unit_state(m, "MainPID", "NRestarts", "ActiveState")
        return s if s["MainPID"] not in ("0", before["MainPID"]) and \
            s["ActiveState"] == "active" else None
    after = wait_until("the kiosk restarted", restarted, EMULATED_WATCHDOG_S + 1200, every=5)
    if int(after["NRestarts"]) != int(before["NRestarts"]) + 1:
        journal = m.sh(f"journalctl -b -u {UNIT} -u solitaire-kiosk-retry.service "
                       "-o short-monotonic --no-hostname | tail -n 80", timeout=300)[1]
        raise AssertionError(f"NRestarts {before['NRestarts']} -> {after['NRestarts']}: not "
                             f"one automatic restart:\n{journal}")
    log = m.ok(f"journalctl -b -u {UNIT} -o short-monotonic --no-hostname | "
               "grep -m1 'Watchdog timeout'")
    timed_out_at = float(re.search(r"\[\s*([\d.]+)\]", log).group(1))
    kiosk.timings["sigstop_to_watchdog_kill_s"] = round(timed_out_at - stopped_at, 1)
    # systemd kills at most WatchdogSec after the last ping, which came before the stop
    # (under TCG the pings are not punctual, so no lower bound beyond "after the stop")
    assert 0 < timed_out_at - stopped_at <= EMULATED_WATCHDOG_S + 10, log


def test_power_loss_mid_game_loses_nothing(kiosk: Kiosk):
    m = kiosk.machine
    wait_ready(m)
    start_a_game(kiosk, "power")
    plays = wait_until("an open play in the log", lambda: open_plays(m), 60)
    m.ok("echo lost > /etc/written-after-seal")
    m.pull_the_plug()

    # the 3rd boot has Undo on the pulsed line (test_undo_button_on_a_gpio_line)
    put_boot_file(m.disk, "solitaire-kiosk.toml", buttons_config(QUIET_LINE, PULSED_LINE))
    kiosk.machine = m = boot(m.disk, kiosk.workdir, "boot3", m.dtb)
    wait_ready(m)
    assert m.ok(f"python3 -c \"import sqlite3; print(sqlite3.connect('file:{PLAYS}?mode=ro', "
                "uri=True).execute('PRAGMA integrity_check').fetchone()[0])\"") == "ok"

    def results() -> list[str]:
        return m.ok(f"python3 -c \"import sqlite3; db = sqlite3.connect('file:{PLAYS}?mode=ro',"
                    f" uri=True); print(*[r[0] for r in db.execute('SELECT result FROM plays "
                    f"WHERE id IN ({','.join(map(str, plays))})')])\"").split()
    # the kiosk opens its play log just after the first frame (READY=1 is sent then too)
    # and marks what the power cut left open
    try:
        wait_until("the open plays marked interrupted",
                   lambda: results() == ["interrupted"] * len(plays), 60)
    except AssertionError:
        raise AssertionError(f"after the power cut: {results()}") from None
    status, _ = m.sh("test -e /etc/written-after-seal")
    assert status != 0, "a file written to the sealed root survived the reboot"
    screen_like(m, kiosk.pictures, "welcome", kiosk.workdir / "after-power-loss.png")


def test_undo_button_on_a_gpio_line(kiosk: Kiosk):
    """The third boot has Undo on the pulsed line: two moves, one pulse, one undo logged
    as the button's (the last row: ``undo``, or ``undo:N`` with the autoplay moves it took
    back), and the play goes on."""
    m = kiosk.machine
    wait_lines_held(m)
    start_a_game(kiosk, "undo")                       # its first move: the stock
    plays = wait_until("an open play in the log", lambda: open_plays(m), 60)
    m.touch(*kiosk.reference["move_touch"])           # the second

    def touched() -> int:
        return sum(source == "touch" for _move, source in moves_of(m, plays[-1]))
    wait_until("two moves in the log", lambda: touched() >= 2, 60)
    time.sleep(5)                                     # and what autoplay does after them
    pulsed = time.monotonic()
    m.pulse_gpio()
    wait_until("the Undo button's undo in the log", lambda: any(
        move.startswith("undo") for move, _source in moves_of(m, plays[-1])), BUTTON_TIMEOUT)
    kiosk.timings["gpio_pulse_to_logged_undo_s"] = round(time.monotonic() - pulsed, 1)
    time.sleep(5)                                     # a second action would come now
    moves = moves_of(m, plays[-1])
    undos = [(move, source) for move, source in moves if move.startswith("undo")]
    assert len(undos) == 1 and undos[0][1] == "button" and moves[-1] == undos[0], moves
    row = play_row(m, plays[-1])
    assert row["result"] is None and row["undos"] == 1 and row["button_presses"] == 1, row
    assert open_plays(m) == plays
    # the visitor leaves by Home: the operator's corner (the update tests) is the picker's
    # and the welcome screen's, not the table's (there it is the Rules button)
    m.touch(*kiosk.reference["home_touch"])
    screen_like(m, kiosk.pictures, "picker", kiosk.workdir / "undo-home.png")


# ------------------------------------------------- updates (issue 33, docs/updates.md)
# The card is laid out in A/B slots; the harness plays the Pi firmware (autoboot.txt, the
# one-shot tryboot flag). The update comes from a USB stick plugged into the running kiosk.

@pytest.fixture(scope="module")
def bundles(built_image: BuiltImage, tmp_path_factory: pytest.TempPathFactory) -> up.Bundles:
    """Made in a thread from the test's first seconds (the first test asks for it)."""
    missing = up.have_tools()
    if missing:
        pytest.fail(f"missing {', '.join(missing)}: tools/debian-packages.txt")
    assert built_image.keys, "no keys for this image: `make test` makes them, `make image` too"
    other = built_image.other_keys or up.make_keys(tmp_path_factory.mktemp("other-keys"),
                                                   "Another office")
    return up.Bundles(built_image.image, built_image.keys, other,
                      tmp_path_factory.mktemp("bundles"))


@pytest.fixture(scope="module")
def operator_ref(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """Where the operator touches (the app's own layout at 800x480, the image's config)."""
    return up.operator_reference(tmp_path_factory.mktemp("operator-ref"),
                                 REPO / "config.example.toml")


def play_rows(m: Machine) -> list[tuple[int, str]]:
    out = m.ok(f"python3 -c \"import sqlite3; db = sqlite3.connect('file:{PLAYS}?mode=ro', "
               "uri=True); print(*[f'{r[0]}:{r[1]}' for r in db.execute('SELECT id, "
               "result FROM plays WHERE demo = 0 ORDER BY id')])\"")
    return [(int(a), b) for a, b in (w.split(":", 1) for w in out.split())]


def test_the_card_is_in_slots_and_runs_slot_a(kiosk: Kiosk, bundles: up.Bundles):
    m = kiosk.machine
    assert (m.firmware.partition, m.firmware.tryboot) == (2, False), m.firmware
    st = up.guest_status(m)
    assert (st["booted"], st["committed"], st["on_trial"]) == ("A", "A", False), st
    assert st["running_version"] == bundles.get()["running"].version
    assert st["slots"]["B"]["state"] == "bad" and st["last_update"] is None, st
    rauc = up.rauc_slots(m)
    assert rauc["_booted"] == "A" and rauc["_primary"] == "rootfs.0"
    assert rauc["rootfs.0"]["boot_status"] == "good" and rauc["rootfs.1"]["boot_status"] == "bad"
    mounts = {where: m.ok(f"findmnt -n -o SOURCE {where}")
              for where in ("/boot/firmware", "/boot/bootfs", "/media/root-ro")}
    assert mounts == {"/boot/firmware": "/dev/vda2", "/boot/bootfs": "/dev/vda1",
                      "/media/root-ro": "/dev/vda5"}, mounts
    assert m.ok("wc -c < /boot/bootfs/autoboot.txt") == "256"
    assert m.ok("cat /etc/rauc/keyring.pem | head -n 1") == "-----BEGIN CERTIFICATE-----"
    assert m.sh("ls /etc/rauc/*key* | grep -v keyring.pem")[0] != 0, "no key in the image"


def test_a_bundle_of_another_office_or_an_older_one_is_refused(kiosk: Kiosk,
                                                               bundles: up.Bundles,
                                                               operator_ref: dict):
    """On a stick: the Software update page shows why in one line and has nothing to
    install; `kiosk update check` says the same, a request is refused by the root unit, and
    slot B is not touched."""
    m = kiosk.machine
    made = bundles.get()
    foreign, older = made["foreign"].path, made["older"].path
    stick = m.plug_stick(up.stick([foreign, older], kiosk.workdir / "refused-stick.img"))
    up.wait_stick_mounted(m, older.name)
    operator = up.Operator(m, operator_ref, kiosk.pictures, kiosk.workdir)
    operator.open_update_page()
    time.sleep(90)                       # the page's check of the stick (rauc info, twice)
    m.touch(*operator_ref["install"])    # where Install would be: nothing to tap
    time.sleep(15)
    shot = m.screendump(BUILD / "update-page-refused.png")
    write_png(BUILD / "update-page-refused.png", shot)
    assert operator.which(shot) == "update", "the Software update page is not on the screen"
    assert m.sh("test -e /var/lib/solitaire-kiosk/update.request")[0] != 0
    assert up.update_status(m) is None, "nothing was asked for"
    operator.close_menu()
    for bundle, reason in ((foreign, "it is not signed with a key this kiosk trusts"),
                           (older, f"is older than the running {made['running'].version}")):
        status, out = m.sh(f"kiosk update check /media/usb/{bundle.name}", timeout=300)
        lines = out.strip().splitlines()
        assert status == 2 and len(lines) == 1 and reason in lines[0], (status, out)
        m.ok(f"runuser -u kiosk -- kiosk update request install /media/usb/{bundle.name}")
        name = bundle.name

        def refused(name=name):
            st = up.update_status(m)
            return st if st and st["state"] == "refused" and (st["bundle"] or "").endswith(
                name) else None
        st = wait_until("the request refused", refused, 600, every=5)
        assert reason in st["message"], st
    rauc = up.rauc_slots(m)
    assert rauc["rootfs.1"]["boot_status"] == "bad"
    assert not (rauc["rootfs.1"].get("slot_status") or {}).get("bundle", {}).get("version")
    assert m.ok("grep -x boot_partition=2 /boot/bootfs/autoboot.txt") == "boot_partition=2"
    m.pull_stick(stick)


def test_an_update_from_a_stick_is_installed_into_slot_b(kiosk: Kiosk, bundles: up.Bundles,
                                                         operator_ref: dict):
    m = kiosk.machine
    newer = bundles.get()["newer"]
    kiosk.timings["update_bundle_mib"] = round(newer.path.stat().st_size / 2**20, 1)
    kiosk.timings["update_bundle_build_s"] = round(newer.seconds, 1)
    plays = play_rows(m)
    assert plays, "the boot test played on slot A"
    m.plug_stick(up.stick([newer.path], kiosk.workdir / "update-stick.img"))
    up.wait_stick_mounted(m, newer.path.name)
    out = m.ok(f"kiosk update check /media/usb/{newer.path.name}", timeout=300)
    assert f"version {newer.version}" in out and "may be installed" in out
    # as the operator: the menu's Software update page, Install; the root unit installs,
    # then restarts when nobody has played for a while (the menu closed, the welcome screen)
    operator = up.Operator(m, operator_ref, kiosk.pictures, kiosk.workdir)
    operator.open_update_page()
    started = time.monotonic()
    kiosk.timings["update_page_to_install_s"] = round(operator.tap_install(), 1)
    percents: list[int] = []
    shots = {"page": False}

    def installed():
        st = up.update_status(m)
        if st and st["state"] == "installing" and st["percent"] is not None:
            percents.append(st["percent"])
            if st["percent"] >= 30 and not shots["page"]:
                shots["page"] = True   # the progress bar, for whoever reads the run
                write_png(BUILD / "update-page-installing.png",
                          m.screendump(BUILD / "update-page-installing.png"))
        assert not st or st["state"] not in ("failed", "refused"), st
        return st if st and st["state"] in ("installed", "rebooting") else None
    st = wait_until("the update installed", installed, 3600, every=10)
    kiosk.timings["update_install_s"] = round(time.monotonic() - started, 1)
    assert st["version"] == newer.version and st["slot"] == "B", st
    assert percents == sorted(percents) and len(set(percents)) >= 2, percents
    if st["state"] == "installed":
        time.sleep(8)
        write_png(BUILD / "update-page-installed.png",
                  m.screendump(BUILD / "update-page-installed.png"))
    operator.close_menu()               # the menu closed: the welcome screen, nobody plays


# The restart into slot B at the quiet moment, B's trial and its commit. The first runs
# that got this far (7 December, CI4 and CI5) installed into slot B and closed the menu, and
# the kiosk never restarted: `systemctl reboot "0 tryboot"` could not write /run/systemd,
# and systemd 257 refuses that positional argument ("Too many arguments"); the restart now
# says --reboot-argument= (kiosk/updates/reboot.py).
def test_the_installed_update_restarts_into_slot_b_and_is_committed(kiosk: Kiosk,
                                                                   bundles: up.Bundles):
    m = kiosk.machine
    newer = bundles.get()["newer"]
    plays = play_rows(m)
    started = time.monotonic()
    # a quiet minute (the emulated boots' quiet moment), then `reboot "0 tryboot"`
    status = m.wait_exit(1800)
    assert status is not None, f"the kiosk did not restart into the update:\n{m.tail()}"
    kiosk.timings["update_installed_to_restart_s"] = round(time.monotonic() - started, 1)
    assert m.restart_command() == "0 tryboot", m.restart_command()

    b = m.power_on_again("boot-b")
    assert (b.firmware.partition, b.firmware.tryboot) == (3, True), b.firmware
    assert "rauc.slot=B" in b.cmdline and "overlayroot=tmpfs:recurse=0" in b.cmdline
    kiosk.machine = m = b
    m.start()
    m.wait_for_shell(BOOT_TIMEOUT)
    m.ok("stty -echo; export SYSTEMD_PAGER=cat SYSTEMD_COLORS=0 PAGER=cat")
    wait_ready(m)
    kiosk.timings["update_power_on_to_ready_on_b_s"] = round(time.monotonic() - m.started, 1)
    st = up.guest_status(m)
    assert st["booted"] == "B" and st["running_version"] == newer.version, st
    committed = wait_until("slot B committed", lambda: (
        (s := up.update_status(m)) and s["state"] == "committed" and s), 3600, every=10)
    kiosk.timings["update_power_on_to_committed_s"] = round(time.monotonic() - m.started, 1)
    assert committed["version"] == newer.version, committed
    st = up.guest_status(m)
    assert (st["booted"], st["committed"], st["on_trial"]) == ("B", "B", False), st
    rauc = up.rauc_slots(m)
    assert rauc["_booted"] == "B" and rauc["rootfs.1"]["boot_status"] == "good"
    assert rauc["rootfs.1"]["slot_status"]["bundle"]["version"] == newer.version
    assert rauc["rootfs.0"]["boot_status"] == "good", "slot A stays the way back"
    assert m.ok("grep -x boot_partition=3 /boot/bootfs/autoboot.txt") == "boot_partition=3"
    assert m.ok("findmnt -n -o SOURCE /media/root-ro") == "/dev/vda6"
    assert m.ok("findmnt -n -o FSTYPE /") == "overlay"
    assert m.ok("findmnt -n -o SOURCE /boot/firmware") == "/dev/vda3"
    assert play_rows(m)[:len(plays)] == plays, "the play log from slot A is all there"
    screen_like(m, kiosk.pictures, "welcome", BUILD / "boot-screen-slot-b.png")
    kiosk.save_timings()

    # committed: a plain restart, and the firmware starts B by itself
    m.ok("systemctl --no-block reboot")
    assert m.wait_exit(900) is not None, "the restart did not happen"
    assert m.restart_command() == ""
    again = m.power_on_again("boot-b2")
    assert (again.firmware.partition, again.firmware.tryboot) == (3, False)
    kiosk.machine = again
    again.start()
    again.wait_for_shell(BOOT_TIMEOUT)
    # the debug shell answers before the boot partitions are mounted (nofail, in the
    # background): until then `kiosk update status` rightly says it finds no autoboot.txt
    # (a loaded run asked that early, 7 December)
    wait_until("the bootfs partition mounted", lambda: again.sh(
        "findmnt -n /boot/bootfs && test -f /boot/bootfs/autoboot.txt")[0] == 0,
        BOOT_TIMEOUT, every=5)
    assert again.ok("kiosk update status --json | python3 -c 'import json,sys; "
                    "print(json.load(sys.stdin)[\"booted\"])'", timeout=300) == "B"
