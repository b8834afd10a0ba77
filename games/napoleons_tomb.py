"""Napoleon's Tomb («Гробница Наполеона», source 002): a labelled reconstruction.

The source breaks off after the layout and the goal, so the rules of play are the catalog's
reconstruction (GAMES.md §C4). It is not the Western one-deck "Napoleon's Tomb". Walls are
reserves whose cards stay hidden until they surface; each working pile is refilled from its
own wall by :meth:`settle`, inside the move that emptied it.
"""

from __future__ import annotations

from collections.abc import Iterator

from . import cards as C
from .model import GameInfo, Move, Option, PileSpec
from .patience import Build, PatienceGame, Rule, roles
from .registry import register
from .rng import Rng

WALL_CARDS = 11
FULL = 26  # two runs from king down to ace
WORKING_BUILDS = {"either": 0, "up": +1, "down": -1}

RULES_EN = """\
A RECONSTRUCTION. The book's text of this patience breaks off after the layout and the goal, \
so its rules of play are lost. From the book: the two decks, the four walls of eleven cards, \
the four working cards outside the walls, the kings of different suits among the first eight \
cards going to the corners, and the goal. Reconstructed for this kiosk (marked *): everything \
about how cards are played, refilled and dealt from the stock. It is neither the lost original \
nor the Western one-deck "Napoleon's Tomb".

Goal: put all 104 cards (two decks) on four corner foundations, one per suit. Each is built \
down in suit from the king to the ace; then the second king of that suit goes on the ace and a \
second run is built down to the ace (26 cards).

The deal: four packets of 11 cards are turned face up as the four walls of the tomb (numbered \
clockwise from the top); only the top card of a wall can be seen. The top card of each wall is \
moved outside the wall as its working card. Among these eight cards, each king whose suit has \
no corner yet goes to a corner (walls 1-4 first, then working cards 1-4). *The other 60 cards \
form the stock.

*Play:
• The free cards are the top card of each wall, the top card of each working pile and the top \
card of the waste. Any of them may go to its suit's foundation.
• A king whose suit has no corner yet may go to an empty corner. The second king of a suit \
goes only on that suit's ace.
• A wall card or the waste card may go on a working pile whose top card is of the same suit and \
one rank higher or lower (the direction may change). Nothing is built on the walls or the \
waste, and working pile cards only go to the foundations.
• When a working pile becomes empty, it is refilled at once from its own wall. An empty wall \
stays empty, and so does its working place once used.
• Tap the stock to turn one card onto the waste, at any time. When the stock is empty the \
waste may be turned over again twice (three passes in all).

You win when all 104 cards are on the foundations, and lose when the stock and the passes are \
used up and no free card can be played. Score: cards on the foundations.

Not yet tuned: a simple automatic player won none of 300 deals (about 30 of the 104 cards \
reached the foundations), so expect a very hard game.

*Options: the number of passes (1-3); the building on working piles (up or down, only up, only \
down, or nothing)."""

RULES_ZH = """\
这是重建的规则。原书这一篇在讲完摆法和目标后就中断了，出牌规则已经失传。来自原书的是：两副牌、\
四堵各11张的"墙"、墙外的四张工作牌、最初八张明牌中不同花色的K放到四角，以及目标。为本机重建的（标*）：\
牌怎样打出、怎样补充、牌库怎样翻。它既不是失传的原版，也不是西方同名的单副牌"拿破仑之墓"。

目标：把两副牌共104张放到四角的基础堆上，每种花色一堆。每堆同花色从K依次递减到A；然后把这种花色的\
第二张K放在A上，再递减叠到A（共26张）。

发牌：把四叠各11张的牌翻成正面朝上，作为墓的四堵墙（从上方起顺时针编号1-4）；每堵墙只看得见最上面\
一张。把每堵墙的顶牌移到墙外，作为这堵墙的工作牌。这八张明牌中，花色还没有角位的K放到一个角上\
（先看墙1-4，再看工作牌1-4）。*其余60张为牌库。

*玩法：
• 活动的牌是每堵墙的顶牌、每个工作堆的顶牌和废牌堆的顶牌。它们都可以放到同花色的基础堆上。
• 花色还没有角位的K可以放到空角上。同花色的第二张K只能放在这种花色的A上。
• 墙的顶牌或废牌堆的顶牌可以放到工作堆上，只要工作堆顶牌同花色、大一点或小一点（方向可以改变）。\
墙和废牌堆上不能叠牌，工作堆上的牌只能去基础堆。
• 工作堆一空，立即用它自己那堵墙的顶牌补上。空墙保持空着，它旁边的工作位用完后也保持空着。
• 点击牌库，翻一张到废牌堆，任何时候都可以。牌库翻完后，废牌堆可以再翻过来用两次（共三遍）。

104张牌全部上基础堆即获胜；牌库和重翻次数都用完、活动的牌都无处可放即失败。计分：基础堆上的牌数。

尚未调校：简单的自动玩法在300局中一局也没赢（平均约30张牌上了基础堆），这是一个非常难的接龙。

*选项：牌库的遍数（1-3）；工作堆的叠法（可升可降、只升、只降、不能叠）。"""

