"""Four Corner Towers (000 #10): aces in the corners, twenty piles fed by the stock."""

from __future__ import annotations

from collections.abc import Iterable

from . import cards as C
from .cards import RANK, SUIT
from .model import GameInfo, Move, Option, PileSpec
from .patience import DEAL, FOUNDATION, PatienceGame, Rule, roles
from .reason import Reason
from .registry import register
from .rng import Rng

RULES_EN = """\
Goal: build the four aces up to kings, in suit.

The deal: the four aces go to the four corners as foundations. 20 cards are dealt face up \
between them in 4 rows of 5; each is the start of a pile. The other 28 cards are the stock.

Play:
• The top card of any pile may go to the foundation of its suit, one rank higher. Nothing is \
built on the piles.
• A pile that becomes empty is refilled at once with the top card of the stock.
• When no top card can go to a foundation, tap the stock: one card is dealt face up onto each \
pile in turn, from the top-left, covering the cards there (20 cards, or all that are left). \
Only the top card of each pile can be played.
• There is no redeal.

End: you win when all 52 cards are on the foundations. Cards left on the table mean the towers \
were not strong enough.

Options: "one card at a time": when stuck, turn the stock one card at a time onto a waste \
pile. The top waste card may go to a foundation (and so may the piles' top cards), but it \
never fills an empty pile; empty piles are still refilled from the stock. "Deal any time": \
the stock may be dealt even when a card could go to a foundation. Score: cards on the \
foundations."""

RULES_ZH = """\
目标：在四个角的A上，按同花色从2到K递升，垒起4座角楼。

摆牌：先拣出4张A放在四角，作为基础牌。其余的牌中翻开20张摆在中央，成4排5行，每张是一个牌垛的开始。剩下28张为手牌。

玩法：
• 任何牌垛最上面的一张，如果比同花色基础牌大一点，可以移到基础牌上。牌垛之间不能互相叠放。
• 牌垛移空后，立即用手牌翻开一张补入。
• 当没有牌能再接到基础牌上时，点手牌：从左上角起，每个牌垛依次叠盖一张翻开的手牌（20张，不够时有多少翻多少）。只有每垛最上面的一张可以移放。
• 不能重翻。

结束：52张全部放到基础牌上即为成功。如桌上还有余牌，说明你的城堡垛得不够坚固。

选项：“逐张翻牌”：无牌可接时，手牌不是一次翻20张，而是一张一张翻到弃牌堆上。弃牌堆顶牌可以接到基础牌上（牌垛顶牌也可以），但不能用来补空位；空出的牌垛仍由手牌补入。“随时发牌”：即使还有牌能接到基础牌上，也可以发牌。计分：基础牌上的牌数。"""

RULES_RU = """\
Цель: нарастить четырёх тузов до королей, каждого в своей масти.

Раскладка: четыре туза кладутся в четыре угла — это базы. Между ними выкладываются 20 \
открытых карт в 4 ряда по 5; каждая начинает стопку. Остальные 28 карт — колода.

Ход игры:
• Верхнюю карту любой стопки можно положить на базу её масти, если она на единицу старше. На \
стопки ничего не кладут.
• Опустевшая стопка сразу пополняется верхней картой колоды.
• Когда ни одна верхняя карта не подходит на базу, нажмите на колоду: на каждую стопку по \
очереди, начиная с левой верхней, ляжет по одной открытой карте (20 карт или сколько \
осталось). Играть можно только верхнюю карту стопки.
• Пересдачи нет.

Конец: вы выиграли, когда все 52 карты лежат на базах. Если на столе остались карты, значит, \
башни вышли непрочными.

Варианты: «по одной карте»: когда ходов нет, колоду открывают по одной карте в отбой. Верхнюю \
карту отбоя можно положить на базу (как и верхние карты стопок), но пустые стопки она не \
заполняет — они по-прежнему пополняются из колоды. «Сдача в любой момент»: колоду можно \
сдавать, даже когда есть ход на базу. Очки: карты на базах."""


