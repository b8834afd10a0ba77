"""Pyramid (000 #13): remove pairs that add up to 13, and kings alone, to take the pyramid down."""

from __future__ import annotations

from collections.abc import Iterable

from . import cards as C
from .cards import KING, RANK
from .engine import Game
from .model import GameInfo, Move, Option, PileSpec
from .registry import register
from .rng import Rng

#: card code -> rank, for ``bytes.translate`` in the solver's key
_RANK_BYTES = bytes(RANK[c] if c < len(RANK) else 0 for c in range(256))

DEAL = Move("deal")
REDEAL = Move("redeal")
ROWS = 7
PASSES = 3
#: the match points of a pyramid cleared in pass 1, 2 or 3
CLEAR_POINTS = (50, 35, 20)


def covers(rows: int = ROWS) -> list[tuple[int, ...]]:
    """For each position (reading order, apex first) the two positions lying on it."""
    out: list[tuple[int, ...]] = []
    for r in range(rows):
        for k in range(r + 1):
            below = (r + 1) * (r + 2) // 2 + k
            out.append((below, below + 1) if r + 1 < rows else ())
    return out


#: answers of :func:`_pairs_off` and :func:`_matches` by the places involved (the pyramid's
#: shape is fixed, so they hold for every deal)
_PAIRINGS: dict[tuple[tuple[int, ...], tuple[int, ...] | None], bool] = {}


def _pairs_off(places: list[int], apart) -> bool:
    """Whether ``places`` split into pairs of places that are ``apart``."""
    if not places:
        return True
    if len(places) % 2:
        return False
    first, rest = places[0], places[1:]
    return any(apart(first, other) and _pairs_off(rest[:k] + rest[k + 1:], apart)
               for k, other in enumerate(rest))


def _matches(left: list[int], right: list[int], apart) -> bool:
    """Whether every place of ``left`` pairs with its own place of ``right`` (``apart``)."""
    if len(left) != len(right):
        return False
    if not left:
        return True
    first, rest = left[0], left[1:]
    return any(apart(first, other) and _matches(rest, right[:k] + right[k + 1:], apart)
               for k, other in enumerate(right))


RULES_EN = """\
Goal: remove all 28 cards of the pyramid within three passes through the stock.

The deal: 28 cards form a pyramid of seven rows, from one card at the apex to seven at the \
base; each card is covered by the two cards just below it. Only the base row is face up; a \
card turns face up by itself once both cards covering it are gone. The other 24 cards are \
the face-down stock.

Values: ace 1, 2–10 as marked, jack 11, queen 12, king 13.

Available cards: uncovered pyramid cards, the current card (the stock card turned last) and \
the top card of the waste pile.

Play:
• Remove any available king on its own.
• Remove two available cards that add up to 13: 10+3, 9+4, J+2, Q+A, 8+5, 7+6. The current \
card may pair with the waste card under it.
• Tap the stock to turn its next card: the old current card goes onto the waste and the new \
card becomes the current card. Any card you cannot use simply waits on the waste.
• When the stock is empty, turn the waste over (not shuffled) to start the next pass. Three \
passes in all.
• Apex rescue: once, after the last pass is used up and the pyramid is not cleared, you may \
take the apex card, turn it up and use it as the current card even though it is covered.

End: you win as soon as the pyramid is cleared; clearing it in the first pass is best.

Options:
• All face up: the whole pyramid is dealt face up.
• Pair pile: removed cards are laid face up on a pair pile. Its top card stays available, \
but only to pair with an uncovered pyramid card or the current card; the second card you \
pick ends on top. A king on top of the pair pile cannot be used again.
• Scored match: no apex rescue; once the pyramid is cleared you may go on using your passes \
to remove stock and waste cards before the game ends. A match is six games; a total above \
zero wins (or compare totals on the same deal numbers).
• Apex rescue can be switched off.

Score (match points, higher is better): pyramid cleared in pass 1: 50 minus the cards left \
in the stock and waste (50 if none); in pass 2: 35 minus them; in pass 3: 20 minus them; not \
cleared: minus all cards left in the pyramid, stock and waste."""

