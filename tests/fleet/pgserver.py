"""A throwaway PostgreSQL server for the fleet tests and bench/sync.py: ``initdb`` into a
temporary directory, listening on a Unix socket there (and, for the TLS tests, on
127.0.0.1 with a certificate of a test CA), run as the ``postgres`` user when we are root
(PostgreSQL refuses to run as root). Debian's ``postgresql`` package provides the binaries
(tools/debian-packages.txt); its own cluster service is not used.
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

ADMIN_PASSWORD = "admin-secret"


class ServerMissing(RuntimeError):
    pass


def pg_bin() -> Path:
    """The newest installed server's bin directory."""
    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin/postgres"),
                        key=lambda p: int(Path(p).parent.parent.name))
    if candidates:
        return Path(candidates[-1]).parent
    found = shutil.which("postgres")
    if found:
        return Path(found).resolve().parent
    raise ServerMissing("PostgreSQL's server binaries (initdb, postgres, pg_ctl) are not "
                        "installed: run `tools/install.sh test` (Debian package postgresql)")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def make_certificates(directory: Path, owner: str | None) -> dict[str, Path]:
    """A CA, a server certificate for 127.0.0.1/localhost signed by it, and a second CA
    that signed nothing (the "wrong CA")."""
    def run(*args: str) -> None:
        subprocess.run(["openssl", *args], cwd=directory, check=True, capture_output=True)

    for ca in ("ca", "other-ca"):
        run("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj",
            f"/CN=fleet test {ca}", "-keyout", f"{ca}.key", "-out", f"{ca}.pem")
    run("req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=localhost", "-keyout",
        "server.key", "-out", "server.csr")
    # db.fleet.test: a name over "the network" that no resolver is asked for (the tests
    # connect with hostaddr=127.0.0.1 and host=db.fleet.test, which TLS verifies)
    (directory / "ext.cnf").write_text(
        "subjectAltName=DNS:localhost,DNS:db.fleet.test,IP:127.0.0.1\n")
    run("x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key",
        "-CAcreateserial", "-days", "2", "-extfile", "ext.cnf", "-out", "server.pem")
    os.chmod(directory / "server.key", 0o600)
    if owner:
        shutil.chown(directory / "server.key", owner, owner)
        shutil.chown(directory / "server.pem", owner, owner)
    return {"ca": directory / "ca.pem", "other_ca": directory / "other-ca.pem"}


CA_CONFIG = """[ca]
default_ca = test_ca
[test_ca]
database = index.txt
new_certs_dir = .
serial = serial
default_md = sha256
policy = any_name
copy_extensions = copy
unique_subject = no
[any_name]
commonName = supplied
"""


def sign_with_dates(ca_dir: Path, out_dir: Path, start: str, end: str) -> tuple[Path, Path]:
    """A server certificate for 127.0.0.1/localhost signed by the CA in ``ca_dir``, valid
    from ``start`` to ``end`` (``YYYYMMDDHHMMSSZ``): an expired one, or one not valid yet
    (``openssl ca`` is the tool that takes dates)."""
    def run(*args: str) -> None:
        subprocess.run(["openssl", *args], cwd=out_dir, check=True, capture_output=True)

    (out_dir / "index.txt").write_text("")
    (out_dir / "serial").write_text("1000\n")
    (out_dir / "ca.cnf").write_text(CA_CONFIG)
    (out_dir / "ext.cnf").write_text("subjectAltName=DNS:localhost,IP:127.0.0.1\n")
    run("req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=localhost", "-keyout",
        "dated.key", "-out", "dated.csr")
    run("ca", "-batch", "-config", "ca.cnf", "-cert", str(ca_dir / "ca.pem"), "-keyfile",
        str(ca_dir / "ca.key"), "-in", "dated.csr", "-out", "dated.pem", "-startdate", start,
        "-enddate", end, "-extfile", "ext.cnf", "-notext")
    return out_dir / "dated.pem", out_dir / "dated.key"


