"""What the search knows of Beleaguered Castle (games/beleaguered_castle.py), apart from its rules: see
docs/solver.md for what each hook is for.
"""

from __future__ import annotations

from ..beleaguered_castle import CastleGame
from ..engine.cards import RANK, SUIT
from ..engine.model import Move
from . import searches
from .open_patience import OpenPatienceSearch
from .outcome import WON
from .plain_dfs import ALL_HOME, card_places, depth_first, next_home_counts, placer
from .rules import CastleGameRules
from .single_card import SingleCardSearch


@searches(CastleGame)
class CastleGameSearch(SingleCardSearch, OpenPatienceSearch, CastleGameRules):
    """What the search knows of CastleGame."""

    def solver_autoplay(self) -> Move | None:
        """:meth:`PatienceSearch.solver_autoplay` for this family, worked out directly: the
        foundations never give a card back and a card carries only cards one rank lower of
        any suit, so a card that is next for its foundation goes home safely when it is a
        two or lower, or when every card one rank lower is home (rank at most the lowest
        foundation's plus one). The same move as the generic hook, checked by the tests."""
        cards = self.cards
        progress = [0, 0, 0, 0]
        free = -1
        at = {}
        for f in self.foundations:
            pile = cards[f]
            if pile:
                t = pile[-1]
                progress[SUIT[t]] = RANK[t]
                at[t + 1] = f
            elif free < 0:
                free = f
        s = self.thumb_home(progress)
        if s < 0:
            return None
        c = cards[s][-1]
        return Move("move", s, free if RANK[c] == 1 else at[c], 1)

    def solver_dfs(self, prune: bool, budget) -> tuple | None:
        """The family's own depth-first search (see :meth:`Search.solver_dfs`): the generic
        search node for node (the moves of :meth:`solver_moves` in the order of
        :meth:`guided`, the safe move of :meth:`solver_autoplay`, positions merged as
        :meth:`solver_key` merges them), on plain lists instead of the engine's piles, so a
        node costs no journal, no history and no walk over the layout.

        The position is the wings alone: every card is in a wing or home, so the
        foundations follow from the wings, and the key is the wings' bytes sorted (they are
        interchangeable). Per card, the wing it lies in and its height there are kept up to
        date (one card moves at a time), which is what the guided order asks for.
        """
        cards = self.cards
        tab = list(self.tableau)
        n = len(tab)
        wings = [list(cards[t]) for t in tab]
        prog = [0, 0, 0, 0]  # per suit: how many cards are home
        for f in self.foundations:
            if cards[f]:
                t = cards[f][-1]
                prog[t // 13] = t % 13 + 1
        where, at = card_places(wings)  # per card: its wing (-1 when home), its height there
        put = placer(wings, where, at)
        if prog == ALL_HOME:  # (every card is in a wing or home)
            return "won", [], 0, 1
        wb = [bytes(w) for w in wings]
        onto = self._onto_column
        if n > 15 or max(map(len, onto)) > 4:
            return None  # the moves' packing below holds 15 wings and 4 hosts a card
        held = -1
        if self.history:
            last = self.history[-1]
            role = self._role
            if last.kind == "move" and role[last.src] == "tableau" == role[last.dst]:
                held = tab.index(last.dst)
        wing_range = range(n)

        SU = tuple(c // 13 for c in range(52))
        RK = tuple(c % 13 for c in range(52))  # rank - 1

        def children() -> list[int]:
            """The moves of :meth:`solver_moves` in the order of :meth:`guided`, or the safe
            move alone (:meth:`solver_autoplay`). A move is an int that sorts as the
            generic order does: the score of :meth:`guided` (less what every move shares),
            then the kind (home, onto a wing, into a space), the wing, the host's place in
            ``onto``; the low bits hold the wing (bits 6-9) and the destination + 1
            (bits 0-3, 0 for home)."""
            low = min(prog) + 1
            top_of = {}
            space = -1
            for t in wing_range:
                w = wings[t]
                if w:
                    c = w[-1]
                    r = RK[c]
                    if r == prog[SU[c]] and (r <= 1 or r < low):
                        return [t << 6]
                    top_of[c] = t
                elif space < 0:
                    space = t
            count = next_home_counts(prog, where, n)  # per wing
            out = []
            for s, w in enumerate(wings):
                if not w or s == held:
                    continue
                c = w[-1]
                r = RK[c]
                cs = count[s]
                if prog[SU[c]] == r:
                    score = 62 - cs
                    if r < 12:
                        t = where[c + 1]
                        score += len(wings[t]) - 1 - at[c + 1] - (t == s)
                    out.append(score << 12 | s << 6)
                    cs -= 1  # a card next for home leaving its wing takes its depth along
                if prune and len(w) > 1:
                    u = w[-2]
                    if prog[SU[u]] != RK[u]:
                        continue  # moving this card achieves nothing now
                j = 0
                for t in onto[c]:
                    d = top_of.get(t)
                    if d is not None:
                        out.append((count[d] - cs + 64) << 12 | 1024 | s << 6 | j << 4 | d + 1)
                    j += 1
                if space >= 0 and len(w) > 1:
                    out.append((64 - cs) << 12 | 2048 | s << 6 | space + 1)
            if len(out) > 1:
                out.sort()
            return out

        path: list[tuple[int, int, int, int]] = []  # per move: wing, destination, held, card

        def play(k: int) -> bool:
            nonlocal held
            s = k >> 6 & 15
            d = (k & 15) - 1
            w = wings[s]
            c = w.pop()
            wb[s] = bytes(w)
            if d < 0:
                prog[c // 13] += 1
                where[c] = -1
            else:
                put(d, c)
                wb[d] = bytes(wings[d])
            path.append((s, d, held, c))
            held = d
            return d < 0 and prog == ALL_HOME  # (only a card going home can win)

        def undo() -> None:
            """The last move taken back: its card from wing ``d`` (home when ``d`` is -1)
            back onto wing ``s``."""
            nonlocal held
            s, d, held, c = path.pop()
            if d < 0:
                prog[c // 13] -= 1
            else:
                wings[d].pop()
                wb[d] = bytes(wings[d])
            put(s, c)
            wb[s] = bytes(wings[s])

        def key() -> bytes:
            return b"\xff".join(sorted(wb))

        result, nodes, positions = depth_first(children, play, undo, key, budget)
        return result, self._castle_line(path) if result == WON else [], nodes, positions

    def _castle_line(self, path: list[tuple[int, int, int, int]]) -> list[Move]:
        """The engine's moves for a line of (wing, destination wing or -1 for home): an ace
        goes to the first empty foundation, as :meth:`solver_moves` sends it."""
        cards, tab = self.cards, self.tableau
        wings = [list(cards[t]) for t in tab]
        pile_of: dict[int, int] = {}
        free = []
        for f in self.foundations:
            if cards[f]:
                pile_of[cards[f][-1] // 13] = f
            else:
                free.append(f)
        line = []
        for s, d, _, _ in path:
            c = wings[s].pop()
            if d < 0:
                if c % 13 == 0:
                    pile_of[c // 13] = free.pop(0)
                line.append(Move("move", tab[s], pile_of[c // 13], 1))
            else:
                wings[d].append(c)
                line.append(Move("move", tab[s], tab[d], 1))
        return line

    def solver_moves(self, prune: bool = False) -> list[Move]:
        """The moves of the generic hooks (:meth:`OpenPatienceSearch.solver_moves` over
        :meth:`PatienceSearch.solver_moves`) found in one pass over the wings: foundation
        moves, then onto other wings, then into the first space (spaces are
        interchangeable; a wing's last card never moves into one), with ``prune`` only the
        wing moves that empty a wing or uncover a card that can go home; then the guided
        order. The moves of the card just carried from wing to wing are left out
        (:class:`SingleCardSearch`). The search asks this at every position."""
        cards = self.cards
        wanted: dict[int, int] = {}
        free: list[int] = []
        for f in self.foundations:
            pile = cards[f]
            if not pile:
                free.append(f)
            elif len(pile) < 13:
                wanted[pile[-1] + 1] = f
        on_top: dict[int, int] = {}
        space = -1
        for t in self.tableau:
            pile = cards[t]
            if pile:
                on_top[pile[-1]] = t
            elif space < 0:
                space = t
        held = self.held_column()
        onto = self._onto_column
        home: list[Move] = []
        wings: list[Move] = []
        spaces: list[Move] = []
        for s in self.tableau:
            pile = cards[s]
            if not pile or s == held:
                continue
            c = pile[-1]
            if RANK[c] == 1:
                if free:  # empty foundations are interchangeable too
                    home.append(Move("move", s, free[0], 1))
            elif c in wanted:
                home.append(Move("move", s, wanted[c], 1))
            if prune and len(pile) > 1:
                under = pile[-2]
                if not ((RANK[under] == 1 and free) or under in wanted):
                    continue  # moving this card achieves nothing now
            for t in onto[c]:
                d = on_top.get(t)
                if d is not None:
                    wings.append(Move("move", s, d, 1))
            if space >= 0 and len(pile) > 1:
                spaces.append(Move("move", s, space, 1))
        moves = home + wings + spaces
        return self.guided(moves) if len(moves) > 1 else moves

    # --------------------------------------------------------------- solver hooks
    def guided(self, moves: list[Move]) -> list[Move]:
        """The order of :meth:`PatienceSearch.guided` (by :meth:`solver_score` of the position
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
