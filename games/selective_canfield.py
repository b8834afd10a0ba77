"""Selective Canfield (000 #12 variant 2): the player picks the first foundation card.

Five cards are dealt to the row instead of four plus a foundation card. Choosing one of them
is the game's first move (``choose``), so it can be undone, replayed and hinted like any other.
The fifth card waits in a side place and closes the gap the chosen card leaves, so four
columns remain, as in Canfield.
"""

from __future__ import annotations

from collections.abc import Iterable

from . import cards as C
from .canfield import Canfield
from .cards import RANK
from .model import GameInfo, Move, PileSpec
from .reason import Reason
from .registry import register

RULES_EN = """\
Goal: build all 52 cards onto the four foundations, each in one suit, going up from the base \
rank and turning the corner from king to ace (for example 10, J, Q, K, A, 2 … 9).

The deal: 13 cards face down form the reserve at the left, and its top card is turned face up. \
Five cards are dealt face up in a row to its right. There is no foundation card yet: your first \
move is to choose one of the five cards as the first foundation. It goes above the first \
column and its rank becomes the base rank of all four foundations; the fifth card closes the \
gap, so four columns remain. The other 34 cards are the stock.

Play (as in Canfield):
• The other three cards of the base rank start the other foundations when they become free.
• Foundations are built up in suit; after the king comes the ace. Foundation cards stay there.
• On the columns, build down in alternating colours: a red 7 on a black 8; a king may go on \
an ace.
• The top card of a column may move, and so may several cards in sequence at the top of a \
column, together.
• The top card of the reserve may go to a foundation or onto a column; nothing is ever put on \
the reserve. The next reserve card turns face up by itself.
• An empty column is filled at once, automatically, with the top card of the reserve. Once the \
reserve is used up, an empty column may be filled with the top card of the waste whenever you \
like, or left empty.
• Tap the stock to turn three cards onto the waste; only the top waste card can be played. \
When only one or two cards are left in the stock, they are turned one at a time. When the \
stock is empty, the waste is turned over to make a new stock, without shuffling, as often as \
you like.

End: you win when all 52 cards are on the foundations.

Options:
• Draw one: turn one card at a time; the waste may then be turned over only twice (three \
passes through the stock).
• Group moves: "any run" (default) moves any top part of a column that is in sequence; "whole \
pile" is the strict classic rule: the top card alone or the whole column.
• Tableau wrap: on by default (a king may go on an ace); off forbids it.

Score: the number of cards on the foundations (52 means won)."""

RULES_ZH = """\
目标：把52张牌全部移到4个基础堆上，每堆同花色，从基础点数开始递升，K之后接A，可以循环\
（例如10、J、Q、K、A、2……9）。

摆牌：先把13张牌面朝下叠成一垛放在左方，翻开顶上一张，作为备用牌垛。在备用牌右侧摆5张\
面朝上的牌。这时还没有基牌：第一步由你从这5张牌中选出一张作为第一张基牌，移到第一列上方，\
它的点数就是4个基础堆的起始点数；第5张牌补到空出的位置，剩下4列场牌。其余34张是手牌（牌库）。

玩法（与纵横联通相同）：
• 其余3张与第一张基牌点数相同的牌，出现可用时就可以放到基础堆的空位上。
• 基础堆按同花色递升叠放，K之后接A。放上基础堆的牌不能再移回。
• 场牌上按红黑相间、点数递减叠放：红7放在黑8上；K可以放在A上。
• 每列最上面的一张牌可以移动；列顶连接好的几张牌也可以一起移动。
• 备用牌垛的顶牌可以放到基础堆或场牌上；备用牌垛上不能放牌。顶牌移走后，下面一张自动翻开。
• 场牌出现空列时，立即自动用备用牌垛的顶牌填补。备用牌用完后，空列可以随时用废牌堆的\
顶牌填补，也可以暂时空着。
• 点击牌库，一次翻3张到废牌堆上，只有最上面的一张可用。牌库只剩1张或2张时，逐张翻开。\
牌库翻完后，不洗牌，把废牌堆翻过来作为新的牌库，重翻次数不限。

结束：52张牌全部放上基础堆即为成功。

选项：
• 一次翻一张：每次翻1张，废牌堆只能重翻两次（共过三遍）。
• 整组移动：“任意连牌”（默认）可以移动列顶任意一段连接好的牌；“整列”是严格的经典规则：\
只能移动顶牌，或把整列一起移动。
• 场牌循环：默认允许K放在A上；关闭后不允许。

计分：基础堆上的牌数（52张即成功）。"""

