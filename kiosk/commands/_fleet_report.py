"""``kiosk fleet report``: its arguments and its handler, in a module of their own (the
report grows its own options; the rest of ``kiosk fleet`` lives in :mod:`.fleet`, which
registers this one with :func:`add` and hands it its way of connecting, so that the office's
connection is made one way for every fleet command and no import goes round in a circle)."""

from __future__ import annotations

import argparse
import functools
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any


def _date(value: str):
    from datetime import date

    try:
        return date.fromisoformat(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not a date (YYYY-MM-DD)") from None


def _failed(message: str) -> int:
    print(f"kiosk: {message}", file=sys.stderr)
    return 1


def cmd_report(args: argparse.Namespace, *, connect: Callable[[str], Any],
               check_dsn: Callable[[str], None]) -> int:
    from kiosk.commands.cli import UsageError
    from kiosk.fleet.connect import FleetError, describe

    try:
        from kiosk.fleet import report
    except ImportError as err:
        print(f"kiosk: fleet report needs the office extra ({err.name} is missing): "
              "pip install 'solitaire-kiosk[office]'", file=sys.stderr)
        return 2
    out = Path(args.out)
    if not out.parent.is_dir():
        raise UsageError(f"--out: no directory {out.parent}")
    check_dsn(args.dsn)
    try:
        with connect(args.dsn) as conn:
            written = report.build(conn, since=args.since, out=out)
    except FleetError as err:
        return _failed(str(err))
    except OSError as err:
        return _failed(f"fleet report: cannot write {out}: {err.strerror or err}")
    except Exception as err:  # noqa: BLE001
        return _failed(describe(err, "fleet report: "))
    print(f"report written to {out} (tables beside it: {', '.join(p.name for p in written)})")
    return 0


def add(fsub: argparse._SubParsersAction, connect: Callable[[str], Any],
        check_dsn: Callable[[str], None]) -> None:
    """``report`` among the actions of ``kiosk fleet``; ``connect(dsn)`` opens the office's
    connection (one line on failure), ``check_dsn`` refuses a DSN that is no DSN."""
    r = fsub.add_parser("report", help="one HTML page with charts and CSV tables of the "
                        "fleet's plays (needs the office extra: matplotlib)")
    r.add_argument("--dsn", required=True, help="as for status")
    r.add_argument("--since", required=True, type=_date, metavar="YYYY-MM-DD",
                   help="first day of the report")
    r.add_argument("--out", required=True, metavar="FILE.html",
                   help="the page; the CSV tables are written beside it")
    r.set_defaults(handler=functools.partial(cmd_report, connect=connect,
                                             check_dsn=check_dsn))