def self_signed(out_dir: Path) -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1/localhost: what an impostor shows."""
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
                    "-subj", "/CN=localhost", "-addext",
                    "subjectAltName=DNS:localhost,IP:127.0.0.1", "-keyout", "impostor.key",
                    "-out", "impostor.pem"], cwd=out_dir, check=True, capture_output=True)
    return out_dir / "impostor.pem", out_dir / "impostor.key"


class PgServer:
    def __init__(self, root: Path | None = None, tls: bool = True,
                 max_connections: int = 100) -> None:
        self.bin = pg_bin()
        self.owner = "postgres" if os.geteuid() == 0 else None
        self.root = Path(root or tempfile.mkdtemp(prefix="fleet-pg-"))
        os.chmod(self.root, 0o755)
        self.data = self.root / "data"
        self.socket_dir = self.root  # the socket lives beside the cluster
        self.port = _free_port()
        self.certs: dict[str, Path] = {}
        if self.owner:
            shutil.chown(self.root, self.owner, self.owner)
        pwfile = self.root / "pw"
        pwfile.write_text(ADMIN_PASSWORD + "\n")
        if self.owner:
            shutil.chown(pwfile, self.owner, self.owner)
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "--pwfile", str(pwfile),
                  "-A", "scram-sha-256", "--no-sync", "-E", "UTF8", "--locale=C")
        conf = ["listen_addresses = '127.0.0.1'", f"port = {self.port}",
                f"unix_socket_directories = '{self.socket_dir}'",
                f"max_connections = {max_connections}", "fsync = off",
                "synchronous_commit = off", "full_page_writes = off",
                "shared_buffers = 64MB", "log_min_messages = warning"]
        if tls:
            self.certs = make_certificates(self.root, self.owner)
            conf += ["ssl = on", f"ssl_cert_file = '{self.root / 'server.pem'}'",
                     f"ssl_key_file = '{self.root / 'server.key'}'"]
        with open(self.data / "postgresql.conf", "a") as fh:
            fh.write("\n".join(conf) + "\n")
        # every connection proves a password, over the socket too (the wrong-password test)
        (self.data / "pg_hba.conf").write_text(
            "local all all scram-sha-256\nhostssl all all 127.0.0.1/32 scram-sha-256\n"
            "host all all 127.0.0.1/32 scram-sha-256\n")
        self.start()

    def _run(self, tool: str, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        cmd = [str(self.bin / tool), *args]
        if self.owner:
            cmd = ["runuser", "-u", self.owner, "--", *cmd]
        return subprocess.run(cmd, check=check, capture_output=True, text=True, timeout=120)

    def start(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.root / "server.log"),
                  "-w", "-t", "60", "start")

    def stop(self, mode: str = "fast") -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "-t", "60", "stop",
                  check=False)

    def running(self) -> bool:
        return self._run("pg_ctl", "-D", str(self.data), "status", check=False).returncode == 0

    def dsn(self, dbname: str = "postgres", user: str = "postgres",
            password: str = ADMIN_PASSWORD) -> str:
        return (f"host={self.socket_dir} port={self.port} dbname={dbname} user={user} "
                f"password={password}")

    def admin(self, dbname: str = "postgres"):
        import psycopg

        return psycopg.connect(self.dsn(dbname), autocommit=True)

    def create_database(self, name: str) -> str:
        with self.admin() as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.dsn(name)

    def use_certificate(self, pem: Path, key: Path) -> None:
        """Serve another certificate from now on (a reload: new connections get it)."""
        shutil.copy(pem, self.root / "server.pem")
        shutil.copy(key, self.root / "server.key")
        os.chmod(self.root / "server.key", 0o600)
        if self.owner:
            shutil.chown(self.root / "server.key", self.owner, self.owner)
            shutil.chown(self.root / "server.pem", self.owner, self.owner)
        self._run("pg_ctl", "-D", str(self.data), "reload")
        time.sleep(0.5)

    def set_hba(self, text: str) -> None:
        (self.data / "pg_hba.conf").write_text(text)
        self._run("pg_ctl", "-D", str(self.data), "reload")
        time.sleep(0.5)

    def destroy(self) -> None:
        self.stop("immediate")
        shutil.rmtree(self.root, ignore_errors=True)


def wait_until(predicate, timeout: float = 20.0, step: float = 0.02) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(step)
    return predicate()
