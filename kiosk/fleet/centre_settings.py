"""Settings from the centre: what ``kiosk fleet settings set`` stored, taken by the kiosk
during a sync pass.

A version is TOML in the configuration file's own shape, limited to the keys the operator
menu may change (:data:`ALLOWED`). The office checks it before storing it, and the kiosk
checks it again, because the kiosk's software may be older than the office's (a game the
office knows and the kiosk does not): both with the checker of ``kiosk config check``
(:class:`kiosk.settings.config._Reader`), and any problem rejects the whole version. A
rejected version changes nothing on the kiosk; the kiosk keeps what it had and reports the
version and the first problems in its heartbeats until a newer version arrives.
"""

from __future__ import annotations

import json
import logging
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from kiosk import __version__
from kiosk.platform import readfile
from kiosk.platform.atomicfile import write_atomic
from kiosk.settings import overrides
from kiosk.settings.config import WINNABLE_KEY, Config, _Reader

log = logging.getLogger("kiosk.fleet")

#: what the kiosk last did with the centre's settings (for its heartbeat)
STATE_NAME = "fleet-settings.json"
#: top-level keys, section keys, and the one key a game's table may hold
ALLOWED_TOP = {"language", "idle_timeout", "operator_pin"}
ALLOWED_SECTIONS = {"attract": {"enabled", "delay"}}
ALLOWED_GAME_KEY = WINNABLE_KEY
#: a version is a few lines; anything near this was not meant as one
MAX_BYTES = 64 * 1024


@dataclass
class SettingsState:
    applied: int | None = None        # the version applied (the highest of its layers)
    rejected: int | None = None       # the newest version refused, None after a good one
    error: str | None = None          # why, one line
    software: str | None = None       # the kiosk's version that rejected it


def allowed_keys() -> str:
    """For messages and the docs."""
    return ("language, idle_timeout, operator_pin (a hash from `kiosk operator pin --hash`), "
            "[attract] enabled and delay, [games] enabled, [games.<id>] winnable_only")


def _outside(data: dict[str, Any]) -> list[str]:
    """The keys of ``data`` the centre may not set."""
    bad: list[str] = []
    for key, value in data.items():
        if key in ALLOWED_TOP:
            continue
        if key in ALLOWED_SECTIONS and isinstance(value, dict):
            bad += [f"{key}.{k}" for k in value if k not in ALLOWED_SECTIONS[key]]
        elif key == "games" and isinstance(value, dict):
            for gid, table in value.items():
                if gid == "enabled":
                    continue
                if not isinstance(table, dict):
                    bad.append(f"games.{gid}")
                else:
                    bad += [f"games.{gid}.{k}" for k in table if k != ALLOWED_GAME_KEY]
        else:
            bad.append(key)
    return bad


def check(text: str, label: str) -> tuple[dict[str, Any], list[str]]:
    """The version's data and its problems (empty: it may be applied). ``label`` names it in
    the messages, as a file name does in ``kiosk config check``'s."""
    if len(text.encode("utf-8")) > MAX_BYTES:
        return {}, [f"{label}: larger than {MAX_BYTES // 1024} KB; not a settings version"]
    try:
        data = readfile.parse_toml(text.removeprefix("\ufeff"), label)
    except readfile.ReadError as err:
        return {}, [str(err)]
    problems = [f"{label}: {key}: the centre may not set this key (it may set "
                f"{allowed_keys()})" for key in _outside(data)]
    pin = data.get("operator_pin")
    if pin is not None and not (isinstance(pin, str) and pin.startswith("scrypt$")):
        # digits would sit in the central database in clear
        problems.append(f"{label}: operator_pin: must be a hash from `kiosk operator pin "
                        "--hash`, not the digits")
    probe = Config()
    _Reader(probe, label).read(data)
    problems += probe.problems
    return data, problems


