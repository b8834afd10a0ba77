"""Every legal move of every game can be made by touch, with no per-game code.

For positions along a random game of each registered game, each legal move must be
reachable: a card move by dragging its card onto the target, a move out of the stock by
tapping the stock, a move that touches no pile by a bar button, and any other kind by
tapping its piles in turn (select, then complete).
"""

from __future__ import annotations

import random

import pytest

import games
from games.families.seats import SeatedGame
from kiosk.table.controller import TableController
from kiosk.table.touch import Interaction, piles_of

#: the games of the pile table (Gin Rummy has its own hand table: tests/ui/test_gin_table.py;
#: Draw Poker has no table yet and is not offered)
PILE_TABLE_GAMES = [g for g in games.ids() if not issubclass(games.game_class(g), SeatedGame)]


def reachable(ctl: TableController, move: games.Move) -> bool:
    g = ctl.game
    if move.kind == "move":
        index = len(g.cards[move.src]) - move.n
        if Interaction(ctl).drag_targets(move.src, index).get(move.dst) == move:
            return True
    if not piles_of(move):
        return move in ctl.actions() or (move.kind == "deal" and bool(g.roles.get("stock")))
    played: list[games.Move] = []
    real = ctl.play
    ctl.play = lambda m, source="tap", **kw: played.append(m)  # type: ignore[method-assign]
    try:
        if move.src >= 0 and g.layout[move.src].role == "stock":
            Interaction(ctl).tap(move.src, len(g.cards[move.src]) - 1)
            if played and played[0].src == move.src:
                return True
            played.clear()
        ia = Interaction(ctl)
        for k, pile in enumerate(p for p in (move.src, move.dst, *move.extra) if p >= 0):
            size = len(g.cards[pile])
            depth = move.n if k == 0 and 1 < move.n <= size else 1
            ia.tap(pile, size - depth)
            if played:
                break
    finally:
        ctl.play = real  # type: ignore[method-assign]
    return bool(played) and (played[0] == move or piles_of(played[0]) == piles_of(move))


@pytest.mark.parametrize("game_id", PILE_TABLE_GAMES)
def test_every_legal_move_is_reachable_by_touch(game_id):
    ctl = TableController(game_id, 5, autoplay=False)
    rnd = random.Random(game_id)
    for _ in range(40):
        moves = ctl.game.legal_moves()
        if not moves:
            break
        missing = [ctl.game.notation(m) for m in moves if not reachable(ctl, m)]
        assert not missing, f"{game_id}: no touch makes {missing}"
        ctl.game.play(rnd.choice(moves))
