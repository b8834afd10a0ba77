"""What a Follow the Rules match leaves behind: each hand's result, the play log's rows,
and the seats part of ``kiosk deal --json``.

Why apart from the rules (games/follow_the_rules.py): a hand's result is data the table, the
play log (``hands`` and ``matches`` rows) and ``kiosk deal --json`` read in shapes of their
own (suit names, seat words), while the game file holds how a hand is dealt, played and
scored. ``game`` is a :class:`games.follow_the_rules.FollowTheRules`.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from ..engine import cards as C

#: the order the points of a hand count in when both players could reach the target
POINT_ORDER = ("high", "low", "jack", "game")


class HandResult(NamedTuple):
    """A finished hand: who took High, Low and Jack (seats), who scored Game (-1 on a tie
    of card points), each seat's card points, the points each seat earned, and the points
    that counted for the match (fewer when the target was reached part-way, item 9):
    ``reached`` names the point (``high``, ``low``, ``jack``, ``game``) with which the
    match's winner reached the target, "" when nobody did this hand."""

    trump: int
    high: int
    low: int
    jack: int
    game: int
    card_points: tuple[int, int]
    earned: tuple[int, int]
    counted: tuple[int, int]
    match_winner: int
    reached: str = ""

    def seat_of(self, point: str) -> int:
        """Who took ``point`` (``high``, ``low``, ``jack``, ``game``); -1: nobody."""
        return {"high": self.high, "low": self.low, "jack": self.jack,
                "game": self.game}[point]

    def not_counted(self) -> tuple[str, ...]:
        """The points taken this hand that did not count because the count stopped at
        the target before them, in the order they would have counted."""
        if not self.reached:
            return ()
        after = POINT_ORDER[POINT_ORDER.index(self.reached) + 1:]
        return tuple(p for p in after if self.seat_of(p) >= 0)


def hand_result_data(result: HandResult) -> dict[str, Any]:
    """A hand's result as JSON-ready data, for the log and ``kiosk deal``."""
    return {"trump": C.SUIT_NAMES[result.trump], "high": result.high, "low": result.low,
            "jack": result.jack, "game": result.game,
            "card_points": list(result.card_points), "earned": list(result.earned),
            "counted": list(result.counted), "match_winner": result.match_winner,
            "reached": result.reached, "not_counted": list(result.not_counted())}


def hand_rows(game: Any) -> list[dict[str, Any]]:
    """Every finished hand as a ``hands`` row, with the running match score after it."""
    out = []
    scores = [0, 0]
    for r in game.vars["results"]:
        scores = [scores[0] + r.counted[0], scores[1] + r.counted[1]]
        best = 0 if r.earned[0] > r.earned[1] else 1 if r.earned[1] > r.earned[0] else -1
        out.append({"kind": "hand", "winner": game.seat_word(best),
                    "points": max(r.earned), "visitor_score": scores[0],
                    "computer_score": scores[1], "level": game.opts["level"],
                    "computer_version": game.computer_version,
                    "detail": hand_result_data(r)})
    return out


def match_row(game: Any) -> dict[str, Any] | None:
    """The finished match as a ``matches`` row (None while it is being played)."""
    if game.phase != "match":
        return None
    a, b = game.vars["scores"]
    return {"game": game.info.id, "winner": game.seat_word(game.vars["winner"]),
            "visitor_score": a, "computer_score": b, "hands": len(game.vars["results"]),
            "level": game.opts["level"], "computer_version": game.computer_version,
            "detail": {"target": game.opts["target"]}}


def seats_data(game: Any) -> dict[str, Any]:
    """The table's seats as ``kiosk deal --json`` prints them."""
    result = game.vars["result"]
    return {
        "to_move": game.to_move, "phase": game.phase, "hand_no": game.vars["hand_no"],
        "dealer": game.vars["dealer"], "scores": list(game.vars["scores"]),
        "trump": C.SUIT_NAMES[game.trump], "target": game.opts["target"],
        "level": game.opts["level"], "computer_version": game.computer_version,
        "result": hand_result_data(result) if result else None,
    }
