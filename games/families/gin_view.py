"""What one seat at the Gin Rummy table sees: its own hand, the discard pile, the sizes of
the stock and the other hand, the cards the other player took from the discard pile (and so
is known to hold), and hands laid open by a knock or at a hand's end (GAMES.md §B2).

Why apart from the rules (games/gin_rummy.py): the view is the only thing a computer player
is handed, so what it holds is checked in one place against what a person in that seat
would see; the game file keeps how a hand is dealt, played and scored.
"""

from __future__ import annotations

from typing import Any

from .gin_scoring import KNOCK_LIMIT
from .seats import View


def seat_view(game: Any, seat: int) -> View:
    """``game``'s table (a :class:`games.gin_rummy.GinRummy`) as ``seat`` sees it."""
    other = 1 - seat
    # a knocker's hand lies open from the knock; the defender's at the hand's end
    done = game.phase in ("done", "match") or (game.phase == "layoff"
                                                and other == game.vars["knocker"])
    info = {
        "hand_no": game.vars["hand_no"], "dealer": game.vars["dealer"],
        "scores": game.vars["scores"], "taken": game.vars["taken"],
        "thrown": game.vars["thrown"], "knock_limit": KNOCK_LIMIT,
        "gin_bonus": game.opts["gin_bonus"], "match": game.opts["match"],
        "result": game.vars["result"] or None, "upcard_offer": game.phase == "offer",
        "knocker": game.vars["knocker"], "melds": game.lying_melds(),
        "laid": game.vars["laid"],
    }
    return View(
        game=game.info.id, seat=seat, to_move=game.to_move, phase=game.phase,
        hand=tuple(game.hand(seat)),
        legal=tuple(game.legal_moves()) if game.to_move == seat else (),
        public={"discard": tuple(game.cards[game.waste])},
        counts={"stock": len(game.cards[game.stock]), "hand": len(game.hand(other))},
        shown={other: tuple(game.hand(other)) if done else game.vars["known"][other]},
        info=info,
    )
