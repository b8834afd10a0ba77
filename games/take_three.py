"""Take Three (000 #17): an open Klondike in seven columns with a holding area of three cards."""

from __future__ import annotations

from collections.abc import Iterable

from .model import GameInfo, Move, Option, PileSpec
from .patience import Build, PatienceGame, Rule, roles
from .reason import Reason
from .registry import register
from .rng import Rng

HOLD = 3

RULES_EN = """\
Goal: move all 52 cards to the four foundations, each built up in one suit from ace to king.

The deal: all 52 cards face up in seven columns, dealt in rows of seven; the last three cards \
go on columns 1, 2 and 3, so those hold 8 cards and the others 7. Above them are four empty \
foundations and a holding area of three places.

Play:
• Foundations: an ace starts a foundation; build up in suit (A, 2, 3 … K).
• Columns: build down in alternating colours: a red 7 on a black 8.
• Move the top card of a column alone, or the complete run on top of it (the longest sequence \
in alternating colours that ends at the top card) as a whole. There is no limit on its length.
• An empty column takes only a king, or a complete run headed by a king.
• The top card of a foundation may come back onto a column.
• Take down: when you are stuck, or whenever you like, you may put a column's top card in the \
holding area, as long as it holds fewer than three cards.
• Put held cards back as soon as you can (onto a column by the building rule, a king into an \
empty column, or onto a foundation), so that others can be taken down.

End: you win when all 52 cards are on the foundations. The game ends when no move is left.

Options: "partial runs" lets any top part of a run move, not only the whole run (the usual \
Klondike rule; the game gets much easier). "Three in total" reads the source's "at most three" \
as three take-downs for the whole game instead of three cards at a time. Held cards may be \
kept from going straight to a foundation. Score: cards on the foundations."""

RULES_ZH = """\
目标：把52张牌全部移到4个基础堆上，每堆同花色从A依次叠到K。

摆牌：52张全部正面朝上，每排7张，逐排从左到右摆成7行；最后3张放在第1、2、3行的最下面，所以这三行各8张，其余各7张。方阵上方有4个空的基础堆位置和能放3张牌的"拿下区"。

玩法：
• 基础堆：A放到基础堆位置，再按同花色递升（A、2、3……K）叠放。
• 各行：按红黑相间、点数递减叠放，如红7放在黑8上。
• 可以单张移动一行最下面的牌，也可以把联通的完整牌列（以该行最下面一张结束的最长红黑相间递减序列）整组移动，不限张数。
• 空行只能放K，或以K为首的完整牌列。
• 基础堆最上面的牌可以移回各行。
• 拿下：无法移动时（或随时），可以把某行最下面的牌拿下放到拿下区，只要区内不到3张。
• 拿下的牌一有机会就应补回去（按规则放到某行上，K放入空行，或放到基础堆上），以便再拿下别的牌。

结束：52张全部移到基础堆即为胜利；没有可走的牌时游戏结束。

选项："部分牌列"：牌列的任何上面一部分都可以移动，不必整组（即克朗代克的通常规则，难度大减）。"共拿3次"：把原文"最多不超过3张"理解为整局一共只能拿下3次，而不是同时最多3张。还可以规定拿下的牌不能直接放到基础堆。计分：基础堆上的牌数。"""

RULES_RU = """\
Цель: переложить все 52 карты в четыре базовые стопки, каждую по одной масти от туза до короля.

Раскладка: все 52 карты открыты и сдаются рядами по семь в семь столбцов; последние три карты \
ложатся на столбцы 1, 2 и 3, поэтому в них по 8 карт, а в остальных по 7. Над ними четыре \
пустые базы и «запас» на три карты.

Ход игры:
• Базы: туз начинает базу, дальше кладите по возрастанию в масть (A, 2, 3 … K).
• Столбцы: кладите по убыванию, чередуя цвет: красную 7 на чёрную 8.
• Переносить можно верхнюю карту столбца или всю серию на ней целиком (самую длинную \
последовательность с чередованием цвета, которая кончается верхней картой). Длина серии не \
ограничена.
• В пустой столбец можно положить только короля или целую серию, начинающуюся с короля.
• Верхнюю карту базы можно вернуть в столбец.
• Снять карту: когда ходов нет (или когда хотите), верхнюю карту столбца можно положить в \
запас, если там меньше трёх карт.
• Возвращайте карты из запаса при первой возможности (в столбец по правилу, короля в пустой \
столбец или на базу), чтобы можно было снять другие.

Конец: вы выиграли, когда все 52 карты на базах. Партия кончается, когда ходов не осталось.

Варианты: «части серий» — переносить можно любую верхнюю часть серии, а не только всю (обычное \
правило «Косынки»; играть намного легче). «Три за партию» — «не больше трёх» понимается как три \
снятия за всю партию, а не три карты одновременно. Можно запретить класть карты из запаса \
прямо на базу. Очки: карты на базах."""


