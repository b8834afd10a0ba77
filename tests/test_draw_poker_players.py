"""Draw Poker computer players: they decide from their seat's view only, always play
legally, keep every card and every chip, and a replay makes the same choices."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import games
from games.draw_poker import DECK, STACK, DrawPoker
from games.engine import cards as C
from games.families.seats import computer_mismatches, replay_visitor
from games.players import player_for
from games.players.poker import standard_hold

from .conftest import assert_decisions_ignore_hidden_cards

LEVELS = ("easy", "normal")


def _reach(seed: int, steps: int, opponents: int, wild: str) -> DrawPoker:
    """A real position after ``steps`` moves of computer play, stopped where a computer
    seat is to move."""
    g = games.new("draw_poker", seed, opponents=opponents, wild=wild)
    normal = player_for("draw_poker", "normal")
    for _ in range(steps):
        if not g.legal_moves():
            break
        g.play(normal(g.view(g.to_move), g.computer_rng()))
    while g.legal_moves() and not g.is_computer(g.to_move):
        g.play(normal(g.view(g.to_move), g.computer_rng()))
    return g


def _hide_differently(g: DrawPoker, rnd: random.Random) -> None:
    """Deal the cards the seat to move cannot see again: the other seats' hands (the
    visitor's too, face up on its own screen), the stock and the face-down discards,
    keeping every size."""
    me = g.to_move
    shown = g.view(me).shown
    hands = [g.hands[s] for s in range(g.n) if s != me and s not in shown]
    hidden = [(p, i) for p in hands for i in range(len(g.cards[p]))]
    hidden += [(p, i) for p in (g.stock, g.waste) for i in range(g.down[p])]
    pool = [g.cards[p][i] for p, i in hidden]
    rnd.shuffle(pool)
    for (p, i), c in zip(hidden, pool, strict=True):
        g.cards[p][i] = c


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(1, 10**6), steps=st.integers(0, 30), opponents=st.integers(1, 4),
       wild=st.sampled_from(("bug", "joker", "deuces", "one_eyed")), shuffle=st.randoms())
def test_hidden_cards_and_the_stock_order_never_change_a_computer_decision(
        seed, steps, opponents, wild, shuffle):
    g = _reach(seed, steps, opponents, wild)
    if not g.legal_moves():
        return
    assert_decisions_ignore_hidden_cards(g, "draw_poker", g.to_move, LEVELS,
                                         lambda game: _hide_differently(game, shuffle), DECK)


def test_the_view_holds_no_hidden_card():
    g = _reach(5, 3, 3, "bug")
    seat = g.to_move
    view = g.view(seat)
    hidden = {c for s in range(g.n) if s != seat for c in g.hand(s)} | set(g.pile("S"))
    values = [*view.hand, *(c for h in view.shown.values() for c in h), *view.info["openers"]]
    assert hidden and not hidden & set(values)


def test_simulated_hands_keep_every_card_and_every_chip():
    for seed, opponents, wild in ((3, 1, "bug"), (4, 5, "deuces"), (5, 3, "one_eyed")):
        g = games.new("draw_poker", seed, opponents=opponents, wild=wild)
        players = [player_for("draw_poker", LEVELS[s % 2]) for s in range(g.n)]
        for _ in range(70):
            if not g.legal_moves():
                break
            m = players[g.to_move](g.view(g.to_move), g.computer_rng())
            assert m in g.legal_moves(), g.notation(m)
            g.play(m)
            assert sorted(c for p in g.cards for c in p) == sorted(DECK)
            assert sum(g.vars["chips"]) + g.vars["pot"] == g.n * STACK
            assert all(c >= 0 for c in g.vars["chips"])
        assert g.vars["results"], "no hand was finished"
        for r in g.vars["results"]:
            assert sum(r["won"]) == r["pot"]


def test_replay_of_the_visitor_moves_gives_the_same_computer_moves():
    g = games.new("draw_poker", 21, opponents=3, level="easy")
    visitor = player_for("draw_poker", "normal")
    moves = []
    g.play_computer()
    for _ in range(25):
        if not g.legal_moves():
            break
        m = visitor(g.view(0), g.computer_rng())
        moves.append(g.notation(m))
        g.play(m)
        g.play_computer()
    twin = replay_visitor(games.new("draw_poker", 21, opponents=3, level="easy"), moves)
    assert twin.history == g.history and computer_mismatches(g) == []
    assert games.from_json(g.to_json()).key() == g.key()


def test_standard_holds():
    def hold(text: str, rule: str = "bug") -> list[str]:
        return sorted(C.text(c) for c in standard_hold(tuple(C.parse(t) for t in text.split()),
                                                       rule))

    assert hold("9C 9D 3H KS 5C") == ["9C", "9D"]
    assert hold("2H 7H 9H KH 5C") == ["2H", "7H", "9H", "KH"]
    assert hold("6C 7D 8H 9S KC") == ["6C", "7D", "8H", "9S"]
    assert hold("6C 7C 8C 9C TC") == ["6C", "7C", "8C", "9C", "TC"]
    assert hold("2C 5D 8H JS AC") == ["AC"]
    assert "2D" in hold("2D 7C 9H 4S JH", "deuces")


def test_the_kiosks_worker_makes_the_move_a_replay_makes():
    """The table's worker decides on a clone (no history): it must draw the randomness of
    the game's own move count, not the first move's."""
    from kiosk.table.gin_turns import ComputerTurns

    for game_id in ("draw_poker", "gin_rummy", "follow_the_rules"):
        g = games.new(game_id, 51)
        while len(g.history) < 6:
            g.play(g.computer_move() if g.is_computer(g.to_move) else g.legal_moves()[0])
        while not g.is_computer(g.to_move):
            g.play(g.legal_moves()[0])
        turns = ComputerTurns(pause=0.0)
        turns.ask(g)
        turns._future.result(timeout=30)
        assert turns.ready(g) == g.computer_move(), game_id
        turns.close()
