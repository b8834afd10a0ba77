"""Health (issue 27): every sync pass leaves a heartbeat centrally and a .prom file for the
node exporter; `kiosk fleet status` puts the kiosks that need a person first and says so
in its exit status."""

from __future__ import annotations

import re
import shutil
from collections import namedtuple

import psycopg
import pytest
from prometheus_client.parser import text_string_to_metric_families

from kiosk.commands.cli import main
from kiosk.fleet import heartbeat, metrics

Usage = namedtuple("Usage", "total used free")


@pytest.fixture
def unit(monkeypatch):
    """The kiosk unit's systemd figures, as `systemctl show` would give them."""
    props = {"NRestarts": "0", "MemoryCurrent": str(180 * 1024 * 1024)}
    monkeypatch.setattr(heartbeat, "unit_properties", lambda unit=None: dict(props))
    return props


def beats(dsn: str, kiosk: str) -> list[dict]:
    with psycopg.connect(dsn) as conn:
        cur = conn.execute("SELECT * FROM heartbeats WHERE kiosk = %s ORDER BY id", (kiosk,))
        names = [c.name for c in cur.description]
        return [dict(zip(names, r, strict=True)) for r in cur.fetchall()]


def test_each_pass_records_a_heartbeat_with_the_figures(make_kiosk, fleet_dsn, unit):
    k = make_kiosk("lobby_a")
    k.play(3)
    unit["NRestarts"] = "2"
    (k.data_dir / heartbeat.WATCHDOG_NAME).write_text(
        f"{heartbeat.boot_id()} watchdog\nan-old-boot watchdog\n")
    assert k.sync() == 0
    assert k.sync() == 0  # nothing to send: still a heartbeat
    rows = beats(fleet_dsn, "lobby_a")
    assert len(rows) == 2
    first, second = rows
    usage = shutil.disk_usage(k.data_dir)
    assert first["app_version"] and first["boot_id"] == heartbeat.boot_id()
    assert first["uptime"] > 0
    assert first["last_play"] and first["last_play"].startswith("20")
    assert abs(first["data_free"] - usage.free) < 200 * 1024 * 1024
    assert first["data_size"] == usage.total
    assert first["memory"] == 180 * 1024 * 1024
    assert (first["restarts"], first["watchdog_kills"]) == (2, 1)  # this boot's kill only
    assert first["waiting"] == 3  # the three plays, at the pass's start
    assert second["waiting"] == 0 and second["last_sync_ok"]
    assert first["log_status"] == "ok" and first["config_problems"] is None


def test_the_textfile_metrics_parse_as_prometheus_text(make_kiosk, unit):
    k = make_kiosk("lobby_m")
    k.play(2)
    assert k.sync() == 0
    text = (k.data_dir / "metrics" / metrics.FILE_NAME).read_text()
    families = {f.name: f for f in text_string_to_metric_families(text)}
    samples = {s.name: s for f in families.values() for s in f.samples}
    assert samples["solitaire_kiosk_data_free_bytes"].labels == {"kiosk": "lobby_m"}
    assert samples["solitaire_kiosk_data_free_bytes"].value > 0
    assert samples["solitaire_kiosk_memory_bytes"].value == 180 * 1024 * 1024
    assert samples["solitaire_kiosk_restarts_total"].value == 0
    assert families["solitaire_kiosk_restarts"].type == "counter"
    assert samples["solitaire_kiosk_sync_waiting_rows"].value == 0
    assert samples["solitaire_kiosk_sync_failing"].value == 0
    assert samples["solitaire_kiosk_info"].labels["kiosk"] == "lobby_m"
    assert not list(k.data_dir.joinpath("metrics").glob(".*"))  # no temporary file left


def test_the_metrics_say_so_when_the_centre_cannot_be_reached(make_kiosk, unit, pg):
    k = make_kiosk("lobby_off", port=1)  # nothing listens there
    k.fleet["server"] = "127.0.0.1"
    k.fleet["sslmode"] = "disable"
    k.write_config()
    k.play(1)
    assert k.sync() == 1
    text = (k.data_dir / "metrics" / metrics.FILE_NAME).read_text()
    samples = {s.name: s.value for f in text_string_to_metric_families(text)
               for s in f.samples}
    assert samples["solitaire_kiosk_sync_failing"] == 1
    assert samples["solitaire_kiosk_sync_waiting_rows"] == 1


