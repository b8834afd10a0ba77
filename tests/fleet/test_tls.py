"""TLS that cannot be weakened by accident (issue 32): the configuration checker refuses
a [fleet] weaker than verify-full, the office's connections verify the server too, files
others may read are refused, and an impostor server on 127.0.0.1 with a self-signed
certificate gets neither the kiosk's password nor a say over its PIN. An expired or
not-yet-valid certificate is told apart from an impostor: on a Pi it is the clock."""

from __future__ import annotations

import socket
import ssl
import threading

import psycopg
import pytest

from kiosk.commands.cli import main
from kiosk.fleet import state

from .pgserver import PgServer, self_signed, sign_with_dates

WEAK = ("disable", "allow", "prefer", "require", "verify-ca")


def _config(tmp_path, body: str):
    path = tmp_path / "config.toml"
    path.write_text(f'[log]\ndata_dir = "{tmp_path}"\n[fleet]\nserver = "db.example.org"\n'
                    'user = "kiosk_x"\n' + body)
    return path


@pytest.mark.parametrize("mode", WEAK)
def test_config_check_refuses_tls_weaker_than_verify_full(tmp_path, capsys, mode):
    path = _config(tmp_path, f'sslmode = "{mode}"\nsslrootcert = "/etc/ca.pem"\n')
    assert main(["config", "check", str(path)]) == 1
    lines = [ln for ln in capsys.readouterr().out.splitlines() if "fleet.sslmode" in ln]
    assert len(lines) == 1 and f'"{mode}"' in lines[0] and "closed_network" in lines[0]
    from kiosk.settings import config

    assert config.load(path).fleet.sslmode == "verify-full"  # what the sync then uses


def test_a_closed_network_may_opt_out_and_a_socket_needs_no_tls(tmp_path, capsys):
    path = _config(tmp_path, 'sslmode = "require"\nclosed_network = true\n')
    (tmp_path / "fleet.secret").write_text("pw\n")
    (tmp_path / "fleet.secret").chmod(0o600)
    assert main(["config", "check", str(path)]) == 0
    path.write_text(f'[log]\ndata_dir = "{tmp_path}"\n[fleet]\nserver = "/run/postgresql"\n'
                    'user = "kiosk_x"\nsslmode = "disable"\n')
    assert main(["config", "check", str(path)]) == 0
    capsys.readouterr()


def test_secret_and_key_files_others_may_read_are_problems(tmp_path, capsys, make_kiosk):
    secret = tmp_path / "fleet.secret"
    secret.write_text("pw\n")
    secret.chmod(0o644)
    key = tmp_path / "client.key"
    key.write_text("key\n")
    key.chmod(0o644)
    path = _config(tmp_path, f'sslkey = "{key}"\nsslcert = "{key}"\n')
    assert main(["config", "check", str(path)]) == 1
    out = capsys.readouterr().out
    assert "readable by others (mode 0644)" in out and "fleet.sslkey" in out
    assert out.count("the sync refuses to use it") == 2
    secret.chmod(0o600)
    key.chmod(0o640)  # root's, group-readable: libpq's own rule allows it
    assert main(["config", "check", str(path)]) == 0
    capsys.readouterr()
    # and the sync refuses a secret others may read, in one line, sending nothing
    k = make_kiosk("open-secret")
    k.play(1)
    (k.data_dir / "fleet.secret").chmod(0o644)
    assert k.sync() == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "refusing the fleet password file" in err
    assert "chmod 600" in err
    assert state.load_status(k.data_dir).last_error_kind == "config"


def _tcp_dsn(pg: PgServer, dbname: str, extra: str = "") -> str:
    return (f"host=db.fleet.test hostaddr=127.0.0.1 port={pg.port} dbname={dbname} user=postgres "
            f"password=admin-secret connect_timeout=5 {extra}")


