"""Streets and Alleys (000 #23, [例1]): Beleaguered Castle with the aces left in the deal."""

from __future__ import annotations

from collections.abc import Iterator

from .beleaguered_castle import CASTLE_PLAY_EN, CASTLE_PLAY_RU, CASTLE_PLAY_ZH, CastleGame
from .model import GameInfo, Option
from .registry import register

RULES_EN = """\
Goal: build four foundations up in suit from ace to king.

The deal: four empty foundation places stand in a column in the middle. Each has a wing on its \
left and one on its right: eight wings. All 52 cards are dealt face up, one to each left wing \
from top to bottom, then one to each right wing, and so on. The four wings of the top two rows \
(left and right) get 7 cards, the other four get 6. The aces start the foundations as they \
come free.

""" + CASTLE_PLAY_EN + """

Option: "long wings" chooses which wings get 7 cards: the top two rows (as in the book) or the \
four left wings (as in some other books)."""

RULES_ZH = """\
目标：在4个基牌位上，按同花色从A到K递升叠成4套。

摆牌：中间竖着留出4个基牌空位，每个空位左右各有一翼，共8翼。整副52张牌面朝上，先给左侧各翼由上到下\
各发一张，再给右侧各翼各发一张，如此交替。上面两排的左右4翼各7张，其余4翼各6张。A露出后移到基牌位\
上作为基牌。

""" + CASTLE_PLAY_ZH + """

选项：“长翼”决定哪4翼发7张：上面两排（按原书）或左侧4翼（有些书的说法）。"""

RULES_RU = """\
Цель: собрать на четырёх базах масти по возрастанию от туза до короля.

Раскладка: посередине столбиком четыре пустых места для баз. У каждого есть крыло слева и \
крыло справа, всего восемь крыльев. Все 52 карты раздают открытыми: по одной в каждое левое \
крыло сверху вниз, затем в каждое правое, и так далее. Четыре крыла двух верхних рядов \
(левые и правые) получают по 7 карт, остальные — по 6. Тузы начинают базы, когда освободятся.

""" + CASTLE_PLAY_RU + """

Вариант: «длинные крылья» — какие крылья получают по 7 карт: два верхних ряда (как в \
книге) или четыре левых крыла (как в некоторых других книгах)."""


@register
class StreetsAndAlleys(CastleGame):
    info = GameInfo(
        id="streets_and_alleys",
        names={"en": "Streets and Alleys", "zh": "大街小巷", "ru": "Улицы и переулки"},
        source="000_5c0014aada07c9b6.txt", source_game="23 [例1]",
        decks=1, kind="S-open", difficulty=4,
        description={
            "en": "Beleaguered Castle with the aces still buried in the wings.",
            "zh": "不先拣出A的围城：A都埋在两翼之中。",
            "ru": "Осаждённая крепость, где тузы ещё спрятаны в крыльях.",
        },
        rules={"en": RULES_EN, "zh": RULES_ZH, "ru": RULES_RU},
    )
    options = (
        Option("long_wings", "top", ("top", "left"),
               "which four wings get 7 cards: the top two rows (source) or the left wings"),
    )

    def deal_order(self) -> Iterator[int]:
        yield from super().deal_order()
        t = self.tableau
        if self.opts["long_wings"] == "top":
            yield from (t[0], t[2], t[1], t[3])  # left wings of rows 1-2, then right wings
        else:
            yield from (t[0], t[2], t[4], t[6])
