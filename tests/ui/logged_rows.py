"""Reading the session app's play log back, as the UI tests check what a visit left."""

from __future__ import annotations

import sqlite3


def db_rows(app, sql: str, params=()) -> list[tuple]:
    """Rows of ``sql`` in the app's play log, after the log has written what it held back
    (a write it retries later is in the file before the test reads)."""
    app.lobby.playlog.retry()
    conn = sqlite3.connect(app.lobby.playlog.path)
    try:
        return conn.execute(sql, params).fetchall()
    finally:
        conn.close()
