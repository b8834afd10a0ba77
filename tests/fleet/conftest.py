"""A real PostgreSQL server for the fleet tests (session-wide) and simulated kiosks, each
with its own data directory, config.toml with a [fleet] section, and play log written
through PlayLog. A missing server FAILS the tests (it is a test dependency, installed by
tools/install.sh test), it does not skip them."""

from __future__ import annotations

import itertools
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from kiosk.commands.cli import main as kiosk_main
from kiosk.fleet.sync import (
    EVENT_COLUMNS,
    HAND_ROW,
    LOCAL_PLAY_COLUMNS,
    MATCH_ROW,
    MOVE_COLUMNS,
    PLAY_COLUMNS,
)
from kiosk.records.playlog import PlayLog, open_readonly

from .pgserver import PgServer, ServerMissing


@pytest.fixture(autouse=True)
def roomy_card(monkeypatch: pytest.MonkeyPatch) -> None:
    """The test kiosks' data directories live on this machine's disk, whose free space is
    not theirs to judge: a shared disk at 93 % made every kiosk "nearly full" and failed
    the status tests. The free space heartbeats report is at least half the disk (a test
    of a full card sets its own)."""
    real = shutil.disk_usage

    def usage(path):
        u = real(path)
        free = max(u.free, u.total // 2)
        return type(u)(u.total, u.total - free, free)
    monkeypatch.setattr(shutil, "disk_usage", usage)

REPO = Path(__file__).resolve().parents[2]
_db_numbers = itertools.count(1)


@pytest.fixture(scope="session")
def pg():
    try:
        server = PgServer()
    except ServerMissing as err:
        pytest.fail(str(err))
    yield server
    server.destroy()


@pytest.fixture
def fleet_dsn(pg: PgServer) -> str:
    """A fresh database with the central schema, made by `kiosk fleet init`."""
    dsn = pg.create_database(f"fleet{next(_db_numbers)}")
    assert kiosk_main(["fleet", "init", "--dsn", dsn]) == 0
    return dsn


class Kiosk:
    """A simulated kiosk: its data directory, its config.toml and its play log."""

    def __init__(self, pg: PgServer, dsn: str, name: str, root: Path, **fleet) -> None:
        from kiosk.fleet import central

        self.pg, self.dsn, self.name = pg, dsn, name
        self.data_dir = root / name
        self.data_dir.mkdir(parents=True)
        import psycopg

        with psycopg.connect(dsn, autocommit=True) as conn:
            added = central.add_kiosk(conn, name)
        # (the code before issue 32 returned the password alone: these tests run on it too,
        # to show that each attack worked there)
        password, self.role = (added.password, added.role) if hasattr(added, "role") else (
            added, f"kiosk_{name}")
        self.db_path = self.data_dir / "plays.db"
        secret = self.data_dir / "fleet.secret"
        secret.write_text(password + "\n")
        secret.chmod(0o600)
        self.dbname = psycopg.conninfo.conninfo_to_dict(dsn)["dbname"]
        self.fleet = {"server": str(pg.socket_dir), "port": pg.port, "database": self.dbname,
                      "user": self.role, "batch_plays": 50, "connect_timeout": 5,
                      **fleet}
        self.config = self.data_dir / "config.toml"
        self.write_config()
        self.log: PlayLog | None = None
        self.seq = 0

    def write_config(self) -> None:
        lines = [f'name = "Kiosk {self.name}"', "[log]", f'data_dir = "{self.data_dir}"',
                 "[fleet]"]
        for key, value in self.fleet.items():
            lines.append(f"{key} = {value}" if isinstance(value, int) else f'{key} = "{value}"')
        self.config.write_text("\n".join(lines) + "\n")

    def open_log(self, **kw) -> PlayLog:
        self.log = PlayLog(self.db_path, kiosk=f"Kiosk {self.name}", app_version="test", **kw)
        return self.log

    def play(self, n: int = 1, moves: int = 5, finish: bool = True, **kw) -> list:
        log = self.log or self.open_log()
        out = []
        for _ in range(n):
            self.seq += 1
            p = log.begin("klondike", self.seq, {"draw": 1})
            for k in range(moves):
                log.move(p, f"T{k % 7 + 1}>F{k % 4 + 1}")
            if finish:
                log.finish(p, "won" if self.seq % 3 == 0 else "lost", score=self.seq,
                           cards_left=self.seq % 52)
            out.append(p)
        return out

    def backlog(self, n: int, moves: int = 5) -> None:
        """``n`` finished plays at once, in one transaction of a file PlayLog made (the
        same rows PlayLog writes one fsync at a time, which would take minutes)."""
        import sqlite3

        PlayLog(self.db_path, kiosk=f"Kiosk {self.name}", app_version="test").close()
        conn = sqlite3.connect(self.db_path)
        with conn:
            first = (conn.execute("SELECT max(id) FROM plays").fetchone()[0] or 0) + 1
            conn.executemany(
                "INSERT INTO plays (id, kiosk, game, options, seed, demo, started,"
                " started_mono, ended, ended_mono, boot_id, clock_synced, duration, result,"
                " moves, undos, hints, score, cards_left, touches, button_presses, app_version)"
                " VALUES (?, ?, 'klondike', '{\"draw\": 1}', ?, 0, '2026-01-01T10:00:00Z', ?,"
                " '2026-01-01T10:05:00Z', ?, 'boot', 1, 300.0, ?, ?, 0, 1, ?, 0, 9, 0, 'test')",
                [(i, f"Kiosk {self.name}", i, i * 1.5, i * 1.5 + 300,
                  "won" if i % 3 == 0 else "lost", moves, i, ) for i in
                 range(first, first + n)])
            conn.executemany(
                "INSERT INTO moves (play_id, seq, move, t, source) VALUES (?, ?, ?, ?, 'touch')",
                [(i, s, f"T{s % 7 + 1}>F{s % 4 + 1}", s * 0.5) for i in
                 range(first, first + n) for s in range(1, moves + 1)])
        conn.close()

    def sync(self, *extra: str) -> int:
        return kiosk_main(["sync", "--config", str(self.config), *extra])

    def sync_process(self, *extra: str, **kw) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "kiosk", "sync", "--config",
                               str(self.config), *extra], capture_output=True, text=True,
                              timeout=120, cwd=REPO, **kw)


