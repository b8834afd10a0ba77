"""Shared pile behaviours for the building games (Klondike, Canfield, Castle, Lucie ...).

Most patience games differ only in a few parameters of their piles: what may be built on a
card (:class:`Build`), what an empty pile takes, how many cards can be lifted at once and
from which other piles a pile accepts cards (:class:`Rule`). A game built on
:class:`PatienceGame` declares those per role and gets legal-move generation, the moves
themselves, a stock with draw/redeal, safe autoplay and a reason for every refused move.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ..engine import cards as C
from ..engine.cards import COLOUR, RANK, SUIT
from ..engine.game import Game
from ..engine.model import DEAL, REDEAL, Move, PileSpec
from ..engine.reason import Card, Either, Rank, Reason, fill

_STEPS = frozenset((1, -1, 12, -12))
#: empty-pile rules that take one rank only
_EMPTY_RANK = {"king": 13, "ace": 1}

_move = Move._make

# Sentences that name kinds of piles ({src}, {dst}: a Rule's ``name``). The pile words are
# filled into the msgid (see games.engine.reason.fill), so a translator sees whole sentences.
FIXED = "Cards on a {src} cannot be moved."
NOT_FROM = "Cards cannot go from a {src} to a {dst}."
ONE_AT_A_TIME = "Only one card at a time can go to a {dst}."
AT_MOST = "A {dst} can hold at most {n} cards."
NO_CHANGE = "Moving a whole {src} into an empty {dst} would change nothing."
EMPTY_ONLY = {"king": "Only a king can go into an empty {dst}.",
              "ace": "Only an ace can start a {dst}.",
              "none": "An empty {dst} cannot be filled."}
BASE_ONLY = "Only {rank:a} can start a {dst}."
NOT_YET = "That {dst} cannot be started yet."
NOTHING_ON = "Nothing can be placed on a {dst}."
#: the building rule's refusal; ``target`` is :meth:`Build.need`'s phrase
ONLY_ON = "The {card} can only go on {target:a}."


def pile_reason(template: str, *, src: str = "", dst: str = "", **params: object) -> Reason:
    """A :class:`Reason` whose msgid names the piles ``src``/``dst`` in words."""
    return Reason(fill(template, src=src, dst=dst), **params)


@dataclass(frozen=True, slots=True)
class Build:
    """Which card may be placed on which: by suit relation and rank step.

    ``suit``: ``same``, ``alt`` (alternating colours), ``colour`` (same colour), ``any``.
    ``rank``: ``-1`` a card one lower goes on top (building down), ``+1`` building up,
    ``0`` either way. ``wrap`` joins K and A.
    """

    suit: str = "alt"
    rank: int = -1
    wrap: bool = False

    def fits(self, c: int, onto: int) -> bool:
        s = self.suit
        if s == "same":
            if SUIT[c] != SUIT[onto]:
                return False
        elif s == "alt":
            if COLOUR[c] == COLOUR[onto]:
                return False
        elif s == "colour" and COLOUR[c] != COLOUR[onto]:
            return False
        d = RANK[c] - RANK[onto]
        if self.wrap:
            d = (d + 6) % 13 - 6
        if self.rank == 0:
            return d in (1, -1)
        return d == self.rank

    def onto_ranks(self, c: int) -> list[int]:
        """Ranks a card may be placed on."""
        steps = (1, -1) if self.rank == 0 else (-self.rank,)
        out = []
        for st in steps:
            r = RANK[c] + st
            if self.wrap:
                r = (r - 1) % 13 + 1
            if 1 <= r <= 13:
                out.append(r)
        return out

    def need(self, c: int) -> Either | Reason | None:
        """What ``c`` needs underneath it, as a phrase for :data:`ONLY_ON`: the cards of its
        suit (English "a 9 of hearts"), a colour and ranks ("a black 8") or ranks alone."""
        ranks = self.onto_ranks(c)
        if not ranks:
            return None
        if self.suit == "same":
            return Either(*(Card(C.card(r, SUIT[c])) for r in ranks))
        which = Either(*(Rank(r) for r in ranks))
        if self.suit in ("alt", "colour"):
            colour = 1 - COLOUR[c] if self.suit == "alt" else COLOUR[c]
            if colour == C.RED:
                return Reason("a red {rank}", rank=which)
            return Reason("a black {rank}", rank=which)
        return which


@dataclass(frozen=True, slots=True)
class Rule:
    """How one pile behaves.

    ``empty``: what an empty pile takes: ``any``, ``king`` (a king or a king-headed run),
    ``ace``, ``base`` (the rank in ``vars['base']``) or ``none`` (never refilled).
    ``take``: what can be lifted: ``top`` (one card), ``run`` (any valid run ending at the top),
    ``full_run`` (the top card alone or the complete run), ``any_up`` (any face-up card with
    everything on it, in any order), ``none``.
    ``many``: whether several cards may land here at once.
    ``sources``: roles this pile accepts cards from (``None``: any pile but a foundation).
    """

    build: Build | None = None
    empty: str = "any"
    take: str = "top"
    many: bool = False
    sources: frozenset[str] | None = None
    max_cards: int = 0
    name: str = "pile"
    #: the sequence rule for lifting several cards, when it differs from ``build``
    lift: Build | None = None


FOUNDATION = Rule(Build("same", +1), empty="ace", take="none", max_cards=13, name="foundation")


_ONTO_CACHE: dict[tuple[frozenset[Build], int], tuple[tuple[int, ...], ...]] = {}


def onto_for(builds: frozenset[Build], decks: int) -> tuple[tuple[int, ...], ...]:
    """Per card code of ``decks`` decks, the card codes it fits on under one of ``builds``."""
    table = _ONTO_CACHE.get((builds, decks))
    if table is None:
        codes = range(52 * decks)
        table = tuple(tuple(t for t in codes if any(b.fits(c, t) for b in builds))
                      for c in codes)
        _ONTO_CACHE[builds, decks] = table
    return table


_UNDER_CACHE: dict[int, tuple[tuple[int, ...], ...]] = {}


def _under_for(onto: tuple[tuple[int, ...], ...]) -> tuple[tuple[int, ...], ...]:
    """The inverse of an ``onto`` table: per card, the cards that fit on it."""
    table = _UNDER_CACHE.get(id(onto))
    if table is None:
        lists: list[list[int]] = [[] for _ in onto]
        for c, targets in enumerate(onto):
            for t in targets:
                lists[t].append(c)
        table = _UNDER_CACHE[id(onto)] = tuple(tuple(x) for x in lists)
    return table


def roles(*names: str) -> frozenset[str]:
    return frozenset(names)


class PatienceGame(Game):
    """A game of piles with building rules, a stock and a waste.

    Subclasses set :attr:`RULES` (a :class:`Rule` per role, or override :meth:`rule_for`),
    :attr:`draw` and :attr:`redeals` (``-1`` = unlimited), and write ``build_layout``,
    ``deal`` and ``won``. Extra kinds of move go in :meth:`extra_moves` / :meth:`apply`.
    """

    RULES: dict[str, Rule] = {}
    draw: int = 1
    redeals: int = 0
    #: foundations built up in suit from the ace: enables safe autoplay
    standard_foundations: bool = True
    #: roles whose piles are interchangeable: lifting a whole pile into an empty pile of the
    #: same role changes nothing, so it is not a legal move (and a stuck game can end)
    twin_roles: frozenset[str] = frozenset()

    def prepare(self) -> None:
        self.rule: list[Rule] = [self.rule_for(i, spec) for i, spec in enumerate(self.layout)]
        self._role = [spec.role for spec in self.layout]
        self._sources = [i for i, r in enumerate(self.rule) if r.take != "none"]
        self._targets = [i for i, r in enumerate(self.rule)
                         if r.build is not None or r.empty != "none"]
        self.stock = self.first("stock")
        self.waste = self.first("waste")
        self.foundations = self.roles.get("foundation", [])
        self.tableau = self.roles.get("tableau", [])

    def rule_for(self, index: int, spec: PileSpec) -> Rule:
        return self.RULES.get(spec.role, Rule(take="none", empty="none"))

    def deal(self, rng) -> None:  # pragma: no cover - every game writes its own
        raise NotImplementedError

    # ------------------------------------------------------------ moves
    def liftable(self, s: int) -> range | tuple[int, ...]:
        """How many cards may be lifted from pile ``s`` at once."""
        cards = self.cards[s]
        up = len(cards) - self.down[s]
        if up <= 0:
            return ()
        take = self.rule[s].take
        if take == "top":
            return (1,)
        if take == "any_up":
            return range(1, up + 1)
        build = self.rule[s].lift or self.rule[s].build
        n = 1
        if build is not None:
            while n < up and build.fits(cards[-n], cards[-n - 1]):
                n += 1
        if take == "run":
            return range(1, n + 1)
        if take == "full_run":
            return (1, n) if n > 1 else (1,)
        return ()

    def accepts(self, d: int, s: int, n: int) -> bool:
        rd = self.rule[d]
        rs = self._role[s]
        if rd.sources is None:
            if rs == "foundation" and self._role[d] == "foundation":
                return False
        elif rs not in rd.sources:
            return False
        if n > 1 and not rd.many:
            return False
        dst = self.cards[d]
        if rd.max_cards and len(dst) + n > rd.max_cards:
            return False
        c = self.cards[s][-n]
        if not dst:
            if n == len(self.cards[s]) and rs == self._role[d] in self.twin_roles:
                return False  # the whole pile to an empty twin: nothing would change
            return self.empty_accepts(d, c)
        if rd.build is None or self.down[d] == len(dst):
            return False
        return rd.build.fits(c, dst[-1])

    def empty_accepts(self, d: int, c: int) -> bool:
        e = self.rule[d].empty
        if e == "any":
            return True
        if e == "king":
            return RANK[c] == 13
        if e == "ace":
            return RANK[c] == 1
        if e == "base":
            return RANK[c] == self.vars.get("base")
        return False

    #: True when a card can land on a non-empty pile only if the pile's ``build`` fits it,
    #: so move generation may look the fitting cards up instead of trying every pile. It
    #: holds for :meth:`accepts` as written here; a game whose ``accepts`` only adds
    #: restrictions may set it (``None``: true unless ``accepts`` is overridden).
    ACCEPTS_BY_BUILD: bool | None = None

    def _onto_table(self) -> tuple[tuple[int, ...], ...] | None:
        """Per card code, the cards it fits on under any target's build (built once)."""
        table = self.__dict__.get("_onto_any")
        if table is None:
            by_build = self.ACCEPTS_BY_BUILD
            if by_build is None:
                by_build = type(self).accepts is PatienceGame.accepts
            builds = frozenset(b for d in self._targets
                               if (b := self.rule[d].build) is not None)
            table = onto_for(builds, self.info.decks) if by_build else ()
            self._onto_any = table
        return table or None

    def legal_moves(self) -> list[Move]:
        moves: list[Move] = []
        self.stock_moves(moves)
        onto = self.__dict__.get("_onto_any")
        if onto is None:
            onto = self._onto_table()
        if onto:
            self._card_moves_by_build(moves, onto)
        else:
            self._card_moves_by_pairs(moves)
        self.extra_moves(moves)
        return moves

    def _card_moves_by_build(self, moves: list[Move], onto) -> None:
        """Every card move, found from the other end: for each pile, the cards that fit on
        its top are looked up among the cards that can be lifted (the same moves, in the same
        order, as trying every pair of piles)."""
        under = _under_for(onto)
        cards, down, accepts, rule = self.cards, self.down, self.accepts, self.rule
        where: dict[int, tuple[int, int]] = {}
        for s in self._sources:
            src = cards[s]
            if src:
                for n in self.liftable(s):
                    where[src[-n]] = (s, n)
        if not where:
            return
        found: list[tuple[int, int, int]] = []
        by_rank: dict[int, list[tuple[int, int]]] | None = None
        plain = type(self).empty_accepts is PatienceGame.empty_accepts
        for d in self._targets:
            dst = cards[d]
            if dst:
                if down[d] != len(dst):
                    for c in under[dst[-1]]:
                        sn = where.get(c)
                        if sn is not None and sn[0] != d:
                            found.append((sn[0], sn[1], d))
                continue
            e = rule[d].empty
            if plain and e != "any":
                if e == "none":
                    continue
                if e in _EMPTY_RANK or e == "base":
                    if by_rank is None:
                        by_rank = {}
                        for c, sn in where.items():
                            by_rank.setdefault(RANK[c], []).append(sn)
                    r = _EMPTY_RANK.get(e) or self.vars.get("base") or 0  # 0: no rank
                    found.extend((s, n, d) for s, n in by_rank.get(r, ()) if s != d)
                    continue
            found.extend((s, n, d) for s, n in where.values() if s != d)
        found.sort()
        for s, n, d in found:
            if accepts(d, s, n):
                moves.append(Move("move", s, d, n))

    def _card_moves_by_pairs(self, moves: list[Move]) -> None:
        cards, accepts = self.cards, self.accepts
        targets = self._targets
        # Every Build steps one rank, so a card can only land on a non-empty pile whose top
        # is one rank away (or twelve, with wrap): a cheap filter before the full predicate.
        # Games that override ``accepts`` may allow other placements, so they skip it.
        fast = type(self).accepts is PatienceGame.accepts
        for s in self._sources:
            src = cards[s]
            if not src:
                continue
            for n in self.liftable(s):
                r = RANK[src[-n]]
                for d in targets:
                    if d == s:
                        continue
                    dst = cards[d]
                    if fast and dst and (RANK[dst[-1]] - r) not in _STEPS:
                        continue
                    if accepts(d, s, n):
                        moves.append(Move("move", s, d, n))

    def single_card_moves(self, sources: list[int],
                          onto: tuple[tuple[int, ...], ...]) -> list[Move]:
        """The card moves of games where every pile lifts its top card only, found from the
        card instead of by trying every pair of piles (a solver asks millions of times):
        per pile of ``sources`` in order, its top card home (foundations built up in suit
        from the ace), onto each column top it fits on (``onto``: per card, the cards it
        may go on, in code order), into the empty columns, then (from a column) into the
        free reserve places. The same moves as :meth:`legal_moves` finds by pairs, which
        the games' tests compare; the order is what their searches were tuned with."""
        cards, roles, rule = self.cards, self._role, self.rule
        moves: list[Move] = []
        add = moves.append
        on_top: dict[int, int] = {}
        empty: list[int] = []
        for t in self.tableau:
            pile = cards[t]
            if not pile:
                empty.append(t)
            elif not rule[t].max_cards or len(pile) < rule[t].max_cards:
                on_top[pile[-1]] = t
        wanted: dict[int, int] = {}  # the next card of each foundation's suit
        free: list[int] = []
        for f in self.foundations:
            pile = cards[f]
            if not pile:
                free.append(f)
            elif RANK[pile[-1]] < 13:
                wanted[pile[-1] + 1] = f
        cells = [c for c in self.roles.get("cell", ())
                 if not cards[c] and rule[c].empty != "none"]
        lone_stays = "tableau" in self.twin_roles  # a lone card to an empty twin: no move
        for s in sources:
            pile = cards[s]
            if not pile:
                continue
            c = pile[-1]
            role = roles[s]
            if role != "foundation":
                if RANK[c] == 1:
                    for f in free:
                        add(_move(("move", s, f, 1, ())))
                elif c in wanted:
                    add(_move(("move", s, wanted[c], 1, ())))
            for t in onto[c]:
                d = on_top.get(t)
                if d is not None:
                    add(_move(("move", s, d, 1, ())))
            if empty and (len(pile) > 1 or role != "tableau" or not lone_stays) \
                    and self.empty_accepts(empty[0], c):
                for d in empty:
                    add(_move(("move", s, d, 1, ())))
            if role == "tableau":
                for d in cells:
                    add(_move(("move", s, d, 1, ())))
        return moves

    def column_moves_by_rank(self, moves: list[Move],
                             wants: dict[int, list[int]] | None = None) -> tuple[dict, list]:
        """Card moves between columns for games where a packet goes onto any column top one
        rank higher (whatever its suit) or into a space: the columns are looked up by the
        rank they take instead of trying every pair (a solver asks millions of times). Per
        column and per packet size: onto the columns that take it, into the spaces, then
        (a single card, with ``wants``: card without its deck -> foundations taking it)
        home. Returns the columns by the rank they take, and the spaces."""
        cards = self.cards
        onto: dict[int, list[int]] = {}  # rank that fits -> columns
        empty: list[int] = []
        for t in self.tableau:
            if cards[t]:
                onto.setdefault(RANK[cards[t][-1]] - 1, []).append(t)
            else:
                empty.append(t)
        for s in self.tableau:
            pile = cards[s]
            for n in self.liftable(s) if pile else ():
                c = pile[-n]
                moves.extend(Move("move", s, d, n) for d in onto.get(RANK[c], ()) if d != s)
                moves.extend(Move("move", s, d, n) for d in empty)
                if n == 1 and wants is not None:
                    moves.extend(Move("move", s, f, 1) for f in wants.get(c % 52, ()))
        return onto, empty

    def stock_moves(self, moves: list[Move]) -> None:
        if self.stock < 0 or self.waste < 0:
            return
        if self.cards[self.stock]:
            moves.append(DEAL)
        elif self.cards[self.waste] and self.vars.get("redeals", 0) != 0:
            moves.append(REDEAL)

    def extra_moves(self, moves: list[Move]) -> None:
        """Game-specific moves beyond card moves and the stock."""

    def apply(self, move: Move) -> None:
        kind = move.kind
        if kind == "move":
            self._move_cards(move.src, move.dst, move.n)
        elif kind == "deal":
            self.deal_from_stock()
        elif kind == "redeal":
            self.redeal_waste()
        else:
            self.apply_extra(move)

    def apply_extra(self, move: Move) -> None:
        raise ValueError(f"{self.info.id} has no move {move.kind!r}")

    def deal_from_stock(self) -> None:
        n = min(self.draw, len(self.cards[self.stock]))
        self._move_cards(self.stock, self.waste, n, reverse=True)

    def redeal_waste(self) -> None:
        w = self.waste
        self._move_cards(w, self.stock, len(self.cards[w]), reverse=True, up=False)
        left = self.vars.get("redeals", 0)
        if left > 0:
            self._set("redeals", left - 1)

    def aces_out(self, piles: list[int]) -> list[int]:
        """Start ``piles`` with the aces, suit k on the k-th, for the games whose aces begin
        in place; the other 48 cards, in order, are what is left to shuffle and deal."""
        for suit, f in enumerate(piles[:4]):
            self.put(f, C.card(C.ACE, suit))
        return [c for c in range(52) if RANK[c] != C.ACE]

    def init_stock(self, rest: list[int]) -> None:
        """Put the undealt cards face down on the stock (first card of ``rest`` dealt first)."""
        for c in reversed(rest):
            self.put(self.stock, c, up=False)
        if self.waste >= 0:
            self.vars["redeals"] = self.redeals

    @property
    def won(self) -> bool:
        cards = self.cards
        return sum([len(cards[i]) for i in self.foundations]) == self.card_count

    @property
    def card_count(self) -> int:
        return 52 * self.info.decks

    # ------------------------------------------------------------ helpers for players
    def safe_autoplay(self) -> Move | None:
        """A card to a foundation that no other card could ever need to be built on.

        The rule of thumb (aces, twos, and cards at most one above the lowest foundation)
        holds only where every build off the foundations goes down without wrapping: then
        a card can only ever carry lower cards, and those are home. Where cards may build
        up (Shamrocks) a card sent home early can be the place its own suit's next card
        needed, and won positions were called lost."""
        if not self.standard_foundations or not self.foundations or not self._builds_down():
            return None
        progress = [0, 0, 0, 0]
        for f in self.foundations:
            if self.cards[f]:
                t = self.cards[f][-1]
                progress[SUIT[t]] = max(progress[SUIT[t]], RANK[t])
        low = min(progress)
        for s in self._sources:
            if self._role[s] == "foundation" or not self.cards[s]:
                continue
            if self.down[s] == len(self.cards[s]):
                continue
            c = self.cards[s][-1]
            if RANK[c] <= 2 or RANK[c] <= low + 1:
                for f in self.foundations:
                    if self.accepts(f, s, 1):
                        return Move("move", s, f, 1)
        return None

    def low_card_home(self, piles: Iterable[int]) -> Move | None:
        """The first top card of ``piles`` a foundation takes that no card can still need
        to rest on when foundations only go up (any number of decks): an ace or a two, or
        a card at most one rank above the lowest foundation (an empty one counts 0). The
        games that use it say why the rule holds for them."""
        cards = self.cards
        low = min(RANK[cards[f][-1]] if cards[f] else 0 for f in self.foundations)
        for s in piles:
            pile = cards[s]
            if pile and (RANK[pile[-1]] <= 2 or RANK[pile[-1]] <= low + 1):
                for f in self.foundations:
                    if self.accepts(f, s, 1):
                        return Move("move", s, f, 1)
        return None

    def _builds_down(self) -> bool:
        """Whether every build off the foundations goes one rank down, without wrapping
        (the condition of :meth:`safe_autoplay`'s rule of thumb)."""
        down = self.__dict__.get("_down_only")
        if down is None:
            down = self._down_only = all(
                b.rank == -1 and not b.wrap
                for d in self._targets
                if (b := self.rule[d].build) is not None and self._role[d] != "foundation")
        return down

    def explain(self, move: Move) -> Reason:
        if move.kind == "deal":
            if self.stock < 0:
                return Reason("This game has no stock to deal from.")
            if not self.cards[self.stock]:
                return Reason("The stock is empty.")
            return Reason("You cannot deal now.")
        if move.kind == "redeal":
            if self.stock >= 0 and self.cards[self.stock]:
                return Reason("There are still cards in the stock.")
            if self.waste >= 0 and not self.cards[self.waste]:
                return Reason("There are no cards to turn over.")
            return Reason("No more redeals are allowed.")
        if move.kind != "move":
            return Reason("That move is not possible now.")
        return self.explain_card_move(move.src, move.dst, move.n)

    def explain_card_move(self, s: int, d: int, n: int) -> Reason:
        if s == d:
            return Reason("That move is not possible.")
        src, dst = self.cards[s], self.cards[d]
        rs, rd = self.rule[s], self.rule[d]
        if len(src) < n:
            return Reason("There is no card there.")
        if len(src) - self.down[s] < n:
            return Reason("That card is face down.")
        if rs.take == "none":
            return pile_reason(FIXED, src=rs.name)
        if n not in self.liftable(s):
            if rs.take == "top":
                return Reason("Only one card can be moved at a time.")
            if rs.take == "full_run":
                return Reason("Move the top card alone or the whole run together.")
            return Reason("Those cards are not in sequence, so they cannot move together.")
        c = src[-n]
        if rd.sources is not None and self._role[s] not in rd.sources or (
                rd.sources is None and self._role[s] == "foundation" == self._role[d]):
            return pile_reason(NOT_FROM, src=rs.name, dst=rd.name)
        if n > 1 and not rd.many:
            return pile_reason(ONE_AT_A_TIME, dst=rd.name)
        if rd.max_cards and len(dst) + n > rd.max_cards:
            return pile_reason(AT_MOST, dst=rd.name, n=rd.max_cards)
        if not dst:
            if (n == len(src) and self._role[s] == self._role[d] in self.twin_roles
                    and self.empty_accepts(d, c)):
                return pile_reason(NO_CHANGE, src=rs.name, dst=rd.name)
            e = rd.empty
            if e in EMPTY_ONLY:
                return pile_reason(EMPTY_ONLY[e], dst=rd.name)
            if e == "base":
                base = self.vars.get("base")
                if base:
                    return pile_reason(BASE_ONLY, dst=rd.name, rank=Rank(base))
                return pile_reason(NOT_YET, dst=rd.name)
            return Reason("That move is not possible now.")
        if rd.build is None:
            return pile_reason(NOTHING_ON, dst=rd.name)
        need = rd.build.need(c)
        if need is None:
            return Reason("The {card} cannot be placed on another card there.", card=Card(c))
        return Reason(ONLY_ON, card=Card(c), target=need)

    def reason_msgids(self) -> set[str]:
        """Every msgid :meth:`explain_card_move` can give for this game's piles (the pile
        sentences are made from the rules' pile names, so no source scan can list them):
        for the catalog test that every reason has a translation."""
        ids = {ONLY_ON, "a red {rank}", "a black {rank}", Either.OR}
        rules = [(self._role[i], self.rule[i]) for i in range(len(self.layout))]
        for role_s, rs in rules:
            if rs.take == "none":
                ids.add(fill(FIXED, src=rs.name))
                continue
            for role_d, rd in rules:
                if rd.sources is not None and role_s not in rd.sources or (
                        rd.sources is None and role_s == "foundation" == role_d):
                    ids.add(fill(NOT_FROM, src=rs.name, dst=rd.name))
                elif role_s == role_d in self.twin_roles:
                    ids.add(fill(NO_CHANGE, src=rs.name, dst=rd.name))
        for _, rd in rules:
            if not rd.many:
                ids.add(fill(ONE_AT_A_TIME, dst=rd.name))
            if rd.max_cards:
                ids.add(fill(AT_MOST, dst=rd.name))
            if rd.empty in EMPTY_ONLY:
                ids.add(fill(EMPTY_ONLY[rd.empty], dst=rd.name))
            if rd.empty == "base":
                ids |= {fill(BASE_ONLY, dst=rd.name), fill(NOT_YET, dst=rd.name)}
            if rd.build is None:
                ids.add(fill(NOTHING_ON, dst=rd.name))
        return ids

