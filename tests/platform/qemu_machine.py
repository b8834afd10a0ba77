"""One boot of the kiosk's SD-card image in qemu-system-aarch64, driven from outside.

The machine is QEMU's ``virt`` board with a Cortex-A72 (the Pi 4's core), the image as a
virtio disk, a virtio GPU (the screen, 800x480 like the official 7" panel), a virtio tablet
(the touch screen) and keyboard, a USB 3 controller (a stick is plugged in over QMP), and no
network. The harness plays the Pi's boot firmware and nothing else (:class:`Firmware`): at
every power-on it reads ``autoboot.txt`` from the card's first FAT partition, honours the
one-shot tryboot flag (set when the guest kernel last restarted with ``reboot "0 tryboot"``:
QEMU runs with ``-no-reboot``, so every restart ends QEMU and the harness sees the kernel's
``Restarting system with command '0 tryboot'`` on the console), and loads that boot
partition's kernel and initramfs (its ``config.txt``) with its own ``cmdline.txt``. Two
channels reach in:

* the serial port (``ttyAMA0``), where the test's kernel command line adds
  ``systemd.debug_shell=ttyAMA0`` (and ``systemd.getty_auto=0``, so no login prompt
  shares that line): a root shell that exists only for this boot, because the shipped
  ``cmdline.txt`` never has it (the image has no shell on any console);
* QMP, QEMU's monitor: screendumps, touches, key presses, pulling the plug, and a pulse on
  a GPIO line (below).

The hardware buttons get a real GPIO line of the guest's kernel: ``virt``'s PL061 GPIO
controller, whose line 3 QEMU raises for 100 ms on ``system_powerdown`` (its gpio-key
device). QEMU's own device tree binds that line to a power key (the ``gpio-keys`` node,
Linux's gpio-keys driver); :func:`gpio_dtb` dumps the device tree of the same board and
takes that node out, so the line is free for the kiosk, which finds the chip by its label
(:data:`PL061_LABEL`) and holds the line through lgpio, as on a Pi.

Emulation runs the Pi's code many times slower than a Pi (TCG, no KVM for arm64): the app
needed more than the unit's ``TimeoutStartSec=120`` from exec to its first frame on the
first boots of the image, and its main loop then went more than the unit's ``WatchdogSec=30``
without a turn. The test's boots give the kiosk unit a longer start timeout and watchdog
through the same kernel command line, as a systemd credential that systemd's debug
generator turns into a drop-in (``systemd.unit-dropin.<unit>``, systemd 256 and later):
it exists only for the boots that carry it, the image (and the test's copy of it) is not
written to for it, and a real Pi, whose cmdline.txt never has it, keeps the unit's own 120 s
and 30 s.
"""

from __future__ import annotations

import base64
import json
import os
import re
import shutil
import socket
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from .pictures import Picture, read_ppm

SCREEN = (800, 480)
KIOSK_UNIT = "solitaire-kiosk.service"
EMULATED_START_TIMEOUT = "20min"
# The unit's WatchdogSec=30 (pings every 15 s) is a Pi's figure: under TCG the app's main
# loop went more than 30 s without a turn after READY=1 (a first table, the attract demo's
# first deal drawn by llvmpipe) and systemd killed a kiosk that was only slow. Emulated
# boots give it 3 minutes (pings every 90 s); the Pi keeps 30 s.
EMULATED_WATCHDOG = "3min"
EMULATED_WATCHDOG_S = 180
EMULATED_DEVICE_TIMEOUT_S = 900


def kiosk_dropin(watchdog: str = EMULATED_WATCHDOG) -> str:
    return f"[Service]\nTimeoutStartSec={EMULATED_START_TIMEOUT}\nWatchdogSec={watchdog}\n"


