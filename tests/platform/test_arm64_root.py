"""The Pi's own architecture in CI: the image's arm64 root, run under QEMU user emulation.

The root is the one of the SD-card image this run builds (`make test` builds it beside the
suite, tools/test.sh; image-build/debian/build-image.sh): Debian trixie, Python 3.13, the
image's packages, and the app installed there by the image's own installer
(image-build/install-app.sh) from the wheel of this checkout, with its aarch64 dependencies
from PyPI and their bytecode. One root for this test and the image: the boot test
(test_boot_image.py) boots the disk made of it. Here ``kiosk games --json``,
``kiosk config check`` and ``kiosk snapshot`` (SDL offscreen, Mesa's software renderer) run
in it, chrooted, so a dependency or a code path that breaks on ARM fails here, in seconds
of the run rather than minutes of a boot, and not in a lobby.

Needs root (chroot, mounts) and binfmt_misc with the aarch64 handler (tools/test.sh
registers Debian's qemu-user-static); where that cannot be done the tests are skipped with
the reason.
"""

from __future__ import annotations

import json
import shutil
import struct
import subprocess
import time
import zlib
from pathlib import Path

import pytest

import games

from .conftest import REPO, BuiltImage

APP = "/opt/solitaire-kiosk/venv/bin/kiosk"
PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

pytestmark = pytest.mark.slow


def in_root(root: Path, *cmd: str, env: dict[str, str] | None = None, timeout: float = 600,
            ) -> subprocess.CompletedProcess:
    """Run ``cmd`` chrooted in ``root`` with /proc, /dev and /sys mounted in a private mount
    namespace (the mounts go away with it, whatever happens)."""
    script = ('set -e; r=$1; shift; mount -t proc proc "$r/proc"; '
              'mount --rbind /dev "$r/dev"; mount -t sysfs -o ro sysfs "$r/sys"; '
              'exec chroot "$r" "$@"')
    full_env = {"PATH": PATH, "HOME": "/root", "LANG": "C.UTF-8", "TMPDIR": "/tmp"}
    full_env.update(env or {})
    return subprocess.run(["unshare", "--mount", "--propagation", "private", "--fork", "--",
                           "sh", "-c", script, "sh", str(root), *cmd],
                          capture_output=True, text=True, timeout=timeout, env=full_env)


def _timed(timings: dict[str, float], name: str, start: float) -> None:
    timings[name] = round(time.monotonic() - start, 1)


@pytest.fixture(scope="module")
def arm64_root(built_image: BuiltImage):
    if built_image.root is None:
        pytest.skip("the image's root is kept by the build of `make test` only")
    root = built_image.root
    timings: dict[str, float] = {}
    if built_image.build_seconds is not None:
        timings["image_build"] = built_image.build_seconds
    arch = in_root(root, "dpkg", "--print-architecture", timeout=120)
    assert arch.stdout.strip() == "arm64", arch.stderr
    yield root, timings
    print(f"arm64 root timings (s): {timings}")


@pytest.mark.timeout(5400)
def test_kiosk_games_runs_on_arm64(arm64_root):
    root, timings = arm64_root
    start = time.monotonic()
    proc = in_root(root, APP, "games", "--json", timeout=600)
    _timed(timings, "games", start)
    assert proc.returncode == 0, proc.stderr[-4000:]
    listed = json.loads(proc.stdout)
    assert {g["id"] for g in listed} == set(games.ids())
    machine = in_root(root, "/opt/solitaire-kiosk/venv/bin/python", "-c",
                      "import platform; print(platform.machine())", timeout=300)
    assert machine.stdout.strip() == "aarch64"


@pytest.mark.timeout(5400)
def test_the_apps_environment_imports_lgpio(arm64_root):
    """The buttons' pin factory: lgpio's wheel built for the image (lgpio-wheel.sh), its C
    library answering, and gpiozero's lgpio factory importing it; the kiosk's chip search
    runs (a chroot has no /dev/gpiochip*: it says so in one sentence)."""
    root, _ = arm64_root
    probe = ("import lgpio, gpiozero.pins.lgpio\n"
             "from kiosk.platform.gpiochip import ButtonsUnavailable, open_factory\n"
             "print(lgpio.error_text(lgpio.GPIO_BUSY))\n"
             "try:\n    open_factory('auto', {'new_deal': 17, 'undo': 27})\n"
             "except ButtonsUnavailable as err:\n    print(err)\n")
    proc = in_root(root, "/opt/solitaire-kiosk/venv/bin/python", "-c", probe, timeout=600)
    assert proc.returncode == 0, proc.stderr[-4000:]
    lines = proc.stdout.splitlines()
    assert lines[0] == "GPIO busy", proc.stdout
    assert lines[1].startswith(("This machine has no GPIO chip",
                                "No Raspberry Pi GPIO header found")), proc.stdout
    listed = in_root(root, "/opt/solitaire-kiosk/venv/bin/python", "-m", "pip", "list",
                     "--format=freeze", timeout=600)
    assert "lgpio==0.2.2.0" in listed.stdout.split(), listed.stdout


@pytest.mark.timeout(5400)
def test_shipped_config_checks_clean_on_arm64(arm64_root):
    root, _ = arm64_root
    shutil.copy(REPO / "config.example.toml", root / "tmp/config.toml")
    proc = in_root(root, APP, "config", "check", "/tmp/config.toml", timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr[-4000:]


def png_pixels(path: Path) -> tuple[int, int, int]:
    """(width, height, number of distinct bytes of the decoded rows) of a PNG."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    pos, idat = 8, b""
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        if kind == b"IDAT":
            idat += data[pos + 8:pos + 8 + length]
        pos += 12 + length
    return width, height, len(set(zlib.decompress(idat)))


@pytest.mark.timeout(5400)
def test_kiosk_snapshot_renders_on_arm64(arm64_root):
    root, timings = arm64_root
    env = {"SDL_VIDEODRIVER": "offscreen", "KIVY_HOME": "/tmp/kivy", "KIVY_NO_FILELOG": "1",
           "SOLITAIRE_KIOSK_CONFIG": "/tmp/no-config.toml", "GPIOZERO_PIN_FACTORY": "mock"}
    start = time.monotonic()
    proc = in_root(root, APP, "snapshot", "klondike", "--seed", "7", "--size", "800x480",
                   "--lang", "en", "--out", "/tmp/klondike.png", "--verbose", env=env,
                   timeout=1200)
    _timed(timings, "snapshot", start)
    log = (proc.stdout + proc.stderr)[-6000:]
    assert proc.returncode == 0, log
    shot = root / "tmp/klondike.png"
    assert shot.exists(), log
    width, height, distinct = png_pixels(shot)
    assert (width, height) == (800, 480)
    assert distinct > 16, "the snapshot is blank"
    renderer = [line for line in log.splitlines() if "OpenGL renderer" in line]
    print(f"arm64 snapshot: {shot.stat().st_size} bytes; {renderer[:1]}")
