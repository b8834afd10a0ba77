"""Shamrocks (003 variant): La Belle Lucie with kings sent under, any-suit up or down, fans of 3.

Kings are moved to the bottom of their fans before play because a king can never be moved
onto another fan; left on top it would block its fan until its foundation reached it. The
source states the rule twice, broadly (every king to the bottom) and narrowly (a king lying
on a lower card of its own suit goes under that card, Morehead's reading); the broad one is
the default. The variant text is silent on redeals; the standard game has none.
"""

from __future__ import annotations

from .cards import RANK, SUIT
from .la_belle_lucie import LaBelleLucie
from .model import GameInfo, Option
from .patience import Build
from .registry import register

RULES_EN = """\
Goal: move all 52 cards to the four foundations, each built up in one suit from ace to king.

The deal: all 52 cards are dealt face up in fans of three cards: 17 fans of three and one fan \
of a single card (18 fans). The four foundations start empty. Before play, in every fan each \
king that lies on top or in the middle is moved to the bottom of its fan; the other cards keep \
their order (two kings in a fan keep theirs). Every card is in sight, so the game is one of \
pure skill.

Play:
• Only the top card of a fan can be moved, and only one card at a time.
• An ace goes to an empty foundation; each foundation is then built up in its suit: 2♦ on A♦, \
3♦ on 2♦ and so on up to the king. Cards on the foundations stay there.
• The top card of a fan may go onto the top card of another fan that is one rank higher or one \
rank lower, whatever the suits: 6♠ on 7♣ or on 5♦.
• A fan holds at most three cards: nothing may be put on a fan that already has three.
• A fan that becomes empty is never filled again.
• There is no redeal.

End: you win when all 52 cards are on the foundations. The game is over when no move is left.

Option: kings rule. "All" (default): every king goes to the bottom of its fan, as above. \
"Morehead": only a king lying on a lower card of its own suit is moved, to just under the \
lowest such card; other kings stay where they are.

Score: the number of cards on the foundations (52 means won)."""

RULES_ZH = """\
目标：把52张牌全部移到4个基础堆上，每堆同花色从A依次叠到K。

发牌：52张牌全部正面朝上，每3张叠成一个扇形，共17个扇形，剩下的1张单独成为第18个扇形。\
4个基础堆开始时是空的。开始之前，每个扇形里位于顶上或中间的K都移到该扇形的最底下，\
其他牌保持原来的顺序（同一扇形里的两张K也保持原顺序）。所有牌都看得见，胜负完全取决于技巧。

玩法：
• 只有每个扇形最上面露出的一张牌可以移动，每次只能移动一张。
• A可以放到空的基础堆上，之后按同花色递升叠放：♦2放在♦A上，♦3放在♦2上……直到K。\
已经放上基础堆的牌不能再移回。
• 扇形的顶牌可以放到另一个扇形的顶牌上，只要点数大一或小一，不论花色：♠6可以放在♣7或♦5上。
• 每个扇形最多只能有3张牌：已有3张牌的扇形上不能再放牌。
• 扇形移空后不再补牌。
• 不能重新洗牌摆牌。

结束：52张牌全部放上基础堆即为成功。无牌可移时，游戏结束。

选项：国王规则。“全部”（默认）：如上所述，每张K都移到扇形最底下。“莫尔黑德”：只有压在\
同花色较小牌上面的K才移动，移到最下面那张这样的牌的下面；其他K留在原处。

计分：基础堆上的牌数（52张即成功）。"""

RULES_RU = """\
Цель: переложить все 52 карты в четыре базовые стопки, каждую по одной масти от туза до короля.

Раскладка: все карты сдаются открытыми веерами по три карты: 17 вееров по три, а последняя \
карта образует 18-й веер из одной карты. Базовые стопки вначале пусты. Перед игрой в каждом \
веере все короли, лежащие сверху или посередине, перекладываются в самый низ веера; остальные \
карты сохраняют свой порядок (два короля в одном веере — тоже). Все карты видны, так что исход \
зависит только от мастерства.

Ход игры:
• Перекладывать можно только верхнюю карту веера и только по одной карте.
• Туз кладётся на пустую базу, дальше база собирается по возрастанию в той же масти: 2♦ на A♦, \
3♦ на 2♦ и так до короля. Карты с баз не возвращаются.
• Верхнюю карту веера можно положить на верхнюю карту другого веера, старшую или младшую на \
единицу, независимо от масти: 6♠ на 7♣ или на 5♦.
• В веере может быть не больше трёх карт: на веер из трёх карт класть нельзя.
• Опустевший веер больше не заполняется.
• Пересдач нет.

Конец: вы выиграли, когда все 52 карты на базах. Игра окончена, когда ходов не осталось.

Вариант: правило королей. «Все» (по умолчанию): каждый король уходит в низ своего веера, как \
сказано выше. «Морхед»: перекладывается только король, лежащий на младшей карте своей масти, — \
под самую нижнюю такую карту; остальные короли остаются на месте.

Очки: число карт на базах (52 — победа)."""


@register
class Shamrocks(LaBelleLucie):
    info = GameInfo(
        id="shamrocks",
        names={"en": "Shamrocks", "zh": "酢浆草", "ru": "Ирландский клевер"},
        source="003_a9f4e6f80390d395.txt", source_game="Shamrocks (variant of La Belle Lucie)",
        decks=1, kind="S-open", difficulty=3,
        description={
            "en": "Fans of at most three: build up or down in any suit, kings sent under.",
            "zh": "每扇最多三张，不论花色上下接续，K先压到底。",
            "ru": "Веера не больше трёх карт: вверх или вниз в любой масти, короли внизу.",
        },
        rules={"en": RULES_EN, "zh": RULES_ZH, "ru": RULES_RU},
    )
    options = (
        Option("kings_rule", "all", ("all", "morehead"),
               help="all: every king to the bottom of its fan; morehead: only a king on a lower "
                    "card of its own suit goes under it"),
    )
    fan_build = Build("any", 0)
    fan_limit = 3
    redeals = 0
    #: the search tries first the moves that bring the next foundation cards nearer
    SOLVER_GUIDED = True

    def deal(self, rng) -> None:
        super().deal(rng)
        send_under = self.all_kings_under if self.opts["kings_rule"] == "all" else \
            self.kings_under_own_suit
        for t in self.tableau:
            self.cards[t] = send_under(self.cards[t])

    @staticmethod
    def all_kings_under(fan: list[int]) -> list[int]:
        return [c for c in fan if RANK[c] == 13] + [c for c in fan if RANK[c] != 13]

    @staticmethod
    def kings_under_own_suit(fan: list[int]) -> list[int]:
        fan = list(fan)
        for king in [c for c in fan if RANK[c] == 13]:
            i = fan.index(king)
            lower = next((j for j in range(i) if SUIT[fan[j]] == SUIT[king]), None)
            if lower is not None:
                fan.insert(lower, fan.pop(i))
        return fan
