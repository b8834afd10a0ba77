"""St Helena («Святая Елена», source 002): a two-deck Spider in which suits never matter.

Not the Western "St. Helena" (Napoleon's Favourite), a different game. Runs of any suits
build and move; a complete king-to-ace run leaves the table onto one of eight finished-run
piles, so removed cards stay countable and undo is one journal entry like every other move.
"""

from __future__ import annotations

from collections.abc import Iterator

from . import cards as C
from .model import GameInfo, Move, Option, PileSpec
from .patience import DEAL, Build, PatienceGame, Rule
from .reason import Reason
from .registry import register
from .rng import Rng

RUN = 13

RULES_EN = """\
This is the Russian "St Helena", a Spider patience (Franklin D. Roosevelt's favourite, says \
the book). It is not the Western two-deck game "St. Helena" (Napoleon's Favourite).

Goal: gather all 104 cards (two decks) into eight complete runs from king down to ace, in any \
suits, and clear them away.

The deal: ten columns of three face-down cards, then a fourth row of ten face-up cards. The \
other 64 cards form the stock.

Play:
• Any face-up card may go on a column's top card that is one rank higher, whatever the suit: \
any 6 on any 7.
• A run of cards going down by one (any suits) may move as a unit, the whole run or any part \
of it that ends at the top of its column.
• A face-down card left on top of a column turns over by itself.
• An empty column takes any card, run or part of a run.
• Tap the stock to deal ten face-up cards, one onto each column. There are six deals of ten \
and a last deal of four, which goes onto columns 1 to 4. You may deal at any time (the book \
deals when no move is left; here the choice is yours).
• A complete run from king down to ace at the top of a column is cleared away onto a finished \
pile at once.

The game is won when all eight runs are cleared. It is lost when the stock is empty and you \
can make no more progress. Score: cards cleared.

Options: no deal while a column is empty (the usual Spider rule); clear a complete run with a \
tap instead of automatically."""

RULES_ZH = """\
这是俄国的"圣赫勒拿"，一种蜘蛛接龙（据原书说，是富兰克林·罗斯福最喜欢的接龙）。它不是西方同名的双副牌游戏"圣赫勒拿"（拿破仑的最爱）。

目标：把两副牌共104张排成8组从K到A的完整顺子（花色不限），并全部移走。

发牌：10列，每列先发3张背面朝下的牌，再发第4行10张正面朝上的牌。其余64张为牌库。

玩法：
• 任何正面朝上的牌都可以放到某列的顶牌上，只要顶牌大一点，不论花色：任何6都可以放在任何7上。
• 依次递减一点的一组牌（花色不限）可以整组移动，可以是整组，也可以是到该列顶端为止的任意一段。
• 列顶的背面牌会自动翻开。
• 空列可以放任何牌、整组或其中一段。
• 点击牌库，发10张正面朝上的牌，每列一张。共发6次10张，最后一次只有4张，发到第1至4列。任何时候都可以发牌（原书是在无路可走时才发；这里由你决定）。
• 某列顶端出现从K到A的完整顺子时，立即整组移到完成堆。

8组顺子全部移走即获胜。牌库发完后无法再有进展即失败。计分：移走的牌数。

选项：有空列时不准发牌（蜘蛛接龙的常见规则）；完整顺子由玩家点击移走，而不是自动移走。"""

RULES_RU = """\
Это русская «Святая Елена», пасьянс-паук (по словам книги, любимый пасьянс Франклина Д. \
Рузвельта). Это не западный двухколодный пасьянс «St. Helena» («Любимец Наполеона»).

Цель: собрать все 104 карты (две колоды) в восемь полных серий от короля до туза, независимо \
от масти, и снести их.

Раскладка: десять столбцов по три закрытые карты, затем четвёртый ряд из десяти открытых. \
Остальные 64 карты — колода.

Ход игры:
• Любую открытую карту можно положить на верхнюю карту столбца, старшую на одно очко, \
независимо от масти: любую шестёрку на любую семёрку.
• Серию карт, идущих по убыванию на одно очко (масти любые), можно переносить целиком или \
любой её частью, которая кончается наверху столбца.
• Закрытая карта, оказавшаяся наверху столбца, открывается сама.
• В пустой столбец можно положить любую карту, серию или часть серии.
• Нажмите на колоду, чтобы выложить десять открытых карт, по одной на каждый столбец. Всего \
шесть раздач по десять карт и последняя — из четырёх карт на столбцы 1–4. Раздавать можно в \
любой момент (в книге — когда ходов больше нет; здесь решаете вы).
• Полная серия от короля до туза наверху столбца сразу сносится в стопку готовых серий.

Пасьянс сошёлся, когда снесены все восемь серий. Он не вышел, если колода кончилась и \
продвинуться больше нельзя. Очки: снесённые карты.

Варианты: не раздавать, пока есть пустой столбец (обычное правило «паука»); сносить полную \
серию нажатием, а не автоматически."""


