"""Grand Piano (source 002, opening fragment): a labelled reconstruction.

Only the goal and the "rescue operation" survive; the game they belong to refers to a lost
"Little Piano" for everything else, so the layout and the rules of play are the catalog's
reconstruction (GAMES.md §C1). The rescue pack lives in the stock pile (the stock is empty
when it is formed and no new waste is ever made); :meth:`settle` refills the three reserve
cards from it inside the move that used one.
"""

from __future__ import annotations

from collections.abc import Iterator

from . import cards as C
from .model import GameInfo, Move, Option, PileSpec
from .patience import DEAL, FOUNDATION, REDEAL, Build, PatienceGame, Rule
from .registry import register
from .rng import Rng
from .snake import foundation_wants

RESCUE = Move("rescue")

RULES_EN = """\
A RECONSTRUCTION. The book gives only the end of this two-deck patience: its goal and its \
"rescue operation"; for everything else it refers to an earlier game, "Little Piano", whose \
text is lost. Only those two parts come from the book. The layout, the building, the empty \
piles and the stock (marked *) are reconstructed for this kiosk, in the spirit of a row of \
piano keys.

Goal: free the eight aces as foundations and build each up in suit to the king, all 104 cards \
(two decks).

*The deal: ten piles of four face-up cards in a row, overlapped so every card shows. The \
other 64 cards form the stock.

*Play:
• The free cards are the top card of each pile and the top card of the waste (and, after the \
rescue, each reserve card).
• A free card may go to a foundation: an ace starts one (two per suit), then the 2, 3 ... of \
the same suit up to the king. Foundation cards never come back.
• A free card may go on a pile whose top card is one rank higher and of the same suit: the \
6♥ on the 7♥. One card at a time; runs never move together.
• An empty pile may be filled with any free card (from another pile, the waste or the \
reserve). It may stay empty.
• Tap the stock to turn one card onto the waste, at any time. When the stock is used up, the \
waste may be turned over once (without shuffling) to go through it a second time.

The rescue operation (from the book), once per game: when the stock is used up and the game \
is not won, you may turn the waste over (the "unused cards") and turn its top three cards face \
up as the last reserve. Each reserve card can be played on its own. Whenever reserve cards are \
used, the reserve is filled up to three again from that pack. If none of the three can be \
played, the patience has failed.

You win when all 104 cards are on the foundations. *The kiosk declares the game over when no \
move is left (moves between piles may still free a reserve card). Score: cards on the \
foundations.

*Tuned for a fair chance: building in suit, free spaces and one redeal are the choices, among \
the readings the lost text leaves open, that give a good player a real chance. A computer \
solver that sees every card won 40 of 100 deals within its budget (the other 60 it could \
neither win nor prove lost), so about 40% or more of the deals can be won: expect a demanding \
game that can often be won with care.

*Options: 3 or 5 cards per pile; building in alternating colours or in any suits; only the \
waste or a reserve card into an empty pile; no redeal or two redeals before the rescue; the \
book's strict end (lost as soon as no reserve card can be played)."""

RULES_ZH = """\
这是重建的规则。原书只留下这个双副牌接龙的结尾：它的目标和"救援行动"；其余一切都说"同前面介绍的\
《小钢琴》"，而那一篇已经失传。只有这两部分来自原书。牌的摆法、叠牌、空位和牌库的规则（标*）是为本机\
重建的，模仿一排琴键的样子。

目标：放出8张A作为基础堆，每堆同花色依次叠到K，两副牌共104张。

*发牌：一排10堆，每堆4张正面朝上，错开叠放，每张都看得见。其余64张为牌库。

*玩法：
• 活动的牌是每堆的顶牌和废牌堆的顶牌（救援行动后，还有每张预备牌）。
• 活动的牌可以放到基础堆上：A开始一堆（每种花色两堆），然后同花色的2、3……直到K。基础堆上的牌不能再拿回。
• 活动的牌可以放到另一堆的顶牌上，只要顶牌同花色并且大一点：红心6放在红心7上。每次只能移一张，不能整组移动。
• 空堆可以放任何一张活动的牌（别的堆的顶牌、废牌堆的顶牌或预备牌），也可以一直空着。
• 点击牌库，翻一张到废牌堆，任何时候都可以。牌库翻完后，可以把废牌堆翻过来（不洗牌）再过一遍，只能一次。

救援行动（来自原书），每局一次：牌库翻完而接龙还没成功时，可以把废牌堆（"没用上的牌"）翻过来，把最上面三张翻开，\
作为最后的预备牌。每张预备牌都可以单独使用。用掉预备牌后，就从这叠牌里补足三张。如果三张都放不出去，接龙失败。

104张牌全部上基础堆即获胜。*无路可走时本机判定游戏结束（在各堆之间移牌也许还能让预备牌放出去）。计分：基础堆上的牌数。

*为了让玩家有公平的机会而调校：在原文没有说明的几种读法中，选用了同花色叠放、空堆可放任何牌和一次重翻。\
能看见所有牌的电脑求解程序在100局中赢了40局（其余60局在限定的搜索量内既未赢也未能证明必输），\
所以至少约40%的牌局可以赢：这是一个需要细心、但常常可以成功的接龙。

*选项：每堆3张或5张；红黑相间叠放或不论花色叠放；空堆只能放废牌堆的顶牌或预备牌；救援前不重翻或重翻两次；原书的严格结局（预备牌一张都放不出去即失败）。"""

