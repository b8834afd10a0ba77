"""Florentine (000 #9): a cross of five, foundations from the sixth card's rank, one redeal."""

from __future__ import annotations

from collections.abc import Iterable

from .cards import RANK
from .model import GameInfo, Move, Option, PileSpec
from .patience import Build, PatienceGame, Rule, roles
from .reason import Rank, Reason
from .registry import register
from .rng import Rng

CENTRE_REFILLS = ("either", "waste", "stock")
REFILL_FROM = {
    "either": Reason("An empty centre is filled from the waste or the stock."),
    "waste": Reason("An empty centre is filled from the waste."),
    "stock": Reason("An empty centre is filled from the stock."),
}

RULES_EN = """\
Goal: build four foundations of 13 cards, in suit, from the base rank.

The deal: five cards face up in a cross: a centre card and four outer cards (top, left, right, \
bottom). The sixth card goes to the top-left corner as the first foundation; its rank is the \
base rank for all four. The other three corners wait for the other cards of that rank. The \
remaining 46 cards are the stock.

Play:
• Foundations: build up in suit from the base rank, going round the corner (… Q, K, A, 2 …), \
13 cards each. A card of the base rank starts an empty corner.
• Tap the stock to turn one card onto the waste. The top waste card may go to a foundation, \
onto an outer card, or into an empty outer place.
• Outer cards: build down by one regardless of suit, one card at a time; a king may go on an \
ace. The top outer card may go to a foundation or onto another outer pile.
• The centre always holds a single card: nothing is built on it. It may go to a foundation or \
into an empty outer place. An empty centre is filled with the top waste card or the next \
stock card, as you choose.
• An empty outer place is filled with the top waste card or the centre card; when the waste is \
empty, with the next stock card. It need not be filled at once.
• When the stock is used up, turn the waste over once (no shuffle) and go through it again.

End: you win when all 52 cards are on the foundations.

Options: no king on an ace on the outer piles; the centre filled only from the waste, or only \
from the stock; the centre card not straight to a foundation; no stock card into an empty \
outer place. Score: cards on the foundations."""

RULES_ZH = """\
目标：在4个基础堆上，按同花色从基牌点数起递升，各堆满13张。

摆牌：先翻开5张摆在中央成“十”字形：中央一张，上、左、右、下四张为外周牌。翻开第6张放在左上角，成为第一个基础堆，它的点数就是四个基础堆的起始点数；其它三个角落留给以后翻出的与它同值的牌。其余46张为手牌。

玩法：
• 基础堆：从起始点数起同花色递升，K以后是A，A以后是2，每堆13张。与起始点数相同的牌可以放到空角落，开始新的基础堆。
• 点手牌，一次翻开一张放到弃牌堆上。弃牌堆顶牌可以放到基础堆上，也可以放到外周牌上，或补入外周的空位。
• 外周牌：不分花色按点数递降叠放，一次只能移一张；K可以放在A上。外周牌的顶牌可以移到基础堆上，也可以移到其它外周牌上。
• 中央一张始终单独亮放，上面不能放牌。它可以移到基础堆上，或补入外周的空位。中央空出时，用弃牌堆顶牌或下一张手牌补上，由你选择。
• 外周空位可以用弃牌堆顶牌或中央牌补入；弃牌堆空时，也可以用下一张手牌。不必立即补。
• 手牌翻完后，可以把弃牌扣过来，不要洗，再翻一次。

结束：52张全部放到基础堆上即为胜利。

选项：外周牌K不能放在A上；中央只用弃牌补，或只用手牌补；中央牌不能直接放到基础堆；外周空位不能用手牌补。计分：基础堆上的牌数。"""

RULES_RU = """\
Цель: сложить четыре базы по 13 карт одной масти, начиная с базового достоинства.

Раскладка: пять открытых карт крестом — центральная и четыре крайние (сверху, слева, справа, \
снизу). Шестая карта ложится в левый верхний угол как первая база; её достоинство — базовое \
для всех четырёх. Три других угла ждут остальных карт того же достоинства. Оставшиеся 46 \
карт — колода.

Ход игры:
• Базы: по возрастанию в масти от базового достоинства, по кругу (… Д, К, Т, 2 …), по 13 \
карт. Карта базового достоинства начинает пустой угол.
• Нажмите на колоду, чтобы открыть карту в отбой. Верхнюю карту отбоя можно положить на базу, \
на крайнюю карту или на пустое крайнее место.
• Крайние карты: по убыванию на единицу без учёта масти, по одной карте; короля можно \
положить на туза. Верхнюю крайнюю карту можно переложить на базу или на другую крайнюю стопку.
• В центре всегда одна карта: на неё ничего не кладут. Её можно положить на базу или на \
пустое крайнее место. Пустой центр заполняется верхней картой отбоя или следующей картой \
колоды — на ваш выбор.
• Пустое крайнее место заполняется верхней картой отбоя или центральной картой; если отбой \
пуст — следующей картой колоды. Заполнять сразу не обязательно.
• Когда колода кончится, переверните отбой (не тасуя) и пройдите его ещё раз.

Конец: вы выиграли, когда все 52 карты лежат на базах.

Варианты: без короля на тузе в крайних стопках; центр только из отбоя или только из колоды; \
центральная карта не идёт прямо на базу; пустое крайнее место не заполняется из колоды. \
Очки: карты на базах."""


