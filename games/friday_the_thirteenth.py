"""Friday the Thirteenth (000 #4): thirteen foundations of four, started J, Q, K, A, 2 ... 10."""

from __future__ import annotations

from collections.abc import Iterable

from .cards import RANK
from .model import GameInfo, Move, PileSpec
from .patience import DEAL, REDEAL, Build, PatienceGame, Rule, roles
from .reason import Rank, Reason
from .registry import register
from .rng import Rng

#: the rank each of the thirteen slots is started with, left to right
BASES = (11, 12, 13, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10)
LABELS = ("J", "Q", "K", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10")




@register
class FridayTheThirteenth(PatienceGame):
    info = GameInfo(
        id="friday_the_thirteenth",
        source="000_5c0014aada07c9b6.txt", source_game="4",
        decks=1, kind="S-luck", difficulty=1,
    )
    draw = 1
    redeals = 1
    standard_foundations = False
    SOLVER_PRUNES = True
    RULES = {
        "foundation": Rule(Build("any", +1, wrap=True), empty="base", take="none", max_cards=4,
                           sources=roles("waste"), name="foundation"),
        "waste": Rule(take="top", empty="none", name="waste"),
    }

    def build_layout(self) -> Iterable[PileSpec]:
        yield PileSpec("S", "stock", 0, 0)
        yield PileSpec("W", "waste", 0, 1.6)
        for i, label in enumerate(LABELS):
            row, col = divmod(i, 7)
            x = 1.4 + 1.2 * col + 0.6 * row
            yield PileSpec(f"F{i + 1}", "foundation", x, 1.6 * row, label=label)

    def deal(self, rng: Rng) -> None:
        deck = list(range(52))
        rng.shuffle(deck)
        order = deck[::-1]  # the top of the pack first
        picked = [next(c for c in order if RANK[c] == r) for r in BASES[:4]]
        for f, c in zip(self.foundations, picked, strict=False):
            self.put(f, c)
        self.init_stock([c for c in order if c not in picked])

    def prepare(self) -> None:
        super().prepare()
        self._plays = tuple((f, base, Move("move", self.waste, f))
                            for f, base in zip(self.foundations, BASES, strict=True))

    def legal_moves(self) -> list[Move]:
        """Only the waste card ever moves: straight to the foundations that take it."""
        moves: list[Move] = []
        self.stock_moves(moves)
        waste = self.cards[self.waste]
        if waste:
            r = RANK[waste[-1]]
            for f, base, play in self._plays:
                pile = self.cards[f]
                if not pile:  # slots fill from the left: this is the next one
                    if r == base:
                        moves.append(play)
                    break
                if len(pile) < 4 and RANK[pile[-1]] % 13 + 1 == r:
                    moves.append(play)
        return moves

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
                    moves.append((*(DEAL,) * k, play))
                if r not in later:
                    return moves
        if self.vars["redeals"] and (stock or waste):
            moves.append((*(DEAL,) * len(stock), REDEAL))
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

    def next_slot(self) -> int:
        """The leftmost empty foundation, or -1."""
        return next((f for f in self.foundations if not self.cards[f]), -1)

    def empty_accepts(self, d: int, c: int) -> bool:
        return d == self.next_slot() and RANK[c] == BASES[d - self.foundations[0]]

    def explain_card_move(self, s: int, d: int, n: int) -> Reason:
        if d in self.foundations and not self.cards[d] and s == self.waste and self.cards[s]:
            slot = self.next_slot()
            if d != slot:
                return Reason("Foundations are started from left to right: the next empty slot "
                              "takes {rank:a}.", rank=Rank(BASES[slot - self.foundations[0]]))
            return Reason("Only {rank:a} can start this foundation.",
                          rank=Rank(BASES[d - self.foundations[0]]))
        return super().explain_card_move(s, d, n)
