"""The shipped winnable-deal lists (assets/deals/*.json): every sampled line replays to a win."""

from __future__ import annotations

import json
import random

import pytest

import games
from kiosk import deals

LISTS = sorted(deals.DEALS_DIR.glob("*.json"))


def _load(path):
    data = json.loads(path.read_text(encoding="utf-8"))
    lst = deals.load(data["game"], data["options"])
    assert lst is not None, f"{path.name} does not load"
    assert deals.list_path(lst.game, lst.options) == path
    return lst


def _replays(lst: deals.DealList, deal: dict) -> bool:
    full = deals.deal_line(lst, deal)
    game = games.new(lst.game, deal["seed"], **lst.options)
    return games.from_json({**game.to_dict(), "moves": full}).won


@pytest.mark.parametrize("path", LISTS, ids=[p.stem for p in LISTS])
def test_list_is_well_formed_and_a_sample_replays_to_a_win(path):
    lst = _load(path)
    seeds = lst.seeds
    assert seeds and len(seeds) == len(set(seeds))
    assert all(isinstance(s, int) and s > 0 for s in seeds)
    for deal in random.Random(path.stem).sample(lst.deals, min(2, len(lst.deals))):
        assert _replays(lst, deal), f"{lst.game} #{deal['seed']}"


@pytest.mark.slow
@pytest.mark.parametrize("path", LISTS, ids=[p.stem for p in LISTS])
def test_a_larger_sample_of_every_list_replays_to_a_win(path):
    lst = _load(path)
    for deal in random.Random(1).sample(lst.deals, min(40, len(lst.deals))):
        assert _replays(lst, deal), f"{lst.game} #{deal['seed']}"


def test_compress_and_line_round_trip():
    g = games.new("clock", 26)
    from games.solver import solve
    sol = solve(g)
    full = [g.notation(m) for m in sol.moves]
    stored = deals.compress(g, full)
    assert stored == []  # Clock has no decisions: every move is forced
    assert deals.line(g, stored) == full
    g = games.new("golf", 3)
    sol = solve(g, max_nodes=200_000)
    if sol.won:
        full = [g.notation(m) for m in sol.moves]
        stored = deals.compress(g, full)
        assert len(stored) <= len(full) and deals.line(g, stored) == full
