"""Accordion (000 #2): squeeze a row of 52 piles into one by matching suits or ranks."""

from __future__ import annotations

from collections.abc import Iterable

from .cards import RANK, SUIT
from .model import GameInfo, Move, Option, PileSpec
from .pairing import MATCH, RowGame, row_layout
from .reason import Reason
from .registry import register
from .rng import Rng

DEAL = Move("deal")
VARIANTS = ("standard", "one_at_a_time")
ROW_WIDTHS = (0, 4, 6, 8, 10, 13, 20, 26)

RULES_EN = """\
Goal: gather all 52 cards into a single pile.

The deal: all 52 cards face up in one long row of single-card piles, read left to right \
and line by line (the row is only wrapped to fit the screen).

Play:
• A pile may be moved onto the pile immediately to its left, or onto the third pile to its \
left (jumping over two piles), when the two top cards have the same suit or the same rank. \
If both are possible, you choose.
• A pile always moves whole; its top card becomes the top of the new pile.
• The gap closes up at once: every pile to its right shifts one place left.

End: you win with one pile of 52 cards. When no move is left, the piles still on the table \
are your score: five piles or fewer is "very good".

Options:
• Row width (the book's way): deal only that many piles at the start. After each move the \
row is filled up again from the face-down stock, one card at a time at the right end. If no \
move is possible, one more card is dealt, so the row may grow longer.
• Variant "one at a time" (harder): the stock stays face down; tap it to deal one card at \
the right end whenever you like and make your moves as you go. No peeking ahead.
• Forced moves (strict "Idle Year", one-at-a-time only): while any pile can move, you must \
move before dealing the next card.

Score (lower is better): piles left, counting any undealt cards as piles."""

RULES_ZH = """\
目标：把52张牌叠成一整垛。

摆牌：52张牌全部正面朝上，从左到右摆成一长排，每垛一张（屏幕上分几行显示，但按阅读顺序\
连成一排）。

玩法：
• 一垛牌可以叠到紧挨着它左边的一垛上，或者隔两垛叠到左边第3垛上，条件是两垛的顶牌同花色\
或同点数。两处都可以时，由你选择。
• 一垛牌总是整垛移动，移过去后按它的顶牌继续叠码。
• 叠码后的空位立刻由右边的牌依次左移补上。

结束：叠成一整垛即为胜利。没有可叠的牌时，桌上剩下的垛数就是成绩：5垛以内就很不错了。

选项：
• 排宽（原书玩法）：开始只摆这么多垛。每叠一次，就从面朝下的牌库逐张翻牌补到右端，\
直到摆满。无牌可叠时再多翻一张，这时排可以超过这个宽度。
• 玩法变化“翻一张看一张”（更难）：牌库面朝下，随时点击翻一张放到右端，能叠就叠，\
不能预先看后面的牌。
• 强制叠码（严格规则，只用于“翻一张看一张”）：只要有垛可以叠，就必须先叠，才能翻下一张。

计分（越少越好）：剩下的垛数，未发的牌每张也算一垛。"""

RULES_RU = """\
Цель: собрать все 52 карты в одну стопку.

Раскладка: все 52 карты открыто в один длинный ряд стопок по одной карте, слева направо и \
строка за строкой (ряд переносится только чтобы уместиться на экране).

Ход игры:
• Стопку можно положить на соседнюю стопку слева или на третью стопку слева (через две), \
если у их верхних карт одинаковая масть или одинаковое достоинство. Если можно и так, и так, \
выбираете вы.
• Стопка всегда перемещается целиком; её верхняя карта становится верхней картой новой стопки.
• Промежуток сразу закрывается: все стопки справа сдвигаются на одно место влево.

Конец: вы выиграли, если осталась одна стопка из 52 карт. Когда ходов нет, число стопок на \
столе — ваш результат: пять или меньше — «очень хорошо».

Варианты:
• Ширина ряда (как в книге): в начале выкладывается только столько стопок. После каждого хода \
ряд пополняется из закрытой колоды по одной карте справа. Если ходов нет, сдаётся ещё одна \
карта, и ряд может стать длиннее.
• «По одной карте» (сложнее): колода лежит закрытой; нажимайте на неё, чтобы в любой момент \
выложить одну карту в конец ряда, и ходите по ходу дела. Заглядывать вперёд нельзя.
• Обязательные ходы (строгие правила, только «по одной карте»): пока какую-нибудь стопку \
можно переложить, нужно ходить, а не сдавать.

Очки (чем меньше, тем лучше): оставшиеся стопки; несданные карты считаются по одной стопке."""


