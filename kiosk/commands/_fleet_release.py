"""``kiosk fleet release``: updates from the centre, at the office (docs/updates.md, "From
the centre"). Its arguments and handler live here; :mod:`.fleet` registers them with
:func:`add` and hands over its way of connecting, so that every fleet command connects the
same way.

    kiosk fleet release URL --dsn DSN [--group G | --kiosk NAME]   record a release
    kiosk fleet release --list --dsn DSN                           the releases, their rollout
    kiosk fleet release --halt VERSION --dsn DSN                   no kiosk starts it
    kiosk fleet release --resume VERSION --dsn DSN                 go on (after a rollback)

A release's size, sha256 and version come from the bundle: fetched once from the URL, read
from a local copy (``--file``), or given (``--sha256``, ``--size`` and ``--version``). Every
mistake is one line and status 2; a server that fails, 1.
"""

from __future__ import annotations

import argparse
import functools
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ._argtypes import whole


def _failed(err: Any) -> int:
    print(f"kiosk: {err}", file=sys.stderr)
    return 2 if getattr(err, "kind", None) == "config" else 1


def cmd_release(args: argparse.Namespace, *, connect: Callable[[Any], Any],
                check_dsn: Callable[[str], None]) -> int:
    from kiosk.commands.cli import UsageError
    from kiosk.fleet import central, releases
    from kiosk.fleet.connect import FleetError, describe

    asked = [x for x in ("url", "list", "halt", "resume") if getattr(args, x)]
    if len(asked) != 1:
        raise UsageError("fleet release: give the bundle's URL, or one of --list, --halt "
                         "VERSION, --resume VERSION")
    if not args.url and (args.group or args.kiosk or args.sha256 or args.size
                         or args.version or args.file or args.keyring):
        raise UsageError("fleet release: --group, --kiosk, --sha256, --size, --version, "
                         "--file and --keyring go with a bundle's URL")
    scope, target = "all", None
    if args.group:
        if not central.NAME_PATTERN.fullmatch(args.group):
            raise UsageError(f"--group: {args.group!r} is not a group name (1 to 40 of a-z, "
                             "0-9, - and _, starting and ending with a letter or digit)")
        scope, target = "group", args.group
    elif args.kiosk:
        try:
            scope, target = "kiosk", central.check_name(args.kiosk)
        except FleetError as err:
            raise UsageError(f"--kiosk: {err}") from None
    for name in ("file", "keyring", "ca_file"):
        path = getattr(args, name)
        if path is not None and not Path(path).is_file():
            raise UsageError(f"--{name.replace('_', '-')}: no such file {path}")
    try:
        if args.halt:
            releases.check_version_text(args.halt)
        if args.resume:
            releases.check_version_text(args.resume)
        bundle = None
        if args.url:
            check_dsn(args.dsn)
            bundle = releases.describe(
                args.url, file=Path(args.file) if args.file else None, sha256=args.sha256,
                size=args.size, version=args.version,
                keyring=Path(args.keyring) if args.keyring else None,
                ca_file=Path(args.ca_file) if args.ca_file else None,
                say=lambda line: print(f"kiosk fleet release: {line}", file=sys.stderr))
    except FleetError as err:
        raise UsageError(str(err)) from None
    check_dsn(args.dsn)
    try:
        with connect(args) as conn:
            central.check_version(conn)
            if bundle is not None:
                return _record(conn, bundle, scope, target)
            if args.halt:
                done = releases.halt(conn, args.halt)
                print(f"version {args.halt} is halted: no kiosk starts to fetch or install it "
                      f"until `kiosk fleet release --resume {args.halt}`" if done else
                      f"version {args.halt} was halted already")
                return 0
            if args.resume:
                lifted, seen = releases.resume(conn, args.resume)
                print(f"version {args.resume}: " + (
                    "resumed; the kiosks it was released to fetch and install it again at "
                    "their next sync" if lifted else "was not halted")
                    + (f"; {seen} rollback{'s' if seen != 1 else ''} marked as seen (a kiosk "
                       "that rolled back does not try it again unless released to it alone)"
                       if seen else ""))
                return 0
            for line in _progress_lines(releases.progress(conn, args.limit),
                                        releases.halts(conn)):
                print(line)
            return 0
    except FleetError as err:
        return _failed(err)
    except Exception as err:  # noqa: BLE001 - psycopg errors: one line
        return _failed(describe(err, "fleet release: "))