RULES_ZH = """\
目标：在手牌翻3遍以内，把金字塔上的28张牌全部配对拿完。

摆牌：28张牌摆成7排的金字塔，第1排（塔顶）1张，第7排7张，每张牌被下一排相邻的两张压着。\
只有第7排正面朝上；压着一张牌的两张都拿掉后，这张牌自动翻开。其余24张面朝下作为手牌。

点数：A为1，2到10按牌面，J为11，Q为12，K为13。

可用的牌：塔上不被压着的牌、刚翻开的手牌（当前牌）以及弃牌堆顶牌。

玩法：
• 可用的K可以单张拿掉。
• 两张可用的牌合计为13时可以拿掉：10+3、9+4、J+2、Q+A、8+5、7+6。当前牌也可以和它压着\
的弃牌顶牌配对。
• 点击手牌翻下一张：原来的当前牌放到弃牌堆上，新翻的牌成为当前牌。用不上的牌就留在弃牌堆上。
• 手牌翻完后，把弃牌堆翻过来（不洗）作为新的手牌，开始下一遍。共可翻3遍。
• 塔顶一招：3遍都翻完、金字塔还没拿完时，可以有一次把塔顶第1排的那张牌翻开，当作当前牌\
参加配对，即使它还被压着。

结束：金字塔拿完即为胜利；第1遍就拿完是最佳。

选项：
• 全部明牌：金字塔的牌全部正面朝上。
• 配牌堆：拿掉的牌正面朝上放成配牌堆。它的顶牌仍可用，但只能和塔上露出的牌或当前牌配13；\
后选的那张放在上面。配牌堆顶上的K不能再用。
• 记分比赛：不能用塔顶一招；金字塔拿完后还可以继续用剩下的遍数拿掉手牌和弃牌，然后结束。\
6盘为一局，总分超过0分即为胜利（或用同一组牌号比较分数）。
• 可以关闭塔顶一招。

计分（比赛分，越高越好）：第1遍拿完金字塔：50减去手牌和弃牌的剩余张数（没有剩余为50分）；\
第2遍：35减去剩余张数；第3遍：20减去剩余张数；没有拿完：0减去塔上、手牌和弃牌的全部剩余张数。"""

RULES_RU = """\
Цель: убрать все 28 карт пирамиды, пройдя колоду не больше трёх раз.

Раскладка: 28 карт образуют пирамиду из семи рядов — от одной карты на вершине до семи в \
основании; каждую карту накрывают две соседние карты ряда ниже. Открыт только нижний ряд; \
карта сама открывается, когда обе накрывающие её карты убраны. Остальные 24 карты — закрытая \
колода.

Значения: туз 1, 2–10 по числу, валет 11, дама 12, король 13.

Доступные карты: открытые (ничем не накрытые) карты пирамиды, текущая карта (последняя \
открытая карта колоды) и верхняя карта отбоя.

Ход игры:
• Любого доступного короля можно убрать одного.
• Две доступные карты, дающие в сумме 13, убираются: 10+3, 9+4, В+2, Д+Т, 8+5, 7+6. Текущая \
карта может составить пару с картой отбоя под ней.
• Нажмите на колоду, чтобы открыть следующую карту: прежняя текущая карта уходит в отбой, \
новая становится текущей. Ненужные карты просто остаются в отбое.
• Когда колода кончилась, переверните отбой (без тасовки) и начните следующий проход. Всего \
три прохода.
• Спасение вершиной: один раз, после последнего прохода, если пирамида не разобрана, можно \
взять карту с вершины, открыть её и играть ею как текущей картой, хотя она накрыта.

Конец: вы выиграли, как только пирамида разобрана; лучше всего — в первом проходе.

Варианты:
• Всё открыто: вся пирамида раскладывается лицом вверх.
• Стопка пар: убранные карты кладутся открыто в стопку пар. Её верхняя карта остаётся \
доступной, но только для пары с открытой картой пирамиды или текущей картой; вторая выбранная \
карта ложится сверху. Короля на вершине стопки пар использовать больше нельзя.
• Игра на очки: без спасения вершиной; разобрав пирамиду, можно дальше использовать оставшиеся \
проходы, чтобы убрать карты колоды и отбоя. Матч — шесть партий; выигрывает сумма больше нуля \
(или сравнивайте суммы на одних и тех же номерах раскладов).
• Спасение вершиной можно отключить.

Очки (очки матча, чем больше, тем лучше): пирамида разобрана в 1-м проходе — 50 минус карты, \
оставшиеся в колоде и отбое (50, если их нет); во 2-м — 35 минус они; в 3-м — 20 минус они; \
не разобрана — минус все карты, оставшиеся в пирамиде, колоде и отбое."""


