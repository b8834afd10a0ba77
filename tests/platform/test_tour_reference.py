"""The 512 MB boot test's tour, worked out on this machine before any boot: a wrong touch
here costs an hour of emulation to find (tests/platform/test_boot_512m.py)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from .conftest import REPO


def test_the_tour_reaches_a_hand_table_on_the_pickers_second_group(tmp_path: Path):
    # the picker shows the solitaires first and the games against the computer after them,
    # so Draw Poker's page is not its place in the configuration's list of games; Pyramid's
    # random deals are often proved lost at the first Hint, and the sheet that says so
    # takes every touch (Home too) until it is closed
    proc = subprocess.run([sys.executable, "-m", "tests.platform.tour_reference", str(tmp_path),
                           str(REPO / "config.example.toml"), "800x480", "pyramid",
                           "draw_poker"], cwd=REPO, capture_output=True, text=True, timeout=600)
    error = tmp_path / "error.txt"
    assert proc.returncode == 0, error.read_text() if error.exists() else proc.stderr[-2000:]
    steps = json.loads((tmp_path / "tour.json").read_text())["steps"]
    whats = [s["what"] for s in steps]
    assert "Hint at pyramid again" in whats and "the draw_poker tile" in whats, whats
    close = whats.index("Close of a sheet on pyramid, if one is open")
    assert whats[close + 1] == "Home from pyramid", whats
    sheet = steps[close + 1]["sheet"]   # for a late answer: the sheet and its Close again
    assert sheet["close"] == steps[close]["touch"], steps[close:close + 2]
    assert (tmp_path / sheet["picture"]).stat().st_size > 0
    assert steps[whats.index("the default variant of draw_poker")]["screen"] == "poker", steps
    assert steps[-1]["screen"] == "picker", steps[-1]
    for step in steps:
        x, y = step["touch"]
        assert 0 <= x < 800 and 0 <= y < 480, step
        if "picture" in step:
            assert (tmp_path / step["picture"]).stat().st_size > 0, step
