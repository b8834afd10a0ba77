"""What the search knows of Canfield (games/canfield.py), apart from its rules: see
docs/solver.md for what each hook is for.
"""

from __future__ import annotations

import random

from ..canfield import Canfield
from ..engine.cards import RANK
from ..engine.model import Compound, Move
from . import searches
from .outcome import CHECK_EVERY
from .patience import PatienceSearch
from .rules import CanfieldRules
from .talon import round_plays, turns_round


@searches(Canfield)
class CanfieldSearch(PatienceSearch, CanfieldRules):
    """What the search knows of Canfield."""

    def symmetric_groups(self) -> tuple[tuple[int, ...], ...]:
        """Which column or foundation holds which cards never matters."""
        return tuple(self.foundations), tuple(self.tableau)

    # With unlimited redeals the talon (waste, then the stock as it will be turned) reads the
    # same however far it has been turned, and the search turns the stock round to each card
    # it could play as one compound move instead of single turns.
    def solver_key(self) -> bytes:
        """The position, with how far the stock is turned folded where that never matters.

        From a redeal the turns stop at the sizes of the waste 0, 3, 6 ... and then, when
        fewer than three are left, one by one to the end (the *cycle*); from a waste size
        in the cycle every size in it can be reached again, and nothing else, so all of
        them are one position. After a card is played from the waste its size may fall
        outside the cycle (a card taken from a waste of 6 leaves 5: then 8, 11 ... can be
        reached, and after the next redeal never 5 again): such a position can reach more
        waste cards than the same cards in the cycle, and keeps its size in the key.

        The pruned pass (which only looks for wins: its "lost" sends the search on to the
        complete pass) folds every size, as wins come sooner so; its keys carry a mark of
        their own (254), so that a key made during a pruned search never stands for a
        position of the complete pass.
        """
        if self.redeals >= 0:
            return super().solver_key()
        cards = self.cards
        talon = bytes(cards[self.waste]) + bytes(reversed(cards[self.stock]))
        i, n, draw = len(cards[self.waste]), len(talon), self.draw
        if self.__dict__.get("_fold_all"):
            phase = 254
        else:
            phase = 255 if i % draw == 0 or i > n - n % draw else i
        found = sorted(bytes((len(cards[f]), cards[f][-1] if cards[f] else 255))
                       for f in self.foundations)
        cols = sorted(bytes((len(cards[t]),)) + bytes(cards[t]) for t in self.tableau)
        reserve = cards[self.reserve]
        return (b"".join(found) + b"".join(cols) + bytes((len(reserve), *reserve))
                + bytes((len(talon), *talon, self.vars["base"], phase)))

    def solver_autoplay(self) -> Move | Compound | None:
        """:meth:`PatienceSearch.solver_autoplay` (a card home once every card that could
        be built on it is home), but never from the waste when the stock is turned three at
        a time: taking a card out of the talon changes which cards the turns reach (the
        cards after it move up one place), and the cards a win needs may be reachable only
        with it left where it is. (Found by the comparison with a plain search: a position
        with base king where 4C was sent home from the waste and the position was called
        lost; it is won.) The waste's card is still tried first among the moves."""
        if self.draw == 1:
            return super().solver_autoplay()
        need = self._home_needs_table()
        if not need:
            return None
        cards = self.cards
        home = {c for f in self.foundations for c in cards[f]}
        for s in self._sources:
            pile = cards[s]
            if s == self.waste or not pile or self.down[s] == len(pile):
                continue
            c = pile[-1]
            if all(d in home for d in need[c]):
                for f in self.foundations:
                    if self.accepts(f, s, 1):
                        return Move("move", s, f, 1)
        return None

    def solver_moves(self, prune: bool = False) -> list:
        moves = super().solver_moves(prune)
        self._fold_all = prune  # the key folds every waste size in the pruned pass only
        if self.redeals >= 0 or not self.vars.get("base"):
            return moves  # (Selective Canfield: the first foundation card is still to choose)
        home, rest = round_plays(self, self._wants(), last_singly=True)
        w = self.waste
        return home + [m for m in moves if m.kind == "move" and m.src != w] + rest

    def _wants(self) -> dict[int, list[int]]:
        """Per card, the piles that would take it from the waste now (one empty pile of a
        kind stands for all: the key folds them together)."""
        cards = self.cards
        wants: dict[int, list[int]] = {}
        base = self.vars["base"]
        empty_home = False
        for f in self.foundations:
            pile = cards[f]
            if pile:
                if len(pile) < 13:
                    c = pile[-1]
                    wants.setdefault(c + 1 if RANK[c] < 13 else c - 12, []).append(f)
            elif not empty_home:
                empty_home = True
                for suit in range(4):
                    wants.setdefault(13 * suit + base - 1, []).append(f)
        under = self.fits_on
        space = -1
        for t in self.tableau:
            pile = cards[t]
            if pile:
                for c in under[pile[-1]]:
                    wants.setdefault(c, []).append(t)
            elif space < 0:
                space = t
        if space >= 0 and not cards[self.reserve]:
            for c in range(52):
                wants.setdefault(c, []).append(space)
        return wants

    def solver_hopeless(self) -> bool:
        """A column card that can never leave its column (``stuck_card``): the cards of its
        suit that go home before it and every card it could go on lie under it. A space
        takes only reserve or waste cards, so no column card is free to move into one."""
        return self.stuck_card(self.tableau, kings_free=False)

    # ------------------------------------------------------------ the own search
    def solver_dfs(self, prune: bool, budget) -> tuple | None:
        """Canfield's own depth-first search (see :meth:`Search.solver_dfs`), for the
        standard game (turn three, unlimited redeals) with whole-pile moves: the moves of
        :meth:`solver_moves` in their order, the safe move of :meth:`solver_autoplay`, on
        plain lists instead of the engine's journaled piles (the generic search spends
        most of a node in ``legal_moves``, ``accepts`` and the journal).

        Differences from the generic search, none of which changes a verdict:

        - a base card goes to the first empty foundation only (the others hold the same
          position);
        - the key leaves the talon's cards out: from one starting position the talon is
          always the starting talon less the cards found elsewhere (home, in a column, in
          the reserve), in the same order;
        - the waste's size is not in the key either: each key keeps the waste sizes that
          the positions met with it reach by turns alone, and a position is met when its
          size is among them. Sound: from size ``i`` the turns reach every size reachable
          from any size they reach, and a card move leaves the talon alone, so the
          position with size ``i`` can answer every move of the one with a reached size by
          the same move (a talon play by the same play after more turns) and stays ahead;
          what wins from the one wins from the other. (The generic key keeps every size
          outside the cycle apart, and so searches more positions.)
        - restarts before the pruned pass (see below): they find wins only;
        - a dead-end test of its own (``frozen``); :meth:`solver_hopeless` is not asked,
          as its frozen-card test can never fire here (every column is one run, and a card
          in a run on the card under it is never the first to freeze there).

        Returns None (the generic search runs) for other variants, a position whose
        columns are not runs or have face-down cards, or before the base rank is known.
        """
        if (self.redeals >= 0 or self.opts.get("group_moves") != "whole_pile"
                or not self.vars.get("base")):
            return None
        if not prune or not PROBE_LAST:
            return _CanfieldDFS(self).run(prune, budget)
        # Restarts first: short pruned searches with the moves reversed or shuffled, each
        # with a node limit twice the one two probes before. A deal whose first pruned
        # search sinks into a lost branch early is often won within a few thousand nodes
        # in another order. They find wins only: a probe's "unknown" goes on.
        nodes = positions = 0
        limit, k = PROBE_FIRST, 0
        while limit <= PROBE_LAST:
            order = _reverse if k % 2 == 0 else random.Random(k).shuffle
            cap = _Cap(budget, limit)
            got = _CanfieldDFS(self).run(True, cap, order)
            if got is None:
                return None  # (not a position this search takes: the generic one runs)
            result, line, n, p = got
            nodes += n
            positions += p
            if result != "unknown":
                return result, line, nodes, positions  # (lost: the whole pruned space)
            if cap.outer:
                return "unknown", [], nodes, positions
            k += 1
            if k % 2 == 0:
                limit *= 2
        got = _CanfieldDFS(self).run(True, budget)
        if got is None:  # (cannot happen: the probes took this position)
            return None
        result, line, n, p = got
        return result, line, nodes + n, positions + p