@register
class Accordion(RowGame):
    info = GameInfo(
        id="accordion",
        names={"en": "Accordion", "zh": "码垛（手风琴）", "ru": "Аккордеон"},
        source="000_5c0014aada07c9b6.txt", source_game="2",
        decks=1, kind="S-open", difficulty=4,
        description={"en": "Fold a row of 52 cards into one pile, matching suit or rank.",
                     "zh": "同花色或同点数就能叠码，把一排52张牌叠成一垛。",
                     "ru": "Сложите ряд из 52 карт в одну стопку по масти или достоинству."},
        rules={"en": RULES_EN, "zh": RULES_ZH, "ru": RULES_RU},
        score_label="piles left", score_better="lower",
    )
    options = (
        Option("variant", "standard", VARIANTS,
               "one_at_a_time: deal one card at a time from a face-down stock, on request"),
        Option("row_width", 0, ROW_WIDTHS,
               "standard variant: piles dealt at the start and kept by refilling (0: all 52)"),
        Option("forced_moves", False,
               help="one_at_a_time: a pile must be moved, if it can, before the next card"),
    )

    #: a pile only ever shows its top card: what lies under it, and how much, never matters
    SOLVER_VIEW = {"tableau": "face"}
    #: every move looks alike, and one early mistake can hide a win from a long search
    SOLVER_RESTARTS = True

    def build_layout(self) -> Iterable[PileSpec]:
        one = self.opts["variant"] == "one_at_a_time"
        if one or self.opts["row_width"]:
            yield PileSpec("S", "stock", 9.6, 4.5)
            yield from row_layout(52, 13, dx=0.7)
        else:
            yield from row_layout(52, 13, dx=0.8)

    def prepare(self) -> None:
        super().prepare()
        self.one = self.opts["variant"] == "one_at_a_time"
        self.width = 0 if self.one else self.opts["row_width"]
        self.forced = self.one and self.opts["forced_moves"]
        self.stock = self.first("stock")

    def deal(self, rng: Rng) -> None:
        deck = list(range(52))
        rng.shuffle(deck)
        if self.stock < 0:
            for p in self.row:
                self.put(p, deck.pop())
            return
        for c in deck:
            self.put(self.stock, c, up=False)
        if self.one:
            self._move_cards(self.stock, self.row[0], 1)

    def settle(self) -> None:
        """Keep the book's finite row full; when stuck, deal one card more."""
        if not self.width:
            return
        s = self.stock
        n = self.row_length()
        while self.cards[s] and (n < self.width or not self.pile_moves(n)):
            self._move_cards(s, self.row[n], 1)
            n += 1

    # ------------------------------------------------------------------ moves
    def pile_moves(self, n: int) -> list[Move]:
        cards, row = self.cards, self.row
        tops = [cards[row[i]][-1] for i in range(n)]
        moves = []
        for i in range(1, n):
            m = MATCH[tops[i]]
            p = row[i]
            if m[tops[i - 1]]:
                moves.append(Move("move", p, row[i - 1], len(cards[p])))
            if i >= 3 and m[tops[i - 3]]:
                moves.append(Move("move", p, row[i - 3], len(cards[p])))
        return moves

    def legal_moves(self) -> list[Move]:
        moves = self.pile_moves(self.row_length())
        if self.one and self.cards[self.stock] and not (self.forced and moves):
            moves.append(DEAL)
        return moves

    def apply(self, move: Move) -> None:
        if move.kind == "deal":
            self._move_cards(self.stock, self.row[self.row_length()], 1)
            return
        self._move_cards(move.src, move.dst, move.n)
        self.close_up(self.row_pos[move.src], 1)

    def solver_moves(self, prune: bool = False) -> list[Move]:
        """Moves onto the third pile to the left before moves onto the next one, dealing
        last: on the benchmark deals this order halved the median time to a win against
        the plain left-to-right order (a long jump keeps more piles in play)."""
        moves = self.legal_moves()
        if len(moves) < 2:
            return moves
        pos = self.row_pos
        return sorted(moves, key=lambda m: 9 if m.kind == "deal" else pos[m.dst] - pos[m.src])

    def solver_hopeless(self) -> bool:
        """A pile whose top card shares neither suit nor rank with any other top card (or
        undealt card) can never move nor be moved onto: with other piles left, no win."""
        cards, row = self.cards, self.row
        tops = [cards[p][-1] for p in row if cards[p]]
        if len(tops) < 2:
            return False
        if self.stock >= 0 and self.cards[self.stock]:
            tops += self.cards[self.stock]
        suits = [0, 0, 0, 0]
        ranks = [0] * 14
        for c in tops:
            suits[SUIT[c]] += 1
            ranks[RANK[c]] += 1
        return any(suits[SUIT[c]] == 1 and ranks[RANK[c]] == 1 for c in tops)

    @property
    def won(self) -> bool:
        return len(self.cards[self.row[0]]) == 52

    @property
    def score(self) -> int:
        undealt = len(self.cards[self.stock]) if self.stock >= 0 else 0
        return self.row_length() + undealt

    @property
    def grade(self) -> str | None:
        if self.stock >= 0 and self.cards[self.stock]:
            return None
        return "very good" if 2 <= self.row_length() <= 5 else None

    def explain(self, move: Move) -> Reason:
        if move.kind == "deal":
            if not self.one:
                return (Reason("All the cards are already dealt.") if self.stock < 0 else
                        Reason("New cards are dealt by themselves when the row needs them."))
            if not self.cards[self.stock]:
                return Reason("The stock is empty.")
            return Reason("You must move a pile while one can move, before dealing the next card.")
        if move.kind != "move":
            return Reason("In Accordion you move piles or deal the next card.")
        n_piles = len(self.layout)
        if not (0 <= move.src < n_piles and 0 <= move.dst < n_piles):
            return Reason("That move is not possible.")
        i, j = self.row_pos[move.src], self.row_pos[move.dst]
        if i < 0 or j < 0:
            return Reason("Only piles in the row can move, onto other piles in the row.")
        src, dst = self.cards[move.src], self.cards[move.dst]
        if not src or not dst:
            return Reason("There is no pile there.")
        if i - j not in (1, 3):
            return Reason("A pile can only go onto the pile just to its left or onto the third "
                          "pile to its left.")
        if not MATCH[src[-1]][dst[-1]]:
            return Reason("The two top cards must have the same suit or the same rank.")
        return Reason("A pile always moves as a whole.")
