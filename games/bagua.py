"""Bagua, the poker Eight-Trigrams formation (004): remove pairs from the edge of a square.

The deal grows outwards from the centre card (Taiji) as the source tells it, to a 7×7 square
plus three cards on the next ring (above, below, left). A card on the edge, one with an empty
cell or the table's edge among its neighbours, may be removed together with another edge card
when their values add up to B or B + 13, where B is the Taiji's value. The board never changes
shape, so neighbours are looked up in tables made once.
"""

from __future__ import annotations

from collections.abc import Iterable

from . import cards as C
from .cards import RANK
from .engine import Game
from .model import GameInfo, Move, Option, PileSpec
from .registry import register
from .rng import Rng


def _ring(r: int) -> list[tuple[int, int]]:
    """Cells of ring ``r`` clockwise from the top middle (x right, y down)."""
    top = [(x, -r) for x in range(0, r + 1)]
    right = [(r, y) for y in range(-r + 1, r + 1)]
    bottom = [(x, r) for x in range(r - 1, -r - 1, -1)]
    left = [(-r, y) for y in range(r - 1, -r - 1, -1)]
    back = [(x, -r) for x in range(-r + 1, 0)]
    return top + right + bottom + left + back


#: where the n-th dealt card goes: Taiji, the two forms, the four images, the corners, rings
#: 2 and 3 clockwise, then a new ring begun above, below and to the left, as the source does
DEAL_ORDER: tuple[tuple[int, int], ...] = (
    (0, 0), (0, -1), (0, 1), (-1, 0), (1, 0), (-1, -1), (1, -1), (-1, 1), (1, 1),
    *_ring(2), *_ring(3), (0, -4), (0, 4), (-4, 0),
)
#: the cells in reading order: this is the order of the piles G1..G52
CELLS: tuple[tuple[int, int], ...] = tuple(sorted(DEAL_ORDER, key=lambda p: (p[1], p[0])))
EIGHT = ((-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1))
FOUR = ((0, -1), (-1, 0), (1, 0), (0, 1))
#: PARTNER[b][v]: the one value that pairs with v when the base is b (sum b or b + 13)
PARTNER = tuple(tuple(b - v if v < b else b + 13 - v for v in range(14)) for b in range(14))
#: builds a Move from a ready tuple, for speed in the solver's inner loop
_remove = Move._make
#: grid pitch in card widths: rows overlap, leaving each card's top (and its index) in sight
PX, PY = 1.1, 0.62

RULES_EN = """\
Goal: remove all 52 cards, the centre card included, in pairs.

The deal: the first card goes face up in the middle: the Taiji. Its value is the base number B \
(A = 1, 2 to 10 as marked, J = 11, Q = 12, K = 13). Around it go the cards above and below, left \
and right, then the four corners, making a 3×3 square. Two more rings, each laid clockwise from \
its top middle, make a 7×7 square of 49 cards; the last 3 cards go one above, one below and one \
to the left of the square. All cards are face up.

Play:
• Only edge cards can be taken. A card is on the edge when at least one of its eight \
neighbours (above, below, left, right and the four diagonals) is an empty place; places \
outside the square count as empty. At the start the whole outer ring of the square and the \
three extra cards are on the edge.
• Tap two edge cards whose values add up to B or to B + 13 to remove them. Suits do not matter.
• Removed cards leave empty places, so cards further in come to the edge.
• B stays the same for the whole game, even after the Taiji is removed; the Taiji itself pairs \
with a king.

Examples: with B = 8, A + 7 = 8 and 9 + Q = 21 are pairs. With B = 13, the pairs add up to 13 \
(A + Q, 2 + J ...), and a king pairs only with a king (26).

End: you win when every card is removed. You lose when cards remain but no two edge cards make \
a pair. Score: cards removed.

Option: "neighbours" set to four sides makes it harder: a card is on the edge only when a \
place above, below, left or right of it is empty."""

