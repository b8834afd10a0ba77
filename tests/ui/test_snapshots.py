"""Every registered game is drawn at every target screen size with no card off the table."""

from __future__ import annotations

import subprocess
import sys

import pytest

import games
from games.families.seats import SeatedGame
from kiosk.settings.config import table_can_play

#: the games of the pile table (Gin Rummy has its own hand table: tests/ui/test_gin_table.py;
#: Draw Poker has no table yet and is not offered)
PILE_TABLE_GAMES = [g for g in games.ids() if not issubclass(games.game_class(g), SeatedGame)]
#: every game a visitor can be offered
TABLE_GAMES = [g for g in games.ids() if table_can_play(g)]

SIZES = [(800, 480), (720, 1280)]


def _check_table(ui, game_id: str, size: tuple[int, int], tmp_path) -> None:
    ui.resize(*size)
    ctl = ui.app.open_game(game_id, 1)
    ui.frames(3)
    view = ui.table.view
    assert tuple(ui.window.size) == size
    area = view.geometry().area
    window = (0, 0, *size)
    assert area.x >= 0 and area.y >= 0 and area.right <= size[0] and area.top <= size[1], window
    rects = view.card_rects()
    assert len(rects) == sum(len(p) for p in ctl.game.cards)
    for code, r in rects.items():
        assert r.inside(area), (game_id, size, code, r, area)
        w = view.cards[code]
        assert abs(w.x - round(r.x)) <= 1 and abs(w.y - round(r.y)) <= 1  # drawn where computed
    for i in range(len(ctl.game.layout)):
        assert view.geometry().base(i).inside(area), (game_id, ctl.game.layout[i].id)
    assert view.geometry().card_w >= 28, "cards too small to read"
    # a finger on a pile's top card (its index corner) reaches that pile
    geom, g = view.geometry(), ctl.game
    drawn = [geom.card_rects(i, len(p), g.down[i]) for i, p in enumerate(g.cards)]
    for i, rects in enumerate(drawn):
        if rects:
            x, y = rects[-1].x + 4, rects[-1].top - 4
            if not any(r.contains(x, y) for later in drawn[i + 1:] for r in later):
                assert view.hit(x, y) == (i, len(rects) - 1), (game_id, g.layout[i].id)
    ui.screenshot(tmp_path / f"{game_id}-{size[0]}x{size[1]}.png")
    assert (tmp_path / f"{game_id}-{size[0]}x{size[1]}.png").stat().st_size > 1000


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("game_id", PILE_TABLE_GAMES)
def test_every_game_fits_the_screen(ui, game_id, size, tmp_path):
    _check_table(ui, game_id, size, tmp_path)


def test_status_line_follows_the_orientation(ui):
    """Turning the screen re-lays the status at once, not at the next clock tick: a
    portrait bar has room for one line only (the snapshot command shoots the first frame)."""
    ui.resize(800, 480)
    ui.app.open_game("klondike", 5)
    ui.frames(2)
    assert "\n" in ui.table.status.text
    ui.resize(720, 1280)
    ui.frames(1)
    assert "\n" not in ui.table.status.text
    ui.resize(800, 480)
    ui.frames(1)
    assert "\n" in ui.table.status.text


@pytest.mark.parametrize("game_id", PILE_TABLE_GAMES)
def test_long_fans_stay_on_screen(ui, game_id):
    """Pile every card into each fanned pile in turn: the fan squeezes, nothing leaves."""
    ui.resize(800, 480)
    ctl = ui.app.open_game(game_id, 2)
    ui.frames(2)
    geom = ui.table.view.geometry()
    total = sum(len(p) for p in ctl.game.cards)
    for i, spec in enumerate(ctl.game.layout):
        if spec.fan != "none":
            for r in geom.card_rects(i, total, total // 3):
                assert r.inside(geom.area), (game_id, spec.id)


def _snapshot(tmp_path, game_id: str, size: str, lang: str = "en") -> None:
    out = tmp_path / f"{game_id}-{size}-{lang}.png"
    proc = subprocess.run(
        [sys.executable, "-m", "kiosk", "snapshot", game_id, "--seed", "7", "--size", size,
         "--lang", lang, "--out", str(out)],
        capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    data = out.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    assert f"{width}x{height}" == size


@pytest.mark.timeout(300)
def test_snapshot_command(tmp_path):
    _snapshot(tmp_path, "klondike", "800x480", "zh")
    _snapshot(tmp_path, "klondike", "720x1280", "ru")


def test_snapshot_command_refuses_bad_input(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "kiosk", "snapshot", "no_such_game", "--seed",
                           "1", "--out", str(tmp_path / "x.png")],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "unknown game" in proc.stderr
    assert "Traceback" not in proc.stderr


@pytest.mark.slow
@pytest.mark.timeout(600)
@pytest.mark.parametrize("game_id", TABLE_GAMES)
def test_snapshot_command_every_game(tmp_path, game_id):
    """The real command, one process per game (sizes alternate; the in-process test above
    covers both sizes for every game)."""
    size = ("800x480", "720x1280")[TABLE_GAMES.index(game_id) % 2]
    _snapshot(tmp_path, game_id, size)
