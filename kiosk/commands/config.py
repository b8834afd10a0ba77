"""Configuration commands: config check, config show."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING

from ._actions import with_actions
from ._argtypes import existing_file

if TYPE_CHECKING:
    from kiosk.settings.config import Config

ORDER = 40


def winnable_rows(cfg: Config) -> list[tuple[str, bool, str]]:
    """(game id, winnable deals only?, where that comes from) for every enabled game."""
    return [(gid, *cfg.winnable(gid)) for gid in cfg.games]


def _print_winnable(cfg: Config, *, all_games: bool, prefix: str = "") -> None:
    """The effective "winnable deals only" per game: for ``config check`` the games where it
    is on or set, for ``config show`` every enabled game."""
    from kiosk.solving import deals

    rows = [r for r in winnable_rows(cfg) if all_games or r[1] or r[2].startswith("set:")]
    if not rows:
        print(f"{prefix}winnable deals only: off for every enabled game")
        return
    print(f"{prefix}winnable deals only (on: deals come from the game's list of solved deals):")
    width = max(len(gid) for gid, _on, _why in rows)
    for gid, on, why in rows:
        print(f"{prefix}  {gid:<{width}}  {'on ' if on else 'off'}  {why}")
        if on:
            lst = deals.load(gid, cfg.options_for(gid))
            if lst is None or not lst.deals:
                print(f"{prefix}  {'':<{width}}       but there is no usable deal list: any deal")


def cmd_check(args: argparse.Namespace) -> int:
    from kiosk.settings import config

    path = args.path or args.config
    file, asked = config.config_path(path)
    # the kiosk's own file: say what the kiosk would use (its last good copy); a file given
    # to be checked is judged alone
    cfg = config.load(path, fallback=not args.path)
    if cfg.fleet is not None:  # secret and key files others may read
        from kiosk.fleet.connect import file_problems

        cfg.problems += file_problems(cfg)
    where = config.data_dir_problem(cfg.log.data_dir)
    if where is not None:  # the kiosk would run without its play log and operator menu
        cfg.problems.append(f"{file}: log.data_dir: {where}; the kiosk would use "
                            f"{config.user_data_dir()}")
    if not asked and not file.exists() and not cfg.problems:
        print(f"{file}: not present; the kiosk uses the built-in defaults")
        _print_winnable(cfg, all_games=False)
        return 0
    if cfg.problems:
        for problem in cfg.problems:
            print(problem)
        _print_winnable(cfg, all_games=False)
        n = len(cfg.problems)
        print(f"{n} problem{'s' if n != 1 else ''} found; the kiosk still starts, with the "
              "defaults named above")
        return 1
    print(f"{file}: OK")
    _print_winnable(cfg, all_games=False)
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    from kiosk.settings import config

    cfg = config.load(args.config, fallback=True)
    for problem in cfg.problems:
        print(f"kiosk: warning: {problem}", file=sys.stderr)
    data = cfg.to_dict()
    if args.json:
        data["winnable_only"] = {gid: {"on": on, "from": why}
                                 for gid, on, why in winnable_rows(cfg)}
        json.dump(data, sys.stdout, ensure_ascii=False, indent=1)
        sys.stdout.write("\n")
    else:
        source = str(cfg.path) if cfg.path else "built-in defaults"
        print(f"# effective configuration (from {source})")
        sys.stdout.write(config.to_toml(data))
        print()
        _print_winnable(cfg, all_games=True, prefix="# ")
    return 0


def add(sub: argparse._SubParsersAction) -> None:
    p, csub = with_actions(sub, "config", "check or show the kiosk configuration",
                           "config_command")

    c = csub.add_parser("check", help="list the problems of a configuration file "
                        "(exit 0 when clean, 1 when not)")
    c.add_argument("path", nargs="?", help="file to check (default: --config, "
                   "$SOLITAIRE_KIOSK_CONFIG, /etc/solitaire-kiosk/config.toml)")
    c.add_argument("--config", metavar="PATH", help=argparse.SUPPRESS)
    c.set_defaults(handler=cmd_check)

    s = csub.add_parser("show", help="print the effective configuration (TOML)")
    s.add_argument("--config", metavar="PATH", type=existing_file, help="configuration file")
    s.add_argument("--json", action="store_true")
    s.set_defaults(handler=cmd_show)
