"""Where the search knowledge lives (issue 13): game files hold rules only, the search finds
each game's hooks in games/search/, and the engine's make/unmake pair serves it."""

from __future__ import annotations

import inspect
import random
import re

import pytest

import games
from games.engine.model import Compound, Move
from games.golf import Golf
from games.search import mixin_for, search_class, searchable
from games.search.base import Search
from games.search.golf import GolfSearch
from games.search.la_belle_lucie import LaBelleLucieSearch
from games.search.open_patience import OpenPatienceSearch

#: names that belong to the search, never to a rules class
HOOK = re.compile(r"^(solver_\w+|SOLVER_\w+|symmetric_groups|by_score|guided|stuck_card)$")


def rules_classes() -> set[type]:
    out = set()
    for gid in games.ids():
        out.update(k for k in games.game_class(gid).__mro__ if issubclass(k, games.Game))
    return out


def test_no_rules_class_defines_a_search_hook():
    for klass in rules_classes():
        hooks = sorted(n for n in vars(klass) if HOOK.match(n))
        assert not hooks, f"{klass.__module__}.{klass.__name__} defines {hooks}"
        assert not inspect.getmodule(klass).__name__.startswith("games.search")


@pytest.mark.parametrize(("gid", "mixin"), [
    ("golf", GolfSearch), ("trefoil", LaBelleLucieSearch), ("the_fan", LaBelleLucieSearch),
    ("eight_off", OpenPatienceSearch), ("clock", Search)])
def test_a_game_gets_its_own_hooks_or_its_nearest_bases(gid, mixin):
    assert mixin_for(games.game_class(gid)) is mixin


def test_a_rules_class_that_shadows_a_hook_is_refused():
    class Sneaky(Golf):
        def solver_key(self) -> bytes:
            return b""

    with pytest.raises(TypeError, match="solver_key"):
        search_class(Sneaky)


def test_searchable_is_a_clone_that_answers_the_hooks():
    g = games.new("golf", 3)
    g.play(g.legal_moves()[0])
    s = searchable(g)
    assert isinstance(s, Golf) and isinstance(s, GolfSearch)
    assert s.key() == g.key() and s.history == [] and len(g.history) == 1
    assert not hasattr(g, "solver_key")  # the game on the table carries no search code


@pytest.mark.parametrize("gid", ["klondike", "pyramid", "napoleons_tomb", "golf"])
def test_make_and_unmake_restore_every_position_and_leave_redo_alone(gid):
    rnd = random.Random(5)
    g = games.new(gid, 11)
    g.play(g.legal_moves()[0])
    g.undo()  # one move to redo
    redo = list(g._redo)
    keys = [g.key()]
    for _ in range(30):
        moves = g.legal_moves()
        if not moves:
            break
        g.make(rnd.choice(moves))
        keys.append(g.key())
    assert g._redo == redo
    while len(keys) > 1:
        keys.pop()
        g.unmake()
        assert g.key() == keys[-1]
    assert g.history == [] and g.can_redo


def test_compound_moves_are_their_own_type():
    step = Compound((Move("deal"), Move("move", 1, 5)))
    assert type(step) is Compound and type(step) is not tuple
    moves = searchable(games.new("klondike", 4)).solver_moves()
    assert all(type(m) in (Move, Compound) for m in moves)
    assert any(type(m) is Compound for m in moves)
