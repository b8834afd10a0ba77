"""Bisley (000 #19, "上下同花"): thirteen open columns, aces building up and kings building down.

Each suit has two foundations that grow towards each other: the ace pile up, the king pile
down. Where they meet the suit is complete and the king pile is laid onto the ace pile, as the
source describes (automatic; it changes nothing in play).
"""

from __future__ import annotations

from collections.abc import Iterable

from .cards import ACE, KING, RANK, SUIT, card
from .model import GameInfo, Move, PileSpec
from .patience import Build, PatienceGame, Rule
from .reason import Card, Reason
from .registry import register
from .rng import Rng

ACE_PILE = Rule(Build("same", +1), empty="none", take="none", name="ace foundation")
KING_PILE = Rule(Build("same", -1), empty="king", take="none", name="king foundation")
COLUMN = Rule(Build("same", 0), empty="none", take="top", name="column")

_move = Move._make
#: x of the tableau and the pitch between its columns (two rows of columns fit the screen)
TX, PITCH = 2.45, 1.15

RULES_EN = """\
Goal: put all 52 cards on the foundations. Each suit has two: its ace pile, built up, and its \
king pile, built down.

The deal: the four aces are taken out and put at the left, one per suit; beside each ace is an \
empty place for the king of the same suit. The other 48 cards are dealt face up into 13 columns: \
the first four columns get 3 cards, the other nine get 4.

Play:
• Only the top card of each column can move, one card at a time.
• A king goes to the empty king place of its suit.
• Ace piles are built up in suit (2, 3, 4 ...); king piles are built down in suit (Q, J, 10 ...).
• On the columns, a card goes on a card of the same suit one rank higher or one rank lower: \
the 6 of spades on the 7 or on the 5 of spades. You may change direction whenever you like.
• An empty column is never filled again.
• Cards on the foundations stay there.
• When a suit's two piles meet (say the ace pile reaches 7 and the king pile 8), the suit is \
complete and the king pile is laid onto the ace pile by itself.

End: you win when all 52 cards are on the foundations. The game is over when nothing can move.
Score: cards on the foundations."""

RULES_ZH = """\
目标：把52张牌全部移到基牌上。每种花色有两个基牌：A上按递升顺序叠放，K上按递降顺序叠放。

摆牌：先拣出4张A，每种花色一张，放在左侧；每张A旁边留出一个空位，放同花色的K。其余48张亮开摆成13行：\
前4行每行3张，其余9行每行4张。

玩法：
• 只有各行最下面的一张牌可以移动，每次一张。
• K可以移到同花色的K基牌空位上。
• A基牌按同花色递升叠放（2、3、4……）；K基牌按同花色递降叠放（Q、J、10……）。
• 场牌上可以按同花色、点数大一或小一相接：黑桃6可以接在黑桃7上，也可以接在黑桃5上。\
递升还是递降可以随时改变。
• 出现空行时不再补牌。
• 已放到基牌上的牌不能再拿回来。
• 同一花色的两个基牌相遇时（比如A上叠到7，K上叠到8），这一花色就完成了，K上的牌自动合到A上。

结束：52张牌全部堆到基牌上就是胜利；没有牌可以移动时游戏结束。
计分：基牌上的牌数。"""

RULES_RU = """\
Цель: переложить все 52 карты на базы. У каждой масти их две: тузовая, которая растёт вверх, \
и королевская, которая растёт вниз.

Раскладка: четыре туза вынимают и кладут слева, по одному каждой масти; рядом с каждым тузом \
пустое место для короля той же масти. Остальные 48 карт раздают открыто в 13 столбцов: в \
первых четырёх по 3 карты, в остальных девяти по 4.

Ход игры:
• Двигать можно только верхнюю карту столбца, по одной.
• Короля кладут на пустое королевское место его масти.
• Тузовые базы собираются по масти вверх (2, 3, 4…), королевские — по масти вниз (Д, В, 10…).
• В столбцах карту кладут на карту той же масти на единицу старше или младше: 6 пик на 7 или \
на 5 пик. Направление можно менять когда угодно.
• Пустой столбец больше не заполняется.
• Карты с баз не возвращаются.
• Когда две базы одной масти встречаются (скажем, тузовая дошла до 7, а королевская до 8), масть \
собрана, и королевская стопка сама ложится на тузовую.

Конец: вы выиграли, когда все 52 карты на базах. Игра окончена, если ходов больше нет.
Очки: карты на базах."""


