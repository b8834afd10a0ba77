"""The search is a room of games/ like the others (issue 29): the general search stays a
short module beside the catalog, and the type checker reads every search module.

A search mixin's hooks read its game's piles (``self.tableau``...); the checker sees them
through the game class each mixin names as a last base from games/search/rules.py. That
base must stay ``object`` at run time: the classes the search runs are built by
:func:`games.search.search_class`, and a game class inside a mixin would change their
method order.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import games
from games.engine.game import Game
from games.search import mixin_for

REPO = Path(__file__).resolve().parents[2]
#: the line ceiling of a module in the catalog's room (issue 29)
LONGEST = 250


def test_the_general_search_is_a_short_module():
    lines = len((REPO / "games" / "solver.py").read_text(encoding="utf-8").splitlines())
    assert lines < LONGEST, f"games/solver.py has {lines} lines"


def test_the_type_checker_reads_the_search():
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    assert "games" in config["files"]
    for override in config.get("overrides", []):
        modules = override["module"]
        modules = [modules] if isinstance(modules, str) else modules
        left_out = [m for m in modules if m.startswith(("games.search", "games.solver"))]
        assert not (left_out and override.get("ignore_errors")), \
            f"the type checker skips {left_out}"


def test_the_checker_only_bases_are_object_at_run_time():
    for game_id in games.ids():
        mixin = mixin_for(games.game_class(game_id))
        assert not issubclass(mixin, Game), f"{mixin.__name__} carries a game class"
