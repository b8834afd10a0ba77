"""Hints and the live "still winnable" verdict, without Kivy: the worker process and what
is known about the positions of one deal.

:class:`HintWorker` runs the solver in a child process (:mod:`kiosk.solving.hintworker`), started
with the ``spawn`` context so the child is a fresh interpreter that never imports Kivy and
shares no lock with the app. The table asks with :meth:`HintWorker.request` and collects
answers with :meth:`HintWorker.poll` from a Kivy ``Clock`` interval, so nothing ever waits
on the child. A newer request makes the child drop the older search at once; a child that
dies or hangs is replaced, and its pending requests come back as ``unknown`` with an
``error`` (the table then says "No hint found" and logs it).

The child costs what it needs and no more (a 512 MB board has no room for a solver nobody
uses): it is started by the first request, not with the app; the table ends it once it has
been unused for :data:`IDLE_STOP` (:meth:`HintWorker.retire_if_idle`); a search stores at
most :data:`MAX_NODES` positions; and a child whose memory grew past
:data:`WORKER_RSS_LIMIT` leaves after its answer (:func:`kiosk.solving.hintworker.serve`),
so the next request starts a fresh one.

:class:`HintBook` remembers, per exact position key (:meth:`games.Game.key`), what the
solver found: ``lost`` positions, and every position along each winning line with the move
to play there. A hint on a position of a known line is instant (the stored line of a deal
from the winnable list, or the rest of the line after the player followed a hint), and the
book knows which earlier position was still winnable when the table offers an Undo.
"""

from __future__ import annotations

import logging
import multiprocessing
import sys
import time
import types
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import games
from kiosk.solving import hintworker

log = logging.getLogger("kiosk.hints")

WON, LOST, UNKNOWN = "won", "lost", "unknown"
#: a child that has not answered this long after its budget is hung: it is replaced
GRACE = 10.0
#: after a worker could not even be started, hints wait this long before the next try
BACKOFF = 60.0
#: the book forgets everything past this many positions (memory on a Pi running for months)
BOOK_LIMIT = 50_000
#: a child just started has to load Python and every game before its first answer: a few
#: seconds on a Pi Zero 2 W, half a minute under emulation (QEMU's boot test)
START_GRACE = 60.0
#: the child is ended after this long without a request: a visitor who sits and thinks for
#: a few minutes still gets a quick answer, while a kiosk nobody plays (attract mode, most
#: of a lobby's day) gives the child's memory back. Not a config key: the operator has no
#: reason to trade it, and 20-70 MB on a 512 MB board is the only thing it saves.
IDLE_STOP = 300.0
#: positions one search may store: about 100 bytes each (measured: 62-98 on Klondike and
#: Napoleon's Tomb), so at most ~50 MB. A Pi 4 visits some 30,000 a second, so the default
#: budgets (1.5 s hint, 3 s check) never reach it; it bounds a long ``check_seconds`` or a
#: faster board.
MAX_NODES = 500_000
#: a child whose resident memory is past this after an answer leaves (pymalloc keeps the
#: arenas of a big search, and the games' own tables of solved endgames only grow): its
#: start costs about 18 MB, a search up to MAX_NODES some 50 more.
WORKER_RSS_LIMIT = 96 * 1024 * 1024


@dataclass
class Reply:
    """The worker's answer to one request."""

    id: int
    result: str
    moves: list[str] = field(default_factory=list)
    #: the position key before each move of ``moves``, and the key after the last
    keys: list[bytes] = field(default_factory=list)
    nodes: int = 0
    seconds: float = 0.0
    error: str | None = None
    #: the key of the position asked about
    key: bytes = b""
    #: no win found in time (``unknown``): the move the search rates best, as notation
    #: (shown as a suggestion, never as a winning move; never put in the book)
    suggestion: str | None = None


def request_message(game: games.Game, req_id: int, seconds: float,
                    max_nodes: int = MAX_NODES) -> dict[str, Any]:
    """What the child needs to rebuild the position: the JSON save plus the exact piles."""
    return {"id": req_id, "save": game.to_json(), "key": game.key(),
            "state": [[list(p) for p in game.cards], list(game.down), dict(game.vars)],
            "seconds": float(seconds), "max_nodes": int(max_nodes)}