RULES_RU = """\
РЕКОНСТРУКЦИЯ. Текст этого пасьянса в книге обрывается после раскладки и цели, так что правила \
игры утрачены. Из книги: две колоды, четыре стены по одиннадцать карт, четыре рабочие карты \
снаружи стен, короли разных мастей среди первых восьми открытых карт уходят в углы, и цель. \
Восстановлено для этого киоска (отмечено *): всё о том, как карты играются, пополняются и \
сдаются из колоды. Это не утраченный оригинал и не западный одноколодный «Napoleon's Tomb».

Цель: выложить все 104 карты (две колоды) в четыре угловые базовые стопки, по одной на масть. \
Каждая строится по убыванию в масти от короля до туза; затем на туза кладётся второй король \
той же масти и строится вторая серия до туза (26 карт).

Раскладка: четыре пакета по 11 карт переворачиваются лицом вверх и становятся стенами \
гробницы (номера по часовой стрелке, начиная сверху); у стены видна только верхняя карта. \
Верхняя карта каждой стены выносится наружу — это рабочая карта стены. Каждый король среди этих \
восьми карт, масть которого ещё не имеет угла, уходит в угол (сначала стены 1–4, потом рабочие \
карты 1–4). *Остальные 60 карт — колода.

*Ход игры:
• Свободные карты: верхняя карта каждой стены, верхняя карта каждой рабочей стопки и верхняя \
карта отбоя. Любую из них можно положить в базовую стопку её масти.
• Короля, у масти которого ещё нет угла, можно положить в пустой угол. Второй король масти \
ложится только на туза этой масти.
• Карту стены или карту отбоя можно положить на рабочую стопку, если её верхняя карта той же \
масти и на очко старше или младше (направление может меняться). На стены и на отбой ничего не \
кладут, а карты рабочих стопок идут только в базовые.
• Опустевшая рабочая стопка тут же пополняется из своей стены. Пустая стена остаётся пустой, \
и её рабочее место, когда опустеет, тоже.
• Нажмите на колоду, чтобы открыть одну карту в отбой, в любой момент. Когда колода кончится, \
отбой можно перевернуть ещё дважды (всего три прохода).

Пасьянс сошёлся, когда все 104 карты в базовых; он не вышел, если колода и проходы исчерпаны и \
ни одну свободную карту положить нельзя. Очки: карты в базовых.

Ещё не настроено: простой автоматический игрок не выиграл ни одной из 300 партий (в \
базовые попадало около 30 из 104 карт), так что пасьянс очень трудный.

*Варианты: число проходов колоды (1–3); построение на рабочих стопках (вверх или вниз, только \
вверх, только вниз или никак)."""


