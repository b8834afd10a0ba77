"""Monte Carlo (000 #6): pair touching cards of one rank, close up the gaps, refill."""

from __future__ import annotations

from .engine.cards import RANK
from .engine.model import GameInfo, Move, Option
from .engine.reason import GameName, Reason
from .engine.registry import register
from .families.grid import CellGame, touching

CLOSE_UP = Move("close_up")
REFILL = Move("refill")
CLOSE_UP_REFILL = Move("close_up_refill")


@register
class MonteCarlo(CellGame):
    info = GameInfo(
        id="monte_carlo",
        source="000_5c0014aada07c9b6.txt", source_game="6",
        decks=1, kind="S-luck", difficulty=2, score_better="lower",
    )
    options = (
        Option("variant", "standard", ("standard", "4x5"), "5 rows of 5, or 4 rows of 5"),
        Option("combined_close_up_refill", False, (False, True),
               "close up and refill in one action, allowed whenever there is a gap"),
    )

    def shape(self) -> tuple[int, ...]:
        return (5,) * (4 if self.opts["variant"] == "4x5" else 5)

    @property
    def row_step(self) -> float:  # type: ignore[override]  # a grid's step is data; the option decides it here
        # five rows of cards only fit a landscape screen when they overlap a little
        return 1.25 if len(self.shape()) == 5 else 1.6

    def prepare(self) -> None:
        super().prepare()
        cell = self.cell
        pairs = tuple((cell[i], cell[j]) for i, j in touching(len(self.shape()), 5))
        self._touch = frozenset(pairs)
        self._removes = tuple((a, b, Move("remove", a, b)) for a, b in pairs)
        self.combined = self.opts["combined_close_up_refill"]

    # ------------------------------------------------------------------ rules
    def layout_state(self) -> tuple[bool, bool]:
        """(a gap precedes a card, every cell is filled)."""
        cards = self.cards
        empty_seen = False
        for p in self.cell:
            if not cards[p]:
                empty_seen = True
            elif empty_seen:
                return True, False
        return False, not empty_seen

    def legal_moves(self) -> list[Move]:
        cards = self.cards
        moves = [m for a, b, m in self._removes
                 if cards[a] and cards[b] and RANK[cards[a][0]] == RANK[cards[b][0]]]
        gap, full = self.layout_state()
        stock = bool(cards[self.stock])
        if self.combined:
            if gap or (stock and not full):
                moves.append(CLOSE_UP_REFILL)
        elif gap:
            moves.append(CLOSE_UP)
        elif not moves and stock and not full:
            moves.append(REFILL)
        return moves

    def apply(self, move: Move) -> None:
        kind = move.kind
        if kind == "remove":
            self.discard_top(move.src, move.dst)
            return
        if kind in ("close_up", "close_up_refill"):
            self.close_up()
        if kind in ("refill", "close_up_refill"):
            for p in self.cell:
                if not self.cards[p] and self.cards[self.stock]:
                    self.fill_from_stock(p)

    def close_up(self) -> None:
        """Slide every card back into the first free cell before it, keeping reading order."""
        cards, cell = self.cards, self.cell
        k = 0
        for p in cell:
            if cards[p]:
                if p != cell[k]:
                    self._move_cards(p, cell[k])
                k += 1

    # ------------------------------------------------------------------ words
    def explain(self, move: Move) -> Reason:
        kind = move.kind
        if kind == "remove":
            named = self.named_cells(move)
            if isinstance(named, Reason):
                return named
            refusal = self.touching_pair_refusal(named)
            if refusal is not None:
                return refusal
            a, b = sorted(named)
            return Reason("The {card} and the {card2} are not the same rank.",
                          card=self.card_at(a), card2=self.card_at(b))
        gap, full = self.layout_state()
        if kind in ("close_up", "refill") and self.combined or \
                kind == "close_up_refill" and not self.combined:
            if self.combined:
                return Reason("With these rules, closing up and refilling are one action.")
            return Reason("With these rules, closing up and refilling are two separate actions.")
        if kind == "close_up":
            return Reason("There is no gap to close up.")
        if kind == "refill":
            if gap:
                return Reason("Close up the gaps before refilling.")
            if full:
                return Reason("The layout is already full.")
            if not self.cards[self.stock]:
                return Reason("The stock is empty.")
            return Reason("A pair can still be removed; refill only when no pair touches.")
        if kind == "close_up_refill":
            return Reason("There is no gap to close up or fill.")
        if kind == "move":
            return Reason("Cards are not moved one by one: remove two touching cards of the same "
                          "rank.")
        return Reason("That is not a move in {game}.", game=GameName(self.info.id))
