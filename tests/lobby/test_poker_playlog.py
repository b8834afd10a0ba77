"""Draw Poker in the play log: one ``hands`` row per hand with the chips after it, who took
the pot, the computer level and version; one ``matches`` row when the visit is over; stats
and export include them."""

from __future__ import annotations

import json

import games
from games.players import player_for
from kiosk.records import export, stats
from kiosk.records.playlog import PlayLog

from .conftest import log_visit, rows


def _visit(db_path, clock, seed: int = 6):
    """Heads-up, the visitor's seat played by the easy player, in a fresh log; after the
    first hand the visitor is down to 15 chips, so the visit ends within a few hands."""
    g = games.new("draw_poker", seed, opponents=1, level="normal")
    easy = player_for("draw_poker", "easy")

    def moves():
        for _ in range(400):
            if g.phase == "over":
                break
            if g.phase == "done" and len(g.vars["results"]) == 1:
                chips = g.vars["chips"]
                g.vars["chips"] = (15, chips[1])
            yield easy(g.view(0), g.computer_rng()) if g.to_move == 0 else g.computer_move()

    return g, log_visit(db_path, clock, "draw_poker", seed, g, moves())


def test_each_hand_is_a_row_with_chips_winner_level_and_version(db_path, clock):
    g, play = _visit(db_path, clock)
    results = g.vars["results"]
    assert g.phase == "over" and len(results) > 1
    hands = rows(db_path, "SELECT seq, winner, points, visitor_score, computer_score, level, "
                          "computer_version, detail FROM hands ORDER BY seq")
    assert [h[0] for h in hands] == list(range(1, len(results) + 1))
    for h, r in zip(hands, results, strict=True):
        assert h[1] == ", ".join(g.seat_word(s) for s in r["winners"])
        assert h[2] == r["pot"] and (h[3], h[4]) == tuple(r["chips"])
        assert json.loads(h[7])["chips"] == list(r["chips"])
    assert hands[-1][3:5] == tuple(g.vars["chips"])
    assert {h[5:7] for h in hands} == {("normal", "poker-2")}
    (match,) = rows(db_path, "SELECT play_id, game, winner, visitor_score, computer_score, "
                             "hands, level, computer_version FROM matches")
    assert match == (play.id, "draw_poker", "visitor" if g.won else "computer",
                     g.vars["chips"][0], g.vars["chips"][1], len(results), "normal",
                     "poker-2")


def test_stats_and_export_include_the_poker_hands(db_path, clock, tmp_path):
    g, _ = _visit(db_path, clock)
    with export.snapshot(db_path) as conn:
        data = stats.stats(conn, clock=clock)
    seated = data["against_computer"]["draw_poker (normal)"]
    assert seated["hands"] == len(g.vars["results"]) and seated["matches"] == 1
    assert seated["hands_won"] == sum(r["winners"] == (0,) for r in g.vars["results"])
    assert export.export(db_path, "csv", tmp_path / "h.csv", table="hands") == \
        len(g.vars["results"])


def test_a_split_pot_the_visitor_shares_is_a_drawn_hand_not_a_lost_one(db_path, clock):
    log = PlayLog(db_path, kiosk="t", clock=clock, min_free_mb=0)
    play = log.begin("draw_poker", 9, {"opponents": 2, "level": "easy"})
    for winner in ("visitor", "visitor, computer 2", "computer 1, computer 2", "computer 1"):
        log.hand(play, {"kind": "showdown", "winner": winner, "points": 10, "level": "easy"})
    log.finish(play, "lost", score=990)
    log.close()
    with export.snapshot(db_path) as conn:
        seated = stats.stats(conn, clock=clock)["against_computer"]["draw_poker (easy)"]
    assert (seated["hands_won"], seated["hands_drawn"], seated["hands_lost"]) == (1, 1, 2)
