"""Clock (000 #22, 001 #6): each turned card goes to its hour; finish before the fourth king."""

from __future__ import annotations

from collections.abc import Iterable

from .engine.cards import RANK
from .engine.game import Game
from .engine.model import GameInfo, Move, Option, PileSpec
from .engine.reason import Reason
from .engine.registry import register
from .engine.rng import Rng

#: top-left corners of the twelve hours (1..12), then the centre: an ellipse of card slots
#: spaced so that no two piles overlap within a 9 x 6.5 card area
POSITIONS = (
    (6.0, 0.35), (7.4, 0.95), (7.9, 2.55), (7.4, 4.15), (6.0, 4.75), (4.5, 5.1),
    (3.0, 4.75), (1.6, 4.15), (1.1, 2.55), (1.6, 0.95), (3.0, 0.35), (4.5, 0.0),
    (4.5, 2.55),
)
LABELS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
HOUR_WORDS = ("1 o'clock", "2 o'clock", "3 o'clock", "4 o'clock", "5 o'clock", "6 o'clock",
              "7 o'clock", "8 o'clock", "9 o'clock", "10 o'clock", "11 o'clock",
              "12 o'clock", "centre")


@register
class Clock(Game):
    info = GameInfo(
        id="clock",
        source="000_5c0014aada07c9b6.txt", source_game="22",
        decks=1, kind="S-auto", difficulty=1, score_better="higher",
    )
    options = (
        Option("watch", False, help="once, swap the fourth king with a face-down card"),
        Option("draw", "top", ("top", "bottom"),
               "take the next card from the top of a pile (book 000) or the bottom (book 001)"),
    )

    def build_layout(self) -> Iterable[PileSpec]:
        for i, (x, y) in enumerate(POSITIONS):
            yield PileSpec(f"T{i + 1}", "tableau", x, y, label=LABELS[i], autoflip=False)

    def prepare(self) -> None:
        self.piles = self.roles["tableau"]
        #: the pile each rank goes to: hours 1..12, kings to the centre
        self.home = (-1, *self.piles)
        self.centre = self.piles[12]
        self.from_top = self.opts["draw"] == "top"

    def deal(self, rng: Rng) -> None:
        deck = list(range(52))
        rng.shuffle(deck)
        if self.from_top:
            order = [p for p in self.piles for _ in range(4)]
        else:
            order = [p for _ in range(4) for p in self.piles]
        for p in order:
            self.put(p, deck.pop(), up=False)
        self.vars["at"] = self.centre
        self.vars["swapped"] = False

    def next_index(self, pile: int, k: int = 1) -> int:
        """Where in a pile the ``k``-th face-down card to be drawn lies."""
        return self.down[pile] - k if self.from_top else k - 1

    # ------------------------------------------------------------------ moves
    def legal_moves(self) -> list[Move]:
        at = self.vars["at"]
        if self.down[at]:
            return [Move("turn", at)]
        if not self.opts["watch"] or self.vars["swapped"]:
            return []
        # the deepest card first: a king put there comes up last
        return [Move("swap", p, -1, k) for p in self.piles for k in range(self.down[p], 0, -1)]

    def apply(self, move: Move) -> None:
        p = move.src
        i = self.next_index(p, move.n)
        c = self.cards[p][i]
        if move.kind == "swap":
            king = self.cards[self.centre][-1]
            self._replace(self.centre, self.cards[self.centre][:-1], 0)
            self._replace(p, self.cards[p][:i] + [king] + self.cards[p][i + 1:], self.down[p])
            self._set("swapped", True)
        else:
            self._replace(p, self.cards[p][:i] + self.cards[p][i + 1:], self.down[p] - 1)
        t = self.home[RANK[c]]
        self._replace(t, self.cards[t] + [c], self.down[t])
        self._set("at", t)

    @property
    def won(self) -> bool:
        return not any(self.down)

    @property
    def score(self) -> int:
        return sum(1 for p in self.piles if len(self.cards[p]) - self.down[p] == 4)

    @property
    def grade(self) -> Reason | None:
        # a value, not English: the kiosk says it in the visitor's language
        if self.won or self.legal_moves():
            return None
        return Reason("{n} of 13 groups", n=self.score)

    def explain(self, move: Move) -> Reason:
        at = self.vars["at"]
        hour = self.piles.index(at) + 1
        if move.kind == "turn":
            if not self.down[at]:
                return Reason("There is no face-down card left to turn: the game is over.")
            return self._at(Reason("The next card must come from the {n} o'clock pile.", n=hour),
                            Reason("The next card must come from the centre pile."))
        if move.kind == "swap":
            if not self.opts["watch"]:
                return Reason("Swapping the last king is allowed only in the Watch variant.")
            if self.vars["swapped"]:
                return Reason("The king has already been swapped once.")
            if self.down[at]:
                return Reason("A king may be swapped only when the fourth king has come up.")
            if move.src not in self.piles or not 1 <= move.n <= self.down[move.src]:
                return Reason("Choose a face-down card to swap with the king.")
        if self.down[at]:
            return self._at(Reason("The cards move by themselves in Clock: tap the {n} o'clock "
                                   "pile to turn its next card.", n=hour),
                            Reason("The cards move by themselves in Clock: tap the centre pile "
                                   "to turn its next card."))
        if at == self.centre:
            return Reason("The game is over: the fourth king has come up.")
        return self._at(Reason("The game is over: the {n} o'clock pile has no face-down card "
                               "left.", n=hour),
                        Reason("The game is over: the centre pile has no face-down card left."))

    def _at(self, hour: Reason, centre: Reason) -> Reason:
        """The sentence naming the current pile: an hour, or the centre (the kings' pile)."""
        return centre if self.vars["at"] == self.centre else hour