@register
class FourCornerTowers(PatienceGame):
    info = GameInfo(
        id="four_corner_towers",
        names={"en": "Four Corner Towers", "zh": "四角楼", "ru": "Четыре угловые башни"},
        source="000_5c0014aada07c9b6.txt", source_game="10",
        decks=1, kind="S-auto", difficulty=2,
        description={"en": "Aces in the corners; play twenty piles up in suit.",
                     "zh": "四角放A，从二十个牌垛上按花色接牌。",
                     "ru": "Тузы в углах; двадцать стопок выкладываются на базы по мастям."},
        rules={"en": RULES_EN, "zh": RULES_ZH, "ru": RULES_RU},
    )
    options = (
        Option("variant", "standard", ("standard", "single_turn"),
               "when stuck, deal 20 onto the piles, or turn one card at a time onto a waste"),
        Option("deal_any_time", False, (False, True),
               "the stock may be dealt even when a card could go to a foundation"),
    )
    SOLVER_VIEW = {"stock": "count", "foundation": "top"}
    RULES = {
        "foundation": Rule(FOUNDATION.build, empty="ace", take="none", max_cards=13,
                           sources=roles("tableau", "waste"), name="foundation"),
        "tableau": Rule(take="top", empty="none", name="pile"),
        "waste": Rule(take="top", empty="none", name="waste"),
    }

    def build_layout(self) -> Iterable[PileSpec]:
        yield PileSpec("S", "stock", 9.0, 0)
        if self.opts["variant"] == "single_turn":
            yield PileSpec("W", "waste", 9.0, 1.6)
        for i in range(4):
            yield PileSpec(f"F{i + 1}", "foundation", 7.6 * (i % 2), 4.8 * (i // 2))
        for i in range(20):
            r, c = divmod(i, 5)
            yield PileSpec(f"T{i + 1}", "tableau", round(1.4 + 1.2 * c, 2), round(1.6 * r, 2))

    def deal(self, rng: Rng) -> None:
        for f, suit in zip(self.foundations, range(4), strict=True):
            self.put(f, C.card(C.ACE, suit))
        rest = [c for c in range(52) if C.RANK[c] != C.ACE]
        rng.shuffle(rest)
        for t in self.tableau:
            self.put(t, rest.pop())
        self.init_stock(rest[::-1])

    # ------------------------------------------------------------------ rules
    def prepare(self) -> None:
        super().prepare()
        # foundation k holds suit k, so a card's only possible move is known in advance
        self._plays = {s: tuple(Move("move", s, f) for f in self.foundations)
                       for s in self._sources}

    def legal_moves(self) -> list[Move]:
        cards = self.cards
        wanted = [len(cards[f]) + 1 for f in self.foundations]
        moves = []
        for s, plays in self._plays.items():
            pile = cards[s]
            if pile and RANK[pile[-1]] == wanted[SUIT[pile[-1]]]:
                moves.append(plays[SUIT[pile[-1]]])
        if cards[self.stock] and (self.opts["deal_any_time"] or not moves):
            moves.append(DEAL)
        return moves

    def deal_from_stock(self) -> None:
        if self.waste >= 0:
            return super().deal_from_stock()
        stock = self.stock
        for t in self.tableau[:len(self.cards[stock])]:
            self._move_cards(stock, t)

    def safe_autoplay(self) -> Move | None:
        """A foundation play that brings no stock card in: one leaving a card behind, or any
        once the stock is empty. (Which pile an emptied place refills can matter later.)"""
        cards, stock = self.cards, self.stock
        for m in self.legal_moves():
            if m.kind == "move" and (m.src == self.waste or len(cards[m.src]) > 1
                                     or not cards[stock]):
                return m
        return None

    def settle(self) -> None:
        """An emptied pile is refilled at once from the stock (never from the waste)."""
        cards, stock = self.cards, self.stock
        for t in self.tableau:
            if not cards[t] and cards[stock]:
                self._move_cards(stock, t)

    # ------------------------------------------------------------------ words
    def explain(self, move: Move) -> Reason:
        if move.kind == "deal" and self.cards[self.stock]:
            return Reason("Deal only when no card can go to a foundation.")
        if move.kind == "move" and move.dst in self.tableau and move.src != move.dst \
                and move.src in self._sources and self.cards[move.src]:
            return Reason("Nothing is built on the piles: cards go only to the foundations.")
        return super().explain(move)
