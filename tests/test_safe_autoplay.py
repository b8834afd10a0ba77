"""The moves a game volunteers must be moves it allows.

The table plays ``safe_autoplay()`` for the visitor and the solver plays ``solver_autoplay()``
and ``solver_moves()`` unchecked (through the engine's ``make``), so a move there that
``play()`` would refuse is a refused autoplay on the screen, or a solver line (a hint, a
winnable deal) that cannot be replayed. Checked on every game with every combination of its
options, at every step of random play, and on the solver's own searches.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import games
from games import Game, Move
from games.engine.model import Compound
from games.search import mixin_for, searchable
from games.solver import solve

from .conftest import play_randomly
from .test_move_fuzz import CASES, OPTION_SETS, _case_id

GRAND_PIANO_STRICT = dict(strict_rescue_loss=True, pile_size=4, building="any",
                          empty_pile="waste_reserve", redeals=0)


def _offered_moves(g: Game) -> list[tuple[str, Move | Compound]]:
    """What the game volunteers here: its safe move and the solver's (which may be a tuple
    of moves made in a row, a Compound; the solver's other moves are checked in its searches, below)."""
    out = [("safe_autoplay", g.safe_autoplay()),
           ("solver_autoplay", searchable(g).solver_autoplay())]
    return [(name, m) for name, m in out if m is not None]


def assert_offers_are_legal(g: Game, steps: int, rnd: random.Random) -> None:
    """Random play; at every step each offered move is legal and plays (then taken back)."""
    for _ in range(steps):
        for name, offer in _offered_moves(g):
            made = 0
            for m in offer.moves if type(offer) is Compound else (offer,):
                assert m in g.legal_moves(), \
                    f"{g.info.id}: {name}() offered {g.notation(m)} after " \
                    f"{len(g.history)} moves: {g.why_illegal(m)}"
                g.play(m)
                made += 1
            for _ in range(made):
                g.undo()
        legal = g.legal_moves()
        if not legal or g.won:
            return
        g.play(rnd.choice(legal))


def test_grand_piano_offers_no_safe_move_once_the_strict_rescue_is_lost():
    """The failure as found: seed 13 with the strict end is lost at once after its rescue,
    and a foundation move was still offered by both safe-move hooks."""
    rnd = random.Random(4)
    g = games.new("grand_piano_fragment", 13, **GRAND_PIANO_STRICT)
    while g.legal_moves():
        g.play(rnd.choice(g.legal_moves()))
    assert g.lost and not g.won  # the position the bug needs: lost, cards still to go home
    assert any(g.accepts(f, s, 1) for s in g.tableau for f in g.foundations)
    assert g.safe_autoplay() is None
    assert searchable(g).solver_autoplay() is None


@pytest.mark.parametrize("case", CASES, ids=[_case_id(c) for c in CASES])
def test_offered_moves_are_legal_in_random_play(case):
    gid, opts = case
    rnd = random.Random(_case_id(case))
    g = games.new(gid, rnd.randrange(1, 10**6), **opts)
    assert_offers_are_legal(g, 150, rnd)


@pytest.mark.slow
@pytest.mark.parametrize("gid", games.ids())
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_offered_moves_are_legal_in_long_random_play(gid, data):
    opts = data.draw(st.sampled_from(OPTION_SETS[gid]), label="options")
    g = games.new(gid, data.draw(st.integers(1, 10**9), label="seed"), **opts)
    assert_offers_are_legal(g, 400, random.Random(data.draw(st.integers(0, 2**32))))


