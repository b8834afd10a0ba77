"""Where each effective setting comes from, for ``kiosk config show``: the configuration
file (or its last good copy), the operator menu, the fleet's centre, or the built-in
default.

The kiosk itself reads the file and then applies ``overrides.toml`` from the data directory
(:func:`kiosk.settings.overrides.apply`); this module does the same, without writing or
moving anything, and labels every key. The overrides file tells the menu's keys from the
centre's: its ``[centre]`` table lists the keys the centre's current version set, and a
change in the menu takes its key off that list (docs/fleet.md, "Precedence"). A file
written before the centre existed has no such table: all its keys are the menu's.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kiosk.platform import readfile
from kiosk.settings import config, overrides
from kiosk.settings.config import Config

FILE = "file"
MENU = "operator menu"
DEFAULT = "default"


@dataclass
class Effective:
    """The configuration the kiosk will use, and for each dotted key where it comes from."""

    cfg: Config
    #: dotted key (``attract.delay``, ``games.golf.winnable_only``) -> label
    sources: dict[str, str] = field(default_factory=dict)
    #: the overrides file read (None: there is none where the kiosk would look)
    overrides_path: Path | None = None
    #: the centre's settings version in it, and its layers (None, [] without one)
    centre_version: int | None = None
    centre_layers: list[int] = field(default_factory=list)
    #: problems of the overrides file (bad values, a file that cannot be read ...)
    notes: list[str] = field(default_factory=list)
    #: where the operator PIN comes from when neither the file nor the overrides set it
    pin_source: str = ""

    @property
    def centre(self) -> str:
        return f"centre v{self.centre_version}"


def overrides_dir(cfg: Config) -> Path:
    """The data directory whose ``overrides.toml`` the kiosk reads: the configured one
    when it holds the file (or could), else the per-user fallback when that holds it."""
    for d in (cfg.log.data_dir, config.user_data_dir()):
        if (d / overrides.FILE_NAME).exists():
            return d
    return cfg.data_dir(create=False)


def effective(path: str | Path | None = None) -> Effective:
    """Load the configuration as ``kiosk run`` does (the file or its last good copy, then
    the overrides) and label every key; nothing is written or moved."""
    cfg = config.load(path, fallback=True)
    data_dir = overrides_dir(cfg)
    out = Effective(cfg)
    ov_path = data_dir / overrides.FILE_NAME
    if ov_path.exists():
        out.overrides_path = ov_path
    notes = overrides.apply(cfg, data_dir, set_aside=False)
    out.notes = [_readable(n, ov_path) for n in notes]
    stale = any("made against another version" in n for n in notes)
    ov_keys, centre_keys = ({}, set()) if stale else _overrides_keys(ov_path)
    out.centre_version, out.centre_layers = (None, []) if stale else \
        overrides.centre_version(data_dir)
    file_keys = _file_keys(cfg.path)
    refused = {key for key in _leaves(cfg.to_dict()) if any(
        f": {key}: " in p for p in cfg.problems)}
    origin = FILE if cfg.broken_file is None else f"last good copy ({cfg.path})"
    for key in _leaves(cfg.to_dict()):
        if key in ov_keys:
            out.sources[key] = out.centre if key in centre_keys else MENU
            if any(f": {key}: " in n for n in notes):
                out.sources[key] += " (its value was refused: the default is used)"
        elif key in file_keys and key not in refused:
            out.sources[key] = origin
        elif key in file_keys:
            out.sources[key] = f"{DEFAULT} (the file's value was refused)"
        else:
            out.sources[key] = DEFAULT
    if cfg.operator_pin is None:
        out.pin_source = _pin_source(data_dir)
    return out


def _readable(note: str, path: Path) -> str:
    if note.startswith(f"{path}: cannot be read"):
        return (f"{note}: the operator menu's and the centre's settings are not shown "
                "(the file is the kiosk user's alone: run `sudo kiosk config show`)")
    return note


def _leaves(data: dict[str, Any], prefix: str = "") -> list[str]:
    out: list[str] = []
    for key, value in data.items():
        dotted = f"{prefix}.{key}" if prefix else key
        out += _leaves(value, dotted) if isinstance(value, dict) else [dotted]
    return out


def _file_keys(path: Path | None) -> set[str]:
    if path is None:
        return set()
    try:
        return set(_leaves(readfile.read_toml(path, config.MAX_CONFIG_BYTES)))
    except readfile.ReadError:
        return set()


def _overrides_keys(path: Path) -> tuple[dict[str, Any], set[str]]:
    """The keys the overrides file sets (as :func:`overrides.apply` reads them) and those
    of them the centre set."""
    try:
        raw = readfile.read_toml(path, overrides.MAX_BYTES)
    except readfile.ReadError:
        return {}, set()
    centre = raw.pop(overrides.CENTRE, None)
    raw.pop("based_on", None)
    keys = {k: True for k in _leaves(raw)}
    listed = centre.get("keys", []) if isinstance(centre, dict) else []
    return keys, {str(k) for k in listed} if isinstance(listed, list) else set()


def _pin_source(data_dir: Path) -> str:
    """Where the kiosk's own PIN comes from (kiosk.settings.operator_pin), read without
    touching the file (the store sets a damaged one aside; this only looks)."""
    from kiosk.settings import operator_pin

    path = data_dir / operator_pin.HASH_FILE
    try:
        source = json.loads(path.read_text("utf-8")).get("source")
    except FileNotFoundError:
        return ("none yet: the kiosk draws a random PIN at its first start "
                "(`sudo kiosk operator pin --show`)")
    except (OSError, ValueError, AttributeError):
        return f"the kiosk's own PIN in {path} (`sudo kiosk operator pin --show`)"
    if source == "generated":
        return f"drawn at random by the kiosk, in {path} (`sudo kiosk operator pin --show`)"
    return f"chosen with `kiosk operator pin --set`, in {path}"
