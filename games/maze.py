"""Maze (000 #26): slide 48 cards through six gaps until they read as four suit runs A to Q."""

from __future__ import annotations

from collections.abc import Iterable

from . import cards as C
from .cards import RANK
from .engine import Game
from .model import GameInfo, Move, Option, PileSpec
from .reason import Card, Either, Rank, Reason
from .registry import register
from .rng import Rng

ROWS, COLS = 6, 9
CELLS = ROWS * COLS
QUEEN = 12
#: reading order is a ring: the last cell of a row leads to the first of the next, and the
#: very last cell back to the first
LEFT = tuple((i - 1) % CELLS for i in range(CELLS))
RIGHT = tuple((i + 1) % CELLS for i in range(CELLS))
ACES = tuple(C.card(1, s) for s in range(4))
#: the cells the first two rows leave empty in the deal
DEAL_GAPS = frozenset((COLS - 1, 2 * COLS - 1))

RULES_EN = """\
Goal: arrange the 48 cards so that, read like a book and skipping the gaps, they form four \
runs from ace to queen, each in one suit (the suits in any order).

The deal: all 52 cards face up in 6 rows of 9 places; rows 1 and 2 get 8 cards and leave \
their last place empty. Then the four kings are taken out, leaving six gaps.

Reading order: left to right along each row; the last place of a row is followed by the \
first place of the next row, and the last place of row 6 by the first place of row 1 (a ring).

Play: move any one card, from anywhere, into a gap when
• the card before the gap (to its left) is of the same suit and one rank lower: the 5♥ may \
go right after the 4♥;
• or the card after the gap (to its right) is of the same suit and one rank higher: the 5♥ \
may go right before the 6♥;
• or the card before the gap is a queen (of any suit): then any ace may go there.
A gap beside a gap gives no condition on that side; a gap with gaps on both sides cannot be \
filled yet. Nothing can go just before an ace (except an ace after a queen).

End: you win when the four runs are complete; where the gaps end up does not matter. The game \
ends when no move is left.

Option: strict start: the first card of row 1 (the first after any gaps) must be an ace, so \
no run wraps from the bottom row round to the top (the usual modern rule). Score: cards \
followed by their right successor (48 when won)."""

RULES_ZH = """\
目标：把48张牌排好，按读书的顺序读、跳过空位时，形成4条从A到Q的同花色顺序（花色先后不限），连成一条龙。

摆牌：52张全部亮开，摆成6排，每排9个位置；第1、2排各摆8张，第9个位置留空。然后把4张K拣出舍掉，共留下6个空位。

连接顺序：每排从左到右；上一排最右一个位置接下一排最左一个位置；第6排最右一个位置又接回第1排最左一个位置（首尾相连）。

玩法：任意一张牌（不论在哪里）在下列情况下可以移到一个空位上：
• 空位左边的牌与它同花色，且小一点：如♥5可以移到♥4的右边；
• 或空位右边的牌与它同花色，且大一点：如♥5可以移到♥6的左边；
• 或空位左边是Q（任何花色）：任何花色的A都可以移到这个空位。
空位旁边是空位时，那一边没有条件；两边都是空位的空位暂时不能补。A的左边不能放牌（除非是Q后面的A）。

结束：4条顺序全部排好即为胜利，空位最后在哪里都可以。没有可走的牌时游戏结束。

选项：严格开头：第1排第一张牌（跳过空位）必须是A，即没有一条顺序从最后一排绕回第一排（现代通行规则）。计分：后面紧接着正确下一张的牌数（胜利时为48）。"""

RULES_RU = """\
Цель: расположить 48 карт так, чтобы при чтении как в книге (пустые места пропускаются) они \
образовали четыре последовательности от туза до дамы, каждая в одной масти (масти в любом \
порядке).

Раскладка: все 52 карты открыто в 6 рядов по 9 мест; в рядах 1 и 2 по 8 карт, последнее \
место пустое. Затем четыре короля убираются, и пустых мест становится шесть.

Порядок чтения: слева направо по рядам; за последним местом ряда идёт первое место \
следующего, а за последним местом ряда 6 — первое место ряда 1 (по кругу).

Ход игры: любую карту, откуда угодно, можно перенести на пустое место, если
• карта перед пустым местом (слева) той же масти и на одно достоинство ниже: 5♥ можно \
положить сразу после 4♥;
• или карта после пустого места (справа) той же масти и на одно достоинство выше: 5♥ можно \
положить сразу перед 6♥;
• или перед пустым местом лежит дама (любой масти): тогда туда можно положить любой туз.
Соседнее пустое место ничего не требует со своей стороны; пустое место между двумя пустыми \
пока заполнить нельзя. Перед тузом ничего положить нельзя (кроме туза после дамы).

Конец: вы выиграли, когда все четыре последовательности собраны; где окажутся пустые места, \
неважно. Партия кончается, когда ходов не осталось.

Вариант: строгое начало — первая карта ряда 1 (после пустых мест) должна быть тузом, то есть \
ни одна последовательность не переходит с нижнего ряда на верхний (современное правило). \
Очки: сколько карт стоят перед своей правильной следующей картой (48 при победе)."""


def follows(a: int, b: int) -> bool:
    """Whether ``b`` may come right after ``a`` in a finished maze."""
    return b == a + 1 and RANK[a] < QUEEN or RANK[a] == QUEEN and RANK[b] == 1


