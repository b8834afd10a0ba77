"""A kiosk's life in the fleet (issue 32): names as hosts are named, a new password, a new
name, retirement, a play log replaced on the kiosk, and a central database of the schema
before issue 32 migrated with its rows, all as the non-superuser owner the docs set up."""

from __future__ import annotations

import json
import threading

import psycopg
import pytest

from kiosk.commands.cli import main
from kiosk.fleet import central, state

from .conftest import Kiosk, _db_numbers, as_role, assert_central_matches, central_rows


def _added_role(out: str) -> str:
    return [line.split('"')[1] for line in out.splitlines() if line.startswith("user = ")][0]


def test_names_are_host_names_and_reserved_ones_are_refused(owner_dsn, tmp_path, capsys):
    assert main(["fleet", "add-kiosk", "lobby-1", "--dsn", owner_dsn,
                 "--secret-out", str(tmp_path / "s")]) == 0
    assert "# config.toml of kiosk lobby-1 (a new kiosk)" in capsys.readouterr().out
    with pytest.raises(central.FleetError):
        central.check_name("-lobby")  # (argparse would read it as an option)
    for bad in ("kiosk", "fleet_kiosk", "fleet-x", "pg_signal", "public",
                "lobby-", "lobby 1", "a" * 41, "lobby.1", "ÿ"):
        assert main(["fleet", "add-kiosk", bad, "--dsn", owner_dsn]) == 2, bad
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and ("reserved" in err or "as hosts are named" in err), err
    with psycopg.connect(owner_dsn) as conn:
        assert [r[0] for r in conn.execute("SELECT name FROM kiosks")] == ["lobby-1"]


def test_rename_keeps_the_rows_and_the_kiosk_keeps_its_config(make_kiosk, fleet_dsn, capsys):
    a, b = make_kiosk("lobby-1"), make_kiosk("cafe-2")
    a.play(4)
    a.log.event("pin_wrong", {"digits": 4})
    b.play(2)
    assert a.sync() == 0 and b.sync() == 0
    assert main(["fleet", "group", "lobby-1", "hotels", "--dsn", fleet_dsn]) == 0
    assert main(["fleet", "rename", "lobby-1", "bar-3", "--dsn", fleet_dsn]) == 0
    assert "is now bar-3" in capsys.readouterr().out
    a.name = "bar-3"  # as the centre now calls it; nothing changed on the kiosk
    a.play(2)
    assert a.sync() == 0
    assert_central_matches(fleet_dsn, [a, b])
    with psycopg.connect(fleet_dsn) as conn:
        assert conn.execute("SELECT grp, renamed_from FROM kiosks WHERE name = 'bar-3'"
                            ).fetchone() == ("hotels", "lobby-1")
        assert conn.execute("SELECT count(*) FROM heartbeats WHERE kiosk = 'bar-3'"
                            ).fetchone()[0] == 2
    assert main(["fleet", "rename", "cafe-2", "bar-3", "--dsn", fleet_dsn]) == 2
    assert "already" in capsys.readouterr().err
    assert main(["fleet", "rename", "nobody", "x-1", "--dsn", fleet_dsn]) == 2


def test_retire_rotate_rename_as_the_owner(pg, owner_dsn, tmp_path, capsys):
    """The documented owner (CREATEROLE, no superuser) does the whole life cycle; a
    retired kiosk leaves `fleet status` (which then exits 0) and its rows stay."""
    made = {}
    for name in ("lobby-1", "lobby-2"):
        assert main(["fleet", "add-kiosk", name, "--dsn", owner_dsn,
                     "--secret-out", str(tmp_path / name)]) == 0
        made[name] = (_added_role(capsys.readouterr().out),
                      (tmp_path / name).read_text().strip())
    for name, (role, password) in made.items():
        with as_role(pg, owner_dsn, role, password) as conn:
            conn.execute("SELECT fleet_heartbeat('{\"log_status\": \"ok\"}')")
            conn.execute("INSERT INTO plays (kiosk, id, game, started, result) VALUES"
                         " (%s, 1, 'golf', '2026-01-01T00:00:00Z', 'won')", (name,))
    assert main(["fleet", "status", "--dsn", owner_dsn]) == 0
    # a session of lobby-2 is open while it is retired: it is ended
    role2, password2 = made["lobby-2"]
    open_session = as_role(pg, owner_dsn, role2, password2)
    assert main(["fleet", "retire", "lobby-2", "--dsn", owner_dsn]) == 0
    assert "its rows stay" in capsys.readouterr().out
    with pytest.raises(psycopg.OperationalError):
        open_session.execute("SELECT 1")
    with pytest.raises(psycopg.OperationalError, match="password authentication failed"):
        as_role(pg, owner_dsn, role2, password2).close()
    with pg.admin() as conn:
        assert conn.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (role2,)
                            ).fetchone() is None
    code = main(["fleet", "status", "--dsn", owner_dsn])
    out = capsys.readouterr().out
    assert code == 0 and "lobby-2" not in out and "FINE (1 of 1 kiosks)" in out
    with psycopg.connect(owner_dsn) as conn:
        assert conn.execute("SELECT count(*) FROM plays WHERE kiosk = 'lobby-2'"
                            ).fetchone()[0] == 1
    assert main(["fleet", "retire", "lobby-2", "--dsn", owner_dsn]) == 2  # already
    capsys.readouterr()
    # a retired name may be renamed out of the way, and brought back
    assert main(["fleet", "rename", "lobby-2", "lobby-2-old", "--dsn", owner_dsn]) == 0
    assert main(["fleet", "add-kiosk", "lobby-2-old", "--dsn", owner_dsn,
                 "--secret-out", str(tmp_path / "back")]) == 0
    out = capsys.readouterr().out
    assert "it is back with a new role and password" in out
    role_back = _added_role(out)
    with as_role(pg, owner_dsn, role_back, (tmp_path / "back").read_text().strip()) as conn:
        assert conn.execute("SELECT fleet_kiosk_name()").fetchone()[0] == "lobby-2-old"
        assert {r[0] for r in conn.execute("SELECT kiosk FROM plays")} == {"lobby-2-old"}