@register
class TakeThree(PatienceGame):
    info = GameInfo(
        id="take_three",
        names={"en": "Take Three", "zh": "方阵通关——拿三张", "ru": "Возьми три"},
        source="000_5c0014aada07c9b6.txt", source_game="17",
        decks=1, kind="S-open", difficulty=4,
        description={
            "en": "All cards open in seven columns; park up to three cards while you dig.",
            "zh": "七行明牌，最多可以拿下三张牌周转。",
            "ru": "Все карты открыты в семи столбцах; до трёх карт можно отложить в запас.",
        },
        rules={"en": RULES_EN, "zh": RULES_ZH, "ru": RULES_RU},
    )
    twin_roles = frozenset({"tableau"})
    SOLVER_VIEW = {"foundation": "top"}  # a foundation holds ace to its top card of one suit
    options = (
        Option("partial_runs", False, (False, True),
               "any top part of a run may move, not only the complete run"),
        Option("hold_limit", "at_once", ("at_once", "in_total"),
               "three cards held at one time, or three take-downs in the whole game"),
        Option("held_to_foundation", True, (False, True),
               "a held card may go straight to a foundation"),
    )

    def build_layout(self) -> Iterable[PileSpec]:
        for i in range(4):
            yield PileSpec(f"F{i + 1}", "foundation", 3.6 + 1.2 * i, 0, label="A")
        for i in range(7):
            yield PileSpec(f"T{i + 1}", "tableau", 1.2 * i, 1.6, fan="down", label="K")
        for i in range(HOLD):
            yield PileSpec(f"C{i + 1}", "cell", 1.2 * i, 0)

    def rule_for(self, index: int, spec: PileSpec) -> Rule:
        if spec.role == "foundation":
            sources = ("tableau", "cell") if self.opts["held_to_foundation"] else ("tableau",)
            return Rule(Build("same", +1), empty="ace", take="top", max_cards=13,
                        sources=roles(*sources), name="foundation")
        if spec.role == "tableau":
            take = "run" if self.opts["partial_runs"] else "full_run"
            return Rule(Build("alt", -1), empty="king", take=take, many=True, name="column")
        return Rule(empty="any", take="top", max_cards=1, sources=roles("tableau"),
                    name="holding place")

    def prepare(self) -> None:
        super().prepare()
        self.cells = self.roles["cell"]
        self.in_total = self.opts["hold_limit"] == "in_total"

    def deal(self, rng: Rng) -> None:
        deck = list(range(52))
        rng.shuffle(deck)
        for _ in range(7):
            for t in self.tableau:
                self.put(t, deck.pop())
        for t in self.tableau[:3]:
            self.put(t, deck.pop())
        if self.in_total:
            self.vars["taken"] = 0

    #: the search tries first the moves that bring the next foundation cards nearer
    SOLVER_GUIDED = True

    def symmetric_groups(self) -> tuple[tuple[int, ...], ...]:
        return tuple(self.tableau), tuple(self.cells)

    def legal_moves(self) -> list[Move]:
        moves = super().legal_moves()
        if self.in_total and self.vars["taken"] >= HOLD:
            cells = set(self.cells)
            moves = [m for m in moves if m.dst not in cells]
        return moves

    def apply(self, move: Move) -> None:
        super().apply(move)
        if self.in_total and move.dst in self.cells:
            self._set("taken", self.vars["taken"] + 1)

    def explain_card_move(self, s: int, d: int, n: int) -> Reason:
        if 0 <= d < len(self.layout) and self._role[d] == "cell" and 0 <= s < len(self.layout) \
                and self._role[s] == "tableau" and self.cards[s]:
            if self.in_total and self.vars["taken"] >= HOLD:
                return Reason("You have already taken down three cards in this game.")
            if self.cards[d]:
                if all(self.cards[c] for c in self.cells):
                    return Reason("The holding area is full: put a held card back first.")
                return Reason("That holding place is taken; use an empty one.")
            if n > 1:
                return Reason("Only one card at a time can be taken down.")
        if 0 <= s < len(self.layout) and self._role[s] == "cell" and self.cards[s] \
                and 0 <= d < len(self.layout) and self._role[d] == "foundation" \
                and not self.opts["held_to_foundation"]:
            return Reason("With these rules a held card must go back onto a column first.")
        return super().explain_card_move(s, d, n)
