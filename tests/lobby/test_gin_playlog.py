"""The play log keeps each hand and match against the computer (scores, winner, level,
version); stats and export include them."""

from __future__ import annotations

import csv
import io
import json
import sqlite3

import games
from games.gin_rummy import GinRummy
from games.players.gin import baseline, normal
from kiosk.records import export, stats
from kiosk.records.playlog import PlayLog

from .conftest import log_visit, rows


def _match(db_path, clock, seed: int = 8):
    """A whole match to 100, the visitor's seat played by the baseline, in a fresh log."""
    g = games.new("gin_rummy", seed, match="points_100", level="normal")

    def moves():
        while g.legal_moves():
            who = baseline if g.to_move == 0 else normal
            yield who(g.view(g.to_move), g.computer_rng())

    return g, log_visit(db_path, clock, "gin_rummy", seed, g, moves())


def test_each_hand_and_the_match_are_rows_with_level_and_version(db_path, clock):
    g, play = _match(db_path, clock)
    results = g.vars["results"]
    hands = rows(db_path, "SELECT seq, kind, winner, points, visitor_score, computer_score, "
                          "level, computer_version, detail FROM hands ORDER BY seq")
    assert [h[0] for h in hands] == list(range(1, len(results) + 1))
    assert [h[1] for h in hands] == [r.kind for r in results]
    assert hands[-1][4:6] == g.vars["scores"]
    assert {h[6:8] for h in hands} == {("normal", GinRummy.computer_version)}
    assert json.loads(hands[0][8])["kind"] == results[0].kind
    (match,) = rows(db_path, "SELECT play_id, game, winner, visitor_score, computer_score, "
                             "hands, level, computer_version FROM matches")
    a, b = g.final_scores
    assert match == (play.id, "gin_rummy", "visitor" if a > b else "computer", a, b,
                     len(results), "normal", GinRummy.computer_version)


def test_stats_and_export_include_hands_and_matches(db_path, clock, tmp_path):
    g, _ = _match(db_path, clock)
    with export.snapshot(db_path) as conn:
        data = stats.stats(conn, clock=clock)
    seated = data["against_computer"]["gin_rummy (normal)"]
    won = sum(1 for r in g.vars["results"] if r.winner == 0)
    assert seated["matches"] == 1 and seated["matches_won"] == int(g.won)
    assert seated["hands"] == len(g.vars["results"]) and seated["hands_won"] == won
    assert "against the computer" in stats.format_text(data)
    out = tmp_path / "hands.csv"
    assert export.export(db_path, "csv", out, table="hands") == len(g.vars["results"])
    table = list(csv.DictReader(io.StringIO(out.read_bytes().decode("utf-8-sig"))))
    assert table[0]["level"] == "normal" and table[0]["computer_version"] == GinRummy.computer_version
    stick = tmp_path / "stick"
    stick.mkdir()
    res = export.export_to_usb(db_path, mount=stick, kiosk_name="t")
    assert [p.name for p in res.files] == ["plays.csv", "moves.csv", "hands.csv",
                                           "matches.csv"]


def test_a_log_from_before_the_hands_table_exports_no_rows(db_path, clock, tmp_path):
    PlayLog(db_path, kiosk="t", clock=clock, min_free_mb=0).close()
    conn = sqlite3.connect(db_path)
    conn.execute("DROP TABLE hands")
    conn.commit()
    conn.close()
    assert export.export(db_path, "csv", tmp_path / "h.csv", table="hands") == 0
    with export.snapshot(db_path) as c:
        assert stats.stats(c, clock=clock)["against_computer"] == {}


def test_hand_rows_are_exported_safe_for_spreadsheets(db_path, clock, tmp_path):
    _match(db_path, clock)
    conn = sqlite3.connect(db_path)
    with conn:
        conn.execute("UPDATE hands SET kind = '=1+1', detail = '@SUM(A1)'")
    conn.close()
    out = tmp_path / "hands.csv"
    export.export(db_path, "csv", out, table="hands")
    first = next(csv.DictReader(io.StringIO(out.read_bytes().decode("utf-8-sig"))))
    assert first["kind"] == "'=1+1" and first["detail"] == "'@SUM(A1)"
