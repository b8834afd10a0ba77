"""Monte Carlo (000 #6): pair touching cards of one rank, close up the gaps, refill."""

from __future__ import annotations

from .cards import RANK
from .grid import CellGame, touching
from .model import GameInfo, Move, Option
from .reason import GameName, Reason
from .registry import register

CLOSE_UP = Move("close_up")
REFILL = Move("refill")
CLOSE_UP_REFILL = Move("close_up_refill")

RULES_EN = """\
Goal: remove all 52 cards in pairs.

The deal: 25 cards face up in 5 rows of 5 (4 rows of 5 in the 4×5 variant); the other 27 \
(32) cards are the stock.

Play:
• Remove two cards of the same rank that touch: side by side, one above the other, or corner \
to corner. Suits do not matter. Tap one card, then the other.
• Close up: when there are gaps, the remaining cards slide back, keeping their order (left to \
right, row by row), so they fill the first places of the layout. You may remove several pairs \
before closing up, and after closing up new pairs may touch: remove them and close up again.
• Refill: when the layout is closed up and no pair touches, deal stock cards into the empty \
places at the end, in reading order, until the layout is full or the stock is used up.

End: you win when every card is removed. The game is lost when no pair touches, the layout is \
closed up and it is full or the stock is empty.

Options: the 4×5 variant; "close up and refill" as one action, allowed whenever there is a \
gap, even while pairs remain (the usual modern rule). Score: cards not yet removed (fewer is \
better)."""

RULES_ZH = """\
目标：把52张牌全部配对拿掉。

摆牌：翻开25张，摆成5排，每排5张（4×5变体为4排20张），其余27张（32张）为手牌。

玩法：
• 两张同点数的牌，只要在横、竖、斜八个方向上相邻，就可以配对拿掉，不论花色。先点一张，再点另一张。
• 递移：出现空位后，把剩下的牌按原来的顺序（从左到右、一排接一排）向前移，补满前面的空位。可以先拿掉几对再递移；递移后如有新的相邻对子，继续拿掉，再继续递移。
• 补牌：牌阵已经递移好并且没有可配的对子时，用手牌按顺序补入后面的空位，直到补满或手牌用完。

结束：全部拿掉即为胜利。如果没有相邻的对子，牌阵已经递移好，而且已满或手牌已用完，游戏失败。

选项：4×5变体；"递移并补牌"合为一步，只要有空位随时可做，即使还有对子（现代通行规则）。计分：剩下未拿掉的牌数，越少越好。"""

RULES_RU = """\
Цель: убрать парами все 52 карты.

Раскладка: 25 открытых карт в 5 рядов по 5 (в варианте 4×5 — 4 ряда по 5); остальные 27 \
(32) карты — колода.

Ход игры:
• Уберите две карты одного достоинства, которые соприкасаются: рядом, одна над другой или по \
диагонали. Масть не важна. Нажмите на одну карту, затем на другую.
• Сдвиг: когда появились пустые места, оставшиеся карты сдвигаются, сохраняя порядок (слева \
направо, ряд за рядом), и занимают первые места раскладки. Можно убрать несколько пар до \
сдвига; после сдвига могут соприкоснуться новые пары — уберите их и сдвиньте снова.
• Пополнение: когда раскладка сдвинута и ни одна пара не соприкасается, карты из колоды \
кладутся на пустые места в конце, по порядку, пока раскладка не заполнится или колода не \
кончится.

Конец: вы выиграли, когда убраны все карты. Партия проиграна, если пар нет, раскладка \
сдвинута и заполнена или колода пуста.

Варианты: раскладка 4×5; «сдвиг и пополнение» одним действием, когда угодно при наличии \
пустого места, даже если пары остались (современное правило). Очки: сколько карт ещё не \
убрано (чем меньше, тем лучше)."""


