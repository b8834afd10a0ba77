"""Helpers of the platform tests (systemd, image build, wheel, arm64 root)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SYSTEMD = REPO / "systemd"
IMAGE_BUILD = REPO / "image-build"


def opt_in(variable: str, what: str, how: str) -> list[pytest.MarkDecorator]:
    """The marks of a module of boots too long for the suite: slow, and skipped unless
    ``variable`` is set (``how``: the make target and its length, said in the reason)."""
    return [pytest.mark.slow, pytest.mark.skipif(
        not os.environ.get(variable), reason=f"{what} opt-in: {variable}=1 ({how})")]


def need(*tools: str) -> None:
    """Fail (not skip) when a tool the CI installs (tools/debian-packages.txt) is missing."""
    missing = [t for t in tools if shutil.which(t) is None]
    if missing:
        pytest.fail(f"missing {', '.join(missing)}: `make test` installs them from "
                    "tools/debian-packages.txt")


def install_files(tmp_path: Path) -> Path:
    """The image's shared installer (system/install-files.sh) run on an empty root under
    ``tmp_path``, as the image build runs it: the root it filled."""
    root = tmp_path / "root"
    (root / "etc").mkdir(parents=True)
    proc = subprocess.run(["sh", str(IMAGE_BUILD / "system/install-files.sh"), str(root),
                           str(SYSTEMD), str(REPO / "config.example.toml")],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return root


def package_list(path: Path) -> list[str]:
    """Package names of one of the image's package lists (comments and blanks dropped)."""
    names: list[str] = []
    for line in path.read_text().splitlines():
        names.extend(line.split("#", 1)[0].split())
    return names


SOURCE_IGNORE = shutil.ignore_patterns(
    ".git", ".venv", "venv", "build", "dist", "*.egg-info", "__pycache__", ".pytest_cache",
    ".ruff_cache", ".hypothesis", ".benchmarks", "work", "deploy", "node_modules")


def build_wheel(out: Path) -> Path:
    """``pip wheel`` of this repository (no dependencies): the wheel the image installs.

    Built from a clean copy of the checkout: setuptools would also pack whatever a previous
    build left in ``build/``."""
    out.mkdir(parents=True, exist_ok=True)
    src = out / "src"
    shutil.copytree(REPO, src, ignore=SOURCE_IGNORE)
    env = dict(os.environ, PIP_CONFIG_FILE=os.devnull)
    proc = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet",
                           "--wheel-dir", str(out), str(src)],
                          capture_output=True, text=True, timeout=600, env=env)
    assert proc.returncode == 0, f"pip wheel failed:\n{proc.stdout}\n{proc.stderr}"
    wheels = sorted(out.glob("solitaire_kiosk-*.whl"))
    assert len(wheels) == 1, wheels
    return wheels[0]


@pytest.fixture(scope="session")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The project's wheel, built once per test session."""
    return build_wheel(tmp_path_factory.mktemp("wheel"))


# `make test` (tools/test.sh) builds the image beside the suite; on a quiet machine from
# nothing it takes about half an hour, under the suite's load longer.
IMAGE_BUILD_WAIT_S = 4200


@dataclass(frozen=True)
class BuiltImage:
    """The SD-card image, and its root as a directory when this run built it."""
    image: Path
    root: Path | None
    build_seconds: int | None = None
    #: the update keys the image trusts (ca.cert.pem) and signs with (signing.*.pem), and
    #: another office's (docs/updates.md); the bundle this build signed (`make bundle`)
    keys: Path | None = None
    other_keys: Path | None = None
    bundle: Path | None = None


def _build_seconds(log: str) -> int | None:
    for line in reversed(log.splitlines()):
        if "==> [" in line and "done in " in line:
            return int(line.split("done in ", 1)[1].split()[0])
    return None


@pytest.fixture(scope="session")
def built_image() -> BuiltImage:
    """The image of this run: the one `make test` builds beside the suite
    (SOLITAIRE_KIOSK_IMAGE_BUILD, its build directory), or the one given in
    SOLITAIRE_KIOSK_IMAGE (`make boot-test` after `make image`)."""
    given = os.environ.get("SOLITAIRE_KIOSK_IMAGE")
    if given:
        if not Path(given).is_file():
            pytest.fail(f"SOLITAIRE_KIOSK_IMAGE={given} does not exist: run `make image` first")
        # `make image` / `make bundle`: the Makefile's keys (build/keys unless KEYS is set)
        keys = Path(os.environ.get("SOLITAIRE_KIOSK_KEYS", REPO / "build/keys"))
        bundle = os.environ.get("SOLITAIRE_KIOSK_BUNDLE")
        return BuiltImage(Path(given), None, keys=keys if keys.is_dir() else None,
                          bundle=Path(bundle) if bundle else None)
    build = os.environ.get("SOLITAIRE_KIOSK_IMAGE_BUILD")
    if not build:
        pytest.skip("the image is built by `make test` (as root) or by `make image` "
                    "(then `make boot-test`)")
    folder = Path(build)
    if (folder / "skip").exists():
        pytest.skip((folder / "skip").read_text().strip())
    status, log = folder / "status", folder / "build.log"
    deadline = time.monotonic() + IMAGE_BUILD_WAIT_S
    while not status.exists():
        if time.monotonic() > deadline:
            pytest.fail(f"the image build of this run ({folder}) did not end in "
                        f"{IMAGE_BUILD_WAIT_S} s")
        time.sleep(5)
    text = log.read_text(errors="replace") if log.exists() else ""
    code = status.read_text().strip()
    if code != "0":
        pytest.fail(f"the image build failed (status {code}); the end of {log}:\n"
                    + text[-4000:])
    return BuiltImage(folder / "solitaire-kiosk-arm64.img", folder / "root",
                      _build_seconds(text), keys=folder / "keys",
                      other_keys=folder / "other-keys", bundle=folder / "update.raucb")
