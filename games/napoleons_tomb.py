"""Napoleon's Tomb («Гробница Наполеона», source 002): a labelled reconstruction.

The source breaks off after the layout and the goal, so the rules of play are the catalog's
reconstruction (GAMES.md §C4). It is not the Western one-deck "Napoleon's Tomb". Walls are
reserves whose cards stay hidden until they surface; each working pile is refilled from its
own wall by :meth:`settle`, inside the move that emptied it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from . import cards as C
from .engine import TWIN
from .model import GameInfo, Move, Option, PileSpec
from .patience import DEAL, REDEAL, Build, PatienceGame, Rule, roles
from .reason import Card, Reason, Suit
from .registry import register
from .rng import Rng

WALL_CARDS = 11
FULL = 26  # two runs from king down to ace


def _ranks_on(build: Build, top: int) -> tuple[int, ...]:
    """Ranks that may be built on ``top`` (any suit: the build checks the suit)."""
    if isinstance(build, AnyCard):
        return tuple(range(1, 14))
    r = C.RANK[top]
    out = []
    for d in (-1, 1):
        x = r + d
        if build.wrap:
            x = (x - 1) % 13 + 1
        if 1 <= x <= 13:
            out.append(x)
    return tuple(out)


@dataclass(frozen=True, slots=True)
class AnyCard(Build):
    """Any card goes on any card (the working piles as open parking places)."""

    suit: str = "any"

    def fits(self, c: int, onto: int) -> bool:
        return True

    def onto_ranks(self, c: int) -> list[int]:
        return list(range(1, 14))

    def need(self, c: int) -> str:
        return "any card"


#: the building rule on working piles, per option value (none: nothing is built there)
WORKING_BUILDS = {"either": Build("same", 0), "up": Build("same", +1),
                  "down": Build("same", -1), "any": AnyCard()}

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
• *A wall card or the waste card may go on any working pile, whatever its top card: the \
working piles are parking places. Nothing is built on the walls or the waste, and working \
pile cards only go to the foundations, so park a card over one that is needed later.
• When a working pile becomes empty, it is refilled at once from its own wall. An empty wall \
stays empty, and so does its working place once used.
• *Tap the stock to turn one card onto the waste, at any time. When the stock is empty the \
waste may be turned over again, as often as you like.

You win when all 104 cards are on the foundations, and lose when no free card and no card of \
the stock or the waste can be played anywhere. Score: cards on the foundations.

*Tuning: with three passes and building in suit one rank up or down (the first reading) no \
deal was won, by a simple automatic player (0 of 300) or by the computer solver, which sees \
every card (0 of 100). With unlimited passes and any card on a working pile, the solver wins \
about 40% of deals (26 of 60 deals at 3 seconds each; the others stayed undecided).

*Options: the number of passes (unlimited, or 1-3); the building on working piles (any card, \
or in suit: up or down, only up, only down, or nothing)."""

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
• *墙的顶牌或废牌堆的顶牌可以放到任何一个工作堆上，不管它的顶牌是什么：工作堆是暂存的地方。\
墙和废牌堆上不能叠牌，工作堆上的牌只能去基础堆，所以要把牌压在较晚才用得上的牌上面。
• 工作堆一空，立即用它自己那堵墙的顶牌补上。空墙保持空着，它旁边的工作位用完后也保持空着。
• *点击牌库，翻一张到废牌堆，任何时候都可以。牌库翻完后，废牌堆可以翻过来再用，次数不限。

104张牌全部上基础堆即获胜；活动的牌和牌库、废牌堆里的牌都无处可放即失败。计分：基础堆上的牌数。

*调校：最初的读法（牌库三遍、工作堆同花色大一点或小一点）一局也没赢过：简单的自动玩法300局全输，\
能看见所有牌的电脑求解程序100局也没赢。改为牌库遍数不限、任何牌都可以放到工作堆上之后，\
求解程序大约能赢40%的牌局（60局中赢26局，每局3秒；其余未能判定）。

