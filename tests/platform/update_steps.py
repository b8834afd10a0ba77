"""Host-side helpers of the update tests in QEMU (test_boot_image.py, test_update_image.py):
bundles made from the built card itself, USB sticks, and what the guest says about its
slots. Nothing here runs inside the guest but shell commands through the debug shell."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from .conftest import IMAGE_BUILD, REPO
from .pictures import Picture, difference, read_png, write_png
from .qemu_machine import Machine, partitions

STATUS = "/var/lib/solitaire-kiosk/update-status.json"


def _run(*cmd: str, **kw) -> subprocess.CompletedProcess:
    proc = subprocess.run(list(cmd), capture_output=True, text=True, **kw)
    assert proc.returncode == 0, f"{' '.join(cmd)}:\n{proc.stdout}\n{proc.stderr}"
    return proc


def next_version(version: str, minutes: int = 1) -> str:
    """A version of the same app built ``minutes`` later (or earlier, negative)."""
    from datetime import UTC, datetime, timedelta

    app, stamp = version.split("+")
    when = datetime.strptime(stamp, "%Y%m%d.%H%M%S").replace(tzinfo=UTC)
    return f"{app}+{(when + timedelta(minutes=minutes)).strftime('%Y%m%d.%H%M%S')}"


def image_version(image: Path, work: Path) -> str:
    """IMAGE_VERSION of the card's slot A (debugfs reads the ext4 partition in place)."""
    root = slot_partition(image, 5, work / "probe-root.ext4", shrink=False)
    text = _run("debugfs", "-R", "cat /usr/lib/os-release", str(root)).stdout
    root.unlink()
    return re.search(r"^IMAGE_VERSION=(\S+)$", text, re.M).group(1)


def slot_partition(image: Path, number: int, out: Path, shrink: bool = True) -> Path:
    """Partition ``number`` of the card copied out (sparse); an ext4 one shrunk to what it
    holds, as a bundle carries it."""
    parts = partitions(image)
    dump = json.loads(_run("sfdisk", "--json", str(image)).stdout)
    size = next(int(p["size"]) for p in dump["partitiontable"]["partitions"]
                if p["node"].endswith(str(number)))
    _run("dd", f"if={image}", f"of={out}", "bs=1M", f"skip={parts[number] // 2**20}",
         f"count={size * 512 // 2**20}", "conv=sparse", "status=none")
    if shrink and number in (5, 6):
        _run("e2fsck", "-fy", str(out))
        _run("resize2fs", "-M", str(out))
        blocks = int(re.search(r"Block count:\s+(\d+)",
                               _run("dumpe2fs", "-h", str(out)).stdout).group(1))
        os.truncate(out, blocks * 4096)
    return out


def ext4_write(image: Path, path: str, text: str, work: Path) -> None:
    """Replace (or add) one file of an ext4 image, as root:root 0644 (debugfs)."""
    src = work / "debugfs-file"
    src.write_text(text)
    src.chmod(0o644)
    parent = path.rsplit("/", 1)[0]
    subprocess.run(["debugfs", "-w", "-R", f"mkdir {parent}", str(image)],
                   capture_output=True)
    subprocess.run(["debugfs", "-w", "-R", f"rm {path}", str(image)], capture_output=True)
    _run("debugfs", "-w", "-R", f"write {src} {path}", str(image))
    got = _run("debugfs", "-R", f"cat {path}", str(image)).stdout
    assert got == text, f"debugfs did not write {path}"


@dataclass(frozen=True)
class Bundle:
    path: Path
    version: str
    seconds: float


def bundle_of_card(image: Path, version: str, keys: Path, out: Path, work: Path,
                   extra_files: dict[str, str] | None = None) -> Bundle:
    """A bundle of the card's own slot A (root and boot partition), its os-release saying
    ``version``, signed with ``keys`` by image-build/bundle.sh: a later build of the same
    system, as `make bundle` would sign it."""
    started = time.monotonic()
    work.mkdir(parents=True, exist_ok=True)
    rootfs = slot_partition(image, 5, work / "rootfs.ext4")
    boot = slot_partition(image, 2, work / "boot.vfat")
    release = _run("debugfs", "-R", "cat /usr/lib/os-release", str(rootfs)).stdout
    release = re.sub(r"^IMAGE_VERSION=.*$", f"IMAGE_VERSION={version}", release, flags=re.M)
    ext4_write(rootfs, "/usr/lib/os-release", release, work)
    for path, text in (extra_files or {}).items():
        ext4_write(rootfs, path, text, work)
    env = dict(os.environ, KIOSK_SIGNING_KEY=str(keys / "signing.key.pem"),
               KIOSK_SIGNING_CERT=str(keys / "signing.cert.pem"),
               KIOSK_KEYRING=str(keys / "ca.cert.pem"))
    _run("sh", str(IMAGE_BUILD / "bundle.sh"), str(out), version, str(rootfs), str(boot),
         env=env, timeout=3600)
    rootfs.unlink()
    boot.unlink()
    return Bundle(out, version, time.monotonic() - started)


