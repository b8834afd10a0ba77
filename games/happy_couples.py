"""Happy Couples (001 #4): pair touching cards of a rank in a grid four cards high that grows."""

from __future__ import annotations

from collections.abc import Iterable

from . import cards as C
from .cards import RANK
from .grid import CellGame, touching
from .model import GameInfo, Move, Option, PileSpec
from .registry import register
from .rng import Rng

DEAL = Move("deal")
WIDE, LONG = 4, 13

RULES_EN = """\
Goal: remove all 52 cards in pairs of the same rank.

The deal: four cards face up in a column at the left; the other 48 cards are the stock. The \
columns of four grow to the right as cards are dealt (13 at most).

Play:
• Remove two cards of the same rank that touch: one above the other, side by side, or corner \
to corner. Suits do not matter. Tap one card, then the other. The other cards do not move.
• Deal: when no two touching cards match, tap the stock: its top card goes face up into the \
first empty place, counting down each column from the left, so gaps are filled before a new \
place is opened at the end.

End: you win when every card is removed; you lose when the stock is empty and no touching \
pair is left.

Option: deal at any time, even while a pair could be removed. Score: cards left (fewer is \
better)."""

RULES_ZH = """\
目标：把52张牌按相同点数两张一组全部拿掉。

摆牌：4张牌正面朝上，在左边摆成一列；其余48张为手牌。随着发牌，4张一列的牌阵向右增长（最多13列）。

玩法：
• 两张点数相同的牌，只要上下、左右或斜向相邻，就可以拿掉，不论花色。先点一张，再点另一张。其余的牌不移动。
• 发牌：没有相邻的同点牌时，点手牌，把最上面一张翻开放到第一个空位：从最左一列起，每列从上往下数，所以先补空位，再在末尾开新位置。

结束：全部拿掉即为胜利；手牌用完又没有相邻的对子，就失败了。

选项：随时发牌，即使还有可以拿掉的对子。计分：剩下的牌数（越少越好）。"""

RULES_RU = """\
Цель: убрать все 52 карты парами одного достоинства.

Раскладка: четыре открытые карты столбиком слева; остальные 48 карт — колода. Столбики по \
четыре карты растут вправо по мере сдачи (не больше 13).

Ход игры:
• Уберите две карты одного достоинства, которые соприкасаются: одна над другой, рядом или по \
диагонали. Масть не важна. Нажмите на одну карту, затем на другую. Остальные карты не \
двигаются.
• Сдача: когда соседних пар нет, нажмите на колоду — верхняя карта открытой ложится на первое \
пустое место (по столбикам слева направо, в каждом сверху вниз), так что сначала заполняются \
пустоты, а потом открывается новое место в конце.

Конец: вы выиграли, когда убраны все карты; проиграли, когда колода пуста и соседних пар нет.

Вариант: сдавать можно в любой момент, даже если пара есть. Очки: сколько карт осталось (чем \
меньше, тем лучше)."""


@register
class HappyCouples(CellGame):
    info = GameInfo(
        id="happy_couples",
        names={"en": "Happy Couples", "zh": "对对佳偶", "ru": "Счастливые пары"},
        source="001_bf5637845a306030.txt", source_game="4",
        decks=1, kind="S-luck", difficulty=1,
        description={
            "en": "Deal cards into a growing grid and pair touching cards of a rank.",
            "zh": "把牌一张张排开，相邻的同点牌两张一组拿掉。",
            "ru": "Выкладывайте карты и убирайте соседние пары одного достоинства.",
        },
        rules={"en": RULES_EN, "zh": RULES_ZH, "ru": RULES_RU},
        score_label="cards left", score_better="lower",
    )
    options = (
        Option("deal_any_time", False, (False, True),
               "a card may be dealt even while a touching pair remains"),
    )

    def build_layout(self) -> Iterable[PileSpec]:
        # The grid's lines of four run down the screen and it grows to the right: 13 lines
        # fit a landscape screen overlapped sideways, with every card's corner index showing.
        yield PileSpec("S", "stock", 0, 0)
        for i in range(WIDE * LONG):
            line, place = divmod(i, WIDE)
            yield PileSpec(f"G{i + 1}", "grid", round(1.3 + 0.68 * line, 2), 1.5 * place)
        yield PileSpec("D", "discard", 0, 1.6)

    def prepare(self) -> None:
        super().prepare()
        cell = self.cell
        self.pairs = tuple((cell[i], cell[j]) for i, j in touching(LONG, WIDE))
        self._touch = frozenset(self.pairs)

    def deal(self, rng: Rng) -> None:
        deck = C.deck()
        rng.shuffle(deck)
        for p in self.cell[:WIDE]:
            self.put(p, deck.pop())
        for c in deck:
            self.put(self.stock, c, up=False)

    def touching_pairs(self) -> list[Move]:
        cards = self.cards
        return [Move("remove", a, b) for a, b in self.pairs
                if cards[a] and cards[b] and RANK[cards[a][-1]] == RANK[cards[b][-1]]]

    def legal_moves(self) -> list[Move]:
        moves = self.touching_pairs()
        if self.cards[self.stock] and (not moves or self.opts["deal_any_time"]):
            moves.append(DEAL)
        return moves

    def apply(self, move: Move) -> None:
        if move.kind == "deal":
            cards = self.cards
            self.fill_from_stock(next(p for p in self.cell if not cards[p]))
        else:
            self.discard_top(move.src, move.dst)

    def settle(self) -> None:
        """Cards are dealt face up; nothing turns over."""

    def explain(self, move: Move) -> str:
        kind = move.kind
        if kind == "deal":
            if not self.cards[self.stock]:
                return "The stock is empty."
            pairs = self.touching_pairs()
            if move != DEAL or not pairs:
                return "A deal names no cards and no count: tap the stock."
            pair = pairs[0]
            return f"The {self.pretty(pair.src)} and the {self.pretty(pair.dst)} still make a " \
                   "pair: deal only when no touching cards match."
        if kind == "remove":
            named = self.named_cells(move)
            if isinstance(named, str):
                return named
            if len(named) != 2:
                return "Cards are removed two at a time."
            a, b = sorted(named)
            if (a, b) not in self._touch:
                return "The two cards must touch: side by side, one above the other or corner " \
                       "to corner."
            if RANK[self.cards[a][-1]] != RANK[self.cards[b][-1]]:
                return f"The {self.pretty(a)} and the {self.pretty(b)} are not the same rank."
            return "Name the two cards in the order they are laid out."
        if kind == "move":
            return "Cards are not moved: remove two touching cards of the same rank."
        return "That is not a move in Happy Couples."
