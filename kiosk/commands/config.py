"""Configuration commands: config check, config show."""

from __future__ import annotations

import argparse
import json
import sys

ORDER = 40


def cmd_check(args: argparse.Namespace) -> int:
    from kiosk import config

    path = args.path or args.config
    file, asked = config.config_path(path)
    cfg = config.load(path)
    if not asked and not file.exists():
        print(f"{file}: not present; the kiosk uses the built-in defaults")
        return 0
    if cfg.problems:
        for problem in cfg.problems:
            print(problem)
        n = len(cfg.problems)
        print(f"{n} problem{'s' if n != 1 else ''} found; the kiosk still starts, with the "
              "defaults named above")
        return 1
    print(f"{file}: OK")
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    from kiosk import config

    cfg = config.load(args.config)
    for problem in cfg.problems:
        print(f"kiosk: warning: {problem}", file=sys.stderr)
    data = cfg.to_dict()
    if args.json:
        json.dump(data, sys.stdout, ensure_ascii=False, indent=1)
        sys.stdout.write("\n")
    else:
        source = str(cfg.path) if cfg.path else "built-in defaults"
        print(f"# effective configuration (from {source})")
        sys.stdout.write(config.to_toml(data))
    return 0


def add(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("config", help="check or show the kiosk configuration")
    csub = p.add_subparsers(dest="config_command", metavar="ACTION", parser_class=type(p))
    csub.required = True

    c = csub.add_parser("check", help="list the problems of a configuration file "
                        "(exit 0 when clean, 1 when not)")
    c.add_argument("path", nargs="?", help="file to check (default: --config, "
                   "$SOLITAIRE_KIOSK_CONFIG, /etc/solitaire-kiosk/config.toml)")
    c.add_argument("--config", metavar="PATH", help=argparse.SUPPRESS)
    c.set_defaults(handler=cmd_check)

    s = csub.add_parser("show", help="print the effective configuration (TOML)")
    s.add_argument("--config", metavar="PATH", help="configuration file")
    s.add_argument("--json", action="store_true")
    s.set_defaults(handler=cmd_show)
