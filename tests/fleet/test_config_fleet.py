"""The [fleet] section: checked like every other section, and its secret never printed."""

from __future__ import annotations

from kiosk.commands.cli import main
from kiosk.settings import config


def test_config_show_never_prints_the_password(tmp_path, capsys):
    cfg = tmp_path / "config.toml"
    cfg.write_text(f'[log]\ndata_dir = "{tmp_path}"\n[fleet]\nserver = "db.example.org"\n'
                   'user = "kiosk_lobby"\npassword = "hunter2-very-secret"\n')
    assert main(["config", "show", "--config", str(cfg)]) == 0
    out = capsys.readouterr().out
    assert "hunter2" not in out
    assert 'server = "db.example.org"' in out and 'sslmode = "verify-full"' in out
    assert main(["config", "show", "--json", "--config", str(cfg)]) == 0
    assert "hunter2" not in capsys.readouterr().out
    assert main(["config", "check", str(cfg)]) == 0


def test_bad_fleet_values_are_named_and_the_secret_is_not_echoed():
    cfg = config.load_text('[fleet]\nserver = "a b"\nuser = "kiosk_x"\nport = 99999\n'
                           'sslmode = "sometimes"\npassword = "bad\\u0001pw"\nbogus = 1\n', "k.toml")
    text = "\n".join(cfg.problems)
    for key in ("fleet.server", "fleet.port", "fleet.sslmode", "fleet.password", "fleet.bogus"):
        assert key in text, key
    assert "bad" not in text.split("fleet.password")[1].split("\n")[0]
    assert cfg.fleet is None  # no server: no fleet, no connection


def test_a_complete_section_with_defaults():
    cfg = config.load_text('[fleet]\nserver = "db.example.org"\nuser = "kiosk_x"\n')
    assert not cfg.problems
    assert cfg.fleet is not None and cfg.fleet.sslmode == "verify-full"
    assert cfg.fleet.port == 5432 and cfg.fleet.batch_plays == 500
    assert config.load_text('name = "x"\n').fleet is None