RULES_RU = """\
РЕКОНСТРУКЦИЯ. Книга сохранила только конец описания этого двухколодного пасьянса: цель и \
«спасательную операцию»; во всём остальном он отсылает к ранее описанному «малому \
фортепиано», текст которого утрачен. Из книги — только эти две части. Раскладка, \
построение, пустые стопки и колода (отмечены *) восстановлены для этого киоска — в духе ряда \
клавиш фортепиано.

Цель: освободить восемь тузов как базовые и уложить на них все масти по возрастанию до \
королей, все 104 карты (две колоды).

*Раскладка: десять стопок по четыре открытые карты в ряд, внахлёст, чтобы все карты были \
видны. Остальные 64 карты — колода.

*Ход игры:
• Свободны верхняя карта каждой стопки и верхняя карта отбоя (а после спасательной операции — \
каждая карта резерва).
• Свободную карту можно положить в базовые: туз начинает стопку (по две на масть), затем \
двойка, тройка … той же масти до короля. Из базовых карты не возвращаются.
• Свободную карту можно положить на стопку, верхняя карта которой той же масти и на очко \
старше: шестёрку червей на семёрку червей. По одной карте; серии целиком не переносятся.
• Пустую стопку можно занять любой свободной картой (из другой стопки, из отбоя или из \
резерва). Она может и оставаться пустой.
• Нажмите на колоду, чтобы открыть одну карту в отбой, в любой момент. Когда колода \
кончится, отбой можно один раз перевернуть (не тасуя) и пройти колоду ещё раз.

Спасательная операция (из книги), один раз за игру: когда колода кончилась, а пасьянс ещё не \
вышел, можно перевернуть отбой («колоду неиспользованных карт») и открыть три верхние карты — \
это последний резерв. Каждую карту резерва можно играть отдельно. Израсходовав одну или более \
карт резерва, резерв дополняют до трёх из той же колоды. Если ни одной из трёх карт выложить \
нельзя, пасьянс не вышел.

Пасьянс сошёлся, когда все 104 карты в базовых. *Киоск объявляет конец игры, когда ходов не \
осталось (ходы между стопками ещё могут освободить место для карты резерва). Очки: карты в \
базовых.

*Настроено так, чтобы шанс был честным: построение в масть, свободные пустые стопки и одна \
пересдача выбраны среди прочтений, которые допускает утраченный текст. Компьютерный решатель, \
видящий все карты, выиграл 40 из 100 партий (остальные 60 в пределах своего бюджета он не \
смог ни выиграть, ни доказать их проигрыш), так что выиграть можно около 40% раскладов или \
больше: пасьянс требует внимания, но часто сходится.

*Варианты: по 3 или 5 карт в стопке; построение с чередованием цвета или без учёта масти; в \
пустую стопку только карта из отбоя или резерва; без пересдачи или две пересдачи до \
спасательной операции; строгий конец, как в книге (проигрыш, как только ни одну карту резерва \
нельзя сыграть)."""