#: node limits of the first and the last restart of :meth:`CanfieldSearch.solver_dfs`
PROBE_FIRST, PROBE_LAST = 1_000, 64_000


def _reverse(moves: list) -> None:
    moves.reverse()


class _Cap:
    """A node limit inside the search's budget: ``take`` charges both; ``outer`` tells
    that the search's own budget ran out."""

    def __init__(self, budget, limit: int) -> None:
        self.budget, self.left, self.outer = budget, limit, False

    def take(self, nodes: int) -> bool:
        self.left -= nodes
        if self.budget.take(nodes):
            self.outer = True
        return self.outer or self.left <= 0


class _CanfieldDFS:
    """The state of :meth:`CanfieldSearch.solver_dfs`: per suit the number of cards home,
    the columns as lists, the reserve's size (its order never changes) and the talon as
    one list (the waste bottom to top, then the stock in the order it will be turned) with
    the waste's size ``i``."""

    def __init__(self, g: CanfieldSearch) -> None:
        self.g = g

    def run(self, prune: bool, budget, order=None) -> tuple | None:  # noqa: C901 - one loop, for speed
        g = self.g
        cards = g.cards
        T = list(g.tableau)
        W, R, S = g.waste, g.reserve, g.stock
        F = list(g.foundations)
        base = g.vars["base"]
        draw = g.draw
        build = g.column_build()
        for t in T:
            col = cards[t]
            if g.down[t] or any(not build.fits(col[k], col[k - 1]) for k in range(1, len(col))):
                return None
        need = g._home_needs_table()
        if not need:
            return None
        # fits[c]: the set of column tops c may go on
        fits = [frozenset(t for t in range(52) if build.fits(c, t)) for c in range(52)]
        idx = [(RANK[c] - base) % 13 for c in range(52)]  # place in its suit's foundation
        suit = [c // 13 for c in range(52)]
        home = [0, 0, 0, 0]
        fpile = [-1, -1, -1, -1]
        for f in F:
            pile = cards[f]
            if pile:
                s = suit[pile[0]]
                home[s] = len(pile)
                fpile[s] = f
        cols = [list(cards[t]) for t in T]
        res = list(cards[R])
        r = len(res)
        tal = list(cards[W]) + cards[S][::-1]
        i = len(cards[W])
        if r and any(not col for col in cols):
            return None  # (the rules fill a space from the reserve at once)
        reach_cache: dict[tuple[int, int], tuple] = {}
        # for the dead-end test: per card, the bit of each card it may go on; per suit and
        # count, the bits of the cards of that suit home
        hostbits = [sum(1 << t for t in fits[c]) for c in range(52)]
        homebits = [[sum(1 << (13 * s + (base - 1 + k) % 13) for k in range(n))
                     for n in range(14)] for s in range(4)]

        def frozen() -> bool:
            """Whether a column card can never leave its column (the game is lost).

            With whole-pile moves a card lying on other cards of its column leaves them
            only as the column's top card (a whole-pile lift takes them along): the cards
            under it stay under it until it goes. So a card with, under it, a card of its
            suit that goes home before it, and each card it may be built on home (the
            foundations never give back) or under it, can neither go home nor be moved
            onto a column (nor into a space: a space takes waste or reserve cards only).
            Every card must go home to win."""
            gone = (homebits[0][home[0]] | homebits[1][home[1]] | homebits[2][home[2]]
                    | homebits[3][home[3]])
            for col in cols:
                if len(col) < 2:
                    continue
                x = col[0]
                below = gone | 1 << x
                low = [13, 13, 13, 13]
                low[suit[x]] = idx[x]
                for j in range(1, len(col)):
                    y = col[j]
                    if low[suit[y]] < idx[y] and not hostbits[y] & ~below:
                        return True
                    below |= 1 << y
                    if idx[y] < low[suit[y]]:
                        low[suit[y]] = idx[y]
            return False


        def reach(n: int, i0: int) -> tuple:
            """The waste sizes the talon can be turned round to from ``i0`` (each with a
            top card), with the turns that get there: as :func:`round_plays`."""
            walk = turns_round(n, i0, draw, last_singly=True)
            got = tuple((j, made) for j, made in walk if j)
            reach_cache[(n, i0)] = got
            reach_bits[(n, i0)] = sum(1 << j for j, _ in walk)
            return got

        reach_bits: dict[tuple[int, int], int] = {}

        def cover() -> int:
            """The waste sizes the position reaches by turns alone, as bits (in the pruned
            pass all of them: it folds every waste size)."""
            if prune:
                return -1
            got = reach_bits.get((len(tal), i))
            if got is None:
                reach(len(tal), i)
                got = reach_bits[(len(tal), i)]
            return got

        def key() -> bytes:
            """The cards' places (the talon's follow from them), without the waste size."""
            return (bytes((*home, r))
                    + b"\xff".join(sorted([bytes(cols[0]), bytes(cols[1]),
                                           bytes(cols[2]), bytes(cols[3])])))

        def safe(c: int) -> bool:
            """:meth:`solver_autoplay`'s test: ``c`` goes home next, and every card that
            could be built on it is home."""
            if idx[c] != home[suit[c]]:
                return False
            for d in need[c]:
                if idx[d] >= home[suit[d]]:
                    return False
            return True

        def children() -> list:
            # the safe move alone, if there is one (columns, reserve: the order of the
            # piles; never the waste's top, see :meth:`CanfieldSearch.solver_autoplay`)
            for k in range(4):
                if cols[k] and safe(cols[k][-1]):
                    return [(3, k, -1)]
            if r and safe(res[r - 1]):
                return [(1, 0, -1)]
            n = len(tal)
            plays = reach_cache.get((n, i)) or reach(n, i)
            moves: list[tuple[int, int, int]] = []
            add = moves.append
            for j, _ in plays:
                c = tal[j - 1]
                if idx[c] == home[suit[c]]:
                    add((0, j, -1))
            for k in range(4):
                col = cols[k]
                if col and idx[col[-1]] == home[suit[col[-1]]]:
                    add((3, k, -1))
            rc = res[r - 1] if r else -1
            if r and idx[rc] == home[suit[rc]]:
                add((1, 0, -1))
            tops = [col[-1] if col else -1 for col in cols]
            if r >= 2:
                for k in range(4):
                    if tops[k] in fits[rc]:
                        add((2, k, 0))
            wc = tal[i - 1] if i else -1
            for k in range(4):
                col = cols[k]
                if not col:
                    continue
                f = fits[col[-1]]
                if prune and len(col) > 1:
                    x = col[-2]
                    useful = (idx[x] == home[suit[x]] or (wc >= 0 and x in fits[wc])
                              or (rc >= 0 and x in fits[rc]))
                else:
                    useful = True
                if useful:
                    for k2 in range(4):
                        if k2 != k and tops[k2] in f:
                            add((4, k, k2))
                if len(col) > 1:
                    f = fits[col[0]]
                    for k2 in range(4):
                        if k2 != k and tops[k2] in f:
                            add((5, k, k2))
            if r == 1:
                for k in range(4):
                    if tops[k] in fits[rc]:
                        add((2, k, 0))
            space = -1
            if not r:
                for k in range(4):
                    if not cols[k]:
                        space = k
                        break
            for j, _ in plays:
                f = fits[tal[j - 1]]
                for k in range(4):
                    if tops[k] in f:
                        add((0, j, k))
                if space >= 0:
                    add((0, j, space))
            return moves

        def go_home(c: int) -> int:
            s = suit[c]
            if not home[s]:
                used = set(fpile)
                fpile[s] = next(f for f in F if f not in used)
            home[s] += 1
            return fpile[s]

        def leave_home(c: int) -> None:
            s = suit[c]
            home[s] -= 1
            if not home[s]:
                fpile[s] = -1

        # A record per move made: (move, waste size before, whether the reserve filled a
        # space, the foundation pile it went to or the cards lifted)
        def make(m: tuple) -> tuple:
            nonlocal i, r
            kind, a, b = m
            old_i = i
            n_before = len(tal)
            fill = False
            extra = 0
            if kind == 0:
                c = tal.pop(a - 1)
                i = a - 1
                if b < 0:
                    extra = go_home(c)
                else:
                    cols[b].append(c)
            elif kind == 1:
                r -= 1
                extra = go_home(res[r])
            elif kind == 2:
                r -= 1
                cols[a].append(res[r])
            else:
                col = cols[a]
                if kind == 3:
                    extra = go_home(col.pop())
                elif kind == 4:
                    cols[b].append(col.pop())
                else:
                    extra = len(col)
                    cols[b].extend(col)
                    col.clear()
                if not col and r:
                    r -= 1
                    col.append(res[r])
                    fill = True
            return (m, old_i, fill, extra, n_before)

        def unmake(rec: tuple) -> None:
            nonlocal i, r
            (kind, a, b), old_i, fill, extra, _ = rec
            if kind == 0:
                if b < 0:
                    s = next(s for s in range(4) if fpile[s] == extra)
                    home[s] -= 1
                    c = 13 * s + (base - 1 + home[s]) % 13
                    if not home[s]:
                        fpile[s] = -1
                else:
                    c = cols[b].pop()
                tal.insert(a - 1, c)
                i = old_i
            elif kind == 1:
                leave_home(res[r])
                r += 1
            elif kind == 2:
                cols[a].pop()
                r += 1
            else:
                col = cols[a]
                if fill:
                    col.pop()
                    r += 1
                if kind == 3:
                    s = next(s for s in range(4) if fpile[s] == extra)
                    home[s] -= 1
                    col.append(13 * s + (base - 1 + home[s]) % 13)
                    if not home[s]:
                        fpile[s] = -1
                elif kind == 4:
                    col.append(cols[b].pop())
                else:
                    dst = cols[b]
                    col.extend(dst[-extra:])
                    del dst[-extra:]

        def line(path: list[tuple]) -> list[Move]:
            """The engine's moves of the line ``path`` (records of ``make``)."""
            out: list[Move] = []
            for (kind, a, b), old_i, _, extra, n_before in path:
                if kind == 0:
                    turns = dict(reach_cache.get((n_before, old_i)) or reach(n_before, old_i))
                    out.extend(turns[a])
                    out.append(Move("move", W, extra if b < 0 else T[b], 1))
                elif kind == 1:
                    out.append(Move("move", R, extra, 1))
                elif kind == 2:
                    out.append(Move("move", R, T[a], 1))
                elif kind == 3:
                    out.append(Move("move", T[a], extra, 1))
                elif kind == 4:
                    out.append(Move("move", T[a], T[b], 1))
                else:
                    out.append(Move("move", T[a], T[b], extra))
            return out

        # per key, the waste sizes reached by turns from the positions met with these
        # cards: a position whose waste size is among them is met (see the docstring)
        seen = {key(): cover()}
        if frozen():
            return "lost", [], 0, 1
        nodes = 0
        tick = CHECK_EVERY
        if order is not None:
            plain_children = children

            def children() -> list:
                moves = plain_children()
                if len(moves) > 1:
                    order(moves)
                return moves

        stack_moves = [children()]
        stack_index = [0]
        path: list[tuple] = []
        while stack_moves:
            moves = stack_moves[-1]
            k = stack_index[-1]
            if k >= len(moves):
                stack_moves.pop()
                stack_index.pop()
                if path:
                    unmake(path.pop())
                continue
            stack_index[-1] = k + 1
            path.append(make(moves[k]))
            nodes += 1
            if home[0] + home[1] + home[2] + home[3] == 52:
                return "won", line(path), nodes, len(seen)
            kk = key()
            got = seen.get(kk)
            if got is not None and got >> i & 1:
                unmake(path.pop())
            else:
                seen[kk] = (got or 0) | cover()
                if frozen():
                    unmake(path.pop())
                else:
                    stack_moves.append(children())
                    stack_index.append(0)
            tick -= 1
            if not tick:
                tick = CHECK_EVERY
                if budget.take(CHECK_EVERY):
                    return "unknown", [], nodes, len(seen)
        budget.take(CHECK_EVERY - tick)
        return "lost", [], nodes, len(seen)
