"""Settings from the centre (issue 27): versions for all kiosks, a group and one kiosk
arrive with the sync and are applied in order; a version the kiosk rejects is never half
applied and is reported; the precedence between the file, the menu and the centre is the
one docs/fleet.md states."""

from __future__ import annotations

import psycopg
import pytest

from kiosk.commands.cli import main
from kiosk.fleet import heartbeat
from kiosk.settings import config, overrides
from kiosk.settings.operator_pin import hash_pin


@pytest.fixture(autouse=True)
def _unit(monkeypatch):
    monkeypatch.setattr(heartbeat, "unit_properties", lambda unit=None: {})


def effective(k) -> config.Config:
    """The configuration the kiosk would run with (as `kiosk run` loads it)."""
    cfg = config.load(k.config)
    notes = overrides.apply(cfg, k.data_dir)
    assert not cfg.problems and not notes, (cfg.problems, notes)
    return cfg


def put(tmp_path, capsys, dsn: str, scope: list[str], text: str) -> tuple[int, str]:
    path = tmp_path / f"settings{abs(hash(text))}.toml"
    path.write_text(text)
    code = main(["fleet", "settings", "set", "--dsn", dsn, *scope, str(path)])
    out = capsys.readouterr()
    return code, out.out + out.err


def last_beat(dsn: str, kiosk: str) -> tuple:
    with psycopg.connect(dsn) as conn:
        return conn.execute("SELECT settings_version, settings_rejected, settings_error"
                            " FROM heartbeats WHERE kiosk = %s ORDER BY id DESC LIMIT 1",
                            (kiosk,)).fetchone()


def test_all_group_and_kiosk_versions_arrive_and_apply_in_order(make_kiosk, fleet_dsn,
                                                                  tmp_path, capsys):
    a, b, c = make_kiosk("hotel_1"), make_kiosk("hotel_2"), make_kiosk("clinic_1")
    for name, group in (("hotel_1", "hotels"), ("hotel_2", "hotels")):
        assert main(["fleet", "group", name, group, "--dsn", fleet_dsn]) == 0
    pin = hash_pin("4826")
    code, out = put(tmp_path, capsys, fleet_dsn, ["--all"],
                    'language = "zh"\nidle_timeout = 120\n[attract]\ndelay = 600\n'
                    '[games]\nenabled = ["klondike", "pyramid", "golf"]\n')
    assert code == 0 and "version 1 for all kiosks" in out
    assert put(tmp_path, capsys, fleet_dsn, ["--group", "hotels"],
               'idle_timeout = 300\n[games.klondike]\nwinnable_only = true\n')[0] == 0
    assert put(tmp_path, capsys, fleet_dsn, ["--kiosk", "hotel_2"],
               f'language = "ru"\noperator_pin = "{pin}"\n[attract]\nenabled = false\n')[0] == 0
    for k in (a, b, c):
        assert k.sync() == 0
    ca, cb, cc = effective(a), effective(b), effective(c)
    # all: every kiosk
    assert cc.games == ca.games == cb.games == ["klondike", "pyramid", "golf"]
    assert (cc.language, cc.idle_timeout, cc.attract.delay) == ("zh", 120, 600)
    assert "klondike" not in cc.winnable_only
    # the group's version over all's, for its members only
    assert (ca.language, ca.idle_timeout, ca.attract.delay) == ("zh", 300, 600)
    assert "klondike" in ca.winnable_only
    # the kiosk's over both
    assert (cb.language, cb.idle_timeout, cb.attract.enabled) == ("ru", 300, False)
    assert cb.operator_pin == pin and ca.operator_pin is None
    assert [last_beat(fleet_dsn, n)[0] for n in ("hotel_1", "hotel_2", "clinic_1")] == [
        2, 3, 1]
    # a newer version for all replaces the older one; the narrower scopes still win
    assert put(tmp_path, capsys, fleet_dsn, ["--all"], "idle_timeout = 90\n")[0] == 0
    for k in (a, c):
        assert k.sync() == 0
    ca, cc = effective(a), effective(c)
    assert (cc.idle_timeout, cc.language, cc.attract.delay) == (90, "en", 300)  # all's old keys gone
    assert cc.games == config.default_games()
    assert ca.idle_timeout == 300
    assert main(["fleet", "settings", "show", "--dsn", fleet_dsn]) == 0
    out = capsys.readouterr().out
    assert "hotel_1 [hotels]: should have v4 (group v2, all v4); has v4; up to date" in out
    assert "hotel_2 [hotels]: should have v4 (group v2, kiosk v3, all v4); has v3; " \
           "waiting for its next sync" in out


