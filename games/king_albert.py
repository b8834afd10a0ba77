"""King Albert (000 #16): an open ladder of nine columns and the seven-card Belgian Reserve.

The source lets a column's top card go back into the reserve while it holds fewer than seven
cards, which makes the reserve seven free cells; the standard game never refills it
(option ``reserve_refill=False``).
"""

from __future__ import annotations

from collections.abc import Iterable

from .cards import ACE, COLOUR, RANK
from .model import GameInfo, Move, Option, PileSpec
from .open_patience import OpenPatience
from .patience import FOUNDATION, Build, Rule, roles
from .reason import Reason
from .registry import register
from .rng import Rng

#: the cards each card may be placed on: one rank higher, the other colour
ONTO = tuple(
    tuple(suit * 13 + RANK[c] for suit in range(4) if COLOUR[suit * 13] != COLOUR[c])
    if RANK[c] < 13 else () for c in range(52))
_move = Move._make
#: column pitch: nine columns and the foundations in a screen width
PITCH = 1.05

RULES_EN = """\
Goal: build the four foundations up in suit from ace to king.

The deal: 45 cards face up in nine columns, the first column 1 card, the second 2, and so on \
to 9 cards in the last column. The other 7 cards lie face up in a row above them: the \
Belgian Reserve. At the right are four empty places for the foundations.

Play:
• One card moves at a time; runs never move together.
• Available cards: the top card of each column, every card of the reserve, and the top card \
of each foundation.
• An ace goes to an empty foundation; foundations are built up in suit to the king.
• On the columns, build down in alternating colours: a red 7 on a black 8.
• An empty column may be filled with any available card.
• The top card of a foundation may be moved back onto a column when you need it.
• While the reserve holds fewer than 7 cards, the top card of a column may be put into an empty \
reserve place (this book's rule: the reserve works like seven free cells).

End: you win when all 52 cards are on the foundations. The game is over when nothing can move.
Score: cards on the foundations.

Option: "reserve refill" off gives the standard King Albert, where a reserve place, once \
emptied, stays empty."""

RULES_ZH = """\
目标：在4个基牌A上，按同花色从A到K递升叠成4套。

摆牌：45张牌全部亮开，从左到右摆成9行（列），第1行1张，第2行2张……第9行9张。剩下的7张也亮开，\
在上方排成一排，称为“比利时后备队”。右侧留出4个放基牌的位置。

玩法：
• 每次只能移一张牌，联通的牌列不能一起移动。
• 可以移动的牌：各行最下面的暴露牌、后备队的每一张牌、以及基牌最顶上的一张。
• A移到空的基牌位上；基牌按同花色递升叠放到K。
• 各行暴露牌上按红黑相间、点数递减叠放：如红7放在黑8上。
• 出现空行时，可以用任何一张可移动的牌补上。
• 必要时，基牌顶上的牌可以移回场牌，接在暴露牌下面。
• 后备牌不足7张时，可以拿一张暴露牌补入后备队的空位（本书的规则：后备队相当于7个自由格）。

结束：52张牌全部堆到基牌上就是胜利；没有牌可以移动时游戏结束。
计分：基牌上的牌数。

选项：关闭“后备补入”就是标准的亚尔培王：后备队的位置空出后不能再补。"""

RULES_RU = """\
Цель: собрать на четырёх базах масти по возрастанию от туза до короля.

Раскладка: 45 карт открыто в девять столбцов: в первом 1 карта, во втором 2 и так далее, в \
последнем 9. Остальные 7 карт лежат открыто в ряд над столбцами — это «бельгийский \
резерв». Справа четыре пустых места для баз.

Ход игры:
• Карты перекладываются по одной; серии вместе не переносятся.
• Доступны: верхняя карта каждого столбца, все карты резерва и верхняя карта каждой базы.
• Туз кладут на пустое место базы; базы собираются по масти до короля.
• В столбцах карты кладут по убыванию, чередуя цвет: красную 7 на чёрную 8.
• В пустой столбец можно положить любую доступную карту.
• Верхнюю карту базы можно при необходимости вернуть в столбец.
• Пока в резерве меньше 7 карт, верхнюю карту столбца можно положить на пустое место резерва \
(правило этой книги: резерв работает как семь свободных ячеек).

Конец: вы выиграли, когда все 52 карты на базах. Игра окончена, если ходов больше нет.
Очки: карты на базах.

Вариант: без «пополнения резерва» получается обычный «Король Альберт»: освободившееся место \
резерва остаётся пустым."""


