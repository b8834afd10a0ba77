"""No poison row (issue 32): a row the centre refuses for what it holds is set aside on
the kiosk with the server's reason, told to the centre as an event, and the pass goes on
with the rest; before, one such row stopped every later pass at that row for ever."""

from __future__ import annotations

import json
import sqlite3

import psycopg

from kiosk.commands.cli import main
from kiosk.fleet import state

from .conftest import central_rows


def _spoil(k, sql: str, *params) -> None:
    """Change the kiosk's log behind PlayLog's back (SQLite keeps any type in any column)."""
    conn = sqlite3.connect(k.db_path)
    with conn:
        conn.execute(sql, params)
    conn.close()


def test_a_seed_that_is_not_a_number_is_set_aside(make_kiosk, fleet_dsn, capsys):
    k = make_kiosk("poisoned")
    k.play(120, moves=3)  # three batches of 50
    _spoil(k, "UPDATE plays SET seed = 'not-a-number' WHERE id = 57")
    assert k.sync() == 0
    out, err = capsys.readouterr()
    assert "sent" in out and "set aside 1 rows the centre refused" in out, out + err
    plays = {r[1] for r in central_rows(fleet_dsn)["plays"] if r[0] == "poisoned"}
    assert plays == set(range(1, 121)) - {57}
    moves = {r[1] for r in central_rows(fleet_dsn)["moves"] if r[0] == "poisoned"}
    assert 57 not in moves and len(moves) == 119
    aside = json.loads((k.data_dir / state.SET_ASIDE_NAME).read_text())["rows"]
    assert [(r["table"], r["id"], r["sent"]) for r in aside] == [("plays", 57, True)]
    assert "seed" in aside[0]["reason"] and "numeric" in aside[0]["reason"]
    status = state.load_status(k.data_dir)
    assert status.set_aside == 1 and status.last_error is None
    with psycopg.connect(fleet_dsn) as conn:
        kind, detail = conn.execute("SELECT kind, detail FROM events WHERE kiosk = 'poisoned'"
                                    " AND id < 0").fetchone()
    assert kind == "sync_set_aside" and json.loads(detail)["id"] == 57
    assert "numeric" in json.loads(detail)["reason"]
    # the office sees it once, with the reason
    code = main(["fleet", "status", "--dsn", fleet_dsn])
    out = capsys.readouterr().out
    assert code == 1 and "1 row the centre refused, set aside on the kiosk" in out
    assert "plays 57: column seed" in out
    # later passes go on, and do not send it again
    k.play(2)
    assert k.sync() == 0
    assert "sent 2 plays" in capsys.readouterr().out
    assert main(["fleet", "status", "--dsn", fleet_dsn]) == 0
    assert len(json.loads((k.data_dir / state.SET_ASIDE_NAME).read_text())["rows"]) == 1


def test_a_bad_move_sets_its_play_aside_and_a_bad_event_itself(make_kiosk, fleet_dsn, capsys):
    k = make_kiosk("bad-rows")
    k.play(6, moves=4)
    for n in range(4):
        k.log.event("pin_wrong", {"n": n})
    _spoil(k, "UPDATE moves SET t = 'soon' WHERE play_id = 2 AND seq = 3")
    _spoil(k, "UPDATE events SET mono = 'later' WHERE id = 3")
    assert k.sync() == 0
    assert "set aside 2 rows" in capsys.readouterr().out
    rows = central_rows(fleet_dsn)
    assert sorted(r[1] for r in rows["plays"] if r[0] == "bad-rows") == [1, 3, 4, 5, 6]
    assert sorted(r[1] for r in rows["events"] if r[0] == "bad-rows") == [-2, -1, 1, 2, 4]
    aside = state.load_set_aside(k.data_dir)
    assert [(r.table, r.id) for r in aside] == [("plays", 2), ("events", 3)]
    assert "column t" in aside[0].reason and "column mono" in aside[1].reason


def test_a_centre_that_refuses_every_row_sets_nothing_aside(make_kiosk, fleet_dsn, capsys):
    """When no row of a batch gets through, the fault is the centre's: the pass fails and
    the rows wait (a person at the office fixes the server, not the kiosk's rows)."""
    k = make_kiosk("refused")
    k.play(3)
    with psycopg.connect(fleet_dsn, autocommit=True) as conn:
        conn.execute("ALTER TABLE plays ADD CONSTRAINT no_refused CHECK (kiosk <> 'refused')"
                     " NOT VALID")
    assert k.sync() == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "refuses every row of the batch" in err
    assert state.load_set_aside(k.data_dir) == []
    with psycopg.connect(fleet_dsn, autocommit=True) as conn:
        conn.execute("ALTER TABLE plays DROP CONSTRAINT no_refused")
    assert k.sync() == 0
    assert len([r for r in central_rows(fleet_dsn)["plays"] if r[0] == "refused"]) == 3
