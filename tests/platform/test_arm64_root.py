"""The Pi's own architecture in CI: a Debian arm64 root, run under QEMU user emulation.

The root is Debian Trixie (the release of the image: Python 3.13) with exactly the
image's runtime packages (image-build/stage-kiosk/00-runtime/00-packages-nr); the app is
installed there by the image's own installer (image-build/install-app.sh) from the wheel
built from this checkout, with its aarch64 dependencies from PyPI. Then ``kiosk games --json``
and ``kiosk snapshot`` (SDL offscreen, Mesa's software renderer) run inside it, so a
dependency or a code path that breaks on ARM fails here, not in a lobby.

Needs root (debootstrap, chroot, mounts) and binfmt_misc with the aarch64 handler; the test
registers the handler of Debian's qemu-user-static itself. Where that cannot be done it says
so and is skipped. On an arm64 machine no emulation is needed. Downloaded .debs are kept in
/var/cache/solitaire-kiosk-tests (only an optimisation; a fresh machine downloads them).
"""

from __future__ import annotations

import json
import os
import platform
import shutil
import struct
import subprocess
import time
import zlib
from pathlib import Path

import pytest

import games

from .conftest import CACHE, IMAGE_BUILD, REPO, STAGE, need, package_list

SUITE = "trixie"
MIRROR = os.environ.get("SOLITAIRE_KIOSK_DEBIAN_MIRROR", "http://deb.debian.org/debian")
BINFMT = Path("/proc/sys/fs/binfmt_misc")
BINFMT_CONF = Path("/usr/lib/binfmt.d/qemu-aarch64.conf")   # from Debian's qemu-user-static
APP = "/opt/solitaire-kiosk/venv/bin/kiosk"
PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

pytestmark = pytest.mark.slow


def emulation_problem() -> str | None:
    """Why aarch64 programs cannot run here, or None when they can."""
    if os.geteuid() != 0:
        return "needs root for debootstrap, chroot and binfmt_misc"
    if platform.machine() == "aarch64":
        return None
    if not (BINFMT / "register").exists():
        proc = subprocess.run(["mount", "-t", "binfmt_misc", "binfmt_misc", str(BINFMT)],
                              capture_output=True, text=True)
        if proc.returncode != 0:
            return f"binfmt_misc cannot be mounted here: {proc.stderr.strip()}"
    if (BINFMT / "status").exists() and (BINFMT / "status").read_text().strip() != "enabled":
        return "binfmt_misc is disabled on this machine"
    if any(p.read_text().startswith("enabled") for p in BINFMT.glob("qemu-aarch64*")):
        return None
    if not BINFMT_CONF.exists():
        return f"{BINFMT_CONF} is missing (Debian's qemu-user-static)"
    line = BINFMT_CONF.read_text().strip()
    interpreter = line.split(":")[6] if line.count(":") >= 6 else ""
    if not Path(interpreter).exists():
        return f"the aarch64 interpreter {interpreter!r} is missing"
    try:
        (BINFMT / "register").write_text(line)
    except OSError as err:
        return f"cannot register the aarch64 handler with binfmt_misc: {err}"
    return None


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
def arm64_root(tmp_path_factory: pytest.TempPathFactory, wheel: Path):
    problem = emulation_problem()
    if problem:
        pytest.skip(f"no arm64 root: {problem}")
    need("debootstrap", "unshare", "chroot")
    timings: dict[str, float] = {}
    root = tmp_path_factory.mktemp("arm64") / "root"
    packages = package_list(STAGE / "00-runtime/00-packages-nr")
    cmd = ["debootstrap", "--arch=arm64", "--variant=minbase",
           "--include=" + ",".join(packages)]
    cache = CACHE / f"debootstrap-{SUITE}-arm64"
    try:
        cache.mkdir(parents=True, exist_ok=True)
        cmd.append(f"--cache-dir={cache}")
    except OSError:
        pass
    start = time.monotonic()
    proc = subprocess.run([*cmd, SUITE, str(root), MIRROR], capture_output=True, text=True,
                          timeout=2400)
    _timed(timings, "debootstrap", start)
    if proc.returncode != 0:
        log = root / "debootstrap/debootstrap.log"
        tail = log.read_text()[-3000:] if log.exists() else ""
        pytest.fail(f"debootstrap failed:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}\n{tail}")
    arch = in_root(root, "dpkg", "--print-architecture", timeout=120)
    assert arch.stdout.strip() == "arm64", arch.stderr

    # what the image's installer needs: the wheel, the network (DNS, this machine's CAs)
    shutil.copy("/etc/resolv.conf", root / "etc/resolv.conf")
    ca = os.environ.get("PIP_CERT") or os.environ.get("SSL_CERT_FILE") or \
        "/etc/ssl/certs/ca-certificates.crt"
    shutil.copy(ca, root / "tmp/host-ca.pem")
    (root / "tmp/wheels").mkdir()
    shutil.copy(wheel, root / "tmp/wheels" / wheel.name)
    shutil.copy(IMAGE_BUILD / "install-app.sh", root / "tmp/install-app.sh")
    start = time.monotonic()
    proc = in_root(root, "sh", "/tmp/install-app.sh", "/tmp/wheels",
                   env={"PIP_CERT": "/tmp/host-ca.pem", "INSTALL_APP_NO_COMPILE": "1"},
                   timeout=1800)
    _timed(timings, "install", start)
    assert proc.returncode == 0, f"install-app.sh failed:\n{proc.stdout[-4000:]}\n{proc.stderr[-4000:]}"
    yield root, timings
    print(f"arm64 root timings (s): {timings}")
    shutil.rmtree(root.parent, ignore_errors=True)


@pytest.mark.timeout(3600)
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


@pytest.mark.timeout(3600)
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


@pytest.mark.timeout(3600)
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