@register
class Pyramid(Game):
    info = GameInfo(
        id="pyramid",
        names={"en": "Pyramid", "zh": "金字塔——配十三", "ru": "Пирамида"},
        source="000_5c0014aada07c9b6.txt", source_game="13",
        decks=1, kind="S-mixed", difficulty=2,
        description={"en": "Pair cards that add up to 13 to take the pyramid apart.",
                     "zh": "两张牌凑成13就拿掉，把金字塔拆完。",
                     "ru": "Убирайте пары карт с суммой 13, чтобы разобрать пирамиду."},
        rules={"en": RULES_EN, "zh": RULES_ZH, "ru": RULES_RU},
        score_label="match points", score_better="higher",
    )
    options = (
        Option("all_face_up", False, help="deal the whole pyramid face up"),
        Option("pair_pile", False,
               help="removed cards form a pair pile whose top card can still be paired"),
        Option("scored_match", False,
               help="match scoring: no apex rescue, play on after clearing to save points"),
        Option("apex_rescue", True,
               help="once, after the last pass, the apex card may be used as the current card"),
    )

    #: ``PARTNER[r]``: the rank that pairs with rank ``r`` (0: none)
    PARTNER: tuple[int, ...] = (0, *(13 - r for r in range(1, 13)), 0)
    #: kings leave on their own
    SINGLE_KINGS = True
    #: the pair rule in a sentence, for refused moves
    NEED = "The two cards must add up to 13 (jack 11, queen 12, king 13)."

    #: a place in the pyramid holds the card dealt there or nothing
    SOLVER_VIEW = {"tableau": "count"}

    def build_layout(self) -> Iterable[PileSpec]:
        yield PileSpec("S", "stock", 8.8, 0)
        yield PileSpec("C", "waste", 8.8, 1.6, label="current")
        yield PileSpec("W", "waste", 8.8, 3.2)
        for r in range(ROWS):
            for k in range(r + 1):
                yield PileSpec(f"T{r * (r + 1) // 2 + k + 1}", "tableau",
                               round((ROWS - 1 - r) * 0.6 + 1.2 * k, 2), round(0.7 * r, 2),
                               autoflip=False)
        yield PileSpec("D", "discard", 8.8, 4.8, label="pairs" if self.opts["pair_pile"] else "")

    def prepare(self) -> None:
        self.stock, self.current, self.waste = (self.index[i] for i in ("S", "C", "W"))
        self.discard = self.index["D"]
        self.pyr = self.roles["tableau"]
        self.cover = [tuple(self.pyr[q] for q in cov) for cov in covers()]
        #: per place, every place that must be cleared before it is uncovered
        cov = covers()
        self._cones: list[frozenset[int]] = []
        for i in range(len(cov)):
            seen: set[int] = set()
            todo = list(cov[i])
            while todo:
                j = todo.pop()
                if j not in seen:
                    seen.add(j)
                    todo.extend(cov[j])
            self._cones.append(frozenset(seen))
        #: positions that may lie face down and need turning once uncovered
        self.hidden = [] if self.opts["all_face_up"] else [
            (p, cov) for p, cov in zip(self.pyr, self.cover, strict=True) if cov]
        self.pair_pile = self.opts["pair_pile"]
        if self.pair_pile:  # the pair pile's top card can still be played
            self.SOLVER_VIEW = {"tableau": "count", "discard": "all"}
        self.scored = self.opts["scored_match"]
        self.rescue = self.opts["apex_rescue"] and not self.scored
        # with a pair pile the card picked second ends on top, so pick order matters
        self.ordered = self.pair_pile and any(
            r != p for r, p in enumerate(self.PARTNER) if p)

    def deal(self, rng: Rng) -> None:
        deck = list(range(52))
        rng.shuffle(deck)
        up = self.opts["all_face_up"]
        for i, p in enumerate(self.pyr):
            self.put(p, deck.pop(), up=up or i >= len(self.pyr) - ROWS)
        for c in deck:
            self.put(self.stock, c, up=False)
        self.vars.update({"pass": 1, "cleared": 0, "rescued": False})

    def settle(self) -> None:
        """Turn up uncovered pyramid cards and note the pass in which the pyramid fell."""
        if self.__dict__.pop("_talon_only", False):
            return  # a deal or a redeal leaves the pyramid as it was (the solver deals a lot)
        cards, down = self.cards, self.down
        for p, (a, b) in self.hidden:
            if down[p] and not cards[a] and not cards[b]:
                self._flip(p)
        if not self.vars["cleared"] and not any(cards[p] for p in self.pyr):
            self._set("cleared", self.vars["pass"])

    # ------------------------------------------------------------------ moves
    def available(self) -> list[int]:
        """Piles whose top card can be used now (the pair pile's top is handled apart)."""
        cards = self.cards
        out = [p for p, cov in zip(self.pyr, self.cover, strict=True)
               if cards[p] and not (cov and (cards[cov[0]] or cards[cov[1]]))]
        if cards[self.current]:
            out.append(self.current)
        if cards[self.waste]:
            out.append(self.waste)
        return out

    def _removals(self, by_rank: list[list[int]], ordered: bool = False) -> list[Move]:
        """Kings alone (where they go alone) and every pair of partner ranks among the piles
        of ``by_rank`` (piles by the rank of their top card); with ``ordered`` each pair
        also the other way round (with a pair pile the card picked second ends on top)."""
        moves = []
        if self.SINGLE_KINGS:
            moves += [Move("remove", p) for p in by_rank[KING]]
        for r in range(1, 14):
            q = self.PARTNER[r]
            if not q or q < r:
                continue
            group, partners = by_rank[r], by_rank[q]
            for i, a in enumerate(group):
                for b in (group[i + 1:] if q == r else partners):
                    moves.append(Move("remove", a, b) if a < b else Move("remove", b, a))
                    if ordered:
                        moves.append(Move("remove", moves[-1].dst, moves[-1].src))
        return moves

    def legal_moves(self) -> list[Move]:
        cards = self.cards
        if self.vars["cleared"] and not self.scored:
            return []
        avail = self.available()
        by_rank: list[list[int]] = [[] for _ in range(14)]
        for p in avail:
            by_rank[RANK[cards[p][-1]]].append(p)
        moves = self._removals(by_rank, self.ordered)
        d = cards[self.discard]
        if self.pair_pile and d:
            top = RANK[d[-1]]
            q = self.PARTNER[top]
            if q and not (self.SINGLE_KINGS and top == KING):
                moves += [Move("remove", self.discard, p) for p in by_rank[q]
                          if p != self.waste]
        if cards[self.stock]:
            moves.append(DEAL)
        elif self.vars["pass"] < PASSES and (cards[self.waste] or cards[self.current]):
            moves.append(REDEAL)
        elif self.can_rescue():
            moves.append(Move("rescue", self.pyr[0]))
        return moves

    def can_rescue(self) -> bool:
        """Once, when no pass is left to play and the pyramid still stands."""
        cards = self.cards
        passes_over = self.vars["pass"] >= PASSES or not (cards[self.waste] or cards[self.current])
        return (self.rescue and not self.vars["rescued"] and not cards[self.stock]
                and passes_over and bool(cards[self.pyr[0]]))

    # ------------------------------------------------------------------ for the solver
    def solver_autoplay(self) -> Move | None:
        """Removals that can never hurt: a king on its own, and a pair whose two cards are
        the last ones left of their ranks (they can only ever pair with each other). Not
        with a pair pile, where what lies on top of it matters."""
        if self.pair_pile or (self.vars["cleared"] and not self.scored):
            return None
        cards = self.cards
        avail = self.available()
        by_rank: list[list[int]] = [[] for _ in range(14)]
        for p in avail:
            by_rank[RANK[cards[p][-1]]].append(p)
        if self.SINGLE_KINGS and by_rank[KING]:
            return Move("remove", by_rank[KING][0])
        left = [0] * 14
        for p in (self.stock, self.current, self.waste, *self.pyr):
            for c in cards[p]:
                left[RANK[c]] += 1
        for r in range(1, 14):
            q = self.PARTNER[r]
            if not q or q < r or not by_rank[r]:
                continue
            if q == r:
                if left[r] == 2 and len(by_rank[r]) == 2:
                    a, b = sorted(by_rank[r])
                    return Move("remove", a, b)
            elif left[r] == 1 and left[q] == 1 and by_rank[q]:
                a, b = sorted((by_rank[r][0], by_rank[q][0]))
                return Move("remove", a, b)
        return None

    def solver_hopeless(self) -> bool:
        """The cards of each rank still in play must pair off with their partners, two at a
        time, and a pyramid card never pairs with one lying on it (directly or further
        down): that one goes first. If no such pairing exists, the game is lost. Stock and
        waste cards pair with anything (an optimistic view); the apex is free while the
        apex rescue may still be used."""
        if self.pair_pile:
            return False
        if not self.scored and self._dominated():
            return True
        cards, pyr = self.cards, self.pyr
        where: list[list[int]] = [[] for _ in range(14)]  # per rank: places, -1 off the pyramid
        for p in (self.stock, self.current, self.waste):
            for c in cards[p]:
                where[RANK[c]].append(-1)
        for i, p in enumerate(pyr):
            if cards[p]:
                where[RANK[cards[p][-1]]].append(i)
        if self.rescue and not self.vars["rescued"]:
            where = [[-1 if j == 0 else j for j in w] for w in where]
        cones = self._cones

        def apart(i: int, j: int) -> bool:
            return i < 0 or j < 0 or (i not in cones[j] and j not in cones[i])

        known = _PAIRINGS  # the same places give the same answer in every deal: remember it
        for r in range(1, 14):
            q = self.PARTNER[r]
            if not q or q < r or not where[r]:
                continue
            mine = tuple(sorted(where[r]))
            theirs = None if q == r else tuple(sorted(where[q]))
            ok = known.get((mine, theirs))
            if ok is None:
                ok = (_pairs_off(list(mine), apart) if theirs is None
                      else _matches(list(mine), list(theirs), apart))
                if len(known) < 1_000_000:
                    known[mine, theirs] = ok
            if not ok:
                return True
        return False

    def solver_key(self) -> bytes:
        """The generic key, with three merges that keep equal keys meaning equal futures.

        Suits never matter (pairs and kings go by rank, the goal is the pyramid's places), so
        talon cards are named by rank: taking one of two equal ranks lying next to each other
        in the talon leaves the same game whichever was taken. A pyramid place shows only
        whether it still holds its dealt card (face-down flags follow from that). With a pair
        pile only its top card can play again (it only ever grows). And once the talon is
        empty, the pass number no longer changes a legal move; once the apex is gone, neither
        does whether the rescue was used."""
        cards, ranks = self.cards, _RANK_BYTES
        mask = 0
        for bit, p in enumerate(self.pyr):
            if cards[p]:
                mask |= 1 << bit
        s, c, w = cards[self.stock], cards[self.current], cards[self.waste]
        v = self.vars
        apex = bool(cards[self.pyr[0]])
        head = [mask & 0xFF, mask >> 8 & 0xFF, mask >> 16 & 0xFF, mask >> 24,
                len(s), len(c), v["pass"] if s or c or w else 0, v["cleared"],
                v["rescued"] and apex]
        if self.pair_pile:
            d = cards[self.discard]
            head.append(RANK[d[-1]] if d else 0)
        return bytes(head) + bytes(s).translate(ranks) + bytes(c).translate(ranks) \
            + bytes(w).translate(ranks)

    def solver_moves(self, prune: bool = False) -> list:
        """The moves, with the talon searched as compound moves ("deal k times, then play the
        new current card"), as in Klondike (docs/solver.md). Why this loses no win: a deal
        touches only the talon and a move of pyramid cards only the pyramid, and neither
        changes whether the other is legal, so in a winning line every deal can be put off
        until just before the next move that uses a talon card (or turns the waste over, or
        takes the apex): a line of such compounds and pyramid moves wins as well. And after
        k >= 1 deals the waste card is the one that was current one deal earlier (or, with no
        current card then, the same waste card): playing it with a pyramid card is the same
        as playing it one deal earlier and then dealing (the two lead to one position), so
        after a deal only the new current card is played: with a pyramid card, with the waste
        card under it, or alone as a king. With a pair pile or in a scored match (where a win
        needs every pass played) the plain moves are searched."""
        if self.pair_pile or self.scored:
            return super().solver_moves(prune)
        if self.vars["cleared"]:
            return []
        cards, partner = self.cards, self.PARTNER
        kings = self.SINGLE_KINGS
        cp, wp = self.current, self.waste
        by_rank: list[list[int]] = [[] for _ in range(14)]
        for p, cov in zip(self.pyr, self.cover, strict=True):
            if cards[p] and not (cov and (cards[cov[0]] or cards[cov[1]])):
                by_rank[RANK[cards[p][-1]]].append(p)
        moves: list = self._removals(by_rank)  # pyramid moves
        # the current and the waste card as they are (C < W < every pyramid place)
        c0 = cards[cp][-1] if cards[cp] else None
        w0 = cards[wp][-1] if cards[wp] else None
        for pile, card in ((cp, c0), (wp, w0)):
            if card is None:
                continue
            r = RANK[card]
            if kings and r == KING:
                moves.append(Move("remove", pile))
            q = partner[r]
            if q:
                moves += [Move("remove", pile, p) for p in by_rank[q]]
        if c0 is not None and w0 is not None and partner[RANK[c0]] == RANK[w0]:
            moves.append(Move("remove", cp, wp))
        # deal k times, then play the new current card
        stock = cards[self.stock]
        prev = c0 if c0 is not None else w0  # the waste card after the next deal
        turns: tuple[Move, ...] = ()
        for k in range(1, len(stock) + 1):
            turns += (DEAL,)
            card = stock[-k]
            r = RANK[card]
            if kings and r == KING:
                moves.append((*turns, Move("remove", cp)))
            q = partner[r]
            if q:
                moves += [(*turns, Move("remove", cp, p)) for p in by_rank[q]]
                if prev is not None and RANK[prev] == q:
                    moves.append((*turns, Move("remove", cp, wp)))
            prev = card
        # deal to the end, then turn the waste over or take the apex
        size = len(stock) + (c0 is not None) + len(cards[wp])
        rescue = self.rescue and not self.vars["rescued"] and bool(cards[self.pyr[0]])
        left = PASSES - self.vars["pass"]
        if left > 0 and size:
            moves.append((*turns, REDEAL))
            if rescue:  # the passes left played through, then the apex (see _dominated)
                moves.append((*turns, *((REDEAL,) + (DEAL,) * size) * left,
                              Move("rescue", self.pyr[0])))
        elif rescue:
            moves.append((*turns, Move("rescue", self.pyr[0])))
        return moves

    def clone(self) -> Pyramid:
        twin = super().clone()
        twin.__dict__.pop("_seen_pass", None)  # each search keeps its own (see _dominated)
        return twin

    def _dominated(self) -> bool:
        """Whether this search has already met this very position with fewer passes used.

        Why that loses no win: the position with more passes left can play every line of the
        other move for move (a pass more changes nothing but that a redeal stays possible and
        that the apex rescue needs the passes left played through first: the compound "play
        the passes left through, then take the apex" stands for the other's rescue). So its
        shortest winning line, counted in searched moves, is no longer, and the usual argument
        for cutting positions dominated by one found earlier holds (among the winnable
        positions the search met and never won from, take one with the shortest winning
        line, and of those the first met: if it was cut, the one that cut it comes first
        with a line no longer; if it was searched, its next position on that line was met
        with a shorter line). Every search makes a clone, and the clone starts a new table.
        Only with the compound moves of :meth:`solver_moves` (no pair pile, no scored match)."""
        key = self.solver_key()
        core = key[:6] + key[7:]
        seen = self.__dict__.get("_seen_pass")
        if seen is None:
            seen = self._seen_pass = {}
        p = self.vars["pass"]
        best = seen.get(core)
        if best is not None and best < p:
            return True
        if best is None or p < best:
            seen[core] = p
        return False

    def canonical(self, move: Move) -> Move:
        """The one form of a pair move that :meth:`legal_moves` lists."""
        if move.kind != "remove" or move.dst < 0:
            return move
        a, b = move.src, move.dst
        if b == self.discard or (a > b and a != self.discard and not self.ordered):
            return move._replace(src=b, dst=a)
        return move

    def apply(self, move: Move) -> None:
        kind = move.kind
        if kind == "remove":
            move = self.canonical(move)
            if move.src != self.discard:
                self._move_cards(move.src, self.discard, 1)
            if move.dst >= 0:
                self._move_cards(move.dst, self.discard, 1)
            return
        if self.cards[self.current]:
            self._move_cards(self.current, self.waste, 1)
        if kind != "rescue":
            self._talon_only = True
        if kind == "deal":
            self._move_cards(self.stock, self.current, 1)
        elif kind == "redeal":
            w = self.waste
            self._move_cards(w, self.stock, len(self.cards[w]), reverse=True, up=False)
            self._set("pass", self.vars["pass"] + 1)
        else:  # rescue
            self._move_cards(self.pyr[0], self.current, 1)
            self._set("rescued", True)

    # ------------------------------------------------------------------ results
    @property
    def won(self) -> bool:
        if not self.vars["cleared"]:
            return False
        return not self.scored or not self.legal_moves()

    @property
    def score(self) -> int:
        cards = self.cards
        left = len(cards[self.stock]) + len(cards[self.current]) + len(cards[self.waste])
        cleared = self.vars["cleared"]
        if cleared:
            return CLEAR_POINTS[cleared - 1] - left
        return -left - sum(len(cards[p]) for p in self.pyr)

    @property
    def grade(self) -> str | None:
        cleared = self.vars["cleared"]
        return None if not cleared else "best" if cleared == 1 else "winner"

    def explain(self, move: Move) -> str:
        cards, kind = self.cards, move.kind
        if kind == "deal":
            if self.vars["pass"] < PASSES:
                return "The stock is empty: turn the waste over to start the next pass."
            return "The stock is empty and all three passes are used."
        if kind == "redeal":
            if cards[self.stock]:
                return "There are still cards in the stock."
            if self.vars["pass"] >= PASSES:
                return "All three passes have been used."
            return "There are no cards to turn over."
        if kind == "rescue":
            if not self.rescue:
                return ("The apex rescue is not allowed in scored play." if self.scored else
                        "The apex rescue is switched off in this game.")
            if self.vars["rescued"]:
                return "The apex rescue has already been used."
            if move.src != self.pyr[0]:
                return "Only the apex card at the top of the pyramid can be rescued."
            return "The apex card may be taken only after the last pass through the stock."
        if kind != "remove":
            return self.tap_hint()
        piles = [p for p in (move.src, move.dst) if p >= 0]
        if not piles:
            return self.tap_hint()
        for p in piles:
            reason = self.unavailable(p, partner=len(piles) > 1)
            if reason:
                return reason
        if len(piles) == 1:
            c = cards[piles[0]][-1]
            if not self.SINGLE_KINGS:
                return "Cards can only be removed in pairs of the same rank."
            if RANK[c] != KING:
                return f"Only a king can be removed on its own; the {C.pretty(c)} needs a partner."
            return self.NEED
        a, b = piles
        if a == b:
            return "Pick two different cards."
        if self.discard in piles and self.waste in piles:
            return "The pair pile's top card can pair only with a pyramid card or the current card."
        return self.NEED

    def tap_hint(self) -> str:
        return "Cards are not moved here: pick two cards that add up to 13, or a king."

    def unavailable(self, p: int, partner: bool) -> str | None:
        """Why the top card of pile ``p`` cannot be used, or None."""
        if not 0 <= p < len(self.layout):
            return "There is no such pile."
        if p == self.stock:
            return "Stock cards must be turned before they can be used."
        cards = self.cards
        if not cards[p]:
            return "There is no card there."
        if p == self.discard:
            if not self.pair_pile:
                return "Removed cards are out of play."
            if not partner:
                return "The pair pile's top card can only be used in a pair."
            if self.SINGLE_KINGS and RANK[cards[p][-1]] == KING:
                return "A king on the pair pile cannot be used again."
            return None
        i = self.pyr.index(p) if p in self.pyr else -1
        if i >= 0 and self.cover[i] and any(cards[q] for q in self.cover[i]):
            return "That card is still covered by cards below it."
        return None
