"""What a Gin Rummy match leaves behind: each hand's result, and the rows of the play log.

Why apart from the rules (games/gin_rummy.py): the result of a hand is data the table, the
play log (``hands`` and ``matches`` rows) and ``kiosk deal --json`` all read, in shapes of
their own (card texts, seat words), while the game file holds only how the hand is played
and scored.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from ..engine import cards as C


class HandResult(NamedTuple):
    """How one hand ended, for the table, the play log and the score line.

    ``kind``: ``knock``, ``gin``, ``undercut`` or ``draw`` (the blocked hand). ``winner``
    is the seat that scored (-1 for a draw), ``points`` what it scored. ``melds`` and
    ``dead`` are each seat's arrangement as shown; ``laid_off`` the defender's cards laid
    on the knocker's melds, as (card, index of the meld in the knocker's melds)."""

    kind: str
    knocker: int
    winner: int
    points: int
    deadwood: tuple[int, int]
    melds: tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]
    dead: tuple[tuple[int, ...], tuple[int, ...]]
    laid_off: tuple[tuple[int, int], ...]


def hand_result_data(result: HandResult) -> dict[str, Any]:
    """A hand's result as JSON-ready data (card texts), for the log and ``kiosk deal``."""
    return {
        "kind": result.kind, "knocker": result.knocker, "winner": result.winner,
        "points": result.points, "deadwood": list(result.deadwood),
        "melds": [[[C.text(c) for c in m] for m in seat] for seat in result.melds],
        "dead": [[C.text(c) for c in seat] for seat in result.dead],
        "laid_off": [[C.text(c), i] for c, i in result.laid_off],
    }


def hand_rows(game: Any) -> list[dict[str, Any]]:
    """Every finished hand of ``game`` (a GinRummy) as a ``hands`` row, with the running
    match score after it."""
    out = []
    scores = [0, 0]
    for r in game.vars["results"]:
        if r.winner >= 0:
            scores[r.winner] += r.points
        out.append({"kind": r.kind, "winner": game.seat_word(r.winner), "points": r.points,
                    "visitor_score": scores[0], "computer_score": scores[1],
                    "visitor_deadwood": r.deadwood[0], "computer_deadwood": r.deadwood[1],
                    "level": game.opts["level"], "computer_version": game.computer_version,
                    "detail": hand_result_data(r)})
    return out


def match_row(game: Any) -> dict[str, Any] | None:
    """The finished match as a ``matches`` row (None while it is being played)."""
    if game.phase != "match":
        return None
    a, b = game.final_scores
    return {"game": game.info.id, "winner": "visitor" if a > b else "computer" if b > a
            else "tie", "visitor_score": a, "computer_score": b,
            "hands": len(game.vars["results"]), "level": game.opts["level"],
            "computer_version": game.computer_version,
            "detail": {"match": game.opts["match"], "points": list(game.vars["scores"]),
                       "hands_won": list(game.vars["won_hands"])}}


def seats_data(game: Any) -> dict[str, Any]:
    """The table's seats as ``kiosk deal --json`` prints them."""
    result = game.vars["result"]
    return {
        "to_move": game.to_move, "phase": game.phase, "hand_no": game.vars["hand_no"],
        "dealer": game.vars["dealer"], "scores": list(game.vars["scores"]),
        "final": list(game.final_scores), "level": game.opts["level"],
        "computer_version": game.computer_version,
        "result": hand_result_data(result) if result else None,
    }
