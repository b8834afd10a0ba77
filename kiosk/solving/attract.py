"""Attract mode's player, without Kivy: which deal to show and which move comes next.

On the welcome screen, after a while, the kiosk plays games by itself. For a game with a
list of winnable deals (``assets/deals/<game>.json``, :mod:`kiosk.solving.deals`) the demo replays a
stored winning line to the end, so the show ends with a win; of a few deals drawn from the
list it takes the one with the shortest line, and :meth:`DemoPlayer.pace` spreads a long line
over about a minute and a half rather than letting it drag. A line longer than a show can
hold at a followable pace (:data:`MAX_SHOWN` moves) is shown from its last :data:`MAX_SHOWN`
moves: the table opens on the deal with the first moves already made
(:meth:`DemoPlayer.fast_forward`). Snake's lines are 665 to 64 275 moves; played whole, one
demo held the lobby for most of an hour (the soak of b4f6e46: one demo from minute 48 to the
end of the run).

Other games are played by a simple auto-player: the engine's safe foundation moves first, then
the first legal move in the order the solver would try them (``solver_moves`` of
:mod:`games.search`) that leads to a position not seen before; it stops when no such move is
left or after :data:`MAX_MOVES`.

Demo plays are never written to the play log: attract mode runs all night, and a move a
second synced to the card would wear it out for nothing (the statistics leave demos out
anyway).
"""

from __future__ import annotations

import logging
import random
from typing import Any, cast

import games
from games import Move
from games.families.seats import SeatedGame
from games.search import Compound, searchable
from kiosk.solving import deals

log = logging.getLogger("kiosk.attract")

MAX_MOVES = 250
#: a replayed line is shown in about this many seconds ...
SHOW_SECONDS = 75.0
#: ... at no more than this many seconds a move (short lines: a calm pace) ...
SLOWEST = 0.9
#: ... and no less (long lines: still slow enough to follow each card)
FASTEST = 0.35
#: how many deals of the list are drawn to pick the shortest line from
CANDIDATES = 3
#: the most moves one show plays: :data:`SHOW_SECONDS` at :data:`FASTEST` a move
MAX_SHOWN = int(SHOW_SECONDS / FASTEST)


class DemoPlayer:
    """One demo game: :meth:`seed` says which deal to put on the table, :meth:`next_move`
    what to play next on it (None: the show is over)."""

    def __init__(self, game_id: str, options: dict[str, Any] | None = None,
                 rnd: random.Random | None = None, max_moves: int = MAX_MOVES) -> None:
        self.game_id = game_id
        self.options = dict(options or {})
        self.rnd = rnd or random.Random()
        self.max_moves = max_moves
        self.line: list[str] | None = None
        self.played = 0
        self._seen: set[bytes] = set()
        self._queue: list[Move] = []
        self._seed: int | None = None
        #: how many moves of :attr:`line` are made before the show (:meth:`fast_forward`)
        self.skipped = 0
        try:
            # the file's strings, split for the one deal shown (Snake's list parsed whole
            # is 35 MB of Python objects), and the lists the table read lately kept
            deal_list = deals.stored(game_id, self.options)
        except Exception:  # noqa: BLE001 - a broken list only costs the stored lines
            log.exception("cannot read the deal list of %s", game_id)
            deal_list = None
        if deal_list is not None and deal_list.seeds:
            seed = self._draw(deal_list)
            self._seed = seed
            try:
                game = games.new(game_id, seed, **self.options)
                self.line = deals.line(game, deal_list.moves(seed) or [])
                for text in self.line:  # a show that promises a win must end in one
                    game.play(game.parse_move(text))
                if not game.won:
                    raise ValueError("the line does not end in a win")
                self.skipped = max(0, len(self.line) - MAX_SHOWN)
            except Exception as err:  # noqa: BLE001 - the auto-player takes over
                log.warning("stored line of %s #%s does not replay (%s); the demo plays by "
                            "itself", game_id, seed, err)
                self.line = None
                self._seed = None
                self.skipped = 0

    def _draw(self, deal_list: deals.StoredDeals) -> int:
        """The deal to show: the shortest line of a few drawn from those a show can hold
        whole; when there are none (Snake), the list's shortest line, so that putting its
        forced moves back and checking it (on the kiosk's one thread) stays short too."""
        def length(seed: int) -> int:
            return len(deal_list.lines[seed].split())

        fits = [s for s in deal_list.seeds if length(s) <= MAX_SHOWN]
        if not fits:
            return min(deal_list.seeds, key=length)
        return min((self.rnd.choice(fits) for _ in range(CANDIDATES)), key=length)

    def fast_forward(self, game: games.Game) -> None:
        """Make on the freshly dealt ``game`` the moves of the line the show leaves out
        (:attr:`skipped`: all but its last :data:`MAX_SHOWN`), without showing them."""
        for text in (self.line or [])[:self.skipped]:
            game.play(game.parse_move(text))

    @property
    def replays(self) -> bool:
        """True when the demo replays a stored winning line."""
        return self.line is not None

    def seed(self) -> int:
        if self._seed is None:
            self._seed = self.rnd.randint(1, 999_999)
        return self._seed

    def pace(self, slowest: float = SLOWEST) -> float:
        """Seconds between two demo moves: a stored line is shown in about
        :data:`SHOW_SECONDS`, at :data:`FASTEST` to ``slowest`` seconds a move (``slowest``
        wins when it is lower: the tests run the show fast)."""
        shown = len(self.line or ()) - self.skipped
        if shown <= 0:
            return slowest
        return min(slowest, max(FASTEST, SHOW_SECONDS / shown))

    def next_move(self, game: games.Game) -> Move | None:
        """The next move to show, or None when the show is over (won, the line or the
        auto-player's ideas ran out, or :data:`MAX_MOVES` for the auto-player: a stored line
        is always played to its end (of a long one, its last :data:`MAX_SHOWN` moves), so it
        ends in a win)."""
        if game.won or (self.line is None and self.played >= self.max_moves):
            return None
        move = self._from_line(game, self.line) if self.line is not None else self._greedy(game)
        if move is not None:
            self.played += 1
        return move

    def _from_line(self, game: games.Game, line: list[str]) -> Move | None:
        at = self.skipped + self.played
        if at >= len(line):
            return None
        try:
            move = game.parse_move(line[at])
        except Exception:  # noqa: BLE001
            log.exception("stored line of %s left the rules", self.game_id)
            return None
        return move if game.why_illegal(move) is None else None

    def _greedy(self, game: games.Game) -> Move | None:
        if self._queue:  # the rest of a compound move, one engine move a step
            move = self._queue.pop(0)
            return move if game.why_illegal(move) is None else None
        self._seen.add(game.key())
        try:
            safe = game.safe_autoplay()
            candidates = ([safe] if safe is not None else []) + list(searchable(game).solver_moves())
        except Exception:  # noqa: BLE001 - an engine bug only ends the show
            log.exception("%s: no moves for the demo", self.game_id)
            return None
        probe = game.clone()
        for candidate in candidates:
            # a game's solver may offer compound moves: several moves made in a row
            steps = list(candidate.moves) if isinstance(candidate, Compound) else [candidate]
            try:
                for move in steps:
                    probe.play(move, check=False)
                key = probe.key()
                for _ in steps:
                    probe.unmake()
            except Exception:  # noqa: BLE001
                log.exception("%s: demo move %r failed", self.game_id, candidate)
                return None
            if key not in self._seen:
                self._seen.add(key)
                self._queue = steps[1:]
                return steps[0]
        return None