def test_where_the_metrics_go(tmp_path, monkeypatch):
    monkeypatch.delenv("RUNTIME_DIRECTORY", raising=False)
    assert metrics.directory_for(None, tmp_path) == tmp_path / "metrics"  # never /run here
    monkeypatch.setenv("RUNTIME_DIRECTORY", "/run/solitaire-kiosk-metrics")  # the unit
    assert metrics.directory_for(None, tmp_path) == metrics.RUNTIME_DIR
    assert metrics.directory_for(tmp_path / "x", tmp_path) == tmp_path / "x"


def test_label_values_with_quotes_and_newlines_are_escaped():
    beat = heartbeat.Heartbeat(
        sent="2026-01-01T00:00:00Z", clock_synced=1, app_version='1.0 "x"\\y\nz',
        boot_id="b", uptime=1.0, last_play=None, data_free=1, data_size=2, memory=None,
        restarts=None, watchdog_kills=0, config_problems="a\nb", settings_version=None,
        settings_rejected=None, settings_error=None, log_status="ok", waiting=0,
        last_sync_ok=None, last_sync_error=None)
    families = list(text_string_to_metric_families(metrics.render(beat, "k")))
    info = [s for f in families for s in f.samples if s.name == "solitaire_kiosk_info"][0]
    assert info.labels["version"] == '1.0 "x"\\y\nz'
    problems = [s for f in families for s in f.samples
                if s.name == "solitaire_kiosk_config_problems"][0]
    assert problems.value == 2


def _status(capsys, dsn: str, *extra: str) -> tuple[int, str]:
    code = main(["fleet", "status", "--dsn", dsn, *extra])
    return code, capsys.readouterr().out


def test_status_flags_silent_restarted_full_and_rejected_kiosks(make_kiosk, fleet_dsn, unit,
                                                                monkeypatch, capsys):
    fine, silent, restarted, full, rejecting = (make_kiosk(n) for n in (
        "fine", "silent", "restarted", "full", "rejecting"))
    for k in (fine, silent, restarted, full, rejecting):
        k.play(1)
        assert k.sync() == 0
    code, out = _status(capsys, fleet_dsn)
    assert code == 0, out
    assert "NEEDS A PERSON" not in out and "FINE (5 of 5 kiosks)" in out

    # silent: its last heartbeat is older than three sync intervals
    with psycopg.connect(fleet_dsn) as conn:
        conn.execute("UPDATE heartbeats SET received = now() - interval '25 minutes'"
                     " WHERE kiosk = 'silent'")
    # restarted: systemd restarted the kiosk twice and the watchdog killed it once
    unit["NRestarts"] = "2"
    (restarted.data_dir / heartbeat.WATCHDOG_NAME).write_text(
        f"{heartbeat.boot_id()} watchdog\n")
    assert restarted.sync() == 0
    unit["NRestarts"] = "0"
    # full: 60 MB free on a 4 GB data partition
    real = shutil.disk_usage
    monkeypatch.setattr(heartbeat.shutil, "disk_usage", lambda p: Usage(
        4 << 30, (4 << 30) - (60 << 20), 60 << 20) if str(p) == str(full.data_dir)
        else real(p))
    assert full.sync() == 0
    # rejecting: a version its software cannot take (a game it does not know)
    with psycopg.connect(fleet_dsn) as conn:
        conn.execute("INSERT INTO settings_versions (scope, target, settings) VALUES"
                     " ('kiosk', 'rejecting', '[games]\nenabled = [\"klondike\", \"mahjong\"]\n')")
    assert rejecting.sync() == 0

    code, out = _status(capsys, fleet_dsn)
    assert code == 1, out
    head, _, tail = out.partition("FINE (1 of 5 kiosks)")
    assert "NEEDS A PERSON (4 of 5 kiosks)" in head
    assert "fine:" in tail and "fine:" not in head
    block = {name: re.split(r"\n  (?=\S)", head.split(f"  {name}:")[1])[0]
             if f"  {name}:" in head else "" for name in ("silent", "restarted", "full",
                                                          "rejecting")}
    assert "silent for 25 min" in head
    assert "restarted by systemd 2 times since the last look" in block["restarted"]
    assert "killed by the watchdog 1 time since the last look" in block["restarted"]
    assert "card nearly full (60 MB free" in block["full"]
    assert "rejected the centre's settings version" in block["rejecting"]
    assert "mahjong" in block["rejecting"]

    # the restart was seen: the next look no longer reports it (the others stay)
    code, out = _status(capsys, fleet_dsn)
    assert code == 1
    assert "restarted:" in out.split("FINE")[1] and "restarted by systemd" not in out
    assert "NEEDS A PERSON (3 of 5 kiosks)" in out


