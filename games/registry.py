"""The catalog: every game module registers its class here under its permanent id."""

from __future__ import annotations

import importlib
import json
import pkgutil
from typing import Any

from .engine import SAVE_FORMAT, SAVE_VERSION, Game
from .model import GameError

_GAMES: dict[str, type[Game]] = {}
_loaded = False

#: modules under games/ that hold shared machinery, not games
_NOT_GAMES = {"cards", "rng", "model", "engine", "registry", "patience", "rules", "solver",
              "grid", "pairing", "poker", "texts", "game_texts", "search", "seats",
              "melds", "players", "poker_table"}


def register(cls: type[Game]) -> type[Game]:
    """Class decorator: ``@register`` on a Game subclass with ``info`` adds it to the catalog."""
    gid = cls.info.id
    if gid in _GAMES and _GAMES[gid] is not cls:
        raise ValueError(f"game id {gid!r} registered twice")
    _GAMES[gid] = cls
    return cls


def _load_all() -> None:
    global _loaded
    if _loaded:
        return
    from . import __path__ as pkg_path

    for mod in sorted(pkgutil.iter_modules(pkg_path), key=lambda m: m.name):
        if mod.name.startswith("_") or mod.name in _NOT_GAMES:
            continue
        importlib.import_module(f"games.{mod.name}")
    _loaded = True


def game_class(game_id: str) -> type[Game]:
    _load_all()
    try:
        return _GAMES[game_id]
    except KeyError:
        raise GameError(f"unknown game {game_id!r} (see `kiosk games` for the list)") from None


def ids() -> list[str]:
    _load_all()
    return sorted(_GAMES)


def catalog() -> list[dict[str, Any]]:
    """Metadata of every registered game, sorted by id."""
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
