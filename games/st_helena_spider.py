"""St Helena (source 002, "Svyataya Elena"): a two-deck Spider in which suits never matter.

Not the Western "St. Helena" (Napoleon's Favourite), a different game. Runs of any suits
build and move; a complete king-to-ace run leaves the table onto one of eight finished-run
piles, so removed cards stay countable and undo is one journal entry like every other move.
"""

from __future__ import annotations

from collections.abc import Iterator

from . import cards as C
from .model import GameInfo, Move, Option, PileSpec
from .patience import DEAL, Build, PatienceGame, Rule
from .reason import Reason
from .registry import register
from .rng import Rng

RUN = 13

#: byte translation from card codes to ranks (for the solver's keys)
_RANKS = bytes(C.RANK[c] if c < len(C.RANK) else 0 for c in range(256))


@register
class StHelenaSpider(PatienceGame):
    info = GameInfo(
        id="st_helena_spider",
        source="002_641e09ccd4cb0ebe.txt",
        decks=2, kind="S-mixed", difficulty=2,
    )
    options = (
        Option("no_deal_with_empty_column", False, help="the stock cannot be dealt while a "
               "column is empty"),
        Option("auto_remove", True, help="complete king-to-ace runs are cleared automatically "
               "(otherwise with a tap: remove:T3)"),
    )
    RULES = {
        "tableau": Rule(Build("any", -1), empty="any", take="run", many=True, name="column"),
        "foundation": Rule(take="none", empty="none", name="finished pile"),
        "stock": Rule(take="none", empty="none", name="stock"),
    }
    standard_foundations = False
    SOLVER_RESTARTS = True

    def build_layout(self) -> Iterator[PileSpec]:
        yield PileSpec("S", "stock", 0, 0)
        for i in range(8):
            yield PileSpec(f"F{i + 1}", "foundation", 2.2 + 1.1 * i, 0, label="K-A")
        for i in range(10):
            yield PileSpec(f"T{i + 1}", "tableau", 1.1 * i, 1.6, fan="down")

    def deal(self, rng: Rng) -> None:
        deck = C.deck(2)
        rng.shuffle(deck)
        for row in range(4):
            for col in self.tableau:
                self.put(col, deck.pop(), up=row == 3)
        self.init_stock(deck[::-1])

    def legal_moves(self) -> list[Move]:
        """The generic search's moves, indexed by top rank: a solver asks millions of times."""
        cards = self.cards
        moves: list[Move] = []
        self.stock_moves(moves)
        onto: dict[int, list[int]] = {}  # rank that fits -> columns
        empty: list[int] = []
        for t in self.tableau:
            if cards[t]:
                onto.setdefault(C.RANK[cards[t][-1]] - 1, []).append(t)
            else:
                empty.append(t)
        for s in self.tableau:
            pile = cards[s]
            for n in self.liftable(s) if pile else ():
                r = C.RANK[pile[-n]]
                moves.extend(Move("move", s, d, n) for d in onto.get(r, ()) if d != s)
                moves.extend(Move("move", s, d, n) for d in empty)
        self.extra_moves(moves)
        return moves

    # ------------------------------------------------------------ for the solver
    def solver_key(self) -> bytes:
        """Suits never matter here (building, moving and clearing go by rank alone), nor
        what a cleared run holds; the stock is only ever dealt from, in order, one card to
        each column, so the columns are interchangeable once it is empty."""
        cards, down = self.cards, self.down
        cols = [bytes((len(cards[t]), down[t])) + bytes(cards[t]).translate(_RANKS)
                for t in self.tableau]
        if not cards[self.stock]:
            cols.sort()
        done = sum(1 for f in self.foundations if cards[f])
        return b"".join(cols) + bytes((len(cards[self.stock]), done))

    def solver_moves(self, prune: bool = False) -> list:
        """Best first: moves that complete a king-to-ace run, that turn a card or empty a
        column, then whole runs joined onto a card one higher, moves into a space, the rest,
        dealing last. Once the stock is empty the spaces are all alike: one stands for all.

        With ``prune`` (suits never matter, so a run resting on a card one higher is as good
        there as anywhere): only a column's whole run moves, never part of it, unless that
        completes a king-to-ace run; into a space only a run that lays a card bare."""
        cards, down, rank = self.cards, self.down, C.RANK
        clear: list = []
        turn: list = []
        join: list = []
        space: list = []
        rest: list = []
        tail: list = []
        spaces_alike = not cards[self.stock]
        seen_space: set[tuple[int, int]] = set()
        for m in self.legal_moves():
            if m.kind != "move":
                (clear if m.kind == "remove" else tail).append(m)
                continue
            src, dst, n = cards[m.src], cards[m.dst], m.n
            left = len(src) - n
            whole = n == len(self.liftable(m.src))  # the column's whole run moves
            if dst and rank[src[-1]] == 1 and self._run_bottom(m.dst) + n >= RUN:
                clear.append(m)
            elif not dst:
                if spaces_alike or prune:
                    if left == 0 or (m.src, n) in seen_space:
                        continue  # the whole column, or the same run into a twin space
                    seen_space.add((m.src, n))
                if prune and not whole:
                    continue
                space.append(m)
            elif left == down[m.src]:
                turn.append(m)
            elif whole:
                join.append(m)
            elif not prune:
                rest.append(m)
        turn.sort(key=lambda m: down[m.src])  # the column nearest to empty first
        return clear + turn + join + space + rest + tail

    def _run_bottom(self, t: int) -> int:
        """How long the run of face-up cards in sequence on top of column ``t`` is."""
        pile = self.cards[t]
        return len(self.liftable(t)) if pile else 0

    # ------------------------------------------------------------ stock and runs
    def stock_moves(self, moves: list[Move]) -> None:
        if self.cards[self.stock] and not self._deal_blocked():
            moves.append(DEAL)

    def _deal_blocked(self) -> bool:
        return self.opts["no_deal_with_empty_column"] and not all(
            self.cards[t] for t in self.tableau)

    def deal_from_stock(self) -> None:
        for col in self.tableau[:len(self.cards[self.stock])]:
            self._move_cards(self.stock, col, 1)

    def complete_run(self, t: int) -> bool:
        """Whether the top 13 face-up cards of column ``t`` run from king down to ace."""
        pile = self.cards[t]
        if len(pile) - self.down[t] < RUN or C.RANK[pile[-1]] != C.ACE:
            return False
        return all(C.RANK[pile[-k]] == k for k in range(2, RUN + 1))

    def _clear(self, t: int) -> None:
        dst = next(f for f in self.foundations if not self.cards[f])
        self._move_cards(t, dst, RUN)

    def extra_moves(self, moves: list[Move]) -> None:
        if not self.opts["auto_remove"]:
            moves.extend(Move("remove", t) for t in self.tableau if self.complete_run(t))

    def apply_extra(self, move: Move) -> None:
        self._clear(move.src)

    def settle(self) -> None:
        if self.opts["auto_remove"]:
            # why: clearing a run first may leave a face-down card on top, which then turns up
            for t in self.tableau:
                if self.complete_run(t):
                    self._clear(t)
        super().settle()

    # ------------------------------------------------------------ messages
    def explain(self, move: Move) -> Reason:
        if move.kind == "deal" and self.cards[self.stock] and self._deal_blocked():
            return Reason("Fill every empty column before dealing.")
        if move.kind == "remove":
            if self.opts["auto_remove"]:
                return Reason("Complete runs are cleared automatically.")
            return Reason("Only a complete run from king down to ace on top of a column can be "
                          "cleared.")
        if move.kind == "move" and 0 <= move.dst < len(self.layout) \
                and self._role[move.dst] == "foundation":
            return Reason("Cards reach a finished pile only as a complete run from king down to "
                          "ace.")
        return super().explain(move)
