"""What the search knows of Aces Up (games/aces_up.py), apart from its rules: see
docs/solver.md for what each hook is for.
"""

from __future__ import annotations

from ..aces_up import HIGH, AcesUp, highest_tops
from ..engine.cards import RANK, SUIT
from ..engine.model import Move
from . import searches
from .base import Search
from .rules import AcesUpRules

ACES = frozenset(c for c in range(52) if RANK[c] == 1)


#: per card, the lower cards of its suit (ace high)
LOWER = tuple(tuple(d for d in range(52) if SUIT[d] == SUIT[c] and HIGH[d] < HIGH[c])
              for c in range(52))


#: endgame verdicts by the sorted piles (they depend on nothing else); cleared when full,
#: so that it stays within some tens of megabytes
_ENDGAMES: dict[bytes, bool] = {}


_ENDGAMES_MAX = 300_000


def endgame_wins(piles: tuple[tuple[int, ...], ...]) -> bool:
    """Whether the piles (bottom to top) can still be won once the stock is empty.

    Every discard is safe then (see :meth:`AcesUp.solver_autoplay`), and discards commute
    (a card that can be discarded stays so: it stays on top, and so does a card of its suit
    above it until a higher one discards that), so all are made first. Then the only choices
    are which top card of a pile of two or more goes into an empty pile; the empty piles
    are alike (no deal tells them apart). A card moved into a space never moves again (nothing
    is put on it), so the search ends."""
    work = [list(p) for p in piles]
    while True:  # every discard, in any order
        best = highest_tops(work)
        changed = False
        for p in work:
            if p and HIGH[p[-1]] < best[SUIT[p[-1]]]:
                p.pop()
                changed = True
        if not changed:
            break
    if all(c in ACES for p in work for c in p):
        return True
    if all(work):
        return False
    key = b"".join(sorted(bytes((len(p), *p)) for p in work))
    known = _ENDGAMES.get(key)
    if known is not None:
        return known
    space = next(i for i, p in enumerate(work) if not p)
    result = False
    for i, p in enumerate(work):
        if len(p) > 1:
            after = [tuple(q) for q in work]
            after[i] = tuple(p[:-1])
            after[space] = (p[-1],)
            if endgame_wins(tuple(after)):
                result = True
                break
    if len(_ENDGAMES) >= _ENDGAMES_MAX:
        _ENDGAMES.clear()
    _ENDGAMES[key] = result
    return result


#: last-round verdicts by the piles and the four cards to come; cleared when full
_LAST_ROUNDS: dict[bytes, bool] = {}


def last_round_wins(piles: tuple[tuple[int, ...], ...], dealt: tuple[int, ...]) -> bool:
    """Whether the piles can still be won with one deal left (``dealt[i]`` goes on pile
    ``i``), any card being dealt at any time: an exhaustive search of the discards and moves
    into spaces before the deal, each followed by the deal and :func:`endgame_wins`. Only
    the engine's bookkeeping is left out, so the main search spends one node here instead of
    one per move of the last round."""
    key = b"".join(bytes((len(p), *p)) for p in piles) + bytes(dealt)
    known = _LAST_ROUNDS.get(key)
    if known is not None:
        return known
    seen: set[tuple[tuple[int, ...], ...]] = set()
    todo = [piles]
    result = False
    while todo and not result:
        state = todo.pop()
        if state in seen:
            continue
        seen.add(state)
        after = tuple(p + dealt[i:i + 1] for i, p in enumerate(state))
        if endgame_wins(after):
            result = True
            break
        best = highest_tops(state)
        empty = [i for i, p in enumerate(state) if not p]
        for i, p in enumerate(state):
            if not p:
                continue
            c = p[-1]
            if HIGH[c] < best[SUIT[c]]:  # discard it
                todo.append(state[:i] + (p[:-1],) + state[i + 1:])
            if len(p) > 1:
                for e in empty:  # into a space (the deal tells the spaces apart)
                    nxt = list(state)
                    nxt[i], nxt[e] = p[:-1], (c,)
                    todo.append(tuple(nxt))
    if len(_LAST_ROUNDS) >= _ENDGAMES_MAX:
        _LAST_ROUNDS.clear()
    _LAST_ROUNDS[key] = result
    return result


