"""What the search knows of Friday The Thirteenth (games/friday_the_thirteenth.py), apart from its rules: see
docs/solver.md for what each hook is for.
"""

from __future__ import annotations

from ..engine.cards import RANK
from ..engine.model import Compound, Move
from ..families.patience import DEAL, REDEAL
from ..friday_the_thirteenth import BASES, FridayTheThirteenth
from . import searches
from .patience import PatienceSearch
from .rules import FridayTheThirteenthRules


@searches(FridayTheThirteenth)
class FridayTheThirteenthSearch(PatienceSearch, FridayTheThirteenthRules):
    """What the search knows of FridayTheThirteenth."""

    SOLVER_PRUNES = True

    # ------------------------------------------------------------ for the solver
    def solver_key(self) -> bytes:
        """Suits never matter here: a foundation is known by its size (its base is fixed),
        the stock and the waste by their ranks."""
        cards = self.cards
        return (bytes(len(cards[f]) for f in self.foundations) + b"\xff"
                + bytes(RANK[c] for c in cards[self.waste]) + b"\xff"
                + bytes(RANK[c] for c in cards[self.stock]) + bytes((self.vars["redeals"],)))

    # Turning the stock matters only for the card it brings to the top of the waste: a line
    # can always put off its turns until just before the waste card they bring up is played
    # (turns change nothing else, and every card must be played in the end). So the search
    # plays, as one compound move, the turns of this pass up to a card and that card's play;
    # only the turns to the end of the pass, to redeal, stand alone (with the redeal).
    def solver_moves(self, prune: bool = False) -> list:
        """Plays of the waste card first, then of the cards further on in this pass, nearest
        first; the turns to the end and the redeal last. With ``prune``: a waste card that
        can be played is played (nothing else is tried).

        Without ``prune``, a card that can be played when it comes to the top of the waste
        and whose rank no foundation will want later (:meth:`_later_ranks`) is never turned
        past: the plays of it end the list (no deeper card, no redeal)."""
        cards = self.cards
        wants: dict[int, list[Move]] = {}  # rank -> its plays
        for f, base, play in self._plays:
            pile = cards[f]
            if not pile:  # slots fill from the left: this is the next one
                wants.setdefault(base, []).append(play)
                break
            if len(pile) < 4:
                wants.setdefault(RANK[pile[-1]] % 13 + 1, []).append(play)
        waste, stock = cards[self.waste], cards[self.stock]
        moves: list = list(wants.get(RANK[waste[-1]], ())) if waste else []
        if prune:  # play what can be played, else turn one card (a greedy line, found fast)
            if moves:
                return moves
            return [m for m in self.legal_moves() if m.kind != "move"]
        later = self._later_ranks()
        if moves and RANK[waste[-1]] not in later:
            return moves
        for k in range(1, len(stock) + 1):
            r = RANK[stock[-k]]
            plays = wants.get(r)
            if plays:
                for play in plays:
                    moves.append(Compound((*(DEAL,) * k, play)))
                if r not in later:
                    return moves
        if self.vars["redeals"] and (stock or waste):
            moves.append(Compound((*(DEAL,) * len(stock), REDEAL)))
        return moves

    def _later_ranks(self) -> set[int]:
        """The ranks some foundation will come to want later but not now: a started one
        further up its four cards, or a slot still to start (the next one from its second
        card). A card that can be played now and whose rank is not among them is played now.

        Why that is safe: a line that keeps such a card back must still play it in the end
        (every card goes home), onto a foundation that wants its rank then; as none will
        come to want it later, that foundation wants it now, and takes nothing else
        meanwhile (it wants that rank only, and only once: four cards never go round the
        thirteen ranks). Playing the card there at once and then making the same moves,
        leaving out the turn that would have brought it up again, keeps every move legal (the
        waste is the same but for that card, which was never its top until then; a slot
        started sooner only allows more) and meets the other line when it plays the card.
        The turns of this pass change nothing else either, so a card of the stock that is
        turned to the top and then turned past is a card kept back in the same way."""
        cards = self.cards
        later: set[int] = set()
        first = True  # the next slot to start: its base is wanted now
        for f, base, _ in self._plays:
            pile = cards[f]
            if pile:
                if len(pile) < 4:
                    want = RANK[pile[-1]] % 13 + 1
                    later.update((want + k - 1) % 13 + 1 for k in range(1, 4 - len(pile)))
            else:
                later.update((base + k - 1) % 13 + 1 for k in range(0 if not first else 1, 4))
                first = False
        return later

    def solver_hopeless(self) -> bool:
        """In the last pass, a waste card that can never be played: the cards under it come
        after it, so only the cards above it and the stock can be played before it. If no
        foundation can come to want its rank from those (each foundation alone, in any
        order, one card of a rank standing for all of them), it stays for ever."""
        if self.vars["redeals"]:
            return False
        cards = self.cards
        waste = cards[self.waste]
        if len(waste) < 2:
            return False
        pool = [0] * 14  # ranks that may be played before the card looked at
        for c in cards[self.stock]:
            pool[RANK[c]] += 1
        state = []  # per foundation: (rank it wants next, room left); None: a slot to start
        for f in self.foundations:
            pile = cards[f]
            state.append((RANK[pile[-1]] % 13 + 1, 4 - len(pile)) if pile else None)
        reach = self._wanted_ranks(state, pool)
        for i in range(len(waste) - 1, -1, -1):
            r = RANK[waste[i]]
            if r not in reach:
                return True
            if not pool[r]:
                pool[r] = 1
                reach = self._wanted_ranks(state, pool)
            else:
                pool[r] += 1
        return False

    @staticmethod
    def _wanted_ranks(state, pool) -> set[int]:
        """Ranks some foundation could come to want, playing cards of the ranks in ``pool``
        (a relaxation: each foundation alone; slots started left to right)."""
        out: set[int] = set()
        open_slots = True  # every slot so far could be started from the pool
        for k, st in enumerate(state):
            if st is None:
                if not open_slots:
                    break
                base = BASES[k]
                out.add(base)
                if not pool[base]:
                    open_slots = False
                    continue
                want, room = base % 13 + 1, 3
            else:
                want, room = st
            while room > 0:
                out.add(want)
                if not pool[want]:
                    break
                want = want % 13 + 1
                room -= 1
        return out