class HintWorker:
    """One solver child process, started when first needed, replaced when it dies and ended
    when unused (see the module docstring)."""

    def __init__(self, *, context: str = "spawn", grace: float = GRACE,
                 clock: Callable[[], float] = time.monotonic, idle_stop: float = IDLE_STOP,
                 start_grace: float = START_GRACE,
                 rss_limit: int = WORKER_RSS_LIMIT) -> None:
        self._ctx = multiprocessing.get_context(context)
        self.grace = grace
        self.idle_stop = idle_stop
        self.start_grace = start_grace
        self.rss_limit = rss_limit
        self._clock = clock
        #: when the child was last asked or last answered
        self._last_used = clock()
        self._proc: Any = None
        self._conn: Any = None
        self._next_id = 0
        #: request id -> (position key, time by which an answer is overdue)
        self._pending: dict[int, tuple[bytes, float]] = {}
        #: request id -> the message sent, while pending (sent again when the child left)
        self._sent: dict[int, dict[str, Any]] = {}
        self.restarts = 0
        self._broken_until = 0.0

    # ------------------------------------------------------------------ life
    @property
    def alive(self) -> bool:
        return self._proc is not None and self._proc.is_alive()

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc is not None else None

    @property
    def busy(self) -> bool:
        return bool(self._pending)

    def start(self) -> bool:
        """Start the child if it is not running (cheap when it is); True when it was
        started now."""
        if self.alive:
            return False
        if self._proc is not None:
            if self._proc.exitcode == 0:   # it left after a big search (its memory bound)
                log.info("the hint worker had left to give its memory back; starting anew")
            else:
                self.restarts += 1
                log.warning("the hint worker had stopped (exit %s); starting a new one",
                            self._proc.exitcode)
            self._close()
        parent, child = self._ctx.Pipe(duplex=True)
        proc = self._ctx.Process(target=hintworker.serve, args=(child, self.rss_limit),
                                 daemon=True, name="kiosk-hints")
        # The spawn context re-runs the parent's main script in the child unless it is a
        # package's __main__; the app's script (or a test runner) must not run there, so
        # the child is started with an empty main: it imports kiosk.solving.hintworker and games.
        main = sys.modules.get("__main__")
        sys.modules["__main__"] = types.ModuleType("__main__")
        try:
            proc.start()
        finally:
            if main is not None:
                sys.modules["__main__"] = main
        child.close()
        self._proc, self._conn = proc, parent
        self._last_used = self._clock()
        log.info("hint worker started (pid %s)", proc.pid)
        return True

    def idle_left(self) -> float:
        """Seconds until an unused child is due to be ended (0: due now or none runs)."""
        if self._proc is None:
            return 0.0
        return max(0.0, self._last_used + self.idle_stop - self._clock())

    def retire_if_idle(self) -> bool:
        """End the child when it has had nothing to do for :attr:`idle_stop` seconds (its
        memory goes back to the board); the next request starts another. True when no
        child runs any more."""
        if self._proc is None:
            return True
        if self.busy or self.idle_left() > 0:
            return False
        log.info("hint worker unused for %g s: ending it (pid %s)", self.idle_stop,
                 self._proc.pid)
        self.stop()
        return True

    def stop(self) -> None:
        """Ask the child to leave, then make sure it is gone (the app is stopping)."""
        if self._proc is None:
            return
        try:
            self._conn.send({"stop": True})
        except (OSError, ValueError):
            pass
        self._proc.join(0.5)
        self._close()
        self._pending.clear()
        self._sent.clear()

    def _close(self) -> None:
        proc, conn = self._proc, self._conn
        self._proc = self._conn = None
        if proc is not None and proc.is_alive():
            proc.kill()
            proc.join(2)
        if conn is not None:
            conn.close()

    # ------------------------------------------------------------------ requests
    def request(self, game: games.Game, seconds: float, max_nodes: int = MAX_NODES) -> int:
        """Ask for a solution of the current position of ``game``; returns the request id.

        Any search still running for an older request stops at once (its reply still comes
        and is handed out by :meth:`poll`, marked by its id)."""
        self._next_id += 1
        req_id = self._next_id
        key = game.key()
        if self._clock() < self._broken_until:
            self._pending[req_id] = (key, -1.0)  # failed lately: no new try for a while
            return req_id
        self._send(req_id, key, request_message(game, req_id, seconds, max_nodes))
        return req_id

    def _send(self, req_id: int, key: bytes, msg: dict[str, Any]) -> None:
        """Send one request (starting the child when none runs) and note when its answer is
        overdue; a failure is noted as an answer the next :meth:`poll` reports."""
        self._last_used = self._clock()
        try:
            try:
                fresh = self.start()
                self._conn.send(msg)
            except (OSError, ValueError):
                if self._proc is not None:
                    self._proc.join(1)   # a child that is leaving is gone within moments
                if self._proc is None or self._proc.exitcode != 0:
                    raise
                # it left (its memory bound) between the check and the send: a new one
                fresh = self.start()
                self._conn.send(msg)
        except Exception:  # noqa: BLE001 - the answer will be "no hint"
            log.exception("cannot send a request to the hint worker; no hints for %g s",
                          BACKOFF)
            self._close()
            self._broken_until = self._clock() + BACKOFF  # a broken system: no log flood
            self._pending[req_id] = (key, -1.0)  # reported as failed by the next poll
            return
        due = (self._clock() + float(msg["seconds"]) + self.grace
               + (self.start_grace if fresh else 0.0))
        self._pending[req_id] = (key, due)
        self._sent[req_id] = msg

    def cancel(self) -> None:
        """The table no longer wants any answer (it was left, the game ended): the running
        search stops; its reply, if it comes, is dropped."""
        if self._pending and self.alive:
            try:
                self._conn.send({"cancel": True})
            except (OSError, ValueError):
                pass
        self._pending.clear()
        self._sent.clear()

    def poll(self) -> list[Reply]:
        """Answers that have arrived, without waiting; failures come back as ``unknown``."""
        out: list[Reply] = []
        conn = self._conn
        try:
            while conn is not None and conn.poll():
                msg = conn.recv()
                if isinstance(msg, dict) and msg.get("leaving"):
                    conn = self._child_left()
                    continue
                if not isinstance(msg, dict) or "id" not in msg:
                    continue
                self._last_used = self._clock()
                self._sent.pop(msg["id"], None)
                pending = self._pending.pop(msg["id"], None)
                if pending is None:
                    continue  # cancelled
                reply = Reply(msg["id"], msg.get("result", UNKNOWN), list(msg.get("moves", [])),
                              list(msg.get("keys", [])), int(msg.get("nodes", 0)),
                              float(msg.get("seconds", 0.0)), msg.get("error"), pending[0],
                              msg.get("suggestion") if msg.get("result") == UNKNOWN else None)
                if reply.error:
                    log.warning("hint worker: %s", reply.error)
                out.append(reply)
        except (EOFError, OSError):
            log.warning("the hint worker's pipe broke")
            self._lost()
        now = self._clock()
        dead = not self.alive
        overdue = [i for i, (_k, due) in self._pending.items() if dead or now > due]
        if overdue:
            log.warning("the hint worker %s; its requests get no hint",
                        "died" if dead else "is not answering")
            self._lost()  # the next request starts a new one
            for i in sorted(self._pending):
                key, _due = self._pending[i]
                out.append(Reply(i, UNKNOWN, error="the hint worker stopped", key=key))
            self._pending.clear()
            self._sent.clear()
        return out

    def _child_left(self) -> Any:
        """The child said it leaves to give its memory back (every answer it gave came
        before): requests it had not read yet go to a new child. Returns the new pipe."""
        self._close()
        resend = [(i, self._pending[i][0], self._sent[i]) for i in sorted(self._sent)
                  if i in self._pending]
        self._pending.clear()
        self._sent.clear()
        log.info("the hint worker left to give its memory back; %d request(s) go to a new one",
                 len(resend))
        for req_id, key, msg in resend:
            self._send(req_id, key, msg)
        return self._conn

    def _lost(self) -> None:
        """The child died or hangs: close it; the next request starts another."""
        if self._proc is not None:
            self.restarts += 1
        self._close()

    def ping(self, timeout: float = 30.0) -> dict[str, Any]:
        """Round trip to the child, waiting (tests and diagnostics only, never the UI)."""
        self.start()
        self._conn.send({"ping": 1})
        if not self._conn.poll(timeout):
            raise TimeoutError("the hint worker does not answer")
        while True:
            msg = self._conn.recv()
            if "pong" in msg:
                return msg


