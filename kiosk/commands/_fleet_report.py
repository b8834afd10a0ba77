"""``kiosk fleet report``: its arguments and its handler, in a module of their own (the
report grows its own options; the rest of ``kiosk fleet`` lives in :mod:`.fleet`, which
registers this one with :func:`add` and hands it its way of connecting, so that the office's
connection is made one way for every fleet command and no import goes round in a circle).

Input the report can judge alone (a date that is no date, ``--until`` before ``--since``,
a name that cannot be a kiosk's) is refused before any connection; what only the server
knows (a time zone, a kiosk, a group) after it. Either way: one line, status 2.
"""

from __future__ import annotations

import argparse
import functools
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

#: a kiosk's or a group's name as the fleet has them (kiosk/fleet/central.py, and hyphens
#: for names given as hosts are); checked by the server's own list, this only stops what
#: cannot be one
_NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,62}")


def _date(value: str):
    from datetime import date

    try:
        return date.fromisoformat(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not a date (YYYY-MM-DD)") from None


def _name(what: str) -> Callable[[str], str]:
    def check(value: str) -> str:
        if not _NAME.fullmatch(value):
            raise argparse.ArgumentTypeError(f"{value!r} is not a {what} name")
        return value
    return check


def _failed(message: object) -> int:
    """One line; status 2 for a mistake in what was asked (a FleetError of kind config)."""
    print(f"kiosk: {message}", file=sys.stderr)
    return 2 if getattr(message, "kind", None) == "config" else 1


def cmd_report(args: argparse.Namespace, *, connect: Callable[[argparse.Namespace], Any],
               check_dsn: Callable[[str], None]) -> int:
    from kiosk.commands.cli import UsageError
    from kiosk.fleet.connect import FleetError, describe

    try:
        from kiosk.fleet import report
        from kiosk.fleet.report.queries import ReportInputError
    except ImportError as err:
        print(f"kiosk: fleet report needs the office extra ({err.name} is missing): "
              "pip install 'solitaire-kiosk[office]'", file=sys.stderr)
        return 2
    out = Path(args.out)
    if not out.parent.is_dir():
        raise UsageError(f"--out: no directory {out.parent}")
    if args.since and args.until and args.until < args.since:
        raise UsageError(f"--until {args.until.isoformat()} is before --since "
                         f"{args.since.isoformat()}")
    if args.tz is not None and not args.tz.strip():
        raise UsageError("--tz: empty; give a time zone such as Europe/Berlin")
    check_dsn(args.dsn)
    try:
        with connect(args) as conn:
            written = report.build(conn, since=args.since, until=args.until, out=out,
                                   tz=args.tz, kiosks=tuple(args.kiosk or ()),
                                   groups=tuple(args.group or ()))
    except ReportInputError as err:
        raise UsageError(str(err)) from None
    except FleetError as err:
        return _failed(err)
    except OSError as err:
        return _failed(f"fleet report: cannot write {out}: {err.strerror or err}")
    except Exception as err:  # noqa: BLE001
        return _failed(describe(err, "fleet report: "))
    print(f"report written to {out} (tables beside it: {', '.join(p.name for p in written)})")
    return 0


def add(fsub: argparse._SubParsersAction, connect: Callable[[argparse.Namespace], Any],
        check_dsn: Callable[[str], None],
        tls_options: Callable[[argparse.ArgumentParser], None]) -> None:
    """``report`` among the actions of ``kiosk fleet``; ``connect(args)`` opens the office's
    connection (verified TLS unless the arguments say otherwise; one line on failure),
    ``check_dsn`` refuses a DSN that is no DSN, ``tls_options`` adds the fleet commands'
    TLS options."""
    r = fsub.add_parser("report", help="one HTML page with charts and CSV tables of the "
                        "fleet's plays in a period, compared with the period before (needs "
                        "the office extra: matplotlib)")
    r.add_argument("--dsn", required=True, help="as for status")
    r.add_argument("--since", type=_date, metavar="YYYY-MM-DD",
                   help="first day of the report (default: six days before --until)")
    r.add_argument("--until", type=_date, metavar="YYYY-MM-DD",
                   help="last day of the report, included (default: today)")
    r.add_argument("--tz", metavar="ZONE", help="the office's time zone, for days and hours "
                   "(e.g. Europe/Berlin; default: the server's TimeZone)")
    r.add_argument("--kiosk", action="append", type=_name("kiosk"), metavar="NAME",
                   help="only this kiosk (repeat for more)")
    r.add_argument("--group", action="append", type=_name("group"), metavar="GROUP",
                   help="only the kiosks of this group (repeat for more; with --kiosk: both)")
    r.add_argument("--out", required=True, metavar="FILE.html",
                   help="the page; the CSV tables are written beside it")
    tls_options(r)
    r.set_defaults(handler=functools.partial(cmd_report, connect=connect,
                                             check_dsn=check_dsn))
