"""The kiosk keeps playing through the fleet's sync: a game is played while a pass runs
and while the central server is down; every play is logged locally and arrives centrally
once the server is back. The Status page shows the last sync, the rows waiting, the last
error and a Sync now button (screenshots in /tmp/fleet-shots/ when FLEET_SHOTS is set)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import psycopg
import pytest

from kiosk.commands.cli import main as kiosk_main
from kiosk.fleet import central, state
from kiosk.settings.config import Fleet
from tests.fleet.conftest import REPO, assert_central_matches
from tests.fleet.pgserver import PgServer, ServerMissing
from tests.ui.klondike_win import win_by_one_tap


@pytest.fixture(scope="module")
def pg():
    try:
        server = PgServer(tls=False)
    except ServerMissing as err:
        pytest.fail(str(err))
    yield server
    server.destroy()


class AppKiosk:
    """The session app seen as a fleet kiosk (what assert_central_matches reads)."""

    def __init__(self, name: str, db_path: Path) -> None:
        self.name, self.db_path = name, db_path


def _win_klondike(ui, seed: int) -> None:
    ctl = ui.app.open_game("klondike", seed)
    ui.frames(3)
    ui.tap(*ui.card_center("S"))            # a move from the stock
    ui.frames(2)
    win_by_one_tap(ui, ctl)
    ui.wait(0.1)
    assert ctl.game.won


def _texts(widget) -> str:
    return "\n".join(str(w.text) for w in widget.walk() if hasattr(w, "text"))


def test_play_goes_on_through_a_sync_and_a_server_down(ui, pg, tmp_path):
    app = ui.app
    log_path = Path(app.lobby.playlog.path)
    data_dir = log_path.parent
    dsn = pg.create_database("fleet_ui")
    assert kiosk_main(["fleet", "init", "--dsn", dsn]) == 0
    with psycopg.connect(dsn, autocommit=True) as conn:
        added = central.add_kiosk(conn, "lobby_ui")
    (data_dir / "fleet.secret").write_text(added.password + "\n")
    (data_dir / "fleet.secret").chmod(0o600)
    fleet = Fleet(server=str(pg.socket_dir), port=pg.port, database="fleet_ui",
                  user=added.role, connect_timeout=5, batch_plays=5)
    config = tmp_path / "config.toml"
    config.write_text(f'[log]\ndata_dir = "{data_dir}"\n[fleet]\nserver = "{fleet.server}"\n'
                      f'port = {fleet.port}\ndatabase = "fleet_ui"\nuser = "{fleet.user}"\n'
                      'connect_timeout = 5\nbatch_plays = 5\n')

    def sync() -> subprocess.Popen:
        return subprocess.Popen([sys.executable, "-m", "kiosk", "sync", "--config", str(config)],
                                cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True)

    app.cfg.fleet = fleet
    try:
        # a pass runs while a game is played
        running = sync()
        _win_klondike(ui, 101)
        out, err = running.communicate(timeout=120)
        assert running.returncode == 0, err
        # the server goes down; the visitor plays on
        pg.stop()
        try:
            _win_klondike(ui, 102)
            app.go_welcome()
            down = sync()
            out, err = down.communicate(timeout=120)
            assert down.returncode == 1 and err.count("\n") == 1, err
            assert app.lobby.playlog.status.ok
            app.show_operator("status")
            ui.frames(3)
            shown = _texts(app.operator.panel)
            assert "Last error: " in shown and "Rows waiting: " in shown
            assert "Sync now" in shown and "Last sync: " in shown
            if os.environ.get("FLEET_SHOTS"):
                _shots(ui)
            app.go_welcome()
        finally:
            pg.start()
        # back: the next pass sends everything, exactly once
        again = sync()
        out, err = again.communicate(timeout=120)
        assert again.returncode == 0, err
        assert state.load_status(data_dir).last_error is None
        assert_central_matches(dsn, [AppKiosk("lobby_ui", log_path)])
        with psycopg.connect(dsn) as conn:
            seeds = {r[0] for r in conn.execute(
                "SELECT seed FROM plays WHERE result = 'won'")}
        assert {101, 102} <= seeds
        # the Status page's button starts a pass (off systemd: a child process)
        app.show_operator("status")
        ui.frames(2)
        ui.tap_widget(app.operator.widgets["fleet_sync_now"])
        ui.frames(2)
        assert app.operator.widgets["fleet_sync_now"].text == "Sync started."
    finally:
        app.cfg.fleet = None
        app.go_welcome()


def _shots(ui) -> None:
    out = Path("/tmp/fleet-shots")
    out.mkdir(exist_ok=True)
    for size in ((800, 480), (720, 1280)):
        for lang in ("zh", "en", "ru"):
            ui.resize(*size)
            ui.app.set_language(lang)
            ui.app.show_operator("status")
            ui.frames(3)
            ui.screenshot(out / f"status-{size[0]}x{size[1]}-{lang}.png")
    ui.resize(800, 480)
    ui.app.set_language("en")
