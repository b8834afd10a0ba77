"""The central side: the schema, its migrations and the kiosks' roles (at the office).

Migrations are the SQL files in ``migrations/`` (``NNNN_name.sql``), applied in order,
each in its own transaction together with its row in ``fleet_schema_version``, like the
play log's own (:func:`kiosk.records.playlog.migrate`). Numbers may leave gaps (two
branches of work number theirs apart: the report's 0010, the updates' 0011 on): every
migration the server lacks is applied, not only those above its highest number.

A kiosk checks the versions before it sends anything, so a kiosk and a server of different
schemas never mix rows: it needs every migration it knows applied, and refuses a server
with one it does not know. A migration whose first line is ``-- kiosks: unaffected``
changes nothing a kiosk reads or writes: a kiosk does not need it, and a server that has it
(recorded ``kiosks = false``, once ``fleet_schema_version`` has that column) still takes the
rows of kiosks that do not know it.

Everything here works as the database's owner without superuser rights (docs/fleet.md,
"Setting up the central server from nothing"): an owner with ``CREATEROLE``.
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass
from importlib import resources
from typing import Any

from kiosk.fleet.errors import FleetError

#: a kiosk's name as hosts are named (lower case letters, digits, hyphens; names made
#: before issue 32 may hold _). Up to 40 characters, a letter or digit at either end.
NAME_PATTERN = re.compile(r"[a-z0-9](?:[a-z0-9_-]{0,38}[a-z0-9])?")
#: names that would read as a role, a keyword or the fleet's own groups
RESERVED = frozenset({
    "kiosk", "kiosks", "public", "all", "none", "default", "current-user", "session-user",
    "current-role", "user", "role", "postgres", "admin", "office", "report", "fleet",
    "group", "everyone", "null", "true", "false"})
RESERVED_PREFIXES = ("fleet_", "fleet-", "pg_", "pg-", "kiosk_")
ROLE_PREFIX = "kiosk_"
#: a new log's ids are sent plus its ordinal times this (docs/fleet.md, "Log identity")
LOG_STRIDE = 10**12
#: what every kiosk role runs with (``ALTER ROLE ... SET``): a pass's statements take
#: well under a second each; a session that hangs frees its locks and its connection
ROLE_SETTINGS = {"statement_timeout": "60s", "idle_in_transaction_session_timeout": "120s",
                 "lock_timeout": "30s"}
#: connections a kiosk role may hold at once (a pass uses one)
CONNECTION_LIMIT = 3
#: `fleet init` waits this long for a lock held by a kiosk's session before ending it
INIT_LOCK_WAIT = "10s"


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


def check_name(text: str, what: str = "kiosk name") -> str:
    """The kiosk name ``text`` stands for (lower case), or FleetError (kind config) saying
    what a name may be."""
    name = text.strip().lower()
    rule = (f"{text!r} is not a {what}: 1 to 40 letters, digits and hyphens, as hosts are "
            "named (e.g. lobby-1), starting and ending with a letter or digit")
    if not NAME_PATTERN.fullmatch(name):
        raise FleetError(rule, "config")
    if name in RESERVED or name.startswith(RESERVED_PREFIXES):
        raise FleetError(f"{text!r} is reserved (it reads as a role or keyword of the "
                         "database); choose another name", "config")
    return name


def applied(conn: Any) -> dict[int, bool]:
    """The server's applied migrations: version -> whether it concerns kiosks (a server
    from before that was recorded: all do). Empty for a database without the schema."""
    row = conn.execute(
        "SELECT to_regclass('fleet_schema_version') IS NOT NULL").fetchone()
    if not row[0]:
        return {}
    # never a prepared plan: another `fleet init` may add a column meanwhile (0010)
    cur = conn.execute("SELECT * FROM fleet_schema_version", prepare=False)
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
                         f"this kiosk's {needs}: update the kiosk's software", "schema-new")
    if KIOSK_VERSIONS - done.keys():
        raise FleetError(f"the central database has schema version {max(done, default=0)}, "
                         f"this kiosk needs {needs}: run `kiosk fleet init` at the office",
                         "schema-old")


def migrate(conn: Any) -> tuple[int, int]:
    """Apply the missing migrations; returns (version before, version after).

    Two ``fleet init`` at once take turns on a lock of ``fleet_schema_version`` (SHARE ROW
    EXCLUSIVE): a mode no kiosk can take, since kiosks may only read that table, so no
    stolen card can hold `fleet init` back (an advisory lock, as before, any role may take
    and keep). A kiosk's session that holds a lock a migration needs is ended after
    :data:`INIT_LOCK_WAIT` (its pass fails and comes back with the timer)."""
    import psycopg

    conn.autocommit = True
    done = applied(conn)
    before = max(done, default=0)
    unknown = sorted(set(done) - {m.version for m in migrations()})
    if unknown:
        raise FleetError(f"the central database has schema version {unknown[-1]}, newer than "
                         f"this software's {SCHEMA_VERSION}", "schema-new")
    if before == 0:
        try:
            conn.execute("CREATE TABLE IF NOT EXISTS fleet_schema_version ("
                         "version integer PRIMARY KEY,"
                         " applied timestamptz NOT NULL DEFAULT now())")
        except psycopg.errors.UniqueViolation:
            pass  # another `fleet init` made it at the same moment
    if before >= 1:
        _adopt_all(conn)
    for m in migrations():
        if m.version in done:
            continue
        for attempt in range(3):
            try:
                with conn.transaction():
                    conn.execute(f"SET LOCAL lock_timeout = '{INIT_LOCK_WAIT}'")
                    conn.execute("SET LOCAL statement_timeout = 0")
                    conn.execute("LOCK TABLE fleet_schema_version IN SHARE ROW EXCLUSIVE MODE")
                    if m.version in applied(conn):
                        break
                    conn.execute(m.sql)
                    _record_migration(conn, m)
                break
            except psycopg.errors.LockNotAvailable:
                if attempt == 2:
                    raise FleetError(f"migration {m.version} ({m.name}) could not lock the "
                                     "tables it changes: a session holds them; try again",
                                     "server") from None
                end_kiosk_sessions(conn)
    harden_roles(conn)  # every time: a kiosk may have changed its own settings
    return before, current_version(conn)


def _record_migration(conn: Any, m: Migration) -> None:
    cur = conn.execute("SELECT * FROM fleet_schema_version LIMIT 0", prepare=False)
    if "kiosks" in [d.name for d in cur.description]:
        conn.execute("INSERT INTO fleet_schema_version (version, kiosks) VALUES (%s, %s)",
                     (m.version, m.kiosks))
    else:
        conn.execute("INSERT INTO fleet_schema_version (version) VALUES (%s)", (m.version,))


def _is_superuser(conn: Any) -> bool:
    return bool(conn.execute("SELECT rolsuper FROM pg_roles WHERE rolname = current_user"
                             ).fetchone()[0])


def _adopt_all(conn: Any) -> None:
    """Be a member of every kiosk role (best effort: a role made by a superuser may be out
    of reach of a PostgreSQL 16 owner), so that a migration can end a kiosk's session."""
    import psycopg

    for (role,) in conn.execute("SELECT k.role FROM kiosks k JOIN pg_roles p"
                                " ON p.rolname = k.role").fetchall():
        try:
            with conn.transaction():
                _adopt(conn, role)
        except psycopg.Error:
            pass


