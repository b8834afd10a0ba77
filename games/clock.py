"""Clock (000 #22, 001 #6): each turned card goes to its hour; finish before the fourth king."""

from __future__ import annotations

from collections.abc import Iterable

from .cards import RANK
from .engine import Game
from .model import GameInfo, Move, Option, PileSpec
from .reason import Reason
from .registry import register
from .rng import Rng

#: top-left corners of the twelve hours (1..12), then the centre: an ellipse of card slots
#: spaced so that no two piles overlap within a 9 x 6.5 card area
POSITIONS = (
    (6.0, 0.35), (7.4, 0.95), (7.9, 2.55), (7.4, 4.15), (6.0, 4.75), (4.5, 5.1),
    (3.0, 4.75), (1.6, 4.15), (1.1, 2.55), (1.6, 0.95), (3.0, 0.35), (4.5, 0.0),
    (4.5, 2.55),
)
LABELS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
HOUR_WORDS = ("1 o'clock", "2 o'clock", "3 o'clock", "4 o'clock", "5 o'clock", "6 o'clock",
              "7 o'clock", "8 o'clock", "9 o'clock", "10 o'clock", "11 o'clock",
              "12 o'clock", "centre")

RULES_EN = """\
Goal: turn every card face up, each on its own hour, before the fourth king shows.

The deal: 13 face-down piles of four cards. Twelve stand at the hours of a clock face, the \
thirteenth in the centre. Ace is 1 o'clock, 2 to 10 their own hours, jack 11 and queen 12 \
o'clock; kings belong in the centre.

Play (no decisions, tap to go on):
• Turn the top face-down card of the centre pile.
• The card goes face up onto the pile of its hour (a king to the centre).
• Then turn the next face-down card of that pile, and so on.

End: play stops when the pile you must draw from has no face-down card left; this can only \
happen in the centre, when the fourth king comes up. You win if every card is face up by \
then: all 13 groups of four complete.

Options:
• Watch: once, when the fourth king comes up while cards are still face down, you may swap \
it with any face-down card you choose. That card is turned up and play goes on with it; the \
king takes its place face down, and the game ends when the king comes up again.
• Draw from the bottom (book 001): the face-down card is taken from the bottom of the pile \
instead of the top, and the cards are dealt round the clock one at a time. The chances are \
the same.

Score (higher is better): completed groups of four; 13 is a win. Players can compare this \
on the same deal number."""

RULES_ZH = """\
目标：在第4张K出现之前，把所有牌都翻开，每张放到自己的钟点上。

摆牌：52张牌分成13组，每组4张面朝下。12组摆在时钟的12个钟点位置，第13组放在中央。\
A是1点，2到10是各自的钟点，J是11点，Q是12点；K属于中央。

玩法（无需选择，点击继续）：
• 翻开中央一组最上面的一张面朝下的牌。
• 把它正面朝上放到与它点数相同的钟点那组（K放到中央）。
• 再翻开那一组的下一张面朝下的牌，依此类推。

结束：要翻牌的那一组已经没有面朝下的牌时游戏停止；这只会发生在中央，即第4张K出现时。\
如果这时所有牌都已翻开，13组都凑齐4张，你就成功了。

选项：
• 手表（Watch）：第4张K出现而还有面朝下的牌时，可以用这张K和你任选的一张面朝下的牌对换\
一次。换出的牌翻开并继续游戏；K面朝下放在它的位置上，再次翻到这张K时游戏结束。
• 从底部取牌（第二本书的玩法）：面朝下的牌从一组的最底下取，而不是从最上面取，发牌时按\
钟点逐张轮流发。成功的机会相同。

计分（越高越好）：凑齐4张的组数；13组即为胜利。几个人用同一副牌号比赛时，可以比较组数。"""

RULES_RU = """\
Цель: открыть все карты, каждую на своём часе, прежде чем появится четвёртый король.

Раскладка: 13 закрытых стопок по четыре карты. Двенадцать стоят на часах циферблата, \
тринадцатая — в центре. Туз — 1 час, 2–10 — свои часы, валет — 11, дама — 12 часов; короли \
идут в центр.

Ход игры (решений нет, нажимайте, чтобы продолжить):
• Откройте верхнюю закрытую карту центральной стопки.
• Карта кладётся открытой на стопку своего часа (король — в центр).
• Затем открывается следующая закрытая карта этой стопки, и так далее.

Конец: игра останавливается, когда в стопке, из которой нужно брать, не осталось закрытых \
карт; это бывает только в центре, когда выходит четвёртый король. Вы выиграли, если к этому \
моменту открыты все карты: все 13 групп по четыре собраны.

Варианты:
• «Часики» (Watch): один раз, когда четвёртый король выходит, а закрытые карты ещё есть, его \
можно обменять на любую закрытую карту по вашему выбору. Эта карта открывается, и игра идёт \
дальше с неё; король ложится на её место рубашкой вверх, и игра кончается, когда он выйдет \
снова.
• Брать снизу (книга 001): закрытая карта берётся снизу стопки, а не сверху, а карты \
раздаются по кругу по одной. Шансы те же.

Очки (чем больше, тем лучше): собранные группы по четыре; 13 — выигрыш. Игроки могут \
сравнивать их на одном и том же номере расклада."""