@register
class KingAlbert(OpenPatience):
    info = GameInfo(
        id="king_albert",
        names={"en": "King Albert", "zh": "亚尔培王（全亮梯阵通关）", "ru": "Король Альберт"},
        source="000_5c0014aada07c9b6.txt", source_game="16",
        decks=1, kind="S-open", difficulty=3,
        description={
            "en": "Nine open columns and a seven-card reserve: every card is in sight.",
            "zh": "九行全亮的梯阵加七张后备牌，每张牌都看得见。",
            "ru": "Девять открытых столбцов и резерв из семи карт: все карты на виду.",
        },
        rules={"en": RULES_EN, "zh": RULES_ZH, "ru": RULES_RU},
    )
    options = (
        Option("reserve_refill", True, (True, False),
               "column tops may go back into empty reserve places (the source's rule)"),
    )

    def rule_for(self, index: int, spec: PileSpec) -> Rule:
        if spec.role == "foundation":
            return Rule(FOUNDATION.build, empty="ace", take="top", max_cards=13,
                        sources=roles("tableau", "cell"), name="foundation")
        if spec.role == "tableau":
            return Rule(Build("alt", -1), empty="any", take="top", name="column")
        refill = self.opts["reserve_refill"]
        return Rule(empty="any" if refill else "none", take="top", max_cards=1,
                    sources=roles("tableau"), name="reserve place")

    def build_layout(self) -> Iterable[PileSpec]:
        """Reserve along the top and foundations down the right, so the columns, which start
        up to nine cards deep, have the whole height below them."""
        for i in range(4):
            yield PileSpec(f"F{i + 1}", "foundation", 9.5, round(1.6 * i, 2), label="A")
        for i in range(9):
            yield PileSpec(f"T{i + 1}", "tableau", round(PITCH * i, 2), 1.6, fan="down")
        for i in range(7):
            yield PileSpec(f"C{i + 1}", "cell", round(1.2 * i, 2), 0)

    def prepare(self) -> None:
        super().prepare()
        self.cells = self.roles["cell"]
        self._movable = self.tableau + self.cells + self.foundations

    def deal(self, rng: Rng) -> None:
        deck = list(range(52))
        rng.shuffle(deck)
        cols = self.tableau
        for row in range(9):
            for col in range(row, 9):
                self.put(cols[col], deck.pop())
        for c in self.cells:
            self.put(c, deck.pop())

    # --------------------------------------------------------------- fast move generation
    def legal_moves(self) -> list[Move]:
        """Single cards: look up the piles a card fits on instead of trying every pair."""
        cards, roles = self.cards, self._role
        moves: list[Move] = []
        add = moves.append
        on_top: dict[int, int] = {}
        empty: list[int] = []
        for t in self.tableau:
            if cards[t]:
                on_top[cards[t][-1]] = t
            else:
                empty.append(t)
        wanted: dict[int, int] = {}
        free: list[int] = []
        for f in self.foundations:
            pile = cards[f]
            if not pile:
                free.append(f)
            elif RANK[pile[-1]] < 13:
                wanted[pile[-1] + 1] = f
        cells = [c for c in self.cells if not cards[c]] if self.opts["reserve_refill"] else ()
        for s in self._movable:
            pile = cards[s]
            if not pile:
                continue
            c = pile[-1]
            role = roles[s]
            if role != "foundation":
                if RANK[c] == ACE:
                    for f in free:
                        add(_move(("move", s, f, 1, ())))
                elif c in wanted:
                    add(_move(("move", s, wanted[c], 1, ())))
            for t in ONTO[c]:
                d = on_top.get(t)
                if d is not None:
                    add(_move(("move", s, d, 1, ())))
            if empty and (len(pile) > 1 or role != "tableau"):
                for d in empty:
                    add(_move(("move", s, d, 1, ())))
            if role == "tableau":
                for d in cells:
                    add(_move(("move", s, d, 1, ())))
        return moves

    def explain_card_move(self, s: int, d: int, n: int) -> Reason:
        size = len(self.layout)
        if 0 <= s < size and 0 <= d < size and s != d and self.cards[s]:
            if self._role[d] == "cell" and self.cards[d] and self._role[s] == "tableau":
                return Reason("That reserve place is already taken.")
        return super().explain_card_move(s, d, n)
