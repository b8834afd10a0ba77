"""The catalog: every game module registers its class here under its permanent id.

A game's module is ``games.<id>`` and is imported the first time the game is asked for
(:func:`game_class`, :func:`new`): listing the games (:func:`ids`, :func:`summary`) reads
:mod:`games.engine.catalog_index` and the text files instead, so the kiosk's first screen and its
picker import none of the 44 game modules nor their solver hooks. :func:`catalog`, which
gives every game's options, imports them all.
"""

from __future__ import annotations

import importlib
import json
import pkgutil
from pathlib import Path
from typing import Any

from .catalog_index import GAMES, Listed
from .game import SAVE_FORMAT, SAVE_VERSION, Game
from .model import GameError

_GAMES: dict[str, type[Game]] = {}
_loaded = False
_listed: dict[str, Listed] | None = None

#: what lives under games/ beside the games: the rooms (engine, families, players, search,
#: texts) and the general search
_NOT_GAMES = {"engine", "families", "players", "search", "texts", "solver"}
#: the folder of the game modules (read from disk: importing the package would be a circle)
_GAMES_DIR = Path(__file__).resolve().parent.parent


def register(cls: type[Game]) -> type[Game]:
    """Class decorator: ``@register`` on a Game subclass with ``info`` adds it to the catalog."""
    gid = cls.info.id
    if gid in _GAMES and _GAMES[gid] is not cls:
        raise ValueError(f"game id {gid!r} registered twice")
    _GAMES[gid] = cls
    return cls


def _game_modules() -> list[str]:
    """The modules under games/ that hold a game (a directory listing: nothing imported)."""
    return sorted(m.name for m in pkgutil.iter_modules([str(_GAMES_DIR)])
                  if not m.name.startswith("_") and m.name not in _NOT_GAMES)


def _listing() -> dict[str, Listed]:
    """Every game by id, as the index lists it. A module the index does not know yet (a
    game just added) is imported to find out: slower, never missing."""
    global _listed
    if _listed is None:
        found: dict[str, Listed] = {}
        for name in _game_modules():
            if name in GAMES:
                found[name] = GAMES[name]
                continue
            before = set(_GAMES)
            importlib.import_module(f"games.{name}")
            for gid in sorted(set(_GAMES) - before) or ([name] if name in _GAMES else []):
                found[gid] = _listed_from(_GAMES[gid])
        _listed = found
    for gid in _GAMES.keys() - _listed.keys():  # registered from elsewhere (a test's game)
        _listed[gid] = _listed_from(_GAMES[gid])
    return _listed


def _listed_from(cls: type[Game]) -> Listed:
    return Listed(difficulty=cls.info.difficulty, seated=cls.seated)


def _load_all() -> None:
    global _loaded
    if _loaded:
        return
    for name in _game_modules():
        importlib.import_module(f"games.{name}")
    _loaded = True


def game_class(game_id: str) -> type[Game]:
    """The class of ``game_id``, its module imported on first use."""
    cls = _GAMES.get(game_id)
    if cls is None and isinstance(game_id, str) and game_id in _listing():
        importlib.import_module(f"games.{game_id}")
        cls = _GAMES.get(game_id)
    if cls is None:
        raise GameError(f"unknown game {game_id!r} (see `kiosk games` for the list)")
    return cls


def ids() -> list[str]:
    """Every game's id, sorted (no game module is imported for it)."""
    return sorted(_listing())


def listed(game_id: str) -> Listed:
    """What the picker needs of ``game_id`` besides its texts, without importing it."""
    try:
        return _listing()[game_id]
    except (KeyError, TypeError):
        raise GameError(f"unknown game {game_id!r} (see `kiosk games` for the list)") from None


def summary(game_id: str) -> dict[str, Any]:
    """The part of ``game_id``'s catalog entry a screen shows (id, names, description,
    rules, difficulty, score label), read from the index and the text file: the game's
    module is not imported. The keys are those of :func:`catalog`'s entries."""
    from .game_texts import texts

    info = listed(game_id)
    t = texts(game_id)
    return {"id": game_id, "names": dict(t.names), "difficulty": info.difficulty,
            "description": dict(t.description), "rules": dict(t.rules),
            "how_to_play": dict(t.how_to_play), "score": {"label": t.score_label}}


def catalog() -> list[dict[str, Any]]:
    """Metadata of every registered game, sorted by id (every game module is imported)."""
    _load_all()
    return [_GAMES[g].info.to_dict(_GAMES[g].options) for g in sorted(_GAMES)]


def new(game_id: str, seed: int = 1, /, **options: Any) -> Game:
    """Deal game ``game_id`` number ``seed``: the same arguments give the same cards, always."""
    return game_class(game_id)(seed, **options)


def from_json(data: str | bytes | dict[str, Any]) -> Game:
    """Rebuild a saved game by replaying its moves; malformed input raises GameError."""
    if isinstance(data, (str, bytes)):
        try:
            data = json.loads(data)
        except (ValueError, UnicodeDecodeError) as err:
            raise GameError(f"saved game is not valid JSON: {err}") from None
        except RecursionError:
            raise GameError("saved game is nested too deeply to be read") from None
    if not isinstance(data, dict):
        raise GameError("saved game must be a JSON object")
    if data.get("format") != SAVE_FORMAT:
        raise GameError(f"not a saved game (format should be {SAVE_FORMAT!r})")
    version = data.get("version")
    if type(version) is not type(SAVE_VERSION) or version != SAVE_VERSION:  # True == 1
        shown = json.dumps(version)[:40] if isinstance(version, (bool, int, float, str)) \
            or version is None else f"a {type(version).__name__}"
        raise GameError(f"saved game version {shown} is not supported (this is {SAVE_VERSION})")
    for key, kind in (("game", str), ("seed", int), ("options", dict), ("moves", list)):
        if not isinstance(data.get(key), kind) or (kind is int and isinstance(data[key], bool)):
            raise GameError(f"saved game: {key!r} is missing or has the wrong type")
    game = new(data["game"], data["seed"], **data["options"])
    for number, text in enumerate(data["moves"], 1):
        if not isinstance(text, str):
            raise GameError(f"saved game: move {number} is not text")
        try:
            game.play(game.parse_move(text))
        except GameError as err:
            raise GameError(f"saved game: move {number} ({text}) cannot be replayed: {err}") from None
    return game