def _record(conn: Any, bundle: Any, scope: str, target: str | None) -> int:
    from kiosk.fleet import releases
    from kiosk.fleet.settings_store import group_members

    if scope == "group" and target is not None and not group_members(conn, target):
        print(f"kiosk: warning: no kiosk is in group {target!r} yet (`kiosk fleet group NAME "
              "GROUP`)", file=sys.stderr)
    release_id = releases.record(conn, bundle, scope, target)
    halted = {h.version for h in releases.halts(conn)}
    print(f"release {release_id}: version {bundle.version} for "
          f"{releases.describe_target(scope, target)} ({bundle.size:,} bytes, sha256 "
          f"{bundle.sha256}); the kiosks fetch it at their next sync")
    if bundle.version in halted:
        print(f"kiosk: warning: version {bundle.version} is halted: no kiosk fetches it "
              f"until `kiosk fleet release --resume {bundle.version}`", file=sys.stderr)
    return 0


def _progress_lines(rows: list[Any], halts: list[Any]) -> list[str]:
    from kiosk.fleet import releases

    lines = [f"HALTED {h.version} since {h.halted:%Y-%m-%d %H:%M %Z}: "
             + (f"rolled back on {h.kiosk} (release {h.release_id}): " if h.kiosk else "")
             + f"{h.reason}; go on with `kiosk fleet release --resume {h.version}`"
             for h in halts]
    for r in rows:
        parts = [f"{r.running} run it"]
        for count, what in ((r.installing, "installing or waiting to restart"),
                            (r.downloading, "downloading"), (r.rolled_back, "ROLLED BACK"),
                            (r.failed, "FAILED"), (r.waiting, "not started")):
            if count:
                parts.append(f"{count} {what}")
        lines.append(f"release {r.id}: {r.version} for "
                     f"{releases.describe_target(r.scope, r.target)}, "
                     f"{r.created:%Y-%m-%d %H:%M %Z}"
                     + (" (HALTED)" if r.halted else "")
                     + (f": wanted by {r.kiosks} kiosk{'s' if r.kiosks != 1 else ''}: "
                        + ", ".join(parts) if r.kiosks else ": no kiosk wants it now (a "
                        "newer release reaches them, or none is in its group)"))
    if not rows:
        lines.append("no releases yet (`kiosk fleet release URL --dsn ... --group canary`)")
    return lines


def add(fsub: argparse._SubParsersAction, connect: Callable[[Any], Any],
        check_dsn: Callable[[str], None],
        tls_options: Callable[[argparse.ArgumentParser], None]) -> None:
    """``release`` among the actions of ``kiosk fleet``; ``tls_options`` adds the fleet
    commands' shared TLS options (one definition, in :mod:`.fleet`)."""
    r = fsub.add_parser("release", help="updates from the centre: record the version the "
                        "kiosks should run (URL of a signed bundle), --list the rollout, "
                        "--halt or --resume a version")
    r.add_argument("url", nargs="?", metavar="BUNDLE_URL",
                   help="http:// or https:// URL of the .raucb bundle on any static web "
                   "server the kiosks reach")
    r.add_argument("--dsn", required=True, help="as for init (--list: or a member of "
                   "fleet_report)")
    who = r.add_mutually_exclusive_group()
    who.add_argument("--group", metavar="G", help="for the kiosks of group G (a staged "
                     "rollout: a canary group first; default: every kiosk)")
    who.add_argument("--kiosk", metavar="NAME", help="for one kiosk (also: to ask a kiosk "
                     "that rolled the version back to try it once more)")
    r.add_argument("--file", metavar="PATH", help="a local copy of the bundle to read its "
                   "size, sha256 and version from (instead of fetching the URL once)")
    r.add_argument("--sha256", metavar="HEX", help="the bundle's sha256 (with --size and "
                   "--version: nothing is fetched or read)")
    r.add_argument("--size", type=whole(1), metavar="BYTES", help="the bundle's size")
    r.add_argument("--version", metavar="VERSION", help="the bundle's version "
                   "(APP+YYYYMMDD.HHMMSS)")
    r.add_argument("--keyring", metavar="CA.pem", help="check the bundle's signature as a "
                   "kiosk of this keyring would before recording it")
    r.add_argument("--ca-file", metavar="PEM", help="the CA of an https URL's server, for "
                   "fetching it here")
    action = r.add_mutually_exclusive_group()
    action.add_argument("--list", action="store_true", help="the newest releases and where "
                        "their kiosks are; halted versions first")
    action.add_argument("--halt", metavar="VERSION", help="stop a version: no kiosk starts "
                        "to fetch or install it")
    action.add_argument("--resume", metavar="VERSION", help="go on with a halted version "
                        "(after a rollback: the office has looked)")
    r.add_argument("--limit", type=whole(1, 1000), default=20, metavar="N",
                   help="--list: this many releases (default 20)")
    tls_options(r)
    r.set_defaults(handler=functools.partial(cmd_release, connect=connect,
                                             check_dsn=check_dsn))