@register
class Florentine(PatienceGame):
    info = GameInfo(
        id="florentine",
        names={"en": "Florentine", "zh": "十字阵（佛罗伦蒂）", "ru": "Флорентийский пасьянс"},
        source="000_5c0014aada07c9b6.txt", source_game="9",
        decks=1, kind="S-mixed", difficulty=3,
        description={"en": "A cross of five cards feeds four foundations from a chosen rank.",
                     "zh": "十字形五张牌，四角基础堆从第六张牌的点数起递升。",
                     "ru": "Крест из пяти карт, базы растут от достоинства шестой карты."},
        rules={"en": RULES_EN, "zh": RULES_ZH, "ru": RULES_RU},
    )
    options = (
        Option("outer_wrap", True, (True, False), "a king may go on an ace on the outer piles"),
        Option("centre_refill", "either", CENTRE_REFILLS,
               "what fills an empty centre: the top waste card, the next stock card, or either"),
        Option("centre_to_foundation", True, (True, False),
               "the centre card may go straight to a foundation"),
        Option("stock_to_empty_outer", True, (True, False),
               "when the waste is empty, the next stock card may fill an empty outer place"),
    )
    draw = 1
    redeals = 1
    standard_foundations = False
    SOLVER_VIEW = {"foundation": "top"}
    #: accepts() below only changes what an empty outer place takes
    ACCEPTS_BY_BUILD = True

    def build_layout(self) -> Iterable[PileSpec]:
        yield PileSpec("S", "stock", 4.0, 0)
        yield PileSpec("W", "waste", 4.0, 1.6)
        for i in range(4):
            yield PileSpec(f"F{i + 1}", "foundation", 2.4 * (i % 2), 3.2 * (i // 2))
        for i, (x, y) in enumerate(((1.2, 0), (0, 1.6), (2.4, 1.6), (1.2, 3.2))):
            yield PileSpec(f"T{i + 1}", "tableau", x, y)
        yield PileSpec("C", "cell", 1.2, 1.6, label="centre")

    def rule_for(self, index: int, spec: PileSpec) -> Rule:
        o = self.opts
        if spec.role == "foundation":
            src = roles("waste", "tableau", "cell") if o["centre_to_foundation"] \
                else roles("waste", "tableau")
            return Rule(Build("same", +1, wrap=True), empty="base", take="none", max_cards=13,
                        sources=src, name="foundation")
        if spec.role == "tableau":
            return Rule(Build("any", -1, wrap=o["outer_wrap"]), take="top",
                        sources=roles("waste", "tableau"), name="outer pile")
        if spec.role == "cell":
            from_waste = o["centre_refill"] != "stock"
            return Rule(take="top", empty="any" if from_waste else "none", max_cards=1,
                        sources=roles("waste") if from_waste else frozenset(), name="centre")
        if spec.role == "waste":
            return Rule(take="top", empty="none", name="waste")
        return Rule(take="none", empty="none", name="stock")

    def prepare(self) -> None:
        super().prepare()
        self.centre = self.first("cell")

    def symmetric_groups(self) -> tuple[tuple[int, ...], ...]:
        """No rule depends on which arm of the cross an outer pile is."""
        return (tuple(self.tableau),)

    def deal(self, rng: Rng) -> None:
        deck = list(range(52))
        rng.shuffle(deck)
        top, left, right, bottom = self.tableau
        for p in (top, left, self.centre, right, bottom, self.foundations[0]):
            self.put(p, deck.pop())
        self.vars["base"] = RANK[self.cards[self.foundations[0]][0]]
        self.init_stock(deck[::-1])

    # ------------------------------------------------------------------ rules
    def accepts(self, d: int, s: int, n: int) -> bool:
        if d in self.tableau and not self.cards[d]:
            # an empty outer place takes the waste card or the centre card, never an outer card
            return s == self.waste or s == self.centre
        return super().accepts(d, s, n)

    def extra_moves(self, moves: list[Move]) -> None:
        """The next stock card, unseen, may fill the centre or (waste empty) an outer place."""
        s = self.stock
        if not self.cards[s]:
            return
        if not self.cards[self.centre] and self.opts["centre_refill"] != "waste":
            moves.append(Move("move", s, self.centre))
        if self.opts["stock_to_empty_outer"] and not self.cards[self.waste]:
            moves.extend(Move("move", s, t) for t in self.tableau if not self.cards[t])

    # ------------------------------------------------------------------ words
    def explain_card_move(self, s: int, d: int, n: int) -> Reason:
        o = self.opts
        if not (0 <= s < len(self.layout) and 0 <= d < len(self.layout)) or s == d \
                or not self.cards[s] or s != self.stock and self.rule[s].take == "none":
            return super().explain_card_move(s, d, n)
        if d == self.centre:
            if self.cards[d]:
                return Reason("The centre holds a single card; nothing can be placed on it.")
            return REFILL_FROM[o["centre_refill"]]
        if s == self.stock:
            if d in self.tableau and not self.cards[d]:
                if o["stock_to_empty_outer"]:
                    return Reason("A stock card may fill an outer place only when the waste is "
                                  "empty.")
                return Reason("An empty outer place is filled from the waste or the centre.")
            return Reason("Turn the stock onto the waste to play its cards.")
        if d in self.tableau:
            if not self.cards[d] and s in self.tableau:
                return Reason("An empty outer place is filled from the waste or the centre.")
            if self.cards[d] and s == self.centre:
                return Reason("The centre card cannot be built onto an outer pile.")
        if d in self.foundations and s in self._sources:
            if s == self.centre and not o["centre_to_foundation"]:
                return Reason("With these rules the centre card cannot go straight to a "
                              "foundation.")
            if not self.cards[d]:
                return Reason("Only a card of the base rank ({rank}) can start a foundation.",
                              rank=Rank(self.vars["base"]))
        return super().explain_card_move(s, d, n)
