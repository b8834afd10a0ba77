"""The computer's turns at the Gin Rummy table, and the words that tell the visitor.

Why a worker thread and not the UI thread: a decision is a meld search over the hand
(milliseconds on a Pi 4, docs/benchmarks.md), but the table must never stall a frame for
it, and a later player (draw poker's simulations) will think longer. The worker gets a
*clone* of the game, so the table's object is only ever touched by the UI thread; the
table polls :meth:`ComputerTurns.ready` from its clock and plays the move itself, after a
short pause so a person can follow.

The texts are msgids of the kiosk catalog with their fields, so the screen translates
them in the visitor's language (no Kivy here: the tests check them directly).
"""

from __future__ import annotations

import time
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from games.engine import cards as C
from games.engine.model import Move
from games.families.gin_records import HandResult
from games.families.seats import VISITOR, SeatedGame

#: a message: a msgid of the kiosk catalog and its fields
Text = tuple[str, dict[str, Any]]


def _(msgid: str) -> str:
    """Marks a msgid for tools/messages.py; the screen translates it."""
    return msgid


class ComputerTurns:
    """Asks for the computer's move in the background and hands it over after ``pause``
    seconds at the earliest (the time a person needs to see what happened)."""

    def __init__(self, pause: float = 1.0, clock=time.monotonic) -> None:
        self.pause = pause
        self._clock = clock
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="kiosk-computer")
        self._future: Future | None = None
        self._asked = 0.0
        self._key: Any = None

    @property
    def thinking(self) -> bool:
        return self._future is not None

    def ask(self, game: SeatedGame) -> None:
        """Start deciding the move of the seat to move (a no-op while one is pending)."""
        if self._future is not None:
            return
        twin = game.clone()
        self._key = (id(game), len(game.history))
        self._asked = self._clock()
        self._future = self._pool.submit(twin.computer_move, game.computer_rng())

    def ready(self, game: SeatedGame) -> Move | None:
        """The decided move once it is done and the pause is over, else None. A decision
        for another position (the visitor left, a new match) is dropped."""
        fut = self._future
        if fut is None or not fut.done() or self._clock() - self._asked < self.pause:
            return None
        self._future = None
        if self._key != (id(game), len(game.history)):
            return None
        move = fut.result()
        return move if move in game.legal_moves() else None

    def cancel(self) -> None:
        self._future = None

    def close(self) -> None:
        self._future = None
        self._pool.shutdown(wait=False)


def take_text(card: int) -> Text:
    return _("Take the {card}"), {"card": C.pretty(card)}


def drawn_text(kind: str, card: int) -> Text:
    """The card the visitor just drew (``stock``) or took (``take``): said, and marked in
    the hand, so it is found among eleven."""
    if kind == "take":
        return _("You take the {card}; it is framed in gold in your hand."), \
            {"card": C.pretty(card)}
    return _("You draw the {card}; it is framed in gold in your hand."), \
        {"card": C.pretty(card)}


def pass_text(card: int) -> Text:
    return _("The computer passes the {card}."), {"card": C.pretty(card)}


def meld_text(meld: tuple[int, ...]) -> Text:
    """The button that lays the raised card off on ``meld`` (shown as it lies now)."""
    return _("On {meld}"), {"meld": meld_words(meld)}


def meld_words(meld: tuple[int, ...]) -> str:
    """A meld in signs, short enough for a button: a run as its ends (4♥–7♥), a set whole."""
    cards = sorted(meld, key=lambda c: (C.RANK[c], C.SUIT[c]))
    if len(cards) > 3 and C.RANK[cards[0]] != C.RANK[cards[-1]]:
        return f"{C.pretty(cards[0])}–{C.pretty(cards[-1])}"
    return " ".join(C.pretty(c) for c in cards)


def lay_off_text(move: Move, melds: tuple[tuple[int, ...], ...],
                 laid: tuple[int, ...]) -> Text:
    """What the computer lays off (``melds``: the visitor's melds as laid down), and once
    it is done, every card it laid off (``laid``), or that it had none."""
    if move.kind == "layoff":
        card, i = move.extra
        return (_("The computer lays off the {card} on your {meld}."),
                {"card": C.pretty(card), "meld": meld_words(melds[i])})
    if not laid:
        return _("The computer has nothing to lay off."), {}
    return (_("The computer laid off: {cards}."),
            {"cards": " ".join(C.pretty(c) for c in laid)})


def computer_text(drawn: Move | None, upcard: int, move: Move) -> Text:
    """What the computer did this turn, in one sentence: how it drew (``drawn``, with the
    card it took when it took the upcard) and what it discarded, knocked or went gin with."""
    out = C.pretty(move.extra[0]) if move.extra else ""
    took = drawn is not None and drawn.kind == "take"
    if move.kind == "gin":
        return _("The computer goes gin!"), {}
    if move.kind == "knock":
        return _("The computer knocks and discards the {card}."), {"card": out}
    if took:
        return (_("The computer takes the {card} and discards the {out}."),
                {"card": C.pretty(upcard), "out": out})
    return _("The computer draws from the stock and discards the {out}."), {"out": out}


def score_text(result: HandResult) -> Text:
    """The hand's score explained in one line, from the visitor's side of the table."""
    you, them = result.deadwood
    mine = result.winner == VISITOR
    if result.kind == "draw":
        return _("Only two stock cards are left: the hand is a draw, nobody scores."), {}
    if result.kind == "gin":
        if mine:
            return (_("Gin! The computer has {them} deadwood, plus 25: you score {points}."),
                    {"them": them, "points": result.points})
        return (_("The computer went gin. You have {you} deadwood, plus 25: it scores "
                  "{points}."), {"you": you, "points": result.points})
    if result.kind == "undercut":
        if mine:
            return (_("Undercut! You have {you}, the computer knocked with {them}: you score "
                      "{points}."), {"you": you, "them": them, "points": result.points})
        return (_("Undercut: the computer has {them}, you knocked with {you}: it scores "
                  "{points}."), {"you": you, "them": them, "points": result.points})
    if mine:
        return (_("You knock with {you}, the computer has {them}: you score {points}."),
                {"you": you, "them": them, "points": result.points})
    return (_("The computer knocks with {them}, you have {you}: it scores {points}."),
            {"you": you, "them": them, "points": result.points})


def match_text(game: SeatedGame) -> Text:
    you, them = game.final_scores
    if you > them:
        return _("You win the match, {you} to {them}!"), {"you": you, "them": them}
    if them > you:
        return _("The computer wins the match, {them} to {you}."), {"you": you, "them": them}
    return _("The match is a tie, {you} to {them}."), {"you": you, "them": them}


def hand_order(cards: list[int] | tuple[int, ...]) -> list[int]:
    """The visitor's hand as a person holds it: by suit, then rank."""
    return sorted(cards, key=lambda c: (C.SUIT[c], C.RANK[c]))