@register
class Clock(Game):
    info = GameInfo(
        id="clock",
        names={"en": "Clock", "zh": "时钟", "ru": "Часы"},
        source="000_5c0014aada07c9b6.txt", source_game="22",
        decks=1, kind="S-auto", difficulty=1,
        description={"en": "Send each card to its hour before the fourth king turns up.",
                     "zh": "把每张牌送到它的钟点上，赶在第四张K出现之前。",
                     "ru": "Разложите карты по часам, пока не вышел четвёртый король."},
        rules={"en": RULES_EN, "zh": RULES_ZH, "ru": RULES_RU},
        score_label="completed groups", score_better="higher",
    )
    options = (
        Option("watch", False, help="once, swap the fourth king with a face-down card"),
        Option("draw", "top", ("top", "bottom"),
               "take the next card from the top of a pile (book 000) or the bottom (book 001)"),
    )

    def build_layout(self) -> Iterable[PileSpec]:
        for i, (x, y) in enumerate(POSITIONS):
            yield PileSpec(f"T{i + 1}", "tableau", x, y, label=LABELS[i], autoflip=False)

    def prepare(self) -> None:
        self.piles = self.roles["tableau"]
        #: the pile each rank goes to: hours 1..12, kings to the centre
        self.home = (-1, *self.piles)
        self.centre = self.piles[12]
        self.from_top = self.opts["draw"] == "top"

    def deal(self, rng: Rng) -> None:
        deck = list(range(52))
        rng.shuffle(deck)
        if self.from_top:
            order = [p for p in self.piles for _ in range(4)]
        else:
            order = [p for _ in range(4) for p in self.piles]
        for p in order:
            self.put(p, deck.pop(), up=False)
        self.vars["at"] = self.centre
        self.vars["swapped"] = False

    def next_index(self, pile: int, k: int = 1) -> int:
        """Where in a pile the ``k``-th face-down card to be drawn lies."""
        return self.down[pile] - k if self.from_top else k - 1

    # ------------------------------------------------------------------ moves
    def legal_moves(self) -> list[Move]:
        at = self.vars["at"]
        if self.down[at]:
            return [Move("turn", at)]
        if not self.opts["watch"] or self.vars["swapped"]:
            return []
        # the deepest card first: a king put there comes up last
        return [Move("swap", p, -1, k) for p in self.piles for k in range(self.down[p], 0, -1)]

    def apply(self, move: Move) -> None:
        p = move.src
        i = self.next_index(p, move.n)
        c = self.cards[p][i]
        if move.kind == "swap":
            king = self.cards[self.centre][-1]
            self._replace(self.centre, self.cards[self.centre][:-1], 0)
            self._replace(p, self.cards[p][:i] + [king] + self.cards[p][i + 1:], self.down[p])
            self._set("swapped", True)
        else:
            self._replace(p, self.cards[p][:i] + self.cards[p][i + 1:], self.down[p] - 1)
        t = self.home[RANK[c]]
        self._replace(t, self.cards[t] + [c], self.down[t])
        self._set("at", t)

    @property
    def won(self) -> bool:
        return not any(self.down)

    @property
    def score(self) -> int:
        return sum(1 for p in self.piles if len(self.cards[p]) - self.down[p] == 4)

    @property
    def grade(self) -> str | None:
        if self.won or self.legal_moves():
            return None
        return f"{self.score} of 13 groups"

    def explain(self, move: Move) -> Reason:
        at = self.vars["at"]
        hour = self.piles.index(at) + 1
        if move.kind == "turn":
            if not self.down[at]:
                return Reason("There is no face-down card left to turn: the game is over.")
            return self._at(Reason("The next card must come from the {n} o'clock pile.", n=hour),
                            Reason("The next card must come from the centre pile."))
        if move.kind == "swap":
            if not self.opts["watch"]:
                return Reason("Swapping the last king is allowed only in the Watch variant.")
            if self.vars["swapped"]:
                return Reason("The king has already been swapped once.")
            if self.down[at]:
                return Reason("A king may be swapped only when the fourth king has come up.")
            if move.src not in self.piles or not 1 <= move.n <= self.down[move.src]:
                return Reason("Choose a face-down card to swap with the king.")
        if self.down[at]:
            return self._at(Reason("The cards move by themselves in Clock: tap the {n} o'clock "
                                   "pile to turn its next card.", n=hour),
                            Reason("The cards move by themselves in Clock: tap the centre pile "
                                   "to turn its next card."))
        if at == self.centre:
            return Reason("The game is over: the fourth king has come up.")
        return self._at(Reason("The game is over: the {n} o'clock pile has no face-down card "
                               "left.", n=hour),
                        Reason("The game is over: the centre pile has no face-down card left."))

    def _at(self, hour: Reason, centre: Reason) -> Reason:
        """The sentence naming the current pile: an hour, or the centre (the kings' pile)."""
        return centre if self.vars["at"] == self.centre else hour
