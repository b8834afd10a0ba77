"""Least privilege (issue 32): a kiosk's stolen credentials reach its own rows and nothing
else. Each test is an attack from the issue, run with a kiosk's real role against the real
server: it worked before issue 32 and must fail now."""

from __future__ import annotations

import psycopg
import pytest

from kiosk.commands.cli import main

from .conftest import as_role, central_rows


def _as_kiosk(k) -> psycopg.Connection:
    password = (k.data_dir / "fleet.secret").read_text().strip()
    return psycopg.connect(k.pg.dsn(k.dbname, k.role, password), autocommit=True)


@pytest.fixture
def two(make_kiosk, fleet_dsn):
    a, b = make_kiosk("alpha"), make_kiosk("beta")
    a.play(3)
    b.play(4)
    assert a.sync() == 0 and b.sync() == 0
    return a, b


def test_a_kiosk_reads_only_its_own_plays_and_nothing_else(two):
    a, _b = two
    with _as_kiosk(a) as conn:
        assert {r[0] for r in conn.execute("SELECT kiosk FROM plays")} == {"alpha"}
        for relation in ("moves", "hands", "matches", "events", "heartbeats", "kiosks",
                         "plays_per_day", "game_results", "computer_matches", "logs"):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                conn.execute(f"SELECT * FROM {relation}")


def test_a_kiosk_cannot_update_or_insert_other_kiosks_rows(two, fleet_dsn):
    a, _b = two
    before = central_rows(fleet_dsn)
    with _as_kiosk(a) as conn:
        assert conn.execute("UPDATE plays SET result = 'won' WHERE kiosk = 'beta'"
                            ).rowcount == 0
        with pytest.raises(psycopg.errors.InsufficientPrivilege):  # row-level security
            conn.execute("INSERT INTO plays (kiosk, id, game, started) VALUES "
                         "('beta', 999, 'klondike', 'x')")
        with pytest.raises(psycopg.errors.InsufficientPrivilege):  # moving its row away
            conn.execute("UPDATE plays SET result = 'won', kiosk = 'beta' "
                         "WHERE kiosk = 'alpha'")
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("INSERT INTO plays (kiosk, id, game, started) VALUES "
                         "('beta', 5, 'klondike', 'x') ON CONFLICT (kiosk, id) DO UPDATE "
                         "SET result = 'won'")
    assert central_rows(fleet_dsn) == before


def test_a_kiosk_updates_only_what_changes_when_a_play_ends(two, fleet_dsn):
    """Its own rows too: a play's game, deal and start, its moves, hands, matches and
    events never change once sent."""
    a, _b = two
    before = central_rows(fleet_dsn)
    with _as_kiosk(a) as conn:
        for statement in ("UPDATE plays SET game = 'golf' WHERE kiosk = 'alpha'",
                          "UPDATE plays SET started = '1999-01-01' WHERE kiosk = 'alpha'",
                          "UPDATE moves SET move = 'x' WHERE kiosk = 'alpha'",
                          "UPDATE events SET kind = 'x' WHERE kiosk = 'alpha'",
                          "UPDATE hands SET winner = 'x'", "UPDATE matches SET winner = 'x'"):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                conn.execute(statement)
    assert central_rows(fleet_dsn) == before


def test_a_kiosk_deletes_nothing_not_even_its_own(two, fleet_dsn):
    a, _b = two
    before = central_rows(fleet_dsn)
    with _as_kiosk(a) as conn:
        for table in ("plays", "moves", "events", "kiosks", "fleet_schema_version",
                      "heartbeats"):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                conn.execute(f"DELETE FROM {table}")
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("TRUNCATE plays")
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("ALTER TABLE plays DISABLE ROW LEVEL SECURITY")
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("CREATE TABLE public.mine (x int)")
    assert central_rows(fleet_dsn) == before


def test_heartbeat_ids_and_times_are_the_servers(two, fleet_dsn):
    """The issue's attack: taking the next heartbeat ids made every other kiosk's pass fail
    on the primary key, and `received = 2099` kept a silent kiosk listed as fine."""
    a, b = two
    with _as_kiosk(a) as conn:
        try:
            conn.execute(
                "WITH s AS (SELECT nextval('heartbeats_id_seq') AS v) INSERT INTO heartbeats"
                " (id, kiosk, received) SELECT v + g, 'alpha', '2099-01-01'"
                " FROM s, generate_series(1, 50) g")
        except psycopg.errors.InsufficientPrivilege:
            pass
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("SELECT setval('heartbeats_id_seq', 1)")
    b.play(1)
    assert b.sync() == 0  # the other kiosk's pass goes through
    with psycopg.connect(fleet_dsn) as conn:
        assert conn.execute("SELECT count(*) FROM heartbeats WHERE received > now()"
                            ).fetchone()[0] == 0
    with _as_kiosk(a) as conn:
        # what a kiosk may do: send its figures; the server picks id, time and kiosk
        beat = conn.execute("SELECT fleet_heartbeat(%s::jsonb)", (
            '{"id": 1, "received": "2099-01-01T00:00:00Z", "kiosk": "beta",'
            ' "log_status": "ok"}',)).fetchone()[0]
    with psycopg.connect(fleet_dsn) as conn:
        row = conn.execute("SELECT kiosk, id, received > now() - interval '1 minute'"
                           " FROM heartbeats WHERE id = %s", (beat,)).fetchone()
    assert row == ("alpha", beat, True) and beat != 1


