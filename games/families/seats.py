"""Games with seats: turns, hidden hands, and what a person in one seat may know.

Why a separate layer: a computer player must play fairly. It decides from a :class:`View`,
the information a person in its seat would have (its own hand, the discards, the cards it
saw others pick up, scores, chips, tricks shown), and never from the game object, so it
cannot peek at the stock or the visitor's hand even by accident. ``tests/test_gin_rummy_players.py``
checks this as a property: changing the other seats' hidden cards and the stock order never
changes a decision.

Reproducibility: a computer player is a function of ``(view, rng)``. The rng is derived
from the deal number and the number of moves made so far (:meth:`SeatedGame.computer_rng`),
so the same deal and the same visitor moves give the same computer moves, and a saved game
records the player's version (:data:`SeatedGame.computer_version`) so a replay can tell
whether today's player would still choose the same.

Seat 0 is the visitor; the others are computer seats (draw poker will have up to seven).
A game moves one seat at a time (:attr:`SeatedGame.to_move`); the moves in ``history`` are
every seat's, so a saved game replays without running a player at all.
"""

from __future__ import annotations

from collections.abc import Callable, Container, Iterable, Mapping
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, ClassVar

from ..engine.game import Game
from ..engine.model import Move, Option
from ..engine.reason import Reason
from ..engine.rng import Rng

VISITOR = 0
#: the option every game against the computer has: the player it meets (``player_for``)
LEVEL = Option("level", "normal", ("easy", "normal"), help="how well the computer plays")
#: stream label of computer randomness, so it never shares draws with the deals
_COMPUTER_STREAM = 0x5EA7 << 32


@dataclass(frozen=True)
class View:
    """What a person in ``seat`` knows, as plain values.

    ``hand`` is the seat's own cards; ``public`` holds the visible piles by name (the
    discard pile, bottom to top); ``counts`` the sizes of what is visible only as backs
    (``stock``, each other seat's hand); ``shown`` the cards of other seats known to be in
    their hands (picked up from the discard, melds shown), keyed by seat; ``info`` the
    rest (scores, phase, chips, bets, options). ``legal`` lists the moves this seat may
    make now: they follow from what it knows, so they are part of the view."""

    game: str
    seat: int
    to_move: int
    phase: str
    hand: tuple[int, ...]
    legal: tuple[Move, ...]
    public: dict[str, tuple[int, ...]] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)
    shown: dict[int, tuple[int, ...]] = field(default_factory=dict)
    info: dict[str, Any] = field(default_factory=dict)


#: a computer player: decides a move from a view and a seeded random source, nothing else
Player = Callable[[View, Rng], Move]


