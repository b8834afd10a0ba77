"""docs/fleet.md, "Setting up the central server from nothing", step by step on a server
of its own: the superuser's few lines, the docs' pg_hba.conf (nothing without TLS), and
then everything as the non-superuser owner, the kiosk and the office over verified TLS."""

from __future__ import annotations

import psycopg
import pytest

from kiosk.commands.cli import main
from kiosk.fleet import central, state

from .conftest import Kiosk
from .pgserver import PgServer

#: the docs' pg_hba.conf, on 127.0.0.1 (this server listens there only); the socket lines
#: stand for the server administrator's `local ... peer`
HBA = """\
local      all              all                          scram-sha-256
hostnossl  all              all            0.0.0.0/0     reject
hostnossl  all              all            ::/0          reject
hostssl    solitaire_fleet  +fleet_kiosk   0.0.0.0/0     scram-sha-256
hostssl    solitaire_fleet  +fleet_kiosk   ::/0          scram-sha-256
hostssl    solitaire_fleet  +fleet_report  127.0.0.1/32  scram-sha-256
hostssl    solitaire_fleet  +fleet_report  ::1/128       scram-sha-256
hostssl    solitaire_fleet  fleet_admin    127.0.0.1/32  scram-sha-256
hostssl    solitaire_fleet  fleet_admin    ::1/128       scram-sha-256
"""


@pytest.fixture(scope="module")
def server():
    pg = PgServer()
    yield pg
    pg.destroy()


def test_setup_from_nothing_as_the_documented_owner(server, tmp_path, capsys):
    pg = server
    ca = pg.certs["ca"]
    # 1. the server's administrator (superuser): the owner, its database, the other
    #    databases closed
    with pg.admin() as conn:
        conn.execute("CREATE ROLE fleet_admin LOGIN CREATEROLE PASSWORD 'admin-pw'")
        conn.execute("CREATE DATABASE solitaire_fleet OWNER fleet_admin")
        conn.execute("REVOKE CONNECT ON DATABASE postgres FROM PUBLIC")
        conn.execute("REVOKE CONNECT ON DATABASE template1 FROM PUBLIC")
    # 2. TLS only, each group from where it is
    pg.set_hba(HBA)
    owner = (f"host=db.fleet.test hostaddr=127.0.0.1 port={pg.port} dbname=solitaire_fleet "
             f"user=fleet_admin password=admin-pw sslrootcert={ca}")
    with pytest.raises(psycopg.OperationalError, match="no encryption"):
        psycopg.connect(owner + " sslmode=disable").close()
    # 3. the schema, verified TLS by default (no sslmode in the DSN)
    assert main(["fleet", "init", "--dsn", owner]) == 0
    captured = capsys.readouterr()
    assert "migrated from version 0" in captured.out
    assert "may still connect" not in captured.err  # step 1 closed postgres, template1
    # 4. a kiosk
    secret = tmp_path / "lobby-1.secret"
    assert main(["fleet", "add-kiosk", "lobby-1", "--dsn", owner, "--server", "127.0.0.1",
                 "--port", str(pg.port), "--secret-out", str(secret)]) == 0
    section = capsys.readouterr().out
    # 5. on the kiosk: the printed section, the secret 0600, the CA
    k = Kiosk.__new__(Kiosk)
    k.pg, k.name, k.dbname, k.log, k.seq = pg, "lobby-1", "solitaire_fleet", None, 0
    k.data_dir = tmp_path / "kiosk"
    k.data_dir.mkdir()
    k.db_path, k.config = k.data_dir / "plays.db", k.data_dir / "config.toml"
    k.config.write_text(f'[log]\ndata_dir = "{k.data_dir}"\n'
                        + section.split("[fleet]", 1)[1].replace(
                            "/etc/solitaire-kiosk/fleet-ca.pem", str(ca)).join(
                            ["[fleet]", ""]))
    (k.data_dir / "fleet.secret").write_bytes(secret.read_bytes())
    (k.data_dir / "fleet.secret").chmod(0o600)
    assert main(["config", "check", str(k.config)]) == 0, capsys.readouterr().out
    k.play(3)
    assert k.sync() == 0
    assert "sent 3 plays" in capsys.readouterr().out
    # a kiosk reaches no other database (pg_hba.conf, and step 1's REVOKE behind it)
    role = [ln.split('"')[1] for ln in section.splitlines() if ln.startswith("user = ")][0]
    password = secret.read_text().strip()
    with pytest.raises(psycopg.OperationalError, match="no pg_hba.conf entry"):
        psycopg.connect(f"host=127.0.0.1 port={pg.port} dbname=postgres user={role} "
                        f"password={password} sslmode=verify-full sslrootcert={ca}").close()
    # 7. the office's reader, its password sent as a verifier (psql's \password)
    with psycopg.connect(owner + " sslmode=verify-full", autocommit=True) as conn:
        conn.execute("CREATE ROLE office LOGIN IN ROLE fleet_report")
        verifier = central.scram_verifier(conn, "office", "office-pw")
        conn.execute(f"ALTER ROLE office PASSWORD '{verifier}'")
    office = (f"host=db.fleet.test hostaddr=127.0.0.1 port={pg.port} dbname=solitaire_fleet "
              f"user=office password=office-pw sslrootcert={ca}")
    assert main(["fleet", "status", "--dsn", office]) == 0
    assert "lobby-1: last heartbeat" in capsys.readouterr().out
    assert state.load_status(k.data_dir).last_error is None
