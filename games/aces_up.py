"""Aces Up (000 #1): discard every card that a higher card of its suit outranks; keep the aces."""

from __future__ import annotations

from collections.abc import Iterable

from . import cards as C
from .cards import RANK, SUIT
from .engine import Game
from .model import GameInfo, Move, Option, PileSpec
from .registry import register
from .rng import Rng

DEAL = Move("deal")
#: discarding order: the ace is high
HIGH = tuple(14 if RANK[c] == 1 else RANK[c] for c in range(52))

RULES_EN = """\
Goal: discard 48 cards so that only the four aces remain on the table.

The deal: four face-up cards in a row, one on each of four piles. The other 48 cards stay \
face down in the stock.

Order: the ace is the highest card: A, K, Q, J, 10, … 2.

Play:
• Discard: when two top cards have the same suit, the lower one may be discarded. Only top \
(uncovered) cards count. Discard one card at a time; a newly uncovered card may then be \
discarded in turn.
• Empty pile: the top card of any other pile may be moved into an empty pile.
• Deal: tap the stock to deal four more cards, one face up on top of each pile (empty ones \
too). The 52 cards give 13 deals in all. You may deal at any time.

End: the game ends when the stock is empty and no card can be discarded. You win when only \
the four aces are left. An ace lying on another ace cannot be discarded: move it into an \
empty pile.

Option: "deal only when stuck" allows a new deal only when no card can be discarded (as in \
the book's example).

Score: cards discarded (48 is a win)."""

RULES_ZH = """\
目标：舍弃48张牌，最后桌上只剩4张A。

摆牌：从手牌中翻开4张，正面朝上并排放成4堆。其余48张面朝下作为牌库。

大小顺序：A最大，依次为A、K、Q、J、10……2。

玩法：
• 舍牌：露出的顶牌中有两张或以上同花色时，较小的可以舍弃拿掉。只有露出、不被压着的牌才算。\
每次舍一张，新露出的牌也可以接着舍弃。
• 空位：某一堆空了，可以把其他任一堆的顶牌移过去。
• 发牌：点击牌库，再翻4张牌，每堆（包括空位）上各压一张。52张牌共发13轮。任何时候都可以发牌。

结束：牌库发完且没有牌可舍时游戏结束。最后只剩4张A即为胜利。A压在另一张A上时无法舍弃，\
要把它移到空位上。

选项：“无牌可舍才发牌”——只有在没有牌可以舍弃时才能发下一轮（与原书示例一致）。

计分：已舍弃的牌数（48张即胜利）。"""

RULES_RU = """\
Цель: сбросить 48 карт, чтобы на столе остались только четыре туза.

Раскладка: четыре открытые карты в ряд, по одной на каждую из четырёх стопок. Остальные \
48 карт лежат закрытой колодой.

Старшинство: туз старше всех: Т, К, Д, В, 10, … 2.

Ход игры:
• Сброс: если у двух верхних карт одна масть, младшую из них можно сбросить. Считаются \
только верхние (не закрытые другими) карты. Сбрасывайте по одной; открывшуюся карту тоже \
можно сбросить.
• Пустая стопка: в неё можно переложить верхнюю карту любой другой стопки.
• Сдача: нажмите на колоду, чтобы сдать ещё четыре карты, по одной открытой на каждую \
стопку (и на пустые тоже). Всего 13 сдач. Сдавать можно в любой момент.

Конец: игра кончается, когда колода пуста и сбросить нечего. Вы выиграли, если остались \
только четыре туза. Туз, лежащий на другом тузе, сбросить нельзя — переложите его в пустую \
стопку.

Вариант: «сдавать, только если нет хода» — новая сдача разрешена, лишь когда сбросить нечего \
(как в примере из книги).

Очки: число сброшенных карт (48 — выигрыш)."""


