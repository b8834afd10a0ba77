"""Citadel (000 #23, [例2]): Beleaguered Castle where the deal itself feeds the foundations."""

from __future__ import annotations

from .beleaguered_castle import CASTLE_PLAY_EN, CASTLE_PLAY_RU, CASTLE_PLAY_ZH, CastleGame
from .cards import ACE, RANK
from .model import GameInfo
from .registry import register
from .rng import Rng

RULES_EN = """\
Goal: build four foundations up in suit from ace to king.

The deal: four empty foundation places stand in a column in the middle. Each has a wing on its \
left and one on its right: eight wings. The cards are dealt face up in rounds, one to each left \
wing from top to bottom, then one to each right wing. Whenever a dealt card can go to a \
foundation (an ace, or the next card of a suit already started) it goes there at once, and the \
wing that would have received it gets nothing this round. Rounds go on until the whole deck is \
dealt, so the wings end up with different lengths. Nothing is moved until the deal is over.

""" + CASTLE_PLAY_EN

RULES_ZH = """\
目标：在4个基牌位上，按同花色从A到K递升叠成4套。

摆牌：中间竖着留出4个基牌空位，每个空位左右各有一翼，共8翼。牌面朝上一轮一轮地发：先给左侧各翼由上到下\
各发一张，再给右侧各翼各发一张。发牌时遇到能放到基牌上的牌（A，或已有基牌的同花色下一张），立即放到基牌\
上，本该得到这张牌的那一翼这一轮就不再发牌。一直发到整副牌发完，所以各翼的张数会不一样。发完以前不能移动\
任何牌。

""" + CASTLE_PLAY_ZH

RULES_RU = """\
Цель: собрать на четырёх базах масти по возрастанию от туза до короля.

Раскладка: посередине столбиком четыре пустых места для баз. У каждого есть крыло слева и \
крыло справа, всего восемь крыльев. Карты раздают открытыми кругами: по одной в каждое левое \
крыло сверху вниз, затем в каждое правое. Если сдаваемую карту можно положить на базу (туз \
или следующая карта уже начатой масти), её сразу кладут туда, а крыло, которому она \
предназначалась, в этом круге ничего не получает. Круги продолжают, пока не кончится колода, \
поэтому крылья получаются разной длины. До конца раздачи ничего не перекладывают.

""" + CASTLE_PLAY_RU


@register
class Citadel(CastleGame):
    info = GameInfo(
        id="citadel",
        names={"en": "Citadel", "zh": "筑垒", "ru": "Цитадель"},
        source="000_5c0014aada07c9b6.txt", source_game="23 [例2]",
        decks=1, kind="S-open", difficulty=2,
        description={
            "en": "Beleaguered Castle whose foundations start growing while the cards are dealt.",
            "zh": "发牌时就把能上基牌的牌放上去的围城。",
            "ru": "Осаждённая крепость, где базы растут уже во время раздачи.",
        },
        rules={"en": RULES_EN, "zh": RULES_ZH, "ru": RULES_RU},
    )

    def deal(self, rng: Rng) -> None:
        deck = list(range(52))
        rng.shuffle(deck)
        order = self.round_order()
        while deck:
            for wing in order:
                if not deck:
                    break
                c = deck.pop()
                f = self._foundation_for(c)
                self.put(wing if f < 0 else f, c)

    def _foundation_for(self, c: int) -> int:
        """The foundation a card being dealt goes to at once, or -1."""
        for f in self.foundations:
            pile = self.cards[f]
            if (not pile and RANK[c] == ACE) or (pile and pile[-1] == c - 1 and RANK[c] > ACE):
                return f
        return -1
