"""What the operator changes in the menu (enabled games, default language, "winnable deals
only", the variants offered and the computer level a game against the computer starts on,
per game), kept across starts.

Two places, tried in this order:

1. **The configuration file itself**, when the kiosk may write it (a developer's machine, a
   writable ``/etc``): only the changed keys are rewritten, in place, so comments and every
   other line stay as the operator wrote them. The new text is parsed back before it is
   used, and it must give the same configuration apart from the changed keys; it is written
   to a temporary file in the same directory, synced, and renamed over the old one, so a
   power cut leaves either the old file or the new one, never half of one.
2. Otherwise (the image: ``/etc`` is read-only and the file is copied from the boot
   partition at every boot) **an overrides file**, ``overrides.toml`` in the data directory.
   It records a fingerprint (SHA-256) of the configuration file it was made against. When
   that file changes later (the operator edited ``solitaire-kiosk.toml``), the newer edit
   wins: the overrides file is set aside as ``overrides.toml.old`` and a note says so.

The configuration file is never deleted or truncated by the kiosk.

The fleet's centre writes the same file (:func:`save_centre`, from ``kiosk sync``): its keys
replace the menu's, a ``[centre]`` table records its version and the keys it set, and a
later change in the menu replaces the centre's key again (docs/fleet.md, "Precedence").
While the centre manages a kiosk, the menu writes here, never into the configuration file,
so that there is one place where the later change wins.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import logging
import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from games.engine.reason import Reason
from kiosk.platform import readfile
from kiosk.platform.atomicfile import write_atomic
from kiosk.settings.config import MAX_CONFIG_BYTES, WINNABLE_KEY, Config, _Reader
from kiosk.settings.problem import Problem
from kiosk.settings.variants import DEFAULT_KEY, OFFER_KEY

log = logging.getLogger("kiosk.overrides")

#: the game option that says how well the computer plays (Draw Poker's level row)
LEVEL_KEY = "level"

FILE_NAME = "overrides.toml"
LOCK_NAME = "overrides.lock"
#: the file holds the operator PIN's hash (the centre may send one): the kiosk's user only
MODE = 0o600
#: what :func:`kiosk.platform.atomicfile.write_atomic` names its temporary files here; one
#: left behind by a killed writer holds the same PIN hash
TMP_GLOB = f".{FILE_NAME}.*.tmp"
#: the menu writes a few lines; anything near this size was not written by it
MAX_BYTES = 256 * 1024
#: keys the menu may change: (table, key); table "" is the top level, ``<id>`` any game id
KEYS = {("", "language"), ("games", "enabled"), ("games.<id>", WINNABLE_KEY),
        ("games.<id>", OFFER_KEY), ("games.<id>", DEFAULT_KEY), ("games.<id>", LEVEL_KEY),
        ("", "idle_timeout"), ("", "operator_pin"), ("attract", "enabled"),
        ("attract", "delay")}
#: the table the centre's version is recorded in
CENTRE = "centre"


@dataclass
class Saved:
    ok: bool
    path: Path | None = None
    #: "config" (the file itself), "overrides" (the data directory) or "" (not saved)
    where: str = ""
    message: str = ""


def fingerprint(path: Path | None) -> str:
    """SHA-256 of the configuration file's bytes; ``"none"`` without a file."""
    if path is None:
        return "none"
    digest = hashlib.sha256()
    try:
        with open(path, "rb") as fh:  # in blocks: an absurdly large file must not fill memory
            for block in iter(lambda: fh.read(1 << 16), b""):
                digest.update(block)
    except (OSError, ValueError):
        return "none"
    return "sha256:" + digest.hexdigest()


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    raise TypeError(f"cannot write {value!r}")