def end_kiosk_sessions(conn: Any, role: str | None = None) -> int:
    """End the sessions of one kiosk role (or of every kiosk); returns how many. The owner
    may: it is a member of the kiosk roles it made (:func:`_adopt`)."""
    rows = conn.execute(
        "SELECT count(*) FILTER (WHERE pg_terminate_backend(a.pid)) FROM pg_stat_activity a"
        " JOIN kiosks k ON k.role = a.usename WHERE (%s::text IS NULL OR a.usename = %s)"
        "  AND a.pid <> pg_backend_pid()"
        "  AND pg_has_role(current_user, a.usesysid, 'USAGE')", (role, role)).fetchone()
    return int(rows[0] or 0)


def _adopt(conn: Any, role: str) -> None:
    """Make the owner a member of the kiosk role: PostgreSQL lets only members (or
    superusers) end a role's sessions and drop what it owns, which retire and init need."""
    from psycopg import sql

    if not _is_superuser(conn) and not conn.execute(
            "SELECT pg_has_role(current_user, %s, 'USAGE')", (role,)).fetchone()[0]:
        conn.execute(sql.SQL("GRANT {} TO {}").format(sql.Identifier(role),
                                                       sql.Identifier(conn.info.user)))


def _role_defaults(conn: Any, role: str) -> None:
    """The role's settings, again: a kiosk may change its own (``ALTER ROLE ... SET``, which
    PostgreSQL allows every role for itself), so every rotation and every init puts them
    back."""
    from psycopg import sql

    ident = sql.Identifier(role)
    conn.execute(sql.SQL("ALTER ROLE {} RESET ALL").format(ident))
    for key, value in ROLE_SETTINGS.items():
        conn.execute(sql.SQL("ALTER ROLE {} SET {} = {}").format(
            ident, sql.Identifier(key), sql.Literal(value)))


