"""Grand Piano (source 002, opening fragment): a labelled reconstruction.

Only the goal and the "rescue operation" survive; the game they belong to refers to a lost
"Little Piano" for everything else, so the layout and the rules of play are the catalog's
reconstruction (GAMES.md §C1). The rescue pack lives in the stock pile (the stock is empty
when it is formed and no new waste is ever made); :meth:`settle` refills the three reserve
cards from it inside the move that used one.
"""

from __future__ import annotations

from collections.abc import Iterator

from .engine import cards as C
from .engine.model import GameInfo, Move, Option, PileSpec
from .engine.reason import Reason
from .engine.registry import register
from .engine.rng import Rng
from .families.patience import FOUNDATION, Build, PatienceGame, Rule
from .snake import foundation_wants

RESCUE = Move("rescue")


@register
class GrandPianoFragment(PatienceGame):
    info = GameInfo(
        id="grand_piano_fragment",
        source="002_641e09ccd4cb0ebe.txt",
        decks=2, kind="S-mixed", difficulty=3,
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

    #: a pile's only card moved into an empty pile would change nothing (not a move)
    twin_roles = frozenset({"tableau"})

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
            self.refill_empty(self.reserve, self.stock)
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
        return self.low_card_home((*self.tableau, self.waste, *self.reserve))

    # ------------------------------------------------------------ messages
    def explain(self, move: Move) -> Reason:
        if self.lost:
            return Reason("The game is lost: none of the reserve cards can be played.")
        rescue = self.vars["rescue"]
        if move.kind == "rescue":
            if rescue:
                return Reason("The rescue operation can be made only once.")
            if self.cards[self.stock]:
                return Reason("The rescue operation is allowed only when the stock is used up.")
            return Reason("There are no unused cards in the waste to form the rescue pack.")
        if move.kind in ("deal", "redeal") and rescue:
            return Reason("After the rescue operation the pack only refills the reserve.")
        if (move.kind == "move" and move.src != move.dst
                and self._role[move.src] == self._role[move.dst] == "tableau"
                and self.cards[move.src] and not self.cards[move.dst]
                and not self._empty_from_piles):
            return Reason("An empty pile can only be filled from the waste or the reserve.")
        return super().explain(move)

    # ------------------------------------------------------------ for the solver
    # The talon is searched as compound moves, "turn the stock k times, then play the new
    # waste card": a turn commutes with every move that does not touch the waste, so each
    # winning line can be rearranged to turn the stock only right before it plays the waste
    # card, turns the waste over or starts the rescue. Single turns are never searched alone.
