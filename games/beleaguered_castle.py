"""Beleaguered Castle (000 #23) and the base of its family (Streets and Alleys, Citadel).

Four foundations stand in a column in the middle; each has a wing of cards on its left and
on its right. Only the card at the free end of a wing moves, one at a time, down by one
regardless of suit; a space takes any card. The family differs only in the deal.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from .cards import ACE, RANK, SUIT, card
from .model import GameInfo, Move, PileSpec
from .open_patience import OpenPatience
from .patience import FOUNDATION, Build, Rule
from .registry import register
from .rng import Rng

#: x of the foundation column; left wings start at 0, right wings just right of it
FOUNDATION_X = 4.7
RIGHT_X = FOUNDATION_X + 1.2
#: the cards each card may be placed on: any card one rank higher
ONTO = tuple(tuple(suit * 13 + RANK[c] for suit in range(4)) if RANK[c] < 13 else ()
             for c in range(52))
_move = Move._make

CASTLE_PLAY_EN = """\
Play:
• Only the free card of each wing (the one nearest the foundations on the left, the outermost \
one on the right) can move, and only one card at a time.
• A free card may go to a foundation: an ace to an empty place, then the next card of the \
same suit, up to the king.
• A free card may go onto the free card of another wing that is one rank higher, whatever \
the suit or colour: any 7 on any 8.
• An empty wing may be filled with any free card.
• Cards on the foundations stay there.

End: you win when all 52 cards are on the foundations. The game is over when no card can \
move. Score: cards on the foundations.

Tips: free the low cards early, make an empty wing, and avoid long runs that bury the cards \
under them."""

CASTLE_PLAY_ZH = """\
玩法：
• 每翼只有最外面的一张暴露牌可以移动（屏幕上左翼是靠近基牌的一张，\
右翼是最右边的一张），每次只能移一张。
• 暴露牌可以移到基牌上：A放到空的基牌位上，然后按同花色从A到K递升叠放。
• 暴露牌也可以移到另一翼的暴露牌上，只要点数小一，不分花色和颜色：任何7都可以放在任何8上。
• 某一翼空了以后，可以用任何一张暴露牌补上。
• 已放到基牌上的牌不能再拿回来。

结束：52张牌全部堆到基牌上就是胜利；没有牌可以移动时游戏结束。计分：基牌上的牌数。

提示：尽快让小牌露出来，争取腾出空翼，避免形成压住其它牌的长牌列。"""

CASTLE_PLAY_RU = """\
Ход игры:
• Двигать можно только свободную карту каждого крыла (в левом крыле — ближайшую к базам, \
в правом — крайнюю справа) и только по одной карте.
• Свободную карту можно положить на базу: туза — на пустое место, затем следующие карты \
той же масти по возрастанию до короля.
• Свободную карту можно положить на свободную карту другого крыла на единицу старше, \
независимо от масти и цвета: любую 7 на любую 8.
• В пустое крыло можно положить любую свободную карту.
• Карты с баз не возвращаются.

Конец: вы выиграли, когда все 52 карты лежат на базах. Игра окончена, если ни одну карту \
нельзя передвинуть. Очки: карты на базах.

Советы: освобождайте младшие карты пораньше, старайтесь освободить крыло и не стройте \
длинных рядов, под которыми застревают нужные карты."""

BC_DEAL_EN = """\
Goal: build the four foundations up in suit from ace to king.

The deal: the four aces are taken out and put in a column in the middle; they are the \
foundations. Each ace has a wing on its left and one on its right: eight wings. The other 48 \
cards are dealt face up, one to each left wing from top to bottom, then one to each right wing, \
and so on, until every wing has 6 overlapping cards.

"""

BC_DEAL_ZH = """\
目标：在4个基牌A上，按同花色从A到K递升叠成4套。

摆牌：先拣出4张A，竖着放在中间一列作为基牌。每张A的左右各有一翼，共8翼。其余48张牌面朝上，\
先给左侧各翼由上到下各发一张，再给右侧各翼各发一张，如此交替，直到每翼有6张相互搭叠的牌。

"""

BC_DEAL_RU = """\
Цель: собрать на четырёх базах масти по возрастанию от туза до короля.

Раскладка: четыре туза вынимают и кладут столбиком посередине — это базы. У каждого туза \
есть крыло слева и крыло справа, всего восемь крыльев. Остальные 48 карт раздают открытыми: \
по одной в каждое левое крыло сверху вниз, затем в каждое правое, и так далее, пока в каждом \
крыле не окажется по 6 карт внахлёст.