@register
class Bisley(PatienceGame):
    info = GameInfo(
        id="bisley",
        names={"en": "Bisley", "zh": "上下同花（方阵通关）", "ru": "Бисли"},
        source="000_5c0014aada07c9b6.txt", source_game="19",
        decks=1, kind="S-open", difficulty=2,
        description={
            "en": "Thirteen open columns; each suit grows up from its ace and down from its king.",
            "zh": "十三行明牌，每种花色从A往上、从K往下同时叠放。",
            "ru": "Тринадцать открытых столбцов; масти растут вверх от туза и вниз от короля.",
        },
        rules={"en": RULES_EN, "zh": RULES_ZH, "ru": RULES_RU},
    )
    standard_foundations = False

    def build_layout(self) -> Iterable[PileSpec]:
        for suit in range(4):
            yield PileSpec(f"F{suit + 1}", "foundation", 0, round(1.6 * suit, 2), label="A")
        for suit in range(4):
            yield PileSpec(f"F{suit + 5}", "foundation", PITCH, round(1.6 * suit, 2), label="K")
        for i in range(13):
            row, col = divmod(i, 7)
            yield PileSpec(f"T{i + 1}", "tableau", round(TX + PITCH * col, 2), 3.2 * row,
                           fan="down")

    def rule_for(self, index: int, spec: PileSpec) -> Rule:
        if spec.role == "foundation":
            return ACE_PILE if spec.label == "A" else KING_PILE
        return COLUMN

    def prepare(self) -> None:
        super().prepare()
        self.ace_piles = self.foundations[:4]
        self.king_piles = self.foundations[4:]
        #: the suit each foundation belongs to
        self.suit_of = {f: i % 4 for i, f in enumerate(self.foundations)}

    def deal(self, rng: Rng) -> None:
        for suit, f in enumerate(self.ace_piles):
            self.put(f, card(ACE, suit))
        deck = [c for c in range(52) if RANK[c] != ACE]
        rng.shuffle(deck)
        for t in self.tableau[4:]:
            self.put(t, deck.pop())
        for _ in range(3):
            for t in self.tableau:
                self.put(t, deck.pop())

    def empty_accepts(self, d: int, c: int) -> bool:
        if self.rule[d] is KING_PILE:
            return RANK[c] == KING and SUIT[c] == self.suit_of[d]
        return super().empty_accepts(d, c)

    def symmetric_groups(self) -> tuple[tuple[int, ...], ...]:
        return (tuple(self.tableau),)

    def solver_key(self) -> bytes:
        """Columns as a sorted set; each foundation is known by its size."""
        cards = self.cards
        sizes = bytes(len(cards[f]) for f in self.foundations)
        return b"\xff".join(sorted(bytes(cards[t]) for t in self.tableau)) + b"\xfe" + sizes

    def settle(self) -> None:
        """Lay a king pile onto its ace pile once they meet; nothing is ever face down."""
        cards = self.cards
        for a, k in zip(self.ace_piles, self.king_piles, strict=True):
            kp = cards[k]
            if kp and RANK[cards[a][-1]] + 1 == RANK[kp[-1]]:
                self._move_cards(k, a, len(kp), reverse=True)

    # --------------------------------------------------------------- fast move generation
    def legal_moves(self) -> list[Move]:
        """Single cards: the cards a top takes are known, so look them up."""
        cards = self.cards
        moves: list[Move] = []
        on_top = {cards[t][-1]: t for t in self.tableau if cards[t]}
        up: dict[int, int] = {}
        down: dict[int, int] = {}
        for suit in range(4):
            a, k = self.ace_piles[suit], self.king_piles[suit]
            if RANK[cards[a][-1]] < KING:
                up[cards[a][-1] + 1] = a
            if not cards[k]:
                down[card(KING, suit)] = k
            elif RANK[cards[k][-1]] > ACE:
                down[cards[k][-1] - 1] = k
        for s in self.tableau:
            pile = cards[s]
            if not pile:
                continue
            c = pile[-1]
            r = RANK[c]
            if c in up:
                moves.append(_move(("move", s, up[c], 1, ())))
            if c in down:
                moves.append(_move(("move", s, down[c], 1, ())))
            if r < KING and c + 1 in on_top:
                moves.append(_move(("move", s, on_top[c + 1], 1, ())))
            if r > ACE and c - 1 in on_top:
                moves.append(_move(("move", s, on_top[c - 1], 1, ())))
        return moves

    def safe_autoplay(self) -> Move | None:
        """Any foundation move: whatever could be built on the card can follow it there."""
        for m in self.legal_moves():
            if self._role[m.dst] == "foundation":
                return m
        return None

    def explain_card_move(self, s: int, d: int, n: int) -> Reason:
        size = len(self.layout)
        if (0 <= s < size and d in self.king_piles and not self.cards[d] and self.cards[s]
                and self.rule[s].take != "none" and n == 1):
            c = self.cards[s][-1]
            if not self.empty_accepts(d, c):
                return Reason("Only the {card:name} can start this pile.",
                              card=Card(card(KING, self.suit_of[d])))
        return super().explain_card_move(s, d, n)