def harden_roles(conn: Any) -> None:
    """Bring every kiosk role in line (after a migration): its settings, no privilege of
    its own on the database (the group fleet_kiosk holds them), the owner a member."""
    from psycopg import sql

    roles = [r[0] for r in conn.execute(
        "SELECT k.role FROM kiosks k JOIN pg_roles p ON p.rolname = k.role"
        " WHERE k.retired IS NULL ORDER BY k.role")]
    with conn.transaction():
        for role in roles:
            _adopt(conn, role)
            _role_defaults(conn, role)
            conn.execute(sql.SQL("REVOKE ALL ON DATABASE {} FROM {}").format(
                sql.Identifier(conn.info.dbname), sql.Identifier(role)))


def scram_verifier(conn: Any, role: str, password: str) -> str:
    """The SCRAM-SHA-256 verifier of ``password``, computed here by libpq (as psql's
    \\password does): the server stores it as it is and never sees the password."""
    out = conn.pgconn.encrypt_password(password.encode("utf-8"), role.encode("utf-8"),
                                       b"scram-sha-256")
    text = bytes(out).decode("ascii")
    assert text.startswith("SCRAM-SHA-256$"), "libpq returned no SCRAM verifier"
    return text


def _new_role(conn: Any) -> str:
    """A random role name: it says nothing about the kiosk to whoever lists pg_roles."""
    while True:
        role = ROLE_PREFIX + secrets.token_hex(6)
        if not conn.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (role,)).fetchone():
            return role


@dataclass(frozen=True)
class Added:
    name: str
    role: str
    password: str
    state: str   # "new", "rotated", "back" (it had been retired)


def add_kiosk(conn: Any, name: str, password: str | None = None) -> Added:
    """Make the kiosk's role and its ``kiosks`` row, or give an existing kiosk a new
    password (a lost card, a new Pi), or bring a retired one back with a new role. The
    password is random unless given; only its SCRAM verifier reaches the server."""
    from psycopg import sql

    name = check_name(name)
    conn.autocommit = True
    check_version(conn)
    secret = password or secrets.token_urlsafe(24)
    with conn.transaction():
        row = conn.execute("SELECT role, retired IS NOT NULL FROM kiosks WHERE name = %s"
                           " FOR UPDATE", (name,)).fetchone()
        exists = row is not None and not row[1] and conn.execute(
            "SELECT 1 FROM pg_roles WHERE rolname = %s", (row[0],)).fetchone() is not None
        role = row[0] if exists else _new_role(conn)
        verifier = sql.Literal(scram_verifier(conn, role, secret))
        if exists:
            # only what a CREATEROLE owner may change on a role: no NOSUPERUSER & co.,
            # which PostgreSQL reserves to superusers even when they change nothing
            conn.execute(sql.SQL("ALTER ROLE {} WITH LOGIN PASSWORD {} CONNECTION LIMIT {}")
                         .format(sql.Identifier(role), verifier,
                                 sql.Literal(CONNECTION_LIMIT)))
        else:
            conn.execute(sql.SQL("CREATE ROLE {} WITH LOGIN PASSWORD {} NOSUPERUSER "
                                 "NOCREATEDB NOCREATEROLE INHERIT NOREPLICATION "
                                 "CONNECTION LIMIT {} IN ROLE fleet_kiosk").format(
                sql.Identifier(role), verifier, sql.Literal(CONNECTION_LIMIT)))
        conn.execute(sql.SQL("GRANT fleet_kiosk TO {}").format(sql.Identifier(role)))
        _adopt(conn, role)
        _role_defaults(conn, role)
        if row is None:
            conn.execute("INSERT INTO kiosks (name, role) VALUES (%s, %s)", (name, role))
        else:
            conn.execute("UPDATE kiosks SET role = %s, retired = NULL WHERE name = %s",
                         (role, name))
    if exists:
        end_kiosk_sessions(conn, role)  # whoever holds the old password leaves now
    state = "rotated" if exists else ("back" if row is not None else "new")
    return Added(name, role, secret, state)


def _kiosk_row(conn: Any, name: str) -> tuple[str, bool]:
    row = conn.execute("SELECT role, retired IS NOT NULL FROM kiosks WHERE name = %s",
                       (name,)).fetchone()
    if row is None:
        raise FleetError(f"no kiosk named {name!r} in the central database", "config")
    return row[0], bool(row[1])