def test_a_kiosk_cannot_lock_what_others_need(two):
    """UPDATE on a whole table let a kiosk LOCK it in any mode and stop every other kiosk;
    an advisory lock stopped `fleet init`."""
    a, b = two
    with _as_kiosk(a) as conn:
        for table, mode in (("plays", "ACCESS EXCLUSIVE"), ("plays", "SHARE"),
                            ("moves", "EXCLUSIVE"), ("fleet_schema_version", "SHARE ROW EXCLUSIVE"),
                            ("kiosks", "ACCESS SHARE")):
            with pytest.raises(psycopg.errors.InsufficientPrivilege), conn.transaction():
                conn.execute(f"LOCK TABLE {table} IN {mode} MODE")
        # what it can hold: an open transaction with its own new play, an advisory lock
        # (`fleet init` no longer takes one), a read of the schema's version
        conn.autocommit = False
        conn.execute("SELECT pg_advisory_lock(2026026)")
        conn.execute("SELECT version FROM fleet_schema_version")
        conn.execute("INSERT INTO plays (kiosk, id, game, started) VALUES "
                     "('alpha', 77777, 'golf', 'x')")
        b.play(2)
        assert b.sync() == 0  # not held back
        conn.rollback()


def test_kiosk_roles_run_with_timeouts_and_a_connection_limit(two):
    a, _b = two
    with _as_kiosk(a) as conn:
        assert conn.execute("SHOW statement_timeout").fetchone()[0] == "1min"
        assert conn.execute("SHOW idle_in_transaction_session_timeout").fetchone()[0] == "2min"
        assert conn.execute("SELECT rolconnlimit FROM pg_roles WHERE rolname = current_user"
                            ).fetchone()[0] == 3


def test_pg_roles_names_no_kiosk(two):
    """PostgreSQL shows every role's name to every role (pg_roles): the roles of kiosks
    are random, so the list says how many kiosks there are, not which."""
    a, _b = two
    with _as_kiosk(a) as conn:
        names = [r[0] for r in conn.execute("SELECT rolname FROM pg_roles")]
    assert not [n for n in names if "alpha" in n or "beta" in n], names


def test_the_group_role_sees_no_kiosk_named_kiosk(two, fleet_dsn):
    """A kiosk named `kiosk` shared its rows with anyone who could `SET ROLE fleet_kiosk`
    (every kiosk): the name is refused now, and rows are keyed by the login role, which SET
    ROLE does not change."""
    a, _b = two
    with psycopg.connect(fleet_dsn, autocommit=True) as conn:  # one from an older version
        conn.execute("INSERT INTO kiosks (name, role) VALUES ('kiosk', 'kiosk_kiosk')")
        conn.execute("INSERT INTO plays (kiosk, id, game, started) VALUES "
                     "('kiosk', 1, 'golf', 'x')")
    with _as_kiosk(a) as conn:
        conn.execute("SET ROLE fleet_kiosk")
        assert {r[0] for r in conn.execute("SELECT kiosk FROM plays")} <= {"alpha"}
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("INSERT INTO plays (kiosk, id, game, started) VALUES "
                         "('kiosk', 2, 'golf', 'x')")
    assert main(["fleet", "add-kiosk", "kiosk", "--dsn", fleet_dsn]) == 2


def test_only_the_fleet_reaches_its_database(two, pg, fleet_dsn, capsys):
    with pg.admin() as conn:
        conn.execute("DROP ROLE IF EXISTS outsider")
        conn.execute("CREATE ROLE outsider LOGIN PASSWORD 'out'")
    try:
        with pytest.raises(psycopg.OperationalError, match="permission denied"):
            psycopg.connect(pg.dsn(two[0].dbname, "outsider", "out")).close()
    finally:
        with pg.admin() as conn:
            conn.execute("DROP ROLE outsider")
    # postgres and template1 are a superuser's: init says so, the docs' REVOKE closes them
    assert main(["fleet", "init", "--dsn", fleet_dsn]) == 0
    err = capsys.readouterr().err
    assert "postgres" in err and "REVOKE CONNECT ON DATABASE" in err
    a = two[0]
    password = (a.data_dir / "fleet.secret").read_text().strip()
    with pg.admin() as conn:
        conn.execute("REVOKE CONNECT ON DATABASE postgres FROM PUBLIC")
    try:
        with pytest.raises(psycopg.OperationalError, match="permission denied"):
            psycopg.connect(pg.dsn("postgres", a.role, password)).close()
    finally:
        with pg.admin() as conn:
            conn.execute("GRANT CONNECT ON DATABASE postgres TO PUBLIC")