# ---------------------------------------------------------------------------- reading
def apply(cfg: Config, data_dir: Path, *, set_aside: bool = True) -> list[str]:
    """Apply ``<data_dir>/overrides.toml`` to ``cfg`` (in place); returns notes for the log
    and the operator menu. Bad values are reported like the configuration's own.
    ``set_aside=False`` (``kiosk config show``): a file made against another configuration
    file is not applied and not moved either, only named in the notes."""
    path = data_dir / FILE_NAME
    try:
        raw = readfile.read_toml(path, MAX_BYTES)
    except readfile.ReadError as err:
        return [] if err.missing else [Problem(Reason("{error}; ignored", error=err.value))]
    if raw.get("based_on") != fingerprint(cfg.path if cfg.path and cfg.path.exists() else None):
        if not set_aside:
            return [f"{path}: made against another version of the configuration file; the "
                    f"kiosk sets it aside at its next start and uses the file's settings"]
        old = path.with_name(FILE_NAME + ".old")
        try:
            os.replace(path, old)
            os.chmod(old, MODE)  # set aside, it still holds the PIN hash
        except OSError:
            pass
        note = Problem(Reason("{file}: the configuration file changed since the operator menu "
                              "saved its settings; the file's settings are used (the menu's "
                              "were moved to {old})", file=str(path), old=old.name))
        log.warning("%s", note)
        return [note]
    raw.pop("based_on", None)
    raw.pop(CENTRE, None)
    parsed = Config(path=path)
    _Reader(parsed, str(path)).read(raw)
    notes = list(parsed.problems)
    if "language" in raw:
        cfg.language = parsed.language
    if "idle_timeout" in raw:
        cfg.idle_timeout = parsed.idle_timeout
    if "operator_pin" in raw:
        cfg.operator_pin = parsed.operator_pin
    attract = raw.get("attract")
    if isinstance(attract, dict):
        for key in ("enabled", "delay"):
            if key in attract:
                setattr(cfg.attract, key, getattr(parsed.attract, key))
    games = raw.get("games")
    if isinstance(games, dict) and "enabled" in games:
        cfg.games = list(parsed.games)
    if isinstance(games, dict):
        for gid, table in games.items():
            if not isinstance(table, dict) or WINNABLE_KEY not in table:
                continue
            on = gid in parsed.winnable_only
            if on or gid in parsed.winnable_off:
                (cfg.winnable_only if on else cfg.winnable_off).add(gid)
                (cfg.winnable_off if on else cfg.winnable_only).discard(gid)
        for gid, table in games.items():
            if isinstance(table, dict) and OFFER_KEY in table and gid in parsed.variant_offer:
                cfg.variant_offer[gid] = list(parsed.variant_offer[gid])
            if isinstance(table, dict) and DEFAULT_KEY in table:
                if gid in parsed.variant_default:
                    cfg.variant_default[gid] = parsed.variant_default[gid]
                else:
                    cfg.variant_default.pop(gid, None)
            if isinstance(table, dict) and LEVEL_KEY in table and \
                    LEVEL_KEY in parsed.game_options.get(gid, {}):
                cfg.game_options.setdefault(gid, {})[LEVEL_KEY] = \
                    parsed.game_options[gid][LEVEL_KEY]
    return notes


def problems(data_dir: Path) -> list[str]:
    """The overrides file's bad values, as :func:`apply` would report them, without applying
    or moving anything (for the fleet's heartbeat, read by another process)."""
    path = data_dir / FILE_NAME
    try:
        raw = readfile.read_toml(path, MAX_BYTES)
    except readfile.ReadError as err:
        return [] if err.missing else [Problem(Reason("{error}; ignored", error=err.value))]
    raw.pop("based_on", None)
    raw.pop(CENTRE, None)
    parsed = Config(path=path)
    _Reader(parsed, str(path)).read(raw)
    return list(parsed.problems)