#: the most moves one demo hand against the computer shows (a hand is far shorter)
HAND_MAX_MOVES = 200


class HandDemo:
    """One demo hand of a game against the computer, played computer against computer.

    A passer-by who only ever sees solitaires in attract mode never learns that the kiosk
    also deals gin rummy, poker and a trick game. The show is the game's own hand table,
    drawn as a visitor sees it (names, chips, the pot, the words): every seat, the
    visitor's included, is played by the game's own computer player
    (:func:`games.players.player_for`), each from its own :class:`games.families.seats.View`,
    as at a real table, the table making each move through the path a visitor's touch or
    its computer turn takes (:meth:`kiosk.screens.seated_table.SeatedTableScreen.demo_step`).
    This object says when the show is over: the first hand ended, the game over or stuck,
    or :attr:`max_moves` made."""

    line = None
    skipped = 0
    replays = False

    def __init__(self, game_id: str, options: dict[str, Any] | None = None,
                 rnd: random.Random | None = None,
                 max_moves: int = HAND_MAX_MOVES) -> None:
        self.game_id = game_id
        self.options = dict(options or {})
        self.rnd = rnd or random.Random()
        self.max_moves = max_moves
        self.played = 0
        self._seed: int | None = None
        self._hands = 0

    def seed(self) -> int:
        if self._seed is None:
            self._seed = self.rnd.randint(1, 999_999)
        return self._seed

    def fast_forward(self, game: games.Game) -> None:
        """Nothing of a hand is left out: the show starts at the deal of ``game``."""
        self._hands = len(cast(SeatedGame, game).hand_records())

    def pace(self, slowest: float = SLOWEST) -> float:
        """A move every ``slowest`` seconds: a watcher follows each card of every seat."""
        return slowest

    def hand_over(self, game: games.Game) -> bool:
        """The first hand of the show has ended (or the whole game)."""
        return game.over or len(cast(SeatedGame, game).hand_records()) > self._hands

    def goes_on(self, game: games.Game) -> bool:
        """Whether the seat to move plays next (False: the show is over)."""
        return (isinstance(game, SeatedGame) and self.played < self.max_moves
                and not self.hand_over(game) and bool(game.legal_moves()))

    def next_move(self, game: games.Game) -> Move | None:
        """The move of the seat to move, decided by its computer player from its own view
        (any seat: the visitor's is the computer's in a demo); None when the show is over."""
        return cast(SeatedGame, game).computer_move() if self.goes_on(game) else None
