"""Three Shuffles and a Draw (003 variant; the base game of 000 #24).

The three shuffles are the deal and the two redeals; the draw (the *merci*) lets the player
pull out one buried card once, after the last redeal, when nothing else can move. Only a card
with somewhere to go can be drawn: drawing one that could not be played would change nothing.
"""

from __future__ import annotations

from .la_belle_lucie import LaBelleLucie
from .model import GameInfo, Option
from .registry import register

RULES_EN = """\
Goal: move all 52 cards to the four foundations, each built up in one suit from ace to king.

The deal: all 52 cards are dealt face up in fans of three cards: 17 fans of three and one fan \
of a single card (18 fans). The four foundations start empty.

Play:
• Only the top card of a fan can be moved, and only one card at a time.
• An ace goes to an empty foundation; each foundation is then built up in its suit: 2♦ on A♦, \
3♦ on 2♦ and so on up to the king. Cards on the foundations stay there.
• The top card of a fan may go onto the top card of another fan of the same suit and one rank \
higher: 7♣ on 8♣.
• A fan that becomes empty is never filled again, not even with a king.

Redeals: when no card can move, you may redeal: every card that is not on a foundation is \
gathered, shuffled and dealt again in fans of three; one or two cards left over make a last, \
smaller fan. Two redeals are allowed: with the deal, that makes the three shuffles.

The draw: after the second redeal, when no card can move, you may once pull out one buried \
card (any card that is not on top of its fan) and play it at once onto a foundation or onto a \
fan top where it fits. Only a card that can be played somewhere can be drawn.

End: you win when all 52 cards are on the foundations. The game is over when no move, no \
redeal and no draw is left.

Option: redeal any time: redeal (and draw) without waiting until no move is left.

Score: the number of cards on the foundations (52 means won)."""

RULES_ZH = """\
目标：把52张牌全部移到4个基础堆上，每堆同花色从A依次叠到K。

发牌：52张牌全部正面朝上，每3张叠成一个扇形，共17个扇形，剩下的1张单独成为第18个扇形。\
4个基础堆开始时是空的。

玩法：
• 只有每个扇形最上面露出的一张牌可以移动，每次只能移动一张。
• A可以放到空的基础堆上，之后按同花色递升叠放：♦2放在♦A上，♦3放在♦2上……直到K。\
已经放上基础堆的牌不能再移回。
• 扇形的顶牌可以放到另一个扇形的顶牌上，要求同花色且点数小一：♣7放在♣8上。
• 扇形移空后不再补牌，即使是K也不能放进去。

重新摆牌：无牌可移时，可以重新摆牌：把基础堆以外的牌全部收拢、洗匀，再每3张摆成一个扇形，\
余下1张或2张单独成为最后一个扇形。共可重新摆牌两次，连同开局的洗牌正好“三洗”。

抽牌：第二次重新摆牌之后，如果无牌可移，允许一次从扇形中抽出一张被压住的牌\
（不是顶牌的任何一张），立即放到能接上的基础堆或扇形顶牌上。只能抽出有地方可放的牌。

结束：52张牌全部放上基础堆即为成功。既无牌可移、又不能再重新摆牌或抽牌时，游戏结束。

选项：随时重新摆牌：不必等到无牌可移，随时可以重新摆牌（和抽牌）。

计分：基础堆上的牌数（52张即成功）。"""

RULES_RU = """\
Цель: переложить все 52 карты в четыре базовые стопки, каждую по одной масти от туза до короля.

Раскладка: все карты сдаются открытыми веерами по три карты: 17 вееров по три, а последняя \
карта образует 18-й веер из одной карты. Базовые стопки вначале пусты.

Ход игры:
• Перекладывать можно только верхнюю карту веера и только по одной карте.
• Туз кладётся на пустую базу, дальше база собирается по возрастанию в той же масти: 2♦ на A♦, \
3♦ на 2♦ и так до короля. Карты с баз не возвращаются.
• Верхнюю карту веера можно положить на верхнюю карту другого веера той же масти и на единицу \
старше: 7♣ на 8♣.
• Опустевший веер больше не заполняется, даже королём.

Пересдачи: когда ходов больше нет, можно сделать пересдачу: все карты, кроме лежащих на базах, \
собираются, тасуются и снова раскладываются веерами по три; одна или две оставшиеся карты \
образуют последний, меньший веер. Разрешены две пересдачи — вместе с начальной сдачей это и \
есть три тасовки.

Вытягивание: после второй пересдачи, когда ходов нет, можно один раз вытащить любую карту, \
лежащую под другими (не верхнюю в веере), и сразу положить её на базу или на верхнюю карту \
веера, куда она подходит. Вытянуть можно только карту, которую есть куда положить.

Конец: вы выиграли, когда все 52 карты на базах. Игра окончена, когда не осталось ни ходов, \
ни пересдач, ни вытягивания.

Вариант: пересдача в любой момент — пересдавать (и вытягивать карту) можно, не дожидаясь, \
пока кончатся ходы.

Очки: число карт на базах (52 — победа)."""


@register
class ThreeShufflesAndADraw(LaBelleLucie):
    info = GameInfo(
        id="three_shuffles_and_a_draw",
        names={"en": "Three Shuffles and a Draw", "zh": "三洗一抽",
               "ru": "Три тасовки и одна карта"},
        source="003_a9f4e6f80390d395.txt",
        source_game="Three Shuffles and a Draw (variant); = 000_5c0014aada07c9b6.txt #24 base",
        decks=1, kind="S-mixed", difficulty=3,
        description={
            "en": "La Belle Lucie with two redeals and one last buried card to draw.",
            "zh": "“三叶草”：两次洗牌重摆，最后还能抽一张被压住的牌。",
            "ru": "«Прекрасная Люси»: две пересдачи и одна вытянутая карта в конце.",
        },
        rules={"en": RULES_EN, "zh": RULES_ZH, "ru": RULES_RU},
    )
    options = (
        Option("redeal_any_time", False, help="redeal (and draw) without waiting to be stuck"),
    )
    merci = True