EMULATED_DROPIN = kiosk_dropin()
# The updates' clocks (docs/updates.md) are a Pi's too: a slot on trial is given up after
# 15 min without a healthy kiosk (solitaire-kiosk-commit.service) and 20 min after its boot
# in any case (solitaire-kiosk-trial.timer); the emulated kiosk needs 4-15 min to its
# welcome screen on a loaded machine. Emulated boots give both an hour. The quiet moment
# before the restart into an update (5 minutes of the welcome screen or the demo) is one
# minute: the test waits for it as a lobby would, only shorter.
EMULATED_COMMIT_DEADLINE_MIN = 50
EMULATED_TRIAL_TIMEOUT = "60min"
EMULATED_QUIET_MINUTES = 1
EMULATED_UPDATE_DROPINS = {
    "solitaire-kiosk-commit.service":
        f"[Service]\nEnvironment=SOLITAIRE_KIOSK_COMMIT_DEADLINE_MINUTES="
        f"{EMULATED_COMMIT_DEADLINE_MIN}\n",
    "solitaire-kiosk-trial.timer":
        f"[Timer]\nOnBootSec=\nOnBootSec={EMULATED_TRIAL_TIMEOUT}\n",
    "solitaire-kiosk-update.service":
        f"[Service]\nEnvironment=SOLITAIRE_KIOSK_QUIET_MINUTES={EMULATED_QUIET_MINUTES}\n",
}


def credential_dropin(unit: str, text: str) -> str:
    """A kernel command line word that systemd's debug generator turns into a drop-in of
    ``unit`` for this boot only (systemd.unit-dropin.<unit>, systemd 256 and later)."""
    return (f"systemd.set_credential_binary=systemd.unit-dropin.{unit}:"
            f"{base64.b64encode(text.encode()).decode()}")


def emulated_boot_options(watchdog: str = EMULATED_WATCHDOG) -> str:
    """Kernel command line words for a boot under emulation only (see the module's text)."""
    words = [credential_dropin(KIOSK_UNIT, kiosk_dropin(watchdog))]
    words += [credential_dropin(u, t) for u, t in EMULATED_UPDATE_DROPINS.items()]
    # udev under TCG took more than a minute to name the partitions (the fstab lines leave
    # the device timeout to this default; 90 s on a Pi)
    words.append(f"systemd.default_device_timeout_sec={EMULATED_DEVICE_TIMEOUT_S}")
    return " ".join(words)
TABLET_MAX = 32767  # QEMU's absolute axes run 0..0x7fff
#: virt's PL061 as the guest's kernel labels its GPIO chip (the device's name)
PL061_LABEL = "9030000.pl061"
#: its line that QEMU pulses on system_powerdown; its lines are 0-7
PULSED_LINE = 3
#: how long QEMU's gpio-key holds the line high (hw/gpio/gpio_key.c, GPIO_KEY_LATENCY)
PULSE_MS = 100


def board(memory_mb: int, machine: str = "virt") -> list[str]:
    """QEMU's board, CPU, cores and RAM: what the device tree is made from."""
    return ["-machine", machine, "-cpu", "cortex-a72", "-smp", "2", "-m", str(memory_mb),
            "-accel", "tcg,thread=multi"]


def gpio_dtb(out: Path, memory_mb: int) -> Path:
    """The device tree QEMU makes for :func:`board`, without its ``gpio-keys`` node: the
    PL061's line 3 is then no power key but a free GPIO line (fdtput from
    device-tree-compiler)."""
    out.parent.mkdir(parents=True, exist_ok=True)
    qemu = shutil.which("qemu-system-aarch64") or "qemu-system-aarch64"
    subprocess.run([qemu, *board(memory_mb, f"virt,dumpdtb={out}"), "-display", "none",
                    "-nic", "none"], check=True, capture_output=True, timeout=120)
    subprocess.run(["fdtput", "--remove", str(out), "/gpio-keys"], check=True,
                   capture_output=True, timeout=60)
    listed = subprocess.run(["fdtget", "--list", str(out), "/"], check=True,
                            capture_output=True, text=True, timeout=60).stdout.split()
    assert "gpio-keys" not in listed and any(n.startswith("pl061@") for n in listed), listed
    return out


#: what the guest kernel prints when it restarts (kernel/reboot.c), at every log level
RESTART = re.compile(r"reboot: Restarting system(?: with command '([^']*)')?")