@register
class NapoleonsTomb(PatienceGame):
    info = GameInfo(
        id="napoleons_tomb",
        names={"en": "Napoleon's Tomb (Russian, reconstructed)",
               "zh": "拿破仑之墓（俄式·重建）",
               "ru": "Гробница Наполеона (реконструкция)"},
        source="002_641e09ccd4cb0ebe.txt",
        source_game="Гробница Наполеона, truncated (GAMES.md §C4)",
        decks=2, kind="S-mixed", difficulty=5,
        description={
            "en": "Reconstructed two-deck tomb: kings in the corners, build down twice to ace.",
            "zh": "重建的双副牌玩法：K守四角，同花色两次从K叠到A。",
            "ru": "Реконструкция: короли в углах гробницы, дважды вниз до туза по мастям.",
        },
        rules={"en": RULES_EN, "zh": RULES_ZH, "ru": RULES_RU},
    )
    options = (
        Option("passes", 3, (1, 2, 3), "passes through the stock [reconstructed]"),
        Option("working_build", "either", ("either", "up", "down", "none"),
               "same-suit building on the working piles [reconstructed]"),
    )
    standard_foundations = False
    #: a foundation (one suit, king down to ace, twice) is known by its top card and size
    SOLVER_VIEW = {"foundation": "top"}

    def symmetric_groups(self) -> tuple[tuple[int, ...], ...]:
        return (tuple(self.foundations),)

    def prepare(self) -> None:
        self.redeals = self.opts["passes"] - 1
        super().prepare()
        self.walls = self.roles["reserve"]

    def rule_for(self, index: int, spec: PileSpec) -> Rule:
        role = spec.role
        if role == "foundation":
            return Rule(Build("same", -1, wrap=True), empty="king", take="none",
                        max_cards=FULL, name="foundation")
        if role == "tableau":
            step = WORKING_BUILDS.get(self.opts["working_build"])
            return Rule(None if step is None else Build("same", step), empty="none",
                        take="top", sources=roles("reserve", "waste"), name="working pile")
        if role == "reserve":
            return Rule(take="top", empty="none", name="wall")
        if role == "waste":
            return Rule(take="top", empty="none", name="waste")
        return Rule(take="none", empty="none", name="stock")

    def build_layout(self) -> Iterator[PileSpec]:
        # a compact tomb: walls on four sides, kings' corners on the diagonals, each working
        # pile outside its wall (tall enough for 6.2 card widths)
        x = 0.5
        yield PileSpec("S", "stock", 7.6, 0)
        yield PileSpec("W", "waste", 8.8, 0)
        for i, (fx, fy) in enumerate(((1.2, 0.8), (3.6, 0.8), (3.6, 4.0), (1.2, 4.0))):
            yield PileSpec(f"F{i + 1}", "foundation", x + fx, fy, label="K")
        for i, (tx, ty) in enumerate(((2.4, 0), (4.8, 2.4), (2.4, 4.8), (0, 2.4))):
            yield PileSpec(f"T{i + 1}", "tableau", x + tx, ty)
        for i, (rx, ry) in enumerate(((2.4, 1.6), (3.6, 2.4), (2.4, 3.2), (1.2, 2.4))):
            yield PileSpec(f"R{i + 1}", "reserve", x + rx, ry)

    def deal(self, rng: Rng) -> None:
        deck = C.deck(2)
        rng.shuffle(deck)
        for wall, work in zip(self.walls, self.tableau, strict=True):
            packet = [deck.pop() for _ in range(WALL_CARDS)]
            for c in packet[:-2]:
                self.put(wall, c, up=False)
            self.put(wall, packet[-2])
            self.put(work, packet[-1])
        # the eight visible cards, walls first: kings of suits without a corner go up
        for pile in (*self.walls, *self.tableau):
            c = self.cards[pile][-1]
            if C.RANK[c] == C.KING and self._corner_free(c):
                corner = next(f for f in self.foundations if not self.cards[f])
                self.put(corner, self.cards[pile].pop())
                self._expose(pile)
        self.init_stock(deck[::-1])

    def _expose(self, pile: int) -> None:
        """After the deal's kings leave: a working place takes its wall's top card."""
        if self._role[pile] == "tableau":
            wall = self.walls[self.tableau.index(pile)]
            if self.cards[wall]:
                self.cards[pile].append(self.cards[wall].pop())
                pile = wall
        if self.cards[pile] and self.down[pile] == len(self.cards[pile]):
            self.down[pile] -= 1

    def _corner_free(self, king: int) -> bool:
        suit = C.SUIT[king]
        return all(not self.cards[f] or C.SUIT[self.cards[f][0]] != suit
                   for f in self.foundations)

    def empty_accepts(self, d: int, c: int) -> bool:
        if self._role[d] == "foundation":
            return C.RANK[c] == C.KING and self._corner_free(c)
        return False

    def settle(self) -> None:
        cards = self.cards
        for work, wall in zip(self.tableau, self.walls, strict=True):
            if not cards[work] and cards[wall]:
                self._move_cards(wall, work, 1)
        super().settle()

    def safe_autoplay(self) -> Move | None:
        """A king to an empty corner: nothing is lost, every card of its suit can follow it."""
        for s in (self.waste, *self.tableau, *self.walls):
            pile = self.cards[s]
            if pile and self.down[s] < len(pile) and C.RANK[pile[-1]] == C.KING:
                for f in self.foundations:
                    if not self.cards[f] and self.accepts(f, s, 1):
                        return Move("move", s, f, 1)
        return None

    def explain_card_move(self, s: int, d: int, n: int) -> str:
        reason = super().explain_card_move(s, d, n)
        if self._role[d] != "foundation" or not reason.startswith(("Only a king", "The ")):
            return reason
        c, dst = self.cards[s][-1], self.cards[d]
        if not dst:
            if C.RANK[c] != C.KING:
                return "Only a king can start a foundation in an empty corner."
            return (f"The {C.SUIT_NAMES[C.SUIT[c]]} already have a corner; the second king goes "
                    "on their ace.")
        top = dst[-1]
        need = C.KING if C.RANK[top] == C.ACE else C.RANK[top] - 1
        return (f"That foundation needs the {C.rank_word(need)} of "
                f"{C.SUIT_NAMES[C.SUIT[top]]} next.")
