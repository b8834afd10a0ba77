"""Scorpion (000 #21): build each suit from king to ace inside the columns themselves.

Any face-up card may be lifted with everything lying on it, in whatever order, onto the next
card up of its suit; so the only card a column top accepts is known in advance, and move
generation looks cards up instead of trying every pair. There are no foundations: success is
counted in complete K→A sequences, which the source grades from "pass" to a total win.
"""

from __future__ import annotations

from collections.abc import Iterable

from .cards import KING, RANK
from .model import GameInfo, Move, Option, PileSpec
from .patience import Build, PatienceGame, Rule
from .reason import Reason
from .registry import register
from .rng import Rng

DEAL = Move("deal")
GRADES = (None, "pass", "good", "excellent", "win")

RULES_EN = """\
Goal: inside the columns, build the thirteen cards of each suit in one unbroken sequence from \
king down to ace. There are no foundations: the sequences stay in the columns.

The deal: 49 cards in 7 columns of 7. In the first three rows the first four cards are face \
down, so columns 1 to 4 hold 3 face-down cards under 4 face-up ones and columns 5 to 7 are all \
face up. The last 3 cards lie face down as a reserve.

Play:
• Any face-up card may be moved, together with every card lying on it in whatever order, onto \
the top card of another column that is of the same suit and one rank higher: the 8 of hearts \
(and all above it) onto the 9 of hearts.
• Nothing may be placed on an ace.
• A face-down card left on top of a column turns over by itself.
• An empty column takes only a king, moved with everything on it; it may stay empty.
• Reserve: once, tap the reserve to deal its 3 cards face up, one onto each of columns 1, 2 \
and 3 (an empty column simply receives its card).

End: you win when all four suits stand complete; otherwise the game ends when no move is \
left. A complete sequence is the 13 cards of one suit from \
king to ace, face up and in order, within one column. Grading: 1 sequence = pass, 2 = good, \
3 = excellent, 4 = total win. Score: complete sequences.

Option: "reserve deal" chooses when the reserve may be dealt: at any time (the default, as the \
book's own advice suggests) or only when no other move is left (as the book tells the game)."""

RULES_ZH = """\
目标：以K为基牌，在场牌各行内把每种花色的13张牌按同花色从K到A递降连成一列。不另设基牌位，牌列就留在场牌里。

摆牌：49张牌摆成7排7行。第1、2、3排从左数的前4张面朝下，其余都面朝上：第1至4行是3张扣牌上压4张亮牌，\
第5至7行全部亮开。剩下3张面朝下放在一旁作为备用牌。

玩法：
• 任何一张亮开的牌，都可以连同压在它上面的所有牌（不管顺序如何）一起，移到另一行最下面的暴露牌上，\
条件是暴露牌与它同花色、点数大一：如红桃8（连同其上的牌）移到红桃9上。
• A最小，任何牌都不能放到A上。
• 扣着的牌成为一行的最下一张时自动翻开。
• 空行只能放K（连同其上的牌一起移过去），也可以暂时空着。
• 备用牌：只有一次，点击备用牌把3张翻开，分别放到第1、2、3行的最下面（空行就直接放进去）。

结束：4种花色都完成就大获全胜；否则，没有牌可以移动时游戏结束。一个完整牌列是同一行中同一花色从K到A依次相连的13张亮牌。\
评级：完成1列为合格，2列良好，3列优秀，4列大获全胜。计分：完整牌列数。

选项：“备用牌发放”决定何时可以发备用牌：随时（默认，书中的提示也这样建议）或只有在别无可走时（书中叙述的顺序）。"""

RULES_RU = """\
Цель: прямо в столбцах выстроить все тринадцать карт каждой масти одной непрерывной серией от \
короля до туза. Баз нет: серии остаются в столбцах.

Раскладка: 49 карт в 7 столбцов по 7. В первых трёх рядах первые четыре карты лежат рубашкой \
вверх, так что в столбцах 1–4 под 4 открытыми картами лежат 3 закрытые, а столбцы 5–7 открыты \
целиком. Последние 3 карты лежат закрытыми в резерве.

Ход игры:
• Любую открытую карту можно перенести вместе со всеми картами, лежащими на ней (в любом \
порядке), на верхнюю карту другого столбца той же масти и на единицу старше: 8 червей (и всё, \
что на ней) на 9 червей.
• На туза ничего класть нельзя.
• Закрытая карта, оказавшаяся наверху столбца, открывается сама.
• В пустой столбец можно перенести только короля вместе со всем, что на нём; столбец может и \
оставаться пустым.
• Резерв: один раз нажмите на резерв — его 3 карты откроются и лягут по одной на столбцы 1, 2 \
и 3 (в пустой столбец карта просто кладётся).

Конец: вы выиграли, когда собраны все четыре масти; иначе игра заканчивается, когда ходов \
больше нет. Полная серия — 13 карт одной масти от \
короля до туза, открытые и по порядку, в одном столбце. Оценка: 1 серия — зачёт, 2 — хорошо, \
3 — отлично, 4 — полная победа. Очки: число полных серий.

Вариант: «сдача резерва» — когда можно сдать резерв: в любой момент (по умолчанию, как \
советует сама книга) или только когда других ходов нет (как описана игра в книге)."""


