"""What one seat at the Draw Poker table sees: its own hand, the others' card counts, hands
shown at a showdown, and the betting so far (GAMES.md §B3).

Why apart from the rules (games/draw_poker.py): the view is the only thing a computer player
is handed, so what it holds is checked in one place against what a person in that seat
would see; the game file keeps how a hand is dealt, bet and shown down.
"""

from __future__ import annotations

from typing import Any

from .seats import View


def seat_view(game: Any, seat: int, units: tuple[int, ...]) -> View:
    """``game``'s table (a :class:`games.draw_poker.DrawPoker`) as ``seat`` sees it; ``units``
    are the fixed bets of the betting rounds."""
    result = game.vars["result"] or None
    shown: dict[int, tuple[int, ...]] = {}
    if result:
        for s in result["shown"]:
            if s != seat:
                shown[s] = tuple(game.hand(s))
    counts = {"stock": len(game.cards[game.stock])}
    for s in range(game.n):
        if s != seat:
            counts[f"hand{s}"] = len(game.hand(s))
    info = {
        "seats": game.n, "hand_no": game.vars["hand_no"], "dealer": game.vars["dealer"],
        "chips": game.vars["chips"], "pot": game.vars["pot"], "bets": game.vars["bets"],
        "level": game.vars["level"], "round": game.vars["round"],
        "unit": units[game.vars["round"]], "live": game.vars["live"],
        "raised": game.vars["raised"], "opener": game.vars["opener"],
        "drawn": game.vars["drawn"], "discarded": game.vars["thrown"][seat],
        "wild": game.rule, "droppers_pay_open": game.opts["droppers_pay_open"],
        "openers": game.vars["openers"] if result else (),
        "result": result,
    }
    return View(game=game.info.id, seat=seat, to_move=game.to_move, phase=game.phase,
                hand=tuple(game.hand(seat)),
                legal=tuple(game.legal_moves()) if game.to_move == seat else (),
                counts=counts, shown=shown, info=info)
