"""Winnable-deal lists: deal numbers the solver has won, with their winning lines.

The lists live in ``assets/deals/<game>.json`` for a game's default options and in
``assets/deals/<game>@<name>=<value>,....json`` for other option sets. A kiosk in
"winnable deals only" mode picks from the list instantly instead of solving on the spot, and
attract mode replays the stored lines.

A deal is stored as ``{"seed": 4711, "moves": "T3>W deal T5>W ..."}``: the winning line in
move notation, one space-separated string, with every forced move left out (a move made where
it was the only legal one). :func:`line` puts them back; in memory ``moves`` is a list of the
stored (compressed) moves. That keeps the lists small: a Clock line is empty.
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import games

from .paths import ASSETS

FORMAT = "solitaire-kiosk/winnable"
VERSION = 1
DEALS_DIR = ASSETS / "deals"


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


def _read_deal(d: Any) -> dict[str, Any] | None:
    if not isinstance(d, dict) or not isinstance(d.get("seed"), int):
        return None
    moves = d.get("moves", [])
    if isinstance(moves, str):
        moves = moves.split()
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        return None
    return {**d, "moves": moves}


def load(game_id: str, options: dict[str, Any] | None = None,
         directory: Path | None = None) -> DealList | None:
    """The list for a game and options, or None when there is none (or it is unreadable)."""
    path = list_path(game_id, options, directory)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("version") != VERSION:
        return None
    deals = [d for d in map(_read_deal, data.get("deals", [])) if d is not None]
    return DealList(data.get("game", game_id), data.get("options", {}), deals, data.get("solver", {}))


def save(deal_list: DealList, directory: Path | None = None) -> Path:
    """Write atomically (temp file + rename) so a crash never leaves half a list."""
    path = list_path(deal_list.game, deal_list.options, directory)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".deals-", suffix=".json")
    data = deal_list.to_dict()
    deals = data.pop("deals")
    head = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    lines = [json.dumps(d, ensure_ascii=False, separators=(",", ":")) for d in deals]
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        # one deal a line: compact, and a diff shows which deals changed
        f.write(head[:-1] + ',"deals":[\n' + ",\n".join(lines) + "\n]}\n")
    os.chmod(tmp, 0o644)
    os.replace(tmp, path)
    return path
