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


def _one_line(capsys) -> str:
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    return err


def test_sync_with_a_missing_or_broken_configuration_is_status_2(tmp_path, capsys):
    """Before: status 0, "nothing to do", and the kiosk never synced without a word."""
    assert main(["sync", "--config", str(tmp_path / "nonexistent.toml")]) == 2
    assert "nonexistent.toml" in _one_line(capsys)
    broken = tmp_path / "config.toml"
    broken.write_text(f'[log]\ndata_dir = "{tmp_path}"\n[fleet\nserver = "x"\n')
    assert main(["sync", "--config", str(broken)]) == 2
    assert "config.toml" in _one_line(capsys)
    # a [fleet] section that cannot be used is no "nothing to do" either
    broken.write_text(f'[log]\ndata_dir = "{tmp_path}"\n[fleet]\nuser = "kiosk_x"\n')
    assert main(["sync", "--config", str(broken)]) == 2
    assert "server missing" in _one_line(capsys)
    # the timer's condition lets such a pass run, so that it fails where it is seen
    assert main(["sync", "--config", str(broken), "--configured"]) == 0


def test_office_commands_refuse_bad_input_with_status_2(fleet_dsn, tmp_path, capsys):
    assert main(["fleet", "init", "--dsn", ""]) == 2
    assert "--dsn: empty" in _one_line(capsys)
    assert main(["fleet", "group", "Lobby 7!", "hotels", "--dsn", fleet_dsn]) == 2
    assert "not a kiosk name" in _one_line(capsys)
    assert main(["fleet", "group", "lobby-7", "Hotels & Co", "--dsn", fleet_dsn]) == 2
    assert "not a group name" in _one_line(capsys)
    assert main(["fleet", "group", "nobody", "hotels", "--dsn", fleet_dsn]) == 2
    assert "no kiosk named 'nobody'" in _one_line(capsys)
    assert main(["fleet", "add-kiosk", "lobby-7", "--dsn", fleet_dsn, "--port", "99999"]) == 2
    assert "--port" in _one_line(capsys)
    long_host = "a" * 5000
    for argv in (["fleet", "init", "--dsn", f"host={long_host} dbname=x"],
                 ["fleet", "status", "--dsn", f"host={long_host} dbname=x"],
                 ["fleet", "add-kiosk", "lobby-7", "--dsn", fleet_dsn, "--server", long_host]):
        assert main(argv) == 2
        err = _one_line(capsys)
        assert "not a host name (longer than 253 characters)" in err and "idna" not in err
        assert len(err) < 200


def test_a_host_no_resolver_takes_in_the_kiosks_configuration(make_kiosk, capsys):
    k = make_kiosk("far-away")
    k.fleet["server"] = "a" * 5000
    k.write_config()
    assert main(["config", "check", str(k.config)]) == 1
    out = capsys.readouterr().out
    assert "fleet.server" in out and "longer than 253 characters" in out and "idna" not in out
    assert k.sync() == 2
    assert "fleet.server" in _one_line(capsys)
