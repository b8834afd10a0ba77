"""The normal Draw Poker player's betting rules (poker-2), on constructed views: what the
others' draws and bets say, pot odds that count what a dropper pays anyway, value raises,
and no raise that stakes much of a short stack without a near-sure hand."""

from __future__ import annotations

from games.engine import cards as C
from games.engine.model import Move
from games.engine.rng import Rng
from games.families.seats import View
from games.players import poker
from games.players.poker_odds import read_chance

CHECKED_TO, FACING = (Move("check"), Move("bet")), (Move("drop"), Move("call"), Move("raise"))


def _view(hand: str, *, round_no: int = 1, drawn=(-1, -1), bets=(0, 20), level: int = 20,
          pot: int = 41, chips=(1000, 1000), opener: int = 1, raised=(False, False),
          legal=FACING, discarded: str = "") -> View:
    """Seat 0 to bet, heads-up against seat 1 (the dealer is seat 1, so seat 0 spoke
    first in the open)."""
    info = {"seats": 2, "hand_no": 1, "dealer": 1, "chips": chips, "pot": pot, "bets": bets,
            "level": level, "round": round_no, "unit": (10, 20)[round_no],
            "live": (True, True), "raised": raised, "opener": opener, "drawn": drawn,
            "discarded": tuple(C.parse(t) for t in discarded.split()), "wild": "bug",
            "droppers_pay_open": True, "openers": (), "result": None}
    return View(game="draw_poker", seat=0, to_move=0, phase="bet",
                hand=tuple(C.parse(t) for t in hand.split()), legal=legal,
                counts={"stock": 40, "hand1": 5}, info=info)


def _moves(view: View, seeds: range = range(1, 13)) -> list[str]:
    return [poker.normal(view, Rng(seed, 7)).kind for seed in seeds]


def test_a_stand_pat_is_read_as_a_made_hand():
    aces = "AC AD 9H 5S 2C"
    after_three = _view(aces, drawn=(3, 3), discarded="KH 7D 4C")
    after_pat = _view(aces, drawn=(3, 0), discarded="KH 7D 4C")
    assert read_chance(after_three, Rng(1, 1), 90) > 0.5
    assert read_chance(after_pat, Rng(1, 1), 90) < 0.2


def test_the_opener_is_read_as_holding_openers():
    eights = "8C 8D KH 5S 2C"
    facing_open = _view(eights, round_no=0, bets=(0, 10), level=10, pot=11, opener=1)
    nobody = _view(eights, round_no=0, bets=(0, 10), level=10, pot=11, opener=-1)
    assert read_chance(facing_open, Rng(2, 1), 90) < read_chance(nobody, Rng(2, 1), 90) - 0.1


def test_calls_the_open_when_dropping_would_pay_it_anyway():
    # nothing at all against an opener: dropping costs the same 10 as calling
    view = _view("2C 7D 9H 4S JH", round_no=0, bets=(0, 10), level=10, pot=11)
    assert set(_moves(view)) == {"call"}


def test_drops_a_small_pair_to_a_bet_from_a_stand_pat():
    view = _view("3C 3D 9H 5S KC", drawn=(3, 0), discarded="QH 7D 4C")
    assert set(_moves(view)) == {"drop"}


def test_raises_a_full_house_after_the_draw_most_of_the_time():
    moves = _moves(_view("KC KD KH 5S 5C", drawn=(2, 3), discarded="8H 2D"))
    assert "drop" not in moves and moves.count("raise") >= 8


def test_bets_a_strong_hand_when_checked_to_and_checks_a_weak_one():
    strong = _moves(_view("KC KD KH 5S 5C", drawn=(2, 3), bets=(0, 0), level=0, legal=CHECKED_TO))
    weak = _moves(_view("2C 7D 9H 4S JH", drawn=(3, 3), bets=(0, 0), level=0, legal=CHECKED_TO,
                        discarded="QH 8D 3C"))
    assert strong.count("bet") >= 9 and weak.count("check") >= 10


def test_never_raises_a_good_but_unsure_hand_with_a_short_stack(monkeypatch):
    view = _view("QC QD 9H 9S 2C", drawn=(1, 3), chips=(150, 1000), discarded="7H")
    monkeypatch.setattr(poker, "read_chance", lambda view, rng, samples: 0.7)
    assert "raise" not in _moves(view, range(1, 41))
    rich = _view("QC QD 9H 9S 2C", drawn=(1, 3), discarded="7H")
    assert "raise" in _moves(rich, range(1, 41))
