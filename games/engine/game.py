"""The game base class: state, journaled make/unmake, undo/redo, notation, JSON.

State is deliberately plain: ``cards[i]`` is the list of card codes of pile ``i`` (bottom to
top) and ``down[i]`` how many of its bottom cards lie face down. Game-specific counters (passes
left, phase flags) live in ``vars``. Every change goes through four primitives
(:meth:`Game._move_cards`, :meth:`Game._flip`, :meth:`Game._set`, :meth:`Game._replace`) that
write an inverse record into the current journal entry, so :meth:`Game.undo` costs what the
move cost and a solver can make and unmake millions of moves without copying a position.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any, ClassVar

from . import cards as C
from .model import GameError, GameInfo, IllegalMove, Move, Option, PileSpec
from .reason import Reason
from .rng import Rng, check_seed

SAVE_FORMAT = "solitaire-kiosk/game"
SAVE_VERSION = 1

_MOVE, _FLIP, _SET, _REPLACE = 0, 1, 2, 3
#: byte translation naming a card of a second deck like its twin of the first (jokers stay)
TWIN = bytes(c % 52 if c < C.JOKER else c for c in range(256))


class Game:
    """A game in progress. Subclasses declare ``info``, ``options``, :meth:`build_layout`,
    :meth:`deal`, :meth:`legal_moves`, :meth:`apply` and :attr:`won`."""

    info: ClassVar[GameInfo]
    options: ClassVar[tuple[Option, ...]] = ()
    #: kinds of move whose piles name a set (a pair to remove, two squares to swap): text
    #: may name them in any order, and :meth:`make_move` puts them in layout order
    unordered: ClassVar[tuple[str, ...]] = ()
    #: a game against computer seats (:class:`games.families.seats.SeatedGame`): the catalog
    #: reads it here, so listing a class needs no import of the seated family
    seated: ClassVar[bool] = False

    def __init__(self, seed: int, /, **options: Any) -> None:
        try:
            self.seed = check_seed(seed)
        except ValueError as err:
            raise GameError(str(err)) from None
        self.opts = self._check_options(options)
        self.layout: tuple[PileSpec, ...] = tuple(self.build_layout())
        self.index: dict[str, int] = {p.id: i for i, p in enumerate(self.layout)}
        if len(self.index) != len(self.layout):
            raise ValueError(f"{self.info.id}: duplicate pile ids")
        n = len(self.layout)
        self.cards: list[list[int]] = [[] for _ in range(n)]
        self.down: list[int] = [0] * n
        self.vars: dict[str, Any] = {}
        self._entry: list[tuple] | None = None
        self._journal: list[list[tuple]] = []
        self.history: list[Move] = []
        self._redo: list[Move] = []
        self._autoflip = tuple(
            i for i, p in enumerate(self.layout) if p.autoflip and p.role != "stock"
        )
        self.roles: dict[str, list[int]] = {}
        for i, p in enumerate(self.layout):
            self.roles.setdefault(p.role, []).append(i)
        #: the role of every pile, by index
        self.role_of: list[str] = [p.role for p in self.layout]
        self.prepare()
        self.deal(Rng(self.seed))
        self.settle()

    # ----------------------------------------------------------------- declaration
    @classmethod
    def _check_options(cls, given: dict[str, Any]) -> dict[str, Any]:
        known = {o.name: o for o in cls.options}
        for name in given:
            if name not in known:
                names = ", ".join(known) or "none"
                raise GameError(f"{cls.info.id} has no option {name!r} (its options: {names})")
        return {o.name: o.check(given[o.name]) if o.name in given else o.default
                for o in cls.options}

    def build_layout(self) -> Iterable[PileSpec]:
        raise NotImplementedError

    def prepare(self) -> None:
        """Derive per-pile rules from the options, before the deal (shared machinery uses it)."""

    def deal(self, rng: Rng) -> None:
        """Lay out the starting position. Primitives are not journaled here."""
        raise NotImplementedError

    def put(self, pile: int, card: int, up: bool = True) -> None:
        """Place one card during the deal; face-down cards only go under face-down cards."""
        if not up:
            if self.down[pile] != len(self.cards[pile]):
                raise ValueError("a face-down card cannot go on a face-up one")
            self.down[pile] += 1
        self.cards[pile].append(card)

    def put_stock(self, pile: int, cards: Iterable[int]) -> None:
        """Lay the cards left after the deal face down on ``pile`` in order, the last on top,
        as most games make their stock."""
        for c in cards:
            self.put(pile, c, up=False)

    def deal_rows(self, piles: Sequence[int], deck: list[int], rows: int = 1) -> None:
        """Deal ``rows`` rounds of one face-up card to each of ``piles`` from the end of
        ``deck`` (the top of the shuffled pack), the way a dealer goes round the table."""
        for _ in range(rows):
            for p in piles:
                self.put(p, deck.pop())

    def refill_empty(self, piles: Iterable[int], stock: int) -> None:
        """Fill each empty pile of ``piles``, in order, with the top card of ``stock`` while
        it lasts: for the games whose gaps never stay open."""
        cards = self.cards
        for p in piles:
            if not cards[p] and cards[stock]:
                self._move_cards(stock, p)

    def first(self, role: str) -> int:
        """Index of the first pile with ``role``, or -1."""
        found = self.roles.get(role)
        return found[0] if found else -1

    def legal_moves(self) -> list[Move]:
        raise NotImplementedError

    def apply(self, move: Move) -> None:
        """Carry out a legal move with the primitives."""
        raise NotImplementedError

    def settle(self) -> None:
        """Automatic actions after every move (and after the deal): turn up exposed cards.

        Games extend this for forced refills or forced deals; it runs inside the same
        journal entry as the move, so one undo takes back both.
        """
        cards, down = self.cards, self.down
        for i in self._autoflip:
            if down[i] and down[i] == len(cards[i]):
                self._flip(i)

    @property
    def won(self) -> bool:
        raise NotImplementedError

    @property
    def lost(self) -> bool:
        """A loss the rules declare before moves run out (most games have none)."""
        return False

    @property
    def over(self) -> bool:
        return self.won or self.lost or not self.legal_moves()

    @property
    def score(self) -> int:
        """The game's own measure of progress (see ``info.score_label``)."""
        return sum(len(self.cards[i]) for i in self.roles.get("foundation", ()))

    @property
    def grade(self) -> str | Reason | None:
        """A word for a partial success where the source gives a scale (a word the kiosk's
        catalogs translate), or a :class:`Reason` when it carries a number."""
        return None

    def explain(self, move: Move) -> Reason:
        """Why ``move`` is not legal now, as a value a player's language can render."""
        return Reason("That move is not possible now.")

    def card_targets(self, src: int) -> list[int]:
        """The piles a card of ``src`` is meant to go to in this game, whatever lies there
        now: a UI asks :meth:`why_illegal` about them when a tap on a card finds no move, so
        the refusal explains the card, not the pile kind. Foundations unless a game says."""
        return [p for p in self.roles.get("foundation", ()) if p != src]

    def why_illegal(self, move: Move) -> Reason | None:
        """``None`` for a legal move, else the :class:`~games.engine.reason.Reason` it is refused."""
        if move in self.legal_moves():
            return None
        problem = self.malformed(move)
        if problem is not None:
            return problem
        same = self.canonical(move)
        if same != move and same in self.legal_moves():
            return None
        if self.won:
            return Reason("The game is already won.")
        return self.explain(same)

    def canonical(self, move: Move) -> Move:
        """The form :meth:`legal_moves` lists of a move that may be written several ways (a
        pair named in either order). :meth:`why_illegal` accepts every form and
        :meth:`play` records this one, so the history, saved games and replays hold only
        moves that :meth:`legal_moves` lists. Only called with well-formed moves (see
        :meth:`malformed`)."""
        return move

    def malformed(self, move: Move) -> Reason | None:
        """Why ``move`` cannot be a move of this game at all (a pile it does not have, a count
        that no pile holds), or None. :meth:`why_illegal` asks this before :meth:`explain`, so
        a game's explanation may index its piles with the move's fields: a saved game or a
        replay file with a bad move then gets a reason, not an IndexError."""
        if not isinstance(move, Move):
            return Reason("That is not a move.")
        kind, src, dst, n, extra = move
        if not isinstance(kind, str) or not isinstance(extra, tuple):
            return Reason("That is not a move.")
        piles = len(self.layout)
        if not all(isinstance(v, int) for v in (src, dst, n, *extra)):
            return Reason("That is not a move.")
        if not (-1 <= src < piles and -1 <= dst < piles and all(0 <= p < piles for p in extra)):
            return Reason("That move names a pile this game does not have.")
        if kind == "move" and (src < 0 or dst < 0):
            return Reason("Name the pile to take cards from and the pile to put them on.")
        if not 1 <= n <= sum(map(len, self.cards)):
            return Reason("There are not that many cards in the game.")
        return None

    def safe_autoplay(self) -> Move | None:
        """A move to a foundation that can never hurt, or None. The UI may play these."""
        return None

    # ----------------------------------------------------------------- primitives
    def _move_cards(self, src: int, dst: int, n: int = 1, *, reverse: bool = False,
                    up: bool = True) -> None:
        """Move the top ``n`` cards of ``src`` onto ``dst``.

        ``reverse`` turns the packet over (dealing one at a time, or turning the waste into a
        stock); ``up=False`` lays them face down, which needs ``dst`` to be all face down.
        """
        s, d = self.cards[src], self.cards[dst]
        old_sd, old_dd = self.down[src], self.down[dst]
        packet = s[-n:]
        del s[-n:]
        if reverse:
            packet.reverse()
        d.extend(packet)
        if old_sd > len(s):
            self.down[src] = len(s)
        if not up:
            self.down[dst] = old_dd + n
        if self._entry is not None:
            self._entry.append((_MOVE, src, dst, n, reverse, old_sd, old_dd))

    def _flip(self, pile: int, up: bool = True) -> None:
        """Turn the top face-down card up (or the lowest face-up card down)."""
        self.down[pile] += -1 if up else 1
        if self._entry is not None:
            self._entry.append((_FLIP, pile, up))

    def _set(self, name: str, value: Any) -> None:
        if self._entry is not None:
            self._entry.append((_SET, name, self.vars.get(name)))
        self.vars[name] = value

    def _replace(self, pile: int, new_cards: list[int], down: int) -> None:
        """Replace a pile wholesale (shuffles, gathering): costs its size, once."""
        if self._entry is not None:
            self._entry.append((_REPLACE, pile, self.cards[pile], self.down[pile]))
        self.cards[pile] = list(new_cards)
        self.down[pile] = down

    def _undo_entry(self, entry: list[tuple]) -> None:
        for op in reversed(entry):
            code = op[0]
            if code == _MOVE:
                _, src, dst, n, reverse, old_sd, old_dd = op
                d = self.cards[dst]
                packet = d[-n:]
                del d[-n:]
                if reverse:
                    packet.reverse()
                self.cards[src].extend(packet)
                self.down[src] = old_sd
                self.down[dst] = old_dd
            elif code == _FLIP:
                self.down[op[1]] += 1 if op[2] else -1
            elif code == _SET:
                if op[2] is None:
                    self.vars.pop(op[1], None)
                else:
                    self.vars[op[1]] = op[2]
            else:
                self.cards[op[1]] = op[2]
                self.down[op[1]] = op[3]

    def rng(self, stream: int) -> Rng:
        """Randomness for events during play (a shuffled redeal), fixed by the deal number."""
        return Rng(self.seed, stream)

    # ----------------------------------------------------------------- playing
    def play(self, move: Move | str, *, check: bool = True) -> None:
        """Make a move; raises :class:`IllegalMove` with the reason when the rules forbid it.

        ``check=False`` is for a solver that only plays moves from :meth:`legal_moves`.
        """
        if isinstance(move, str):
            move = self.parse_move(move)
        if check:
            reason = self.why_illegal(move)
            if reason is not None:
                raise IllegalMove(reason)
            move = self.canonical(move)
        self.make(move)
        self._redo.clear()

    def make(self, move: Move) -> None:
        """Make ``move`` without checking it, journaled: the search's half of make/unmake.

        A search calls it millions of times, so it asks nothing: the caller guarantees that
        ``move`` is legal here (it came from :meth:`legal_moves` of this very position).
        The redo list is left alone (:meth:`play` clears it); :meth:`unmake` takes the
        move back exactly, with everything :meth:`settle` did after it.
        """
        entry: list[tuple] = []
        self._entry = entry
        try:
            self.apply(move)
            self.settle()
        finally:
            self._entry = None
        self._journal.append(entry)
        self.history.append(move)

    def undo(self) -> Move:
        """Take back the last move (with everything automatic it caused)."""
        if not self.history:
            raise GameError("There is nothing to undo.")
        self._undo_entry(self._journal.pop())
        move = self.history.pop()
        self._redo.append(move)
        return move

    def unmake(self) -> Move:
        """Take back the last :meth:`make` for a search: no redo record, no checks (a search
        unmakes only what it made; :meth:`undo` is the player's, which feeds redo)."""
        self._undo_entry(self._journal.pop())
        return self.history.pop()

    def redo(self) -> Move:
        if not self._redo:
            raise GameError("There is nothing to redo.")
        move = self._redo.pop()
        self.make(move)
        return move

    @property
    def can_undo(self) -> bool:
        return bool(self.history)

    @property
    def can_redo(self) -> bool:
        return bool(self._redo)

    def clone(self) -> Game:
        """An independent copy of the position (no history): for a search on another thread."""
        twin = object.__new__(type(self))
        twin.__dict__.update(self.__dict__)
        twin.cards = [list(p) for p in self.cards]
        twin.down = list(self.down)
        twin.vars = dict(self.vars)
        twin._entry = None
        twin._journal = []
        twin.history = []
        twin._redo = []
        return twin

    # ----------------------------------------------------------------- views
    def key(self) -> bytes:
        """A canonical, hashable position: equal keys mean equal positions."""
        return (bytes(self.down) + b"\xfe" + b"\xff".join(map(bytes, self.cards))
                + repr(tuple(self.vars.values())).encode())

    def pile(self, pile_id: str) -> list[int]:
        return self.cards[self.index[pile_id]]

    def top(self, pile: int) -> int:
        """Top card of a pile, or -1 when it is empty."""
        c = self.cards[pile]
        return c[-1] if c else -1

    def table(self) -> dict[str, Any]:
        """The position as JSON-ready data (the shape ``kiosk deal --json`` prints)."""
        piles = []
        for i, spec in enumerate(self.layout):
            d = self.down[i]
            piles.append({
                "id": spec.id,
                "role": spec.role,
                "cards": [{"card": C.text(c), "up": k >= d} for k, c in enumerate(self.cards[i])],
            })
        return {
            "game": self.info.id,
            "seed": self.seed,
            "options": dict(self.opts),
            "piles": piles,
            "moves": len(self.history),
            "score": self.score,
            "grade": None if self.grade is None else str(self.grade),
            "won": self.won,
            "over": self.over,
        }

    def layout_data(self) -> list[dict[str, Any]]:
        return [{"id": p.id, "role": p.role, "x": p.x, "y": p.y, "fan": p.fan, "label": p.label}
                for p in self.layout]

    # ----------------------------------------------------------------- notation
    def notation(self, move: Move) -> str:
        """Short text for a move: ``T3>F1``, ``T2>T5x3``, ``deal``, ``remove:T1,T4``."""
        ids = [p.id for p in self.layout]
        if move.kind == "move":
            text = f"{ids[move.src]}>{ids[move.dst]}"
            return text if move.n == 1 else f"{text}x{move.n}"
        args = [ids[i] for i in (move.src, move.dst) if i >= 0] + [
            ids[i] for i in move.extra]
        if move.n != 1:
            args.append(str(move.n))
        return move.kind + (":" + ",".join(args) if args else "")

    def parse_move(self, text: str) -> Move:
        """Inverse of :meth:`notation`; raises :class:`IllegalMove` on text that names no move
        of this game (a move that cannot be made is as illegal as one the rules forbid)."""
        try:
            t = text.strip()
            if ">" in t and ":" not in t:
                a, b = t.split(">", 1)
                n = 1
                if "x" in b:
                    b, k = b.split("x", 1)
                    n = int(k)
                return Move("move", self.index[a], self.index[b], n)
            kind, _, rest = t.partition(":")
            if not kind.isidentifier():
                raise ValueError
            parts = [p for p in rest.split(",") if p] if rest else []
            n = 1
            if parts and parts[-1].isdigit():
                n = int(parts.pop())
            piles = [self.index[p] for p in parts]
            return self.make_move(kind, piles, n)
        except (KeyError, ValueError, AttributeError):
            raise IllegalMove(f"not a move of {self.info.id}: {text!r}") from None

    def make_move(self, kind: str, piles: list[int], n: int) -> Move:
        """Build a non-``move`` Move from parsed parts; games with extra piles override."""
        if kind in self.unordered:
            piles = sorted(piles)
        src = piles[0] if piles else -1
        dst = piles[1] if len(piles) > 1 else -1
        return Move(kind, src, dst, n, tuple(piles[2:]))

    def describe(self, move: Move) -> str:
        """A move in words, for hints and logs."""
        if move.kind == "move":
            top = self.cards[move.src][-move.n] if len(self.cards[move.src]) >= move.n else -1
            what = C.pretty(top) if top >= 0 else "cards"
            return f"{what} {self.layout[move.src].id} → {self.layout[move.dst].id}"
        return self.notation(move)

    # ----------------------------------------------------------------- saving
    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False)

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            "game": self.info.id,
            "options": dict(self.opts),
            "seed": self.seed,
            "moves": [self.notation(m) for m in self.history],
        }

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.info.id} #{self.seed} after {len(self.history)} moves>"
