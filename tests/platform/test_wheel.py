"""The wheel the image installs: complete, installable in a clean virtual environment, and
every dependency available as a binary wheel for the Pi (Linux aarch64, CPython 3.11 for
Raspberry Pi OS Bookworm and 3.13 for Trixie, the image's)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from .conftest import REPO

# glibc 2.36 is Bookworm's (Trixie has 2.41): a wheel for these runs on both
AARCH64_PLATFORMS = ["manylinux2014_aarch64"] + [
    f"manylinux_2_{minor}_aarch64" for minor in range(17, 37)]


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_wheel_holds_every_module_and_asset(wheel: Path):
    """Every module of the checkout's packages is in the wheel (a subpackage missing from
    pyproject.toml's list would break ``kiosk`` on the Pi only), and so are the fonts."""
    names = set(zipfile.ZipFile(wheel).namelist())
    for package in ("games", "kiosk"):
        for module in (REPO / package).rglob("*.py"):
            if "__pycache__" in module.parts:
                continue
            rel = module.relative_to(REPO).as_posix()
            assert rel in names, f"{rel} is not in {wheel.name}"
    for lang in ("zh", "en", "ru"):  # the catalogs are read at run time (Babel, no .mo)
        for domain in ("kiosk", "reasons"):
            assert f"kiosk/locale/{lang}/LC_MESSAGES/{domain}.po" in names
    # every game's texts are package data (games/engine/game_texts.py reads them from the package)
    texts = sorted((REPO / "games/texts").glob("*.toml"))
    assert texts
    for text in texts:
        rel = text.relative_to(REPO).as_posix()
        assert rel in names, f"{rel} is not in {wheel.name}"
    # the app finds its assets inside the package (kiosk/paths.py): the fonts must be there
    fonts = [n for n in names if "assets/fonts/" in n and n.endswith((".otf", ".ttf"))]
    assert fonts, f"the fonts (assets/fonts) are not in {wheel.name}"
    for font in (REPO / "assets/fonts").glob("*.otf"):
        assert any(n.endswith("/" + font.name) for n in fonts), font.name


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_wheel_installs_in_a_clean_venv_and_runs(wheel: Path, tmp_path: Path):
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    pip = subprocess.run([str(venv / "bin/python"), "-m", "pip", "install", "--quiet",
                          "--only-binary=:all:", str(wheel)],
                         capture_output=True, text=True, timeout=900)
    assert pip.returncode == 0, pip.stdout + pip.stderr
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    kiosk = str(venv / "bin/kiosk")
    plain = subprocess.run([kiosk, "games"], capture_output=True, text=True, timeout=120,
                           cwd=tmp_path, env=env)
    assert plain.returncode == 0, plain.stderr
    assert "klondike" in plain.stdout.lower()
    listed = subprocess.run([kiosk, "games", "--json"], capture_output=True, text=True,
                            timeout=120, cwd=tmp_path, env=env)
    assert listed.returncode == 0, listed.stderr
    ids = {g["id"] for g in json.loads(listed.stdout)}
    assert "klondike" in ids
    # the module runs from the venv, not from the checkout
    where = subprocess.run([str(venv / "bin/python"), "-c", "import kiosk; print(kiosk.__file__)"],
                           capture_output=True, text=True, timeout=60, cwd=tmp_path, env=env)
    assert str(venv) in where.stdout


@pytest.mark.slow
@pytest.mark.timeout(1200)
@pytest.mark.parametrize("python", ["3.11", "3.13"])
def test_every_dependency_has_an_aarch64_wheel(wheel: Path, tmp_path: Path, python: str):
    """Asks PyPI for binary wheels only, for the Pi's platform: a dependency that would need
    a compiler on the Pi (or has no aarch64 build) fails here."""
    abi = "cp" + python.replace(".", "")
    platforms = [arg for p in AARCH64_PLATFORMS for arg in ("--platform", p)]
    env = dict(os.environ, PIP_CONFIG_FILE=os.devnull)  # no machine-local indexes
    proc = subprocess.run(
        [sys.executable, "-m", "pip", "download", "--quiet", "--only-binary=:all:",
         "--python-version", python, "--implementation", "cp", "--abi", abi, *platforms,
         "--dest", str(tmp_path), str(wheel)],
        capture_output=True, text=True, timeout=1200, env=env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    got = sorted(p.name for p in tmp_path.glob("*.whl"))
    kivy = [n for n in got if n.lower().startswith("kivy-")]
    assert kivy and f"{abi}-{abi}" in kivy[0] and "aarch64" in kivy[0], got
    print(f"aarch64 wheels for CPython {python}: {', '.join(got)}")
