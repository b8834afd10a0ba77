"""Leapfrog (000 #11): a card jumps onto a touching card of its rank or suit and captures it."""

from __future__ import annotations

from .cards import RANK, SUIT
from .grid import CellGame, touching
from .model import GameInfo, Move
from .reason import GameName, Reason
from .registry import register

#: LINKED[x * 52 + y]: cards x and y share a rank or a suit
LINKED = bytes(RANK[x] == RANK[y] or SUIT[x] == SUIT[y] for x in range(52) for y in range(52))


def link_groups(cards: list[int]) -> int:
    """How many groups ``cards`` form when cards sharing a rank or a suit are joined
    (through other cards): the components of the graph of suits and ranks whose edges are
    the cards."""
    parent = list(range(17))  # four suits, then thirteen ranks

    def find(a: int) -> int:
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    used = set()
    for c in cards:
        a, b = find(SUIT[c]), find(3 + RANK[c])
        if a != b:
            parent[a] = b
        used.add(SUIT[c])
    return len({find(s) for s in used})


@register
class Leapfrog(CellGame):
    info = GameInfo(
        id="leapfrog",
        source="000_5c0014aada07c9b6.txt", source_game="11",
        decks=1, kind="S-mixed", difficulty=3, score_better="lower",
    )

    def shape(self) -> tuple[int, ...]:
        return (5, 5, 5, 5)

    def prepare(self) -> None:
        super().prepare()
        cell, s = self.cell, self.stock
        pairs = tuple((cell[i], cell[j]) for i, j in touching(4, 5))
        self._touch = frozenset(pairs)
        self._near: dict[int, list[int]] = {p: [] for p in cell}
        for a, b in pairs:
            self._near[a].append(b)
            self._near[b].append(a)
        self._jumps = tuple((a, b, Move("jump", a, b), Move("jump", b, a)) for a, b in pairs)
        self._fills = tuple((p, Move("fill", s, p)) for p in cell)

    def legal_moves(self) -> list[Move]:
        cards = self.cards
        moves = []
        for a, b, there, back in self._jumps:
            x, y = cards[a], cards[b]
            if x and y and LINKED[x[0] * 52 + y[0]]:
                moves.append(there)
                moves.append(back)
        if cards[self.stock]:
            moves.extend(m for p, m in self._fills if not cards[p])
        return moves

    def apply(self, move: Move) -> None:
        if move.kind == "jump":
            self.discard_top(move.dst)
            self._move_cards(move.src, move.dst)
        else:
            self.fill_from_stock(move.dst)

    # ------------------------------------------------------------------ for the solver
    SOLVER_VIEW = {"stock": "count"}  # the stock is only ever dealt from
    SOLVER_PRUNES = True

    def solver_moves(self, prune: bool = False) -> list[Move]:
        """Jumps before filling a gap; with ``prune``, no filling while a jump is possible.

        Right after a fill, only fills and jumps of or onto the card just placed: a fill
        can always wait until just before the first jump that uses its card (it changes no
        other place, and the stock order is kept), so every line has a form that does this
        and searching that form alone loses no win. :meth:`solver_key` records the card
        waiting to be used, so positions reached otherwise are not merged with it.
        """
        moves = self.legal_moves()
        jumps = [m for m in moves if m.kind == "jump"]
        waiting = self._waiting()
        if waiting >= 0:
            jumps = [m for m in jumps if m.src == waiting or m.dst == waiting]
        if len(jumps) > 1:
            jumps = self._ordered_jumps(jumps)
        if prune and jumps:
            return jumps
        fills = [m for m in moves if m.kind == "fill"]
        if fills:
            # the stock card is best placed beside cards it could jump onto
            cards, near = self.cards, self._near
            top = cards[self.stock][-1]
            fills.sort(key=lambda m: -sum(LINKED[top * 52 + cards[q][0]]
                                          for q in near[m.dst] if cards[q]))
        return jumps + fills

    def _ordered_jumps(self, jumps: list[Move]) -> list[Move]:
        """Capture the cards with the fewest partners left first (they are the first to be
        stranded), with the jumpers that have the most (they must capture others later)."""
        cards = self.cards
        suits, ranks = [0] * 4, [0] * 14
        for p in (*self.cell, self.stock):
            for c in cards[p]:
                suits[SUIT[c]] += 1
                ranks[RANK[c]] += 1

        def partners(p: int) -> int:
            c = cards[p][0]
            return suits[SUIT[c]] + ranks[RANK[c]]

        return sorted(jumps, key=lambda m: partners(m.dst) - partners(m.src))

    def _waiting(self) -> int:
        """The place filled by the last move of the search, or -1."""
        history = self.history
        return history[-1].dst if history and history[-1].kind == "fill" else -1

    def solver_key(self) -> bytes:
        """The declared key, and the place whose new card must be used next (see
        :meth:`solver_moves`)."""
        return super().solver_key() + bytes((self._waiting() & 0xFF,))

    def solver_hopeless(self) -> bool:
        """Two sound counting arguments (a card leaves only when a card of its rank or suit
        jumps onto it, and the game wants one card left):

        - cards linked by rank or suit form groups that never merge, and a group never loses
          its last card (the jumper stays): two groups left can never become one card;
        - once the stock is empty, a card moves only into a touching occupied place, so the
          occupied places form islands that never join: two islands mean two cards left.
          While cards remain in the stock, each fill joins at most four islands into one.
        """
        cards = self.cards
        stock = len(cards[self.stock])
        left = [p[0] for p in (cards[q] for q in self.cell) if p]
        if link_groups(left + cards[self.stock]) > 1:
            return True
        islands = self._islands()
        return islands - 1 > 3 * stock

    def _islands(self) -> int:
        """How many groups of touching occupied places the layout has."""
        cards, near = self.cards, self._near
        seen: set[int] = set()
        count = 0
        for p in self.cell:
            if cards[p] and p not in seen:
                count += 1
                seen.add(p)
                todo = [p]
                while todo:
                    for q in near[todo.pop()]:
                        if cards[q] and q not in seen:
                            seen.add(q)
                            todo.append(q)
        return count

    @property
    def won(self) -> bool:
        return self.cards_left == 1

    @property
    def grade(self) -> str | None:
        return "good" if 1 < self.cards_left <= 5 else None

    def explain(self, move: Move) -> Reason:
        kind = move.kind
        if kind == "jump":
            named = self.named_cells(move)
            if isinstance(named, Reason):
                return named
            if len(named) != 2:
                return Reason("A jump names the jumping card and the card it lands on.")
            a, b = named
            if tuple(sorted(named)) not in self._touch:
                return Reason("A card can only jump onto one of the eight cards around it.")
            return Reason("The {card} can only jump onto a card of the same rank or the same "
                          "suit, not onto the {card2}.", card=self.card_at(a),
                          card2=self.card_at(b))
        if kind == "fill":
            if move.src != self.stock or move.dst not in self.cell:
                return Reason("A gap in the layout is filled with the top card of the stock.")
            if not self.cards[self.stock]:
                return Reason("The stock is empty.")
            return Reason("Only an empty place can be filled.")
        if kind == "move":
            return Reason("Cards move only by jumping onto a neighbour of the same rank or suit, "
                          "or from the stock into a gap.")
        return Reason("That is not a move in {game}.", game=GameName(self.info.id))
