"""Poker Squares (000 #25): place 25 cards in a 5×5 grid to make ten scoring poker hands."""

from __future__ import annotations

from collections.abc import Iterable

from .engine import cards as C
from .engine.game import Game
from .engine.model import GameInfo, Move, Option, PileSpec
from .engine.reason import GameName, Reason
from .engine.registry import register
from .engine.rng import Rng
from .families import poker
from .families.grid import around

SIZE = 5
CELLS = SIZE * SIZE
#: the ten hands: five rows, then five columns (cell numbers 0..24 in reading order)
LINES: tuple[tuple[int, ...], ...] = tuple(
    tuple(r * SIZE + c for c in range(SIZE)) for r in range(SIZE)
) + tuple(tuple(r * SIZE + c for r in range(SIZE)) for c in range(SIZE))
#: the row and the column through each cell
LINES_OF: tuple[tuple[int, int], ...] = tuple((i // SIZE, SIZE + i % SIZE) for i in range(CELLS))
#: cells touching each cell, diagonals included (variant: example 3)
NEAR = around(SIZE, SIZE)
GOOD = {"american": 150, "english": 50}
EXCELLENT = {"american": 200, "english": 60}
FINISH = Move("finish")


@register
class PokerSquares(Game):
    info = GameInfo(
        id="poker_squares",
        source="000_5c0014aada07c9b6.txt", source_game="25",
        decks=1, kind="S-mixed", difficulty=2, score_better="higher",
    )
    options = (
        Option("scoring", "american", ("american", "english"), "the points table"),
        Option("rearrange", "off", ("off", "deal_all", "after_play"),
               "swap cards freely: all 25 dealt at once, or after placing them as usual"),
        Option("joker", "off", ("off", "mixed_in", "replace"),
               "a wild joker among the 25 cards (method A), or swapped in at the end (method B)"),
        Option("adjacent", False, (False, True),
               "each card must touch the one placed before it"),
        Option("free_first_card", False, (False, True),
               "the first card may go in any square, not only the top-left"),
    )

    def build_layout(self) -> Iterable[PileSpec]:
        yield PileSpec("S", "stock", 0, 0)
        for i in range(CELLS):
            r, c = divmod(i, SIZE)
            # five rows of cards fit the screen's height only if they overlap a little
            yield PileSpec(f"G{i + 1}", "grid", 1.6 + 1.2 * c, 1.25 * r)
        if self.opts["joker"] == "replace":
            yield PileSpec("J", "reserve", 0, 1.6, label="JK")
            yield PileSpec("D", "discard", 0, 3.2)

    def prepare(self) -> None:
        self.stock = self.first("stock")
        self.grid: tuple[int, ...] = tuple(self.roles["grid"])
        self.spare = self.first("reserve")
        self.discard = self.first("discard")
        self.system = self.opts["scoring"]
        self.points = poker.TABLES[self.system]
        self.rearrange = self.opts["rearrange"]
        self.adjacent = self.opts["adjacent"]

    def deal(self, rng: Rng) -> None:
        deck = C.deck()
        rng.shuffle(deck)
        if self.opts["joker"] == "mixed_in":
            placed = deck[:CELLS - 1] + [C.JOKER]
            rng.shuffle(placed)
            deck = placed + deck[CELLS - 1:]
        if self.rearrange == "deal_all":
            for g, c in zip(self.grid, deck, strict=False):
                self.put(g, c)
            deck = deck[CELLS:]
        self.put_stock(self.stock, reversed(deck))
        if self.spare >= 0:
            self.put(self.spare, C.JOKER)
        if self.adjacent:
            self.vars["last"] = -1
        if self.rearrange == "after_play":
            self.vars["placed_score"] = -1
        if self.rearrange != "off" or self.spare >= 0:
            self.vars["finished"] = False

    def settle(self) -> None:
        """Show the next card while squares are left to fill."""
        s = self.stock
        if self.cards[s] and self.down[s] == len(self.cards[s]) and self.filled() < CELLS:
            self._flip(s)

    # ------------------------------------------------------------------ rules
    def filled(self) -> int:
        cards = self.cards
        return sum(1 for g in self.grid if cards[g])

    def targets(self) -> list[int]:
        """The squares the next card may go to."""
        cards, grid = self.cards, self.grid
        empty = [k for k, g in enumerate(grid) if not cards[g]]
        if len(empty) == CELLS:
            return [grid[k] for k in empty] if self.opts["free_first_card"] else [grid[0]]
        if self.adjacent:
            near = NEAR[self.vars["last"]]
            close = [k for k in empty if k in near]
            if close:
                empty = close
        return [grid[k] for k in empty]

    def legal_moves(self) -> list[Move]:
        if self.vars.get("finished"):
            return []
        if self.filled() < CELLS:
            return [Move("place", self.stock, g) for g in self.targets()]
        moves = []
        if self.rearrange != "off":
            grid = self.grid
            moves = [Move("swap", a, b) for i, a in enumerate(grid) for b in grid[i + 1:]]
        if self.spare >= 0 and self.cards[self.spare]:
            moves.extend(Move("joker", self.spare, g) for g in self.grid)
        if moves:
            moves.append(FINISH)
        return moves

    def apply(self, move: Move) -> None:
        kind = move.kind
        if kind == "place":
            self._move_cards(self.stock, move.dst)
            if self.adjacent:
                self._set("last", self.grid.index(move.dst))
            if self.rearrange == "after_play" and self.filled() == CELLS:
                self._set("placed_score", self.score)
        elif kind == "swap":
            a, b = move.src, move.dst
            ca, cb = self.cards[a], self.cards[b]
            self._replace(a, cb, 0)
            self._replace(b, ca, 0)
        elif kind == "joker":
            self._move_cards(move.dst, self.discard)
            self._move_cards(self.spare, move.dst)
        elif kind == "finish":
            self._set("finished", True)

    #: ``swap:G9,G2`` names the same two squares as ``swap:G2,G9``
    unordered = ("swap",)

    # ------------------------------------------------------------------ scoring
    def hands(self) -> list[list[int]]:
        """The cards of the ten lines, rows first (a joker as itself)."""
        cells = [self.cards[g][-1] if self.cards[g] else -1 for g in self.grid]
        return [[cells[i] for i in line if cells[i] >= 0] for line in LINES]

    def _joker_cell(self) -> int:
        cards = self.cards
        return next((k for k, g in enumerate(self.grid) if cards[g] and cards[g][-1] >= C.JOKER),
                    -1)

    def _designate(self, hands: list[list[int]], at: int) -> int:
        """The card the joker in cell ``at`` stands for: one card for its row and column."""
        return poker.designate([hands[i] for i in LINES_OF[at]], self.points)

    def designation(self) -> int | None:
        """The card the joker in the grid stands for, or None."""
        at = self._joker_cell()
        return None if at < 0 else self._designate(self.hands(), at)

    def line_points(self) -> list[int]:
        """Points of the ten lines, rows first; a joker counts as one card in both its lines."""
        hands = self.hands()
        at = self._joker_cell()
        if at >= 0:
            card = self._designate(hands, at)
            hands = [[card if c >= C.JOKER else c for c in h] for h in hands]
        pts, value = self.points, poker.evaluate
        return [pts[value(h)[0]] for h in hands]

    @property
    def score(self) -> int:
        return sum(self.line_points())

    @property
    def placement_score(self) -> int | None:
        """With "rearrange after play": the score the placement made, before any swap."""
        value = self.vars.get("placed_score", -1)
        return None if value < 0 else value

    @property
    def complete(self) -> bool:
        return self.filled() == CELLS and not self.legal_moves()

    @property
    def won(self) -> bool:
        return self.complete and self.score >= EXCELLENT[self.system]

    @property
    def grade(self) -> str | None:
        if self.filled() < CELLS:
            return None
        s = self.score
        if s >= EXCELLENT[self.system]:
            return "excellent"
        return "good" if s >= GOOD[self.system] else None

    # ------------------------------------------------------------------ words
    def explain(self, move: Move) -> Reason:
        kind = move.kind
        if self.vars.get("finished"):
            return Reason("The game is finished.")
        full = self.filled() == CELLS
        if kind == "place":
            if full:
                return Reason("All 25 squares are filled.")
            if move.src != self.stock:
                return Reason("Cards are placed from the stock.")
            if move.dst not in self.grid:
                return Reason("Place the card on a square of the 5×5 grid.")
            if self.cards[move.dst]:
                return Reason("That square is already taken; a placed card never moves.")
            if self.filled() == 0:
                return Reason("The first card goes in the top-left square.")
            return Reason("The card must go next to the one placed before it (diagonals count).")
        if kind == "swap":
            if self.rearrange == "off":
                return Reason("Placed cards never move in this game.")
            if not full:
                return Reason("Cards can be swapped only when all 25 are in the grid.")
            return Reason("Swap two different squares of the grid.")
        if kind == "joker":
            if self.spare < 0:
                return Reason("This game has no joker to swap in.")
            if not self.cards[self.spare]:
                return Reason("The joker has already been used.")
            if not full:
                return Reason("The joker replaces a card only when the grid is complete.")
            return Reason("The joker can replace a card of the grid.")
        if kind == "finish":
            if not full:
                return Reason("Fill the grid first.")
            return Reason("There is nothing left to finish.")
        if kind == "move":
            return Reason("Tap an empty square to place the turned card; placed cards never move.")
        return Reason("That is not a move in {game}.", game=GameName(self.info.id))
