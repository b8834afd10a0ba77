"""Trefoil (003 variant; 000 #24 variant 2): La Belle Lucie with the aces out before the deal.

Taking the aces out leaves 48 cards in 16 full fans. 003 builds the fans in alternating
colours where 000 and the standard game build in suit; the standard is the default and 003's
rule an option. 003's "4 remaining cards in 2 fans of 2" cannot happen (16 x 3 = 48) and is
ignored.
"""

from __future__ import annotations

from .la_belle_lucie import LaBelleLucie
from .model import GameInfo, Option
from .patience import Build
from .registry import register

RULES_EN = """\
Goal: move all 52 cards to the four foundations, each built up in one suit from ace to king.

The deal: the four aces are put on the foundations first. The other 48 cards are shuffled and \
dealt face up in 16 fans of three cards.

Play:
• Only the top card of a fan can be moved, and only one card at a time.
• Each foundation is built up in its suit: 2♦ on A♦, 3♦ on 2♦ and so on up to the king. Cards \
on the foundations stay there.
• The top card of a fan may go onto the top card of another fan of the same suit and one rank \
higher: 7♣ on 8♣.
• A fan that becomes empty is never filled again, not even with a king.

Redeals: when no card can move, you may redeal: every card that is not on a foundation is \
gathered, shuffled and dealt again in fans of three; one or two cards left over make a last, \
smaller fan. Two redeals are allowed.

End: you win when all 52 cards are on the foundations. The game is over when no move and no \
redeal is left.

Options:
• Alternating colours (the rule of the encyclopedia source): build down on the fans in \
alternating colours instead of in suit: 7♦ on 8♣ or 8♠.
• Draw: after the last redeal, when no move is left, you may once pull out one buried card (any \
card that is not on top of its fan) and play it at once onto a foundation or a fan top where it \
fits.
• Redeal any time: redeal (and draw) without waiting until no move is left.

Score: the number of cards on the foundations (52 means won)."""

RULES_ZH = """\
目标：把52张牌全部移到4个基础堆上，每堆同花色从A依次叠到K。

发牌：先把4张A放到基础堆上，其余48张洗匀后正面朝上，每3张叠成一个扇形，共16个扇形。

玩法：
• 只有每个扇形最上面露出的一张牌可以移动，每次只能移动一张。
• 基础堆按同花色递升叠放：♦2放在♦A上，♦3放在♦2上……直到K。已经放上基础堆的牌不能再移回。
• 扇形的顶牌可以放到另一个扇形的顶牌上，要求同花色且点数小一：♣7放在♣8上。
• 扇形移空后不再补牌，即使是K也不能放进去。

重新摆牌：无牌可移时，可以重新摆牌：把基础堆以外的牌全部收拢、洗匀，再每3张摆成一个扇形，\
余下1张或2张单独成为最后一个扇形。共可重新摆牌两次。

结束：52张牌全部放上基础堆即为成功。既无牌可移、又不能再重新摆牌时，游戏结束。

选项：
• 红黑相间（百科原文的规则）：扇形上不按同花色，而按红黑相间、点数递减叠放：♦7放在♣8或♠8上。
• 抽牌：最后一次重新摆牌之后，如果无牌可移，允许一次从扇形中抽出一张被压住的牌\
（不是顶牌的任何一张），立即放到能接上的基础堆或扇形顶牌上。
• 随时重新摆牌：不必等到无牌可移，随时可以重新摆牌（和抽牌）。

计分：基础堆上的牌数（52张即成功）。"""

RULES_RU = """\
Цель: переложить все 52 карты в четыре базовые стопки, каждую по одной масти от туза до короля.

Раскладка: сначала четыре туза кладутся на базы. Остальные 48 карт тасуются и сдаются \
открытыми веерами по три карты: 16 вееров.

Ход игры:
• Перекладывать можно только верхнюю карту веера и только по одной карте.
• База собирается по возрастанию в своей масти: 2♦ на A♦, 3♦ на 2♦ и так до короля. Карты \
с баз не возвращаются.
• Верхнюю карту веера можно положить на верхнюю карту другого веера той же масти и на единицу \
старше: 7♣ на 8♣.
• Опустевший веер больше не заполняется, даже королём.

Пересдачи: когда ходов больше нет, можно сделать пересдачу: все карты, кроме лежащих на базах, \
собираются, тасуются и снова раскладываются веерами по три; одна или две оставшиеся карты \
образуют последний, меньший веер. Разрешены две пересдачи.

Конец: вы выиграли, когда все 52 карты на базах. Игра окончена, когда не осталось ни ходов, \
ни пересдач.

Варианты:
• Чередование цвета (правило энциклопедического источника): на веерах карты кладут не по \
масти, а с чередованием цвета, по убыванию: 7♦ на 8♣ или 8♠.
• Вытягивание: после последней пересдачи, когда ходов нет, можно один раз вытащить любую карту, \
лежащую под другими (не верхнюю в веере), и сразу положить её на базу или на верхнюю карту \
веера, куда она подходит.
• Пересдача в любой момент: пересдавать (и вытягивать карту) можно, не дожидаясь, пока \
кончатся ходы.

Очки: число карт на базах (52 — победа)."""


@register
class Trefoil(LaBelleLucie):
    info = GameInfo(
        id="trefoil",
        names={"en": "Trefoil", "zh": "花饰（Trefoil）", "ru": "Трилистник"},
        source="003_a9f4e6f80390d395.txt",
        source_game="Trefoil (variant of La Belle Lucie); 000_5c0014aada07c9b6.txt #24 variant 2",
        decks=1, kind="S-mixed", difficulty=4,
        description={
            "en": "La Belle Lucie with the aces out first: sixteen fans of three.",
            "zh": "先取出四张A的“三叶草”：十六个三张牌的扇形。",
            "ru": "«Прекрасная Люси», где тузы сразу идут на базы: 16 вееров по три.",
        },
        rules={"en": RULES_EN, "zh": RULES_ZH, "ru": RULES_RU},
    )
    options = (
        Option("alt_colour_build", False,
               help="build down on the fans in alternating colours (003) instead of in suit"),
        Option("draw", False, help="after the last redeal, once, play one buried card (000)"),
        Option("redeal_any_time", False, help="redeal (and draw) without waiting to be stuck"),
    )
    FANS = 16
    ACES_FIRST = True

    def prepare(self) -> None:
        if self.opts["alt_colour_build"]:
            self.fan_build = Build("alt", -1)
        super().prepare()
