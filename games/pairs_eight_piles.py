"""Pairs, Eight Piles (000 #5): pair off the eight piles, with a turned row of three stock cards."""

from __future__ import annotations

from collections.abc import Iterable

from .cards import RANK
from .engine import Game
from .model import GameInfo, Move, Option, PileSpec
from .reason import Card, Reason
from .registry import register
from .rng import Rng

DEAL = Move("deal")

RULES_EN = """\
Goal: remove all 32 cards of the eight piles, in pairs of the same rank.

The deal: 8 piles in 2 rows of 4, each of 3 face-down cards with 1 face-up card on top. The \
other 20 cards are the stock. Beside it is a turned row with room for 3 cards.

Play:
• Remove two available cards of the same rank (suits do not matter): tap one, then the other. \
Available cards are the top card of each pile and every card in the turned row. With three \
cards of a rank in view, you choose which two go.
• A face-down card left on top of a pile turns over by itself.
• When no pair can be made, tap the stock to turn its top card into the turned row. The row \
holds at most 3 cards; two cards of the row may also pair with each other.

End: you win when the eight piles are empty; cards left in the stock do not matter. The game \
is lost when no pair is available and no card can be turned (the row is full or the stock is \
empty).

Option: turn a stock card at any time while the row has room, even if a pair is available. \
Score: cards left in the eight piles (fewer is better)."""

RULES_ZH = """\
目标：把8垛场牌共32张，全部按同点数两两配对拿掉。

摆牌：摆成2排，每排4垛，每垛先扣3张，再在上面翻开1张。其余20张为手牌。手牌旁边是翻牌区，最多放3张。

玩法：
• 拿掉两张同点数的可用牌（不论花色）：先点一张，再点另一张。可用牌是每垛最上面的一张，以及翻牌区的每一张。同点的牌有3张时，只能拿掉其中两张，由你选择。
• 垛顶露出的扣牌会自动翻开。
• 无牌可配时，点手牌，把最上面一张翻到翻牌区。翻牌区最多3张；其中两张也可以自行配对拿掉。

结束：8垛全部拿完即为胜利，剩下的手牌不计。没有可配的牌、也不能再翻牌（翻牌区已满或手牌用完）时，游戏失败。

选项：只要翻牌区有空位，随时可以翻牌，即使还有可配的对子。计分：8垛中剩下的牌数，越少越好。"""

RULES_RU = """\
Цель: убрать все 32 карты восьми стопок парами одного достоинства.

Раскладка: 8 стопок в 2 ряда по 4; в каждой 3 карты рубашкой вверх и одна открытая сверху. \
Остальные 20 карт — колода. Рядом с ней — ряд открытых карт, в нём помещаются 3 карты.

Ход игры:
• Уберите две доступные карты одного достоинства (масть не важна): нажмите на одну, затем на \
другую. Доступны верхние карты стопок и все карты открытого ряда. Если видны три карты одного \
достоинства, вы сами выбираете, какие две убрать.
• Закрытая карта наверху стопки открывается сама.
• Когда пар нет, нажмите на колоду: её верхняя карта ляжет в открытый ряд. В ряду не больше \
3 карт; две карты ряда тоже могут составить пару.

Конец: вы выиграли, когда все восемь стопок пусты; оставшиеся в колоде карты не важны. \
Партия проиграна, если пар нет и открыть карту нельзя (ряд полон или колода пуста).

Вариант: открывать карту из колоды можно в любой момент, пока в ряду есть место, даже если \
пара есть. Очки: карты, оставшиеся в восьми стопках (чем меньше, тем лучше)."""


