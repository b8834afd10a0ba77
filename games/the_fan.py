"""The Fan (003 variant): La Belle Lucie with kings into empty fans and no redeal.

003 notes that the king rule and the no-reshuffle rule go together: without redeals, a king
could otherwise never free the cards beneath it before it reaches its foundation. With no
shuffle after the deal every card is known, so this member is a game of pure skill.
"""

from __future__ import annotations

from .la_belle_lucie import LaBelleLucie
from .model import GameInfo
from .registry import register

RULES_EN = """\
Goal: move all 52 cards to the four foundations, each built up in one suit from ace to king.

The deal: all 52 cards are dealt face up in fans of three cards: 17 fans of three and one fan \
of a single card (18 fans). The four foundations start empty. Every card is in sight from the \
start, so the game is one of pure skill.

Play:
• Only the top card of a fan can be moved, and only one card at a time.
• An ace goes to an empty foundation; each foundation is then built up in its suit: 2♦ on A♦, \
3♦ on 2♦ and so on up to the king. Cards on the foundations stay there.
• The top card of a fan may go onto the top card of another fan of the same suit and one rank \
higher: 7♣ on 8♣.
• King rule: when a fan becomes empty, a king from the top of a fan may be moved into it \
(one card, like every move). No other card may fill an empty fan.
• There is no redeal: the cards are never shuffled again.

End: you win when all 52 cards are on the foundations. The game is over when no move is left.

Score: the number of cards on the foundations (52 means won)."""

RULES_ZH = """\
目标：把52张牌全部移到4个基础堆上，每堆同花色从A依次叠到K。

发牌：52张牌全部正面朝上，每3张叠成一个扇形，共17个扇形，剩下的1张单独成为第18个扇形。\
4个基础堆开始时是空的。从一开始所有牌都看得见，胜负完全取决于技巧。

玩法：
• 只有每个扇形最上面露出的一张牌可以移动，每次只能移动一张。
• A可以放到空的基础堆上，之后按同花色递升叠放：♦2放在♦A上，♦3放在♦2上……直到K。\
已经放上基础堆的牌不能再移回。
• 扇形的顶牌可以放到另一个扇形的顶牌上，要求同花色且点数小一：♣7放在♣8上。
• 国王规则：扇形移空后，可以把某个扇形顶上的K移进去（和其他移动一样，一次一张）。\
其他牌都不能放进空扇形。
• 不能重新洗牌摆牌。

结束：52张牌全部放上基础堆即为成功。无牌可移时，游戏结束。

计分：基础堆上的牌数（52张即成功）。"""

RULES_RU = """\
Цель: переложить все 52 карты в четыре базовые стопки, каждую по одной масти от туза до короля.

Раскладка: все карты сдаются открытыми веерами по три карты: 17 вееров по три, а последняя \
карта образует 18-й веер из одной карты. Базовые стопки вначале пусты. Все карты видны с самого \
начала, так что исход зависит только от мастерства.

Ход игры:
• Перекладывать можно только верхнюю карту веера и только по одной карте.
• Туз кладётся на пустую базу, дальше база собирается по возрастанию в той же масти: 2♦ на A♦, \
3♦ на 2♦ и так до короля. Карты с баз не возвращаются.
• Верхнюю карту веера можно положить на верхнюю карту другого веера той же масти и на единицу \
старше: 7♣ на 8♣.
• Правило короля: в опустевший веер можно перенести короля с верха другого веера (одну карту, \
как и при любом ходе). Другие карты в пустой веер класть нельзя.
• Пересдач нет: карты больше не тасуются.

Конец: вы выиграли, когда все 52 карты на базах. Игра окончена, когда ходов не осталось.

Очки: число карт на базах (52 — победа)."""


@register
class TheFan(LaBelleLucie):
    info = GameInfo(
        id="the_fan",
        names={"en": "The Fan", "zh": "扇子", "ru": "Веер"},
        source="003_a9f4e6f80390d395.txt", source_game="The Fan (variant of La Belle Lucie)",
        decks=1, kind="S-open", difficulty=4,
        description={
            "en": "La Belle Lucie with kings into empty fans and no redeal: all skill.",
            "zh": "空扇形可放K、不重新洗牌的“三叶草”：全凭技巧。",
            "ru": "«Прекрасная Люси» без пересдач, короли идут в пустые веера.",
        },
        rules={"en": RULES_EN, "zh": RULES_ZH, "ru": RULES_RU},
    )
    options = ()
    fan_empty = "king"
    redeals = 0
