"""Eight Off (000 #18, "不过八"): eight open columns built down in suit, and eight reserve places.

The source's own rule gives the game its Chinese name: no column may ever hold more than eight
cards. Standard Eight Off has no such cap (option ``column_cap=False``).
"""

from __future__ import annotations

from collections.abc import Iterable

from .cards import ACE, RANK
from .model import GameInfo, Move, Option, PileSpec
from .open_patience import OpenPatience
from .patience import FOUNDATION, Build, Rule, roles
from .reason import Reason
from .registry import register
from .rng import Rng

CAP = 8
_move = Move._make

RULES_EN = """\
Goal: build the four foundations up in suit from ace to king.

The deal: 48 cards face up in eight overlapping columns of 6. The other 4 cards lie face up \
above them in the reserve row, which has room for 8 cards. At the right are four empty places \
for the foundations.

Play:
• One card moves at a time, even when cards are in sequence.
• Available cards: the top card of each column and every card in the reserve.
• An ace goes to an empty foundation; foundations are built up in suit to the king.
• On the columns, build down in the same suit: the 7 of hearts on the 8 of hearts.
• The top card of a column may be put into an empty reserve place (at most 8 cards there).
• A reserve card may go to a foundation or onto a column.
• An empty column may be filled only with a king.
• No column may ever hold more than 8 cards (this book's rule, which gives the game its \
Chinese name, "not over eight").
• Cards on the foundations stay there.

End: you win when all 52 cards are on the foundations. The game is over when nothing can move.
Score: cards on the foundations.

Option: "column cap" off removes the 8-card limit on the columns (standard Eight Off)."""

RULES_ZH = """\
目标：在4个基牌A上，按同花色从A到K递升叠成4套。

摆牌：48张牌面朝上摆成8行，每行6张，牌面搭接。剩下的4张并排亮放在方阵上方作为备用牌，备用牌处最多可放8张。\
右侧留出4个放基牌的位置。

玩法：
• 每次只能移动一张牌，联通的牌也只能一张一张地移。
• 可以移动的牌：各行最下面的暴露牌和所有备用牌。
• A移到空的基牌位上；基牌按同花色递升叠放到K。
• 场牌上按同花色、点数递减叠放：如红桃7放在红桃8上。
• 暴露牌可以移到备用牌的空位上（备用牌最多8张）。
• 备用牌可以移到基牌上，也可以接到场牌上。
• 出现空行时，只能用K补上。
• 每行牌都不能超过8张（本书的规则，游戏名“不过八”即由此而来）。
• 已放到基牌上的牌不能再拿回来。

结束：52张牌全部堆到基牌上就是胜利；没有牌可以移动时游戏结束。
计分：基牌上的牌数。

选项：关闭“每行限8张”就取消这一限制（标准玩法）。"""

RULES_RU = """\
Цель: собрать на четырёх базах масти по возрастанию от туза до короля.

Раскладка: 48 карт открыто в восемь столбцов по 6 карт внахлёст. Остальные 4 карты лежат \
открыто над ними в ряду резерва, где помещается 8 карт. Справа четыре пустых места для баз.

Ход игры:
• Карты перекладываются по одной, даже если они идут по порядку.
• Доступны: верхняя карта каждого столбца и все карты резерва.
• Туз кладут на пустое место базы; базы собираются по масти до короля.
• В столбцах карты кладут по убыванию в той же масти: 7 червей на 8 червей.
• Верхнюю карту столбца можно положить на пустое место резерва (в резерве не больше 8 карт).
• Карту из резерва можно положить на базу или в столбец.
• В пустой столбец можно положить только короля.
• Ни в одном столбце не может быть больше 8 карт (правило этой книги, отсюда китайское \
название игры — «не больше восьми»).
• Карты с баз не возвращаются.

Конец: вы выиграли, когда все 52 карты на базах. Игра окончена, если ходов больше нет.
Очки: карты на базах.

Вариант: без «предела столбца» ограничение в 8 карт снимается (обычная игра Eight Off)."""