def merge(layers: list[dict[str, Any]]) -> dict[str, Any]:
    """Key by key, later layers winning (all, then group, then kiosk)."""
    out: dict[str, Any] = {}

    def into(target: dict[str, Any], src: dict[str, Any]) -> None:
        for key, value in src.items():
            if isinstance(value, dict):
                into(target.setdefault(key, {}), value)
            else:
                target[key] = value

    for layer in layers:
        into(out, layer)
    return out


def load_state(data_dir: Path) -> SettingsState:
    try:
        data = json.loads((data_dir / STATE_NAME).read_text(encoding="utf-8"))
        return SettingsState(**{k: data.get(k) for k in SettingsState.__dataclass_fields__})
    except (OSError, ValueError, TypeError):
        return SettingsState(applied=overrides.centre_version(data_dir)[0])


def _save_state(data_dir: Path, st: SettingsState) -> None:
    try:
        write_atomic(data_dir / STATE_NAME, json.dumps(asdict(st), sort_keys=True))
    except OSError as err:
        log.warning("cannot record the centre's settings state: %s", err)


def take(cfg: Config, data_dir: Path, layers: list[tuple[int, str, str]]) -> SettingsState:
    """Apply the centre's ``layers`` ((version, scope, TOML) in the order all, group,
    kiosk) unless the kiosk has them already; never raises for a bad version (it is
    recorded as rejected), only OSError when the overrides file cannot be written."""
    st = load_state(data_dir)
    if not layers:
        return st
    versions = [int(v) for v, _scope, _text in layers]
    newest = max(versions)
    have, have_layers = overrides.centre_version(data_dir)
    if have == newest and have_layers == versions:
        st.applied = newest
        if st.rejected is not None and st.rejected <= newest:
            st.rejected, st.error = None, None
        return st
    if st.rejected == newest and st.software == __version__:
        return st  # refused already; the heartbeat keeps saying so (new software: again)
    datas, problems = [], []
    for version, scope, text in layers:
        data, found = check(text, f"centre settings version {version} ({scope})")
        datas.append(data)
        problems += found
    merged = merge(datas)
    if not problems:  # each layer was fine; so must be what they make together
        probe = Config()
        _Reader(probe, f"centre settings version {newest}").read(merged)
        problems = probe.problems
    if problems:
        st.rejected, st.software = newest, __version__
        st.error = problems[0] + (f" (and {len(problems) - 1} more)" if len(problems) > 1
                                  else "")
        log.warning("fleet: the centre's settings version %s rejected: %s", newest, st.error)
        _save_state(data_dir, st)
        return st
    overrides.save_centre(cfg, data_dir, merged, newest, versions)
    st.applied, st.rejected, st.error = newest, None, None
    _save_state(data_dir, st)
    return st


#: what the running kiosk takes from a new version (the keys :data:`ALLOWED_TOP` and
#: the sections name, as the configuration holds them)
TAKEN = ("language", "idle_timeout", "operator_pin", "games", "winnable_only",
         "winnable_off")


def take_into(cfg: Config, data_dir: Path,
              seen: tuple[int | None, list[int]]) -> tuple[int | None, list[int]] | None:
    """For the running kiosk, at an idle moment: when a sync pass has written another
    centre version than ``seen`` into the overrides file, read the configuration again as
    ``kiosk run`` does and copy the keys the centre may set into ``cfg``. Returns the new
    ``seen``, or None when nothing changed. Never raises: a file that cannot be read now is
    read at the next idle moment."""
    now = overrides.centre_version(data_dir)
    if now == seen:
        return None
    from kiosk.settings import config

    try:
        fresh = config.load(cfg.path, fallback=True)
        overrides.apply(fresh, data_dir)
    except Exception as err:  # noqa: BLE001 - the kiosk keeps what it has
        log.warning("fleet: the centre's settings cannot be read now: %s", err)
        return None
    for name in TAKEN:
        setattr(cfg, name, getattr(fresh, name))
    cfg.attract.enabled, cfg.attract.delay = fresh.attract.enabled, fresh.attract.delay
    log.info("fleet: the centre's settings version %s taken at an idle moment", now[0])
    return now
