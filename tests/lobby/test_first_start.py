"""A newcomer's first start: `make run` installs only what running needs, the packaging
names every folder it ships (no setuptools warnings), and a start prints no traceback."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
TEST_TOOLS = {"mmdebstrap", "qemu-user-static", "qemu-system-arm", "shellcheck",
              "dosfstools", "mtools"}


def names(path: Path) -> set[str]:
    return {line.split()[0] for line in path.read_text().splitlines()
            if line.strip() and not line.lstrip().startswith("#")}


def test_running_needs_only_the_runtime_set_and_tests_install_both():
    runtime = names(REPO / "tools/debian-packages-runtime.txt")
    assert "libmtdev1" in runtime and {"libegl1", "libgl1"} <= runtime
    assert not runtime & TEST_TOOLS
    assert TEST_TOOLS <= names(REPO / "tools/debian-packages.txt")
    makefile = (REPO / "Makefile").read_text()
    assert re.search(r"^run: \$\(VENV\)/\.installed-runtime$", makefile, re.M)
    assert re.search(r"^\$\(VENV\)/\.installed-runtime:.*\n\ttools/install\.sh runtime$",
                     makefile, re.M)
    assert "tools/install.sh test" in (REPO / "tools/test.sh").read_text()


def test_an_unknown_install_set_is_refused_with_status_2():
    for script in ("tools/install.sh", "tools/install-system-packages.sh"):
        done = subprocess.run([str(REPO / script), "everything"], capture_output=True,
                              text=True, timeout=30)
        assert done.returncode == 2 and "unknown set 'everything'" in done.stderr
        assert len(done.stderr.strip().splitlines()) == 1


def test_every_folder_that_ships_files_is_a_listed_package():
    """setuptools warns "Package 'kiosk.assets.deals' is absent from the packages
    configuration" for a data folder left out of the list (and may stop copying it)."""
    tool = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]
    listed = set(tool["packages"])
    roots = {"games": REPO / "games", "kiosk": REPO / "kiosk",
             "kiosk.assets": REPO / tool["package-dir"]["kiosk.assets"]}
    for name, root in roots.items():
        for folder in [root, *root.rglob("*")]:
            if not folder.is_dir() or "__pycache__" in folder.parts:
                continue
            if not any(f.is_file() for f in folder.iterdir()):
                continue
            package = ".".join([name, *folder.relative_to(root).parts])
            assert package in listed, f"{folder.relative_to(REPO)} is not in pyproject.toml"


def test_a_start_prints_no_traceback():
    """Kivy imports its mtdev input provider on every Linux start; without libmtdev1 (the
    runtime set has it) that logs a red traceback."""
    code = ("from kiosk.platform import boot\n"
            "boot.configure(boot.Screen(800, 480, headless=True))\n"
            "from kivy.core.window import Window\n"
            "import kivy.input.providers\n")
    env = {**os.environ, "SDL_VIDEODRIVER": "offscreen"}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, env=env, cwd=REPO)
    out = done.stdout + done.stderr
    assert done.returncode == 0, out
    assert "Traceback" not in out and "MTDev" not in out and "[ERROR" not in out, out
