"""What the search knows of Klondike (games/klondike.py), apart from its rules: see
docs/solver.md for what each hook is for.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from ..engine.cards import RANK
from ..engine.model import Compound, Move
from ..families.patience import DEAL, REDEAL
from ..klondike import Klondike
from . import searches
from .patience import PatienceSearch
from .rules import KlondikeRules
from .talon import round_plays, turns_round


@searches(Klondike)
class KlondikeSearch(PatienceSearch, KlondikeRules):
    """What the search knows of Klondike."""

    @property
    def SOLVER_VIEW(self) -> dict[str, str]:  # type: ignore[override]  # noqa: N802 (the hook's name; it depends on the options, where
    # the default is a class constant: the solver reads it on the instance)
        """A stock that is never turned over again only loses cards from its top, and a
        foundation built in suit from the ace is known by its top card."""
        return {"stock": "count" if self.redeals == 0 else "all",
                "foundation": "top" if self.standard_foundations else "all"}

    def solver_hopeless(self) -> bool:
        """A card that can never leave its column or the waste (see ``stuck_card``): only
        where a king alone fills a space and the waste is never turned over again."""
        if self.opts["variant"] not in ("standard", "open_same_colour"):
            return False
        piles = self.tableau if self.vars.get("redeals") else (*self.tableau, self.waste)
        return self.stuck_card(piles)

    def symmetric_groups(self):
        return tuple(self.tableau), tuple(self.foundations)

    @property
    def _cycling(self) -> bool:
        """Unlimited passes over a talon that is never shuffled: turning the stock is free,
        and the search treats the waste and stock as one cycle of cards (see ``solver_key``)."""
        return self.redeals < 0 and not self.shuffle_redeal and self.waste >= 0

    def solver_key(self) -> bytes:
        """With unlimited passes, the waste and the stock read as one sequence, the *talon*
        (the waste from the bottom, then the stock in the order it will be turned: turns and
        redeals leave that sequence alone), and how far it is turned is folded where it never
        matters. From a redeal the turns stop at waste sizes 0, d, 2d ... and the whole talon
        (the *cycle*); from a size in the cycle every size of the cycle, and only those, can
        be reached by turns alone, so they are one position. A size off the cycle (a card was
        played from a waste of 6 with draw 3, leaving 5) reaches 8, 11 ... as well, until the
        next redeal: it keeps its size in the key. With draw 1 every size is in the cycle."""
        if not self._cycling:
            return super().solver_key()
        cards, down = self.cards, self.down
        waste, stock = cards[self.waste], cards[self.stock]
        i, n, draw = len(waste), len(waste) + len(stock), self.draw
        phase = 255 if i % draw == 0 or i == n else i
        found = sorted(bytes((len(cards[f]), cards[f][-1] if cards[f] else 255))
                       for f in self.foundations)
        cols = sorted(bytes((len(cards[t]), down[t], *cards[t])) for t in self.tableau)
        return (b"".join(found) + b"".join(cols)
                + bytes((n, *waste, *reversed(stock), phase)))

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
        if self._cycling:
            return self._cycle_moves(moves)
        home, rest, turns = self._talon_plays()
        w = self.waste
        plain = [m for m in moves if m.kind == "move" and m.src != w]
        back = [m for m in plain if self._role[m.src] == "foundation"]
        if back:
            plain = [m for m in plain if self._role[m.src] != "foundation"]
        # in one pass a card turned past is buried: talon plays nearest first, after the
        # waste card's own plays and the column moves
        near = [m for m in home if type(m) is not Compound]
        later = [m for m in home if type(m) is Compound] + [m for m in rest if type(m) is Compound]
        later.sort(key=lambda m: len(m.moves))  # stable: at one depth, foundation plays first
        return near + plain + [m for m in rest if type(m) is not Compound] + later + back + turns

    def _cycle_moves(self, moves: list) -> list:
        """With unlimited passes: the talon cards each turned round to (:func:`~games.search.talon.round_plays`)
        and played, foundation plays first and nearest first, then the column moves, then
        the talon cards to columns, and foundation cards brought back last."""
        home, rest = round_plays(self, self._wants(), last_singly=False)
        w = self.waste
        plain = [m for m in moves if m.kind == "move" and m.src != w]
        back = [m for m in plain if self._role[m.src] == "foundation"]
        if back:
            plain = [m for m in plain if self._role[m.src] != "foundation"]
        return home + plain + rest + back

    def _wants(self) -> dict[int, list[int]]:
        """Per card, the piles that would take it from the waste now (one space stands for
        all: the key folds the columns together)."""
        cards, down = self.cards, self.down
        wants: dict[int, list[int]] = {}
        for f in self.foundations:
            pile = cards[f]
            if not pile:
                for ace in (0, 13, 26, 39):
                    wants.setdefault(ace, []).append(f)
            elif len(pile) < 13:
                wants.setdefault(pile[-1] + 1, []).append(f)
        space = -1
        fits = self.fits_on
        for t in self.tableau:
            pile = cards[t]
            if not pile:
                if space < 0:
                    space = t
            elif down[t] < len(pile):
                for c in fits[pile[-1]]:
                    wants.setdefault(c, []).append(t)
        if space >= 0:
            any_card = self.rule[self.tableau[0]].empty == "any"
            for c in range(52):
                if any_card or RANK[c] == 13:
                    wants.setdefault(c, []).append(space)
        return wants

    def _talon_plays(self) -> tuple[list, list, list]:
        """Each card the stock can be turned to in this pass, played to each pile that takes
        it (compounds: the turns, then the play), foundation plays apart; and, when a redeal is
        left, the turns to the end of the pass followed by the redeal. Worked out from the
        card codes, without making the turns (this runs at every node)."""
        cards, s, w = self.cards, self.stock, self.waste
        wants = self._wants()  # card -> piles that take it now
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
            for d in wants.get(c, ()):
                play = Move("move", w, d, 1)
                out = home if d in self.foundations else rest
                out.append(Compound((*(DEAL,) * k, play)) if k else play)
        turns: list = []
        if self.vars.get("redeals", 0) != 0 and (stock or cards[w]):
            k = size // draw + (size % draw > 0)
            turns.append(Compound((*(DEAL,) * k, REDEAL)))
        return home, rest, turns

    def solver_dfs(self, prune: bool, budget) -> tuple | None:
        """Klondike's own depth-first search with unlimited passes over an unshuffled talon
        (the other settings keep the solver's search): the moves of :meth:`solver_moves`
        (the same kinds, the same pruning, about the same order), the positions of
        :meth:`solver_key`, the safe moves of :meth:`solver_autoplay` and the dead-end test
        of :meth:`solver_hopeless`, on tuples instead of the engine's piles.

        The generic search pays for every compound talon play with one engine move per
        turn and for every key with a walk over all the piles; here a column is a tuple
        ``(face-down count, card, ...)``, the talon a tuple (waste from the bottom, then
        the stock in the order it is turned) with the waste's size, the foundations four
        counts, and a move replaces a tuple or two. The winning line is made of engine
        moves again at the end (turns and redeals up to each talon card, then its play).
        Its verdicts are the generic search's (both are complete passes with the same
        moves when ``prune`` is False); its node counts are not.
        """
        if not self._cycling or self.opts["variant"] != "standard" or len(self.tableau) != 7:
            return None
        return _KlondikeDFS(self, prune, budget).run()


# ---------------------------------------------------------------- Klondike's own search
#: per card: its suit, its rank (1-13) and its colour (0 black, 1 red)
_SUIT = tuple(c // 13 for c in range(52))
_RANK = tuple(c % 13 + 1 for c in range(52))
_RED = tuple(1 if c // 13 in (1, 2) else 0 for c in range(52))
#: per card: the two cards it may be built on in a column (none for a king)
_HOSTS = tuple(tuple(d for d in range(52) if _RANK[d] == _RANK[c] + 1 and _RED[d] != _RED[c])
               for c in range(52))
#: per card: the two cards that may be built on it in a column (none for an ace)
_UNDER = tuple(tuple(d for d in range(52) if c in _HOSTS[d]) for c in range(52))
#: per suit: the suits of the other colour, and the other suit of its colour
_OTHER_COLOUR = tuple(tuple(t for t in range(4) if (t in (1, 2)) != (s in (1, 2)))
                      for s in range(4))
_SAME_COLOUR = tuple(next(t for t in range(4) if t != s and (t in (1, 2)) == (s in (1, 2)))
                     for s in range(4))


def _fits(c: int, t: int) -> bool:
    """Whether card ``c`` may be built on card ``t`` in a column."""
    return _RANK[t] == _RANK[c] + 1 and _RED[t] != _RED[c]


def _run_start(col: tuple) -> int:
    """The index (in a column tuple ``(down, card, ...)``) of the lowest card of the run
    that may be lifted from the column: the face-up cards on top, each built on the one
    under it."""
    i = len(col) - 1
    lowest = col[0] + 1  # the first face-up card
    while i > lowest and _fits(col[i], col[i - 1]):
        i -= 1
    return i


def _column_stuck(col: tuple) -> bool:
    """Whether some card of the column can never leave it (``stuck_card``'s first frozen
    card, which is all its verdict needs): not a king, with a lower card of its suit and
    both cards it could go on under it, and not lying face up in a run on the card under
    it. Such a card can go neither home nor onto a host nor (not a king) into a space,
    and nothing can carry it, so the game is lost."""
    below: set[int] = set()
    low = [14, 14, 14, 14]
    first = col[0] + 1
    for i in range(1, len(col)):
        x = col[i]
        r = _RANK[x]
        if (r != 13 and low[_SUIT[x]] < r and all(h in below for h in _HOSTS[x])
                and not (i > first and _fits(x, col[i - 1]))):
            return True
        below.add(x)
        if r < low[_SUIT[x]]:
            low[_SUIT[x]] = r
    return False


def _shrunk(col: tuple, i: int) -> tuple:
    """Column ``col`` with its cards from tuple index ``i`` up lifted off (the new top
    card turned face up, as the engine's ``settle`` does)."""
    rest = col[:i]
    left = i - 1  # cards left
    if col[0] < left or left == 0 and col[0] == 0:
        return rest
    return (max(left - 1, 0), *rest[1:])


#: what each move of :class:`_KlondikeDFS` is (the first field of its tuple)
_T_HOME, _C_HOME, _C_COL, _T_COL, _F_COL = range(5)


class _KlondikeDFS:
    """One search of :meth:`KlondikeSearch.solver_dfs` (see there).

    The position: ``cols`` (seven tuples ``(face-down count, card, ...)``, in the engine's
    column order, so a move names its columns as the engine does), ``found`` (per suit, the
    cards home), and the talon tuple with the waste's size, passed down the recursion. The
    key folds the columns (sorted) and the waste's size as :meth:`KlondikeSearch.solver_key`
    does. Moves are small tuples whose first field is one of ``_T_HOME`` (talon card home),
    ``_C_HOME`` (column top home), ``_C_COL`` (a run onto another column), ``_T_COL``
    (talon card to a column) and ``_F_COL`` (a foundation card back to a column)."""

    def __init__(self, game, prune: bool, budget) -> None:
        self.game = game
        self.prune = prune
        self.budget = budget
        cards, down = game.cards, game.down
        self.cols = [(down[t], *cards[t]) for t in game.tableau]
        found = [0, 0, 0, 0]
        for f in game.foundations:
            if cards[f]:
                t = cards[f][-1]
                found[_SUIT[t]] = _RANK[t]
        self.found = found
        self.talon = tuple(cards[game.waste]) + tuple(reversed(cards[game.stock]))
        self.pos = len(cards[game.waste])
        self.draw = game.draw
        self.nodes = 0
        self.seen: set = set()
        self.path: list[tuple] = []
        self._reach: dict[tuple[int, int], tuple[int, ...]] = {}
        self._order: dict[tuple[int, int], dict[int, int]] = {}
        self._stuck: dict[tuple, bool] = {}
        self._runs: dict[tuple, int] = {}

    # ------------------------------------------------------------ helpers
    def reach(self, n: int, pos: int) -> tuple[int, ...]:
        """The talon indices whose card the waste can show through turns and redeals from
        a waste of ``pos`` cards (of ``n``), the fewest turns first (as :func:`~games.search.talon.round_plays`)."""
        got = self._reach.get((n, pos))
        if got is None:
            walk = turns_round(n, pos, self.draw, last_singly=False)
            got = self._reach[(n, pos)] = tuple(i - 1 for i, _ in walk if i)
        return got

    def reach_order(self, n: int, pos: int) -> dict[int, int]:
        """:meth:`reach` as a table: talon index -> its place in the turning order."""
        got = self._order.get((n, pos))
        if got is None:
            got = self._order[(n, pos)] = {j: k for k, j in enumerate(self.reach(n, pos))}
        return got

    def key(self, talon: tuple, pos: int, fresh: int = -1) -> tuple:
        """The position's key; ``fresh`` (the card just played from the talon to a column
        with draw 1, or brought back from a foundation: see :meth:`dfs`) is part of it, as
        the moves searched from such a position are fewer."""
        found = self.found
        n = len(talon)
        phase = -1 if pos % self.draw == 0 or pos == n else pos
        return (found[0], found[1], found[2], found[3], tuple(sorted(self.cols)), talon, phase,
                fresh)

    def stuck(self, col: tuple) -> bool:
        v = self._stuck.get(col)
        if v is None:
            v = self._stuck[col] = _column_stuck(col)
        return v

    def safe(self, c: int) -> bool:
        """Whether card ``c`` may go home now and every card that could ever be built on
        it (and on those, with foundation cards coming back) is home: the closure rule of
        ``PatienceSearch.solver_autoplay``."""
        found = self.found
        s = _SUIT[c]
        r = _RANK[c]
        if found[s] != r - 1:
            return False
        if r <= 2:
            return True
        o1, o2 = _OTHER_COLOUR[s]
        return found[o1] >= r - 1 and found[o2] >= r - 1 and found[_SAME_COLOUR[s]] >= r - 2

    def autoplay(self, talon: tuple, pos: int) -> tuple | None:
        """A safe move home: a column's top card, or the waste's top card; with draw 1 any
        talon card (the whole talon is within reach at no cost, and the key ignores how
        far it is turned, so taking a card out of it takes nothing else out of reach).
        Only the next card of each suit can go home, so those four are tried."""
        cols, found = self.cols, self.found
        safe = []
        for s in range(4):
            r = found[s] + 1
            if r == 14:
                continue
            if r > 2:
                o1, o2 = _OTHER_COLOUR[s]
                if found[o1] < r - 1 or found[o2] < r - 1 or found[_SAME_COLOUR[s]] < r - 2:
                    continue
            safe.append(13 * s + r - 1)
        if not safe:
            return None
        for a in range(7):  # the columns first, in order, then the talon from the bottom
            col = cols[a]
            if col[-1] in safe and len(col) > col[0] + 1:
                return (_C_HOME, a, len(col) - 1)
        if self.draw == 1:
            best = -1
            for c in safe:
                if c in talon:
                    j = talon.index(c)
                    if best < 0 or j < best:
                        best = j
            if best >= 0:
                return (_T_HOME, best, talon[best])
        elif pos and talon[pos - 1] in safe:
            return (_T_HOME, pos - 1, talon[pos - 1])
        return None

    def moves(self, talon: tuple, pos: int) -> list[tuple]:
        """The moves in the order of ``_cycle_moves``: talon cards home (fewest turns
        first), column tops home, runs that turn up a hidden card, other runs, kings into a
        space, talon cards to columns, foundation cards back (the complete pass only).
        With ``prune``, ``PatienceSearch._pruned``'s rule for runs between columns."""
        cols, found, prune = self.cols, self.found, self.prune
        runs = self._runs
        home: list[tuple] = []
        turn: list[tuple] = []
        other: list[tuple] = []
        space: list[tuple] = []
        to_col: list[tuple] = []
        # which column takes which card now; one space stands for all
        takes: dict[int, tuple[int, ...]] = {}
        empty = -1
        for b in range(7):
            col = cols[b]
            if len(col) == 1:
                if empty < 0:
                    empty = b
            elif len(col) > col[0] + 1:
                for c in _UNDER[col[-1]]:
                    takes[c] = (*takes[c], b) if c in takes else (b,)
        n = len(talon)
        if n:
            # the cards some pile takes, looked up in the talon (fewest turns first)
            order = self.reach_order(n, pos)
            for s in range(4):
                c = 13 * s + found[s]
                if found[s] < 13 and c in talon:
                    j = talon.index(c)
                    k = order.get(j)
                    if k is not None:
                        home.append((k, _T_HOME, j, c))
            for c, bs in takes.items():
                if c in talon:
                    j = talon.index(c)
                    k = order.get(j)
                    if k is not None:
                        for b in bs:
                            to_col.append((k, _T_COL, j, c, b))
            if empty >= 0:
                for c in (12, 25, 38, 51):
                    if c in talon:
                        j = talon.index(c)
                        k = order.get(j)
                        if k is not None:
                            to_col.append((k, _T_COL, j, c, empty))
            if len(home) > 1:
                home.sort()
            home = [m[1:] for m in home]
            if len(to_col) > 1:
                to_col.sort()
            to_col = [m[1:] for m in to_col]
        feeder = talon[pos - 1] if pos else -1
        bases: dict[int, int] = {}  # the lowest card of each run that can be lifted: its column
        for a in range(7):
            col = cols[a]
            size = len(col)
            if size <= col[0] + 1:
                continue
            top = col[-1]
            if found[_SUIT[top]] == _RANK[top] - 1:
                home.append((_C_HOME, a, size - 1))
            lo = runs.get(col)
            if lo is None:
                lo = runs[col] = _run_start(col)
            down = col[0]
            for i in range(size - 1, lo - 1, -1):
                c = col[i]
                if not prune or i == down + 1 or self._frees(col[i - 1], -1):
                    bases[c] = a
                if _RANK[c] == 13:
                    if i > 1 and empty >= 0:
                        m = (_C_COL, a, i, empty)
                        if i == down + 1:
                            turn.append(m)
                        elif not prune or self._frees(col[i - 1], feeder):
                            space.append(m)
                    continue
                for b in takes.get(c, ()):
                    m = (_C_COL, a, i, b)
                    if i == down + 1:  # turns up a hidden card, or empties the column
                        turn.append(m)
                    elif not prune or self._frees(col[i - 1], feeder):
                        other.append(m)
        if self.draw == 1 and to_col:
            memo: dict[tuple[int, int], bool] = {}
            to_col = [m for m in to_col if self._chain(m[2], m[3], talon, bases, memo)]
        out = home + turn + other + space + to_col
        if not prune:
            for s in range(4):
                k = found[s]
                if not k:
                    continue
                c = 13 * s + k - 1
                for b in takes.get(c, ()):
                    out.append((_F_COL, s, c, b))
                if k == 13 and empty >= 0:
                    out.append((_F_COL, s, c, empty))
        return out

    def _chain(self, c: int, x: int, talon: tuple, bases: dict[int, int],
               memo: dict[tuple[int, int], bool]) -> bool:
        """Whether talon card ``c`` played onto column ``x`` (draw 1) can be built on the way
        :meth:`onto_fresh` asks: by a run lifted from another column, by a foundation card
        brought back, or by another talon card for which the same holds. Each of those
        plays must be built on at once in its turn (a card back from a foundation may wait
        for the card under it instead, so it always counts), so a chain of talon plays ends
        with a run from another column; where none can end it, the play is not searched.
        The pruned pass counts only the runs whose lift turns a card, empties a column or
        lets the card under them go home (what it lifts onto the talon cards then)."""
        got = memo.get((c, x))
        if got is None:
            found = self.found
            got = False
            for d in _UNDER[c]:
                a = bases.get(d)
                if (a is not None and a != x) or found[_SUIT[d]] >= _RANK[d] or (
                        d in talon and self._chain(d, x, talon, bases, memo)):
                    got = True
                    break
            memo[(c, x)] = got
        return got

    def onto_fresh(self, moves: list[tuple], fresh: int) -> list[tuple]:
        """The moves that put a card on ``fresh``, the card just played from the talon to
        a column (draw 1, unlimited passes): the only moves searched after such a play.

        Why nothing is lost: with draw 1 every talon card can be turned to at any time, so a
        line that plays talon card c to a column and then makes moves that leave c alone can
        put the play off until just before the first move that touches c, and reach the same
        positions: the moves in between were legal with c on its host x, so x took no card
        and no move needed c out of the talon. That first move either builds on c (allowed
        here), sends c home or onto another column (one talon play does the same, a move
        shorter), or lifts a run holding c (lift the run without c, then play c from the
        talon onto x where it now lies). Each rewrite moves a talon play later in the line,
        so rewriting ends, with every talon play to a column followed by a build on its card.
        The key keeps ``fresh`` (:meth:`key`), so a position met both ways is searched with
        every move too; no safe move is ever waiting after such a play (the card was not
        safe in the talon, and no other top card changed)."""
        cols = self.cols
        at = next(b for b in range(7) if cols[b][-1] == fresh and len(cols[b]) > cols[b][0] + 1)
        return [m for m in moves if m[0] in (_C_COL, _T_COL, _F_COL) and m[-1] == at]

    def onto_back(self, moves: list[tuple], back: int) -> list[tuple]:
        """The moves searched after foundation card ``back`` came back to a column: those
        that build on it, and other foundation cards coming back.

        The argument of :meth:`onto_fresh`, for a foundation card: a line that brings it
        back and goes on with moves that neither touch it nor bring foundation cards back
        can bring it back after them, just before the first move that touches it or
        brings a foundation card back. The moves put off over leave its suit's foundation
        alone (with the card gone from it, only the card itself could go there), so they are
        legal with the card still home; a move touching it builds on it, sends it home
        again (then neither move is needed), moves it on (one move from the foundation does
        the same) or lifts a run holding it (lift the rest, then bring it back onto its
        host). Other cards coming back must stay allowed: bringing back a king to a space
        to carry a queen that lies under another king on its foundation takes both kings
        back first (a position of the tests). Any draw: the talon plays nothing of this
        suit in between."""
        cols = self.cols
        at = next(b for b in range(7) if cols[b][-1] == back and len(cols[b]) > cols[b][0] + 1)
        return [m for m in moves if m[0] == _F_COL or (m[0] in (_C_COL, _T_COL) and m[-1] == at)]

    def _frees(self, exposed: int, feeder: int) -> bool:
        """``PatienceSearch._frees``: the card a move exposes goes home now, or the waste
        card may be built on it."""
        return (self.found[_SUIT[exposed]] == _RANK[exposed] - 1
                or feeder >= 0 and _fits(feeder, exposed))

    # ------------------------------------------------------------ the search
    def run(self) -> tuple:
        """The solver's answer ``(result, moves, nodes, positions)``."""
        talon, pos = self.talon, self.pos
        if sum(self.found) == 52:
            return "won", [], 0, 1
        self.seen.add(self.key(talon, pos, -1))
        if any(self.stuck(col) for col in self.cols):
            return "lost", [], 0, 1
        old = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old, 1_000_000))
        try:
            verdict = self.dfs(talon, pos, sum(self.found))
        finally:
            sys.setrecursionlimit(old)
        if verdict == 1:
            return "won", self.engine_moves(), self.nodes, len(self.seen)
        if verdict == 2:
            return "unknown", [], self.nodes, len(self.seen)
        self.budget.take(self.nodes & 255)
        return "lost", [], self.nodes, len(self.seen)

    def dfs(self, talon: tuple, pos: int, home: int, fresh: int = -1) -> int:
        """Search the children of the current position: 1 won (``path`` holds the line),
        2 stopped by the budget, 0 none of them wins. ``fresh``: the card the last move
        played from the talon to a column, with draw 1 (:meth:`onto_fresh`), or 52 + the
        card the last move brought back from a foundation (:meth:`onto_back`), else -1."""
        safe = self.autoplay(talon, pos)
        moves: Sequence[tuple]
        if safe is not None:
            moves = (safe,)
        elif fresh >= 52:
            moves = self.onto_back(self.moves(talon, pos), fresh - 52)
        elif fresh >= 0:
            moves = self.onto_fresh(self.moves(talon, pos), fresh)
        else:
            moves = self.moves(talon, pos)
        defer = self.draw == 1
        cols, found, seen, path = self.cols, self.found, self.seen, self.path
        stuck_memo = self._stuck
        for m in moves:
            kind = m[0]
            t2, p2, h2 = talon, pos, home
            a = b = f2 = -1
            if kind == _T_HOME or kind == _T_COL:
                j = m[1]
                t2 = talon[:j] + talon[j + 1:]
                p2 = j
                if kind == _T_HOME:
                    found[_SUIT[m[2]]] += 1
                    h2 += 1
                else:
                    b = m[3]
                    old_b = cols[b]
                    cols[b] = old_b + (m[2],)
                    if defer:
                        f2 = m[2]
            elif kind == _C_HOME:
                a = m[1]
                old_a = cols[a]
                cols[a] = _shrunk(old_a, m[2])
                found[_SUIT[old_a[-1]]] += 1
                h2 += 1
            elif kind == _C_COL:
                a, i, b = m[1], m[2], m[3]
                old_a, old_b = cols[a], cols[b]
                cols[a] = _shrunk(old_a, i)
                cols[b] = old_b + old_a[i:]
            else:  # _F_COL
                b = m[3]
                old_b = cols[b]
                cols[b] = old_b + (m[2],)
                found[m[1]] -= 1
                h2 -= 1
                f2 = 52 + m[2]
            self.nodes += 1
            verdict = 0
            if h2 == 52:
                path.append(m)
                return 1
            k = self.key(t2, p2, f2)
            if not self.nodes & 255 and self.budget.take(256):
                verdict = 2
            elif k not in seen:
                seen.add(k)
                dead = False
                if a >= 0:
                    col = cols[a]
                    v = stuck_memo.get(col)
                    dead = v if v is not None else self.stuck(col)
                if b >= 0 and not dead:
                    col = cols[b]
                    v = stuck_memo.get(col)
                    dead = v if v is not None else self.stuck(col)
                if not dead:
                    path.append(m)
                    verdict = self.dfs(t2, p2, h2, f2)
                    if verdict == 1:
                        return 1
                    path.pop()
            # take the move back
            if kind == _T_HOME:
                found[_SUIT[m[2]]] -= 1
            elif kind == _T_COL:
                cols[b] = old_b
            elif kind == _C_HOME:
                cols[a] = old_a
                found[_SUIT[old_a[-1]]] -= 1
            elif kind == _C_COL:
                cols[a], cols[b] = old_a, old_b
            else:
                cols[b] = old_b
                found[m[1]] += 1
            if verdict == 2:
                return 2
        return 0

    def engine_moves(self) -> list:
        """The winning line (``path``) as engine moves, made on a copy of the position:
        before each talon card's play, the turns and redeals that bring it to the waste's
        top; foundation moves to (or from) the pile holding the card's suit."""
        g = self.game.clone()
        w, s = g.waste, g.stock
        tab, founds = g.tableau, g.foundations
        out: list = []

        def play(move) -> None:
            why = g.why_illegal(move)
            if why is not None:
                raise AssertionError(f"klondike search: illegal {move}: {why}")
            g.make(move)
            out.append(move)

        def home_from(src: int) -> None:
            for f in founds:
                if g.why_illegal(Move("move", src, f, 1)) is None:
                    return play(Move("move", src, f, 1))
            raise AssertionError("klondike search: no foundation takes the card")

        for m in self.path:
            kind = m[0]
            if kind in (_T_HOME, _T_COL):
                c = m[2]
                for _ in range(2 * len(g.cards[w]) + 2 * len(g.cards[s]) + 2):
                    if g.cards[w] and g.cards[w][-1] == c:
                        break
                    play(DEAL if g.cards[s] else REDEAL)
                if kind == _T_HOME:
                    home_from(w)
                else:
                    play(Move("move", w, tab[m[3]], 1))
            elif kind == _C_HOME:
                home_from(tab[m[1]])
            elif kind == _C_COL:
                a = tab[m[1]]
                play(Move("move", a, tab[m[3]], len(g.cards[a]) - m[2] + 1))
            else:
                f = next(f for f in founds if g.cards[f] and g.cards[f][-1] == m[2])
                play(Move("move", f, tab[m[3]], 1))
        return out
