"""The sync's ordinary life: a first pass, nothing to send, a play that changes after it
was sent, events, and the central schema's version check."""

from __future__ import annotations

import json

import psycopg

from kiosk.fleet import state

from .conftest import assert_central_matches, central_rows


def test_a_pass_sends_every_kiosks_log_exactly_once(make_kiosk, fleet_dsn, capsys):
    a, b = make_kiosk("lobby_a"), make_kiosk("lobby_b")
    a.play(120, moves=7)
    b.play(30, moves=3)
    a.log.event("pin_wrong", {"digits": 4})
    assert a.sync() == 0 and b.sync() == 0
    assert "sent 120 plays, 840 moves, 1 events" in capsys.readouterr().out
    assert_central_matches(fleet_dsn, [a, b])
    # a second pass sends nothing and changes nothing
    assert a.sync() == 0
    assert "sent 0 plays, 0 moves, 0 events" in capsys.readouterr().out
    assert_central_matches(fleet_dsn, [a, b])
    status = state.load_status(a.data_dir)
    assert status.last_ok and status.last_error is None


def test_a_play_that_changes_after_it_was_sent_is_sent_again(make_kiosk, fleet_dsn):
    a = make_kiosk("late")
    open_play = a.play(1, moves=3, finish=False)[0]
    a.play(2)
    assert a.sync() == 0
    assert_central_matches(fleet_dsn, [a])
    assert state.load_cursor(a.data_dir).open == {open_play.id: 3}
    # late moves and the result
    for m in ("T1>T2", "undo", "T3>F1"):
        a.log.move(open_play, m)
    a.log.finish(open_play, "won", score=99, cards_left=0)
    assert a.sync() == 0
    assert_central_matches(fleet_dsn, [a])
    assert state.load_cursor(a.data_dir).open == {}
    rows = central_rows(fleet_dsn)["plays"]
    assert [r for r in rows if r[1] == open_play.id][0][14] == "won"


def test_the_interrupted_mark_of_the_next_start_reaches_the_centre(make_kiosk, fleet_dsn):
    a = make_kiosk("crash")
    a.play(1, moves=4, finish=False)
    assert a.sync() == 0
    a.log.close()  # the kiosk dies mid-play; its next start marks the play interrupted
    a.open_log()
    assert a.log.interrupted_on_open == 1
    assert a.sync() == 0
    assert_central_matches(fleet_dsn, [a])
    assert {r[14] for r in central_rows(fleet_dsn)["plays"]} == {"interrupted"}


def test_a_server_with_another_schema_version_is_refused(make_kiosk, fleet_dsn, pg, capsys):
    a = make_kiosk("versions")
    a.play(3)
    with psycopg.connect(fleet_dsn, autocommit=True) as conn:
        conn.execute("INSERT INTO fleet_schema_version (version) VALUES (99)")
    assert a.sync() == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "schema version 99" in err and "update the kiosk" in err
    assert central_rows(fleet_dsn)["plays"] == []
    with psycopg.connect(fleet_dsn, autocommit=True) as conn:
        conn.execute("DELETE FROM fleet_schema_version WHERE version >= 2")
    assert a.sync() == 1
    err = capsys.readouterr().err
    assert "schema version 1" in err and "kiosk fleet init" in err
    assert json.loads((a.data_dir / state.STATUS_NAME).read_text())["last_error"]


def test_fleet_init_twice_is_a_no_op(fleet_dsn, capsys):
    from kiosk.commands.cli import main

    assert main(["fleet", "init", "--dsn", fleet_dsn]) == 0
    assert "nothing to do" in capsys.readouterr().out


def test_a_hand_dealt_from_a_hidden_seed_reaches_the_centre_whole(make_kiosk, fleet_dsn):
    """A hand against the computer is dealt from 128 secret bits, kept as text (an SQLite
    or bigint column cannot hold it): the centre has the same digits, so the office can
    replay that hand from its rows."""
    import games
    from games.engine.rng import hidden_seed

    a = make_kiosk("seated")
    log = a.log or a.open_log()
    seed = hidden_seed(2**127 + 12345)
    p = log.begin("gin_rummy", seed, {})
    log.finish(p, "lost", score=0, cards_left=None)
    assert a.sync() == 0
    assert_central_matches(fleet_dsn, [a])
    with psycopg.connect(fleet_dsn) as conn:
        got = conn.execute("SELECT seed, hidden_seed FROM plays WHERE game = 'gin_rummy'"
                           ).fetchone()
    assert got == (None, str(seed))
    assert games.new("gin_rummy", int(got[1])).to_json() == games.new("gin_rummy", seed).to_json()
