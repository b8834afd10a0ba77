"""Scorpion (000 #21): build each suit from king to ace inside the columns themselves.

Any face-up card may be lifted with everything lying on it, in whatever order, onto the next
card up of its suit; so the only card a column top accepts is known in advance, and move
generation looks cards up instead of trying every pair. There are no foundations: success is
counted in complete K→A sequences, which the source grades from "pass" to a total win.
"""

from __future__ import annotations

from collections.abc import Iterable

from .cards import KING, RANK
from .model import GameInfo, Move, Option, PileSpec
from .patience import Build, PatienceGame, Rule
from .reason import Reason
from .registry import register
from .rng import Rng

DEAL = Move("deal")
GRADES = (None, "pass", "good", "excellent", "win")


@register
class Scorpion(PatienceGame):
    info = GameInfo(
        id="scorpion",
        source="000_5c0014aada07c9b6.txt", source_game="21",
        decks=1, kind="S-mixed", difficulty=4,
    )
    SOLVER_PRUNES = False  # see solver_moves: one complete pass
    options = (
        Option("reserve_deal", "any_time", ("any_time", "when_stuck"),
               "when the 3 reserve cards may be dealt"),
    )
    RULES = {"tableau": Rule(Build("same", -1), empty="king", take="any_up", many=True,
                             name="column")}

    def build_layout(self) -> Iterable[PileSpec]:
        yield PileSpec("S", "stock", 0, 0)
        for i in range(7):
            x = round(1.4 + 1.2 * i, 2)
            yield PileSpec(f"T{i + 1}", "tableau", x, 0, fan="down", label="K")

    def deal(self, rng: Rng) -> None:
        deck = list(range(52))
        rng.shuffle(deck)
        for row in range(7):
            for col, t in enumerate(self.tableau):
                self.put(t, deck.pop(), up=row >= 3 or col >= 4)
        for c in deck:
            self.put(self.stock, c, up=False)

    # ------------------------------------------------------------------ moves
    def symmetric_groups(self) -> tuple[tuple[int, ...], ...]:
        """Columns 1-3 differ from the rest only while the reserve waits to be dealt."""
        return (tuple(self.tableau[3:] if self.cards[self.stock] else self.tableau),)

    def solver_key(self) -> bytes:
        """Like :meth:`symmetric_groups`: columns 4-7 (all seven once dealt) as a sorted set."""
        cards, down = self.cards, self.down
        cols = [bytes((down[t],)) + bytes(cards[t]) for t in self.tableau]
        fixed = 3 if cards[self.stock] else 0
        return b"\xff".join(cols[:fixed] + sorted(cols[fixed:])) + bytes((fixed,))

    def solver_moves(self, prune: bool = False) -> list[Move]:
        """No pruning (without foundations, building a suit is exactly what it would drop), but
        one empty column of the interchangeable ones stands for all of them."""
        cards = self.cards
        fixed = self.tableau[:3] if cards[self.stock] else ()
        seen: set[int] = set()
        kept = []
        for m in super().solver_moves(False):
            if m.kind == "move" and not cards[m.dst] and m.dst not in fixed:
                if m.src in seen:
                    continue
                seen.add(m.src)
            kept.append(m)
        return kept

    def solver_hopeless(self) -> bool:
        """Some card can never move while it lies out of place (or over face-down cards).

        A card moves by itself only onto the next card up of its suit when that card is on
        top, or (a king not at the bottom) into a space; otherwise it is carried by a card
        under it. So, starting from nothing, a card is marked *movable* when it is a king
        above the bottom of its column and a space may come (a column is empty, or some
        column's bottom card is movable), when a card under it is movable, or when its next
        card up is in the reserve or lies (not under it) with only movable cards on it,
        and it is face up or the card on it is movable; until nothing changes. The others can never move. At the end every card is face up
        and (kings aside) lies on its next card up: an unmovable card that does not, or a
        face-down card with an unmovable card on it, means the game is lost.
        """
        cards, down = self.cards, self.down
        cols = self.tableau
        where: dict[int, tuple[int, int]] = {}
        for t in cols:
            for i, x in enumerate(cards[t]):
                where[x] = (t, i)
        low = {t: len(cards[t]) for t in cols}  # per column: the lowest movable card
        # a space can come only from a column whose bottom card can go
        space = any(not cards[t] for t in cols)
        changed = True
        while changed:
            changed = False
            for t in cols:
                pile = cards[t]
                for i in range(low[t]):
                    if i < down[t] and i + 1 < low[t]:
                        continue  # face down under a card that stays: it cannot move
                    x = pile[i]
                    if RANK[x] == KING:
                        if not i or not space:
                            continue
                    else:
                        at = where.get(x + 1)
                        if at is not None and ((at[0] == t and at[1] < i)
                                               or at[1] + 1 < low[at[0]]):
                            continue
                    low[t] = i
                    if not i:
                        space = True
                    changed = True
                    break
        for t in cols:
            pile = cards[t]
            for i in range(low[t]):
                x = pile[i]
                if RANK[x] != KING and (not i or pile[i - 1] != x + 1):
                    return True
                if i < down[t] and i + 1 < low[t]:
                    return True
        return False

    def legal_moves(self) -> list[Move]:
        cards, down = self.cards, self.down
        on_top: dict[int, int] = {}
        empty: list[int] = []
        for t in self.tableau:
            col = cards[t]
            if not col:
                empty.append(t)
            elif down[t] < len(col):
                on_top[col[-1]] = t
        moves: list[Move] = []
        for s in self.tableau:
            col = cards[s]
            size = len(col)
            for k in range(down[s], size):
                c = col[k]
                if RANK[c] == KING:
                    if k:  # a king already at the bottom gains nothing from an empty column
                        moves.extend(Move("move", s, d, size - k) for d in empty)
                else:
                    d = on_top.get(c + 1)  # the next card up in the same suit
                    if d is not None and d != s:
                        moves.append(Move("move", s, d, size - k))
        if self.cards[self.stock] and (self.opts["reserve_deal"] == "any_time" or not moves):
            moves.append(DEAL)
        return moves

    def stock_moves(self, moves: list[Move]) -> None:
        """The reserve is dealt by :meth:`legal_moves` itself; there is no waste."""

    def accepts(self, d: int, s: int, n: int) -> bool:
        if n == len(self.cards[s]) and not self.cards[d]:
            return False
        return super().accepts(d, s, n)

    def deal_from_stock(self) -> None:
        for t in self.tableau[:3]:
            if not self.cards[self.stock]:
                break
            self._move_cards(self.stock, t)

    # ------------------------------------------------------------------ results
    @property
    def sequences(self) -> int:
        """Complete K→A runs of one suit, face up and contiguous within a column."""
        found = 0
        for t in self.tableau:
            col = self.cards[t]
            for k in range(self.down[t], len(col) - 12):
                c = col[k]
                if RANK[c] == KING and col[k:k + 13] == list(range(c, c - 13, -1)):
                    found += 1
        return found

    @property
    def won(self) -> bool:
        return self.sequences == 4

    @property
    def score(self) -> int:
        return self.sequences

    @property
    def grade(self) -> str | None:
        return GRADES[self.sequences]

    def explain(self, move: Move) -> Reason:
        if move.kind == "deal":
            if not self.cards[self.stock]:
                return Reason("The reserve has already been dealt.")
            return Reason("The reserve may be dealt only when no other move is left.")
        if move.kind == "redeal":
            return Reason("Scorpion has no redeal.")
        return super().explain(move)

    def explain_card_move(self, s: int, d: int, n: int) -> Reason:
        size = len(self.layout)
        if 0 <= s < size and self.layout[s].role == "stock":
            return Reason("Tap the reserve to deal its cards onto the first three columns.")
        if 0 <= d < size and self.layout[d].role == "stock":
            return Reason("Cards cannot be put back on the reserve.")
        if (0 <= s < size and 0 <= d < size and s != d and self.cards[s]
                and n == len(self.cards[s]) and n in self.liftable(s)
                and super().accepts(d, s, n)):
            return Reason("Moving a whole column into an empty one would change nothing.")
        return super().explain_card_move(s, d, n)