def make_keys(out: Path, name: str) -> Path:
    """A CA and signing key made by image-build/signing-keys.sh."""
    _run("sh", str(IMAGE_BUILD / "signing-keys.sh"), str(out), name, timeout=120)
    return out


def small_bundle(out: Path, version: str, keys: Path) -> Path:
    """A signed verity bundle of a few hundred kB (a root with one file of noise, so that
    the squashfs is not empty): enough for every check made before a slot is written."""
    work = out.parent / f"{out.stem}-work"
    (work / "root").mkdir(parents=True, exist_ok=True)
    (work / "root/noise").write_bytes(os.urandom(200_000))
    (work / "cmdline.txt").write_text("console=tty3 root=LABEL=RASPIROOT rw rootwait\n")
    _run("mke2fs", "-q", "-F", "-t", "ext4", "-d", str(work / "root"),
         str(work / "rootfs.ext4"), "8M")
    _run("mkfs.vfat", "-C", str(work / "boot.vfat"), "8192")
    _run("mcopy", "-i", str(work / "boot.vfat"), str(work / "cmdline.txt"), "::")
    # the keyring of these keys: `make test` exports the Makefile's own KIOSK_KEYRING
    # (build/keys/..., relative and absent in a fresh clone), which bundle.sh would verify by
    env = dict(os.environ, KIOSK_SIGNING_KEY=str(keys / "signing.key.pem"),
               KIOSK_SIGNING_CERT=str(keys / "signing.cert.pem"),
               KIOSK_KEYRING=str(keys / "ca.cert.pem"))
    _run("sh", str(IMAGE_BUILD / "bundle.sh"), str(out), version, str(work / "rootfs.ext4"),
         str(work / "boot.vfat"), env=env, timeout=300)
    shutil.rmtree(work)
    return out


class Bundles:
    """The bundles of the update tests, made in a thread while the first boots run: a
    newer build of the card's own system (signed by the image's keys), an older one and
    another office's (small: they are refused before anything is written)."""

    def __init__(self, image: Path, keys: Path, other_keys: Path, work: Path) -> None:
        self.image, self.keys, self.other_keys, self.work = image, keys, other_keys, work
        self.made: dict[str, Bundle] = {}
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._make, name="update-bundles", daemon=True)
        self.thread.start()

    def _make(self) -> None:
        try:
            version = image_version(self.image, self.work)
            self.made["running"] = Bundle(self.image, version, 0.0)
            older = next_version(version, -24 * 60)
            newer = next_version(version, 60)
            t = time.monotonic()
            self.made["older"] = Bundle(small_bundle(self.work / "kiosk-older.raucb", older,
                                                     self.keys), older, time.monotonic() - t)
            t = time.monotonic()
            self.made["foreign"] = Bundle(small_bundle(self.work / "kiosk-other-office.raucb",
                                                       newer, self.other_keys), newer,
                                          time.monotonic() - t)
            self.made["newer"] = bundle_of_card(self.image, newer, self.keys,
                                                self.work / "kiosk-update.raucb",
                                                self.work / "newer")
        except BaseException as err:  # noqa: BLE001 - handed to the test that waits
            self.error = err

    def get(self, timeout: float = 3600) -> dict[str, Bundle]:
        self.thread.join(timeout)
        if self.error is not None:
            raise AssertionError(f"making the update bundles failed: {self.error}")
        assert not self.thread.is_alive(), f"the bundles were not made in {timeout:.0f} s"
        return self.made