class HintBook:
    """What the solver found about the positions of one deal (see the module docstring)."""

    def __init__(self) -> None:
        self._verdict: dict[bytes, str] = {}
        self._next: dict[bytes, str] = {}

    def clear(self) -> None:
        self._verdict.clear()
        self._next.clear()

    def __len__(self) -> int:
        return len(self._verdict)

    def verdict(self, key: bytes) -> str | None:
        """``won``, ``lost`` or None (not known)."""
        return self._verdict.get(key)

    def next_move(self, key: bytes) -> str | None:
        """The next move (notation) of a known winning line from this position."""
        return self._next.get(key)

    def add_line(self, keys: list[bytes], moves: list[str]) -> None:
        """A winning line: ``keys[i]`` is the position where ``moves[i]`` is played."""
        if len(self._verdict) > BOOK_LIMIT:
            self.clear()
        for key, move in zip(keys, moves, strict=False):
            self._verdict[key] = WON
            self._next[key] = move
        if keys:
            self._verdict[keys[-1]] = WON

    def add(self, reply: Reply) -> None:
        if reply.result == WON and reply.keys:
            self.add_line(reply.keys, reply.moves)
        elif reply.result == LOST and reply.key:
            self._verdict[reply.key] = LOST

    def add_known_line(self, game: games.Game, moves: list[str]) -> bool:
        """A stored winning line (a deal of the winnable list) played from ``game``'s
        position (left untouched); False when it does not replay to a win."""
        g = game.clone()
        keys, line = [g.key()], []
        try:
            for text in moves:
                move = g.parse_move(text)
                if g.why_illegal(move) is not None:
                    return False
                g.play(move, check=False)
                line.append(text)
                keys.append(g.key())
        except games.GameError:
            return False
        if not g.won:
            return False
        self.add_line(keys, line)
        return True


def hint_move(game: games.Game, notation: str | None) -> games.Move | None:
    """The move ``notation`` if it is legal in ``game`` now, else None (never a wrong hint)."""
    if not notation:
        return None
    try:
        move = game.parse_move(notation)
        return move if game.why_illegal(move) is None else None
    except Exception:  # noqa: BLE001 - a bad line gives no hint, not an error
        log.exception("stored hint %r does not parse", notation)
        return None