@register
class AcesUp(Game):
    info = GameInfo(
        id="aces_up",
        names={"en": "Aces Up", "zh": "四个A", "ru": "Четыре туза"},
        source="000_5c0014aada07c9b6.txt", source_game="1",
        decks=1, kind="S-luck", difficulty=2,
        description={"en": "Discard the lower cards of each suit until only the aces remain.",
                     "zh": "舍去同花色中较小的牌，直到只剩四张A。",
                     "ru": "Сбрасывайте младшие карты каждой масти, пока не останутся тузы."},
        rules={"en": RULES_EN, "zh": RULES_ZH, "ru": RULES_RU},
        score_label="cards discarded", score_better="higher",
    )
    options = (
        Option("deal_only_when_stuck", False,
               help="deal the next four cards only when no card can be discarded"),
    )

    #: the stock is only ever dealt from, so its size says what is left in it
    SOLVER_VIEW = {"stock": "count"}

    def build_layout(self) -> Iterable[PileSpec]:
        yield PileSpec("S", "stock", 0, 0)
        for i in range(4):
            yield PileSpec(f"T{i + 1}", "tableau", 1.6 + 1.2 * i, 0, fan="down")
        yield PileSpec("D", "discard", 6.6, 0)

    def prepare(self) -> None:
        self.stock, self.discard = self.first("stock"), self.first("discard")
        self.tableau = self.roles["tableau"]

    def deal(self, rng: Rng) -> None:
        deck = list(range(52))
        rng.shuffle(deck)
        for c in deck:
            self.put(self.stock, c, up=False)
        self.deal_row()

    def deal_row(self) -> None:
        for t in self.tableau:
            if self.cards[self.stock]:
                self._move_cards(self.stock, t, 1)

    # ------------------------------------------------------------------ moves
    def discardable(self) -> list[int]:
        """Columns whose top card a higher top card of the same suit outranks."""
        best = [0, 0, 0, 0]
        tops = [(t, self.cards[t][-1]) for t in self.tableau if self.cards[t]]
        for _, c in tops:
            best[SUIT[c]] = max(best[SUIT[c]], HIGH[c])
        return [t for t, c in tops if HIGH[c] < best[SUIT[c]]]

    def legal_moves(self) -> list[Move]:
        cards = self.cards
        moves = [Move("move", t, self.discard) for t in self.discardable()]
        stuck = not moves
        empty = [t for t in self.tableau if not cards[t]]
        if empty:
            # a lone card moved to another empty pile would change nothing
            moves += [Move("move", s, e) for s in self.tableau if len(cards[s]) > 1
                      for e in empty]
        if cards[self.stock] and (stuck or not self.opts["deal_only_when_stuck"]):
            moves.append(DEAL)
        return moves

    def apply(self, move: Move) -> None:
        if move.kind == "deal":
            self.deal_row()
        else:
            self._move_cards(move.src, move.dst, 1)

    SOLVER_PRUNES = True

    def solver_moves(self, prune: bool = False) -> list[Move]:
        """Discards first, then moves into an empty pile, dealing last; with ``prune``, while
        a card can be discarded nothing else is tried."""
        moves = self.legal_moves()
        cards = self.cards
        discards = [m for m in moves if m.dst == self.discard]
        if prune and discards:
            # the lowest card first: the higher ones stay to discard others
            return [min(discards, key=lambda m: HIGH[cards[m.src][-1]])]
        rest = [m for m in moves if m.dst != self.discard]
        if prune:
            # into a space only what lays bare a card that can then be discarded
            rest = [m for m in rest if m.kind == "deal" or self._bares_discard(m)]
        return discards + rest

    def _bares_discard(self, move: Move) -> bool:
        self._push(move)
        try:
            return bool(self.discardable())
        finally:
            self.pop()

    def solver_autoplay(self) -> Move | None:
        """No discard is safe for the search to make alone. A kept card may carry a lower
        card of its suit to a space and discard it there, and a card alone in its pile cannot
        move to a space, so which pile a card lies in matters: with the old rule (discard a
        card when the lower cards of its suit left all lie under it) the complete pass
        called won positions lost (``tests/solver/test_game_hooks.py`` has one). The pruned
        pass still discards the lowest card first (``solver_moves``)."""
        return None

    @property
    def won(self) -> bool:
        return len(self.cards[self.discard]) == 48

    @property
    def score(self) -> int:
        return len(self.cards[self.discard])

    def explain(self, move: Move) -> str:
        cards = self.cards
        if move.kind == "deal":
            if not cards[self.stock]:
                return "The stock is empty."
            return "You may deal only when no card can be discarded."
        if move.kind != "move":
            return "In Aces Up you discard cards, fill empty piles or deal."
        s, d = move.src, move.dst
        if s not in self.tableau or not 0 <= d < len(self.layout):
            return "Only the top card of a pile can be moved."
        if not cards[s]:
            return "That pile is empty."
        if move.n != 1:
            return "Only one card can be moved at a time."
        c = cards[s][-1]
        if d == self.discard:
            if RANK[c] == 1:
                return "Aces are the highest cards and are never discarded."
            return (f"The {C.pretty(c)} can be discarded only when a higher "
                    f"{C.SUIT_NAMES[SUIT[c]][:-1]} is on top of another pile.")
        if d not in self.tableau:
            return "Cards can only go to the discard pile or into an empty pile."
        if cards[d]:
            return "A card can only be moved into an empty pile."
        return "That card is already alone in its pile."