@register
class PairsEightPiles(Game):
    info = GameInfo(
        id="pairs_eight_piles",
        names={"en": "Pairs (Eight Piles)", "zh": "配对", "ru": "Пары (восемь стопок)"},
        source="000_5c0014aada07c9b6.txt", source_game="5",
        decks=1, kind="S-luck", difficulty=2,
        description={"en": "Pair off eight piles by rank, turning stock cards when stuck.",
                     "zh": "八垛牌同点配对拿掉，配不下去时翻手牌。",
                     "ru": "Убирайте пары из восьми стопок, открывая колоду, когда пар нет."},
        rules={"en": RULES_EN, "zh": RULES_ZH, "ru": RULES_RU},
        score_label="cards left in the piles", score_better="lower",
    )
    options = (
        Option("deal_any_time", False, (False, True),
               "turn a stock card whenever the row has room, even if a pair is available"),
    )

    #: the stock is only ever dealt from, so its count says which cards are in it
    SOLVER_VIEW = {"stock": "count"}

    def symmetric_groups(self) -> tuple[tuple[int, ...], ...]:
        """Neither the piles nor the turned cards have places that matter."""
        return (self.piles, self.row)

    def build_layout(self) -> Iterable[PileSpec]:
        yield PileSpec("S", "stock", 0, 0)
        for i in range(3):
            yield PileSpec(f"W{i + 1}", "waste", 1.4 + 1.2 * i, 0)
        for i in range(8):
            r, c = divmod(i, 4)
            yield PileSpec(f"T{i + 1}", "tableau", 0.6 + 1.4 * c, 1.8 + 2.3 * r, fan="down")
        yield PileSpec("D", "discard", 5.4, 0)

    def prepare(self) -> None:
        self.stock = self.first("stock")
        self.row = tuple(self.roles["waste"])
        self.piles = tuple(self.roles["tableau"])
        self.available = self.row + self.piles
        self.discard = self.first("discard")

    def deal(self, rng: Rng) -> None:
        deck = list(range(52))
        rng.shuffle(deck)
        for up in (False, False, False, True):
            for p in self.piles:
                self.put(p, deck.pop(), up)
        for c in deck:
            self.put(self.stock, c, up=False)

    # ------------------------------------------------------------------ rules
    def legal_moves(self) -> list[Move]:
        cards = self.cards
        seen: dict[int, list[int]] = {}
        moves = []
        for p in self.available:
            if cards[p]:
                group = seen.setdefault(RANK[cards[p][-1]], [])
                moves.extend(Move("remove", q, p) for q in group)
                group.append(p)
        if self.can_turn(bool(moves)):
            moves.append(DEAL)
        return moves

    def can_turn(self, pair_available: bool) -> bool:
        cards = self.cards
        return (bool(cards[self.stock]) and not cards[self.row[-1]]
                and (self.opts["deal_any_time"] or not pair_available))

    def apply(self, move: Move) -> None:
        cards, row = self.cards, self.row
        if move.kind == "deal":
            self._move_cards(self.stock, next(p for p in row if not cards[p]))
            return
        self._move_cards(move.src, self.discard)
        self._move_cards(move.dst, self.discard)
        # keep the turned row packed to the left, so equal rows give equal keys
        for i in range(len(row) - 1):
            if not cards[row[i]]:
                for j in range(i + 1, len(row)):
                    if cards[row[j]]:
                        self._move_cards(row[j], row[i])
                        break

    def make_move(self, kind: str, piles: list[int], n: int) -> Move:
        """``remove:T5,W1`` names the same cards as ``remove:W1,T5``."""
        return super().make_move(kind, sorted(piles) if kind == "remove" else piles, n)

    @property
    def won(self) -> bool:
        return not any(self.cards[p] for p in self.piles)

    @property
    def score(self) -> int:
        return sum(len(self.cards[p]) for p in self.piles)

    # ------------------------------------------------------------------ words
    def explain(self, move: Move) -> Reason:
        kind = move.kind
        if kind == "deal":
            if not self.cards[self.stock]:
                return Reason("The stock is empty.")
            if self.cards[self.row[-1]]:
                return Reason("The turned row already holds 3 cards: pair some of them first.")
            return Reason("A pair can still be made; turn a card only when no pair is left.")
        if kind == "move":
            return Reason("Cards are not moved here: remove two available cards of the same rank.")
        if kind != "remove":
            return Reason("That is not a move in Pairs.")
        piles = [p for p in (move.src, move.dst, *move.extra) if p >= 0]
        if len(piles) != 2 or piles[0] == piles[1]:
            return Reason("Remove two different cards at a time.")
        if any(p not in self.available for p in piles):
            return Reason("Only the top cards of the piles and the turned cards can be paired.")
        if any(not self.cards[p] for p in piles):
            return Reason("There is no card there.")
        a, b = (self.cards[p][-1] for p in piles)
        return Reason("The {card} and the {card2} are not the same rank.", card=Card(a),
                      card2=Card(b))
