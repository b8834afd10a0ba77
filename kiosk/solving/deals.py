"""Winnable-deal lists: deal numbers the solver has won, with their winning lines.

The lists live in ``assets/deals/<game>.json`` for a game's default options and in
``assets/deals/<game>@<name>=<value>,....json`` for other option sets. A kiosk in
"winnable deals only" mode picks from the list instantly instead of solving on the spot, and
attract mode replays the stored lines.

A deal is stored as ``{"seed": 4711, "moves": "T3>W deal T5>W ..."}``: the winning line in
move notation, one space-separated string, with every forced move left out (a move made where
it was the only legal one). :func:`line` puts them back; in memory ``moves`` is a list of the
stored (compressed) moves. That keeps the lists small: a Clock line is empty.

The kiosk itself reads a list through :func:`stored`, which keeps each deal's line as the one
string of the file and splits it only for the deal being played: split into Python strings,
Snake's 3.4 MB list took 35 MB and most of a second to read, and the hint book kept every
list it had read for the whole run (95 MB after a visitor's tour of 43 games). :func:`stored`
keeps the last few lists only (:data:`KEEP_LISTS`).
"""

from __future__ import annotations

import json
import logging
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import games
from kiosk.paths import ASSETS
from kiosk.platform import readfile
from kiosk.platform.atomicfile import write_atomic

log = logging.getLogger("kiosk.deals")

FORMAT = "solitaire-kiosk/winnable"
VERSION = 1
DEALS_DIR = ASSETS / "deals"


class DealListError(ValueError):
    """A list file exists but cannot be used; the message names the file and says why."""


def list_path(game_id: str, options: dict[str, Any] | None = None,
              directory: Path | None = None) -> Path:
    """Where the list for these options lives (defaults are left out of the name)."""
    cls = games.game_class(game_id)
    checked = cls._check_options(dict(options or {}))
    differs = {k: v for k, v in checked.items()
               if v != next(o.default for o in cls.options if o.name == k)}
    name = game_id
    if differs:
        name += "@" + ",".join(f"{k}={v}" for k, v in sorted(differs.items()))
    return (directory or DEALS_DIR) / f"{name}.json"


@dataclass
class DealList:
    game: str
    options: dict[str, Any]
    deals: list[dict[str, Any]] = field(default_factory=list)
    solver: dict[str, Any] = field(default_factory=dict)

    @property
    def seeds(self) -> list[int]:
        return [d["seed"] for d in self.deals]

    def to_dict(self) -> dict[str, Any]:
        deals = [{**d, "moves": " ".join(d.get("moves", ()))} for d in self.deals]
        return {"format": FORMAT, "version": VERSION, "game": self.game,
                "options": self.options, "solver": self.solver, "deals": deals}

    def find(self, seed: int) -> dict[str, Any] | None:
        """The stored deal with this number, or None."""
        return next((d for d in self.deals if d["seed"] == seed), None)

    @property
    def results(self) -> dict[str, int]:
        """The solver's tally over every deal number tried for this list: won, lost and
        unknown (the budget ran out). Zeros when the file keeps no tally."""
        raw = self.solver.get("results", {}) if isinstance(self.solver, dict) else {}
        out = {}
        for key in ("won", "lost", "unknown"):
            value = raw.get(key, 0) if isinstance(raw, dict) else 0
            out[key] = value if type(value) is int and value >= 0 else 0  # bool is no count
        return out


def mostly_lost(deal_list: DealList | StoredDeals) -> bool | None:
    """Whether most deals of this game are not known to be winnable, from the list's tally.

    An ``unknown`` deal counts against: nobody can promise a visitor it can be won. None when
    the list keeps no tally (nothing measured, nothing to decide from)."""
    r = deal_list.results
    if not any(r.values()):
        return None
    return r["won"] < r["lost"] + r["unknown"]


