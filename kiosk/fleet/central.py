"""The central side: the schema, its migrations and the kiosks' roles.

Migrations are the SQL files in ``migrations/`` (``NNNN_name.sql``), applied in order,
each in its own transaction together with its row in ``fleet_schema_version``, like the
play log's own (:func:`kiosk.records.playlog.migrate`). A kiosk checks the version before
it sends anything, so a kiosk and a server of different schemas never mix rows.
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass
from importlib import resources
from typing import Any

from kiosk.fleet.connect import FleetError

#: a kiosk's name in the fleet: its key in every central table and the tail of its role
NAME_PATTERN = re.compile(r"[a-z0-9][a-z0-9_]{0,39}")
ROLE_PREFIX = "kiosk_"


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    sql: str


def migrations() -> list[Migration]:
    files = resources.files("kiosk.fleet.migrations")
    out = []
    for entry in files.iterdir():
        m = re.fullmatch(r"(\d{4})_(\w+)\.sql", entry.name)
        if m:
            out.append(Migration(int(m.group(1)), m.group(2), entry.read_text("utf-8")))
    out.sort(key=lambda m: m.version)
    assert [m.version for m in out] == list(range(1, len(out) + 1)), "migrations have a gap"
    return out


#: the schema version this kiosk sends rows for
SCHEMA_VERSION = len(migrations())


def current_version(conn: Any) -> int:
    """The central schema's version; 0 for a database without it. Raises psycopg errors."""
    row = conn.execute(
        "SELECT to_regclass('fleet_schema_version') IS NOT NULL").fetchone()
    if not row[0]:
        return 0
    return conn.execute("SELECT coalesce(max(version), 0) FROM fleet_schema_version"
                        ).fetchone()[0]


def check_version(conn: Any) -> None:
    """Refuse a server whose schema is not the one this kiosk writes."""
    version = current_version(conn)
    if version < SCHEMA_VERSION:
        raise FleetError(f"the central database has schema version {version}, this kiosk "
                         f"needs {SCHEMA_VERSION}: run `kiosk fleet init` at the office")
    if version > SCHEMA_VERSION:
        raise FleetError(f"the central database has schema version {version}, newer than "
                         f"this kiosk's {SCHEMA_VERSION}: update the kiosk's software")


def migrate(conn: Any) -> tuple[int, int]:
    """Apply the missing migrations; returns (version before, version after)."""
    conn.autocommit = True
    before = current_version(conn)
    if before > SCHEMA_VERSION:
        raise FleetError(f"the central database has schema version {before}, newer than "
                         f"this software's {SCHEMA_VERSION}")
    for m in migrations():
        if m.version <= before:
            continue
        with conn.transaction():
            # two `fleet init` at once: the second waits here, then finds the work done
            conn.execute("SELECT pg_advisory_xact_lock(2026026)")
            if current_version(conn) >= m.version:
                continue
            conn.execute(m.sql)
            conn.execute("INSERT INTO fleet_schema_version (version) VALUES (%s)",
                         (m.version,))
    return before, current_version(conn)


def role_of(name: str) -> str:
    return ROLE_PREFIX + name


def add_kiosk(conn: Any, name: str, password: str | None = None) -> str:
    """Make the kiosk's role and its ``kiosks`` row; returns the password (a new random
    one unless given). A kiosk that exists gets a new password (lost card, new Pi)."""
    from psycopg import sql

    if not NAME_PATTERN.fullmatch(name):
        raise FleetError(f"{name!r} is not a kiosk name (1 to 40 of a-z, 0-9 and _, "
                         "starting with a letter or digit)")
    conn.autocommit = True
    check_version(conn)
    secret = password or secrets.token_urlsafe(24)
    role = role_of(name)
    with conn.transaction():
        exists = conn.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (role,)).fetchone()
        verb = "ALTER" if exists else "CREATE"
        conn.execute(sql.SQL(verb + " ROLE {} LOGIN PASSWORD {} NOSUPERUSER NOCREATEDB "
                             "NOCREATEROLE INHERIT CONNECTION LIMIT 3").format(
            sql.Identifier(role), sql.Literal(secret)))
        conn.execute(sql.SQL("GRANT fleet_kiosk TO {}").format(sql.Identifier(role)))
        conn.execute(sql.SQL("GRANT CONNECT ON DATABASE {} TO {}").format(
            sql.Identifier(conn.info.dbname), sql.Identifier(role)))
        conn.execute("INSERT INTO kiosks (name, role) VALUES (%s, %s) ON CONFLICT (name) "
                     "DO NOTHING", (name, role))
    return secret


def config_section(*, host: str, port: int, dbname: str, name: str,
                   ca_file: str = "/etc/solitaire-kiosk/fleet-ca.pem") -> str:
    """The ``[fleet]`` section for the kiosk's config.toml (the password goes in its own
    root-only file, not here)."""
    return (
        "[fleet]\n"
        f'server = "{host}"\n'
        f"port = {port}\n"
        f'database = "{dbname}"\n'
        f'user = "{role_of(name)}"\n'
        'sslmode = "verify-full"\n'
        f'sslrootcert = "{ca_file}"\n'
        "# the password: in /var/lib/solitaire-kiosk/fleet.secret, root's, mode 0600\n"
    )
