"""What a Draw Poker visit leaves behind: each hand's result, the play log's rows, and the
seats part of ``kiosk deal --json``.

Why apart from the rules (games/draw_poker.py): a hand's result is data the table, the play
log (``hands`` and ``matches`` rows) and ``kiosk deal --json`` read in shapes of their own
(card texts, seat words), while the game file holds only how a hand is dealt, bet and shown
down. ``game`` is a :class:`games.draw_poker.DrawPoker`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..engine import cards as C
from .poker_pots import Sharing
from .seats import VISITOR


def result_data(result: dict[str, Any]) -> dict[str, Any]:
    """A hand's result as JSON-ready data, for the log and ``kiosk deal``."""
    return {"hand_no": result["hand_no"], "pot": result["pot"], "won": list(result["won"]),
            "winners": list(result["winners"]), "pots": list(result["pots"]),
            "returned": list(result["returned"]), "shown": list(result["shown"]),
            "values": {str(s): list(v) for s, v in result["values"].items()},
            "opener": result["opener"], "openers": [C.text(c) for c in result["openers"]],
            "chips": list(result["chips"])}


def hand_result(game: Any, pot: int, sharing: Sharing, won: tuple[int, ...],
                values: Mapping[int, tuple[int, ...]], chips: tuple[int, ...]
                ) -> dict[str, Any]:
    """A hand's result as the game keeps it: the ``pot`` shared as ``sharing`` says, what
    each seat ``won`` and has (``chips``) after it, and the hands shown (``values``, the
    live seats' hand values; a hand nobody contested is not shown)."""
    shown = len(values) > 1
    return {"hand_no": game.vars["hand_no"], "pot": pot, "won": won,
            "winners": tuple(sorted(sharing.pots[0].winners)),
            "pots": tuple(p.data() for p in sharing.pots),
            "returned": sharing.returned,
            "shown": tuple(s for s in values) if shown else (),
            "values": {s: values[s] for s in values} if shown else {},
            "opener": game.vars["opener"], "openers": game.vars["openers"],
            "chips": chips}


def hand_rows(game: Any) -> list[dict[str, Any]]:
    """Every finished hand as a ``hands`` row, with the chips after it."""
    return [{"kind": "showdown" if r["shown"] else "uncontested",
             "winner": ", ".join(game.seat_word(s) for s in r["winners"]),
             "points": r["pot"], "visitor_score": r["chips"][VISITOR],
             "computer_score": sum(r["chips"][1:]),
             "level": game.opts["level"], "computer_version": game.computer_version,
             "detail": result_data(r)} for r in game.vars["results"]]


def match_row(game: Any) -> dict[str, Any] | None:
    """The visit as a ``matches`` row, once it is over (the visitor broke, or every other
    chip won); None while it is being played."""
    if game.phase != "over":
        return None
    chips = game.vars["chips"]
    return {"game": game.info.id, "winner": "visitor" if game.won else "computer",
            "visitor_score": chips[VISITOR], "computer_score": sum(chips[1:]),
            "hands": len(game.vars["results"]), "level": game.opts["level"],
            "computer_version": game.computer_version,
            "detail": {"opponents": game.n - 1, "chips": list(chips)}}


def seats_data(game: Any) -> dict[str, Any]:
    """The table's seats as ``kiosk deal --json`` prints them."""
    result = game.vars["result"]
    return {
        "to_move": game.to_move, "phase": game.phase, "hand_no": game.vars["hand_no"],
        "dealer": game.vars["dealer"], "chips": list(game.vars["chips"]),
        "pot": game.vars["pot"], "bets": list(game.vars["bets"]),
        "live": list(game.vars["live"]), "opener": game.vars["opener"],
        "level": game.opts["level"], "computer_version": game.computer_version,
        "result": result_data(result) if result else None,
    }
