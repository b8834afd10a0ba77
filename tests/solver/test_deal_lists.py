"""The shipped winnable-deal lists (assets/deals/*.json): every sampled line replays to a win."""

from __future__ import annotations

import json
import random

import pytest

import games
from games.families.seats import SeatedGame
from kiosk.solving import deals

#: the shipped lists (not the temporary files of a `kiosk winnable` writing one)
LISTS = sorted(p for p in deals.DEALS_DIR.glob("*.json") if not p.name.startswith("."))


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


def test_every_game_of_the_catalog_has_a_shipped_list():
    """Issue 7: winnable deals and attract-mode wins for every game of the catalog. A game
    without a list for its default options deals any deal and its demo plays by itself."""
    shipped = {p.stem for p in LISTS}
    # games against the computer have no winnable deals to list: a match is not solved
    missing = [g for g in games.ids() if deals.list_path(g).stem not in shipped
               and not issubclass(games.game_class(g), SeatedGame)]
    assert not missing, f"no deal list (kiosk winnable GAME --count N) for: {', '.join(missing)}"


# ---------------------------------------------------------------------------- broken files
@pytest.mark.parametrize("text, why", [
    ("{not json", "not valid JSON"),
    ('{"format": "something else", "version": 1}', "not a winnable-deal list"),
    ('{"format": "solitaire-kiosk/winnable", "version": 9, "deals": []}', "version 9"),
    ('{"format": "solitaire-kiosk/winnable", "version": 1, "deals": [{"seed": "x"}]}',
     "deal 1 is not"),
    ('{"format": "solitaire-kiosk/winnable", "version": 1, "deals": '
     '[{"seed": 3, "moves": ""}, {"seed": 3, "moves": ""}]}', "#3 is listed twice"),
])
def test_a_broken_list_names_its_file_and_the_kiosk_deals_any_deal(tmp_path, caplog, text, why):
    path = deals.list_path("golf", {}, tmp_path)
    path.write_text(text, encoding="utf-8")
    with pytest.raises(deals.DealListError) as err:
        deals.load_strict("golf", {}, tmp_path)
    assert str(path) in str(err.value) and why in str(err.value)
    assert deals.load("golf", {}, tmp_path) is None
    assert str(path) in caplog.text and "golf deals any deal" in caplog.text
    assert deals.load_strict("clock", {}, tmp_path) is None  # no file: no list, no error


def test_the_default_of_winnable_only_comes_from_the_measured_win_rate(tmp_path):
    def put(won, lost, unknown, game="golf"):
        lst = deals.DealList(game, games.new(game, 1).opts, [{"seed": 1, "moves": []}],
                             {"results": {"won": won, "lost": lost, "unknown": unknown}})
        deals.save(lst, tmp_path)
        return deals.default_winnable(game, {}, tmp_path)

    assert put(30, 60, 10)[0] is True and "won 30 of 100" in put(30, 60, 10)[1]
    assert put(60, 30, 10)[0] is False
    assert put(45, 10, 45)[0] is True  # unknown deals are not known to be winnable
    assert put(50, 25, 25)[0] is False  # half won: not "most deals lost"
    assert put(0, 0, 0) == (False, "default: the deal list keeps no solver tally")
    assert deals.default_winnable("clock", {}, tmp_path) == (
        False, "default: no deal list for these options")


# ---------------------------------------------------------------------------- kiosk winnable
def test_kiosk_winnable_resumes_appends_and_keeps_the_deals(tmp_path, monkeypatch, capsys):
    from kiosk.commands import cli

    monkeypatch.setattr(deals, "DEALS_DIR", tmp_path)
    args = ["winnable", "clock", "--max-seconds", "2", "--quiet"]
    assert cli.main([*args, "--count", "2"]) == 0
    first = deals.load("clock")
    assert len(first.deals) == 2
    r1, last1 = first.results, first.solver["last_seed"]
    assert r1["won"] == 2 and sum(r1.values()) == last1
    assert cli.main([*args, "--count", "3"]) == 0  # a higher count: goes on after last_seed
    second = deals.load("clock")
    assert second.deals[:2] == first.deals and len(second.deals) == 3
    assert second.deals[2]["seed"] > last1 and second.solver["last_seed"] > last1
    assert second.results["won"] == 3 and sum(second.results.values()) == \
        second.solver["last_seed"]
    capsys.readouterr()
    assert cli.main([*args, "--count", "3"]) == 0  # enough already: nothing changes
    assert "nothing to do" in capsys.readouterr().out
    assert deals.load("clock") == second
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no temp files


def test_kiosk_winnable_refuses_to_write_over_a_broken_list(tmp_path, monkeypatch, capsys):
    from kiosk.commands import cli

    monkeypatch.setattr(deals, "DEALS_DIR", tmp_path)
    path = tmp_path / "clock.json"
    path.write_text("{broken", encoding="utf-8")
    assert cli.main(["winnable", "clock", "--count", "1", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert str(path) in err and "--fresh" in err and err.count("\n") == 1
    assert path.read_text(encoding="utf-8") == "{broken"


def test_cpu_budgets_count_process_time_and_are_recorded(tmp_path, monkeypatch, capsys):
    """--cpu budgets a search by the process's CPU time, so a busy machine does not turn
    winnable deals into unknown ones; a list says which clock its tally was made with."""
    from kiosk.commands import cli
    from kiosk.commands import solver as solver_cmd

    ticks = iter(range(0, 10**9, 1000))  # every reading of the CPU clock: 1000 s later
    monkeypatch.setattr(solver_cmd.time, "process_time", lambda: next(ticks))
    assert cli.main(["solve", "klondike", "--seed", "2", "--max-seconds", "60", "--cpu",
                     "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["result"] == "unknown" and out["nodes"] <= 2 * 256  # stopped at the first check
    monkeypatch.undo()
    monkeypatch.setattr(deals, "DEALS_DIR", tmp_path)
    assert cli.main(["winnable", "clock", "--count", "1", "--cpu", "--quiet"]) == 0
    assert deals.load("clock").solver["clock"] == "cpu"
    assert cli.main(["winnable", "clock", "--count", "2", "--quiet"]) == 0
    assert deals.load("clock").solver["clock"] == "wall"


@pytest.mark.parametrize("game_id", ["pyramid", "pyramid_pairs"])
def test_no_stored_pyramid_line_leaves_the_rescued_apex_unpaired(game_id):
    """Every line of the Pyramid lists ends with all 28 pyramid cards removed, the apex
    too when it was rescued (GAMES.md §13): 8 of the 100 Pyramid lines and 11 of the 50
    Pyramid Pairs lines ended with the rescued apex left as the current card."""
    lst = deals.read(deals.list_path(game_id))
    for deal in lst.deals:
        g = games.new(game_id, deal["seed"], **lst.options)
        apex = g.cards[g.pyr[0]][-1]
        for text in deals.deal_line(lst, deal):
            g.play(g.parse_move(text))
        assert g.won and apex in g.cards[g.discard], f"{game_id} #{deal['seed']}"
