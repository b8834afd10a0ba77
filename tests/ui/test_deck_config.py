"""The operator's deck reaches every table (issue 34): with ``four_colour = true`` in the
configuration, ``kiosk run`` deals the cards of Gin Rummy, Follow the Rules and Draw Poker
(all eight hands) in four colours, as it always did the solitaires'; without it, in two.
The real command's start (tests/ui/deck_child.py), in a process of its own."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from .test_crash_restart import START_TIMEOUT, env_for

REPO = Path(__file__).resolve().parents[2]


def decks(tmp_path: Path, setting: str) -> dict:
    data = tmp_path / "data"
    cfg = tmp_path / "config.toml"
    cfg.write_text(f'{setting}\n[log]\ndata_dir = "{data}"\n')
    run = subprocess.run(
        [sys.executable, str(REPO / "tests" / "ui" / "deck_child.py"), "--config", str(cfg),
         "--size", "800x480", "--windowed", "--game", "gin_rummy", "--seed", "5"],
        cwd=tmp_path, env=env_for(tmp_path), capture_output=True, text=True,
        timeout=START_TIMEOUT)
    line = next((ln for ln in run.stdout.splitlines() if ln.startswith("DECKS ")), None)
    assert line is not None, (run.returncode, run.stdout[-2000:], run.stderr[-3000:])
    return json.loads(line[len("DECKS "):])


@pytest.mark.slow
@pytest.mark.timeout(300)
@pytest.mark.parametrize(("setting", "four"), [("four_colour = true", True), ("", False)])
def test_the_configured_deck_reaches_the_hand_tables(tmp_path, setting, four):
    found = decks(tmp_path, setting)
    assert found["app"] is four
    for table in ("gin", "trick", "poker"):
        assert found[table] == [four], (table, found)
    assert found["poker_fans"] == 8  # the visitor's hand and seven opponents' seats