@register
class Scorpion(PatienceGame):
    info = GameInfo(
        id="scorpion",
        names={"en": "Scorpion", "zh": "蝎子", "ru": "Скорпион"},
        source="000_5c0014aada07c9b6.txt", source_game="21",
        decks=1, kind="S-mixed", difficulty=4,
        description={
            "en": "Move any card with everything on it; build each suit from king to ace.",
            "zh": "任何亮牌都能连同其上的牌一起移动，在场牌中从K到A叠成同花色牌列。",
            "ru": "Переносите любую карту со всем, что на ней; собирайте масти от короля до туза.",
        },
        rules={"en": RULES_EN, "zh": RULES_ZH, "ru": RULES_RU},
        score_label="complete K→A sequences",
    )
    SOLVER_PRUNES = False  # see solver_moves: one complete pass
    options = (
        Option("reserve_deal", "any_time", ("any_time", "when_stuck"),
               "when the 3 reserve cards may be dealt"),
    )
    RULES = {"tableau": Rule(Build("same", -1), empty="king", take="any_up", many=True,
                             name="column")}

    def build_layout(self) -> Iterable[PileSpec]:
        yield PileSpec("S", "stock", 0, 0)
        for i in range(7):
            x = round(1.4 + 1.2 * i, 2)
            yield PileSpec(f"T{i + 1}", "tableau", x, 0, fan="down", label="K")

    def deal(self, rng: Rng) -> None:
        deck = list(range(52))
        rng.shuffle(deck)
        for row in range(7):
            for col, t in enumerate(self.tableau):
                self.put(t, deck.pop(), up=row >= 3 or col >= 4)
        for c in deck:
            self.put(self.stock, c, up=False)

    # ------------------------------------------------------------------ moves
    def symmetric_groups(self) -> tuple[tuple[int, ...], ...]:
        """Columns 1-3 differ from the rest only while the reserve waits to be dealt."""
        return (tuple(self.tableau[3:] if self.cards[self.stock] else self.tableau),)

    def solver_key(self) -> bytes:
        """Like :meth:`symmetric_groups`: columns 4-7 (all seven once dealt) as a sorted set."""
        cards, down = self.cards, self.down
        cols = [bytes((down[t],)) + bytes(cards[t]) for t in self.tableau]
        fixed = 3 if cards[self.stock] else 0
        return b"\xff".join(cols[:fixed] + sorted(cols[fixed:])) + bytes((fixed,))

    def solver_moves(self, prune: bool = False) -> list[Move]:
        """No pruning (without foundations, building a suit is exactly what it would drop), but
        one empty column of the interchangeable ones stands for all of them."""
        cards = self.cards
        fixed = self.tableau[:3] if cards[self.stock] else ()
        seen: set[int] = set()
        kept = []
        for m in super().solver_moves(False):
            if m.kind == "move" and not cards[m.dst] and m.dst not in fixed:
                if m.src in seen:
                    continue
                seen.add(m.src)
            kept.append(m)
        return kept

    def solver_hopeless(self) -> bool:
        """Some card can never move while it lies out of place (or over face-down cards).

        A card moves by itself only onto the next card up of its suit when that card is on
        top, or (a king not at the bottom) into a space; otherwise it is carried by a card
        under it. So, starting from nothing, a card is marked *movable* when it is a king
        above the bottom of its column and a space may come (a column is empty, or some
        column's bottom card is movable), when a card under it is movable, or when its next
        card up is in the reserve or lies (not under it) with only movable cards on it,
        and it is face up or the card on it is movable; until nothing changes. The others can never move. At the end every card is face up
        and (kings aside) lies on its next card up: an unmovable card that does not, or a
        face-down card with an unmovable card on it, means the game is lost.
        """
        cards, down = self.cards, self.down
        cols = self.tableau
        where: dict[int, tuple[int, int]] = {}
        for t in cols:
            for i, x in enumerate(cards[t]):
                where[x] = (t, i)
        low = {t: len(cards[t]) for t in cols}  # per column: the lowest movable card
        # a space can come only from a column whose bottom card can go
        space = any(not cards[t] for t in cols)
        changed = True
        while changed:
            changed = False
            for t in cols:
                pile = cards[t]
                for i in range(low[t]):
                    if i < down[t] and i + 1 < low[t]:
                        continue  # face down under a card that stays: it cannot move
                    x = pile[i]
                    if RANK[x] == KING:
                        if not i or not space:
                            continue
                    else:
                        at = where.get(x + 1)
                        if at is not None and ((at[0] == t and at[1] < i)
                                               or at[1] + 1 < low[at[0]]):
                            continue
                    low[t] = i
                    if not i:
                        space = True
                    changed = True
                    break
        for t in cols:
            pile = cards[t]
            for i in range(low[t]):
                x = pile[i]
                if RANK[x] != KING and (not i or pile[i - 1] != x + 1):
                    return True
                if i < down[t] and i + 1 < low[t]:
                    return True
        return False

    def legal_moves(self) -> list[Move]:
        cards, down = self.cards, self.down
        on_top: dict[int, int] = {}
        empty: list[int] = []
        for t in self.tableau:
            col = cards[t]
            if not col:
                empty.append(t)
            elif down[t] < len(col):
                on_top[col[-1]] = t
        moves: list[Move] = []
        for s in self.tableau:
            col = cards[s]
            size = len(col)
            for k in range(down[s], size):
                c = col[k]
                if RANK[c] == KING:
                    if k:  # a king already at the bottom gains nothing from an empty column
                        moves.extend(Move("move", s, d, size - k) for d in empty)
                else:
                    d = on_top.get(c + 1)  # the next card up in the same suit
                    if d is not None and d != s:
                        moves.append(Move("move", s, d, size - k))
        if self.cards[self.stock] and (self.opts["reserve_deal"] == "any_time" or not moves):
            moves.append(DEAL)
        return moves

    def stock_moves(self, moves: list[Move]) -> None:
        """The reserve is dealt by :meth:`legal_moves` itself; there is no waste."""

    def accepts(self, d: int, s: int, n: int) -> bool:
        if n == len(self.cards[s]) and not self.cards[d]:
            return False
        return super().accepts(d, s, n)

    def deal_from_stock(self) -> None:
        for t in self.tableau[:3]:
            if not self.cards[self.stock]:
                break
            self._move_cards(self.stock, t)

    # ------------------------------------------------------------------ results
    @property
    def sequences(self) -> int:
        """Complete K→A runs of one suit, face up and contiguous within a column."""
        found = 0
        for t in self.tableau:
            col = self.cards[t]
            for k in range(self.down[t], len(col) - 12):
                c = col[k]
                if RANK[c] == KING and col[k:k + 13] == list(range(c, c - 13, -1)):
                    found += 1
        return found

    @property
    def won(self) -> bool:
        return self.sequences == 4

    @property
    def score(self) -> int:
        return self.sequences

    @property
    def grade(self) -> str | None:
        return GRADES[self.sequences]

    def explain(self, move: Move) -> Reason:
        if move.kind == "deal":
            if not self.cards[self.stock]:
                return Reason("The reserve has already been dealt.")
            return Reason("The reserve may be dealt only when no other move is left.")
        if move.kind == "redeal":
            return Reason("Scorpion has no redeal.")
        return super().explain(move)

    def explain_card_move(self, s: int, d: int, n: int) -> Reason:
        size = len(self.layout)
        if 0 <= s < size and self.layout[s].role == "stock":
            return Reason("Tap the reserve to deal its cards onto the first three columns.")
        if 0 <= d < size and self.layout[d].role == "stock":
            return Reason("Cards cannot be put back on the reserve.")
        if (0 <= s < size and 0 <= d < size and s != d and self.cards[s]
                and n == len(self.cards[s]) and n in self.liftable(s)
                and super().accepts(d, s, n)):
            return Reason("Moving a whole column into an empty one would change nothing.")
        return super().explain_card_move(s, d, n)