def test_a_failed_heartbeat_does_not_stop_the_rows(two, fleet_dsn, capsys):
    a, _b = two
    with psycopg.connect(fleet_dsn, autocommit=True) as conn:
        conn.execute("ALTER TABLE heartbeats ADD CONSTRAINT no_beats CHECK (false) NOT VALID")
    a.play(5)
    assert a.sync() == 0
    captured = capsys.readouterr()
    assert "sent 5 plays" in captured.out
    assert "heartbeat was not recorded" in captured.err and captured.err.count("\n") == 1
    assert len([r for r in central_rows(fleet_dsn)["plays"] if r[0] == "alpha"]) == 8


def test_heartbeats_are_kept_for_a_while(two, fleet_dsn, capsys):
    a, _b = two
    with psycopg.connect(fleet_dsn, autocommit=True) as conn:
        conn.execute("UPDATE heartbeats SET received = now() - interval '20 days'")
    assert a.sync() == 0  # its pass removes its own older than 14 days
    with psycopg.connect(fleet_dsn) as conn:
        left = dict(conn.execute("SELECT kiosk, count(*) FROM heartbeats GROUP BY kiosk"))
    assert left == {"alpha": 1, "beta": 1}  # beta's old one stays until its next pass
    assert main(["fleet", "retention", "--dsn", fleet_dsn]) == 0
    assert "kept 14 days" in capsys.readouterr().out
    with psycopg.connect(fleet_dsn, autocommit=True) as conn:
        conn.execute("UPDATE heartbeats SET received = now() - interval '5 days'")
        conn.execute("SELECT fleet_kiosk_name()")
    a.sync()
    assert main(["fleet", "retention", "--dsn", fleet_dsn, "--heartbeat-days", "3"]) == 0
    with psycopg.connect(fleet_dsn) as conn:
        left = dict(conn.execute("SELECT kiosk, count(*) FROM heartbeats GROUP BY kiosk"))
    assert left == {"alpha": 1, "beta": 1}  # the newest of each stays, the rest went


def test_passwords_reach_the_server_only_as_scram_verifiers(pg, owner_dsn, tmp_path,
                                                             capsys):
    """`CREATE ROLE ... PASSWORD 'the password'` put it in the server's log; the office
    now sends the SCRAM-SHA-256 verifier libpq computes, as psql's \\password does."""
    dbname = psycopg.conninfo.conninfo_to_dict(owner_dsn)["dbname"]
    with pg.admin() as conn:
        conn.execute(f"ALTER DATABASE {dbname} SET log_statement = 'ddl'")
    log = pg.root / "server.log"
    start = log.stat().st_size
    secrets = []
    for _ in range(2):  # a new kiosk, then a new password for it
        assert main(["fleet", "add-kiosk", "lobby9", "--dsn", owner_dsn, "--secret-out",
                     str(tmp_path / "s")]) == 0
        secrets.append((tmp_path / "s").read_text().strip())
    capsys.readouterr()
    text = log.read_bytes()[start:].decode("utf-8", "replace")
    assert "SCRAM-SHA-256$4096:" in text and "PASSWORD" in text
    for secret in secrets:
        assert secret not in text


def test_rotation_as_the_owner_undoes_what_the_kiosk_did_to_its_role(pg, owner_dsn,
                                                                      tmp_path, capsys):
    """A rotation failed for the non-superuser owner ("must be superuser to alter superuser
    roles"); a kiosk that changed its own password and settings must not keep the office
    out."""
    secret = tmp_path / "s"
    assert main(["fleet", "add-kiosk", "lobby1", "--dsn", owner_dsn,
                 "--secret-out", str(secret)]) == 0
    role = [line.split('"')[1] for line in capsys.readouterr().out.splitlines()
            if line.startswith("user = ")][0]
    first = secret.read_text().strip()
    with as_role(pg, owner_dsn, role, first) as conn:
        conn.execute("ALTER ROLE CURRENT_USER PASSWORD 'taken-over'")
        conn.execute("ALTER ROLE CURRENT_USER SET statement_timeout = 0")
    assert main(["fleet", "add-kiosk", "lobby1", "--dsn", owner_dsn,
                 "--secret-out", str(secret)]) == 0, capsys.readouterr().err
    out = capsys.readouterr().out
    assert "a new password; the old one no longer works" in out and f'"{role}"' in out
    second = secret.read_text().strip()
    for old in (first, "taken-over"):
        with pytest.raises(psycopg.OperationalError, match="password authentication failed"):
            as_role(pg, owner_dsn, role, old).close()
    with as_role(pg, owner_dsn, role, second) as conn:
        assert conn.execute("SHOW statement_timeout").fetchone()[0] == "1min"
        assert conn.execute("SELECT fleet_kiosk_name()").fetchone()[0] == "lobby1"
