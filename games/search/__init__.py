"""What the solver knows about each game, kept beside the game instead of inside it.

A game file (``games/<id>.py``) holds its rules only. Everything the search needs on top of
the rules (state keys, move orders, dead-end tests, safe moves, compound moves) lives here,
one module a game (``games/search/<module>.py``, as KPatience keeps one solver file per
game), with the shared defaults in :mod:`games.search.base` and the general search in
:mod:`games.solver`.

How the search finds a game's hooks: each module here declares a mixin class with
``@searches(GameClass)``. :func:`search_class` walks the game class's method resolution
order and takes the mixin of the nearest class that has one (so a variant such as Trefoil
uses La Belle Lucie's), then builds, once per game class, the class ``Mixin + GameClass``.
:func:`searchable` gives a position as an instance of that class: a clone, so the game on
the table never carries search state. The mixin's methods see the game's state as
``self``, exactly as when they lived in the game class, which keeps every search node for
node what it was. Names may not clash: a mixin that shadowed a rules attribute of its game
would change the rules the search plays by, so :func:`search_class` refuses it.
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import TypeVar, cast

from ..engine.game import Game
from ..engine.model import Compound
from .base import Search

__all__ = ["Compound", "Search", "search_class", "searchable", "searches"]

_MIXINS: dict[type[Game], type[Search]] = {}
_COMBINED: dict[type[Game], type] = {}
_loaded = False

S = TypeVar("S", bound=type[Search])


def searches(game_cls: type[Game]):
    """Class decorator: ``@searches(Golf)`` on a :class:`Search` subclass makes it the
    search knowledge of ``Golf`` (and of subclasses of ``Golf`` without their own)."""
    def register(mixin: S) -> S:
        if game_cls in _MIXINS and _MIXINS[game_cls] is not mixin:
            raise ValueError(f"{game_cls.__name__} has two search mixins")
        _MIXINS[game_cls] = mixin
        return mixin
    return register


def _load_all() -> None:
    global _loaded
    if _loaded:
        return
    for mod in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if mod.name != "base" and not mod.name.startswith("_"):
            importlib.import_module(f"{__name__}.{mod.name}")
    _loaded = True


def mixin_for(game_cls: type[Game]) -> type[Search]:
    """The search mixin that applies to ``game_cls``: its own or its nearest base's."""
    _load_all()
    for klass in game_cls.__mro__:
        found = _MIXINS.get(klass)
        if found is not None:
            return found
    return Search


def search_class(game_cls: type[Game]) -> type:
    """``game_cls`` with its search knowledge mixed in (built once per game class)."""
    combined = _COMBINED.get(game_cls)
    if combined is None:
        if issubclass(game_cls, Search):
            return game_cls
        mixin = mixin_for(game_cls)
        hooks = {name for klass in mixin.__mro__ if klass is not object for name in vars(klass)
                 if not name.startswith("__")}
        for klass in game_cls.__mro__:
            clash = hooks & {n for n in vars(klass) if not n.startswith("__")}
            if clash and klass is not object:
                raise TypeError(f"{klass.__name__} defines search hooks {sorted(clash)}: "
                                f"they belong in games/search/")
        combined = type(f"{game_cls.__name__}Searching", (mixin, game_cls), {})
        _COMBINED[game_cls] = combined
    return combined


def searchable(game: Game) -> Search:
    """A copy of the position of ``game`` that answers the search hooks (no history)."""
    twin = game.clone()
    twin.__class__ = search_class(type(game))
    searching = cast(Search, twin)  # (the class just set mixes Search in)
    searching.start_search()
    return searching
