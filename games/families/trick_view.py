"""What one seat at the Follow the Rules table sees (GAMES.md §B6).

Why apart from the rules (games/follow_the_rules.py): the view is the only thing a computer
player is handed, so what it holds is checked in one place against what a person in that
seat would see; the game file keeps how a hand is dealt, played and scored.
"""

from __future__ import annotations

from typing import Any

from .seats import View


def seat_view(game: Any, seat: int) -> View:
    """What a player in ``seat`` of ``game`` (a
    :class:`games.follow_the_rules.FollowTheRules`) knows: its hand, every card played (the
    tricks are played face up), the trump card while it lies under the stock or after the
    opponent drew it, and the sizes of the stock and the opponent's hand. The trick's
    winner draws the top card face down, so no other draw is known."""
    other = 1 - seat
    trump_card = game.vars["trump_card"]
    shown = tuple(c for c in game.hand(other) if c == trump_card)
    done = game.phase in ("done", "match")
    if done:
        shown = tuple(game.hand(other))
    info = {
        "hand_no": game.vars["hand_no"], "dealer": game.vars["dealer"],
        "leader": game.vars["leader"], "trump": game.trump, "trump_card": trump_card,
        "scores": game.vars["scores"], "target": game.opts["target"],
        "last": game.vars["last"], "result": game.vars["result"] or None,
    }
    return View(
        game=game.info.id, seat=seat, to_move=game.to_move, phase=game.phase,
        hand=tuple(game.hand(seat)),
        legal=tuple(game.legal_moves()) if game.to_move == seat else (),
        public={"trick": tuple(game.cards[game.trick]),
                "turned": tuple(game.cards[game.turned]),
                "won": tuple(game.cards[game.captured[seat]]),
                "lost": tuple(game.cards[game.captured[other]])},
        counts={"stock": game.stock_left(), "hand": len(game.hand(other))},
        shown={other: shown},
        info=info,
    )