def install_checked_clone(monkeypatch) -> list[Move]:
    """Every search runs on a clone; here each clone checks, before its unchecked ``make``,
    that the move is one of :meth:`legal_moves` of the position (the compound moves' single
    steps included) and the game not already won: what ``play()`` would accept. Returns the
    list of the moves checked."""
    checked: list[Move] = []
    original = Game.clone

    def clone(self: Game) -> Game:
        twin = original(self)
        twin.__dict__.pop("make", None)  # a clone of a checked clone checks its own moves
        push = twin.make
        legal_here: dict[bytes, frozenset[Move]] = {}  # by_score pushes many from one place

        def checked_make(move: Move) -> None:
            k = twin.key()
            legal = legal_here.get(k)
            if legal is None:
                if len(legal_here) > 64:
                    legal_here.clear()
                legal = legal_here[k] = frozenset(twin.legal_moves())
            assert not twin.won and move in legal, \
                f"{twin.info.id}: the solver played {twin.notation(move)} after " \
                f"{len(twin.history)} moves of its line: {twin.why_illegal(move)}"
            checked.append(move)
            push(move)

        twin.make = checked_make  # type: ignore[method-assign]
        return twin

    monkeypatch.setattr(Game, "clone", clone)
    return checked


@pytest.fixture
def checked_solver(monkeypatch) -> list[Move]:
    return install_checked_clone(monkeypatch)


def _search_and_replay(game: Game, nodes: int) -> None:
    found = solve(game, max_nodes=nodes)
    if found.won:
        replay = games.from_json(game.to_json())
        for m in found.moves:
            replay.play(m)
        assert replay.won, f"{game.info.id}: the solver's winning line does not win"


#: the slow solver check takes every option set of a game up to this many, else an even
#: spread of them (Poker Squares' 72 sets differ mostly in scoring and its planner is not
#: bounded by the node budget: all of them cost minutes of CI for little)
MOST_SOLVER_SETS = 12


def _solver_cases(every_option: bool) -> list[tuple[str, dict]]:
    if every_option:
        out = []
        for gid in games.ids():
            sets = OPTION_SETS[gid]
            step = max(1, -(-len(sets) // MOST_SOLVER_SETS))
            out += [(gid, opts) for opts in sets[::step]]
        return out
    return [(gid, opts) for gid in games.ids() for opts in OPTION_SETS[gid][::-4][:2]]


@pytest.mark.parametrize("case", _solver_cases(False),
                         ids=[_case_id(c) for c in _solver_cases(False)])
def test_solver_plays_only_moves_play_accepts(case, checked_solver):
    gid, opts = case
    rnd = random.Random(_case_id(case))
    for steps in (0, 40):
        g = games.new(gid, rnd.randrange(1, 10**6), **opts)
        play_randomly(g, steps, rnd)
        _search_and_replay(g, 400)


@pytest.mark.slow
@pytest.mark.parametrize("case", _solver_cases(True), ids=[_case_id(c) for c in _solver_cases(True)])
def test_solver_plays_only_moves_play_accepts_with_many_options(case, checked_solver):
    gid, opts = case
    rnd = random.Random(_case_id(case))
    g = games.new(gid, rnd.randrange(1, 10**6), **opts)
    play_randomly(g, rnd.choice((0, 60)), rnd)
    _search_and_replay(g, 400)


def _summary(found) -> tuple:
    return found.result, found.moves, found.nodes, found.positions


def test_a_checked_search_is_the_same_search(monkeypatch):
    """The check only looks: every game's checked search visits the same nodes and finds the
    same line as its plain search."""
    plain = {gid: _summary(solve(games.new(gid, 7), max_nodes=500)) for gid in games.ids()}
    checked = install_checked_clone(monkeypatch)
    for gid in games.ids():
        assert _summary(solve(games.new(gid, 7), max_nodes=500)) == plain[gid], gid
    assert checked


def test_the_check_fails_on_a_move_play_refuses(checked_solver, monkeypatch):
    g = games.new("klondike", 7)
    n = len(g.layout)
    bad = next(m for m in (Move("move", s, d) for s in range(n) for d in range(n))
               if g.why_illegal(m) is not None)
    monkeypatch.setattr(mixin_for(type(g)), "solver_autoplay", lambda self: bad)
    with pytest.raises(AssertionError, match="the solver played"):
        solve(g, max_nodes=10)
