"""Least privilege: a kiosk's stolen credentials must not let anyone read or rewrite the
rest of the fleet. Each kiosk logs in as its own role; row-level security keys every row
to it."""

from __future__ import annotations

import psycopg
import pytest

from .conftest import central_rows


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


def test_a_kiosk_reads_only_its_own_rows(two):
    a, _b = two
    with _as_kiosk(a) as conn:
        for table in ("plays", "moves"):
            kiosks = {r[0] for r in conn.execute(f"SELECT kiosk FROM {table}")}
            assert kiosks == {"alpha"}, table
        for relation in ("kiosks", "plays_per_day", "game_results", "computer_matches"):
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
            conn.execute("UPDATE plays SET kiosk = 'beta' WHERE kiosk = 'alpha'")
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("INSERT INTO plays (kiosk, id, game, started) VALUES "
                         "('beta', 5, 'klondike', 'x') ON CONFLICT (kiosk, id) DO UPDATE "
                         "SET result = 'won'")
    assert central_rows(fleet_dsn) == before


def test_a_kiosk_deletes_nothing_not_even_its_own(two, fleet_dsn):
    a, _b = two
    before = central_rows(fleet_dsn)
    with _as_kiosk(a) as conn:
        for table in ("plays", "moves", "events", "kiosks", "fleet_schema_version"):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                conn.execute(f"DELETE FROM {table}")
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("TRUNCATE plays")
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("ALTER TABLE plays DISABLE ROW LEVEL SECURITY")
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("CREATE TABLE public.mine (x int)")
    assert central_rows(fleet_dsn) == before


def test_a_report_reader_sees_every_kiosk_and_writes_nothing(two, pg, fleet_dsn):
    with psycopg.connect(fleet_dsn, autocommit=True) as conn:
        conn.execute("CREATE ROLE office LOGIN PASSWORD 'o' IN ROLE fleet_report")
    try:
        with psycopg.connect(pg.dsn(two[0].dbname, "office", "o"), autocommit=True) as conn:
            per_day = conn.execute("SELECT kiosk, sum(plays) FROM plays_per_day "
                                   "GROUP BY kiosk ORDER BY kiosk").fetchall()
            assert per_day == [("alpha", 3), ("beta", 4)]
            game = conn.execute("SELECT game, plays, won FROM game_results").fetchall()
            assert game == [("klondike", 7, 2)]
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                conn.execute("UPDATE plays SET result = 'won'")
    finally:
        with psycopg.connect(fleet_dsn, autocommit=True) as conn:
            conn.execute("DROP OWNED BY office")
            conn.execute("DROP ROLE office")
