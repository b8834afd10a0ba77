"""Lean on the server (issue 32): a pass with nothing to send leaves the catalogue alone
(before: five temporary tables made and dropped by every pass, 1,420 pg_attribute rows
churned in 10 idle passes), and `fleet status` is one query whatever the fleet's size."""

from __future__ import annotations

import psycopg

from kiosk.fleet import health

from .pgserver import wait_until


def _attribute_churn(dsn: str) -> int:
    """Rows inserted into and deleted from pg_attribute in this database so far (each
    backend's figures reach the statistics when it exits)."""
    with psycopg.connect(dsn, autocommit=True) as conn:
        return conn.execute("SELECT n_tup_ins + n_tup_del FROM pg_stat_sys_tables"
                            " WHERE relname = 'pg_attribute'").fetchone()[0]


def _no_kiosk_session(pg, role: str) -> bool:
    with pg.admin() as conn:
        return not conn.execute("SELECT 1 FROM pg_stat_activity WHERE usename = %s",
                                (role,)).fetchone()


def test_an_idle_pass_makes_no_temporary_tables(make_kiosk, fleet_dsn, pg):
    k = make_kiosk("idle")
    k.play(3)
    assert k.sync() == 0
    assert wait_until(lambda: _no_kiosk_session(pg, k.role))
    before = _attribute_churn(fleet_dsn)
    for _ in range(10):
        assert k.sync() == 0
    assert wait_until(lambda: _no_kiosk_session(pg, k.role))
    assert wait_until(lambda: _attribute_churn(fleet_dsn) == before, timeout=3), (
        _attribute_churn(fleet_dsn) - before)
    # a pass with something to send makes its staging tables, once
    k.play(1)
    assert k.sync() == 0
    assert wait_until(lambda: _no_kiosk_session(pg, k.role))
    assert wait_until(lambda: _attribute_churn(fleet_dsn) > before, timeout=5)


class _Counting:
    """A connection that counts the statements sent through it."""

    def __init__(self, conn) -> None:
        self.conn, self.statements = conn, 0

    def execute(self, *args, **kw):
        self.statements += 1
        return self.conn.execute(*args, **kw)

    def transaction(self):
        return self.conn.transaction()


def test_fleet_status_is_one_query_whatever_the_fleet(make_kiosk, fleet_dsn):
    kiosks = [make_kiosk(f"lobby{n}") for n in range(6)]
    for k in kiosks:
        k.play(1)
        assert k.sync() == 0
    with psycopg.connect(fleet_dsn, autocommit=True) as conn:
        counting = _Counting(conn)
        looked = health.assess(counting, remember=False)
        assert len(looked) == 6 and counting.statements == 1
        counting.statements = 0
        health.assess(counting, remember=True)
        assert counting.statements == 2  # and one statement to remember the look
        assert conn.execute("SELECT count(*) FROM status_looks").fetchone()[0] == 6
