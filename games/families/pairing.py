"""Shared machinery for the removal games (Accordion, Royal Marriage, Aces Up, Pyramid ...).

In these games cards leave the table instead of being built into foundations. They still
never leave the game: they go to a pile with role ``discard``, so the property tests can
check the deck stays whole. Accordion and Royal Marriage lay their cards in one long row
that closes up when a pile disappears; :class:`RowGame` keeps that row contiguous from its
first pile, so its length needs no counter and a constructed test position needs no extra
variables.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from ..engine.cards import KING, RANK, SUIT
from ..engine.game import Game
from ..engine.model import Move, PileSpec
from ..engine.reason import Card, Reason

#: ``MATCH[a][b]``: the two cards share a suit or a rank (Accordion, Royal Marriage)
MATCH: tuple[tuple[bool, ...], ...] = tuple(
    tuple(SUIT[a] == SUIT[b] or RANK[a] == RANK[b] for b in range(52)) for a in range(52)
)


def piles_by_rank(cards: list[list[int]], piles: Iterable[int]) -> list[list[int]]:
    """``piles`` sorted by the rank of their top card (index 1..13), keeping their order: a
    pair game then finds every pair by rank instead of trying every two piles."""
    by_rank: list[list[int]] = [[] for _ in range(14)]
    for p in piles:
        by_rank[RANK[cards[p][-1]]].append(p)
    return by_rank


def partner_pairs(by_rank: list[list[int]], partner: tuple[int, ...], single_kings: bool,
                  ordered: bool = False) -> list[Move]:
    """Kings alone (with ``single_kings``) and every pair of partner ranks among the piles of
    ``by_rank`` (``partner[r]``: the rank that pairs with rank ``r``, 0 for none), each pair
    in pile order; with ``ordered`` also the other way round (where the card picked second
    ends on top of a pair pile, the order is part of the move)."""
    moves = []
    if single_kings:
        moves += [Move("remove", p) for p in by_rank[KING]]
    for r in range(1, 14):
        q = partner[r]
        if not q or q < r:
            continue
        group, partners = by_rank[r], by_rank[q]
        for i, a in enumerate(group):
            for b in (group[i + 1:] if q == r else partners):
                moves.append(Move("remove", a, b) if a < b else Move("remove", b, a))
                if ordered:
                    moves.append(Move("remove", moves[-1].dst, moves[-1].src))
    return moves


def pair_pile_moves(by_rank: list[list[int]], top: int, partner: tuple[int, ...],
                    single_kings: bool, pile: int, apart: int) -> list[Move]:
    """A pair pile whose top card (of rank ``top``) can still be paired: a move from the
    ``pile`` with each partner among the piles of ``by_rank`` but ``apart`` (the pile that
    may not pair with it); a king is never taken off again where kings leave alone."""
    q = partner[top]
    if not q or (single_kings and top == KING):
        return []
    return [Move("remove", pile, p) for p in by_rank[q] if p != apart]


def pair_in_order(move: Move, pile: int, ordered: bool) -> Move:
    """The one form of a pair move a game lists: a pair pile's card (``pile``) always
    first, else the lower pile first (unless the order is part of the move)."""
    if move.kind != "remove" or move.dst < 0:
        return move
    a, b = move.src, move.dst
    if b == pile or (a > b and a != pile and not ordered):
        return move._replace(src=b, dst=a)
    return move


def lone_card_refusal(cards: list[list[int]], piles: list[int], single_kings: bool,
                      need: Reason) -> Reason | None:
    """Why one card alone, or the same card twice, cannot leave; None for two piles.
    ``need``: the game's pair rule in a sentence."""
    if len(piles) == 1:
        c = cards[piles[0]][-1]
        if not single_kings:
            return Reason("Cards can only be removed in pairs of the same rank.")
        if RANK[c] != KING:
            return Reason("Only a king can be removed on its own; the {card} needs a partner.",
                          card=Card(c))
        return need
    if piles[0] == piles[1]:
        return Reason("Pick two different cards.")
    return None


def pair_pile_refusal(pile: list[int], in_play: bool, partner: bool, single_kings: bool
                      ) -> Reason | None:
    """Why the top card of the pair ``pile`` (its cards, not empty) cannot be used, or None:
    removed cards are out of play unless the game keeps them ``in_play`` as a pair pile, and
    then only with a ``partner`` and never a king that left alone."""
    if not in_play:
        return Reason("Removed cards are out of play.")
    if not partner:
        return Reason("The pair pile's top card can only be used in a pair.")
    if single_kings and RANK[pile[-1]] == KING:
        return Reason("A king on the pair pile cannot be used again.")
    return None


def row_layout(count: int, per_line: int, dx: float, dy: float = 1.5, x: float = 0.0,
               y: float = 0.0, prefix: str = "T") -> Iterator[PileSpec]:
    """One logical row of single piles wrapped into lines, read left to right, top to bottom.

    ``dx`` below 1.2 lets neighbours overlap a little, which keeps 13 piles in a screen width
    while the rank and suit in each card's corner stay visible.
    """
    for i in range(count):
        line, col = divmod(i, per_line)
        yield PileSpec(f"{prefix}{i + 1}", "tableau", round(x + col * dx, 2),
                       round(y + line * dy, 2), autoflip=False)


class RowGame(Game):
    """A game whose piles ``self.row`` form one row without gaps, first pile leftmost."""

    row: list[int]
    #: the face-down stock a dealing variant deals from, one card onto the row's end
    stock: int
    #: position of a pile in the row, or -1 for a pile that is not part of it
    row_pos: list[int]

    def prepare(self) -> None:
        self.row = list(self.roles["tableau"])
        self.row_pos = [-1] * len(self.layout)
        for k, p in enumerate(self.row):
            self.row_pos[p] = k

    def row_length(self) -> int:
        cards = self.cards
        n = 0
        for p in self.row:
            if not cards[p]:
                break
            n += 1
        return n

    def apply(self, move: Move) -> None:
        """A deal puts the stock's top card at the row's end, in every row game; the
        game's own moves are :meth:`apply_in_row`."""
        if move.kind == "deal":
            self._move_cards(self.stock, self.row[self.row_length()], 1)
            return
        self.apply_in_row(move)

    def apply_in_row(self, move: Move) -> None:
        raise NotImplementedError

    def close_up(self, first: int, gap: int) -> None:
        """Shift every pile after the ``gap`` empty places at ``first`` that far to the left."""
        cards, row = self.cards, self.row
        j = first + gap
        while j < len(row) and cards[row[j]]:
            self._move_cards(row[j], row[j - gap], len(cards[row[j]]))
            j += 1