*选项：牌库的遍数（不限或1-3）；工作堆的叠法（任何牌，或同花色：可升可降、只升、只降、不能叠）。"""

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
• *Карту стены или карту отбоя можно положить на любую рабочую стопку, какая бы карта ни \
лежала сверху: рабочие стопки — это места для стоянки. На стены и на отбой ничего не кладут, \
а карты рабочих стопок идут только в базовые, поэтому кладите карту на ту, что понадобится \
позже.
• Опустевшая рабочая стопка тут же пополняется из своей стены. Пустая стена остаётся пустой, \
и её рабочее место, когда опустеет, тоже.
• *Нажмите на колоду, чтобы открыть одну карту в отбой, в любой момент. Когда колода кончится, \
отбой можно перевернуть снова, сколько угодно раз.

Пасьянс сошёлся, когда все 104 карты в базовых; он не вышел, если ни свободную карту, ни карту \
из колоды или отбоя положить некуда. Очки: карты в базовых.

*Настройка: при трёх проходах и построении в масти на очко вверх или вниз (первое прочтение) \
не выиграна ни одна партия — ни простым автоматическим игроком (0 из 300), ни компьютерным \
решателем, видящим все карты (0 из 100). С неограниченными проходами и любой картой на \
рабочей стопке решатель выигрывает около 40% партий (26 из 60 по 3 секунды; остальные \
не решены).

*Варианты: число проходов колоды (без ограничения или 1–3); построение на рабочих стопках \
(любая карта или в масти: вверх или вниз, только вверх, только вниз, никак)."""


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
        Option("passes", 0, (0, 1, 2, 3),
               "passes through the stock, 0: unlimited [reconstructed]"),
        Option("working_build", "any", ("any", "either", "up", "down", "none"),
               "building on the working piles: any card, or in suit one rank up and/or "
               "down [reconstructed]"),
    )
    standard_foundations = False
    #: a foundation (one suit, king down to ace, twice) is known by its top card and size
    SOLVER_VIEW = {"foundation": "top"}

    def symmetric_groups(self) -> tuple[tuple[int, ...], ...]:
        return (tuple(self.foundations),)

    def prepare(self) -> None:
        self.redeals = self.opts["passes"] - 1 if self.opts["passes"] else -1
        super().prepare()
        self.walls = self.roles["reserve"]
        self._wall_set = frozenset(self.walls)
        #: the piles whose top card is free (the waste apart), in pile order
        self._free = tuple(sorted((*self.tableau, *self.walls)))

    def rule_for(self, index: int, spec: PileSpec) -> Rule:
        role = spec.role
        if role == "foundation":
            return Rule(Build("same", -1, wrap=True), empty="king", take="none",
                        max_cards=FULL, name="foundation")
        if role == "tableau":
            return Rule(WORKING_BUILDS.get(self.opts["working_build"]), empty="none",
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

    @property
    def lost(self) -> bool:
        """With unlimited passes the stock can always be turned, so the game is lost when
        no free card and no card of the talon can be played anywhere."""
        if not self._cycle() or self.won:
            return False
        cards = self.cards
        if self._parking() and any(cards[t] for t in self.tableau) and (
                cards[self.waste] or any(cards[r] for r in self.walls)):
            return False  # a wall or waste card can be parked (the usual case: decided fast)
        if any(m.kind == "move" for m in self.legal_moves()):
            return False
        wanted = self._wanted()
        return not any(c % 52 in wanted for c in (*self.cards[self.stock],
                                                  *self.cards[self.waste]))

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

    def explain_card_move(self, s: int, d: int, n: int) -> Reason:
        reason = super().explain_card_move(s, d, n)
        if self._role[d] != "foundation" or not str(reason).startswith(("Only a king", "The ")):
            return reason
        c, dst = self.cards[s][-1], self.cards[d]
        if not dst:
            if C.RANK[c] != C.KING:
                return Reason("Only a king can start a foundation in an empty corner.")
            return Reason("The {suit} already have a corner; the second king goes on their ace.",
                          suit=Suit(C.SUIT[c]))
        top = dst[-1]
        need = C.KING if C.RANK[top] == C.ACE else C.RANK[top] - 1
        return Reason("That foundation needs the {card:name} next.",
                      card=Card(C.card(need, C.SUIT[top])))

    # ------------------------------------------------------------ for the solver
    # Cards leave the walls, the working piles and the waste only from the top, and only to
    # a foundation or (walls and waste) onto a working pile. The search plays the talon as
    # compound moves, "turn the stock k times, then play the new waste card": a turn
    # commutes with every move that does not touch the waste, so every winning line can be
    # rearranged to turn the stock only right before it plays the waste card or turns the
    # pack over. Nothing is pruned, so the one pass is complete.
    @property
    def SOLVER_PRUNES(self) -> bool:  # noqa: N802 (the engine's hook name)
        """Only the parking reading prunes (bad parks, talon cards parked)."""
        return self._parking()

    def solver_key(self) -> bytes:
        """Foundations by suit and size (one per suit, so the cards under the top are
        implied), sorted; each wall with its working pile as one unit, the units sorted (no
        rule knows a wall's number); the talon in order and the passes left. The two copies
        of a card play alike, so cards are named without their deck."""
        cards = self.cards
        found = sorted(bytes((len(cards[f]), cards[f][-1] % 52)) if cards[f] else b"\0"
                       for f in self.foundations)
        units = sorted(bytes((len(cards[r]), len(cards[t]))) + bytes(cards[r]).translate(TWIN)
                       + bytes(cards[t]).translate(TWIN)
                       for r, t in zip(self.walls, self.tableau, strict=True))
        stock, waste = cards[self.stock], cards[self.waste]
        if self._cycle():
            # every talon card can be reached at any time: only which cards it holds matters
            tail = b"\xff" + bytes(sorted((*stock, *waste))).translate(TWIN)
        else:
            tail = (bytes((len(stock), len(waste), self.vars["redeals"] & 0xFF))
                    + bytes(stock).translate(TWIN) + bytes(waste).translate(TWIN))
        return b"".join(found) + b"".join(units) + tail

    def _cycle(self) -> bool:
        """Whether the passes are unlimited: the talon is a cycle, every card of it can be
        turned to and played at any time."""
        return self.vars["redeals"] < 0

    def _parking(self) -> bool:
        """Unlimited passes and any card on any working pile: a talon card is never worth
        parking (it can be had at any time) and a parked card blocks only by its place."""
        return self._cycle() and self.opts["working_build"] == "any"

    def _wanted(self) -> dict[int, list[int]]:
        """Per card (without its deck), the foundations and working piles that would take it
        from a wall or the waste now; of the empty corners only the first (they are alike)."""
        cards = self.cards
        out: dict[int, list[int]] = {}
        corner = True
        for d in (*self.foundations, *self.tableau):
            dst = cards[d]
            if not dst:
                if corner and self._role[d] == "foundation":
                    corner = False
                    for su in range(4):
                        k = su * 13 + C.KING - 1
                        if self._corner_free(k):
                            out.setdefault(k, []).append(d)
                continue
            if self._role[d] == "foundation" and len(dst) >= FULL:
                continue
            build = self.rule[d].build
            if build is None:
                continue
            top = dst[-1]
            for r in _ranks_on(build, top):
                for su in range(4):
                    c = su * 13 + r - 1
                    if build.fits(c, top):
                        out.setdefault(c, []).append(d)
        return out

    def solver_autoplay(self) -> Move | None:
        """A card its foundation takes now, where playing it home can never hurt:

        - from the talon, with unlimited passes and any card on a working pile, when its
          twin is home or in the talon too (:meth:`_pool_home`);
        - in its second run (its twin is home: it is the only card for that place), from the
          waste or from a working pile that keeps a card under it;
        - with unlimited passes and any card on a working pile, in its first run too, from a
          working pile that keeps a card under it, when its twin is in the talon.

        Why: take any winning line, and play it from the position after the move, the card
        left out. While the line keeps the card on its working pile, the pile still holds the
        card under it, so nothing refills it and whatever the line parks on the card goes on
        that pile all the same (in the readings that build in suit, only the next lower card
        of its suit could go on it, and it can go home instead). The line's foundation waits
        for the card or its twin: if it plays the card, the two positions are equal; if it
        plays the twin from the talon first, the twin stays in the talon here and goes home
        when the line plays the card, from the talon (a cycle) where the line had a buried
        card: never worse.

        Not from a working pile holding only the card: playing it home empties the pile,
        which the rules refill at once from its wall (or, the wall empty, lose as a parking
        place), and the line may want to park there first. Nor from a wall: when its working
        pile empties, the rules move the card there, which this position cannot copy. A
        former rule sent every second-run card home and called a won position lost (a test
        holds it)."""
        cards = self.cards
        parking = self._parking()
        if parking:
            move = self._pool_home()
            if move is not None:
                return move
            stock, waste = cards[self.stock], cards[self.waste]
            talon = (bytes(stock) + bytes(waste)).translate(TWIN)
        for f, need, size in self._next_needed():
            if size < 13 and not (parking and need in talon):
                continue
            if not parking:
                pile = cards[self.waste]
                if pile and pile[-1] % 52 == need:
                    return Move("move", self.waste, f, 1)
            for t in self.tableau:
                pile = cards[t]
                if len(pile) > 1 and pile[-1] % 52 == need:
                    return Move("move", t, f, 1)
        return None

    def _next_needed(self) -> Iterator[tuple[int, int, int]]:
        """Each foundation still building: its pile, the card it needs next (one deck's
        number, either copy) and how many cards it holds."""
        cards = self.cards
        for f in self.foundations:
            dst = cards[f]
            if not dst or len(dst) >= FULL:
                continue
            top = dst[-1] % 52
            yield f, (top - 1 if top % 13 else top + 12), len(dst)

    def _pool_home(self) -> Move | tuple | None:
        """(Unlimited passes, any card on the working piles.) The card a foundation needs
        next, from the talon, when its twin is home or in the talon too: the two copies
        there are alike, and a talon card has no other use (parking it never helps). A
        compound move when the card must be turned to."""
        cards = self.cards
        stock, waste = cards[self.stock], cards[self.waste]
        if not stock and not waste:
            return None
        talon = (bytes(stock) + bytes(waste)).translate(TWIN)
        for f, need, size in self._next_needed():
            n = talon.count(need)
            if n == 0 or (n == 1 and size < 13):
                continue
            play = Move("move", self.waste, f, 1)
            turns = self._talon_turns(need)
            return (*turns, play) if turns else play
        return None

    def _needs(self) -> tuple[dict[int, int], int]:
        """Per card (without its deck) the foundation that takes it now, and the first
        empty corner (-1: none); kings of suits without a corner are wanted there."""
        cards = self.cards
        need: dict[int, int] = {}
        corner = -1
        free = [True] * 4
        for f in self.foundations:
            dst = cards[f]
            if not dst:
                if corner < 0:
                    corner = f
                continue
            free[C.SUIT[dst[0]]] = False
            if len(dst) < FULL:
                top = dst[-1] % 52
                need[top - 1 if top % 13 else top + 12] = f
        if corner >= 0:
            for su in range(4):
                if free[su]:
                    need[su * 13 + 12] = corner
        return need, corner

    def _talon_turns(self, c: int) -> tuple | None:
        """The turns that bring card ``c`` (either copy) to the top of the waste, fewest
        first: none for the waste card, then the stock from its top, then (the talon a
        cycle) the rest of the stock, turning over and the waste from its bottom; None when
        the talon has no copy."""
        cards = self.cards
        stock, waste = cards[self.stock], cards[self.waste]
        if waste and waste[-1] % 52 == c:
            return ()
        names = bytes(stock).translate(TWIN)
        i = names.rfind(c)
        if i >= 0:
            return (DEAL,) * (len(stock) - i)
        if len(waste) > 1 and self._cycle():
            j = bytes(waste).translate(TWIN).find(c, 0, len(waste) - 1)
            if j >= 0:
                return (*(DEAL,) * len(stock), REDEAL, *(DEAL,) * (j + 1))
        return None

    def _parking_moves(self, prune: bool) -> list:
        """:meth:`solver_moves` for the tuned reading (unlimited passes, any card on a
        working pile), worked out directly rather than from :meth:`legal_moves`: the same
        moves in the same order, but no talon card is ever parked, in either pass.

        Why dropping talon parks loses no win: take any line that parks a talon card X on a
        working pile T, and play instead the same line with X left in the talon, playing X
        home from the talon when the line plays it home from T. T held a card Y under X,
        which cannot leave before X, so T stays non-empty (nothing refills it) while the
        line has X there, and every card parked on X goes on T's top all the same; the cards
        under X are only the freer for it. The talon is a cycle, so X can be turned to when
        it is wanted. Every move of the line stays legal and the two positions become equal
        when X goes home, so the line without the park wins whenever the line with it does.
        """
        cards, down = self.cards, self.down
        need, _ = self._needs()
        home: list = []
        build: list = []
        working = [t for t in self.tableau if cards[t]]
        for s in self._free:
            pile = cards[s]
            if not pile or down[s] >= len(pile):
                continue
            f = need.get(pile[-1] % 52)
            if f is not None:
                home.append(Move("move", s, f, 1))
            if s in self._wall_set:
                build.extend(Move("move", s, d, 1) for d in working)
        # talon cards home: the stock's deepest first, then the waste's from its bottom (the
        # order the search was tuned with)
        t_home: list = []
        found = []
        deep = len(cards[self.stock])
        for c, f in need.items():
            turns = self._talon_turns(c)
            if turns is not None:
                k = len(turns)
                found.append((k > deep, -k if k <= deep else k, f, turns))
        found.sort(key=lambda x: x[:3])
        for *_, f, turns in found:
            play = Move("move", self.waste, f, 1)
            t_home.append((*turns, play) if turns else play)
        if len(build) > 1:
            dist = self._distances()
            build.sort(key=lambda m: dist(cards[m.src][-2]) if len(cards[m.src]) > 1 else 30)
        return home + t_home + self._parks(build, prune)

    def solver_moves(self, prune: bool = False) -> list:
        """Foundation plays first (from the walls and working piles, then turned to in the
        talon), then wall cards onto working piles (first those uncovering the card its
        foundation wants soonest), then talon cards onto working piles, then turning the pack
        over. Single turns of the stock are never searched alone. With unlimited passes and
        any card on the working piles, the parks are ordered (and pruned) by :meth:`_parks`."""
        if self._parking():
            return self._parking_moves(prune)
        cards, w, role = self.cards, self.waste, self._role
        home: list = []
        build: list = []
        corner = None
        for m in self.legal_moves():
            if m.kind != "move" or m.src == w:
                continue
            if role[m.dst] != "foundation":
                build.append(m)
            elif cards[m.dst]:
                home.append(m)
            elif corner in (None, m.dst):  # empty corners are alike: one of them
                corner = m.dst
                home.append(m)
        if len(build) > 1:
            dist = self._distances()
            build.sort(key=lambda m: dist(cards[m.src][-2]) if len(cards[m.src]) > 1 else 30)
        t_home, t_build, tail = self._talon_plays()
        if self._parking():
            return home + t_home + self._parks(build, prune) + ([] if prune else t_build)
        return home + t_home + build + t_build + tail

    def _parks(self, build: list, prune: bool) -> list:
        """Wall cards onto working piles when any card goes on any working pile and the
        talon is a cycle (talon cards are never parked: they can be had at any time). A park
        is *good* when the parked card is needed no later than the card it covers (the one
        needed later goes under); good parks come first, those uncovering the wall card
        needed soonest first. The pruned pass keeps only the good parks."""
        cards = self.cards
        when = self._when()
        scored = []
        for m in build:
            src = cards[m.src]
            if self._role[m.src] != "reserve" or not cards[m.dst]:
                if not prune:
                    scored.append((3, 0, 0, m))
                continue
            c, u = when(src[-1]), when(cards[m.dst][-1])
            bad = c > u
            if bad and prune:
                continue
            under = when(src[-2]) if len(src) > 1 else 30
            scored.append((int(bad), under, abs(u - c), m))
        scored.sort(key=lambda x: x[:3])
        return [x[3] for x in scored]

    def _when(self) -> Callable[[int], int]:
        """How many cards its foundation still needs before a card is needed there: as
        :meth:`_distances`, plus a run when its twin is in the talon (which, a cycle, gives
        the twin at any time: it can take the first run's place)."""
        dist = self._distances()
        stock, waste = self.cards[self.stock], self.cards[self.waste]
        pool = {c % 52 for c in (*stock, *waste)}

        def when(c: int) -> int:
            d = dist(c)
            return d + 13 if d < 13 and c % 52 in pool else d
        return when

    def _distances(self) -> Callable[[int], int]:
        """How many cards a card's foundation still needs before the card can go home."""
        cards = self.cards
        size = [-1, -1, -1, -1]
        for f in self.foundations:
            if cards[f]:
                size[C.SUIT[cards[f][0]]] = len(cards[f])

        def dist(c: int) -> int:
            n = size[C.SUIT[c]]
            slot = 13 - C.RANK[c]
            if n < 0:
                return slot
            return slot - n + (13 if slot < n else 0)
        return dist

    def _talon_plays(self) -> tuple[list, list, list]:
        """Each card the stock can be turned to (and the waste card), played to each place
        that takes it (a tuple: the turns, then the play), foundation plays apart; and
        turning the pack over (after turning the rest of the stock) while passes are left."""
        cards = self.cards
        stock, waste = cards[self.stock], cards[self.waste]
        home: list = []
        rest: list = []
        wanted = self._wanted()
        seq = [((), waste[-1])] if waste else []
        seq.extend(((DEAL,) * k, stock[-k]) for k in range(1, len(stock) + 1))
        if self._cycle():
            seq = list({c % 52: (t, c) for t, c in reversed(seq)}.values())
        if self._cycle() and len(waste) > 1:
            # the rest of the waste after turning the pack over (one of each card)
            over = (*(DEAL,) * len(stock), REDEAL)
            seen = {c % 52 for _, c in seq}
            for j, c in enumerate(waste[:-1]):
                if c % 52 not in seen:
                    seen.add(c % 52)
                    seq.append(((*over, *(DEAL,) * (j + 1)), c))
        for turns, c in seq:
            for d in wanted.get(c % 52, ()):
                play = Move("move", self.waste, d, 1)
                out = home if self._role[d] == "foundation" else rest
                out.append((*turns, play) if turns else play)
        tail: list = []
        if self._cycle():
            return home, rest, tail  # turning over only reorders the talon
        if self.vars["redeals"] != 0 and (stock or waste):
            tail.append((*(DEAL,) * len(stock), REDEAL) if stock else REDEAL)
        return home, rest, tail

    def solver_hopeless(self) -> bool:
        """A working pile holding a card above a higher card of its suit where the lower
        card's first-run place is filled already. Working-pile cards leave only to their
        foundation, top first, so the lower card would have to go home first; but it can
        only go in the second run, after every higher card of its suit."""
        cards = self.cards
        size = [0, 0, 0, 0]
        for f in self.foundations:
            if cards[f]:
                size[C.SUIT[cards[f][0]]] = len(cards[f])
        for t in self.tableau:
            pile = cards[t]
            if len(pile) < 2:
                continue
            high = [0, 0, 0, 0]  # per suit, the highest rank lower in the pile
            for c in pile:
                su, r = C.SUIT[c], C.RANK[c]
                if r < high[su] and size[su] > 13 - r:
                    return True
                if r > high[su]:
                    high[su] = r
        return False