RULES_ZH = """\
目标：把包括中心“太极”牌在内的全部52张牌成对移走。

摆阵：第1张牌正面朝上放在正中，叫“太极”，它的点数就是基准数B（A=1，2至10按牌面，J=11，Q=12，K=13）。\
接着在太极的上、下、左、右各放一张，再在四个斜角各放一张，成为九宫格。然后从每圈正上方开始顺时针再摆两圈，\
成为49张的7×7方阵；最后3张分别放在方阵的上方、下方和左方。所有牌都正面朝上。

玩法：
• 只有外围牌可以移走。一张牌的上、下、左、右、左上、右上、左下、右下\
八个方向中至少有一个是空位，它就是外围牌；\
方阵以外的位置都算空位。开始时方阵最外一圈的牌和另外3张都是外围牌。
• 点两张点数之和等于B或B+13的外围牌，就把它们移走。花色不论。
• 牌移走后留下空位，里面的牌就会变成外围牌。
• B在整局中不变，太极牌移走后也一样；太极牌本身要和K配对。

例：B=8时，A+7=8、9+Q=21都可以配对。B=13时，和为13的牌可以配对（A+Q、2+J……），K只能和K配对（和为26）。

结束：所有牌都移走就通关；场上还有牌，但没有任何两张外围牌可以配对时，就失败。计分：移走的牌数。

选项：“相邻方向”改为四个方向会更难：只有上、下、左、右有空位的牌才是外围牌。"""

RULES_RU = """\
Цель: убрать парами все 52 карты, включая центральную.

Раскладка: первую карту кладут открытой в центр — это «Тайцзи». Её значение — базовое число B \
(туз = 1, от 2 до 10 по номиналу, валет = 11, дама = 12, король = 13). Вокруг неё кладут карты \
сверху и снизу, слева и справа, затем в четыре угла — получается квадрат 3×3. Ещё два кольца, \
каждое по часовой стрелке от его верхней середины, дают квадрат 7×7 из 49 карт; последние 3 \
карты кладут над квадратом, под ним и слева от него. Все карты открыты.

Ход игры:
• Брать можно только крайние карты. Карта крайняя, если хотя бы одна из восьми соседних \
позиций (сверху, снизу, слева, справа и по диагоналям) пуста; места за пределами квадрата \
считаются пустыми. В начале крайние — всё внешнее кольцо квадрата и три отдельные карты.
• Нажмите на две крайние карты, сумма значений которых равна B или B + 13, — они убираются. \
Масть не важна.
• На месте убранных карт остаются пустоты, и внутренние карты становятся крайними.
• B не меняется всю игру, даже когда Тайцзи убрана; сама Тайцзи идёт в пару с королём.

Примеры: при B = 8 пары — туз + 7 = 8 и 9 + дама = 21. При B = 13 пары дают в сумме 13 \
(туз + дама, 2 + валет…), а король идёт в пару только с королём (26).

Конец: вы выиграли, когда убраны все карты. Вы проиграли, если карты остались, но никакие две \
крайние карты не составляют пару. Очки: число убранных карт.

Вариант: «соседи» — только четыре стороны: так труднее, карта крайняя, лишь если пусто место \
над ней, под ней, слева или справа."""


