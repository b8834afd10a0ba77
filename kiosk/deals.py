"""Winnable-deal lists: deal numbers the solver has won, with their winning lines.

The lists live in ``assets/deals/<game>.json`` for a game's default options and in
``assets/deals/<game>@<name>=<value>,....json`` for other option sets. A kiosk in
"winnable deals only" mode picks from the list instantly instead of solving on the spot, and
attract mode replays the stored lines.
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import games

FORMAT = "solitaire-kiosk/winnable"
VERSION = 1
DEALS_DIR = Path(__file__).resolve().parent.parent / "assets" / "deals"


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
        return {"format": FORMAT, "version": VERSION, "game": self.game,
                "options": self.options, "solver": self.solver, "deals": self.deals}


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
    deals = [d for d in data.get("deals", []) if isinstance(d, dict) and isinstance(d.get("seed"), int)]
    return DealList(data.get("game", game_id), data.get("options", {}), deals, data.get("solver", {}))


def save(deal_list: DealList, directory: Path | None = None) -> Path:
    """Write atomically (temp file + rename) so a crash never leaves half a list."""
    path = list_path(deal_list.game, deal_list.options, directory)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".deals-", suffix=".json")
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        json.dump(deal_list.to_dict(), f, ensure_ascii=False, separators=(",", ":"))
        f.write("\n")
    os.replace(tmp, path)
    return path