@register
class Maze(Game):
    info = GameInfo(
        id="maze",
        names={"en": "Maze", "zh": "迷宫", "ru": "Лабиринт"},
        source="000_5c0014aada07c9b6.txt", source_game="26",
        decks=1, kind="S-open", difficulty=4,
        description={
            "en": "Move cards into six gaps until four suits run A to Q in reading order.",
            "zh": "借6个空位移牌，连成4条从A到Q的同花顺序。",
            "ru": "Переносите карты на шесть пустых мест, пока четыре масти не выстроятся от туза "
                  "до дамы.",
        },
        rules={"en": RULES_EN, "zh": RULES_ZH, "ru": RULES_RU},
        score_label="cards in sequence", score_better="higher",
    )
    options = (
        Option("strict_start", False, (False, True),
               "the first card of row 1 must be an ace, so no run wraps round"),
    )

    def build_layout(self) -> Iterable[PileSpec]:
        for i in range(CELLS):
            r, c = divmod(i, COLS)
            # six rows only fit the screen's height overlapped; each card's top stays visible
            yield PileSpec(f"G{i + 1}", "grid", round(1.05 * c, 2), float(r))
        yield PileSpec("D", "discard", 9.5, 0)

    def prepare(self) -> None:
        self.grid: tuple[int, ...] = tuple(self.roles["grid"])
        self.discard = self.first("discard")
        self.strict = self.opts["strict_start"]

    def deal(self, rng: Rng) -> None:
        deck = C.deck()
        rng.shuffle(deck)
        for k, g in enumerate(self.grid):
            if k not in DEAL_GAPS:
                c = deck.pop()
                self.put(self.discard if RANK[c] == C.KING else g, c)

    def cells(self) -> list[int]:
        """The card in each cell in reading order, -1 for a gap."""
        cards = self.cards
        return [cards[g][-1] if cards[g] else -1 for g in self.grid]

    def wanted(self, cells: list[int], k: int) -> list[int]:
        """The cards that may go into gap ``k``."""
        out = []
        left, right = cells[LEFT[k]], cells[RIGHT[k]]
        if left >= 0:
            if RANK[left] == QUEEN:
                out.extend(ACES)
            else:
                out.append(left + 1)
        if right >= 0 and RANK[right] > 1 and right - 1 not in out:
            out.append(right - 1)
        return out

    def legal_moves(self) -> list[Move]:
        cells = self.cells()
        where = {c: k for k, c in enumerate(cells) if c >= 0}
        grid = self.grid
        moves = []
        for k, c in enumerate(cells):
            if c < 0:
                for w in self.wanted(cells, k):
                    if w in where:
                        moves.append(Move("move", grid[where[w]], grid[k]))
        return moves

    #: the best-scoring move is often a trap that one long search never leaves: short
    #: searches with the moves in other orders find most wins (13 of 20 benchmark deals in
    #: 5 s against 9 in 10 s)
    SOLVER_RESTARTS = True

    def solver_moves(self, prune: bool = False) -> list[Move]:
        """Every move counts (a card moving into a gap is never a lone pile changing places
        for nothing, which the generic ordering leaves out); the moves that leave the most
        cards followed by their successor come first."""
        moves = self.legal_moves()
        if len(moves) < 2:
            return moves
        return self.by_score(moves)

    def apply(self, move: Move) -> None:
        self._move_cards(move.src, move.dst)

    def settle(self) -> None:
        """All cards lie face up; nothing turns over."""

    def run(self) -> list[int]:
        """The cards in reading order, gaps skipped."""
        return [c for c in self.cells() if c >= 0]

    @property
    def score(self) -> int:
        run = self.run()
        return sum(1 for a, b in zip(run, run[1:] + run[:1], strict=True) if follows(a, b))

    @property
    def won(self) -> bool:
        run = self.run()
        if self.strict and RANK[run[0]] != 1:
            return False
        prev = run[-1]
        for c in run:
            if not follows(prev, c):
                return False
            prev = c
        return True

    def explain(self, move: Move) -> Reason:
        if move.kind != "move":
            return Reason("In Maze you move one card at a time into a gap.")
        s, d = move.src, move.dst
        grid = set(self.grid)
        if s not in grid or d not in grid:
            return Reason("Cards move only between the places of the maze.")
        if not self.cards[s]:
            return Reason("There is no card there.")
        if self.cards[d]:
            return Reason("A card can only go into a gap.")
        if move.n != 1:
            return Reason("Only one card moves at a time.")
        k = self.grid.index(d)
        cells = self.cells()
        left, right = cells[LEFT[k]], cells[RIGHT[k]]
        what = Card(self.cards[s][-1])
        if left < 0 and right < 0:
            return Reason("That gap has gaps on both sides, so nothing can go into it yet.")
        needs = []
        if left >= 0:
            needs.append(Reason("any {rank}", rank=Rank(1)) if RANK[left] == QUEEN
                         else Card(left + 1))
        if right >= 0 and RANK[right] > 1:
            needs.append(Card(right - 1))
        if not needs:
            return Reason("Nothing can go just before an ace.")
        return Reason("That gap takes only {cards:the}, not the {card}.", cards=Either(*needs),
                      card=what)
