"""The hint worker's side: a child process that solves positions for the table.

Why a process: the solver is pure Python and CPU-bound; on a thread it would hold the GIL
and Kivy would drop frames while it thinks. A child process has its own interpreter, so the
table stays smooth whatever the search costs. This module is what the child runs; it
imports only the standard library and :mod:`games` (never Kivy, never the rest of the
kiosk), so the child starts fast and small.

Protocol on one duplex :func:`multiprocessing.Pipe` (plain picklable dicts):

* ``{"id": n, "save": json, "state": [cards, down, vars], "key": bytes, "seconds": s,
  "max_nodes": n}``: solve this position. ``save`` is the game's JSON save
  (:meth:`games.Game.to_json`); a constructed position (a test, a saved position) does not
  replay from it, so the exact piles travel along in ``state`` and win when the replayed
  position differs.
* ``{"ping": n}``: answered with ``{"pong": n, "modules": [...]}`` (the tests check that
  no Kivy was imported).
* ``{"stop": True}``: leave.

The child also leaves by itself (``{"leaving": True}``, then status 0) after an answer
that left its resident memory above the limit it was started with: a big search's
memory is not given back by Python's allocator, and the games' own tables of solved
endgames only grow, so a fresh child is the one sure way back to its starting size. The
parent sends whatever the child had not read yet to a new one.

Replies: ``{"id", "result": "won"|"lost"|"unknown", "moves": [notation ...],
"keys": [position key before each move ..., final key], "nodes", "seconds", "error",
"suggestion"}``; ``suggestion`` is the notation of the move the search rates best when it
found no win in time (``unknown``), or None (see :func:`suggestion`).
A search stops early when a newer message arrives (the table moved on), so a request for a
stale position never delays the next one; its reply still comes and the parent decides
what to keep.
"""

from __future__ import annotations

import json
import os
import sys
import time
import traceback
from typing import Any


def build(msg: dict[str, Any]):
    """The position of a request as a game object (see the module docstring)."""
    import games

    try:
        game = games.from_json(msg["save"])
    except games.GameError:
        game = None
    if game is None or game.key() != msg["key"]:
        # a constructed position: the dealt game with the exact piles put on it
        d = json.loads(msg["save"])
        game = games.new(d["game"], d["seed"], **d["options"])
        cards, down, vars_ = msg["state"]
        game.cards = [list(p) for p in cards]
        game.down = list(down)
        game.vars = dict(vars_)
    if game.key() != msg["key"]:
        raise ValueError("the position sent does not rebuild")
    return game


def solve(msg: dict[str, Any], interrupted) -> dict[str, Any]:
    """Solve one request; ``interrupted()`` says a newer message is waiting."""
    start = time.monotonic()
    deadline = start + float(msg.get("seconds", 2.0))
    game = build(msg)
    out = answer(game, lambda: time.monotonic() > deadline or interrupted(),
                 int(msg.get("max_nodes", 5_000_000)))
    out["id"] = msg["id"]
    out["seconds"] = time.monotonic() - start
    return out


def answer(game, should_stop, max_nodes: int = 5_000_000) -> dict[str, Any]:
    """What the Hint button gets for ``game`` (left untouched): the solver's verdict, the
    winning line when it found one, and otherwise, when the budget ran out, a suggestion.

    Kept apart from the pipe so that ``bench/hint.py`` measures exactly what the table
    gets. ``should_stop`` is the budget (the worker's clock, or the bench's CPU time)."""
    from games import solver

    # a hint wants a way to the goal within the budget, not the shortest (sliding puzzles)
    sol = solver.solve(game, max_nodes=max_nodes, should_stop=should_stop, shortest=False)
    out: dict[str, Any] = {"result": sol.result, "moves": [], "keys": [],
                           "nodes": sol.nodes, "error": None, "suggestion": None}
    if sol.result == solver.WON:
        if not solver.replay_wins(game, sol.moves):
            out.update(result=solver.UNKNOWN, error="the solver's line does not replay")
        else:
            g = game.clone()
            keys = [g.key()]
            for m in sol.moves:
                out["moves"].append(g.notation(m))
                g.play(m, check=False)
                keys.append(g.key())
            out["keys"] = keys
    if out["result"] == solver.UNKNOWN:
        move = suggestion(game)
        out["suggestion"] = game.notation(move) if move is not None else None
    return out


def suggestion(game):
    """The move the search would try first from ``game``, when no win was proved in time:
    the move its order rates best (a safe move home, else the first of the game's pruned
    order), leaving out a move after which the game's own dead-end test or rules already
    say the position is lost. A suggestion, not a promise: the table says so. None when
    every move is such a dead end (or there is none)."""
    from games.engine.model import Compound
    from games.search import Search, searchable

    g = searchable(game)
    safe = g.solver_autoplay()
    candidates = [safe] if safe is not None else list(g.solver_moves(True))
    if safe is None and type(g).SOLVER_PRUNES:
        candidates += [m for m in g.solver_moves(False) if m not in candidates]
    check_hopeless = type(g).solver_hopeless is not Search.solver_hopeless
    for cand in candidates:
        made = cand.moves if type(cand) is Compound else (cand,)
        for m in made:
            g.make(m)
        dead = not g.won and (g.lost or (check_hopeless and g.solver_hopeless()))
        for _ in made:
            g.unmake()
        if not dead:
            first = made[0]
            return first if game.why_illegal(first) is None else None
    return None


def resident_bytes() -> int:
    """This process's resident memory (Linux: /proc/self/statm), 0 where unknown."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


def serve(conn, rss_limit: int = 0) -> None:
    """The child's main loop: one request at a time, until ``stop``, the pipe closes, or
    an answer leaves it above ``rss_limit`` bytes (0: no limit; see the module docstring)."""
    try:
        os.nice(10)  # the table's frames come first on a busy Pi
    except (AttributeError, OSError):
        pass
    import games  # noqa: F401 - load every game before the first request

    while True:
        try:
            msg = conn.recv()
        except (EOFError, OSError):
            return
        if not isinstance(msg, dict) or msg.get("stop"):
            return
        if "ping" in msg:
            conn.send({"pong": msg["ping"], "modules": sorted(sys.modules)})
            continue
        if "id" not in msg:
            continue
        try:
            reply = solve(msg, conn.poll)
        except Exception as err:  # noqa: BLE001 - any failure is "no hint", never a crash
            reply = {"id": msg["id"], "result": "unknown", "moves": [], "keys": [],
                     "nodes": 0, "seconds": 0.0,
                     "error": f"{type(err).__name__}: {err}\n{traceback.format_exc(limit=4)}"}
        try:
            conn.send(reply)
        except (BrokenPipeError, OSError):
            return
        if rss_limit and not conn.poll() and resident_bytes() > rss_limit:
            try:
                conn.send({"leaving": True})   # the parent sends anything unread again
            except (BrokenPipeError, OSError):
                pass
            return
