"""`kiosk fleet init` and `kiosk fleet add-kiosk` at the office: what they print, and one
line with status 2 (a mistake in what was asked) or 1 (a server that failed)."""

from __future__ import annotations

import stat

import psycopg

from kiosk.commands.cli import main
from kiosk.settings import config


def test_add_kiosk_prints_a_section_the_kiosk_accepts(fleet_dsn, tmp_path, capsys, pg):
    secret = tmp_path / "lobby_7.secret"
    assert main(["fleet", "add-kiosk", "lobby_7", "--dsn", fleet_dsn, "--server",
                 "db.example.org", "--secret-out", str(secret)]) == 0
    out = capsys.readouterr().out
    password = secret.read_text().strip()
    assert password and password not in out
    assert stat.S_IMODE(secret.stat().st_mode) == 0o600
    cfg = config.load_text(out, "printed")
    assert not cfg.problems and cfg.fleet is not None
    assert (cfg.fleet.server, cfg.fleet.sslmode) == ("db.example.org", "verify-full")
    assert cfg.fleet.sslrootcert is not None
    # the role logs in with that password and is a kiosk of the fleet
    with psycopg.connect(pg.dsn(cfg.fleet.database, cfg.fleet.user, password)) as conn:
        assert conn.execute("SELECT fleet_kiosk_name()").fetchone()[0] == "lobby_7"
    with psycopg.connect(fleet_dsn) as conn:
        assert conn.execute("SELECT role FROM kiosks WHERE name = 'lobby_7'").fetchone() == (
            cfg.fleet.user,)


def test_mistakes_are_one_line_and_status_2(fleet_dsn, capsys):
    assert main(["fleet", "add-kiosk", "Lobby 7!", "--dsn", fleet_dsn]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not a kiosk name" in err
    assert main(["fleet", "init", "--dsn", "host='unclosed"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--dsn" in err


def test_an_unreachable_server_is_one_line_and_status_1(tmp_path, capsys):
    assert main(["fleet", "init", "--dsn", f"host={tmp_path} port=5 dbname=x user=y "
                 "connect_timeout=2"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot connect" in err