def test_peek_does_not_forget_a_restart(make_kiosk, fleet_dsn, unit, capsys):
    k = make_kiosk("peeked")
    k.play(1)
    unit["NRestarts"] = "1"
    assert k.sync() == 0
    for _ in range(2):
        code, out = _status(capsys, fleet_dsn, "--peek")
        assert code == 1 and "restarted by systemd 1 time" in out
    assert _status(capsys, fleet_dsn)[0] == 1
    assert _status(capsys, fleet_dsn)[0] == 0


def test_a_backlog_that_grows_while_passes_fail(make_kiosk, fleet_dsn, unit, capsys):
    k = make_kiosk("stuck")
    k.play(1)
    assert k.sync() == 0
    assert _status(capsys, fleet_dsn)[0] == 0
    # the heartbeat arrives, but the central plays table refuses this kiosk's rows
    with psycopg.connect(fleet_dsn) as conn:
        conn.execute("ALTER TABLE plays ADD CONSTRAINT no_stuck CHECK (kiosk <> 'stuck')"
                     " NOT VALID")
    for _ in range(3):
        k.play(1)
        assert k.sync() == 1
    code, out = _status(capsys, fleet_dsn)
    assert code == 1 and "backlog growing (1 -> 2 -> 3 rows waiting" in out, out


def test_configuration_problems_are_reported(make_kiosk, fleet_dsn, unit, capsys):
    k = make_kiosk("typo")
    k.config.write_text("idle_timout = 60\n" + k.config.read_text())
    (k.data_dir / "overrides.toml").write_text('based_on = "none"\nlanguage = "fr"\n')
    assert k.sync() == 0
    problems = beats(fleet_dsn, "typo")[-1]["config_problems"].splitlines()
    assert len(problems) == 2
    assert "idle_timout: unknown key" in problems[0] and "language" in problems[1]
    assert (k.data_dir / "overrides.toml").exists()  # looked at, not moved
    code, out = _status(capsys, fleet_dsn)
    assert code == 1 and "configuration: " in out and "(and 1 more)" in out


def test_a_kiosk_never_heard_from_needs_a_person(fleet_dsn, capsys, tmp_path):
    assert main(["fleet", "add-kiosk", "new_one", "--dsn", fleet_dsn,
                 "--secret-out", str(tmp_path / "new_one.secret")]) == 0
    capsys.readouterr()
    code, out = _status(capsys, fleet_dsn)
    assert code == 1 and "new_one: never heard from" in out and "no heartbeat yet" in out


def test_status_bad_input_is_status_2(fleet_dsn, capsys, tmp_path):
    assert main(["fleet", "status", "--dsn", "host='unclosed"]) == 2
    assert main(["fleet", "status", "--dsn", fleet_dsn, "--interval", "0"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 2 and "--interval" in err
    assert main(["fleet", "status", "--dsn", f"host={tmp_path} port=5 dbname=x user=y "
                 "connect_timeout=2"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot connect" in err


def test_the_office_reporting_role_can_look_and_report(make_kiosk, fleet_dsn, pg, unit,
                                                       capsys, tmp_path):
    """docs/fleet.md: the office connects as a member of fleet_report, not as the owner."""
    k = make_kiosk("seen")
    k.play(2)
    assert k.sync() == 0
    with psycopg.connect(fleet_dsn, autocommit=True) as conn:
        conn.execute("DROP ROLE IF EXISTS office_look")
        conn.execute("CREATE ROLE office_look LOGIN PASSWORD 'look' IN ROLE fleet_report")
        conn.execute(f"GRANT CONNECT ON DATABASE {k.dbname} TO office_look")
    office = pg.dsn(k.dbname, "office_look", "look")
    code, out = _status(capsys, office)
    assert code == 0 and "seen: last heartbeat" in out, out
    assert main(["fleet", "settings", "show", "--dsn", office]) == 0
    assert "seen: should have none" in capsys.readouterr().out
    assert main(["fleet", "report", "--dsn", office, "--since", "2000-01-01",
                 "--out", str(tmp_path / "r.html")]) == 0
    page = (tmp_path / "r.html").read_text()
    assert "every kiosk (1 kiosk)" in page and "Every kiosk is fine (1 kiosk:" in page