@register
class GrandPianoFragment(PatienceGame):
    info = GameInfo(
        id="grand_piano_fragment",
        names={"en": "Grand Piano (reconstruction)", "zh": "大钢琴（重建）",
               "ru": "Большое фортепиано (реконструкция)"},
        source="002_641e09ccd4cb0ebe.txt",
        source_game="opening fragment before «Змей» (GAMES.md §C1)",
        decks=2, kind="S-mixed", difficulty=3,
        description={
            "en": "Reconstructed two-deck game: ten keys, two stock passes and a last rescue.",
            "zh": "重建的双副牌玩法：十个\"琴键\"，牌库过两遍，最后还有一次救援。",
            "ru": "Реконструкция: десять «клавиш», два прохода колоды и последняя спасательная "
                  "операция.",
        },
        rules={"en": RULES_EN, "zh": RULES_ZH, "ru": RULES_RU},
    )
    options = (
        Option("pile_size", 4, (3, 4, 5), "face-up cards in each of the ten piles "
               "[reconstructed]"),
        Option("building", "same", ("same", "alt", "any"),
               "build down in suit, in alternating colours, or in any suits [reconstructed]"),
        Option("empty_pile", "any", ("any", "waste_reserve"),
               "what may fill an empty pile: any free card, or only the waste or a reserve "
               "card [reconstructed]"),
        Option("redeals", 1, (1, 0, 2), "redeals of the waste before the rescue "
               "[reconstructed]"),
        Option("strict_rescue_loss", False,
               help="lost as soon as no reserve card can be played (the book's words)"),
    )

    #: foundations built in suit from the ace are known by their top card
    SOLVER_VIEW = {"foundation": "top"}
    #: a pile's only card moved into an empty pile would change nothing (not a move)
    twin_roles = frozenset({"tableau"})

    def symmetric_groups(self) -> tuple[tuple[int, ...], ...]:
        """Foundations are interchangeable, and so are the piles (no pile has a place of its
        own: any of them takes the same cards)."""
        return tuple(self.foundations), tuple(self.tableau)

    def prepare(self) -> None:
        self.redeals = self.opts["redeals"]
        self._build = Build(self.opts["building"], -1)
        super().prepare()
        self.reserve = self.roles["reserve"]
        self._empty_from_piles = self.opts["empty_pile"] == "any"

    def rule_for(self, index: int, spec: PileSpec) -> Rule:
        role = spec.role
        if role == "tableau":
            return Rule(self._build, empty="any", take="top", name="pile")
        if role == "foundation":
            return FOUNDATION
        if role in ("waste", "reserve"):
            return Rule(take="top", empty="none", name=role)
        return Rule(take="none", empty="none", name="stock")

    def build_layout(self) -> Iterator[PileSpec]:
        yield PileSpec("S", "stock", 0, 0)
        yield PileSpec("W", "waste", 1.1, 0)
        for i in range(8):
            yield PileSpec(f"F{i + 1}", "foundation", 2.2 + 1.1 * i, 0, label="A")
        for i in range(10):
            yield PileSpec(f"T{i + 1}", "tableau", 1.1 * i, 1.6, fan="down")
        # the reserve exists only after the rescue, late in a game: bottom right
        for i in range(3):
            yield PileSpec(f"R{i + 1}", "reserve", 7.7 + 1.1 * i, 5.1)

    def deal(self, rng: Rng) -> None:
        deck = C.deck(2)
        rng.shuffle(deck)
        for _ in range(self.opts["pile_size"]):
            for col in self.tableau:
                self.put(col, deck.pop())
        self.init_stock(deck[::-1])
        self.vars["rescue"] = False

    # ------------------------------------------------------------ moves
    def accepts(self, d: int, s: int, n: int) -> bool:
        if (not self.cards[d] and self._role[s] == "tableau" and self._role[d] == "tableau"
                and not self._empty_from_piles):
            return False
        return super().accepts(d, s, n)

    def legal_moves(self) -> list[Move]:
        """The generic search's moves, indexed by top rank: a solver asks millions of times."""
        if self.lost:
            return []
        cards = self.cards
        moves: list[Move] = []
        self.stock_moves(moves)
        onto: dict[int, list[int]] = {}  # rank that fits -> piles
        empty: list[int] = []
        for t in self.tableau:
            if cards[t]:
                onto.setdefault(C.RANK[cards[t][-1]] - 1, []).append(t)
            else:
                empty.append(t)
        wants = foundation_wants(cards, self.foundations)
        fits = self._build.fits
        for s in self._sources:
            pile = cards[s]
            if not pile:
                continue
            c = pile[-1]
            moves.extend(Move("move", s, f, 1) for f in wants.get(c % 52, ()))
            moves.extend(Move("move", s, d, 1) for d in onto.get(C.RANK[c], ())
                         if d != s and fits(c, cards[d][-1]))
            if self._role[s] != "tableau" or (self._empty_from_piles and len(pile) > 1):
                moves.extend(Move("move", s, d, 1) for d in empty)
        self.extra_moves(moves)
        return moves

    def stock_moves(self, moves: list[Move]) -> None:
        if not self.vars["rescue"]:
            super().stock_moves(moves)

    def extra_moves(self, moves: list[Move]) -> None:
        if self._rescue_possible():
            moves.append(RESCUE)

    def _rescue_possible(self) -> bool:
        return (not self.vars["rescue"] and not self.cards[self.stock]
                and bool(self.cards[self.waste]) and not self.won)

    def apply_extra(self, move: Move) -> None:
        w = self.waste
        self._move_cards(w, self.stock, len(self.cards[w]), reverse=True, up=False)
        self._set("rescue", True)

    def settle(self) -> None:
        if self.vars["rescue"]:
            cards, stock = self.cards, self.stock
            for r in self.reserve:
                if not cards[r] and cards[stock]:
                    self._move_cards(stock, r, 1)
        super().settle()

    @property
    def lost(self) -> bool:
        """The book's end: in the rescue, none of the reserve cards can be played."""
        if not (self.opts["strict_rescue_loss"] and self.vars["rescue"]):
            return False
        live = [r for r in self.reserve if self.cards[r]]
        return bool(live) and not any(
            self.accepts(d, r, 1) for r in live for d in self._targets)

    def safe_autoplay(self) -> Move | None:
        """A card whose every possible lower neighbour (two decks) is already built.

        None once the strict end has struck: :meth:`legal_moves` is empty then, though a
        pile's card would still fit a foundation."""
        if self.lost:
            return None
        low = min(C.RANK[self.cards[f][-1]] if self.cards[f] else 0 for f in self.foundations)
        for s in (*self.tableau, self.waste, *self.reserve):
            pile = self.cards[s]
            if pile and (C.RANK[pile[-1]] <= 2 or C.RANK[pile[-1]] <= low + 1):
                for f in self.foundations:
                    if self.accepts(f, s, 1):
                        return Move("move", s, f, 1)
        return None

    # ------------------------------------------------------------ messages
    def explain(self, move: Move) -> str:
        if self.lost:
            return "The game is lost: none of the reserve cards can be played."
        rescue = self.vars["rescue"]
        if move.kind == "rescue":
            if rescue:
                return "The rescue operation can be made only once."
            if self.cards[self.stock]:
                return "The rescue operation is allowed only when the stock is used up."
            return "There are no unused cards in the waste to form the rescue pack."
        if move.kind in ("deal", "redeal") and rescue:
            return "After the rescue operation the pack only refills the reserve."
        if (move.kind == "move" and 0 <= move.src < len(self.layout)
                and 0 <= move.dst < len(self.layout) and move.src != move.dst
                and self._role[move.src] == self._role[move.dst] == "tableau"
                and self.cards[move.src] and not self.cards[move.dst]
                and not self._empty_from_piles):
            return "An empty pile can only be filled from the waste or the reserve."
        return super().explain(move)

    # ------------------------------------------------------------ for the solver
    # The talon is searched as compound moves, "turn the stock k times, then play the new
    # waste card": a turn commutes with every move that does not touch the waste, so each
    # winning line can be rearranged to turn the stock only right before it plays the waste
    # card, turns the waste over or starts the rescue. Single turns are never searched alone.

    def solver_moves(self, prune: bool = False) -> list:
        """Foundation plays first, then moves that empty a pile or uncover a card, then talon
        plays (nearest first), then giving up the rest of the pass (a redeal, or the rescue).

        With ``prune`` a move between piles must achieve something now: empty its pile (a
        space for a card that needs one) or uncover a card that can go home or that a talon
        or reserve card could go on. Of several empty piles only the first is a target: the
        piles are interchangeable."""
        cards, w, role = self.cards, self.waste, self._role
        home: list = []
        useful: list = []
        other: list = []
        feeders = None
        space = next((t for t in self.tableau if not cards[t]), -1)
        for m in self.legal_moves():
            if m.kind != "move" or m.src == w:
                continue
            if role[m.dst] == "foundation":
                home.append(m)
                continue
            if not cards[m.dst] and m.dst != space:
                continue  # the piles are interchangeable: one space stands for all
            src = cards[m.src]
            if role[m.src] != "tableau" or len(src) == 1:
                useful.append(m)
                continue
            exposed = src[-2]
            if feeders is None:
                feeders = self._feeder_ranks()
            if (C.RANK[exposed] - 1, C.SUIT[exposed]) in feeders or self._home_now(exposed):
                useful.append(m)
            elif not prune:
                other.append(m)
        t_home, t_rest, tail = self._talon_plays()
        return home + t_home + useful + t_rest + other + tail

    def solver_autoplay(self) -> Move | None:
        """A card to a foundation when every card that could ever be built on it is home:
        both copies of the next lower rank in each suit the building rule lets onto it (an
        ace carries nothing that could not go home, as every ace has a foundation of its
        own). Then it could only ever carry cards that are home, and nothing else is
        built from it, so playing it home loses nothing. None in a lost position (the
        search never expands one, but a hint may start from one)."""
        if self.lost:
            return None
        cards = self.cards
        level = [[0, 0], [0, 0], [0, 0], [0, 0]]  # per suit, the two foundations' ranks
        for f in self.foundations:
            pile = cards[f]
            if pile:
                lv = level[C.SUIT[pile[0]]]
                lv[0 if lv[0] == 0 else 1] = C.RANK[pile[-1]]
        low = [min(lv) for lv in level]
        build = self._build.suit
        for s in (*self.tableau, self.waste, *self.reserve):
            pile = cards[s]
            if not pile:
                continue
            c = pile[-1]
            r, su = C.RANK[c], C.SUIT[c]
            if r > 2:
                if build == "same":
                    need = (su,)
                elif build == "alt":
                    need = tuple(x for x in range(4) if C.COLOUR[x * 13] != C.COLOUR[c])
                else:
                    need = (0, 1, 2, 3)
                if any(low[x] < r - 1 for x in need):
                    continue
            for f in self.foundations:
                if self.accepts(f, s, 1):
                    return Move("move", s, f, 1)
        return None

    def _home_now(self, c: int) -> bool:
        """Whether card ``c`` could go to a foundation now (for the pruned pass)."""
        for f in self.foundations:
            pile = self.cards[f]
            if (C.RANK[c] == C.ACE) if not pile else (
                    C.RANK[c] != C.ACE and pile[-1] % 52 + 1 == c % 52):
                return True
        return False

    def _feeder_ranks(self) -> set[tuple[int, int]]:
        """(rank, suit) of the cards that could still come from the talon or the reserve:
        a card uncovered for one of them is worth uncovering."""
        cards = self.cards
        out = set()
        for p in (self.stock, self.waste, *self.reserve):
            for c in cards[p]:
                out.add((C.RANK[c], C.SUIT[c]))
        if self._build.suit == "same":
            return out
        return {(r, su2) for r, su in out for su2 in range(4)
                if self._build.suit == "any" or C.COLOUR[su2 * 13] != C.COLOUR[su * 13]}

    def _talon_plays(self) -> tuple[list, list, list]:
        """Each waste or stock card, played (after the turns that bring it up) to each place
        that takes it: foundation plays apart; then turning the waste over (after turning
        the rest of the stock) while redeals are left, and the rescue once."""
        cards, s, w = self.cards, self.stock, self.waste
        stock, waste = cards[s], cards[w]
        home: list = []
        rest: list = []
        tail: list = []
        if self.vars["rescue"]:
            return home, rest, tail
        wants = foundation_wants(cards, self.foundations)
        onto: dict[int, list[int]] = {}
        space = -1
        for t in self.tableau:
            if cards[t]:
                onto.setdefault(C.RANK[cards[t][-1]] - 1, []).append(t)
            elif space < 0:
                space = t  # the piles are interchangeable: one space stands for all
        fits = self._build.fits
        seq = [((), waste[-1])] if waste else []
        seq.extend(((DEAL,) * k, stock[-k]) for k in range(1, len(stock) + 1))
        for turns, c in seq:
            plays = [(f, home) for f in wants.get(c % 52, ())[:1]]
            plays.extend((d, rest) for d in onto.get(C.RANK[c], ()) if fits(c, cards[d][-1]))
            if space >= 0:
                plays.append((space, rest))
            for d, out in plays:
                play = Move("move", w, d, 1)
                out.append((*turns, play) if turns else play)
        through = (DEAL,) * len(stock)
        if stock or waste:
            if self.vars["redeals"] != 0:
                tail.append((*through, REDEAL) if through else REDEAL)
            tail.append((*through, RESCUE) if through else RESCUE)
        return home, rest, tail
