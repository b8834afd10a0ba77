"""What a tap, a selection or a drop means, for any game, from its legal moves alone.

No Kivy here: the table view turns fingers into ``(pile, card index)`` and asks this module
which engine move that is. Nothing is game-specific beyond pile roles:

* a tap on a card plays its best legal card move (foundation first, then the most useful
  tableau move); tapping the same card again tries its next place;
* a tap on the stock deals (``deal``/``redeal``, or any move out of the stock);
* moves of other kinds ("remove" two cards, "slide", "jump", ...) are made by selecting:
  the tapped pile is highlighted with the piles that could complete a move, and a tap on
  one of them completes it; a move that involves only the tapped pile, or the only move
  that involves it, is played at once;
* a drop of a dragged card on a pile plays the card move or the two-pile move joining them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from games import Move
from games.engine.reason import Reason
from kiosk.table.controller import TableController

STOCK_KINDS = ("deal", "redeal")
ROLE_RANK = {"foundation": 100, "tableau": 60, "hand": 40, "grid": 40, "waste": 30,
             "discard": 25, "cell": 20, "reserve": 20, "stock": 0}


def piles_of(move: Move) -> frozenset[int]:
    """Every pile a move touches."""
    return frozenset(p for p in (move.src, move.dst, *move.extra) if p >= 0)


@dataclass
class TapResult:
    """What came of a tap: ``played`` (``move``), ``selected``, ``cleared``, ``refused``
    (with ``reason``) or ``none``."""

    outcome: str
    move: Move | None = None
    reason: Reason | str | None = None
    highlight: frozenset[int] = field(default_factory=frozenset)


class Interaction:
    """Turns taps and drops on piles into moves for one controller."""

    def __init__(self, controller: TableController) -> None:
        self.ctl = controller
        self.selection: list[int] = []
        self.depth = 0  # depth of a selected buried card (0: the top card)
        self._cycle: tuple[int, frozenset[int], int] | None = None  # card, tried piles, moves

    # ------------------------------------------------------------------ helpers
    @property
    def game(self):
        return self.ctl.game

    def reset(self) -> None:
        self.selection.clear()
        self.depth = 0
        self._cycle = None

    def _lift(self, pile: int, index: int) -> int:
        """How many cards a touch on card ``index`` lifts (0: none, e.g. an empty pile)."""
        cards = self.game.cards[pile]
        if index < 0 or index >= len(cards):
            return 0
        return len(cards) - index

    def card_moves(self, pile: int, index: int, moves: list[Move] | None = None) -> list[Move]:
        """Legal card moves of the card at ``index`` (with everything on top of it)."""
        n = self._lift(pile, index)
        if n <= 0 or index < self.game.down[pile]:
            return []
        moves = self.ctl.legal_moves() if moves is None else moves
        return [m for m in moves if m.kind == "move" and m.src == pile and m.n == n]

    def other_moves(self, pile: int, moves: list[Move] | None = None) -> list[Move]:
        """Legal moves of other kinds that involve ``pile``."""
        moves = self.ctl.legal_moves() if moves is None else moves
        return [m for m in moves if m.kind != "move" and pile in piles_of(m)]

    def rank(self, move: Move) -> float:
        """How good a card move is for a tap: foundation first, then useful building."""
        g = self.game
        dst_role = g.layout[move.dst].role
        score = float(ROLE_RANK.get(dst_role, 30))
        src_cards = g.cards[move.src]
        rest = len(src_cards) - move.n
        if dst_role in ("tableau", "hand", "grid"):
            if g.cards[move.dst]:
                score += 5
            elif rest == 0:
                score = 5  # a whole pile into an empty one changes nothing
            if 0 < rest and g.down[move.src] >= rest:
                score += 10  # turns a card over
            elif rest == 0 and g.layout[move.src].role == "tableau":
                score += 3   # empties a column
        if g.layout[move.src].role == "foundation":
            score -= 50
        return score - move.dst * 1e-3  # ties: the leftmost, top-most pile

    def _reason(self, pile: int, index: int, target: int | None = None) -> Reason | None:
        """The engine's reason why the tapped/dropped card cannot go anywhere: asked about
        the pile the tap would have played it to (the best of the game's card targets)."""
        g = self.game
        n = max(1, self._lift(pile, index))
        probes: list[Move] = []
        if target is not None:
            probes.append(Move("move", pile, target, n))
        else:
            targets = [Move("move", pile, t, n) for t in g.card_targets(pile)]
            if targets:
                probes.append(max(targets, key=self.rank))
        kinds = {m.kind for m in g.history} | {m.kind for m in self.ctl.legal_moves()}
        for kind in sorted(kinds - {"move", *STOCK_KINDS}):
            try:
                shape = [pile] if target is None else [pile, target]
                probes.append(g.make_move(kind, shape, 1))
            except Exception:
                continue
        if not probes and target is None and g.layout[pile].role != "stock":
            probes.append(Move("move", pile, pile, n))
        for probe in probes:
            reason = self.ctl.why_illegal(probe)
            if reason:
                return reason
        return None

    # ------------------------------------------------------------------ taps
    def tap(self, pile: int, index: int, source: str = "tap") -> TapResult:
        """Handle a tap on card ``index`` of ``pile`` (``-1``: the empty pile itself)."""
        g = self.game
        moves = self.ctl.legal_moves()
        if self.selection:
            result = self._complete_selection(pile, moves, source)
            if result is not None:
                return result
        role = g.layout[pile].role
        if role == "stock":
            stock = [m for m in moves if m.src == pile or
                     (m.kind in STOCK_KINDS and m.src < 0 and m.dst < 0)]
            stock.sort(key=lambda m: (m.src != pile, m.kind not in STOCK_KINDS))
            if stock:
                return self._play(stock[0], source)
            reason = self.ctl.why_illegal(Move("deal"))
            if not g.cards[pile] and any(m.kind == "redeal" for m in g.history):
                reason = self.ctl.why_illegal(Move("redeal")) or reason
            return TapResult("refused", reason=reason)
        cand = self.card_moves(pile, index, moves)
        if cand:
            return self._play(self._choose(pile, index, cand), source)
        other = self.other_moves(pile, moves)
        lift = self._lift(pile, index)
        if lift > 1:  # a buried card: moves that name its depth (a "draw" of that card)
            deep = [m for m in other if m.src == pile and m.n == lift]
            other = deep or [m for m in other if m.n == 1]
        if other:
            if len(other) == 1 or all(piles_of(m) == {pile} for m in other):
                return self._play(other[0], source)
            self.selection = [pile]
            self.depth = lift if lift > 1 else 0
            return TapResult("selected", highlight=self._partners(moves))
        if index < 0 and not g.cards[pile]:
            return TapResult("none")
        return TapResult("refused", reason=self._reason(pile, index))

    def _choose(self, pile: int, index: int, cand: list[Move]) -> Move:
        g = self.game
        card = g.cards[pile][index]
        ranked = sorted(cand, key=self.rank, reverse=True)
        if self._cycle and self._cycle[0] == card and self._cycle[2] == len(g.history):
            tried = self._cycle[1]
            fresh = [m for m in ranked if m.dst not in tried]
            if fresh:
                return fresh[0]
        return ranked[0]

    def _selectable(self, moves: list[Move]) -> list[Move]:
        """Non-card moves that fit the selection (and the selected card's depth)."""
        want = set(self.selection)
        out = [m for m in moves if m.kind != "move" and want <= piles_of(m)]
        if self.depth:
            out = [m for m in out if m.src == self.selection[0] and m.n == self.depth]
        return out

    def _partners(self, moves: list[Move]) -> frozenset[int]:
        out: set[int] = set()
        for m in self._selectable(moves):
            out |= piles_of(m)
        if self.depth and any(m.src == m.dst for m in self._selectable(moves)):
            return frozenset(out)  # the card may go to the top of its own pile
        return frozenset(out - set(self.selection))

    def _complete_selection(self, pile: int, moves: list[Move], source: str
                            ) -> TapResult | None:
        selectable = self._selectable(moves)
        if pile in self.selection:
            same = [m for m in selectable if piles_of(m) == set(self.selection)
                    and m.dst == pile and len(self.selection) == 1 and self.depth]
            self.selection.clear()
            self.depth = 0
            if same:
                return self._play(same[0], source)
            return TapResult("cleared")
        want = frozenset(self.selection) | {pile}
        cands = [m for m in selectable if want <= piles_of(m)]
        exact = [m for m in cands if piles_of(m) == want]
        if exact:
            self.selection.clear()
            return self._play(exact[0], source)
        if cands:
            self.selection.append(pile)
            return TapResult("selected", highlight=self._partners(moves))
        first = self.selection[0]
        self.selection.clear()
        self.depth = 0
        if any(pile in piles_of(m) for m in moves if m.kind != "move"):
            return None  # start a new selection from this pile
        reason = self._reason(first, len(self.game.cards[first]) - 1, pile)
        return TapResult("refused", reason=reason)

    def _play(self, move: Move, source: str) -> TapResult:
        g = self.game
        card = g.cards[move.src][-move.n] if move.kind == "move" and move.src >= 0 else -1
        tried = frozenset()
        if self._cycle and card == self._cycle[0] and self._cycle[2] == len(g.history):
            tried = self._cycle[1]
        reason = self.ctl.play(move, source)
        if reason is not None:
            self._cycle = None
            return TapResult("refused", reason=reason)
        if card >= 0:
            self._cycle = (card, tried | {move.src, move.dst}, len(g.history))
        else:
            self._cycle = None
        self.selection.clear()
        self.depth = 0
        return TapResult("played", move=move)

    # ------------------------------------------------------------------ drags
    def drag_targets(self, pile: int, index: int) -> dict[int, Move]:
        """Piles a card (with what lies on it) may be dropped on, with the move each means."""
        moves = self.ctl.legal_moves()
        out: dict[int, Move] = {}
        for m in self.card_moves(pile, index, moves):
            out.setdefault(m.dst, m)
        lift = self._lift(pile, index)
        for m in self.other_moves(pile, moves):  # e.g. a buried card drawn onto a pile
            if m.src == pile and m.dst >= 0 and m.dst != pile and m.n == lift and lift > 1:
                out.setdefault(m.dst, m)
        if index == len(self.game.cards[pile]) - 1:
            for m in self.other_moves(pile, moves):
                others = piles_of(m) - {pile}
                if len(others) == 1:
                    out.setdefault(next(iter(others)), m)
        return out

    def can_drag(self, pile: int, index: int) -> bool:
        cards = self.game.cards[pile]
        return 0 <= index < len(cards) and index >= self.game.down[pile] and \
            self.game.layout[pile].role != "stock"

    def drop(self, pile: int, index: int, target: int, source: str = "drag") -> TapResult:
        """Finish a drag of card ``index`` of ``pile`` on ``target``."""
        self.selection.clear()
        self.depth = 0
        move = self.drag_targets(pile, index).get(target)
        if move is not None:
            return self._play(move, source)
        return TapResult("refused", reason=self._reason(pile, index, target))
