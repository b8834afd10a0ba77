"""Bisley (000 #19): thirteen open columns, aces building up and kings building down.

Each suit has two foundations that grow towards each other: the ace pile up, the king pile
down. Where they meet the suit is complete and the king pile is laid onto the ace pile, as the
source describes (automatic; it changes nothing in play).
"""

from __future__ import annotations

from collections.abc import Iterable

from .engine.cards import ACE, KING, RANK, SUIT, card
from .engine.model import GameInfo, Move, PileSpec
from .engine.reason import Card, Reason
from .engine.registry import register
from .engine.rng import Rng
from .families.patience import Build, PatienceGame, Rule

ACE_PILE = Rule(Build("same", +1), empty="none", take="none", name="ace foundation")
KING_PILE = Rule(Build("same", -1), empty="king", take="none", name="king foundation")
COLUMN = Rule(Build("same", 0), empty="none", take="top", name="column")

_move = Move._make
#: x of the tableau and the pitch between its columns (two rows of columns fit the screen)
TX, PITCH = 2.45, 1.15


@register
class Bisley(PatienceGame):
    info = GameInfo(
        id="bisley",
        source="000_5c0014aada07c9b6.txt", source_game="19",
        decks=1, kind="S-open", difficulty=2,
    )
    standard_foundations = False

    def build_layout(self) -> Iterable[PileSpec]:
        for suit in range(4):
            yield PileSpec(f"F{suit + 1}", "foundation", 0, round(1.6 * suit, 2), label="A")
        for suit in range(4):
            yield PileSpec(f"F{suit + 5}", "foundation", PITCH, round(1.6 * suit, 2), label="K")
        for i in range(13):
            row, col = divmod(i, 7)
            yield PileSpec(f"T{i + 1}", "tableau", round(TX + PITCH * col, 2), 3.2 * row,
                           fan="down")

    def rule_for(self, index: int, spec: PileSpec) -> Rule:
        if spec.role == "foundation":
            return ACE_PILE if spec.label == "A" else KING_PILE
        return COLUMN

    def prepare(self) -> None:
        super().prepare()
        self.ace_piles = self.foundations[:4]
        self.king_piles = self.foundations[4:]
        #: the suit each foundation belongs to
        self.suit_of = {f: i % 4 for i, f in enumerate(self.foundations)}

    def deal(self, rng: Rng) -> None:
        deck = self.aces_out(self.ace_piles)
        rng.shuffle(deck)
        for t in self.tableau[4:]:
            self.put(t, deck.pop())
        self.deal_rows(self.tableau, deck, 3)

    def empty_accepts(self, d: int, c: int) -> bool:
        if self.rule[d] is KING_PILE:
            return RANK[c] == KING and SUIT[c] == self.suit_of[d]
        return super().empty_accepts(d, c)

    def settle(self) -> None:
        """Lay a king pile onto its ace pile once they meet; nothing is ever face down."""
        cards = self.cards
        for a, k in zip(self.ace_piles, self.king_piles, strict=True):
            kp = cards[k]
            if kp and RANK[cards[a][-1]] + 1 == RANK[kp[-1]]:
                self._move_cards(k, a, len(kp), reverse=True)

    # --------------------------------------------------------------- fast move generation
    def legal_moves(self) -> list[Move]:
        """Single cards: the cards a top takes are known, so look them up."""
        cards = self.cards
        moves: list[Move] = []
        on_top = {cards[t][-1]: t for t in self.tableau if cards[t]}
        up: dict[int, int] = {}
        down: dict[int, int] = {}
        for suit in range(4):
            a, k = self.ace_piles[suit], self.king_piles[suit]
            if RANK[cards[a][-1]] < KING:
                up[cards[a][-1] + 1] = a
            if not cards[k]:
                down[card(KING, suit)] = k
            elif RANK[cards[k][-1]] > ACE:
                down[cards[k][-1] - 1] = k
        for s in self.tableau:
            pile = cards[s]
            if not pile:
                continue
            c = pile[-1]
            r = RANK[c]
            if c in up:
                moves.append(_move(("move", s, up[c], 1, ())))
            if c in down:
                moves.append(_move(("move", s, down[c], 1, ())))
            if r < KING and c + 1 in on_top:
                moves.append(_move(("move", s, on_top[c + 1], 1, ())))
            if r > ACE and c - 1 in on_top:
                moves.append(_move(("move", s, on_top[c - 1], 1, ())))
        return moves

    def safe_autoplay(self) -> Move | None:
        """Any foundation move: whatever could be built on the card can follow it there."""
        for m in self.legal_moves():
            if self._role[m.dst] == "foundation":
                return m
        return None

    def explain_card_move(self, s: int, d: int, n: int) -> Reason:
        if (d in self.king_piles and not self.cards[d] and self.cards[s]
                and self.rule[s].take != "none" and n == 1):
            c = self.cards[s][-1]
            if not self.empty_accepts(d, c):
                return Reason("Only the {card:name} can start this pile.",
                              card=Card(card(KING, self.suit_of[d])))
        return super().explain_card_move(s, d, n)