RULES_RU = """\
Цель: собрать все 52 карты в четыре базовые стопки, каждую в одной масти, по возрастанию от \
базового достоинства, с переходом от короля к тузу (например, 10, В, Д, К, Т, 2 … 9).

Раскладка: 13 карт рубашкой вверх кладутся стопкой слева — это резерв; его верхняя карта \
открывается. Справа от резерва в ряд открыто кладутся пять карт. Базы пока нет: первым ходом вы \
выбираете одну из пяти карт первой базой. Она ложится над первым столбцом, и её достоинство \
становится базовым для всех четырёх баз; пятая карта занимает освободившееся место, так что \
остаются четыре столбца. Остальные 34 карты — колода.

Ход игры (как в «Канфилде»):
• Три другие карты базового достоинства начинают остальные базы, когда освобождаются.
• Базы собираются по возрастанию в своей масти; после короля идёт туз. Карты с баз не \
возвращаются.
• В столбцах карты кладут по убыванию с чередованием цвета: красную 7 на чёрную 8; короля \
можно положить на туза.
• Можно перенести верхнюю карту столбца или сразу несколько верхних карт, идущих по порядку.
• Верхнюю карту резерва можно положить на базу или в столбец; на резерв карты не кладут. \
Следующая карта резерва открывается сама.
• Пустой столбец сразу и автоматически заполняется верхней картой резерва. Когда резерв \
кончится, пустой столбец можно в любой момент занять верхней картой отбоя или оставить пустым.
• Нажмите на колоду, чтобы открыть три карты в отбой; играть можно только верхнюю карту отбоя. \
Когда в колоде остаются одна или две карты, они открываются по одной. Когда колода кончится, \
отбой переворачивается и снова становится колодой, без тасовки, сколько угодно раз.

Конец: вы выиграли, когда все 52 карты на базах.

Варианты:
• По одной карте: карты открываются по одной, а отбой можно перевернуть только дважды (три \
прохода колоды).
• Перенос групп: «любая серия» (по умолчанию) — можно перенести любую верхнюю часть столбца, \
идущую по порядку; «весь столбец» — строгое классическое правило: только верхнюю карту или \
весь столбец целиком.
• Переход через туза в столбцах: по умолчанию короля можно класть на туза; если выключить — \
нельзя.

Очки: число карт на базах (52 — победа)."""


@register
class SelectiveCanfield(Canfield):
    info = GameInfo(
        id="selective_canfield",
        names={"en": "Selective Canfield", "zh": "选择康菲尔德", "ru": "Канфилд с выбором"},
        source="000_5c0014aada07c9b6.txt", source_game="12 variant 2",
        decks=1, kind="S-mixed", difficulty=3,
        description={
            "en": "Canfield where you pick the first foundation card from five.",
            "zh": "从五张牌中自选第一张基牌的纵横联通。",
            "ru": "«Канфилд», где первую базу выбирают из пяти карт.",
        },
        rules={"en": RULES_EN, "zh": RULES_ZH, "ru": RULES_RU},
    )
    #: the first move picks one of five Canfields: short searches in other orders try
    #: each choice before one long search sinks into a lost one
    SOLVER_RESTARTS = True

    def build_layout(self) -> Iterable[PileSpec]:
        yield from super().build_layout()
        yield PileSpec("C1", "cell", 8.4, 1.6, autoflip=False)

    def prepare(self) -> None:
        super().prepare()
        self.fifth = self.first("cell")
        self._choices = (*self.tableau, self.fifth)

    def deal_row(self, deck: list[int]) -> None:
        self.put(self.fifth, deck.pop())
        self.vars["base"] = 0

    @property
    def chosen(self) -> bool:
        return bool(self.vars["base"])

    def legal_moves(self) -> list[Move]:
        if self.chosen:
            return super().legal_moves()
        f1 = self.foundations[0]
        return [Move("choose", s, f1) for s in self._choices if self.cards[s]]

    def apply_extra(self, move: Move) -> None:
        s, card = move.src, self.cards[move.src][-1]
        self._move_cards(s, move.dst)
        self._set("base", RANK[card])
        if s != self.fifth and self.cards[self.fifth]:
            self._move_cards(self.fifth, s)

    def explain(self, move: Move) -> Reason:
        if move.kind == "choose":
            if self.chosen:
                return Reason("The first foundation has already been chosen.")
            return Reason("Choose one of the five dealt cards for the first foundation, above "
                          "column 1.")
        if not self.chosen:
            return Reason("First choose one of the five dealt cards to start the foundations.")
        return super().explain(move)

    def describe(self, move: Move) -> str:
        if move.kind == "choose" and self.cards[move.src]:
            return f"{C.pretty(self.cards[move.src][-1])} starts the foundations"
        return super().describe(move)