# ---------------------------------------------------------------------------- writing
def save(cfg: Config, data_dir: Path | None, *, language: str | None = None,
         games: list[str] | None = None, winnable: dict[str, bool] | None = None,
         variants: dict[str, tuple[list[str], str]] | None = None,
         levels: dict[str, str] | None = None) -> Saved:
    """Persist the menu's changes (see the module docstring); never raises. ``winnable``:
    ``{game id: winnable deals only}`` for the games whose setting changed; ``variants``:
    ``{game id: (variant keys offered, default variant key)}``; ``levels``: ``{game id:
    the computer level its sheet starts on}``."""
    updates: dict[tuple[str, str], Any] = {}
    if language is not None:
        updates[("", "language")] = language
    if games is not None:
        updates[("games", "enabled")] = list(games)
    for gid, on in (winnable or {}).items():
        updates[(f"games.{gid}", WINNABLE_KEY)] = bool(on)
    for gid, (offer, chosen) in (variants or {}).items():
        updates[(f"games.{gid}", OFFER_KEY)] = list(offer)
        updates[(f"games.{gid}", DEFAULT_KEY)] = str(chosen)
    for gid, level in (levels or {}).items():
        updates[(f"games.{gid}", LEVEL_KEY)] = str(level)
    if not updates:
        return Saved(True)
    cfg_file = cfg.path if cfg.path is not None and cfg.path.exists() else None
    managed = data_dir is not None and CENTRE in _read_overrides(data_dir / FILE_NAME)
    if cfg_file is not None and _writable(cfg_file) and not managed:
        try:
            old = readfile.read_text(cfg_file, MAX_CONFIG_BYTES)
            new = edit_text(old, updates)
            write_atomic(cfg_file, new)
            log.info("operator menu: saved %s to %s", _keys(updates), cfg_file)
            return Saved(True, cfg_file, "config")
        except (OSError, ValueError, UnicodeDecodeError) as err:
            log.warning("cannot edit %s (%s); using the overrides file", cfg_file, err)
    if data_dir is None:
        return Saved(False, message="no data directory to keep the settings in")
    path = data_dir / FILE_NAME
    try:
        data_dir.mkdir(parents=True, exist_ok=True)
        with _locked(data_dir):
            current = _read_overrides(path)
            for (table, key), value in updates.items():
                _put(current, table, key, value)
            centre = current.get(CENTRE)
            if isinstance(centre, dict):  # the menu's change is the newer one now
                changed = {f"{t}.{k}" if t else k for t, k in updates}
                centre["keys"] = [k for k in centre.get("keys", []) if k not in changed]
            _write(path, current, cfg_file)
    except OSError as err:
        log.error("cannot save the operator's settings to %s: %s", path, err)
        return Saved(False, path, "", f"cannot write {path}: {err.strerror or err}")
    log.info("operator menu: saved %s to %s", _keys(updates), path)
    return Saved(True, path, "overrides")


def save_centre(cfg: Config, data_dir: Path, settings: dict[str, Any], version: int,
                layers: list[int]) -> Saved:
    """Write the centre's checked ``settings`` (the shape of the configuration file) over
    the menu's changes in one atomic replacement of the overrides file: the keys the
    previous centre version set and this one does not go back to the file's values, the
    keys this one sets replace the menu's. Raises OSError (the caller reports it; the old
    file is then untouched)."""
    cfg_file = cfg.path if cfg.path is not None and cfg.path.exists() else None
    path = data_dir / FILE_NAME
    data_dir.mkdir(parents=True, exist_ok=True)
    with _locked(data_dir):  # the menu may be saving at this very moment
        current = _read_overrides(path)
        old = current.pop(CENTRE, None)
        for dotted in (old.get("keys", []) if isinstance(old, dict) else []):
            table, _, key = str(dotted).rpartition(".")
            _drop(current, table, key)
        keys = []
        for table, key, value in _leaves(settings):
            _put(current, table, key, value)
            keys.append(f"{table}.{key}" if table else key)
        current[CENTRE] = {"version": int(version), "layers": [int(v) for v in layers],
                           "keys": sorted(keys)}
        _write(path, current, cfg_file)
    log.info("fleet: the centre's settings version %s applied (%s)", version,
             ", ".join(sorted(keys)) or "no keys")
    return Saved(True, path, "overrides")


def tidy(data_dir: Path) -> None:
    """At the kiosk's start: take away the temporary files a killed write left behind
    and make the files private (0600) that an older kiosk wrote 0644. Skipped while a
    writer holds the lock (its own write tidies, :func:`_write`); never raises."""
    try:
        fd = os.open(data_dir / LOCK_NAME, os.O_RDWR | os.O_CREAT, 0o600)
    except OSError:
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return
    try:
        _sweep(data_dir)
        for name in (FILE_NAME, FILE_NAME + ".old"):
            _private(data_dir / name)
    finally:
        os.close(fd)


def _sweep(data_dir: Path) -> None:
    """Remove every temporary file of an earlier write; only under the lock, where no
    write of this file is under way."""
    for tmp in data_dir.glob(TMP_GLOB):
        try:
            tmp.unlink()
            log.info("removed %s, left by a write that did not finish", tmp.name)
        except FileNotFoundError:
            pass
        except OSError as err:
            log.warning("cannot remove %s: %s", tmp, err)


