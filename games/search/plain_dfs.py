"""The loop of a game's own depth-first search on plain lists (the castle family, King
Albert): the moves as ints, the position kept by the game in its own lists, a table of
positions seen.

Why shared: each such search is the generic search node for node on a cheaper position
(see :meth:`games.search.base.Search.solver_dfs`); what differs between games is how a
move is made and taken back and what the key is, never the order in which nodes are
visited, the table or the budget's charge, which are here once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

from .outcome import CHECK_EVERY, LOST, UNKNOWN, WON, Budget

#: per suit, how many cards are home when the game is won
ALL_HOME = [13, 13, 13, 13]


def depth_first(children: Callable[[], Sequence[int]], play: Callable[[int], bool],
                take_back: Callable[[], None], key: Callable[[], bytes],
                budget: Budget) -> tuple[str, int, int]:
    """Search from the current position: ``(result, nodes, positions)``.

    ``children()`` gives the moves of the current position in the order to try them,
    ``play(move)`` makes one (True when it wins), ``take_back()`` takes back the last move
    made and ``key()`` is the current position's key. On a win the game's own record of
    the moves made is the line (nothing is taken back); the budget is charged every
    :data:`CHECK_EVERY` nodes, and what is left over at the end.
    """
    seen = {key()}
    nodes = 0
    line: list[Iterator[int]] = [iter(children())]  # per depth: the moves still to try
    tick = CHECK_EVERY
    while line:
        m = next(line[-1], None)
        if m is None:
            del line[-1]
            if line:  # take back the move that led here
                take_back()
            continue
        won = play(m)
        nodes += 1
        if won:
            return WON, nodes, len(seen)
        k = key()
        if k in seen:
            take_back()
        else:
            seen.add(k)
            line.append(iter(children()))
        tick -= 1
        if not tick:
            tick = CHECK_EVERY
            if budget.take(CHECK_EVERY):
                return UNKNOWN, nodes, len(seen)
    budget.take(CHECK_EVERY - tick)
    return LOST, nodes, len(seen)


def card_places(cols: list[list[int]]) -> tuple[list[int], list[int]]:
    """Per card the column it lies in (-1: not in a column) and its height there: what the
    searches on plain lists keep up to date as cards move (see :func:`placer`)."""
    where = [-1] * 52
    at = [0] * 52
    for i, col in enumerate(cols):
        for j, c in enumerate(col):
            where[c] = i
            at[c] = j
    return where, at


def next_home_counts(prog: list[int], where: list[int], n: int) -> list[int]:
    """Per column (``0..n-1``), how many of the cards next for home (one per suit: the
    lowest not home, by ``prog``) lie in it; cards next for home elsewhere (``where`` at
    ``n`` or above: a reserve place) are not counted."""
    count = [0] * n
    for su in range(4):
        p = prog[su]
        if p < 13:
            t = where[su * 13 + p]
            if t < n:
                count[t] += 1
    return count


def placer(cols: list[list[int]], where: list[int],
           at: list[int]) -> Callable[[int, int], None]:
    """``put(i, c)``: card ``c`` onto column ``i`` of ``cols``, with its place noted in
    ``where`` and ``at`` (see :func:`card_places`)."""
    def put(i: int, c: int) -> None:
        col = cols[i]
        at[c] = len(col)
        where[c] = i
        col.append(c)
    return put