@register
class MonteCarlo(CellGame):
    info = GameInfo(
        id="monte_carlo",
        names={"en": "Monte Carlo", "zh": "八方配对（蒙的卡罗）", "ru": "Монте-Карло"},
        source="000_5c0014aada07c9b6.txt", source_game="6",
        decks=1, kind="S-luck", difficulty=2,
        description={"en": "Pair touching cards of a rank, close up the gaps and refill.",
                     "zh": "相邻的同点牌配对拿掉，递移空位再补牌。",
                     "ru": "Убирайте соседние пары одного достоинства, сдвигайте и пополняйте."},
        rules={"en": RULES_EN, "zh": RULES_ZH, "ru": RULES_RU},
        score_label="cards left", score_better="lower",
    )
    options = (
        Option("variant", "standard", ("standard", "4x5"), "5 rows of 5, or 4 rows of 5"),
        Option("combined_close_up_refill", False, (False, True),
               "close up and refill in one action, allowed whenever there is a gap"),
    )

    def shape(self) -> tuple[int, ...]:
        return (5,) * (4 if self.opts["variant"] == "4x5" else 5)

    @property
    def row_step(self) -> float:
        # five rows of cards only fit a landscape screen when they overlap a little
        return 1.25 if len(self.shape()) == 5 else 1.6

    def prepare(self) -> None:
        super().prepare()
        cell = self.cell
        pairs = tuple((cell[i], cell[j]) for i, j in touching(len(self.shape()), 5))
        self._touch = frozenset(pairs)
        self._removes = tuple((a, b, Move("remove", a, b)) for a, b in pairs)
        self.combined = self.opts["combined_close_up_refill"]

    # ------------------------------------------------------------------ rules
    def layout_state(self) -> tuple[bool, bool]:
        """(a gap precedes a card, every cell is filled)."""
        cards = self.cards
        empty_seen = False
        for p in self.cell:
            if not cards[p]:
                empty_seen = True
            elif empty_seen:
                return True, False
        return False, not empty_seen

    def legal_moves(self) -> list[Move]:
        cards = self.cards
        moves = [m for a, b, m in self._removes
                 if cards[a] and cards[b] and RANK[cards[a][0]] == RANK[cards[b][0]]]
        gap, full = self.layout_state()
        stock = bool(cards[self.stock])
        if self.combined:
            if gap or (stock and not full):
                moves.append(CLOSE_UP_REFILL)
        elif gap:
            moves.append(CLOSE_UP)
        elif not moves and stock and not full:
            moves.append(REFILL)
        return moves

    def apply(self, move: Move) -> None:
        kind = move.kind
        if kind == "remove":
            self.discard_top(move.src, move.dst)
            return
        if kind in ("close_up", "close_up_refill"):
            self.close_up()
        if kind in ("refill", "close_up_refill"):
            for p in self.cell:
                if not self.cards[p] and self.cards[self.stock]:
                    self.fill_from_stock(p)

    def close_up(self) -> None:
        """Slide every card back into the first free cell before it, keeping reading order."""
        cards, cell = self.cards, self.cell
        k = 0
        for p in cell:
            if cards[p]:
                if p != cell[k]:
                    self._move_cards(p, cell[k])
                k += 1

    # ------------------------------------------------------------------ words
    def explain(self, move: Move) -> Reason:
        kind = move.kind
        if kind == "remove":
            named = self.named_cells(move)
            if isinstance(named, Reason):
                return named
            if len(named) != 2:
                return Reason("Cards are removed two at a time.")
            a, b = sorted(named)
            if (a, b) not in self._touch:
                return Reason("The two cards must touch: side by side, one above the other or "
                              "corner to corner.")
            return Reason("The {card} and the {card2} are not the same rank.",
                          card=self.card_at(a), card2=self.card_at(b))
        gap, full = self.layout_state()
        if kind in ("close_up", "refill") and self.combined or \
                kind == "close_up_refill" and not self.combined:
            if self.combined:
                return Reason("With these rules, closing up and refilling are one action.")
            return Reason("With these rules, closing up and refilling are two separate actions.")
        if kind == "close_up":
            return Reason("There is no gap to close up.")
        if kind == "refill":
            if gap:
                return Reason("Close up the gaps before refilling.")
            if full:
                return Reason("The layout is already full.")
            if not self.cards[self.stock]:
                return Reason("The stock is empty.")
            return Reason("A pair can still be removed; refill only when no pair touches.")
        if kind == "close_up_refill":
            return Reason("There is no gap to close up or fill.")
        if kind == "move":
            return Reason("Cards are not moved one by one: remove two touching cards of the same "
                          "rank.")
        return Reason("That is not a move in {game}.", game=GameName(self.info.id))