def partitions(disk: Path) -> dict[int, int]:
    """The image's partitions: number -> byte offset (sfdisk's JSON, 512-byte sectors)."""
    dump = json.loads(subprocess.run(["sfdisk", "--json", str(disk)], capture_output=True,
                                     text=True, check=True).stdout)
    out = {}
    for part in dump["partitiontable"]["partitions"]:
        number = int(re.search(r"(\d+)$", part["node"]).group(1))
        out[number] = int(part["start"]) * 512
    return out


def partition_offsets(disk: Path) -> list[int]:
    """Byte offsets of the image's partitions, in their order."""
    return [offset for _n, offset in sorted(partitions(disk).items())]


def put_boot_file(disk: Path, name: str, text: str) -> None:
    """Write a file onto the image's FAT boot partition (mtools), as an operator does with
    ``solitaire-kiosk.toml`` on a card in a laptop."""
    fat = f"{disk}@@{partition_offsets(disk)[0]}"
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as fh:
        fh.write(text)
    try:
        subprocess.run(["mcopy", "-o", "-i", fat, fh.name, f"::{name}"], check=True,
                       capture_output=True, timeout=60)
    finally:
        os.unlink(fh.name)


def fat_text(disk: Path, number: int, name: str) -> str | None:
    """A text file of the FAT partition ``number`` (mtools), None when it has none."""
    proc = subprocess.run(["mtype", "-i", f"{disk}@@{partitions(disk)[number]}", f"::{name}"],
                          capture_output=True, text=True)
    return proc.stdout if proc.returncode == 0 else None


def autoboot_partition(text: str, tryboot: bool) -> int:
    """The boot partition autoboot.txt chooses: ``boot_partition`` of its [all] part, or of
    its [tryboot] part when the tryboot flag is set (the last one of a part wins, as in the
    firmware's config files)."""
    chosen = {"all": None, "tryboot": None}
    section = "all"
    for raw in text.splitlines():
        line = raw.strip()
        if line.startswith("["):
            section = {"[all]": "all", "[tryboot]": "tryboot"}.get(line, "other")
        elif line.startswith("boot_partition=") and section in chosen:
            chosen[section] = int(line.split("=", 1)[1])
    number = chosen["tryboot"] if tryboot and chosen["tryboot"] else chosen["all"]
    assert number, f"autoboot.txt chooses no boot partition:\n{text}"
    return number


@dataclass(frozen=True)
class Firmware:
    """The Pi firmware's choice at a power-on: which boot partition, and why."""
    partition: int
    tryboot: bool

    @classmethod
    def power_on(cls, disk: Path, tryboot: bool = False) -> Firmware:
        """autoboot.txt on the first partition (a card without one: partition 1 itself,
        as the firmware boots the first FAT partition)."""
        text = fat_text(disk, 1, "autoboot.txt")
        if text is None:
            return cls(1, False)
        return cls(autoboot_partition(text, tryboot), tryboot)


def config_files(config_txt: str, names: list[str]) -> tuple[str, str]:
    """The kernel and initramfs the firmware would load: config.txt's ``kernel=`` and
    ``initramfs`` lines, else the newest ``vmlinuz-*`` and ``initrd.img-*``."""
    kernel = initrd = None
    for raw in config_txt.splitlines():
        line = raw.strip()
        if line.startswith("kernel="):
            kernel = line.split("=", 1)[1].strip()
        elif line.startswith("initramfs "):
            initrd = line.split()[1]
    kernels = sorted(n for n in names if n.startswith("vmlinuz-"))
    initrds = sorted(n for n in names if n.startswith("initrd.img-"))
    kernel = kernel if kernel in names else (kernels[-1] if kernels else None)
    initrd = initrd if initrd in names else (initrds[-1] if initrds else None)
    assert kernel and initrd, f"no kernel or initramfs on the boot partition: {names}"
    return kernel, initrd


