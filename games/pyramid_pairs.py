"""Pyramid Pairs (000 #14): Pyramid's layout and passes, but cards leave in pairs of one rank."""

from __future__ import annotations

from .model import GameInfo
from .pyramid import Pyramid
from .reason import Reason
from .registry import register

RULES_EN = """\
Goal: remove all 28 cards of the pyramid in pairs of equal rank, within three passes through \
the stock.

The deal: 28 cards form a pyramid of seven rows, from one card at the apex to seven at the \
base; each card is covered by the two cards just below it. Only the base row is face up; a \
card turns face up by itself once both cards covering it are gone. The other 24 cards are \
the face-down stock.

Available cards: uncovered pyramid cards, the current card (the stock card turned last) and \
the top card of the waste pile.

Play:
• Remove two available cards of the same rank: two 3s, two jacks, two kings … There is no \
single-card removal: kings go in pairs too. The current card may pair with the waste card \
under it.
• Tap the stock to turn its next card: the old current card goes onto the waste and the new \
card becomes the current card.
• When the stock is empty, turn the waste over (not shuffled) to start the next pass. Three \
passes in all.
• Apex rescue: once, after the last pass is used up and the pyramid is not cleared, you may \
take the apex card, turn it up and use it as the current card even though it is covered.

End: clearing the pyramid before the stock runs out the first time makes you the best \
winner; clearing it within three passes still wins.

Options (as in Pyramid):
• All face up: the whole pyramid is dealt face up.
• Pair pile: removed cards are laid face up on a pair pile whose top card can still pair \
with an uncovered pyramid card or the current card.
• Scored match: no apex rescue; after clearing the pyramid you may go on removing stock and \
waste pairs before the game ends. A match is six games.
• Apex rescue can be switched off.

Score (match points, higher is better): pyramid cleared in pass 1: 50 minus the cards left \
in the stock and waste; in pass 2: 35 minus them; in pass 3: 20 minus them; not cleared: \
minus all cards left in the pyramid, stock and waste."""

RULES_ZH = """\
目标：在手牌翻3遍以内，把金字塔上的28张牌全部配成点数相同的对拿完。

摆牌：与“金字塔——配十三”完全相同：28张牌摆成7排的金字塔，第1排1张，第7排7张，每张牌被\
下一排相邻的两张压着。只有第7排正面朝上；压着一张牌的两张都拿掉后，这张牌自动翻开。\
其余24张面朝下作为手牌。

可用的牌：塔上不被压着的牌、刚翻开的手牌（当前牌）以及弃牌堆顶牌。

玩法：
• 两张可用的点数相同的牌可以配对拿掉：两张3、两张J、两张K……没有单张拿掉的规则，K也要成对。\
当前牌也可以和它压着的弃牌顶牌配对。
• 点击手牌翻下一张：原来的当前牌放到弃牌堆上，新翻的牌成为当前牌。
• 手牌翻完后，把弃牌堆翻过来（不洗）作为新的手牌，开始下一遍。共可翻3遍。
• 塔顶一招：3遍都翻完、金字塔还没拿完时，可以有一次把塔顶第1排的那张牌翻开，当作当前牌\
参加配对，即使它还被压着。

结束：手牌第一遍翻完之前拿完金字塔，是最佳优胜者；3遍以内拿完，也是优胜者。

选项（与“配十三”相同）：
• 全部明牌：金字塔的牌全部正面朝上。
• 配牌堆：拿掉的牌正面朝上放成配牌堆，它的顶牌仍可与塔上露出的牌或当前牌配对。
• 记分比赛：不能用塔顶一招；金字塔拿完后还可以继续拿手牌和弃牌中的对子，然后结束。6盘为一局。
• 可以关闭塔顶一招。

计分（比赛分，越高越好）：第1遍拿完金字塔：50减去手牌和弃牌的剩余张数；第2遍：35减去剩余\
张数；第3遍：20减去剩余张数；没有拿完：0减去塔上、手牌和弃牌的全部剩余张数。"""

RULES_RU = """\
Цель: убрать все 28 карт пирамиды парами одного достоинства, пройдя колоду не больше трёх раз.

Раскладка: как в «Пирамиде»: 28 карт образуют пирамиду из семи рядов — от одной карты на \
вершине до семи в основании; каждую карту накрывают две соседние карты ряда ниже. Открыт \
только нижний ряд; карта сама открывается, когда обе накрывающие её карты убраны. Остальные \
24 карты — закрытая колода.

Доступные карты: открытые (ничем не накрытые) карты пирамиды, текущая карта (последняя \
открытая карта колоды) и верхняя карта отбоя.

Ход игры:
• Две доступные карты одного достоинства убираются: две тройки, два валета, два короля … \
Поодиночке карты не убираются, короли тоже идут парами. Текущая карта может составить пару \
с картой отбоя под ней.
• Нажмите на колоду, чтобы открыть следующую карту: прежняя текущая карта уходит в отбой, \
новая становится текущей.
• Когда колода кончилась, переверните отбой (без тасовки) и начните следующий проход. Всего \
три прохода.
• Спасение вершиной: один раз, после последнего прохода, если пирамида не разобрана, можно \
взять карту с вершины, открыть её и играть ею как текущей картой, хотя она накрыта.

Конец: разобрать пирамиду до конца первого прохода колоды — лучший результат; разобрать её \
за три прохода — тоже выигрыш.

Варианты (как в «Пирамиде»):
• Всё открыто: вся пирамида раскладывается лицом вверх.
• Стопка пар: убранные карты кладутся открыто в стопку пар; её верхняя карта может ещё \
составить пару с открытой картой пирамиды или текущей картой.
• Игра на очки: без спасения вершиной; разобрав пирамиду, можно дальше убирать пары из колоды \
и отбоя. Матч — шесть партий.
• Спасение вершиной можно отключить.

Очки (очки матча, чем больше, тем лучше): пирамида разобрана в 1-м проходе — 50 минус карты, \
оставшиеся в колоде и отбое; во 2-м — 35 минус они; в 3-м — 20 минус они; не разобрана — \
минус все карты, оставшиеся в пирамиде, колоде и отбое."""


@register
class PyramidPairs(Pyramid):
    info = GameInfo(
        id="pyramid_pairs",
        names={"en": "Pyramid Pairs", "zh": "金字塔——配对", "ru": "Пирамида: пары"},
        source="000_5c0014aada07c9b6.txt", source_game="14",
        decks=1, kind="S-mixed", difficulty=2,
        description={"en": "Take the pyramid apart in pairs of the same rank.",
                     "zh": "把点数相同的两张牌配对拿掉，拆完金字塔。",
                     "ru": "Разберите пирамиду парами карт одного достоинства."},
        rules={"en": RULES_EN, "zh": RULES_ZH, "ru": RULES_RU},
        score_label="match points", score_better="higher",
    )

    PARTNER = tuple(range(14))
    SINGLE_KINGS = False
    NEED = Reason("The two cards must have the same rank.")

    def tap_hint(self) -> Reason:
        return Reason("Cards are not moved here: pick two cards of the same rank.")