def retire(conn: Any, name: str) -> str:
    """Take a kiosk out of the fleet: its role goes (with its privileges and its sessions),
    its rows stay, ``fleet status`` no longer lists it. Returns the role dropped."""
    from psycopg import sql

    name = name.strip().lower()
    conn.autocommit = True
    check_version(conn)
    role, retired = _kiosk_row(conn, name)
    if retired:
        raise FleetError(f"kiosk {name!r} is retired already", "config")
    has_role = conn.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (role,)).fetchone()
    with conn.transaction():
        conn.execute("UPDATE kiosks SET retired = now() WHERE name = %s", (name,))
        if has_role:
            _adopt(conn, role)
            conn.execute(sql.SQL("ALTER ROLE {} NOLOGIN").format(sql.Identifier(role)))
    if has_role:
        end_kiosk_sessions(conn, role)
        ident = sql.Identifier(role)
        with conn.transaction():
            conn.execute(sql.SQL("REVOKE ALL ON DATABASE {} FROM {}").format(
                sql.Identifier(conn.info.dbname), ident))
            conn.execute(sql.SQL("DROP OWNED BY {}").format(ident))
            conn.execute(sql.SQL("DROP ROLE {}").format(ident))
    return role


#: rows that name a kiosk without a foreign key (the others follow ON UPDATE CASCADE)
_NO_FOREIGN_KEY = ("moves", "hands", "matches")


def rename(conn: Any, old: str, new: str) -> None:
    """Give a kiosk another name in every central row. Its role and password stay, so
    nothing changes on the kiosk itself; its sessions are ended first, so that no pass
    writes the old name meanwhile."""
    old = old.strip().lower()
    new = check_name(new)
    conn.autocommit = True
    check_version(conn)
    role, _retired = _kiosk_row(conn, old)
    if old == new:
        raise FleetError(f"kiosk {old!r} has that name already", "config")
    if conn.execute("SELECT 1 FROM kiosks WHERE name = %s", (new,)).fetchone():
        raise FleetError(f"there is a kiosk named {new!r} already (`kiosk fleet retire` "
                         "and rename that one first, if it is gone)", "config")
    if conn.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (role,)).fetchone():
        _adopt(conn, role)
        end_kiosk_sessions(conn, role)
    with conn.transaction():
        conn.execute("SET LOCAL lock_timeout = '30s'")
        conn.execute("UPDATE kiosks SET name = %s, renamed_from = %s WHERE name = %s",
                     (new, old, old))
        for table in _NO_FOREIGN_KEY:
            conn.execute(f"UPDATE {table} SET kiosk = %s WHERE kiosk = %s", (new, old))
        conn.execute("UPDATE settings_versions SET target = %s WHERE scope = 'kiosk'"
                     " AND target = %s", (new, old))
        conn.execute("UPDATE releases SET target = %s WHERE scope = 'kiosk'"
                     " AND target = %s", (new, old))


def config_section(*, host: str, port: int, dbname: str, role: str,
                   ca_file: str = "/etc/solitaire-kiosk/fleet-ca.pem") -> str:
    """The ``[fleet]`` section for the kiosk's config.toml (the password goes in its own
    root-only file, not here)."""
    return (
        "[fleet]\n"
        f'server = "{host}"\n'
        f"port = {port}\n"
        f'database = "{dbname}"\n'
        f'user = "{role}"\n'
        'sslmode = "verify-full"\n'
        f'sslrootcert = "{ca_file}"\n'
        "# the password: in /var/lib/solitaire-kiosk/fleet.secret, root's, mode 0600\n"
    )


def open_databases(conn: Any) -> list[str]:
    """The server's other databases every role may connect to (PUBLIC's CONNECT, which
    only their owner, a superuser for postgres and template1, can take back)."""
    return [r[0] for r in conn.execute(
        "SELECT datname FROM pg_database WHERE datallowconn AND datname <> current_database()"
        " AND has_database_privilege('public', datname, 'CONNECT') ORDER BY datname")]


def set_heartbeat_days(conn: Any, days: int | None) -> int:
    """The heartbeats' retention in days (0: kept for ever); ``days`` changes it and
    removes what is older at once."""
    with conn.transaction():
        if days is not None:
            conn.execute("UPDATE fleet_config SET value = %s WHERE key = 'heartbeat_days'",
                         (str(days),))
            if days > 0:
                # the newest heartbeat of each kiosk stays: it is how a silent kiosk is seen
                conn.execute(
                    "DELETE FROM heartbeats h WHERE h.received < now() - make_interval("
                    "days => %s) AND h.id <> (SELECT max(id) FROM heartbeats l"
                    " WHERE l.kiosk = h.kiosk)", (days,))
        return int(conn.execute("SELECT value FROM fleet_config WHERE key = 'heartbeat_days'"
                                ).fetchone()[0])
