"""Klondike (000 #15): seven columns, build down in alternating colours, kings to spaces."""

from __future__ import annotations

from .cards import RANK
from .model import GameInfo, Move, Option, PileSpec
from .patience import DEAL, FOUNDATION, REDEAL, Build, PatienceGame, Rule, roles
from .registry import register

VARIANTS = ("standard", "easy", "alt_colour_foundations", "open_same_colour")

RULES_EN = """\
Goal: move all 52 cards to the four foundations, each built up in one suit from ace to king.

The deal: seven columns; column 1 has 1 card, column 7 has 7. Only the top card of each column \
is face up. The other 24 cards form the stock.

Play:
• On the columns, build down in alternating colours: a red 7 on a black 8.
• You may move a face-up card together with all the cards on it, if they are in sequence.
• Only a king (or a run headed by a king) can go into an empty column.
• A face-down card left on top of a column turns over by itself.
• Tap the stock to turn one card onto the waste; its top card can be played.
• When the stock is used up it is not turned over again (one pass).
• A card on a foundation may be taken back onto a column.

Options: draw three cards at a time with two or unlimited redeals; "easy" (build regardless \
of colour, any card into a space); alternating-colour foundations (draw 3, the waste is \
shuffled, 3 passes); and "open" (all cards face up, build in the same colour, only runs of \
one suit move together). Score: cards on the foundations; a match of five games adds them up."""

RULES_ZH = """\
目标：把52张牌全部移到4个基础堆上，每堆同花色从A依次叠到K。

发牌：7列，第1列1张，第7列7张，每列只有最上面一张正面朝上。其余24张为手牌（牌库）。

玩法：
• 在各列上按红黑相间、点数递减叠放：如红7放在黑8上。
• 正面朝上且已连成顺序的一组牌可以整组移动。
• 空列只能放K（或以K开头的一组牌）。
• 列顶的背面牌会自动翻开。
• 点击牌库翻一张到废牌堆，废牌堆顶牌可以使用。
• 牌库翻完后不再重翻（只过一遍）。
• 基础堆顶牌可以移回各列。

选项：一次翻3张，可重翻2次或不限；"简易"（不论颜色叠放，空列可放任何牌）；基础堆红黑相间（翻3张，废牌洗后重用，共3遍）；"明牌"（全部正面朝上，同色递减，只有同花色的连牌才能整组移动）。计分：基础堆上的牌数；5局比赛累计。"""

RULES_RU = """\
Цель: переложить все 52 карты в четыре базовые стопки, каждую по одной масти от туза до короля.

Раскладка: семь столбцов, в первом 1 карта, в седьмом 7. Открыта только верхняя карта \
каждого столбца. Остальные 24 карты — колода.

Ход игры:
• В столбцах кладите карты по убыванию, чередуя цвет: красную 7 на чёрную 8.
• Открытую карту можно перенести вместе со всеми картами на ней, если они идут по порядку.
• В пустой столбец можно положить только короля (или серию, начинающуюся с короля).
• Закрытая карта наверху столбца открывается сама.
• Нажмите на колоду, чтобы открыть одну карту в отбой; верхнюю карту отбоя можно играть.
• Колода проходится один раз.
• Карту с базовой стопки можно вернуть в столбец.

Варианты: сдача по три карты с двумя или неограниченными пересдачами; «лёгкий» (любой цвет, \
в пустой столбец любая карта); базы с чередованием цвета (по три, отбой тасуется, 3 прохода); \
«открытый» (все карты открыты, одинаковый цвет, вместе переносятся только серии одной масти). \
Очки: карты на базах; матч из пяти партий их складывает."""