@register
class EightOff(OpenPatience):
    info = GameInfo(
        id="eight_off",
        names={"en": "Eight Off", "zh": "不过八（方阵通关）", "ru": "Не больше восьми"},
        source="000_5c0014aada07c9b6.txt", source_game="18",
        decks=1, kind="S-open", difficulty=3,
        description={
            "en": "Eight open columns in suit and eight reserve places, never more than eight.",
            "zh": "八行明牌同花递降，八个备用位，每行不过八张。",
            "ru": "Восемь открытых столбцов по масти и восемь мест резерва — не больше восьми.",
        },
        rules={"en": RULES_EN, "zh": RULES_ZH, "ru": RULES_RU},
    )
    options = (
        Option("column_cap", True, (True, False),
               "no column may hold more than 8 cards (the source's rule)"),
    )

    def rule_for(self, index: int, spec: PileSpec) -> Rule:
        if spec.role == "foundation":
            return FOUNDATION
        if spec.role == "tableau":
            return Rule(Build("same", -1), empty="king", take="top", name="column",
                        max_cards=CAP if self.opts["column_cap"] else 0)
        return Rule(empty="any", take="top", max_cards=1, sources=roles("tableau"),
                    name="reserve place")

    def build_layout(self) -> Iterable[PileSpec]:
        """Reserve along the top and foundations down the right, so the columns have the
        whole height below them."""
        for i in range(4):
            yield PileSpec(f"F{i + 1}", "foundation", 9.4, round(1.6 * i, 2), label="A")
        for i in range(8):
            yield PileSpec(f"T{i + 1}", "tableau", round(1.15 * i, 2), 1.6, fan="down", label="K")
        for i in range(8):
            yield PileSpec(f"C{i + 1}", "cell", round(1.1 * i, 2), 0)

    def prepare(self) -> None:
        super().prepare()
        self.cells = self.roles["cell"]
        self._movable = self.tableau + self.cells
        self._cap = CAP if self.opts["column_cap"] else 99

    def deal(self, rng: Rng) -> None:
        deck = list(range(52))
        rng.shuffle(deck)
        for _ in range(6):
            for t in self.tableau:
                self.put(t, deck.pop())
        for c in self.cells[:4]:
            self.put(c, deck.pop())

    # --------------------------------------------------------------- fast move generation
    def legal_moves(self) -> list[Move]:
        """Single cards: the one card a column top takes is known, so look it up."""
        cards, roles, cap = self.cards, self._role, self._cap
        moves: list[Move] = []
        add = moves.append
        on_top: dict[int, int] = {}
        empty: list[int] = []
        for t in self.tableau:
            pile = cards[t]
            if not pile:
                empty.append(t)
            elif len(pile) < cap:
                on_top[pile[-1]] = t
        wanted: dict[int, int] = {}
        free: list[int] = []
        for f in self.foundations:
            pile = cards[f]
            if not pile:
                free.append(f)
            elif RANK[pile[-1]] < 13:
                wanted[pile[-1] + 1] = f
        cells = [c for c in self.cells if not cards[c]]
        for s in self._movable:
            pile = cards[s]
            if not pile:
                continue
            c = pile[-1]
            r = RANK[c]
            if r == ACE:
                for f in free:
                    add(_move(("move", s, f, 1, ())))
            elif c in wanted:
                add(_move(("move", s, wanted[c], 1, ())))
            if r < 13:
                d = on_top.get(c + 1)  # the next card up in the same suit
                if d is not None:
                    add(_move(("move", s, d, 1, ())))
            elif empty and (len(pile) > 1 or roles[s] != "tableau"):
                for d in empty:
                    add(_move(("move", s, d, 1, ())))
            if roles[s] == "tableau":
                for d in cells:
                    add(_move(("move", s, d, 1, ())))
        return moves

    def explain_card_move(self, s: int, d: int, n: int) -> Reason:
        size = len(self.layout)
        if 0 <= s < size and 0 <= d < size and s != d and self.cards[s]:
            if self._role[d] == "cell" and self.cards[d] and self._role[s] == "tableau":
                return Reason("That reserve place is already taken.")
            if self._role[d] == "tableau" and len(self.cards[d]) >= self._cap:
                return Reason("A column may never hold more than {n} cards.", n=CAP)
        return super().explain_card_move(s, d, n)
