"""The central side: the schema, its migrations and the kiosks' roles.

Migrations are the SQL files in ``migrations/`` (``NNNN_name.sql``), applied in order,
each in its own transaction together with its row in ``fleet_schema_version``, like the
play log's own (:func:`kiosk.records.playlog.migrate`). Numbers may leave gaps (two
branches of work number theirs apart); every migration the server lacks is applied, not
only those above its highest number.

A kiosk checks the versions before it sends anything, so a kiosk and a server of different
schemas never mix rows: it needs every migration it knows applied, and refuses a server
with one it does not know. A migration whose first line is ``-- kiosks: unaffected``
changes nothing a kiosk reads or writes (the office's report indexes): a kiosk does not
need it, and a server that has it (recorded ``kiosks = false``) still takes the rows of
kiosks that do not know it, so an office-only change never makes every kiosk update.
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


#: a migration's first line when it changes nothing a kiosk reads or writes
UNAFFECTED = "-- kiosks: unaffected"


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    sql: str
    #: False: nothing a kiosk reads or writes changes (:data:`UNAFFECTED`)
    kiosks: bool = True


def migrations() -> list[Migration]:
    files = resources.files("kiosk.fleet.migrations")
    out = []
    for entry in files.iterdir():
        m = re.fullmatch(r"(\d{4})_(\w+)\.sql", entry.name)
        if m:
            sql = entry.read_text("utf-8")
            out.append(Migration(int(m.group(1)), m.group(2), sql,
                                 kiosks=not sql.startswith(UNAFFECTED)))
    out.sort(key=lambda m: m.version)
    versions = [m.version for m in out]
    assert len(set(versions)) == len(versions), "two migrations of one version"
    return out


#: the newest schema version this software knows (``fleet init`` brings a server to it)
SCHEMA_VERSION = max(m.version for m in migrations())
#: the migrations a kiosk needs the server to have before it sends a row
KIOSK_VERSIONS = frozenset(m.version for m in migrations() if m.kiosks)


def applied(conn: Any) -> dict[int, bool]:
    """The server's applied migrations: version -> whether it concerns kiosks (a server
    from before that was recorded: all do). Empty for a database without the schema."""
    row = conn.execute(
        "SELECT to_regclass('fleet_schema_version') IS NOT NULL").fetchone()
    if not row[0]:
        return {}
    cur = conn.execute("SELECT * FROM fleet_schema_version")
    names = [d.name for d in cur.description]
    flag = names.index("kiosks") if "kiosks" in names else None
    return {int(r[0]): True if flag is None else bool(r[flag]) for r in cur.fetchall()}


def current_version(conn: Any) -> int:
    """The central schema's highest applied version; 0 for a database without it. Raises
    psycopg errors."""
    return max(applied(conn), default=0)


def check_version(conn: Any) -> None:
    """Refuse a server whose schema is not the one this kiosk writes: one that lacks a
    migration the kiosk needs, or has one that concerns kiosks and this kiosk does not
    know."""
    done = applied(conn)
    known = {m.version for m in migrations()}
    newer = [v for v, concerns in done.items() if concerns and v not in known]
    needs = max(KIOSK_VERSIONS)
    if newer:
        raise FleetError(f"the central database has schema version {max(newer)}, newer than "
                         f"this kiosk's {needs}: update the kiosk's software")
    if KIOSK_VERSIONS - done.keys():
        raise FleetError(f"the central database has schema version {max(done, default=0)}, "
                         f"this kiosk needs {needs}: run `kiosk fleet init` at the office")


def migrate(conn: Any) -> tuple[int, int]:
    """Apply the missing migrations; returns (version before, version after)."""
    conn.autocommit = True
    done = applied(conn)
    before = max(done, default=0)
    known = {m.version for m in migrations()}
    unknown = sorted(set(done) - known)
    if unknown:
        raise FleetError(f"the central database has schema version {unknown[-1]}, newer than "
                         f"this software's {SCHEMA_VERSION}")
    for m in migrations():
        if m.version in done:
            continue
        with conn.transaction():
            # two `fleet init` at once: the second waits here, then finds the work done
            conn.execute("SELECT pg_advisory_xact_lock(2026026)")
            if m.version in applied(conn):
                continue
            conn.execute(m.sql)
            if "kiosks" in _columns(conn, "fleet_schema_version"):
                conn.execute("INSERT INTO fleet_schema_version (version, kiosks) "
                             "VALUES (%s, %s)", (m.version, m.kiosks))
            else:
                conn.execute("INSERT INTO fleet_schema_version (version) VALUES (%s)",
                             (m.version,))
    return before, current_version(conn)


def _columns(conn: Any, table: str) -> list[str]:
    cur = conn.execute(f"SELECT * FROM {table} LIMIT 0")
    return [d.name for d in cur.description]


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
