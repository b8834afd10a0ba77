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

Replies: ``{"id", "result": "won"|"lost"|"unknown", "moves": [notation ...],
"keys": [position key before each move ..., final key], "nodes", "seconds", "error"}``.
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
    from games import solver

    start = time.monotonic()
    deadline = start + float(msg.get("seconds", 2.0))
    game = build(msg)
    # a hint wants a way to the goal within the budget, not the shortest (sliding puzzles)
    sol = solver.solve(game, max_nodes=int(msg.get("max_nodes", 5_000_000)),
                       should_stop=lambda: time.monotonic() > deadline or interrupted(),
                       shortest=False)
    out: dict[str, Any] = {"id": msg["id"], "result": sol.result, "moves": [], "keys": [],
                           "nodes": sol.nodes, "error": None}
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
    out["seconds"] = time.monotonic() - start
    return out


def serve(conn) -> None:
    """The child's main loop: one request at a time, until ``stop`` or the pipe closes."""
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