@searches(AcesUp)
class AcesUpSearch(Search, AcesUpRules):
    """What the search knows of AcesUp."""

    #: the stock is only ever dealt from, so its size says what is left in it
    SOLVER_VIEW = {"stock": "count"}

    SOLVER_PRUNES = True

    def solver_moves(self, prune: bool = False) -> list[Move]:
        """Discards first, then moves into an empty pile, dealing last; with ``prune``, while
        a card can be discarded nothing else is tried."""
        moves = self.legal_moves()
        cards = self.cards
        discards = [m for m in moves if m.dst == self.discard]
        if prune and discards:
            # the lowest card first: the higher ones stay to discard others
            return [min(discards, key=lambda m: HIGH[cards[m.src][-1]])]
        rest = [m for m in moves if m.dst != self.discard]
        if prune:
            # into a space only what lays bare a card that can then be discarded
            rest = [m for m in rest if m.kind == "deal" or self._bares_discard(m)]
        return discards + rest

    def _bares_discard(self, move: Move) -> bool:
        self.make(move)
        try:
            return bool(self.discardable())
        finally:
            self.unmake()

    def solver_autoplay(self) -> Move | None:
        """Once the stock is empty, every discard is safe; before, none is in general.

        *Before:* a kept card may carry a lower card of its suit to a space and discard it
        there, and a card alone in its pile cannot move to a space, so which pile a card lies
        in matters: with an old rule (discard a card when the lower cards of its suit left all
        lie under it) the complete pass called won positions lost (a test holds one).

        *Stock empty:* no card is ever put on a non-empty pile again (cards move only into
        empty piles), so a top card stays a top card until it is discarded. Say ``c`` can be
        discarded (a higher ``h`` of its suit is on top elsewhere) and some line wins from
        here keeping ``c`` for a while. The same line without ``c`` wins too: (1) while a card
        of the suit ``>= h`` is on top, one stays on top (it leaves only when a higher one on
        top discards it), so every later discard that used ``c`` can use that card instead
        (it is not on the discarded card's own pile, whose top is that card); (2) nothing
        lies on ``c``, so no pile the line takes a card from to a space is left with ``c``
        alone under it: every move of the line stays legal, a move of ``c`` itself becomes
        no move at all. Hence a discard is the only child searched, lowest card first.

        *Dead cards* (every lower card of its suit is discarded: it can discard nothing) are
        safe to discard in two more cases, by the same argument (a line keeping the card
        stays legal without it, a move of the card becoming no move), where only (b) needs
        care: (a) *no space ever again* (:meth:`_sealed`): the game is only discards and
        deals; (b) *one deal left*: before the deal the card can only come to lie under a
        card by that deal, so every move before it stays legal; after it the stock is empty
        and the piles are alike, so a pile that would hold the dead card alone under a card
        the line moves to a space is matched by the same card alone in its pile and the
        space left empty: the two positions are the same but for the dead card and the
        names of two piles. With two deals or more left that fails (the next deal would tell
        the two piles apart), and a brute-force search found positions where it loses a win.
        (Not with "deal only when stuck": the card under the dead one might forbid a deal
        the line makes.) Lines are checked against a search without these
        rules on random small positions in ``tests/test_aces_up_solver.py``.
        """
        cards = self.cards
        if not cards[self.stock]:
            found = self.discardable()
            if found:
                return Move("move", min(found, key=lambda t: HIGH[cards[t][-1]]), self.discard)
            return None
        if self.opts["deal_only_when_stuck"]:
            return None
        if len(cards[self.stock]) <= 4 or self._sealed():
            found = self.discardable()
            if found:
                gone = self._gone()
                for t in found:
                    c = cards[t][-1]
                    if all(gone[d] for d in LOWER[c]):
                        return Move("move", t, self.discard)
        return None

    def _gone(self) -> list[bool]:
        """Per card, whether it is discarded (in no pile and not in the stock)."""
        gone = [True] * 52
        cards = self.cards
        for c in cards[self.stock]:
            gone[c] = False
        for t in self.tableau:
            for c in cards[t]:
                gone[c] = False
        return gone

    def _sealed(self) -> bool:
        """No pile empty and an ace in every pile: then no pile can ever be empty again (a
        pile empties only when its last card is discarded, and an ace is never discarded and
        moves only into an empty pile), so nothing moves to a space any more."""
        cards = self.cards
        for t in self.tableau:
            p = cards[t]
            if not p:
                return False
            for c in p:
                if c in ACES:
                    break
            else:
                return False
        return True

    def solver_hopeless(self) -> bool:
        """Once the stock is empty the rest is decided exactly (:func:`endgame_wins`), and
        so it is with one deal left (:func:`last_round_wins`; not with "deal only when
        stuck", which it does not model).

        Before, with no space ever again (:meth:`_sealed`) each pile holds one ace and can only
        shrink by discards and grow by deals: a card under its ace can never come to the top
        again, and a card lying in its own ace's pile needs a higher card of its suit from
        another pile or the stock to be on top beside it (those under it in its pile never
        will be while it is there, and it never leaves that pile but to the discard)."""
        cards = self.cards
        stock = cards[self.stock]
        if not stock:
            return not endgame_wins(tuple(tuple(cards[t]) for t in self.tableau))
        if len(stock) <= 4 and not self.opts["deal_only_when_stuck"]:
            return not last_round_wins(tuple(tuple(cards[t]) for t in self.tableau),
                                       tuple(reversed(stock)))
        if not self._sealed():
            return False
        cards = self.cards
        piles = [cards[t] for t in self.tableau]
        for p in piles:
            if p[0] not in ACES:
                return True
        # per suit, the highest card outside each pile (other piles and the stock)
        stock_best = [0, 0, 0, 0]
        for c in cards[self.stock]:
            if HIGH[c] > stock_best[SUIT[c]]:
                stock_best[SUIT[c]] = HIGH[c]
        for i, p in enumerate(piles):
            s = SUIT[p[0]]
            own = [HIGH[c] for c in p[1:] if SUIT[c] == s]
            if not own:
                continue
            best = stock_best[s]
            for j, q in enumerate(piles):
                if j != i:
                    for c in q:
                        if SUIT[c] == s and HIGH[c] > best:
                            best = HIGH[c]
            if max(own) >= best:
                return True
        return False

    def solver_key(self) -> bytes:
        """The piles in order and the stock's size (discarded cards are what is left). Once
        the stock is empty no deal tells the piles apart any more: they are sorted."""
        cards = self.cards
        parts = [bytes((len(cards[t]), *cards[t])) for t in self.tableau]
        n = len(cards[self.stock])
        if not n:
            parts.sort()
        return bytes((n,)) + b"".join(parts)