class SeatedGame(Game):
    """A game for a visitor against computer seats.

    Subclasses set ``seats`` and ``computer_version``, keep the seat to move in
    :attr:`to_move`, and build :meth:`view`. The option ``level`` (``easy``/``normal``)
    picks the computer player. A game hands in what this family may not import: its
    computer players (:mod:`games.players`, which import this module for the
    :class:`View` they see) and its records."""

    seated = True
    #: the computer players (:mod:`games.players`), asked by game id and level when a
    #: computer moves (looked up then, so a test may watch every decision)
    computer_players: ModuleType
    #: the game's records (a module with ``hand_rows(game)``, ``match_row(game)`` and
    #: ``seats_data(game)``: the play log's rows and ``kiosk deal --json``'s seats), or None
    records: ModuleType | None = None
    seats: ClassVar[int] = 2
    #: each seat's hand pile, by seat (set in the game's ``prepare``)
    hands: tuple[int, ...]
    #: bump when a player's choices change, so an old log's replay is known to differ
    computer_version: ClassVar[str] = "1"
    #: the refusal an undo button shows: the journal still undoes for searches and tests,
    #: but a visitor may not take back a move the computer has answered
    undo_refusal: ClassVar[Reason] = Reason(
        "Undo is off in games against the computer: it has seen your move.")

    @property
    def to_move(self) -> int:
        return int(self.vars.get("turn", VISITOR))

    @property
    def phase(self) -> str:
        """Where the hand stands, in the game's own words (``draw``, ``done``, ...)."""
        return self.vars["phase"]

    def hand(self, seat: int) -> list[int]:
        """The cards in ``seat``'s hand: its pile of ``hands``, which the game sets up."""
        return self.cards[self.hands[seat]]

    def is_computer(self, seat: int) -> bool:
        return seat != VISITOR

    @property
    def computer_to_move(self) -> bool:
        return bool(self.legal_moves()) and self.is_computer(self.to_move)

    def view(self, seat: int) -> View:
        raise NotImplementedError

    def _set_all(self, values: Iterable[tuple[str, Any]]) -> None:
        """Set several ``vars`` in this order (a deal's, a hand's), each journaled."""
        for name, value in values:
            self._set(name, value)

    def computer_rng(self) -> Rng:
        """The computer's randomness for the move about to be made: fixed by the deal
        number and the number of moves so far, so a replay makes the same choices."""
        return Rng(self.seed, _COMPUTER_STREAM + len(self.history))

    def computer_move(self, rng: Rng | None = None) -> Move:
        """The move the computer in the seat to move makes now (from its view only).
        ``rng``: the game's :meth:`computer_rng`, drawn before a copy decides on another
        thread (a clone keeps no history, so its own would be the first move's)."""
        level = str(self.opts.get("level", "normal"))
        player: Player = self.computer_players.player_for(self.info.id, level)
        return player(self.view(self.to_move), rng or self.computer_rng())

    def play_computer(self, limit: int = 1000) -> list[Move]:
        """Play computer moves until the visitor is to move or the game ends."""
        made: list[Move] = []
        while len(made) < limit and self.computer_to_move:
            move = self.computer_move()
            self.play(move)
            made.append(move)
        return made

    def seat_word(self, seat: int) -> str:
        """How the play log names a seat: ``visitor``, ``computer`` (``computer 2``... when
        there are several), ``""`` for nobody (a drawn hand)."""
        if seat < 0:
            return ""
        if seat == VISITOR:
            return "visitor"
        return "computer" if self.seats == 2 else f"computer {seat}"

    def hand_records(self) -> list[dict[str, Any]]:
        """Every finished hand so far, as rows for the play log's ``hands`` table."""
        return self.records.hand_rows(self) if self.records else []

    def match_record(self) -> dict[str, Any] | None:
        """The finished match as a row of the play log's ``matches`` table, or None."""
        return self.records.match_row(self) if self.records else None

    def table(self) -> dict[str, Any]:
        data = super().table()
        if self.records:
            data["seats"] = self.records.seats_data(self)
        return data

    def to_dict(self) -> dict[str, Any]:
        data = super().to_dict()
        data["computer"] = {"level": self.opts.get("level", "normal"),
                            "version": self.computer_version}
        return data


def replay_visitor(game: SeatedGame, visitor_moves: list[Move | str]) -> SeatedGame:
    """Play ``visitor_moves`` on ``game`` with the computer answering each: the support
    path ("deal #4711"): the visitor's moves alone rebuild the whole game."""
    game.play_computer()
    for move in visitor_moves:
        game.play(move)
        game.play_computer()
    return game


def computer_mismatches(game: SeatedGame) -> list[int]:
    """Move numbers (1-based) where the recorded computer move differs from what this
    version of the player chooses in the same position: empty for a faithful replay."""
    moves = list(game.history)
    twin = type(game)(game.seed, **game.opts)
    bad = []
    for number, move in enumerate(moves, 1):
        if twin.is_computer(twin.to_move) and twin.computer_move() != move:
            bad.append(number)
        twin.play(move)
    return bad


def move_shape_problem(move: Any, extras: Mapping[str, int | None], wrong_kind: Reason,
                       deck: Container[int] = range(52)) -> Reason | None:
    """The shape every seated game's moves share (no pile indexes, cards in ``extra``),
    checked before a move is looked at: a saved game or a command line may hand in
    anything. ``extras``: how many cards each kind carries (None: any number, Draw
    Poker's exchange); ``wrong_kind``: the game's own words for a kind it does not know."""
    if not isinstance(move, Move) or not isinstance(move.extra, tuple):
        return Reason("That is not a move.")
    if move.kind not in extras:
        return wrong_kind
    want = extras[move.kind]
    if ((want is not None and len(move.extra) != want) or move.src != -1 or move.dst != -1
            or move.n != 1 or not all(type(c) is int and c in deck for c in move.extra)):
        return Reason("That is not a move.")
    return None


def between_hands(phase: str, kind: str, over: str, over_reason: Reason) -> Reason | None:
    """Why a move of ``kind`` is refused when the match (phase ``over``: ``over_reason``)
    or the hand is over, or when it asks for the next hand too early; None while a hand is
    under way."""
    if phase == over:
        return over_reason
    if phase == "done":
        return Reason("The hand is over: deal the next hand.")
    if kind == "next":
        return Reason("The hand is not over yet.")
    return None