@pytest.fixture
def owner_dsn(pg: PgServer) -> str:
    """A database whose owner is no superuser, only CREATEROLE (docs/fleet.md, step 1),
    schema made by `kiosk fleet init` as that owner."""
    n = next(_db_numbers)
    owner, db = f"fleet_owner{n}", f"owned{n}"
    with pg.admin() as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {db} WITH (FORCE)")
        conn.execute(f"DROP ROLE IF EXISTS {owner}")
        conn.execute(f"CREATE ROLE {owner} LOGIN CREATEROLE PASSWORD 'owner-pw'")
        conn.execute(f"CREATE DATABASE {db} OWNER {owner}")
    dsn = pg.dsn(db, owner, "owner-pw")
    assert kiosk_main(["fleet", "init", "--dsn", dsn]) == 0
    return dsn


def as_role(pg: PgServer, dsn: str, role: str, password: str):
    import psycopg

    dbname = psycopg.conninfo.conninfo_to_dict(dsn)["dbname"]
    return psycopg.connect(pg.dsn(dbname, role, password), autocommit=True)


@pytest.fixture
def make_kiosk(pg: PgServer, fleet_dsn: str, tmp_path: Path):
    made: list[Kiosk] = []

    def make(name: str, **fleet) -> Kiosk:
        k = Kiosk(pg, fleet_dsn, name, tmp_path, **fleet)
        made.append(k)
        return k

    yield make
    for k in made:
        if k.log is not None:
            k.log.close()


# ---------------------------------------------------------------------------- comparing
LOCAL_QUERIES = {
    "plays": f"SELECT {', '.join(LOCAL_PLAY_COLUMNS)} FROM plays",
    "moves": f"SELECT {', '.join(MOVE_COLUMNS)} FROM moves",
    "hands": f"SELECT {', '.join(HAND_ROW)} FROM hands",
    "matches": f"SELECT {', '.join(MATCH_ROW)} FROM matches",
    "events": f"SELECT {', '.join(EVENT_COLUMNS)} FROM events",
}
CENTRAL_COLUMNS = {"plays": PLAY_COLUMNS, "moves": MOVE_COLUMNS, "hands": HAND_ROW,
                   "matches": MATCH_ROW, "events": EVENT_COLUMNS}


def _norm(row) -> tuple:
    return tuple(float(v) if type(v).__name__ == "Decimal" else v for v in row)


def local_rows(kiosks: list[Kiosk]) -> dict[str, set]:
    out: dict[str, set] = {t: set() for t in LOCAL_QUERIES}
    for k in kiosks:
        conn = open_readonly(k.db_path)
        try:
            for table, sql in LOCAL_QUERIES.items():
                for row in conn.execute(sql):
                    out[table].add((k.name, *_norm(row)))
        finally:
            conn.close()
    return out


def central_rows(dsn: str) -> dict[str, list]:
    import psycopg

    out: dict[str, list] = {}
    with psycopg.connect(dsn) as conn:
        for table, cols in CENTRAL_COLUMNS.items():
            out[table] = [_norm(r) for r in conn.execute(
                f"SELECT kiosk, {', '.join(cols)} FROM {table}")]
    return out


def assert_central_matches(dsn: str, kiosks: list[Kiosk]) -> None:
    """Row by row: nothing lost, nothing doubled, every changed row at its last value."""
    local = local_rows(kiosks)
    central = central_rows(dsn)
    for table in LOCAL_QUERIES:
        rows = central[table]
        assert len(rows) == len(set(rows)), f"{table}: doubled rows"
        missing = local[table] - set(rows)
        extra = set(rows) - local[table]
        assert not missing and not extra, (
            f"{table}: {len(missing)} local rows not central (e.g. {sorted(missing, key=str)[:2]}),"
            f" {len(extra)} central rows not local (e.g. {sorted(extra, key=str)[:2]})")


def env_with_repo() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
    return env