def test_a_retired_kiosk_is_told_what_happened(make_kiosk, fleet_dsn, capsys):
    a = make_kiosk("gone-1")
    a.play(1)
    assert a.sync() == 0
    assert main(["fleet", "retire", "gone-1", "--dsn", fleet_dsn]) == 0
    capsys.readouterr()
    a.play(1)
    assert a.sync() == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "retired it (`kiosk fleet retire`)" in err
    assert state.load_status(a.data_dir).last_error_kind == "auth"


def test_a_revoked_kiosk_is_told_what_to_do(make_kiosk, fleet_dsn, capsys):
    a = make_kiosk("revoked")
    a.play(1)
    with psycopg.connect(fleet_dsn, autocommit=True) as conn:
        conn.execute(f'ALTER ROLE "{a.role}" NOLOGIN')
    assert a.sync() == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "revoked this kiosk's access" in err
    assert "kiosk fleet add-kiosk" in err
    assert state.load_status(a.data_dir).last_error_kind == "retired"


def test_a_replaced_play_log_never_meets_the_old_rows(make_kiosk, fleet_dsn, capsys):
    """The kiosk sets its damaged log aside and starts a new one, whose ids start again at
    1: before, its plays overwrote the old ones centrally (or were never sent, the cursor
    being past them)."""
    a = make_kiosk("replaced")
    a.play(5, moves=3)
    a.log.event("pin_wrong", {"digits": 4})
    assert a.sync() == 0
    before = [r for r in central_rows(fleet_dsn)["plays"] if r[0] == "replaced"]
    a.log.close()
    a.db_path.rename(a.data_dir / "plays.db.corrupt-test")
    for suffix in ("-wal", "-shm"):
        (a.data_dir / f"plays.db{suffix}").unlink(missing_ok=True)
    a.log = None
    a.seq = 100
    a.play(3, moves=2)  # ids 1 to 3 again
    a.log.event("pin_wrong", {"digits": 5})
    assert [p.id for p in a.play(0)] == []
    assert a.sync() == 0
    assert "sent 3 plays, 6 moves, 1 events" in capsys.readouterr().out
    rows = central_rows(fleet_dsn)
    mine = sorted(r for r in rows["plays"] if r[0] == "replaced")
    assert [r for r in mine if r[1] < central.LOG_STRIDE] == sorted(before)  # untouched
    assert [r[1] for r in mine if r[1] > central.LOG_STRIDE] == [
        central.LOG_STRIDE + i for i in (1, 2, 3)]
    assert sorted(r[1] for r in rows["events"] if r[0] == "replaced") == [
        1, central.LOG_STRIDE + 1]
    with psycopg.connect(fleet_dsn) as conn:
        assert conn.execute("SELECT ordinal FROM logs WHERE kiosk = 'replaced' ORDER BY 1"
                            ).fetchall() == [(0,), (1,)]
    cursor = json.loads((a.data_dir / state.CURSOR_NAME).read_text())
    assert cursor["play_id"] == 3 and cursor["log_id"]
    assert a.sync() == 0  # and again: nothing doubled
    assert len([r for r in central_rows(fleet_dsn)["plays"] if r[0] == "replaced"]) == 8


def test_a_lost_cursor_costs_a_resend_not_a_double(make_kiosk, fleet_dsn):
    a = make_kiosk("lost")
    a.play(4)
    assert a.sync() == 0
    (a.data_dir / state.CURSOR_NAME).unlink()
    assert a.sync() == 0
    assert_central_matches(fleet_dsn, [a])


def _old_database(pg, name: str) -> str:
    """A central database made by the migrations before issue 32 (0001 to 0004)."""
    dsn = pg.create_database(name)
    with psycopg.connect(dsn, autocommit=True) as conn:
        for m in central.migrations()[:4]:
            with conn.transaction():
                conn.execute(m.sql)
                conn.execute("INSERT INTO fleet_schema_version (version) VALUES (%s)",
                             (m.version,))
    return dsn