@register
class Klondike(PatienceGame):
    info = GameInfo(
        id="klondike",
        names={"en": "Klondike", "zh": "克朗代克（梯阵通关）", "ru": "Клондайк"},
        source="000_5c0014aada07c9b6.txt", source_game="15",
        decks=1, kind="S-mixed", difficulty=2,
        description={"en": "The classic solitaire: seven columns, red on black.",
                     "zh": "最经典的接龙：七列牌，红黑相间。",
                     "ru": "Классический пасьянс: семь столбцов, красное на чёрное."},
        rules={"en": RULES_EN, "zh": RULES_ZH, "ru": RULES_RU},
    )
    options = (
        Option("draw", 1, (1, 3), "cards turned from the stock at a time"),
        Option("redeals", 0, (0, 1, 2, -1), "times the waste may be turned over (-1: unlimited)"),
        Option("variant", "standard", VARIANTS, "rule variant from the source"),
    )

    def prepare(self) -> None:
        variant = self.opts["variant"]
        self.draw = self.opts["draw"]
        self.redeals = self.opts["redeals"]
        self.shuffle_redeal = False
        if variant == "alt_colour_foundations":
            self.draw, self.redeals, self.shuffle_redeal = 3, 2, True
            self.standard_foundations = False
        super().prepare()
        # for the solver: a stock that is never turned over again only loses cards from its
        # top, and a foundation built in suit from the ace is known by its top card
        self.SOLVER_VIEW = {"stock": "count" if self.redeals == 0 else "all",
                            "foundation": "top" if self.standard_foundations else "all"}

    def build_layout(self):
        yield PileSpec("S", "stock", 0, 0)
        yield PileSpec("W", "waste", 1.2, 0, fan="right" if self.opts["draw"] == 3 else "none")
        for i in range(4):
            yield PileSpec(f"F{i + 1}", "foundation", 3.6 + 1.2 * i, 0, label="A")
        for i in range(7):
            yield PileSpec(f"T{i + 1}", "tableau", 1.2 * i, 1.6, fan="down", label="K")

    def rule_for(self, index, spec):
        variant = self.opts["variant"]
        if spec.role == "foundation":
            if variant == "alt_colour_foundations":
                return Rule(Build("alt", +1), empty="ace", take="top", max_cards=13,
                            sources=roles("tableau", "waste"), name="foundation")
            return Rule(FOUNDATION.build, empty="ace", take="top", max_cards=13,
                        sources=roles("tableau", "waste"), name="foundation")
        if spec.role == "tableau":
            if variant == "easy":
                return Rule(Build("any", -1), empty="any", take="run", many=True, name="column")
            if variant == "open_same_colour":
                return Rule(Build("colour", -1), empty="any", take="run", many=True,
                            lift=Build("same", -1), name="column")
            return Rule(Build("alt", -1), empty="king", take="run", many=True, name="column")
        if spec.role == "waste":
            return Rule(take="top", empty="none", name="waste")
        return Rule(take="none", empty="none", name="stock")

    twin_roles = frozenset({"tableau"})

    def solver_hopeless(self) -> bool:
        """A card that can never leave its column or the waste (see ``stuck_card``): only
        where a king alone fills a space and the waste is never turned over again."""
        if self.opts["variant"] not in ("standard", "open_same_colour"):
            return False
        piles = self.tableau if self.vars.get("redeals") else (*self.tableau, self.waste)
        return self.stuck_card(piles)

    def symmetric_groups(self):
        return tuple(self.tableau), tuple(self.foundations)

    # Turning the stock only matters for the card it brings to the top of the waste: a line
    # can always put off its turns until just before the waste card they bring up is played
    # (turns change nothing else, and every stock card must be played in the end). So the
    # search turns the stock within the current pass as part of a compound move: the turns
    # up to a card, then that card's play (the K+ solvers' "talon" moves). Only the last
    # turns of a pass, to redeal, stand alone (``DEAL``s then ``REDEAL`` as one move).
    def solver_moves(self, prune: bool = False) -> list:
        moves = super().solver_moves(prune)
        if self.shuffle_redeal or self.waste < 0:
            return moves  # the redeal shuffles: the plain moves
        home, rest, turns = self._talon_plays()
        w = self.waste
        plain = [m for m in moves if m.kind == "move" and m.src != w]
        back = [m for m in plain if self._role[m.src] == "foundation"]
        if back:
            plain = [m for m in plain if self._role[m.src] != "foundation"]
        # in one pass a card turned past is buried: talon plays nearest first, after the
        # waste card's own plays and the column moves
        near = [m for m in home if type(m) is not tuple]
        later = [m for m in home if type(m) is tuple] + [m for m in rest if type(m) is tuple]
        later.sort(key=len)  # stable: at the same depth, foundation plays first
        return near + plain + [m for m in rest if type(m) is not tuple] + later + back + turns

    def _talon_plays(self) -> tuple[list, list, list]:
        """Each card the stock can be turned to in this pass, played to each pile that takes
        it (tuples: the turns, then the play), foundation plays apart; and, when a redeal is
        left, the turns to the end of the pass followed by the redeal. Worked out from the
        card codes, without making the turns (this runs at every node)."""
        cards, down, s, w = self.cards, self.down, self.stock, self.waste
        wants: dict[int, list[int]] = {}  # card -> piles that take it now
        for f in self.foundations:
            pile = cards[f]
            if not pile:
                for ace in (0, 13, 26, 39):
                    wants.setdefault(ace, []).append(f)
            elif len(pile) < 13:
                wants.setdefault(pile[-1] + 1, []).append(f)
        spaces = False
        for t in self.tableau:
            pile = cards[t]
            if not pile:
                spaces = True
            elif down[t] < len(pile):
                for c in self._fits_on[pile[-1]]:
                    wants.setdefault(c, []).append(t)
        # one space stands for all (the key folds the columns together)
        empty = [next(t for t in self.tableau if not cards[t])] if spaces else []
        any_card = self.rule[self.tableau[0]].empty == "any"  # else a king only
        stock = cards[s]
        draw = self.draw
        home: list = []
        rest: list = []
        # the waste top now, then the top after each turn of this pass
        tops = [(cards[w][-1], 0)] if cards[w] else []
        size = len(stock)
        turned = 0
        while turned < size:
            turned = min(turned + draw, size)
            tops.append((stock[-turned], turned // draw + (turned % draw > 0)))
        for c, k in tops:
            dests = wants.get(c, ())
            if empty and (any_card or RANK[c] == 13):
                dests = [*dests, *empty]
            for d in dests:
                play = Move("move", w, d, 1)
                out = home if d in self.foundations else rest
                out.append((*(DEAL,) * k, play) if k else play)
        turns: list = []
        if self.vars.get("redeals", 0) != 0 and (stock or cards[w]):
            k = size // draw + (size % draw > 0)
            turns.append((*(DEAL,) * k, REDEAL))
        return home, rest, turns

    @property
    def _fits_on(self) -> tuple[tuple[int, ...], ...]:
        """Per card, the cards that may be built on it in a column."""
        table = self.__dict__.get("_fits_table")
        if table is None:
            build = self.rule[self.tableau[0]].build
            table = self._fits_table = tuple(
                tuple(c for c in range(52) if build.fits(c, t)) for t in range(52))
        return table

    def deal(self, rng):
        deck = list(range(52))
        rng.shuffle(deck)
        open_deal = self.opts["variant"] == "open_same_colour"
        cols = self.tableau
        for row in range(7):
            for col in range(row, 7):
                self.put(cols[col], deck.pop(), up=open_deal or col == row)
        self.init_stock(deck[::-1])

    def redeal_waste(self) -> None:
        if not self.shuffle_redeal:
            return super().redeal_waste()
        w, s = self.waste, self.stock
        gathered = list(self.cards[w])
        passes = self.redeals - self.vars["redeals"] + 1
        self.rng(passes).shuffle(gathered)
        self._replace(w, [], 0)
        self._replace(s, gathered, len(gathered))
        self._set("redeals", self.vars["redeals"] - 1)