def test_a_rejected_version_changes_nothing_and_is_reported(make_kiosk, fleet_dsn, tmp_path,
                                                            capsys):
    k = make_kiosk("lobby_r")
    assert put(tmp_path, capsys, fleet_dsn, ["--kiosk", "lobby_r"],
               'language = "zh"\nidle_timeout = 200\n')[0] == 0
    assert k.sync() == 0
    before = (k.data_dir / overrides.FILE_NAME).read_bytes()
    # versions the kiosk must refuse whole: stored past the office's check (an office of
    # newer software, or a hand in the database), one good key beside each bad one
    bad = {
        "an unknown game": 'idle_timeout = 30\n[games]\nenabled = ["klondike", "mahjong"]\n',
        "a value out of range": 'language = "ru"\nidle_timeout = 5\n',
        "a key the centre may not set": 'idle_timeout = 30\nrotation = 90\n',
        "not TOML": 'idle_timeout = 30\nlanguage = "ru\n',
        "a PIN in clear": 'idle_timeout = 30\noperator_pin = "1234"\n',
    }
    reasons = {"an unknown game": "unknown game 'mahjong'",
               "a value out of range": "idle_timeout: 5 is out of range",
               "a key the centre may not set": "rotation: the centre may not set this key",
               "not TOML": "settings version",
               "a PIN in clear": "operator_pin: must be a hash"}
    for what, text in bad.items():
        with psycopg.connect(fleet_dsn) as conn:
            version = conn.execute(
                "INSERT INTO settings_versions (scope, target, settings) VALUES"
                " ('kiosk', 'lobby_r', %s) RETURNING version", (text,)).fetchone()[0]
        assert k.sync() == 0, what
        assert (k.data_dir / overrides.FILE_NAME).read_bytes() == before, what
        cfg = effective(k)
        assert (cfg.language, cfg.idle_timeout) == ("zh", 200), what
        applied, rejected, error = last_beat(fleet_dsn, "lobby_r")
        assert (applied, rejected) == (1, version), what
        assert reasons[what] in error, (what, error)
        assert k.sync() == 0  # reported again by the next heartbeat, still not applied
        assert last_beat(fleet_dsn, "lobby_r")[1] == version
    assert main(["fleet", "settings", "show", "--dsn", fleet_dsn]) == 0
    assert f"lobby_r: should have v{version} (kiosk v{version}); has v1; REJECTED " \
           f"v{version}: " in capsys.readouterr().out
    # a good version after the bad ones is taken, and the rejection is over
    assert put(tmp_path, capsys, fleet_dsn, ["--kiosk", "lobby_r"], 'idle_timeout = 45\n')[0] == 0
    assert k.sync() == 0
    assert effective(k).idle_timeout == 45 and effective(k).language == "en"
    assert last_beat(fleet_dsn, "lobby_r")[1:] == (None, None)


def test_the_office_refuses_a_bad_file_with_status_2(fleet_dsn, tmp_path, capsys):
    code, out = put(tmp_path, capsys, fleet_dsn, ["--all"], 'idle_timeout = "soon"\n')
    assert code == 2 and "idle_timeout" in out and "not stored" in out
    code, out = put(tmp_path, capsys, fleet_dsn, ["--all"], '[log]\nmax_mb = 5\n')
    assert code == 2 and "log: the centre may not set this key" in out
    code, out = put(tmp_path, capsys, fleet_dsn, ["--kiosk", "nobody"], 'idle_timeout = 60\n')
    assert code == 2 and "no kiosk named 'nobody'" in out
    assert main(["fleet", "settings", "set", "--dsn", fleet_dsn, "--all",
                 str(tmp_path / "missing.toml")]) == 2
    assert "missing.toml" in capsys.readouterr().err
    with psycopg.connect(fleet_dsn) as conn:
        assert conn.execute("SELECT count(*) FROM settings_versions").fetchone()[0] == 0


def test_the_newer_of_menu_and_centre_wins(make_kiosk, fleet_dsn, tmp_path, capsys):
    k = make_kiosk("lobby_p")
    k.config.write_text('language = "en"\nidle_timeout = 500\n' + k.config.read_text())
    k.config.chmod(0o444)  # the image: the menu cannot write the file
    assert put(tmp_path, capsys, fleet_dsn, ["--all"], 'language = "zh"\n')[0] == 0
    assert k.sync() == 0
    assert effective(k).language == "zh"  # the centre over the file
    assert effective(k).idle_timeout == 500  # a key the centre does not set: the file's
    # the operator changes the language in the menu afterwards: the menu's is newer
    cfg = effective(k)
    assert overrides.save(cfg, k.data_dir, language="ru").where == "overrides"
    assert k.sync() == 0  # the same centre version: not applied again
    assert effective(k).language == "ru"
    # a new centre version that sets the language: the centre's is newer
    assert put(tmp_path, capsys, fleet_dsn, ["--all"], 'language = "en"\nidle_timeout = 60\n'
               )[0] == 0
    assert k.sync() == 0
    assert (effective(k).language, effective(k).idle_timeout) == ("en", 60)


def test_a_kiosk_reads_only_its_own_settings(make_kiosk, fleet_dsn, pg, tmp_path, capsys):
    make_kiosk("one")
    other = make_kiosk("other")
    assert put(tmp_path, capsys, fleet_dsn, ["--kiosk", "one"], 'idle_timeout = 61\n')[0] == 0
    password = (other.data_dir / "fleet.secret").read_text().strip()
    with psycopg.connect(pg.dsn(other.dbname, other.role, password)) as conn:
        assert conn.execute("SELECT * FROM fleet_my_settings()").fetchall() == []
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("SELECT * FROM settings_versions")
    with psycopg.connect(pg.dsn(other.dbname, other.role, password)) as conn:
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("SELECT * FROM heartbeats")  # others' health is the office's
    with psycopg.connect(pg.dsn(other.dbname, other.role, password)) as conn:
        with pytest.raises(psycopg.errors.InsufficientPrivilege):  # RLS: its own name only
            conn.execute("INSERT INTO heartbeats (kiosk, log_status) VALUES ('one', 'ok')")
