"""Gin Rummy's moves as words: their kinds, the cards each carries, the text a saved game
and the command line use, and the short description a log line shows.

Why apart from the rules (games/gin_rummy.py): how a move is written and checked for shape
before it is looked at is the same for any knock-rummy game, and the game file keeps what
a move does.
"""

from __future__ import annotations

from ..engine import cards as C
from ..engine.model import IllegalMove, Move
from ..engine.move_notation import parse_text
from ..engine.reason import Reason
from .seats import move_shape_problem

KINDS = ("stock", "take", "pass", "discard", "knock", "gin", "layoff", "done", "next")
CARD_KINDS = ("discard", "knock", "gin", "layoff")
#: the cards a move of each kind carries (a lay-off: the card and the meld's number)
EXTRAS = {**dict.fromkeys(KINDS, 0), **dict.fromkeys(CARD_KINDS, 1), "layoff": 2}
#: the melds a lay-off may name (a knocker's 10 cards hold three at most; the fourth place
#: is refused by the rules, with a reason, rather than as bad notation)
MAX_MELDS = 4


def parse_move(game_id: str, text: str) -> Move:
    move = parse_text(text, plain=set(KINDS) - set(CARD_KINDS),
                      with_card=set(CARD_KINDS) - {"layoff"}, with_place={"layoff"},
                      places=MAX_MELDS)
    if move is None:
        raise IllegalMove(f"not a move of {game_id}: {text!r}")
    return move


def describe(move: Move, upcard: int | None) -> str:
    """``upcard``: the discard pile's top card, which a ``take`` names (None: empty)."""
    if move.kind == "layoff" and len(move.extra) == 2:
        return f"lay off {C.pretty(move.extra[0])} on meld {move.extra[1] + 1}"
    if move.kind in CARD_KINDS and move.extra:
        return f"{move.kind} {C.pretty(move.extra[0])}"
    if move.kind == "take" and upcard is not None:
        return f"take {C.pretty(upcard)}"
    return move.kind


def malformed(move: Move) -> Reason | None:
    problem = move_shape_problem(move, EXTRAS, Reason(
        "In Gin Rummy you draw a card, then discard one."))
    if problem is None and move.kind == "layoff" and move.extra[1] >= MAX_MELDS:
        return Reason("That is not a move.")
    return problem