def test_office_connections_verify_the_server_by_default(pg, fleet_dsn, capsys):
    dbname = psycopg.conninfo.conninfo_to_dict(fleet_dsn)["dbname"]
    # no sslmode in the DSN, a host over the network: verify-full, so a CA is needed
    assert main(["fleet", "status", "--dsn", _tcp_dsn(pg, dbname)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "sslrootcert" in err and "--no-verify-server" in err
    assert main(["fleet", "init", "--dsn", _tcp_dsn(
        pg, dbname, f"sslrootcert={pg.certs['other_ca']}")]) == 1
    assert "certificate" in capsys.readouterr().err
    assert main(["fleet", "init", "--dsn", _tcp_dsn(
        pg, dbname, f"sslrootcert={pg.certs['ca']}")]) == 0
    assert main(["fleet", "status", "--dsn", _tcp_dsn(pg, dbname), "--no-verify-server"]) == 0
    # an explicit sslmode is the office's choice; a socket needs none
    assert main(["fleet", "status", "--dsn", _tcp_dsn(pg, dbname, "sslmode=require")]) == 0
    assert main(["fleet", "status", "--dsn", fleet_dsn]) == 0
    capsys.readouterr()


def test_the_admin_dsn_rule():
    from kiosk.commands.fleet import admin_dsn

    def mode(dsn: str) -> str | None:
        return psycopg.conninfo.conninfo_to_dict(admin_dsn(dsn)).get("sslmode")

    assert mode("host=db.example.org dbname=f") == "verify-full"
    assert mode("postgresql://office@db.example.org/f") == "verify-full"
    assert mode("host=2001:db8::5 dbname=f") == "verify-full"
    assert mode("host=db.example.org dbname=f sslmode=verify-ca") == "verify-ca"
    for local in ("host=/run/postgresql dbname=f", "host=localhost dbname=f",
                  "host=127.0.0.1 dbname=f", "host=::1 dbname=f", "dbname=f"):
        assert mode(local) is None, local
    assert admin_dsn("host=db.example.org", verify=False) == "host=db.example.org"


# ------------------------------------------------------------------ impostors
@pytest.fixture(scope="module")
def other_server():
    """A second PostgreSQL on 127.0.0.1: an impostor, or a server with a dated certificate."""
    server = PgServer()
    yield server
    server.destroy()


class FakePostgres(threading.Thread):
    """Speaks just enough of PostgreSQL's protocol to ask for the password in clear text
    (as `password` authentication does) and keep what comes back."""

    def __init__(self, pem, key) -> None:
        super().__init__(daemon=True)
        self.ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        self.ctx.load_cert_chain(pem, key)
        self.srv = socket.create_server(("127.0.0.1", 0))
        self.srv.settimeout(0.2)
        self.port = self.srv.getsockname()[1]
        self.received = b""
        self.handshakes = 0
        self.stop = threading.Event()

    def _exact(self, conn, n: int) -> bytes:
        data = b""
        while len(data) < n:
            chunk = conn.recv(n - len(data))
            if not chunk:
                raise ConnectionError
            data += chunk
        return data

    def run(self) -> None:
        while not self.stop.is_set():
            try:
                conn, _ = self.srv.accept()
            except TimeoutError:
                continue
            try:
                conn.settimeout(5)
                head = self._exact(conn, 8)
                if head[4:] == (80877103).to_bytes(4, "big"):  # SSLRequest
                    conn.sendall(b"S")
                    conn = self.ctx.wrap_socket(conn, server_side=True)
                    self.handshakes += 1
                    head = self._exact(conn, 4)
                    self._exact(conn, int.from_bytes(head, "big") - 4)
                else:
                    self._exact(conn, int.from_bytes(head[:4], "big") - 8)
                conn.sendall(b"R" + (8).to_bytes(4, "big") + (3).to_bytes(4, "big"))
                kind = self._exact(conn, 1)
                size = int.from_bytes(self._exact(conn, 4), "big")
                self.received += kind + self._exact(conn, size - 4)
            except (OSError, ConnectionError, ssl.SSLError):
                pass
            finally:
                conn.close()


def test_an_impostor_never_receives_the_password(make_kiosk, tmp_path, pg, capsys):
    pem, key = self_signed(tmp_path)
    fake = FakePostgres(pem, key)
    fake.start()
    try:
        k = make_kiosk("lured")
        k.play(2)
        # the card's configuration as an operator might have left it: "prefer"
        k.fleet.update(server="127.0.0.1", port=fake.port, sslmode="prefer",
                       sslrootcert=str(pg.certs["ca"]))
        k.write_config()
        password = (k.data_dir / "fleet.secret").read_text().strip()
        assert k.sync() == 1
        err = capsys.readouterr().err
    finally:
        fake.stop.set()
        fake.join(timeout=10)
    assert password.encode() not in fake.received, "the impostor got the password"
    assert fake.received == b""
    assert err.count("\n") == 1 and "certificate" in err
    assert state.load_status(k.data_dir).last_error_kind == "tls-untrusted"


def test_an_impostor_cannot_set_the_pin(make_kiosk, other_server, tmp_path, pg, capsys):
    from kiosk.settings.operator_pin import hash_pin

    imp = other_server
    imp.use_certificate(*self_signed(tmp_path))
    imp.set_hba("local all all scram-sha-256\nhostssl all all 127.0.0.1/32 trust\n"
                "host all all 127.0.0.1/32 trust\n")
    k = make_kiosk("target")
    k.play(1)
    assert k.sync() == 0
    # the impostor: the same database, role and schema, and a PIN for every kiosk
    dsn = imp.create_database(k.dbname)
    assert main(["fleet", "init", "--dsn", dsn]) == 0
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(f'DROP ROLE IF EXISTS "{k.role}"')
        conn.execute(f'CREATE ROLE "{k.role}" LOGIN IN ROLE fleet_kiosk')
        conn.execute("INSERT INTO kiosks (name, role) VALUES (%s, %s)", (k.name, k.role))
        conn.execute("INSERT INTO settings_versions (scope, settings) VALUES ('all', %s)",
                     (f'operator_pin = "{hash_pin("0000")}"\n',))
    k.fleet.update(server="127.0.0.1", port=imp.port, sslmode="prefer",
                   sslrootcert=str(pg.certs["ca"]))
    k.write_config()
    capsys.readouterr()
    assert k.sync() == 1
    assert "certificate" in capsys.readouterr().err
    assert not (k.data_dir / "overrides.toml").exists()
    with psycopg.connect(dsn) as conn:
        assert conn.execute("SELECT count(*) FROM heartbeats").fetchone()[0] == 0


@pytest.mark.parametrize(("start", "end", "says"), [
    ("20200101000000Z", "20200201000000Z", "has expired"),
    ("20990101000000Z", "20991231000000Z", "is not valid yet")])
def test_a_certificate_out_of_date_is_blamed_on_the_clock(make_kiosk, other_server, tmp_path,
                                                          pg, capsys, start, end, says):
    other_server.use_certificate(*sign_with_dates(pg.root, tmp_path, start, end))
    k = make_kiosk("clocked")
    k.play(1)
    k.fleet.update(server="127.0.0.1", port=other_server.port, sslmode="verify-full",
                   sslrootcert=str(pg.certs["ca"]))
    k.write_config()
    assert k.sync() == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert f"the server's certificate {says} by the kiosk's clock, which says 20" in err
    assert "set the time or check NTP" in err
    assert state.load_status(k.data_dir).last_error_kind == "tls-clock"
