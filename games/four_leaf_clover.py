"""Four-Leaf Clover (001 #7): remove same-suit cards adding up to 15, or a jack, queen and king."""

from __future__ import annotations

from itertools import combinations, product

from . import cards as C
from .cards import RANK, SUIT
from .grid import CellGame
from .model import GameInfo, Move, Option
from .reason import GameName, Reason
from .registry import register
from .rng import Rng

RANKS = (1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 13)
FACES = (C.JACK, C.QUEEN, C.KING)
#: every set of two or more different pip ranks (A=1 .. 9) adding up to 15, as rank tuples
FIFTEENS: tuple[tuple[int, ...], ...] = tuple(
    combo for k in range(2, 6) for combo in combinations(range(1, 10), k) if sum(combo) == 15
)

RULES_EN = """\
Goal: remove all 48 cards.

Cards: 48 — the tens are taken out. An ace counts 1, the others their pips.

The deal: 16 cards face up in 4 rows of 4; the other 32 cards are the stock.

Play:
• Remove two or more cards of the same suit that add up to exactly 15: 7♥ 8♥, or 2♣ 4♣ 9♣, \
or A♦ 2♦ 3♦ 4♦ 5♦. Tap the cards one after another: they go as soon as the set is \
complete.
• Remove a jack, a queen and a king of the same suit together.
• The empty places are filled at once from the stock, face up, in reading order (row 1 left \
to right, then row 2 …). When the stock is used up, places stay empty.

End: you win when all 48 cards are removed; the game is lost when no set can be removed.

Option: jack, queen and king of any suits (the source does not name a suit). Score: cards \
left (fewer is better)."""

RULES_ZH = """\
目标：把48张牌全部拿完。

用牌：48张，除去4张10和王牌。A算1点，其余按牌面点数。

摆牌：16张牌正面朝上，每段4张，共4段；其余32张为手牌。

玩法：
• 同花色的两张或更多张牌，点数加起来正好15，就可以一起拿掉：如♥7 ♥8，或♣2 ♣4 ♣9，或♦A ♦2 ♦3 ♦4 ♦5。依次点这些牌，凑齐后自动拿掉。
• 同花色的J、Q、K三张可以一起拿掉。
• 空出的位置立即由手牌正面朝上补上，按读书顺序（第一段从左到右，再第二段……）。手牌用完后空位不再补。

结束：48张全部拿完即为胜利；没有可以拿掉的牌组时游戏失败。

选项：J、Q、K不限花色（原文没有提到花色）。计分：剩下的牌数（越少越好）。"""

RULES_RU = """\
Цель: убрать все 48 карт.

Карты: 48 — десятки убраны. Туз стоит 1 очко, остальные — по числу очков.

Раскладка: 16 открытых карт в 4 ряда по 4; остальные 32 карты — колода.

Ход игры:
• Уберите две или больше карт одной масти, которые в сумме дают ровно 15: 7♥ 8♥, или 2♣ 4♣ \
9♣, или A♦ 2♦ 3♦ 4♦ 5♦. Нажимайте на карты по очереди: они уходят, как \
только набор собран.
• Уберите вместе валета, даму и короля одной масти.
• Пустые места сразу заполняются открытыми картами из колоды, по порядку чтения (ряд 1 слева \
направо, затем ряд 2 …). Когда колода кончилась, места остаются пустыми.

Конец: вы выиграли, когда убраны все 48 карт; партия проиграна, когда убрать нечего.

Вариант: валет, дама и король любых мастей (в источнике масть не названа). Очки: сколько карт \
осталось (чем меньше, тем лучше)."""


@register
class FourLeafClover(CellGame):
    info = GameInfo(
        id="four_leaf_clover",
        names={"en": "Four-Leaf Clover", "zh": "四叶草", "ru": "Четырёхлистный клевер"},
        source="001_bf5637845a306030.txt", source_game="7",
        decks=1, kind="S-luck", difficulty=2,
        description={
            "en": "Remove same-suit cards adding up to 15, or a jack, queen and king.",
            "zh": "同花色的牌凑够15点拿掉，或拿掉同花色的J、Q、K。",
            "ru": "Убирайте карты одной масти с суммой 15 или валета, даму и короля.",
        },
        rules={"en": RULES_EN, "zh": RULES_ZH, "ru": RULES_RU},
        score_label="cards left", score_better="lower",
    )
    options = (
        Option("jqk_same_suit", True, (True, False),
               "the jack, queen and king removed together must share a suit"),
    )
    row_step = 1.5

    def shape(self) -> tuple[int, ...]:
        return (4, 4, 4, 4)

    def deal(self, rng: Rng) -> None:
        deck = C.deck(ranks=RANKS)
        rng.shuffle(deck)
        for p in self.cell:
            self.put(p, deck.pop())
        for c in deck:
            self.put(self.stock, c, up=False)

    def legal_moves(self) -> list[Move]:
        cards = self.cards
        at = [[-1] * 14 for _ in range(4)]  # at[suit][rank]: the pile holding that card
        for p in self.cell:
            if cards[p]:
                c = cards[p][-1]
                at[SUIT[c]][RANK[c]] = p
        sets: list[list[int]] = []
        for piles in at:
            for combo in FIFTEENS:
                chosen = [piles[r] for r in combo]
                if min(chosen) >= 0:
                    sets.append(chosen)
        if self.opts["jqk_same_suit"]:
            sets.extend([piles[r] for r in FACES] for piles in at if min(piles[11:]) >= 0)
        else:
            faces = [[piles[r] for piles in at if piles[r] >= 0] for r in FACES]
            sets.extend(list(trio) for trio in product(*faces))
        return [self.removal(piles) for piles in sets]

    @staticmethod
    def removal(piles: list[int]) -> Move:
        p = sorted(piles)
        return Move("remove", p[0], p[1], 1, tuple(p[2:]))

    def apply(self, move: Move) -> None:
        self.discard_top(move.src, move.dst, *move.extra)

    def settle(self) -> None:
        """Refill the empty places from the stock, face up, in reading order."""
        cards, stock = self.cards, self.stock
        for p in self.cell:
            if not cards[p]:
                if not cards[stock]:
                    return
                self.fill_from_stock(p)

    def explain(self, move: Move) -> Reason:
        if move.kind == "move":
            return Reason("Cards are not moved: remove same-suit cards adding up to 15, or a "
                          "jack, queen and king.")
        if move.kind != "remove":
            return Reason("That is not a move in {game}.", game=GameName(self.info.id))
        named = self.named_cells(move)
        if isinstance(named, Reason):
            return named
        chosen = [self.cards[p][-1] for p in named]
        ranks = sorted(RANK[c] for c in chosen)
        one_suit = len({SUIT[c] for c in chosen}) == 1
        if any(r > 10 for r in ranks):
            if ranks != list(FACES):
                return Reason("Jacks, queens and kings are removed only as a jack, a queen and a "
                              "king together.")
            if not one_suit and self.opts["jqk_same_suit"]:
                return Reason("The jack, queen and king must be of the same suit.")
        else:
            if len(ranks) < 2:
                return Reason("Pick at least two cards that add up to 15.")
            if not one_suit:
                return Reason("The cards must all be of the same suit.")
            if sum(ranks) != 15:
                return Reason("These cards add up to {n}, not 15.", n=sum(ranks))
        return Reason("Name the cards in the order they are laid out.")
