"""Make Ten (000 #7): remove pairs adding up to ten and quartets of 10-J-Q-K."""

from __future__ import annotations

from itertools import combinations

from .cards import RANK, SUIT
from .grid import CellGame
from .model import GameInfo, Move, Option
from .reason import GameName, Reason
from .registry import register

QUARTETS = ("same_suit", "same_rank")

RULES_EN = """\
Goal: clear the table and the stock: remove all 52 cards.

The deal: 13 cards face up in three rows of 5, 5 and 3. The other 39 cards are the stock.

Play:
• Remove two cards that add up to 10: ace (counts 1) and 9, 2 and 8, 3 and 7, 4 and 6, or two \
5s. Suits do not matter. Tap one card, then the other.
• Remove the 10, jack, queen and king of one suit together, when all four are on the table. \
Tens and picture cards can only go this way.
• Every place a removal empties is refilled at once from the stock.

End: you win when all 52 cards are removed. The game ends when no pair or set of four can be \
removed. If 10 cards or fewer are then left in the stock, that counts as "good luck".

Option: the usual modern rule (Tens) removes four cards of one rank instead: four 10s, four \
jacks, four queens or four kings. Score: cards left in the stock (fewer is better)."""

RULES_ZH = """\
目标：把场牌和补上的手牌全部拿完，共52张。

摆牌：翻开13张，摆成3排：第1、2排各5张，第3排3张。其余39张为手牌。

玩法：
• 两张牌点数相加等于10就可以拿掉：A（算1）和9、2和8、3和7、4和6，或两张5。不论花色。先点一张，再点另一张。
• 同一花色的10、J、Q、K四张都在桌上时，可以一起拿掉。10和人头牌只能这样拿掉。
• 拿掉后留下的空位，立即用手牌翻开补入。

结束：52张全部拿完为最大的成功。无牌可拿时游戏结束；这时手牌剩下10张以内，就算“好运光临”。

选项：现代通行的“凑十”规则改为拿掉同点数的四张：四张10、四张J、四张Q或四张K。计分：剩下的手牌张数，越少越好。"""

RULES_RU = """\
Цель: убрать все 52 карты — со стола и из колоды.

Раскладка: 13 открытых карт в три ряда — 5, 5 и 3. Остальные 39 карт — колода.

Ход игры:
• Уберите две карты, которые в сумме дают 10: туз (считается за 1) и 9, 2 и 8, 3 и 7, 4 и 6 \
или две пятёрки. Масть не важна. Нажмите на одну карту, затем на другую.
• Десятку, валета, даму и короля одной масти можно убрать вместе, когда все четыре лежат на \
столе. Десятки и фигуры уходят только так.
• Каждое освободившееся место сразу заполняется картой из колоды.

Конец: вы выиграли, если убраны все 52 карты. Игра кончается, когда убрать больше нечего. \
Если в колоде при этом осталось не больше 10 карт — это «удача».

Вариант: по современному правилу («Десятки») вместо этого убирают четыре карты одного \
достоинства: четыре десятки, четырёх валетов, четырёх дам или четырёх королей. Очки: карты, \
оставшиеся в колоде (чем меньше, тем лучше)."""


@register
class MakeTen(CellGame):
    info = GameInfo(
        id="make_ten",
        names={"en": "Make Ten", "zh": "凑十", "ru": "Сложи десять"},
        source="000_5c0014aada07c9b6.txt", source_game="7",
        decks=1, kind="S-luck", difficulty=3,
        description={"en": "Remove pairs that add up to ten, and 10-J-Q-K sets.",
                     "zh": "拿掉相加等于十的两张牌和同花色的10、J、Q、K。",
                     "ru": "Убирайте пары с суммой десять и четвёрки 10-В-Д-К."},
        rules={"en": RULES_EN, "zh": RULES_ZH, "ru": RULES_RU},
        score_label="cards left in the stock", score_better="lower",
    )
    options = (
        Option("face_quartet", "same_suit", QUARTETS,
               "remove 10-J-Q-K of one suit (source), or four of a rank (standard Tens)"),
    )

    def shape(self) -> tuple[int, ...]:
        return (5, 5, 3)

    def prepare(self) -> None:
        super().prepare()
        self.same_rank = self.opts["face_quartet"] == "same_rank"

    def legal_moves(self) -> list[Move]:
        cards = self.cards
        by_rank: list[list[int]] = [[] for _ in range(14)]
        for p in self.cell:
            if cards[p]:
                by_rank[RANK[cards[p][0]]].append(p)
        moves = []
        for r in range(1, 6):
            if r == 5:
                pairs = combinations(by_rank[5], 2)
            else:
                pairs = ((a, b) for a in by_rank[r] for b in by_rank[10 - r])
            moves.extend(Move("remove", *sorted(pair)) for pair in pairs)
        for group in self.quartets(by_rank):
            a, b, c, d = sorted(group)
            moves.append(Move("remove", a, b, 1, (c, d)))
        return moves

    def quartets(self, by_rank: list[list[int]]) -> list[list[int]]:
        if self.same_rank:
            return [by_rank[r] for r in range(10, 14) if len(by_rank[r]) == 4]
        found = []
        for s in range(4):
            group = [p for r in range(10, 14) for p in by_rank[r]
                     if SUIT[self.cards[p][0]] == s]
            if len(group) == 4:
                found.append(group)
        return found

    def solver_autoplay(self) -> Move | None:
        """Any removal: where a card lies never matters (a removal takes cards from any
        places and the gaps refill in a fixed order), cards of one rank below 10 are
        alike, and removals of different cards commute; every card must go in the end,
        with a partner of the only rank that fits. So taking the first removal at once never
        loses anything, and the game plays itself."""
        moves = self.legal_moves()
        return moves[0] if moves else None

    def apply(self, move: Move) -> None:
        self.discard_top(move.src, move.dst, *move.extra)

    def settle(self) -> None:
        """Every emptied place is refilled at once from the stock."""
        cards, stock = self.cards, self.stock
        for p in self.cell:
            if not cards[p] and cards[stock]:
                self.fill_from_stock(p)

    @property
    def score(self) -> int:
        return len(self.cards[self.stock])

    @property
    def grade(self) -> str | None:
        return "good luck" if not self.won and self.score <= 10 else None

    def explain(self, move: Move) -> Reason:
        if move.kind == "move":
            return Reason("Cards are not moved here: remove two cards that add up to 10.")
        if move.kind != "remove":
            return Reason("That is not a move in {game}.", game=GameName(self.info.id))
        named = self.named_cells(move)
        if isinstance(named, Reason):
            return named
        cs = [self.cards[p][0] for p in named]
        if len(cs) == 2:
            if any(RANK[c] >= 10 for c in cs):
                return Reason("A 10, jack, queen or king can only be removed in a set of four.")
            total = RANK[cs[0]] + RANK[cs[1]]
            return Reason("The {card} and the {card2} add up to {n}, not 10.",
                          card=self.card_at(named[0]), card2=self.card_at(named[1]), n=total)
        if len(cs) == 4:
            if self.same_rank:
                return Reason("Four cards can go only if they are four 10s, four jacks, four "
                              "queens or four kings.")
            return Reason("Four cards can go only if they are the 10, jack, queen and king of one "
                          "suit.")
        return Reason("Remove two cards that add up to 10, or a set of four.")