def default_winnable(game_id: str, options: dict[str, Any] | None = None,
                     directory: Path | None = None) -> tuple[bool, str]:
    """The default of "winnable deals only" for a game and options, and why: on where most
    deals are lost (:func:`mostly_lost`), which needs a list to deal from anyway."""
    lst = stored(game_id, options, directory)
    if lst is None or not lst.deals:
        return False, "default: no deal list for these options"
    lost = mostly_lost(lst)
    r = lst.results
    if lost is None:
        return False, "default: the deal list keeps no solver tally"
    tried = sum(r.values())
    verdict = "most deals are lost" if lost else "most deals can be won"
    return lost, f"default: {verdict} (the solver won {r['won']} of {tried} deals tried)"


def compress(game: games.Game, moves: list[str]) -> list[str]:
    """The winning line ``moves`` (from the position of ``game``, left untouched) without
    its forced moves."""
    g = game.clone()
    out = []
    for text in moves:
        if len(g.legal_moves()) != 1:
            out.append(text)
        g.play(g.parse_move(text))
    return out


def line(game: games.Game, moves: list[str]) -> list[str]:
    """The full line from a stored one: forced moves put back, up to the win (or as far as
    the stored moves go). ``game`` is the dealt game, left untouched."""
    g = game.clone()
    out: list[str] = []
    stored = iter(moves)
    while not g.won:
        legal = g.legal_moves()
        if len(legal) == 1:
            move = legal[0]
        else:
            text = next(stored, None)
            if text is None:
                break
            move = g.parse_move(text)
        out.append(g.notation(move))
        g.play(move)
    return out


def deal_line(deal_list: DealList, deal: dict[str, Any]) -> list[str]:
    """The full winning line of one deal of a list."""
    game = games.new(deal_list.game, deal["seed"], **deal_list.options)
    return line(game, deal["moves"])


def _read_deal(d: Any, split: bool = True) -> dict[str, Any] | None:
    if not isinstance(d, dict) or not isinstance(d.get("seed"), int) or \
            isinstance(d["seed"], bool) or d["seed"] < 1:
        return None
    moves = d.get("moves", [])
    if isinstance(moves, list) and all(isinstance(m, str) for m in moves):
        return {**d, "moves": moves if split else " ".join(moves)}
    if not isinstance(moves, str):
        return None
    return {**d, "moves": moves.split() if split else moves}


def read(path: Path) -> DealList:
    """The list in ``path``. Raises FileNotFoundError when there is no file and
    :class:`DealListError` (naming the file) when it is not a usable list."""
    return _read(path, split=True)


def _read(path: Path, split: bool) -> DealList:
    """:func:`read`; ``split=False`` leaves each deal's moves the one string of the file."""
    try:
        data = readfile.read_json(path)
    except readfile.ReadError as err:
        if err.missing:
            raise FileNotFoundError(2, "no such file", str(path)) from None
        raise DealListError(str(err)) from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise DealListError(f"{path}: not a winnable-deal list (format {FORMAT!r} expected)")
    version = data.get("version")
    if type(version) is not int or version != VERSION:  # not True, which == 1
        raise DealListError(f"{path}: list version {data.get('version')!r}, "
                            f"this kiosk reads version {VERSION}")
    raw = data.get("deals", [])
    if not isinstance(raw, list):
        raise DealListError(f"{path}: \"deals\" is not a list")
    out: list[dict[str, Any]] = []
    seen: set[int] = set()
    for n, entry in enumerate(raw):
        deal = _read_deal(entry, split)
        if deal is None:
            raise DealListError(f"{path}: deal {n + 1} is not {{\"seed\": N, \"moves\": \"...\"}}")
        if deal["seed"] in seen:
            raise DealListError(f"{path}: deal #{deal['seed']} is listed twice")
        seen.add(deal["seed"])
        out.append(deal)
    options = data.get("options", {})
    solver = data.get("solver", {})
    if not isinstance(options, dict) or not isinstance(solver, dict):
        raise DealListError(f"{path}: \"options\" and \"solver\" must be objects")
    game = data.get("game", path.stem.split("@")[0])
    if not isinstance(game, str):
        raise DealListError(f"{path}: \"game\" is not a game id")
    return DealList(game, options, out, solver)