def _private(path: Path) -> None:
    try:
        if path.stat().st_mode & 0o077:
            os.chmod(path, MODE)
    except OSError:  # absent, or not ours to change: the next write makes it 0600
        pass


@contextmanager
def _locked(data_dir: Path) -> Iterator[None]:
    """The kiosk (its menu) and a sync pass (the centre) each read, change and replace the
    file: one at a time, or one's change could be lost under the other's."""
    fd = os.open(data_dir / LOCK_NAME, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def centre_version(data_dir: Path) -> tuple[int | None, list[int]]:
    """The centre's version the overrides file holds, and its layers (None, [] if none)."""
    centre = _read_overrides(data_dir / FILE_NAME).get(CENTRE)
    if not isinstance(centre, dict):
        return None, []
    try:
        return int(centre["version"]), [int(v) for v in centre.get("layers", [])]
    except (KeyError, TypeError, ValueError):
        return None, []


def _leaves(data: dict[str, Any], prefix: str = "") -> list[tuple[str, str, Any]]:
    out: list[tuple[str, str, Any]] = []
    for key, value in data.items():
        if isinstance(value, dict):
            out += _leaves(value, f"{prefix}.{key}" if prefix else key)
        else:
            out.append((prefix, key, value))
    return out


def _drop(data: dict[str, Any], table: str, key: str) -> None:
    for part in table.split(".") if table else ():
        inner = data.get(part)
        if not isinstance(inner, dict):
            return
        data = inner
    data.pop(key, None)


def _write(path: Path, current: dict[str, Any], cfg_file: Path | None) -> None:
    lines = ["# Settings changed in the kiosk's operator menu and sent by the fleet's centre",
             "# ([centre]). They apply on top of the configuration file whose fingerprint is",
             "# below; when that file changes, it wins and this file is set aside. Delete this",
             "# file to undo the menu's changes (the centre's come back at the next sync).",
             f"based_on = {_toml(fingerprint(cfg_file))}"]
    for key, kind in (("language", str), ("idle_timeout", (int, float)),
                      ("operator_pin", str)):
        if isinstance(current.get(key), kind) and not isinstance(current.get(key), bool):
            lines.append(f"{key} = {_toml(current[key])}")
    centre = current.get(CENTRE)
    if isinstance(centre, dict):
        lines += ["", f"[{CENTRE}]", f"version = {int(centre['version'])}",
                  f"layers = [{', '.join(str(int(v)) for v in centre.get('layers', []))}]",
                  f"keys = {_toml([str(k) for k in centre.get('keys', [])])}"]
    attract = current.get("attract")
    if isinstance(attract, dict):
        kept = [f"{key} = {_toml(attract[key])}" for key, kind in (
            ("enabled", bool), ("delay", (int, float))) if isinstance(attract.get(key), kind)]
        if kept:
            lines += ["", "[attract]", *kept]
    games_table = current.get("games", {})
    if "enabled" in games_table:
        lines += ["", "[games]", f"enabled = {_toml(games_table['enabled'])}"]
    for gid, table in sorted(games_table.items()):
        if not isinstance(table, dict):
            continue
        kept = [f"{key} = {_toml(table[key])}" for key, kind in (
            (WINNABLE_KEY, bool), (OFFER_KEY, list), (DEFAULT_KEY, str), (LEVEL_KEY, str))
            if isinstance(table.get(key), kind)]
        if kept:
            lines += ["", f"[games.{gid}]", *kept]
    path.parent.mkdir(parents=True, exist_ok=True)
    _sweep(path.parent)  # we hold the lock: any temporary file here is a killed write's
    write_atomic(path, "\n".join(lines) + "\n", mode=MODE)


def _put(data: dict[str, Any], table: str, key: str, value: Any) -> None:
    """``data[table...][key] = value``, ``table`` a dotted path ("" is the top level)."""
    for part in table.split(".") if table else ():
        data = data.setdefault(part, {})
    data[key] = value


def _keys(updates: dict[tuple[str, str], Any]) -> str:
    return ", ".join(f"{t}.{k}" if t else k for t, k in updates)


def _read_overrides(path: Path) -> dict[str, Any]:
    try:
        data = readfile.read_toml(path, MAX_BYTES)
    except readfile.ReadError:
        return {}
    data.pop("based_on", None)
    return {k: v for k, v in data.items() if k in (
        "language", "games", "idle_timeout", "operator_pin", "attract", CENTRE)}


def _writable(path: Path) -> bool:
    return os.access(path, os.W_OK) and os.access(path.parent, os.W_OK | os.X_OK)


# ---------------------------------------------------------------------------- in-place edit
_HEADER = re.compile(r"^\s*\[\s*([A-Za-z0-9_\-]+(?:\s*\.\s*[A-Za-z0-9_\-]+)*)\s*\]\s*(#.*)?$")
_ARRAY_HEADER = re.compile(r"^\s*\[\[")


def _value_end(lines: list[str], start: int, col: int) -> tuple[int, int]:
    """Where the value that begins at ``lines[start][col:]`` ends: (line, column after it).

    Follows brackets and braces across lines, skipping strings and comments."""
    depth = 0
    i, j = start, col
    seen = False
    while i < len(lines):
        line = lines[i]
        while j < len(line):
            ch = line[j]
            if ch in "\"'":
                triple = line[j:j + 3] == ch * 3
                quote = ch * 3 if triple else ch
                k = j + len(quote)
                while True:
                    end = line.find(quote, k)
                    if end < 0:
                        if not triple:
                            raise ValueError("unterminated string")
                        i, k = i + 1, 0
                        if i >= len(lines):
                            raise ValueError("unterminated string")
                        line = lines[i]
                        continue
                    if ch == '"' and not triple:
                        backslashes = len(line[k:end]) - len(line[k:end].rstrip("\\"))
                        if backslashes % 2:
                            k = end + 1
                            continue
                    j = end + len(quote)
                    break
                seen = True
                if depth == 0:
                    return i, j
                continue
            if ch == "#":
                break
            if ch in "[{":
                depth += 1
                seen = True
            elif ch in "]}":
                depth -= 1
                if depth == 0:
                    return i, j + 1
            elif not ch.isspace() and depth == 0:
                seen = True
                m = re.match(r"[^\s#,\]}]+", line[j:])
                return i, j + (m.end() if m else 1)
            j += 1
        if depth == 0 and seen:
            return i, len(line)
        i, j = i + 1, 0
    raise ValueError("value does not end")


def edit_text(text: str, updates: dict[tuple[str, str], Any]) -> str:
    """``text`` with the keys of ``updates`` set, everything else (comments too) unchanged.

    Raises ValueError when the result would not parse back to the same configuration apart
    from the changed keys (the caller then keeps the file as it is).
    """
    before = readfile.parse_toml(text, "the configuration")
    lines = text.splitlines()
    trailing_newline = text.endswith("\n") or not text
    for (table, key), value in updates.items():
        lines = _set(lines, table, key, _toml(value))
    new = "\n".join(lines) + ("\n" if trailing_newline else "")
    after = readfile.parse_toml(new, "the edited configuration")
    expect = json.loads(json.dumps(before))
    for (table, key), value in updates.items():
        _put(expect, table, key, value)
    if after != expect:
        raise ValueError("the edited file would not read back as intended")
    return new


def _set(lines: list[str], table: str, key: str, value: str) -> list[str]:
    current = ""
    first_header = None
    table_line = None
    key_re = re.compile(rf"^(\s*){re.escape(key)}\s*=\s*")
    for n, line in enumerate(lines):
        m = _HEADER.match(line)
        if m or _ARRAY_HEADER.match(line):
            current = re.sub(r"\s+", "", m.group(1)) if m else "[[array]]"
            if first_header is None:
                first_header = n
            if current == table:
                table_line = n
            continue
        if current != table:
            continue
        km = key_re.match(line)
        if km:
            end_line, end_col = _value_end(lines, n, km.end())
            tail = lines[end_line][end_col:]
            comment = tail.strip()
            keep = f"  {comment}" if comment.startswith("#") else ""
            return lines[:n] + [f"{km.group(1)}{key} = {value}{keep}"] + lines[end_line + 1:]
    new_line = f"{key} = {value}"
    if not table:
        if first_header is None:
            return [*lines, new_line]
        return lines[:first_header] + [new_line, ""] + lines[first_header:]
    if table_line is not None:
        return lines[:table_line + 1] + [new_line] + lines[table_line + 1:]
    return [*lines, "", f"[{table}]", new_line]