def stick(files: list[Path], out: Path) -> Path:
    """A FAT32 USB stick image holding ``files`` (its size: theirs and 64 MiB)."""
    size_kib = sum(f.stat().st_size for f in files) // 1024 + 64 * 1024
    out.unlink(missing_ok=True)
    _run("mkfs.vfat", "-F", "32", "-n", "KIOSKSTICK", "-C", str(out), str(size_kib))
    for f in files:
        _run("mcopy", "-i", str(out), str(f), f"::{f.name}")
    return out


def guest_status(m: Machine) -> dict:
    """`kiosk update status --json` in the guest."""
    return json.loads(m.ok("kiosk update status --json", timeout=300))


def update_status(m: Machine) -> dict | None:
    status, out = m.sh(f"cat {STATUS}")
    return json.loads(out) if status == 0 and out.strip() else None


def rauc_slots(m: Machine, timeout: float = 600) -> dict[str, dict]:
    """`rauc status` in the guest: slot name -> its entry.

    Asked again while it fails, for up to ``timeout``: RAUC's service starts on the first
    D-Bus call, and on a loaded emulated boot that start can outlast the call (the
    update-test's rollback case saw `rauc status` exit 1 at once after the boot). A failure
    that lasts is the test's failure, with RAUC's own words."""
    deadline = time.monotonic() + timeout
    while True:
        status, out = m.sh("rauc status --detailed --output-format=json 2>/run/rauc-status.err"
                           " || { cat /run/rauc-status.err; exit 1; }", timeout=300)
        if status == 0:
            break
        if time.monotonic() > deadline:
            raise AssertionError(f"rauc status failed for {timeout:.0f} s: {out.strip()}\n"
                                 + m.sh("systemctl status rauc.service --no-pager | tail -n 20"
                                        "; journalctl -b -u rauc --no-pager | tail -n 20",
                                        timeout=120)[1])
        time.sleep(10)
    data = json.loads(out)
    out = {}
    for entry in data["slots"]:
        out.update(entry)
    out["_booted"] = data.get("booted")
    out["_primary"] = data.get("boot_primary")
    return out


def wait_stick_mounted(m: Machine, name: str, timeout: float = 300) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        status, _ = m.sh(f"test -f /media/usb/{name}")
        if status == 0:
            return
        time.sleep(3)
    raise AssertionError(f"the stick with {name} was not mounted at /media/usb:\n"
                         + m.sh("journalctl -b -u 'solitaire-kiosk-usb@*' --no-pager "
                                "| tail -n 20; ls -la /media/usb", timeout=120)[1])


def have_tools() -> list[str]:
    return [t for t in ("debugfs", "resize2fs", "e2fsck", "dumpe2fs", "rauc", "mksquashfs",
                        "mkfs.vfat", "mcopy", "sfdisk") if shutil.which(t) is None]


# ------------------------------------------------------------ the operator, by touch
def operator_reference(out: Path, config: Path) -> dict:
    """Where the operator touches (tests/platform/operator_reference.py, the app itself), and
    under "pictures" the keypad, the menu and the update page as the app draws them."""
    import sys

    proc = subprocess.run([sys.executable, "-m", "tests.platform.operator_reference",
                           str(out), str(config), "800x480"], cwd=REPO, capture_output=True,
                          text=True, timeout=900)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    ref = json.loads((out / "operator.json").read_text())
    ref["pictures"] = {name: read_png(out / f"{name}.png") for name in OPERATOR_SCREENS}
    return ref


#: the operator's screens, as operator_reference.py draws them
OPERATOR_SCREENS = ("pin", "menu", "update")
LOCKOUT = "/var/lib/solitaire-kiosk/operator-lockout.json"


def wrong_pins(m: Machine) -> int:
    """Wrong PINs in a row the kiosk counts (its lockout file; none yet: 0)."""
    status, out = m.sh(f"cat {LOCKOUT}")
    try:
        return int(json.loads(out)["failures"]) if status == 0 else 0
    except (ValueError, KeyError, TypeError):
        return 0


def tab_patch(ref: dict) -> tuple[int, int]:
    """Where the update tab's colour is read: inside the tab, left of its label."""
    x, y = ref["update_tab"]
    return x - x * 3 // 4, y


