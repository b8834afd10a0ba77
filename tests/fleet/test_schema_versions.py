"""Issue 32: the report's migration (0010) is the office's alone: a kiosk syncs with a
server that has it and one that has not; a server with a migration the kiosk does not
know is refused only when that migration concerns kiosks; numbers may leave gaps, and a
missing lower migration is still applied."""

from __future__ import annotations

import psycopg
import pytest

from kiosk.commands.cli import main
from kiosk.fleet import central, heartbeat

from .conftest import assert_central_matches


@pytest.fixture(autouse=True)
def _unit(monkeypatch):
    monkeypatch.setattr(heartbeat, "unit_properties", lambda unit=None: {})


def test_the_report_migration_does_not_concern_kiosks():
    by_version = {m.version: m for m in central.migrations()}
    assert by_version[10].kiosks is False
    assert all(m.kiosks for v, m in by_version.items() if v < 10)
    assert 10 not in central.KIOSK_VERSIONS and central.SCHEMA_VERSION >= 10


def test_a_kiosk_syncs_with_and_without_the_office_s_migrations(make_kiosk, fleet_dsn, capsys):
    k = make_kiosk("lobby_1")
    k.play(2)
    with psycopg.connect(fleet_dsn, autocommit=True) as conn:
        assert central.applied(conn)[10] is False
        # an office without 0010 (an older office software): the kiosk does not need it
        conn.execute("DELETE FROM fleet_schema_version WHERE version = 10")
    assert k.sync() == 0
    # a newer office's migration the kiosk does not know, marked as not concerning kiosks
    with psycopg.connect(fleet_dsn, autocommit=True) as conn:
        conn.execute("INSERT INTO fleet_schema_version (version, kiosks) VALUES (98, false)")
    k.play(1)
    assert k.sync() == 0
    assert_central_matches(fleet_dsn, [k])
    # this office software refuses to touch a schema newer than it knows
    assert main(["fleet", "init", "--dsn", fleet_dsn]) == 1
    assert "schema version 98, newer than this software" in capsys.readouterr().err
    # one that concerns kiosks: refused, as before
    with psycopg.connect(fleet_dsn, autocommit=True) as conn:
        conn.execute("INSERT INTO fleet_schema_version (version, kiosks) VALUES (99, true)")
    assert k.sync() == 1
    assert "schema version 99" in capsys.readouterr().err


def test_a_missing_lower_migration_is_applied(fleet_dsn, monkeypatch):
    """Another branch's migration numbered below the highest applied one still runs."""
    real = central.migrations()
    gap = central.Migration(9, "gap_test", "CREATE TABLE gap_test (x integer);")
    monkeypatch.setattr(central, "migrations", lambda: sorted([*real, gap],
                                                             key=lambda m: m.version))
    assert 9 not in [m.version for m in real]
    with psycopg.connect(fleet_dsn) as conn:
        before, after = central.migrate(conn)
        assert (before, after) == (central.SCHEMA_VERSION, central.SCHEMA_VERSION)
        assert central.applied(conn)[9] is True
        assert conn.execute("SELECT to_regclass('gap_test') IS NOT NULL").fetchone()[0]
