"""Issue 25: a hand against the computer must not be found from what the visitor sees.

Deals numbered 1..999,999 are a public function of their number, so a visitor who noted
their ten cards and the upcard could search the range and read the computer's hand with
``kiosk deal``. The kiosk now deals those hands from a hidden seed of 128 secret bits; what
a visitor or support may be told is the play's reference in the log, from which nobody can
deal, while the log and a saved game still replay the hand exactly."""

from __future__ import annotations

import csv
import io

import pytest

import games
from games.engine.rng import HIDDEN_SEED_BITS, MAX_SEED, Rng, hidden_seed, is_hidden
from kiosk.records import export
from kiosk.records.logsession import LogSession
from kiosk.records.playlog import PlayLog
from kiosk.table.controller import TableController

SEATED = ("gin_rummy", "draw_poker", "follow_the_rules")
#: the deal numbers a visitor's laptop searched (all of them took about 8 minutes)
PUBLIC_RANGE = 999_999


def seen_by_visitor(game: games.Game) -> tuple:
    """What seat 0 sees at the start of the hand: its own cards and the public piles."""
    view = game.view(0)
    return tuple(sorted(view.hand)), tuple(sorted(view.public.items()))


@pytest.mark.parametrize("game_id", SEATED)
def test_a_seated_table_deals_from_a_hidden_seed_outside_every_public_range(game_id):
    seeds = {TableController(game_id).seed for _ in range(8)}
    assert len(seeds) == 8
    for seed in seeds:
        assert is_hidden(seed) and seed > MAX_SEED > PUBLIC_RANGE
    # 128 secret bits: the hidden part of the seeds varies across the whole width
    secrets = [s - (1 << HIDDEN_SEED_BITS) for s in seeds]
    assert max(s.bit_length() for s in secrets) > HIDDEN_SEED_BITS - 8


def test_a_solitaire_keeps_its_public_deal_number():
    assert 1 <= TableController("klondike").seed <= PUBLIC_RANGE
    assert TableController("klondike").reference.isdigit()


def test_the_visitors_cards_match_no_deal_of_the_searched_range():
    """The visitor's attack, on a sample of the range (the whole range is 8 minutes): no
    public deal number shows the visitor's cards, and neither does the seed's low 64 bits
    (the SplitMix state a hidden seed would have fed) nor the shown reference."""
    ctl = TableController("gin_rummy", options={"level": "normal"})
    seen = seen_by_visitor(ctl.game)
    opts = dict(ctl.game.opts)
    assert all(seen_by_visitor(games.new("gin_rummy", n, **opts)) != seen
               for n in range(1, 3001))
    low = ctl.seed & ((1 << 63) - 1) or 1
    assert seen_by_visitor(games.new("gin_rummy", low, **opts)) != seen
    assert ctl.reference == ""  # not logged: nothing to refer to, and no number to deal from


def test_a_hidden_seed_does_not_feed_splitmix():
    seed = hidden_seed(4711)
    ours, splitmix = Rng(seed), object.__new__(Rng)
    Rng.__init__(splitmix, seed)
    assert [ours.next64() for _ in range(4)] != [splitmix.next64() for _ in range(4)]
    deck_a, deck_b = list(range(52)), list(range(52))
    Rng(seed, 1).shuffle(deck_a)
    Rng(seed, 1).shuffle(deck_b)
    assert deck_a == deck_b and sorted(deck_a) == list(range(52))


def test_the_log_and_a_saved_game_replay_a_hidden_hand_exactly(tmp_path, clock):
    db = tmp_path / "plays.db"
    log = PlayLog(db, kiosk="t", clock=clock, min_free_mb=0)
    ctl = TableController("gin_rummy", options={"level": "normal"})
    session = LogSession(log)
    ctl.keep_log(session)
    game = ctl.game
    for _ in range(12):
        if not game.legal_moves():
            break
        move = game.computer_move() if game.to_move != 0 else game.legal_moves()[-1]
        assert ctl.play(move, "touch") is None
    ref = ctl.reference
    assert ref.startswith("P") and ref[1:].isdigit() and int(ref[1:]) < 1000
    session.close("abandoned")
    log.close()

    # the operator's way: export the plays and moves, find the play by its reference
    out = tmp_path / "plays.csv"
    export.export(db, "csv", out, table="plays")
    plays = list(csv.DictReader(io.StringIO(out.read_bytes().decode("utf-8-sig"))))
    (row,) = [r for r in plays if r["id"] == ref[1:]]
    assert row["seed"] == "" and int(row["hidden_seed"]) == ctl.seed
    out = tmp_path / "moves.csv"
    export.export(db, "csv", out, table="moves")
    moves = [r["move"] for r in csv.DictReader(io.StringIO(out.read_bytes().decode("utf-8-sig")))
             if r["play_id"] == ref[1:]]
    assert len(moves) == len(game.history)
    again = games.new("gin_rummy", int(row["hidden_seed"]), level="normal")
    for text in moves:
        again.play(again.parse_move(text))
    assert again.table() == game.table()
    assert again.hand(1) == game.hand(1) and again.cards[again.stock] == game.cards[game.stock]

    loaded = games.from_json(game.to_json())
    assert loaded.seed == ctl.seed and loaded.table() == game.table()