#: byte translation from card codes to ranks (for the solver's keys)
_RANKS = bytes(C.RANK[c] if c < len(C.RANK) else 0 for c in range(256))


@register
class StHelenaSpider(PatienceGame):
    info = GameInfo(
        id="st_helena_spider",
        names={"en": "St Helena (Russian Spider)", "zh": "圣赫勒拿（俄式蜘蛛）",
               "ru": "Святая Елена (паук)"},
        source="002_641e09ccd4cb0ebe.txt", source_game="Святая Елена (GAMES.md §C3)",
        decks=2, kind="S-mixed", difficulty=2,
        description={
            "en": "Two-deck Spider where suits never matter: build king-to-ace runs.",
            "zh": "不论花色的双副牌蜘蛛接龙：凑成从K到A的顺子。",
            "ru": "Двухколодный паук без учёта мастей: собирайте серии от короля до туза.",
        },
        rules={"en": RULES_EN, "zh": RULES_ZH, "ru": RULES_RU},
        score_label="cards cleared",
    )
    options = (
        Option("no_deal_with_empty_column", False, help="the stock cannot be dealt while a "
               "column is empty"),
        Option("auto_remove", True, help="complete king-to-ace runs are cleared automatically "
               "(otherwise with a tap: remove:T3)"),
    )
    RULES = {
        "tableau": Rule(Build("any", -1), empty="any", take="run", many=True, name="column"),
        "foundation": Rule(take="none", empty="none", name="finished pile"),
        "stock": Rule(take="none", empty="none", name="stock"),
    }
    standard_foundations = False
    SOLVER_RESTARTS = True

    def build_layout(self) -> Iterator[PileSpec]:
        yield PileSpec("S", "stock", 0, 0)
        for i in range(8):
            yield PileSpec(f"F{i + 1}", "foundation", 2.2 + 1.1 * i, 0, label="K-A")
        for i in range(10):
            yield PileSpec(f"T{i + 1}", "tableau", 1.1 * i, 1.6, fan="down")

    def deal(self, rng: Rng) -> None:
        deck = C.deck(2)
        rng.shuffle(deck)
        for row in range(4):
            for col in self.tableau:
                self.put(col, deck.pop(), up=row == 3)
        self.init_stock(deck[::-1])

    def legal_moves(self) -> list[Move]:
        """The generic search's moves, indexed by top rank: a solver asks millions of times."""
        cards = self.cards
        moves: list[Move] = []
        self.stock_moves(moves)
        onto: dict[int, list[int]] = {}  # rank that fits -> columns
        empty: list[int] = []
        for t in self.tableau:
            if cards[t]:
                onto.setdefault(C.RANK[cards[t][-1]] - 1, []).append(t)
            else:
                empty.append(t)
        for s in self.tableau:
            pile = cards[s]
            for n in self.liftable(s) if pile else ():
                r = C.RANK[pile[-n]]
                moves.extend(Move("move", s, d, n) for d in onto.get(r, ()) if d != s)
                moves.extend(Move("move", s, d, n) for d in empty)
        self.extra_moves(moves)
        return moves

    # ------------------------------------------------------------ for the solver
    def solver_key(self) -> bytes:
        """Suits never matter here (building, moving and clearing go by rank alone), nor
        what a cleared run holds; the stock is only ever dealt from, in order, one card to
        each column, so the columns are interchangeable once it is empty."""
        cards, down = self.cards, self.down
        cols = [bytes((len(cards[t]), down[t])) + bytes(cards[t]).translate(_RANKS)
                for t in self.tableau]
        if not cards[self.stock]:
            cols.sort()
        done = sum(1 for f in self.foundations if cards[f])
        return b"".join(cols) + bytes((len(cards[self.stock]), done))

    def solver_moves(self, prune: bool = False) -> list:
        """Best first: moves that complete a king-to-ace run, that turn a card or empty a
        column, then whole runs joined onto a card one higher, moves into a space, the rest,
        dealing last. Once the stock is empty the spaces are all alike: one stands for all.

        With ``prune`` (suits never matter, so a run resting on a card one higher is as good
        there as anywhere): only a column's whole run moves, never part of it, unless that
        completes a king-to-ace run; into a space only a run that lays a card bare."""
        cards, down, rank = self.cards, self.down, C.RANK
        clear: list = []
        turn: list = []
        join: list = []
        space: list = []
        rest: list = []
        tail: list = []
        spaces_alike = not cards[self.stock]
        seen_space: set[tuple[int, int]] = set()
        for m in self.legal_moves():
            if m.kind != "move":
                (clear if m.kind == "remove" else tail).append(m)
                continue
            src, dst, n = cards[m.src], cards[m.dst], m.n
            left = len(src) - n
            whole = n == len(self.liftable(m.src))  # the column's whole run moves
            if dst and rank[src[-1]] == 1 and self._run_bottom(m.dst) + n >= RUN:
                clear.append(m)
            elif not dst:
                if spaces_alike or prune:
                    if left == 0 or (m.src, n) in seen_space:
                        continue  # the whole column, or the same run into a twin space
                    seen_space.add((m.src, n))
                if prune and not whole:
                    continue
                space.append(m)
            elif left == down[m.src]:
                turn.append(m)
            elif whole:
                join.append(m)
            elif not prune:
                rest.append(m)
        turn.sort(key=lambda m: down[m.src])  # the column nearest to empty first
        return clear + turn + join + space + rest + tail

    def _run_bottom(self, t: int) -> int:
        """How long the run of face-up cards in sequence on top of column ``t`` is."""
        pile = self.cards[t]
        return len(self.liftable(t)) if pile else 0

    # ------------------------------------------------------------ stock and runs
    def stock_moves(self, moves: list[Move]) -> None:
        if self.cards[self.stock] and not self._deal_blocked():
            moves.append(DEAL)

    def _deal_blocked(self) -> bool:
        return self.opts["no_deal_with_empty_column"] and not all(
            self.cards[t] for t in self.tableau)

    def deal_from_stock(self) -> None:
        for col in self.tableau[:len(self.cards[self.stock])]:
            self._move_cards(self.stock, col, 1)

    def complete_run(self, t: int) -> bool:
        """Whether the top 13 face-up cards of column ``t`` run from king down to ace."""
        pile = self.cards[t]
        if len(pile) - self.down[t] < RUN or C.RANK[pile[-1]] != C.ACE:
            return False
        return all(C.RANK[pile[-k]] == k for k in range(2, RUN + 1))

    def _clear(self, t: int) -> None:
        dst = next(f for f in self.foundations if not self.cards[f])
        self._move_cards(t, dst, RUN)

    def extra_moves(self, moves: list[Move]) -> None:
        if not self.opts["auto_remove"]:
            moves.extend(Move("remove", t) for t in self.tableau if self.complete_run(t))

    def apply_extra(self, move: Move) -> None:
        self._clear(move.src)

    def settle(self) -> None:
        if self.opts["auto_remove"]:
            # why: clearing a run first may leave a face-down card on top, which then turns up
            for t in self.tableau:
                if self.complete_run(t):
                    self._clear(t)
        super().settle()

    # ------------------------------------------------------------ messages
    def explain(self, move: Move) -> Reason:
        if move.kind == "deal" and self.cards[self.stock] and self._deal_blocked():
            return Reason("Fill every empty column before dealing.")
        if move.kind == "remove":
            if self.opts["auto_remove"]:
                return Reason("Complete runs are cleared automatically.")
            return Reason("Only a complete run from king down to ace on top of a column can be "
                          "cleared.")
        if move.kind == "move" and 0 <= move.dst < len(self.layout) \
                and self._role[move.dst] == "foundation":
            return Reason("Cards reach a finished pile only as a complete run from king down to "
                          "ace.")
        return super().explain(move)
