"""Turning a talon round: the waste sizes the stock's turns (and redeals) reach, shared by
the searches of the games that deal from a stock to a waste with unlimited passes
(Klondike, Canfield).

Why apart: each search asks at every node which cards the turns can bring to the waste's
top, and with which turns; the walk is the same in each, only how many cards the last turn
of a pass shows differs between the games.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..engine.model import DEAL, REDEAL, Compound, Move

if TYPE_CHECKING:  # (the searches that use this import it; the checker reads their games)
    from .patience import PatienceSearch


def turns_round(n: int, i: int, draw: int,
                last_singly: bool) -> list[tuple[int, tuple[Move, ...]]]:
    """The waste sizes reached from a waste of ``i`` cards (``n`` in the talon: the waste,
    then the stock), each once, in the order the turns reach them, each with the turns
    that get there: ``i`` itself first (no turn); a size 0 is an empty waste after a
    redeal. A turn shows ``draw`` cards, or with ``last_singly`` one card at a time once
    fewer than ``draw`` are left (else the rest at once).

    Why a walk and not a cycle: from the middle of a pass the turns after a redeal need not
    come back to where they started (three at a time, the last ones singly).
    """
    out: list[tuple[int, tuple[Move, ...]]] = []
    made: list[Move] = []
    states = {i}
    while True:
        out.append((i, tuple(made)))
        if i < n:
            made.append(DEAL)
            i += draw if n - i >= draw else 1 if last_singly else n - i
        else:
            made.append(REDEAL)
            i = 0
        if i in states:
            return out
        states.add(i)


def round_plays(g: PatienceSearch, wants: dict[int, list[int]],
                last_singly: bool) -> tuple[list[Move | Compound], list[Move | Compound]]:
    """Each card the talon of ``g`` can be turned round to, played from the waste to each
    pile of ``wants[card]``: the turns and the play as one :class:`Compound`, the fewest
    turns first; foundation plays apart (``home``, ``rest``). Worked out on the talon's
    order without making the turns: the searches ask this at every node."""
    cards, w = g.cards, g.waste
    talon = cards[w] + cards[g.stock][::-1]
    n = len(talon)
    home: list[Move | Compound] = []
    rest: list[Move | Compound] = []
    if not n:
        return home, rest
    role = g._role
    seen: set[int] = set()
    for i, made in turns_round(n, len(cards[w]), g.draw, last_singly):
        if not i:
            continue
        top = talon[i - 1]
        if top not in seen:
            seen.add(top)
            for d in wants.get(top, ()):
                play = Move("move", w, d, 1)
                out = home if role[d] == "foundation" else rest
                out.append(Compound((*made, play)) if made else play)
    return home, rest