@register
class Bagua(Game):
    info = GameInfo(
        id="bagua",
        names={"en": "Bagua (Eight Trigrams)", "zh": "扑克八卦阵", "ru": "Багуа (восемь триграмм)"},
        source="004_0492660aee659235.txt", source_game="1",
        decks=1, kind="S-open", difficulty=1,
        description={
            "en": "Clear a square of cards from the edge inwards, in pairs that match the centre.",
            "zh": "从外围向中心成对移牌，点数之和要合乎中心的太极牌。",
            "ru": "Разберите квадрат от краёв к центру парами, которые задаёт центральная карта.",
        },
        rules={"en": RULES_EN, "zh": RULES_ZH, "ru": RULES_RU},
        score_label="cards removed",
    )
    options = (
        Option("outer_neighbourhood", "eight", ("eight", "orthogonal"),
               "which neighbours count when deciding if a card is on the edge"),
    )

    def build_layout(self) -> Iterable[PileSpec]:
        for i, (x, y) in enumerate(CELLS):
            yield PileSpec(f"G{i + 1}", "grid", round((x + 4) * PX, 2), round((y + 4) * PY, 2))
        yield PileSpec("D", "discard", round(8 * PX + 0.3, 2), 0)

    def prepare(self) -> None:
        at = {p: i for i, p in enumerate(CELLS)}
        steps = EIGHT if self.opts["outer_neighbourhood"] == "eight" else FOUR
        self.grid = range(len(CELLS))
        self.discard = len(CELLS)
        #: in-grid neighbours of each cell, and whether a neighbour lies off the grid
        self.neighbours = tuple(
            tuple(at[(x + dx, y + dy)] for dx, dy in steps if (x + dx, y + dy) in at)
            for x, y in CELLS)
        self.edge = bytes(len(n) < len(steps) for n in self.neighbours)
        self.deal_cells = tuple(at[p] for p in DEAL_ORDER)
        self.centre = at[(0, 0)]

    def deal(self, rng: Rng) -> None:
        deck = list(range(52))
        rng.shuffle(deck)
        for cell, c in zip(self.deal_cells, deck, strict=True):
            self.put(cell, c)
        self.vars["base"] = RANK[self.cards[self.centre][0]]

    def settle(self) -> None:
        """Every card is face up and nothing happens by itself."""

    @property
    def base(self) -> int:
        return self.vars["base"]

    def outer(self) -> list[int]:
        """Cells holding an edge card, in reading order."""
        cards = self.cards
        flag = bytearray(self.edge)
        for p in self.grid:
            if not cards[p]:
                for q in self.neighbours[p]:
                    flag[q] = 1
        return [p for p in self.grid if flag[p] and cards[p]]

    def legal_moves(self) -> list[Move]:
        cards = self.cards
        partner = PARTNER[self.vars["base"]]
        by_value: list[list[int]] = [[] for _ in range(14)]
        for p in self.outer():
            by_value[RANK[cards[p][0]]].append(p)
        moves: list[Move] = []
        add = moves.append
        for v in range(1, 14):
            cells, w = by_value[v], partner[v]
            if not cells or w < v:
                continue
            if w == v:
                for i, a in enumerate(cells):
                    for b in cells[i + 1:]:
                        add(_remove(("remove", a, b, 1, ())))
            else:
                for a in cells:
                    for b in by_value[w]:
                        add(_remove(("remove", a, b, 1, ()) if a < b else ("remove", b, a, 1, ())))
        return moves

    def apply(self, move: Move) -> None:
        if move.kind != "remove":
            raise ValueError(f"bagua has no move {move.kind!r}")
        self._move_cards(move.src, self.discard)
        self._move_cards(move.dst, self.discard)

    def make_move(self, kind: str, piles: list[int], n: int) -> Move:
        """A pair is the same move whichever card is named first."""
        if kind == "remove" and len(piles) == 2 and n == 1:
            return Move("remove", min(piles), max(piles))
        return super().make_move(kind, piles, n)

    @property
    def won(self) -> bool:
        return len(self.cards[self.discard]) == 52

    @property
    def score(self) -> int:
        return len(self.cards[self.discard])

    def solver_key(self) -> bytes:
        """The cards still in the square: the order of the discard pile does not matter."""
        cards = self.cards
        return bytes(cards[p][0] if cards[p] else 255 for p in self.grid)

    def describe(self, move: Move) -> str:
        if move.kind == "remove" and self.cards[move.src] and self.cards[move.dst]:
            a, b = self.cards[move.src][0], self.cards[move.dst][0]
            return f"remove {C.pretty(a)} and {C.pretty(b)}"
        return super().describe(move)

    def canonical(self, move: Move) -> Move:
        """A pair is the same move whichever card is named first."""
        if move.kind == "remove" and move.src > move.dst:
            move = move._replace(src=move.dst, dst=move.src)
        return move

    def explain(self, move: Move) -> str:
        b = self.base
        sums = f"{b} or {b + 13}"
        if move.kind != "remove":
            return f"In Bagua cards are not moved: remove two edge cards that add up to {sums}."
        a, c = move.src, move.dst
        if not (0 <= a < self.discard and 0 <= c < self.discard) or move.n != 1 or move.extra:
            return "Choose two cards in the square."
        if a == c:
            return "Choose two different cards."
        if not self.cards[a] or not self.cards[c]:
            return "There is no card there any more."
        outer = self.outer()
        for p in (a, c):
            if p not in outer:
                sides = "eight" if self.opts["outer_neighbourhood"] == "eight" else "four"
                return (f"The {C.pretty(self.cards[p][0])} has cards on all {sides} sides, "
                        "so it cannot be taken yet.")
        x, y = self.cards[a][0], self.cards[c][0]
        return (f"{C.pretty(x)} and {C.pretty(y)} add up to {RANK[x] + RANK[y]}, "
                f"but a pair must add up to {sums}.")
