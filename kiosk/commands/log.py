"""Play-log commands: export, stats."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ._argtypes import existing_file

ORDER = 30


def db_path(args: argparse.Namespace) -> Path:
    """``--db`` when given, else the log in the configured data directory."""
    if args.db:
        return Path(args.db)
    from kiosk.settings import config

    cfg = config.load(args.config)
    for problem in cfg.problems:
        print(f"kiosk: warning: {problem}", file=sys.stderr)
    return cfg.existing_db_path()


def _when(text: str | None, end: bool = False) -> str | None:
    from kiosk.commands.cli import UsageError
    from kiosk.records.export import parse_when

    if text is None:
        return None
    try:
        return parse_when(text, end=end)
    except ValueError:
        raise UsageError(f"not a date: {text!r} (use YYYY-MM-DD or an ISO time)") from None


def cmd_export(args: argparse.Namespace) -> int:
    from kiosk.commands.cli import UsageError
    from kiosk.records import export

    since, until = _when(args.since), _when(args.until, end=True)
    if since is not None and until is not None and since >= until:  # until: end, excluded
        raise UsageError(f"--since {args.since} is after --until {args.until}: no play "
                         "could be in between")
    if args.game is not None:
        import games

        games.listed(args.game)  # an unknown id: one line, not an empty export
    try:
        if args.out == "-":
            n = export.export(db_path(args), args.format, sys.stdout.buffer, table=args.table,
                              since=since, until=until, game=args.game)
        else:
            n = export.export(db_path(args), args.format, args.out, table=args.table,
                              since=since, until=until, game=args.game)
    except export.ExportError as err:
        raise UsageError(str(err)) from None
    if args.out != "-":
        print(f"{n} {args.table} rows written to {args.out}", file=sys.stderr)
    return 0


def cmd_stats(args: argparse.Namespace) -> int:
    from kiosk.commands.cli import UsageError
    from kiosk.records import export, stats

    try:
        with export.snapshot(db_path(args)) as conn:
            data = stats.stats(conn)
    except export.ExportError as err:
        raise UsageError(str(err)) from None
    if args.json:
        json.dump(data, sys.stdout, ensure_ascii=False, indent=1)
        sys.stdout.write("\n")
    else:
        print(stats.format_text(data))
    return 0


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--db", metavar="PATH", help="the log file (default: plays.db in the "
                   "configured data directory)")
    p.add_argument("--config", metavar="PATH", type=existing_file, help="configuration file "
                   "(default: $SOLITAIRE_KIOSK_CONFIG or /etc/solitaire-kiosk/config.toml)")


def add(sub: argparse._SubParsersAction) -> None:
    from kiosk.records.export import FORMATS, TABLES

    p = sub.add_parser("export", help="export the play log (CSV, JSON, JSON lines)",
                       description="Export the play log from one consistent snapshot; safe "
                       "while the kiosk runs. Dates are local; --until includes that day.")
    p.add_argument("--format", choices=FORMATS, default="csv")
    p.add_argument("--table", choices=TABLES, default="plays",
                   help="plays (one row per game, default) or moves (one row per move)")
    p.add_argument("--since", metavar="DATE", help="from this local date or ISO time")
    p.add_argument("--until", metavar="DATE", help="up to and including this local date")
    p.add_argument("--game", metavar="ID", help="only this game")
    p.add_argument("--out", metavar="FILE", default="-", help="output file, or - (default)")
    _common(p)
    p.set_defaults(handler=cmd_export)

    p = sub.add_parser("stats", help="plays, wins, win rate and median time per game")
    p.add_argument("--json", action="store_true")
    _common(p)
    p.set_defaults(handler=cmd_stats)
