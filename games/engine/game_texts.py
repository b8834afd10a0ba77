"""Every game's visitor-facing texts, read from ``games/texts/<id>.toml``.

The texts are data so that a translator edits names, descriptions and rules sheets without
touching Python, and so that a variant names the paragraphs it shares with its base game
(``{{canfield.play}}``) instead of carrying a copy that drifts. The files ship inside the
package and are read through :mod:`importlib.resources`, once per game and only when a text is
first asked for: the engine still opens no other file.

A file holds one table per language (``[en]``, ``[zh]``, ``[ru]``) with ``name``,
``description`` and ``rules``, optionally ``how_to_play`` (the few lines a hand table's Rules
sheet shows before the rules: how a hand is played by touch; in every language or none),
and optionally a ``[<lang>.paragraphs]`` table of named paragraphs. ``{{key}}`` in the rules (or in a paragraph) stands for this file's paragraph
``key`` in the same language, ``{{game.key}}`` for game ``game``'s. Top-level keys hold the
few texts that are not per language: ``score_label`` (the catalog's English label, which the
kiosk's ``.po`` catalogs translate for the table) and, when the source names the game in its
own script, ``source_game``. docs/engine.md shows an example.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any

from .errors import GameError

#: the languages every game speaks, in the order the files list them
LANGUAGES = ("en", "zh", "ru")
#: texts every language table must give
FIELDS = ("name", "description", "rules")
#: texts a language table may give (then every language gives them)
OPTIONAL = ("how_to_play",)
#: top-level keys (texts that are not per language); only ``score_label`` is required
TOP_LEVEL = ("score_label", "source_game")

_REFERENCE = re.compile(r"\{\{([^{}]*)\}\}")
_KEY = re.compile(r"[a-z0-9_]+")
#: how the files are named in messages, whatever directory they were read from
_SHOWN_DIR = "games/texts"


class GameTextError(GameError):
    """A text file that is missing or malformed; the message names the file."""


@dataclass(frozen=True, slots=True)


class GameTexts:
    """One game's texts, keyed by language where they are translated."""

    names: dict[str, str]
    description: dict[str, str]
    rules: dict[str, str]
    score_label: str
    source_game: str
    #: how a hand is played at the table, by touch (games against the computer); {} if none
    how_to_play: dict[str, str]


@dataclass(frozen=True, slots=True)


class _RawFile:
    """A parsed and checked file, paragraphs not yet expanded."""

    tables: dict[str, dict[str, str]]
    paragraphs: dict[str, dict[str, str]]
    top: dict[str, str]


_cache: dict[str, GameTexts] = {}
#: the shipped files as read, shared by the games that borrow each other's paragraphs
_shipped: dict[str, _RawFile] = {}


def texts_root() -> Traversable:
    """Where the shipped text files live (inside the installed package)."""
    return resources.files("games").joinpath("texts")


def texts(game_id: str) -> GameTexts:
    """Game ``game_id``'s texts from the shipped files, read on first use and kept."""
    found = _cache.get(game_id)
    if found is None:
        found = _cache[game_id] = load(game_id, texts_root(), _shipped)
    return found


def load(game_id: str, root: Traversable,
         raw_files: dict[str, _RawFile] | None = None) -> GameTexts:
    """Read and expand ``<root>/<game_id>.toml`` (and the files it borrows paragraphs from).

    ``raw_files`` keeps files already read from ``root`` (a base game is read once for all its
    variants). Raises :class:`GameTextError` naming the file for anything wrong with it."""
    if raw_files is None:
        raw_files = {}

    def raw(gid: str) -> _RawFile:
        if gid not in raw_files:
            raw_files[gid] = _read(gid, root)
        return raw_files[gid]

    own = raw(game_id)
    expanded: dict[str, dict[str, Any]] = {lang: {} for lang in LANGUAGES}
    for lang in LANGUAGES:
        for field in FIELDS:
            text = _expand(own.tables[lang][field], game_id, lang, field, raw, ())
            if "{{" in text or "}}" in text:
                raise GameTextError(f"{_shown(game_id)}: [{lang}] {field}: unmatched {{{{ or }}}}")
            expanded[lang][field] = text
        if "how_to_play" in own.tables[lang]:
            expanded[lang]["how_to_play"] = own.tables[lang]["how_to_play"]
    return GameTexts(
        names={lang: expanded[lang]["name"] for lang in LANGUAGES},
        description={lang: expanded[lang]["description"] for lang in LANGUAGES},
        rules={lang: expanded[lang]["rules"] for lang in LANGUAGES},
        score_label=own.top["score_label"],
        source_game=own.top.get("source_game", ""),
        how_to_play={lang: expanded[lang]["how_to_play"] for lang in LANGUAGES
                     if "how_to_play" in expanded[lang]},
    )


