"""The kiosk starts with what its first screen needs and loads the rest when it is used.

Why it matters: on a Pi the start is several times slower than here, and importing 44 game
modules, their solver hooks and building seven screens nobody sees yet doubled it (issue 17,
docs/benchmarks.md). No timing here: the tests check *what* is loaded, in a fresh process.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import games
from games.engine import catalog_index, registry
from games.families.seats import SeatedGame
from kiosk.solving import deals

HERE = Path(__file__).resolve().parent


def _game_modules(modules: list[str]) -> list[str]:
    return [m for m in modules if m.split(".")[0] == "games"
            and m.split(".")[1:2] and m.split(".")[1] in registry._game_modules()]


def test_the_index_lists_every_game_module_as_its_class_says():
    """A game added without its line in games/engine/catalog_index.py would be imported at every
    start (still listed, only slower): this names the line to add."""
    modules = registry._game_modules()
    missing = sorted(set(modules) - set(catalog_index.GAMES))
    assert not missing, f"add to games/engine/catalog_index.py: {missing}"
    assert not sorted(set(catalog_index.GAMES) - set(modules)), "index lists a game that is gone"
    for gid in modules:
        cls = games.game_class(gid)
        assert cls.__module__ == f"games.{gid}", f"{gid}: a game's module is named after its id"
        listed = catalog_index.GAMES[gid]
        assert listed == (cls.info.difficulty, issubclass(cls, SeatedGame)), gid


def test_listing_the_games_imports_none_of_them():
    code = ("import sys, games\n"
            "from kiosk.settings.config import default_games\n"
            "ids = games.ids(); entry = games.summary('klondike'); default_games()\n"
            "games.listed('gin_rummy')\n"
            "import json; print(json.dumps([len(ids), entry['difficulty'], sorted(sys.modules)]))\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, cwd=HERE.parent)
    assert proc.returncode == 0, proc.stderr[-2000:]
    count, difficulty, modules = json.loads(proc.stdout.splitlines()[-1])
    assert count == len(registry._game_modules())
    assert difficulty == games.game_class("klondike").info.difficulty
    assert _game_modules(modules) == []


def test_a_game_summary_is_its_catalog_entry_in_part():
    full = {e["id"]: e for e in games.catalog()}
    for gid in ("klondike", "gin_rummy", "snake"):
        short = games.summary(gid)
        for key in ("names", "description", "rules", "difficulty"):
            assert short[key] == full[gid][key], (gid, key)
        assert short["score"]["label"] == full[gid]["score"]["label"]
    with pytest.raises(games.GameError, match="unknown game"):
        games.summary("no_such_game")


@pytest.fixture(scope="module")
def started() -> dict:
    proc = subprocess.run([sys.executable, str(HERE / "lazy_start_child.py")],
                          capture_output=True, text=True, timeout=300)
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
    assert proc.returncode == 0 and lines, proc.stderr[-3000:]
    return json.loads(lines[-1])


def test_the_welcome_screen_comes_up_without_games_solver_or_deal_lists(started):
    first = started["first_frame"]
    assert first["current"] == "welcome" and first["screens"] == ["welcome"]
    assert _game_modules(first["modules"]) == []
    assert not [m for m in first["modules"] if m.startswith(("games.search", "games.solver",
                                                             "kiosk.solving",
                                                             "kiosk.screens.table"))]
    assert not [name for name in first["read"] if name.endswith(".json")], first["read"]


def test_the_first_frame_waits_for_no_play_log_line_breaker_catalogs_or_card_fan(started):
    """The play log's sqlite, uniseg's tables, the other languages' catalogs (a thread that
    took the interpreter from the start) and the welcome fan's five faces come in the
    frames after the first; the fan is drawn there at its size."""
    first = started["first_frame"]
    assert first["later"] == [], first["later"]
    assert first["preloads"] == [] and first["fan"] == [[0, 0]] * 5
    assert all(w > 4 and h > w for w, h in started["fan_later"]), started["fan_later"]


@pytest.fixture(scope="module")
def started_with_services(tmp_path_factory) -> dict:
    data = tmp_path_factory.mktemp("lazy-log")
    proc = subprocess.run([sys.executable, str(HERE / "lazy_start_child.py"), "services",
                           str(data)], capture_output=True, text=True, timeout=300)
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
    assert proc.returncode == 0 and lines, proc.stderr[-3000:]
    return json.loads(lines[-1])


def test_a_visitor_at_the_first_frame_switches_language_and_the_play_is_logged(
        started_with_services):
    """``kiosk run``: the log is not open at the first frame, yet a language tap and a game
    started right then work, and that first play is in the log."""
    out = started_with_services
    first = out["first_frame"]
    assert not first["log_open"] and first["later"] == [], first
    assert out["title_ru"] == catalog_ru("Card games")
    assert out["errors"] == []
    assert out["plays"] == [["klondike", 1, 1]]


def catalog_ru(msgid: str) -> str:
    from kiosk.i18n import catalog

    return catalog("ru")[msgid]


def test_the_picker_is_ready_before_the_first_touch_and_imports_no_game(started):
    idle = started["idle"]
    from kiosk.settings.config import default_games

    assert "picker" in idle["screens"] and idle["tiles"] == sorted(default_games())
    assert _game_modules(idle["modules"]) == []


def test_opening_a_game_imports_that_game_only(started):
    opened = started["opened"]
    assert opened["current"] == "table" and "table" in opened["screens"]
    assert _game_modules(opened["modules"]) == ["games.klondike"]


# ---------------------------------------------------------------------------- deal lists
def _write_list(directory: Path, game_id: str, seeds: list[int], moves: str) -> Path:
    lst = deals.DealList(game_id, {}, [{"seed": s, "moves": moves.split()} for s in seeds],
                         {"results": {"won": len(seeds), "lost": 3 * len(seeds), "unknown": 0}})
    return deals.save(lst, directory)


def test_the_kiosk_keeps_a_deal_list_as_its_file_strings_and_only_the_last_few(tmp_path):
    """Before: every list read was split into one Python string per move and kept for the
    whole run by the hint book (95 MB after a tour of 43 games, Snake's alone 35 MB)."""
    for gid in ("klondike", "golf", "pyramid", "canfield"):
        _write_list(tmp_path, gid, [5, 9], "T1>F T2>F T3>W")
    first = deals.stored("klondike", {}, tmp_path)
    assert first.seeds == [5, 9] and first.deals
    assert first.lines[9] == "T1>F T2>F T3>W"  # as in the file, not split
    assert first.find(9) == {"seed": 9, "moves": ["T1>F", "T2>F", "T3>W"]}
    assert first.find(7) is None
    assert deals.stored("klondike", {}, tmp_path) is first  # kept, not read again
    assert deals.default_winnable("klondike", {}, tmp_path)[0] is True
    for gid in ("golf", "pyramid", "canfield"):
        deals.stored(gid, {}, tmp_path)
    assert deals.stored("klondike", {}, tmp_path) is not first  # fell out of the last few
    assert len(deals._kept) <= deals.KEEP_LISTS


def test_a_list_written_while_the_kiosk_runs_is_read_again(tmp_path):
    _write_list(tmp_path, "klondike", [5], "T1>F")
    assert deals.stored("klondike", {}, tmp_path).seeds == [5]
    path = _write_list(tmp_path, "klondike", [5, 6, 7], "T1>F T2>F")
    os.utime(path, ns=(1, 10**18))  # another time even on a coarse clock
    assert deals.stored("klondike", {}, tmp_path).seeds == [5, 6, 7]
    path.write_text("{broken", encoding="utf-8")
    assert deals.stored("klondike", {}, tmp_path) is None  # logged, any deal dealt