def load_strict(game_id: str, options: dict[str, Any] | None = None,
                directory: Path | None = None) -> DealList | None:
    """The list for a game and options; None when there is none. Raises
    :class:`DealListError` for a file that is there but broken (``kiosk winnable`` must not
    write over it)."""
    try:
        return read(list_path(game_id, options, directory))
    except FileNotFoundError:
        return None


_warned: set[str] = set()


@dataclass(frozen=True)
class StoredDeals:
    """A deal list as the kiosk keeps it (:func:`stored`): each deal's moves one string,
    split for the one deal asked for."""

    game: str
    options: dict[str, Any]
    seeds: list[int]
    #: seed -> the stored (compressed) moves as in the file (whitespace-separated)
    lines: dict[int, str]
    results: dict[str, int]

    @property
    def deals(self) -> list[int]:
        """The deal numbers: truthy when the list has deals (as :attr:`DealList.deals`)."""
        return self.seeds

    def moves(self, seed: int) -> list[str] | None:
        line = self.lines.get(seed)
        return None if line is None else line.split()

    def find(self, seed: int) -> dict[str, Any] | None:
        """The stored deal with this number (its moves split), or None."""
        moves = self.moves(seed)
        return None if moves is None else {"seed": seed, "moves": moves}


#: how many lists :func:`stored` keeps read (the table's game, the demo's, one more)
KEEP_LISTS = 3
_kept: OrderedDict[tuple, StoredDeals | None] = OrderedDict()


def stored(game_id: str, options: dict[str, Any] | None = None,
           directory: Path | None = None) -> StoredDeals | None:
    """The list for a game and options as the kiosk keeps it, or None when there is none or
    it is broken (logged once, as by :func:`load`). The last :data:`KEEP_LISTS` lists read
    are kept, each with its file's size and time, so a list written since is read again."""
    path = list_path(game_id, options, directory)
    try:
        st = path.stat()
        key: tuple = (str(path), st.st_size, st.st_mtime_ns)
    except OSError:
        key = (str(path), None, None)
    if key in _kept:
        _kept.move_to_end(key)
        return _kept[key]
    try:
        full = _read(path, split=False)
    except FileNotFoundError:
        found = None
    except DealListError as err:
        if str(err) not in _warned:
            _warned.add(str(err))
            log.warning("%s; %s deals any deal", err, game_id)
        found = None
    else:
        found = StoredDeals(full.game, full.options, full.seeds,
                            {d["seed"]: d["moves"] for d in full.deals}, full.results)
    _kept[key] = found
    while len(_kept) > KEEP_LISTS:
        _kept.popitem(last=False)
    return found


def load(game_id: str, options: dict[str, Any] | None = None,
         directory: Path | None = None) -> DealList | None:
    """The list for a game and options, or None when there is none or it is broken. A
    kiosk must keep dealing: a broken file is logged (once) and the game deals any deal."""
    try:
        return load_strict(game_id, options, directory)
    except DealListError as err:
        if str(err) not in _warned:
            _warned.add(str(err))
            log.warning("%s; %s deals any deal", err, game_id)
        return None


def save(deal_list: DealList, directory: Path | None = None) -> Path:
    """Written atomically: a crash or a power cut never leaves half a list."""
    path = list_path(deal_list.game, deal_list.options, directory)
    path.parent.mkdir(parents=True, exist_ok=True)
    data = deal_list.to_dict()
    deals = data.pop("deals")
    head = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    lines = [json.dumps(d, ensure_ascii=False, separators=(",", ":")) for d in deals]
    # one deal a line: compact, and a diff shows which deals changed
    write_atomic(path, head[:-1] + ',"deals":[\n' + ",\n".join(lines) + "\n]}\n")
    return path