def _shown(game_id: str) -> str:
    return f"{_SHOWN_DIR}/{game_id}.toml"


def _read(game_id: str, root: Traversable) -> _RawFile:
    name = _shown(game_id)
    if not _KEY.fullmatch(game_id):
        raise GameTextError(f"{name}: {game_id!r} is not a game id")
    path = root.joinpath(f"{game_id}.toml")
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise GameTextError(f"{name} is missing (every game needs its texts)") from None
    except UnicodeDecodeError as err:
        raise GameTextError(f"{name} is not UTF-8 text: {err}") from None
    except tomllib.TOMLDecodeError as err:
        raise GameTextError(f"{name} is not valid TOML: {err}") from None
    unknown = sorted(set(data) - set(LANGUAGES) - set(TOP_LEVEL))
    if unknown:
        raise GameTextError(f"{name}: unknown top-level key {unknown[0]!r} "
                            f"(expected {', '.join(LANGUAGES + TOP_LEVEL)})")
    top: dict[str, str] = {}
    if "score_label" not in data:
        raise GameTextError(f"{name}: no score_label")
    for key in TOP_LEVEL:
        if key in data:
            top[key] = _text(data[key], name, key)
    tables: dict[str, dict[str, str]] = {}
    paragraphs: dict[str, dict[str, str]] = {}
    for lang in LANGUAGES:
        table = data.get(lang)
        if not isinstance(table, dict):
            raise GameTextError(f"{name}: no [{lang}] table")
        unknown = sorted(set(table) - set(FIELDS) - set(OPTIONAL) - {"paragraphs"})
        if unknown:
            raise GameTextError(f"{name}: [{lang}] has an unknown key {unknown[0]!r} "
                                f"(expected {', '.join(FIELDS + OPTIONAL)} or paragraphs)")
        tables[lang] = {}
        for field in FIELDS:
            if field not in table:
                raise GameTextError(f"{name}: [{lang}] has no {field!r}")
            tables[lang][field] = _text(table[field], name, f"[{lang}] {field}")
        for field in OPTIONAL:
            if field in table:
                tables[lang][field] = _text(table[field], name, f"[{lang}] {field}")
        named = table.get("paragraphs", {})
        if not isinstance(named, dict):
            raise GameTextError(f"{name}: [{lang}] paragraphs must be a table")
        paragraphs[lang] = {}
        for key, value in named.items():
            if not _KEY.fullmatch(key):
                raise GameTextError(f"{name}: [{lang}.paragraphs] key {key!r} should be "
                                    "lower-case letters, digits and _")
            paragraphs[lang][key] = _text(value, name, f"[{lang}.paragraphs] {key}")
    for field in OPTIONAL:
        given = [lang for lang in LANGUAGES if field in tables[lang]]
        if given and len(given) < len(LANGUAGES):
            missing = next(lang for lang in LANGUAGES if lang not in given)
            raise GameTextError(f"{name}: [{missing}] has no {field!r} (the other "
                                "languages give it: every language or none)")
    return _RawFile(tables, paragraphs, top)


def _text(value: object, name: str, where: str) -> str:
    if not isinstance(value, str):
        raise GameTextError(f"{name}: {where} must be a string, not {type(value).__name__}")
    if not value.strip():
        raise GameTextError(f"{name}: {where} is empty")
    return value


def _expand(text: str, game_id: str, lang: str, where: str, raw, seen: tuple[str, ...]) -> str:
    """``text`` with every ``{{reference}}`` replaced by the paragraph it names, recursively."""

    def paragraph(match: re.Match[str]) -> str:
        ref = match.group(1).strip()
        gid, _, key = ref.rpartition(".")
        gid = gid or game_id
        full = f"{gid}.{key}"
        if not _KEY.fullmatch(gid) or not _KEY.fullmatch(key):
            raise GameTextError(f"{_shown(game_id)}: [{lang}] {where}: {{{{{ref}}}}} is not a "
                                "paragraph reference ({{key}} or {{game.key}})")
        if full in seen:
            raise GameTextError(f"{_shown(game_id)}: [{lang}] {where}: paragraph {full} "
                                f"includes itself ({' -> '.join((*seen, full))})")
        source = raw(gid)
        if key not in source.paragraphs[lang]:
            raise GameTextError(f"{_shown(game_id)}: [{lang}] {where}: {{{{{ref}}}}} names no "
                                f"paragraph: {_shown(gid)} has no [{lang}.paragraphs] {key}")
        return _expand(source.paragraphs[lang][key], gid, lang, f"paragraph {key}", raw,
                       (*seen, full))

    return _REFERENCE.sub(paragraph, text)