def test_a_database_of_the_old_schema_migrates_with_its_rows(pg, tmp_path, monkeypatch,
                                                              capsys):
    """An office's database of issue 27 (schema 4) with a kiosk's rows: `fleet init`
    migrates it, keeps every row, is not held back by that kiosk holding the advisory lock
    and a transaction open, and the kiosk goes on from its old cursor."""
    n = next(_db_numbers)
    dsn = _old_database(pg, f"old{n}")
    role = f"kiosk_old{n}"  # the role naming of issue 26
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(f"CREATE ROLE {role} LOGIN PASSWORD 'old-pw' IN ROLE fleet_kiosk "
                     "CONNECTION LIMIT 3")
        conn.execute(f"GRANT CONNECT ON DATABASE old{n} TO {role}")
        conn.execute("INSERT INTO kiosks (name, role) VALUES (%s, %s)", (f"old{n}", role))
    k = Kiosk.__new__(Kiosk)
    k.pg, k.dsn, k.name, k.role, k.dbname = pg, dsn, f"old{n}", role, f"old{n}"
    k.data_dir = tmp_path / k.name
    k.data_dir.mkdir()
    k.db_path, k.config, k.log, k.seq = k.data_dir / "plays.db", k.data_dir / "config.toml", \
        None, 0
    (k.data_dir / "fleet.secret").write_text("old-pw\n")
    (k.data_dir / "fleet.secret").chmod(0o600)
    k.fleet = {"server": str(pg.socket_dir), "port": pg.port, "database": k.dbname,
               "user": role, "batch_plays": 50, "connect_timeout": 5}
    k.write_config()
    k.play(6, moves=3)
    k.log.event("pin_wrong", {"digits": 4})
    # what the sync of issue 26 left: every row central, its cursor without a log identity
    from kiosk.records.playlog import open_readonly

    from .conftest import CENTRAL_COLUMNS, LOCAL_QUERIES

    local = open_readonly(k.db_path)
    with psycopg.connect(dsn, autocommit=True) as conn:
        for table in ("plays", "moves", "events"):
            cols = CENTRAL_COLUMNS[table]
            rows = [(k.name, *r) for r in local.execute(LOCAL_QUERIES[table])]
            with conn.cursor().copy(f"COPY {table} (kiosk, {', '.join(cols)}) FROM STDIN") as cp:
                for r in rows:
                    cp.write_row(r)
        conn.execute("INSERT INTO heartbeats (kiosk, log_status) VALUES (%s, 'ok')", (k.name,))
    local.close()
    (k.data_dir / state.CURSOR_NAME).write_text('{"play_id": 6, "event_id": 1, "open": {}}')
    before = central_rows(dsn)
    # the old kiosk's session holds what held `fleet init` back before
    blocker = psycopg.connect(pg.dsn(k.dbname, role, "old-pw"))
    blocker.execute("SELECT pg_advisory_lock(2026026)")
    blocker.execute("INSERT INTO plays (kiosk, id, game, started) VALUES (%s, 999, 'golf', 'x')",
                    (k.name,))
    monkeypatch.setattr(central, "INIT_LOCK_WAIT", "1s")
    done: list[int] = []
    t = threading.Thread(target=lambda: done.append(main(["fleet", "init", "--dsn", dsn])))
    t.start()
    t.join(timeout=120)
    assert done == [0], capsys.readouterr().err
    assert "migrated from version 4 to" in capsys.readouterr().out
    with pytest.raises(psycopg.OperationalError):
        blocker.execute("SELECT 1")  # its session was ended; its open row never landed
    assert central_rows(dsn) == before
    # the kiosk of issue 26 goes on with its old role and cursor: ids unchanged (log 0)
    k.play(3, moves=2)
    assert k.sync() == 0
    assert_central_matches(dsn, [k])
    with psycopg.connect(pg.dsn(k.dbname, role, "old-pw")) as conn:
        assert conn.execute("SHOW statement_timeout").fetchone()[0] == "1min"
    with psycopg.connect(dsn) as conn:
        assert conn.execute("SELECT has_database_privilege(%s, current_database(), "
                            "'CONNECT WITH GRANT OPTION')", (role,)).fetchone()[0] is False
        assert conn.execute("SELECT ordinal FROM logs").fetchall() == [(0,)]


def test_two_inits_at_once_on_an_empty_database(pg, capsys):
    dsn = pg.create_database(f"twice{next(_db_numbers)}")
    codes: list[int] = []
    threads = [threading.Thread(target=lambda: codes.append(main(["fleet", "init", "--dsn",
                                                                   dsn]))) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert codes == [0, 0], capsys.readouterr().err
    with psycopg.connect(dsn) as conn:
        assert conn.execute("SELECT count(*) FROM fleet_schema_version").fetchone()[0] == \
            len(central.migrations())
