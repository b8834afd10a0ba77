"""Royal Marriage (000 #3, 001 #5): clear the row between the queen and the king of hearts."""

from __future__ import annotations

from collections.abc import Iterable

from .cards import HEARTS, KING, QUEEN, card
from .model import GameInfo, Move, PileSpec
from .pairing import MATCH, RowGame, row_layout
from .registry import register
from .rng import Rng

DEAL = Move("deal")
QH, KH = card(QUEEN, HEARTS), card(KING, HEARTS)

RULES_EN = """\
Goal: bring the king of hearts next to the queen of hearts by removing every card between \
them.

The deal: the queen of hearts lies face up at the left end of the row. The other 51 cards \
form a face-down stock with the king of hearts at its bottom, so the king comes last.

Play:
• Tap the stock to turn its top card face up at the right end of the row.
• Whenever two cards in the row have the same suit or the same rank and exactly one or two \
cards lie between them, you may remove the cards in between (never three or more). The row \
closes up. The queen of hearts can be one of the two outer cards. So three cards of one \
suit in a row lose their middle card.
• You may remove cards at any time and choose among several removals; dealing is allowed \
at any time too.

End: when the stock is empty (the king of hearts is out), you win if only the queen and the \
king of hearts are left, side by side. Since they share a suit, the last one or two cards \
between them can always be removed. Otherwise the game is lost.

Score (lower is better): cards not removed; 2 is a win."""

RULES_ZH = """\
目标：去掉红桃Q和红桃K之间所有的牌，让“皇后”和“国王”结合。

摆牌：红桃Q正面朝上放在桌上最左边。其余51张面朝下作为手牌（牌库），红桃K放在最底下，\
所以最后才会翻出来。

玩法：
• 点击牌库，把顶牌翻开放到这排牌的最右端。
• 排中两张同花色或同点数的牌之间恰好夹着1张或2张其他牌时，可以把夹着的牌拿掉（夹3张或\
更多不行）。拿掉后空位合拢。红桃Q也可以作为两端的牌之一。所以同花色三张相连时，可以拿掉\
中间那张。
• 任何时候都可以拿牌，有几种拿法时由你选择；也可以随时翻下一张牌。

结束：牌库翻完（红桃K已出现）时，如果桌上只剩红桃Q和红桃K并排在一起，就圆满成功。\
它们同花色，所以中间最后剩下的1到2张总是可以拿掉。否则失败。

计分（越少越好）：没有拿掉的牌数；2张即为胜利。"""

RULES_RU = """\
Цель: соединить червонного короля с червонной дамой, убрав все карты между ними.

Раскладка: дама червей лежит открыто в левом конце ряда. Остальные 51 карта — закрытая колода, \
король червей в самом низу, поэтому он выходит последним.

Ход игры:
• Нажмите на колоду, чтобы открыть верхнюю карту и положить её в правый конец ряда.
• Если у двух карт ряда одинаковая масть или одинаковое достоинство и между ними лежат ровно \
одна или две карты, эти карты можно убрать (три и больше — нельзя). Ряд смыкается. Дама \
червей тоже может быть одной из крайних карт. Поэтому из трёх карт одной масти подряд \
убирается средняя.
• Убирать карты можно в любой момент и выбирать, какие; сдавать тоже можно в любой момент.

Конец: когда колода пуста (король червей вышел), вы выиграли, если остались только дама и \
король червей рядом. У них одна масть, поэтому последние одна-две карты между ними всегда \
можно убрать. Иначе пасьянс не сошёлся.

Очки (чем меньше, тем лучше): неубранные карты; 2 — выигрыш."""


@register
class RoyalMarriage(RowGame):
    info = GameInfo(
        id="royal_marriage",
        names={"en": "Royal Marriage", "zh": "婚姻（国王的婚礼）", "ru": "Королевская свадьба"},
        source="000_5c0014aada07c9b6.txt", source_game="3",
        decks=1, kind="S-luck", difficulty=1,
        description={"en": "Remove the cards that keep the king and queen of hearts apart.",
                     "zh": "拿掉红桃K与红桃Q之间的牌，让国王与皇后结合。",
                     "ru": "Уберите карты, разделяющие червонных короля и даму."},
        rules={"en": RULES_EN, "zh": RULES_ZH, "ru": RULES_RU},
        score_label="cards left", score_better="lower",
    )

    #: removals look alike to a search, and one early mistake can hide a win from it
    SOLVER_RESTARTS = True
    #: the stock is only ever dealt from
    SOLVER_VIEW = {"stock": "count"}

    def build_layout(self) -> Iterable[PileSpec]:
        yield PileSpec("S", "stock", 9.6, 0)
        yield from row_layout(52, 13, dx=0.7)
        yield PileSpec("D", "discard", 9.6, 4.5)

    def prepare(self) -> None:
        super().prepare()
        self.stock, self.discard = self.first("stock"), self.first("discard")

    def deal(self, rng: Rng) -> None:
        deck = [c for c in range(52) if c not in (QH, KH)]
        rng.shuffle(deck)
        self.put(self.row[0], QH)
        for c in [KH, *deck]:
            self.put(self.stock, c, up=False)

    # ------------------------------------------------------------------ moves
    def legal_moves(self) -> list[Move]:
        cards, row = self.cards, self.row
        tops = [cards[p][-1] for p in row[:self.row_length()]]
        n = len(tops)
        moves = []
        for i in range(n - 2):
            m = MATCH[tops[i]]
            if m[tops[i + 2]]:
                moves.append(Move("remove", row[i], row[i + 2]))
            if i + 3 < n and m[tops[i + 3]]:
                moves.append(Move("remove", row[i], row[i + 3]))
        if cards[self.stock]:
            moves.append(DEAL)
        return moves

    def apply(self, move: Move) -> None:
        if move.kind == "deal":
            self._move_cards(self.stock, self.row[self.row_length()], 1)
            return
        i, j = sorted((self.row_pos[move.src], self.row_pos[move.dst]))
        for k in range(i + 1, j):
            self._move_cards(self.row[k], self.discard, 1)
        self.close_up(i + 1, j - i - 1)

    def canonical(self, move: Move) -> Move:
        """The two outer cards may be named in either order."""
        if move.kind == "remove" and move.src > move.dst:
            move = move._replace(src=move.dst, dst=move.src)
        return move

    @property
    def won(self) -> bool:
        cards, row = self.cards, self.row
        return not cards[self.stock] and bool(cards[row[1]]) and not cards[row[2]]

    @property
    def score(self) -> int:
        return self.row_length() + len(self.cards[self.stock])

    def explain(self, move: Move) -> str:
        if move.kind == "deal":
            return "The stock is empty."
        if move.kind != "remove":
            return ("Cards in the row do not move: remove the cards between two cards "
                    "of the same suit or rank.")
        n_piles = len(self.layout)
        if not (0 <= move.src < n_piles and 0 <= move.dst < n_piles):
            return "Pick two cards in the row."
        i, j = sorted((self.row_pos[move.src], self.row_pos[move.dst]))
        if i < 0 or not self.cards[move.src] or not self.cards[move.dst]:
            return "Pick two cards in the row."
        if j - i not in (2, 3):
            return "Exactly one or two cards must lie between the two cards."
        return "The two outer cards must have the same suit or the same rank."
