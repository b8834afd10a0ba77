"""tools/hand_screenshots.py reaches every moment inside a hand that docs/ui.md shows.

Why: these pictures were once made by hand and went stale (the old *Games* button, the text
sizes before the font ladder) because nothing could make them again. The tool plays to each
moment and exits with a message naming the one it could not reach; run in a fresh process
(it configures Kivy's window itself), at one size and language to keep the test short.
"""

from __future__ import annotations

import struct
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TOOL = ROOT / "tools" / "hand_screenshots.py"
SETS = ("gin-levels", "gin-offer", "gin-layoff", "gin-knock", "trick-hand",
        # the moments a first-time visitor learns at (issue 34)
        "gin-rules", "gin-learn-draw", "gin-learn-throw", "gin-learn-knock", "trick-follow",
        "poker-hold")


def png_size(path: Path) -> tuple[int, int]:
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n", f"{path.name} is not a PNG"
    return struct.unpack(">II", head[16:24])


def test_the_tool_writes_each_moment_of_a_hand_as_its_own_picture(tmp_path):
    proc = subprocess.run([sys.executable, str(TOOL), "--out", str(tmp_path),
                           "--size", "800x480", "--lang", "en"],
                          capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr[-3000:]
    written = sorted(p.name for p in tmp_path.glob("*.png"))
    assert written == sorted(f"{s}-800x480-en.png" for s in SETS)
    pictures = [(tmp_path / name).read_bytes() for name in written]
    assert len(set(pictures)) == len(SETS), "two moments came out as the same picture"
    for name in written:
        assert png_size(tmp_path / name) == (800, 480), name


def test_a_size_the_docs_do_not_show_is_refused_in_one_line_with_status_2(tmp_path):
    proc = subprocess.run([sys.executable, str(TOOL), "--out", str(tmp_path),
                           "--size", "800x48"], capture_output=True, text=True, timeout=60,
                          cwd=ROOT)
    assert proc.returncode == 2
    assert "800x48 is not one of 800x480, 720x1280" in proc.stderr.splitlines()[-1]
    assert not list(tmp_path.iterdir())
