"""tools/happy_couples_deals.py: its fast check agrees with the general solver (it decides
the Happy Couples list, where one deal in about 290,000 can be won)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

import games
from games.solver import solve

TOOL = Path(__file__).resolve().parents[2] / "tools" / "happy_couples_deals.py"


@pytest.fixture(scope="module")
def tool():
    spec = importlib.util.spec_from_file_location("happy_couples_deals", TOOL)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("seed", [137499, 307855, *range(1, 31)])
def test_the_fast_check_agrees_with_the_solver(tool, seed):
    game = games.new("happy_couples", seed)
    assert tool.winnable(*tool.ranks(game)) == solve(game, max_nodes=200_000).won


def test_a_deck_dealt_in_pairs_is_won(tool):
    ranks = [r for r in range(13) for _ in range(4)]
    cells = ranks[:4] + [-1] * (tool.CELLS - 4)
    assert tool.winnable(cells, list(reversed(ranks[4:])))
