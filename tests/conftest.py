"""Shared test helpers: arranging constructed positions and playing random games."""

from __future__ import annotations

import random

import pytest

import games
from games.engine import cards as C
from games.engine.model import Compound


def arrange(game: games.Game, piles: dict[str, str], down: dict[str, int] | None = None,
            **vars) -> games.Game:
    """Lay out a constructed position: ``{"T1": "KS QH", "S": "2C 3C"}`` (bottom to top).

    Piles not named are emptied; ``down`` gives face-down counts; keyword arguments set
    ``game.vars``. History is cleared, so the constructed position is the starting point.
    """
    down = down or {}
    seen: dict[int, int] = {}
    for i, spec in enumerate(game.layout):
        cards = []
        for t in piles.get(spec.id, "").split():
            c = C.parse(t)
            # a second copy of a card in a two-deck game is its deck-1 twin
            k = seen.get(c, 0)
            seen[c] = k + 1
            cards.append(c + 52 * k if c < C.JOKER else c)
        game.cards[i] = cards
        game.down[i] = down.get(spec.id, 0)
    unknown = set(piles) - set(game.index)
    assert not unknown, f"no such piles: {unknown}"
    game.vars.update(vars)
    game.history.clear()
    game._journal.clear()
    game._redo.clear()
    return game


def refused(game: games.Game, move, match: str | None = None) -> None:
    """The engine refuses ``move``: playing it raises IllegalMove, whose reason matches the
    regular expression ``match`` (any reason without one)."""
    with pytest.raises(games.IllegalMove, match=match):
        game.play(move)


def assert_undo_then_redo(game: games.Game, before) -> None:
    """One undo brings back the position whose key was ``before``, one redo the present."""
    now = game.key()
    game.undo()
    assert game.key() == before
    game.redo()
    assert game.key() == now


def dealt(game: games.Game, *piles: str) -> list[tuple[int, int]]:
    """How many cards, and how many of them face down, each of ``piles`` holds: a deal's
    shape in one comparison."""
    return [(len(game.pile(p)), game.down[game.index[p]]) for p in piles]


def play_randomly(game: games.Game, steps: int, rnd: random.Random) -> int:
    """Play up to ``steps`` random legal moves; returns how many were played."""
    played = 0
    for _ in range(steps):
        moves = game.legal_moves()
        if not moves or game.won:
            break
        game.play(rnd.choice(moves))
        played += 1
    return played


def assert_keys_separate_positions(positions, canonical, steps: int) -> None:
    """Random play from each game of ``positions`` (pairs of a game and its random source)
    never meets two positions the solver's key merges while ``canonical`` (the game's own
    exact description of what matters) tells them apart: a key that merged unequal positions
    would let the search skip a position it has not searched."""
    seen: dict[bytes, object] = {}
    for g, rnd in positions:
        for _ in range(steps):
            k, c = g.solver_key(), canonical(g)
            assert seen.setdefault(k, c) == c
            moves = g.legal_moves()
            if not moves:
                break
            g.play(rnd.choice(moves))


def plain_search(game: games.Game, limit: int | None = None, key=None,
                 children=None) -> str | None:
    """``"won"`` or ``"lost"`` by a depth-first search of every legal move from ``game``
    (left untouched), with none of the solver's hooks: the truth the hooks are checked
    against. Positions are told apart by ``key(g)`` (default the exact :meth:`Game.key`);
    ``children(g)`` may give other moves (a :class:`Compound` is made in a row). None once more than
    ``limit`` positions were met."""
    if game.won:
        return "won"
    g = game.clone()
    key = key or (lambda x: x.key())
    children = children or (lambda x: x.legal_moves())
    seen = {key(g)}
    stack = [iter(children(g))]
    made = [0]  # per frame: how many engine moves its current child made

    def undo() -> None:
        for _ in range(made[-1]):
            g.unmake()

    while stack:
        m = next(stack[-1], None)
        if m is None:
            stack.pop()
            made.pop()
            if stack:
                undo()
            continue
        steps = m.moves if type(m) is Compound else (m,)
        for x in steps:
            g.make(x)
        made[-1] = len(steps)
        if g.won:
            return "won"
        k = key(g)
        if k in seen:
            undo()
            continue
        seen.add(k)
        if limit is not None and len(seen) > limit:
            return None
        stack.append(iter(children(g)))
        made.append(0)
    return "lost"


def play_match(game: games.Game, players, most_moves: int) -> None:
    """Play ``game`` to its end with ``players[seat]`` choosing for each seat from that
    seat's view, checking after every move that the move was legal, that no card was lost or
    made, and that the match ends within ``most_moves`` (a loop would never end)."""
    moves = 0
    while game.legal_moves():
        m = players[game.to_move](game.view(game.to_move), game.computer_rng())
        assert m in game.legal_moves(), game.notation(m)
        game.play(m)
        moves += 1
        assert sorted(c for p in game.cards for c in p) == list(range(52))
        assert moves < most_moves


def assert_decisions_ignore_hidden_cards(game: games.Game, game_id: str, seat: int, levels,
                                         hide, deck) -> None:
    """A computer player sees only what a person in its seat would see: each of ``levels``
    decides the same after ``hide(game)`` deals the cards that seat cannot see again, which
    changes nothing of the seat's view and keeps every card of ``deck``."""
    from games.players import player_for

    view = game.view(seat)
    before = {lvl: player_for(game_id, lvl)(view, game.computer_rng()) for lvl in levels}
    hide(game)
    assert sorted(c for p in game.cards for c in p) == sorted(deck)
    assert game.view(seat) == view  # nothing the seat knows has changed
    after = {lvl: player_for(game_id, lvl)(game.view(seat), game.computer_rng())
             for lvl in levels}
    assert after == before


def all_cards(game: games.Game) -> list[int]:
    return sorted(c for pile in game.cards for c in pile)


@pytest.fixture(params=games.ids())
def game_id(request) -> str:
    return request.param
