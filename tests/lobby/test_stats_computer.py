"""Statistics of the games against the computer: matches and hands by computer level, a
split pot the visitor shared as a tie (never a loss), and for Draw Poker the chips the
visitor won and lost, hand by hand; today as well as all time; `kiosk stats` prints them."""

from __future__ import annotations

from datetime import timedelta

from games.draw_poker import STACK
from kiosk.commands import cli
from kiosk.records import export, stats
from kiosk.records.playlog import PlayLog


def _poker(log: PlayLog, level: str, hands: list[tuple[str, int]], *, over: str = "") -> None:
    """One visit to the poker table: ``hands`` as (who took the pot, the visitor's chips
    after the hand); ``over``: the match's winner when the visit ended."""
    play = log.begin("draw_poker", 9, {"opponents": 2, "level": level})
    for winner, chips in hands:
        log.hand(play, {"kind": "showdown", "winner": winner, "points": 40, "level": level,
                        "visitor_score": chips, "computer_score": 3 * STACK - chips})
    if over:
        log.match(play, {"game": "draw_poker", "winner": over, "level": level,
                         "visitor_score": hands[-1][1], "hands": len(hands)})
    log.finish(play, "won" if over == "visitor" else "lost", score=hands[-1][1])


def _data(db_path, clock) -> dict:
    with export.snapshot(db_path) as conn:
        return stats.stats(conn, clock=clock)


def test_poker_chips_won_and_lost_hand_by_hand_by_level(db_path, clock):
    log = PlayLog(db_path, kiosk="t", clock=clock, min_free_mb=0)
    _poker(log, "normal", [("visitor", STACK + 30), ("computer 1", STACK + 10),
                           ("visitor, computer 2", STACK + 10)], over="visitor")
    _poker(log, "normal", [("computer 2", STACK - 15)])  # a new visit starts at the stack
    _poker(log, "easy", [("computer 1, computer 2", STACK - 40)], over="computer")
    log.close()
    data = _data(db_path, clock)
    normal = data["against_computer"]["draw_poker (normal)"]
    assert (normal["game"], normal["level"]) == ("draw_poker", "normal")
    assert (normal["chips_won"], normal["chips_lost"]) == (30, 20 + 15)
    assert (normal["hands"], normal["hands_won"], normal["hands_lost"],
            normal["hands_drawn"]) == (4, 1, 2, 1)
    assert (normal["matches"], normal["matches_won"]) == (1, 1)
    easy = data["against_computer"]["draw_poker (easy)"]
    # two computer players splitting the pot is a hand the visitor lost
    assert (easy["hands_lost"], easy["hands_drawn"], easy["chips_lost"]) == (1, 0, 40)
    assert (easy["matches"], easy["matches_won"]) == (1, 0)


def test_games_for_points_have_no_chips(db_path, clock):
    log = PlayLog(db_path, kiosk="t", clock=clock, min_free_mb=0)
    play = log.begin("gin_rummy", 3, {"level": "easy"})
    log.hand(play, {"kind": "knock", "winner": "visitor", "points": 12, "level": "easy",
                    "visitor_score": 12, "computer_score": 0})
    log.finish(play, "abandoned", score=12)
    log.close()
    gin = _data(db_path, clock)["against_computer"]["gin_rummy (easy)"]
    assert gin["hands_won"] == 1 and "chips_won" not in gin


def test_today_counts_todays_visits_only(db_path, clock):
    log = PlayLog(db_path, kiosk="t", clock=clock, min_free_mb=0)
    _poker(log, "normal", [("computer 1", STACK - 100)])
    clock.advance(timedelta(days=1).total_seconds())
    _poker(log, "normal", [("visitor", STACK + 60)])
    log.close()
    data = _data(db_path, clock)
    every, today = (data[k]["draw_poker (normal)"] for k in ("against_computer",
                                                              "against_computer_today"))
    assert (every["hands"], every["chips_won"], every["chips_lost"]) == (2, 60, 100)
    assert (today["hands"], today["chips_won"], today["chips_lost"]) == (1, 60, 0)


def test_kiosk_stats_prints_the_chips(db_path, clock, capsys):
    log = PlayLog(db_path, kiosk="t", clock=clock, min_free_mb=0)
    _poker(log, "normal", [("visitor", STACK + 25), ("computer 1", STACK - 5)])
    log.close()
    assert cli.main(["stats", "--db", str(db_path)]) == 0
    out = capsys.readouterr().out.splitlines()
    head = next(k for k, line in enumerate(out) if line.startswith("against the computer"))
    assert out[head].split()[-4:] == ["chips", "+", "chips", "-"]
    row = out[head + 1].split()
    assert row[:2] == ["draw_poker", "(normal)"] and row[-2:] == ["25", "30"]