"""


class CastleGame(OpenPatience):
    """The shared board: wings are tableau piles T1..T8 in reading order, left wing first.

    Left wings fan rightwards, so their free card sits next to the foundation column, like the
    inner end of a real left wing turned round; right wings fan outwards as on the table.
    """

    RULES = {
        "foundation": FOUNDATION,
        "tableau": Rule(Build("any", -1), empty="any", take="top", name="wing"),
    }
    #: take the aces out before the deal (only Beleaguered Castle itself)
    aces_out = False

    def build_layout(self) -> Iterable[PileSpec]:
        for r in range(4):
            yield PileSpec(f"F{r + 1}", "foundation", FOUNDATION_X, round(1.6 * r, 2), label="A")
        for r in range(4):
            yield PileSpec(f"T{2 * r + 1}", "tableau", 0, round(1.6 * r, 2), fan="right")
            yield PileSpec(f"T{2 * r + 2}", "tableau", RIGHT_X, round(1.6 * r, 2), fan="right")

    def round_order(self) -> list[int]:
        """One dealing round: each left wing top to bottom, then each right wing."""
        t = self.tableau
        return [t[2 * r] for r in range(4)] + [t[2 * r + 1] for r in range(4)]

    def deal_order(self) -> Iterator[int]:
        order = self.round_order()
        for _ in range(6):
            yield from order

    def deal(self, rng: Rng) -> None:
        deck = [c for c in range(52) if not (self.aces_out and RANK[c] == ACE)]
        rng.shuffle(deck)
        if self.aces_out:
            for suit, f in enumerate(self.foundations):
                self.put(f, card(ACE, suit))
        for pile in self.deal_order():
            self.put(pile, deck.pop())

    # --------------------------------------------------------------- fast move generation
    def legal_moves(self) -> list[Move]:
        """Single cards onto tops: look the wanted card up instead of trying every pair."""
        cards = self.cards
        moves: list[Move] = []
        add = moves.append
        on_top: dict[int, int] = {}
        empty: list[int] = []
        for t in self.tableau:
            if cards[t]:
                on_top[cards[t][-1]] = t
            else:
                empty.append(t)
        wanted: dict[int, int] = {}  # the next card of each foundation's suit
        free: list[int] = []
        for f in self.foundations:
            if not cards[f]:
                free.append(f)
            elif RANK[cards[f][-1]] < 13:
                wanted[cards[f][-1] + 1] = f
        for s in self.tableau:
            pile = cards[s]
            if not pile:
                continue
            c = pile[-1]
            if RANK[c] == ACE:
                for f in free:
                    add(_move(("move", s, f, 1, ())))
            elif c in wanted:
                add(_move(("move", s, wanted[c], 1, ())))
            for t in ONTO[c]:
                d = on_top.get(t)
                if d is not None:
                    add(_move(("move", s, d, 1, ())))
            if empty and len(pile) > 1:
                for d in empty:
                    add(_move(("move", s, d, 1, ())))
        return moves

    # --------------------------------------------------------------- solver hooks
    def guided(self, moves: list[Move]) -> list[Move]:
        """The order of :meth:`PatienceGame.guided` (by :meth:`solver_score` of the position
        each move leads to, ties in order), with each score worked out from the move instead
        of making it: a single card moves, so only the depths of the wanted cards in its two
        wings change (one less in the wing it leaves, one more in the wing it lands on), and
        a card sent home adds three points and makes the next card of its suit the wanted
        one. The search orders the moves at every node, so this is most of its speed."""
        cards = self.cards
        wanted = [0, 13, 26, 39]
        home = 0
        for f in self.foundations:
            pile = cards[f]
            if pile:
                home += len(pile)
                wanted[SUIT[pile[-1]]] = pile[-1] + 1 if len(pile) < 13 else -1
        out: set[int] = set()  # the wanted cards still in the wings
        count = dict.fromkeys(self.tableau, 0)  # per wing: the wanted cards in it
        depth = 0
        for w in wanted:
            if w < 0:
                continue
            for t in self.tableau:
                pile = cards[t]
                if w in pile:
                    d = len(pile) - 1 - pile.index(w)
                    out.add(w)
                    count[t] += 1
                    depth += d
                    break
        base = depth - 3 * home
        role = self._role
        scored = []
        for m in moves:
            s = m.src
            x = cards[s][-1]
            if role[m.dst] == "foundation":
                score = base - 3 - count[s] + 1  # x itself was wanted, at depth 0
                if x % 13 < 12:  # the next card up is wanted now: its depth counts
                    for t in self.tableau:
                        pile = cards[t]
                        if x + 1 in pile:
                            score += len(pile) - 1 - pile.index(x + 1) - (t == s)
                            break
            else:
                score = base - count[s] + (x in out) + count.get(m.dst, 0)
            scored.append(score)
        order = sorted(range(len(moves)), key=scored.__getitem__)
        return [moves[i] for i in order]


@register
class BeleagueredCastle(CastleGame):
    info = GameInfo(
        id="beleaguered_castle",
        names={"en": "Beleaguered Castle", "zh": "围城", "ru": "Осаждённая крепость"},
        source="000_5c0014aada07c9b6.txt", source_game="23",
        decks=1, kind="S-open", difficulty=3,
        description={
            "en": "Aces in the middle, eight open wings around them: lay siege card by card.",
            "zh": "A居中，八翼明牌环绕，一张一张攻下城池。",
            "ru": "Тузы посередине, вокруг восемь открытых крыльев: "
                  "берите крепость карта за картой.",
        },
        rules={"en": BC_DEAL_EN + CASTLE_PLAY_EN, "zh": BC_DEAL_ZH + CASTLE_PLAY_ZH,
               "ru": BC_DEAL_RU + CASTLE_PLAY_RU},
    )
    aces_out = True