class Operator:
    """The operator at a slow guest's screen: each step waits for the screen it leads to
    (QEMU's screendump, closest of the app's own pictures) instead of a fixed pause, so a
    frame drawn late is waited for and a tap the guest lost is tapped again. A digit lost on
    the keypad makes a wrong PIN, which the kiosk counts: the PIN is typed again (three
    tries at most, under the kiosk's lockout of five)."""

    def __init__(self, m: Machine, ref: dict, screens: dict[str, Picture], shots: Path):
        self.m, self.ref, self.shots = m, ref, shots
        self.pictures = {**screens, **ref["pictures"]}

    def screen(self) -> str:
        """The screen now: a name of the pictures; "update" only when the menu's Software
        update tab is the lit one (the page itself looks different with every stick)."""
        path = self.shots / "operator-screen.png"
        shot = self.m.screendump(path)
        write_png(path, shot)          # the last one stays, for a failure's reader
        return self.which(shot)

    def which(self, shot: Picture) -> str:
        scores = {name: difference(shot, pic) for name, pic in self.pictures.items()}
        name = min(scores, key=scores.get)
        if name not in ("menu", "update"):
            return name
        return "update" if self._tab_lit(shot) else "menu"

    def _tab_lit(self, shot: Picture) -> bool:
        """The update tab's colour (a patch inside it, left of its label) nearer to its
        colour on the update page than on the menu's first page."""
        x, y = tab_patch(self.ref)

        def patch(pic: Picture) -> list[int]:
            pixels = [pic.pixel(x + dx, y + dy) for dx in range(-2, 3) for dy in range(-2, 3)]
            return [sum(channel) for channel in zip(*pixels, strict=True)]

        here = patch(shot)

        def distance(name: str) -> int:
            return sum(abs(a - b) for a, b in zip(here, patch(self.ref["pictures"][name]),
                                              strict=True))
        return distance("update") < distance("menu")

    def _wait(self, done, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if done():
                return True
            time.sleep(3)
        return False

    def open_update_page(self, timeout: float = 900) -> None:
        """A finger held in the corner, the PIN on the keypad, the Software update tab."""
        m, ref = self.m, self.ref
        pin = m.ok("kiosk operator pin --show 2>/dev/null | head -n 1")
        assert pin.isdigit(), f"no operator PIN to type: {pin!r}"
        tries = 0
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            screen = self.screen()
            if screen in ("menu", "update"):
                m.touch(*ref["update_tab"])
                if self._wait(lambda: self.screen() == "update", 120):
                    return
            elif screen == "pin":
                assert tries < 3, "the operator PIN was typed three times and not taken"
                tries += 1
                wrong = wrong_pins(m)
                for digit in pin:
                    m.touch(*ref["keys"][digit])
                    time.sleep(1)
                m.touch(*ref["keys"]["ok"])
                self._wait(lambda wrong=wrong: wrong_pins(m) > wrong or self.screen() != "pin",
                           180)
            else:
                # a tap first: it ends the attract demo (the welcome screen comes back) or
                # opens the picker; the corner held works on both
                m.touch(*ref["corner"])
                time.sleep(5)
                m.hold(*ref["corner"], seconds=6.5)
                self._wait(lambda: self.screen() == "pin", 120)
        raise AssertionError("the Software update page: not reached in "
                             f"{timeout:.0f} s (the screen: {self.shots / 'operator-screen.png'})")

    def close_menu(self, timeout: float = 300) -> None:
        """Close, tapped until the menu is gone (the welcome screen, where the kiosk waits
        for its quiet moment): one lost tap left the menu open and the restart waiting."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self.m.touch(*self.ref["close"])
            if self._wait(lambda: self.screen() not in OPERATOR_SCREENS, 45):
                return
        raise AssertionError(f"the operator menu did not close in {timeout:.0f} s (the "
                             f"screen: {self.shots / 'operator-screen.png'})")

    def tap_install(self, timeout: float = 900) -> float:
        """Tap Install until the root side has the request (the page shows the button once
        its check of the stick, RAUC's, is done); seconds it took. The page opened again if
        the kiosk left it (the menu's own idle timeout)."""
        m = self.m
        started = time.monotonic()
        while time.monotonic() - started < timeout:
            if self.screen() != "update":
                self.open_update_page()
            m.touch(*self.ref["install"])
            time.sleep(8)
            asked = m.sh("test -e /var/lib/solitaire-kiosk/update.request")[0] == 0
            st = update_status(m)
            if asked or (st and st["state"] in ("checking", "installing", "installed")):
                return time.monotonic() - started
            time.sleep(7)
        raise AssertionError("the Software update page's Install never asked for the install "
                             f"(the screen: {self.shots / 'operator-screen.png'}; the status: "
                             f"{update_status(m)})")
