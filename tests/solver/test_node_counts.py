"""Every search visits the same positions as before the solver knowledge moved out of the
game files (issue 13): node-limited searches on the bench deals, compared exactly with the
counts, verdicts and winning lines recorded from the old code in ``node_counts.json``.

A node budget (never a clock) makes a search deterministic, so any change in a game's
move order, key, dead-end test or safe move shows up here as a different count. Record
again (only on purpose, when a search is meant to change) with
``python -m tests.solver.test_node_counts``.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import pytest

import games
from bench.solve import sample_seeds
from games.families.seats import SeatedGame
from games.solver import solve

FIXTURE = Path(__file__).with_name("node_counts.json")
#: (name, deals from the bench sample, node budget, solve() keywords, games or None for
#: all); the kiosk's hint worker asks with ``shortest=False``, which only changes the
#: IDA* puzzles' search, so that path is recorded for them
IDA = ["sliding_eleven"]
#: the slow default pass checks one deal a game (the restructure was proved on three; the
#: fixture keeps all three so a deeper check is one number away)
QUICK = [("default", 1, 2_000, {}, None), ("complete", 1, 1_000, {"prune": False}, None),
         ("hint", 2, 2_000, {"shortest": False}, IDA)]
SLOW = [("default-slow", 1, 10_000, {}, None), ("hint-slow", 4, 20_000, {"shortest": False}, IDA)]


def run(game_id: str, seed: int, budget: int, kwargs: dict) -> dict:
    """One search's footprint: verdict, nodes, stored positions, passes, winning line."""
    game = games.new(game_id, seed)
    sol = solve(game, max_nodes=budget, **kwargs)
    line = " ".join(game.notation(m) for m in sol.moves)
    return {"result": sol.result, "nodes": sol.nodes, "positions": sol.positions,
            "passes": sol.passes, "line": hashlib.sha1(line.encode()).hexdigest()[:16]}


def cases(plan: list) -> list[tuple[str, str, int, int, dict]]:
    return [(name, gid, seed, budget, kwargs)
            for name, deals, budget, kwargs, ids in plan
            for gid in ids or solitaires()
            for seed in sample_seeds(deals)]


def solitaires() -> list[str]:
    """The games a search solves: not the games against the computer, whose "solution"
    would choose the computer's moves too."""
    return [g for g in games.ids() if not issubclass(games.game_class(g), SeatedGame)]


def case_id(case: tuple) -> str:
    name, gid, seed, budget, _ = case
    return f"{name}:{gid}:{seed}:{budget}"


def recorded() -> dict:
    return json.loads(FIXTURE.read_text(encoding="utf-8"))


@pytest.mark.parametrize("case", cases(QUICK), ids=case_id)
def test_search_visits_the_recorded_positions(case):
    assert run(*case[1:]) == recorded()[case_id(case)]


@pytest.mark.slow
@pytest.mark.parametrize("case", cases(SLOW), ids=case_id)
def test_longer_searches_visit_the_recorded_positions(case):
    assert run(*case[1:]) == recorded()[case_id(case)]


def main() -> int:
    out = {}
    for case in cases(QUICK) + cases(SLOW):
        out[case_id(case)] = run(*case[1:])
        print(case_id(case), out[case_id(case)]["result"], out[case_id(case)]["nodes"],
              flush=True)
    FIXTURE.write_text(json.dumps(out, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