def boot_files(disk: Path, out: Path, partition: int = 1) -> tuple[Path, Path, str]:
    """Kernel, initramfs and cmdline.txt from the FAT boot partition ``partition``."""
    fat = f"{disk}@@{partitions(disk)[partition]}"
    listing = subprocess.run(["mdir", "-b", "-i", fat, "::"], capture_output=True, text=True,
                             check=True).stdout.split()
    names = [Path(p).name for p in listing]
    kernel, initrd = config_files(fat_text(disk, partition, "config.txt") or "", names)
    out.mkdir(parents=True, exist_ok=True)
    for name in (kernel, initrd):
        subprocess.run(["mcopy", "-o", "-i", fat, f"::{name}", str(out / name)], check=True)
    cmdline = subprocess.run(["mtype", "-i", fat, "::cmdline.txt"], capture_output=True,
                             text=True, check=True).stdout.strip()
    return out / kernel, out / initrd, cmdline


class Machine:
    """A running QEMU; ``sh`` runs a command in the guest's debug shell."""

    def __init__(self, disk: Path, workdir: Path, name: str, memory_mb: int = 2048,
                 dtb: Path | None = None, tryboot: bool = False,
                 watchdog: str = EMULATED_WATCHDOG) -> None:
        self.disk, self.dir, self.name = disk, workdir / name, name
        #: the guest's RAM (a Pi 4 of 2 GB; 512 for a Pi Zero 2 W or 3A+, test_boot_512m.py)
        self.memory_mb = memory_mb
        #: the kiosk unit's WatchdogSec for this boot (:data:`EMULATED_WATCHDOG`, or longer
        #: where a test's subject is not the watchdog: test_boot_512m.py)
        self.watchdog = watchdog
        #: a device tree of :func:`gpio_dtb` (the buttons' GPIO line), or QEMU's own
        self.dtb = dtb
        self.dir.mkdir(parents=True, exist_ok=True)
        #: what the firmware chose at this power-on
        self.firmware = Firmware.power_on(disk, tryboot)
        self.kernel, self.initrd, self.cmdline = boot_files(disk, self.dir,
                                                            self.firmware.partition)
        self.killed = False
        self.serial_log = self.dir / "serial.log"
        self._buf = b""
        self._lock = threading.Lock()
        self._n = 0
        self.proc: subprocess.Popen | None = None
        self.started = 0.0

    # --- life -------------------------------------------------------------------------
    def start(self) -> None:
        serial_sock, qmp_sock = self.dir / "serial.sock", self.dir / "qmp.sock"
        # getty_auto=0: with the serial port as the console, systemd's getty generator
        # would start a login prompt on it, and that prompt and the debug shell would both
        # read the one line the test types on.
        # The shell gets a line of its own, a virtio console (hvc0): on the kernel console's
        # UART (ttyAMA0) the second boot's shell printed its prompt, then took no more input
        # (QEMU's socket end held the typed bytes unread). ttyAMA0 keeps the kernel's and
        # systemd's messages, logged to console.log.
        append = (f"{self.cmdline} console=ttyAMA0 systemd.debug_shell=hvc0 "
                  f"systemd.getty_auto=0 {emulated_boot_options(self.watchdog)}")
        cmd = [
            shutil.which("qemu-system-aarch64") or "qemu-system-aarch64",
            *board(self.memory_mb),
            *(["-dtb", str(self.dtb)] if self.dtb else []),
            "-kernel", str(self.kernel), "-initrd", str(self.initrd), "-append", append,
            "-drive", f"file={self.disk},format=raw,if=none,id=sd,cache=unsafe",
            "-device", "virtio-blk-pci,drive=sd",
            "-device", f"virtio-gpu-pci,xres={SCREEN[0]},yres={SCREEN[1]}",
            "-device", "virtio-tablet-pci", "-device", "virtio-keyboard-pci",
            "-device", "qemu-xhci,id=usb",
            "-display", "none", "-nic", "none", "-no-reboot",
            "-serial", f"file:{self.dir / 'console.log'}",
            "-device", "virtio-serial-pci",
            "-chardev", f"socket,id=shell,path={serial_sock},server=on,wait=off",
            "-device", "virtconsole,chardev=shell",
            "-qmp", f"unix:{qmp_sock},server=on,wait=off",
        ]
        (self.dir / "qemu-command").write_text(" ".join(cmd) + "\n")
        self.proc = subprocess.Popen(cmd, stdout=open(self.dir / "qemu.log", "wb"),
                                     stderr=subprocess.STDOUT)
        self.started = time.monotonic()
        self._serial = self._connect(serial_sock)
        self._qmp = self._connect(qmp_sock)
        self._qmp_file = self._qmp.makefile("rwb")
        self._qmp_file.readline()  # the greeting
        self.qmp("qmp_capabilities")
        threading.Thread(target=self._read_serial, daemon=True).start()

    def _connect(self, path: Path) -> socket.socket:
        deadline = time.monotonic() + 30
        while True:
            try:
                s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                s.connect(str(path))
                return s
            except OSError as err:
                if time.monotonic() > deadline or (self.proc and self.proc.poll() is not None):
                    raise RuntimeError(f"QEMU did not open {path}: "
                                       f"{(self.dir / 'qemu.log').read_text()[-2000:]}") from err
                time.sleep(0.2)

    def _read_serial(self) -> None:
        with open(self.serial_log, "ab") as log:
            while True:
                try:
                    data = self._serial.recv(4096)
                except OSError:
                    return
                if not data:
                    return
                log.write(data)
                log.flush()
                with self._lock:
                    self._buf += data

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def wait_exit(self, timeout: float) -> int | None:
        try:
            return self.proc.wait(timeout) if self.proc else None
        except subprocess.TimeoutExpired:
            return None

    def pull_the_plug(self) -> None:
        """Power loss: QEMU is killed, nothing in the guest gets to flush anything."""
        if self.alive():
            self.killed = True
            self.proc.kill()
            self.proc.wait(30)

    def restart_command(self) -> str | None:
        """The argument of the guest kernel's last restart ("" for a plain one), None when
        it did not restart (QEMU is running, or was killed)."""
        if self.alive() or self.killed:
            return None
        try:
            text = (self.dir / "console.log").read_text(errors="replace")
        except OSError:
            return None
        found = RESTART.findall(text)
        return found[-1] if found else None

    def tryboot_next(self) -> bool:
        """The one-shot flag the firmware keeps for the next power-on: set only by a
        restart with "tryboot" (a power cut, a crash or a plain reboot clears it)."""
        return "tryboot" in (self.restart_command() or "").split()

    def power_on_again(self, name: str) -> Machine:
        """The next boot of the same card, as the firmware would start it."""
        return Machine(self.disk, self.dir.parent, name, self.memory_mb, dtb=self.dtb,
                       tryboot=self.tryboot_next(), watchdog=self.watchdog)

    # --- USB stick --------------------------------------------------------------------
    def plug_stick(self, image: Path) -> str:
        """A USB stick (a raw disk image) plugged in: a usb-storage device on the xHCI.
        Returns its id for :meth:`pull_stick`."""
        self._sticks = getattr(self, "_sticks", 0) + 1
        name = f"stick{self._sticks}"
        self.qmp("blockdev-add", **{"driver": "raw", "node-name": name,
                                    "file": {"driver": "file", "filename": str(image)}})
        self.qmp("device_add", driver="usb-storage", id=name, drive=name, bus="usb.0")
        return name

    def pull_stick(self, name: str) -> None:
        """The stick pulled out (its block node stays in QEMU, unused)."""
        self.qmp("device_del", id=name)

    # --- serial shell -----------------------------------------------------------------
    def serial_text(self) -> str:
        with self._lock:
            return self._buf.decode(errors="replace")

    def wait_for_shell(self, timeout: float) -> float:
        """Seconds from QEMU's start until the debug shell answers."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if not self.alive():
                raise AssertionError(f"QEMU ended during boot:\n{self.tail()}")
            # Ctrl+C first: systemd's probe of the serial terminal's size (ESC[6n) reads
            # the line until an "R", so a probe typed during boot can lose its first half and
            # leave bash inside an open quote, where every later command would disappear
            # (seen on the first boot of the image). Ctrl+C drops the half line.
            self._serial.sendall(b"\x03")
            time.sleep(1)
            try:
                self.sh("true", timeout=15)
                return time.monotonic() - self.started
            except TimeoutError:
                continue
        raise AssertionError(f"no shell on the serial console after {timeout:.0f} s:\n"
                             f"{self.tail()}")

    def sh(self, command: str, timeout: float = 120) -> tuple[int, str]:
        """Run ``command`` in the guest; (exit status, output). The markers are printed by
        printf from pieces, so the echo of the typed line never looks like them."""
        self._n += 1
        n = self._n
        begin, end = f"@@B{n}@@", f"@@E{n}@@"
        with self._lock:
            mark = len(self._buf)
        line = (f"printf '@@%s%d@@\\n' B {n}; ( {command} ) 2>&1; "
                f"printf '@@%s%d@@ %d\\n' E {n} $?\n")
        self._serial.sendall(line.encode())
        deadline = time.monotonic() + timeout
        pattern = re.compile(re.escape(begin) + r"\r?\n(.*?)" + re.escape(end) + r" (\d+)",
                             re.S)
        while time.monotonic() < deadline:
            with self._lock:
                text = self._buf[mark:].decode(errors="replace")
            found = pattern.search(text)
            if found:
                return int(found.group(2)), found.group(1).replace("\r", "")
            if not self.alive():
                raise AssertionError(f"QEMU ended while running {command!r}:\n{self.tail()}")
            time.sleep(0.2)
        raise TimeoutError(f"{command!r} gave no answer in {timeout:.0f} s")

    def ok(self, command: str, timeout: float = 120) -> str:
        status, out = self.sh(command, timeout)
        assert status == 0, f"{command!r} exited {status}:\n{out}"
        return out.strip()

    def tail(self, chars: int = 4000) -> str:
        return self.serial_text()[-chars:]

    # --- monitor ----------------------------------------------------------------------
    def qmp(self, command: str, **arguments) -> dict:
        msg = {"execute": command}
        if arguments:
            msg["arguments"] = arguments
        self._qmp_file.write(json.dumps(msg).encode() + b"\n")
        self._qmp_file.flush()
        while True:
            line = self._qmp_file.readline()
            if not line:
                raise RuntimeError("QMP closed")
            reply = json.loads(line)
            if "return" in reply:
                return reply["return"]
            if "error" in reply:
                raise RuntimeError(f"QMP {command}: {reply['error']}")

    def screendump(self, path: Path) -> Picture:
        ppm = path.with_suffix(".ppm")
        self.qmp("screendump", filename=str(ppm))
        picture = read_ppm(ppm)
        os.unlink(ppm)
        return picture

    def touch(self, x: int, y: int) -> None:
        """A finger on the screen at (x, y) pixels from the top left, lifted again."""
        self.hold(x, y, 0.3)

    def pulse_gpio(self) -> None:
        """The PL061's line :data:`PULSED_LINE` high for :data:`PULSE_MS`, then low again
        (QEMU's power button; with :func:`gpio_dtb` no driver of the guest takes it)."""
        self.qmp("system_powerdown")

    def hold(self, x: int, y: int, seconds: float) -> None:
        """A finger resting on the screen at (x, y) for ``seconds`` (the operator's corner)."""
        ax = round(x * TABLET_MAX / (SCREEN[0] - 1))
        ay = round(y * TABLET_MAX / (SCREEN[1] - 1))
        self.qmp("input-send-event", events=[
            {"type": "abs", "data": {"axis": "x", "value": ax}},
            {"type": "abs", "data": {"axis": "y", "value": ay}}])
        time.sleep(0.3)
        self.qmp("input-send-event", events=[
            {"type": "btn", "data": {"down": True, "button": "left"}}])
        time.sleep(seconds)
        self.qmp("input-send-event", events=[
            {"type": "btn", "data": {"down": False, "button": "left"}}])

    def keys(self, *names: str) -> None:
        """Press these keys together (QEMU's names: ctrl, alt, delete, sysrq, b, f2...)."""
        self.qmp("send-key", keys=[{"type": "qcode", "data": k} for k in names],
                 **{"hold-time": 200})
