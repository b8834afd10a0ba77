"""Fleet commands: ``kiosk fleet init`` and ``kiosk fleet add-kiosk`` (at the office,
against the central database), ``kiosk sync`` (on the kiosk, one pass; the systemd timer
runs it). Every failure is one line on stderr: status 2 for a mistake in what was asked,
1 for a pass or a server that failed."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

ORDER = 45


def _connect_admin(dsn: str):
    import psycopg

    from kiosk.fleet.connect import FleetError, describe

    try:
        return psycopg.connect(dsn, connect_timeout=15)
    except psycopg.Error as err:
        raise FleetError(describe(err, "cannot connect to the central database: ")) from None


def _failed(message: str) -> int:
    print(f"kiosk: {message}", file=sys.stderr)
    return 1


def _check_dsn(dsn: str) -> None:
    import psycopg

    from kiosk.commands.cli import UsageError

    try:
        psycopg.conninfo.conninfo_to_dict(dsn)
    except psycopg.ProgrammingError as err:
        raise UsageError(f"--dsn: not a connection string ({' '.join(str(err).split())})"
                         ) from None


def cmd_init(args: argparse.Namespace) -> int:
    from kiosk.fleet import central
    from kiosk.fleet.connect import FleetError, describe

    _check_dsn(args.dsn)
    try:
        with _connect_admin(args.dsn) as conn:
            before, after = central.migrate(conn)
    except FleetError as err:
        return _failed(str(err))
    except Exception as err:  # noqa: BLE001 - psycopg errors: one line
        return _failed(describe(err, "fleet init: "))
    if before == after:
        print(f"central schema is at version {after}; nothing to do")
    else:
        print(f"central schema migrated from version {before} to {after}")
    return 0


def cmd_add_kiosk(args: argparse.Namespace) -> int:
    import psycopg

    from kiosk.commands.cli import UsageError
    from kiosk.fleet import central
    from kiosk.fleet.connect import FleetError, describe
    from kiosk.platform.atomicfile import write_atomic

    if not central.NAME_PATTERN.fullmatch(args.name):
        raise UsageError(f"{args.name!r} is not a kiosk name (1 to 40 of a-z, 0-9 and _, "
                         "starting with a letter or digit)")
    if args.secret_out and not Path(args.secret_out).parent.is_dir():
        raise UsageError(f"--secret-out: no directory {Path(args.secret_out).parent}")
    _check_dsn(args.dsn)
    params = psycopg.conninfo.conninfo_to_dict(args.dsn)
    try:
        with _connect_admin(args.dsn) as conn:
            secret = central.add_kiosk(conn, args.name)
            dbname = conn.info.dbname
    except FleetError as err:
        return _failed(str(err))
    except Exception as err:  # noqa: BLE001
        return _failed(describe(err, "fleet add-kiosk: "))
    host = args.server or str(params.get("host") or "localhost")
    port = args.port or int(params.get("port") or 5432)
    print(f"# config.toml of kiosk {args.name}")
    sys.stdout.write(central.config_section(host=host, port=port, dbname=dbname,
                                            name=args.name, ca_file=args.ca_file))
    if args.secret_out:
        write_atomic(Path(args.secret_out), secret + "\n", mode=0o600)
        print(f"# the password is in {args.secret_out} (mode 0600): copy it to the kiosk's "
              "/var/lib/solitaire-kiosk/fleet.secret, owned by root, mode 0600")
    else:
        print("# the password, for the kiosk's /var/lib/solitaire-kiosk/fleet.secret "
              "(root, mode 0600):")
        print(f"# {secret}")
    return 0


def cmd_sync(args: argparse.Namespace) -> int:
    from kiosk.fleet.connect import FleetError
    from kiosk.fleet.sync import run_pass
    from kiosk.settings import config

    cfg = config.load(args.config, fallback=True)
    from kiosk.fleet.status_panel import clear_request

    clear_request(cfg.existing_db_path().parent)  # "Sync now" asked: this is the pass
    if args.configured:  # systemd's ExecCondition: 0 runs the pass, 1 skips it quietly
        return 0 if cfg.fleet is not None else 1
    if cfg.fleet is None:
        print("kiosk sync: no [fleet] section in the configuration; nothing to do "
              "(no connection made)")
        return 0
    try:
        os.nice(10)  # the game comes first
    except OSError:
        pass
    try:
        result = run_pass(cfg)
    except FleetError as err:
        return _failed(f"sync: {err}")
    if result.skipped:
        print(f"kiosk sync: {result.skipped}")
        return 0
    print(f"kiosk sync: sent {result.plays} plays, {result.moves} moves, {result.events} "
          f"events in {result.batches} batches")
    return 0


def add(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("fleet", help="the central database of a fleet of kiosks (at the office)")
    fsub = p.add_subparsers(dest="fleet_command", metavar="ACTION", parser_class=type(p))
    fsub.required = True
    i = fsub.add_parser("init", help="create or migrate the central schema")
    i.add_argument("--dsn", required=True, help="PostgreSQL connection string of an owner "
                   "of the database (e.g. 'host=db.example.org dbname=solitaire_fleet "
                   "user=fleet_admin')")
    i.set_defaults(handler=cmd_init)
    a = fsub.add_parser("add-kiosk", help="create a kiosk's role and print its [fleet] section")
    a.add_argument("name", help="the kiosk's name in the fleet (a-z, 0-9, _)")
    a.add_argument("--dsn", required=True, help="as for init")
    a.add_argument("--server", help="host name the kiosk reaches the server by "
                   "(default: the DSN's host)")
    a.add_argument("--port", type=int, help="port the kiosk uses (default: the DSN's)")
    a.add_argument("--ca-file", default="/etc/solitaire-kiosk/fleet-ca.pem",
                   help="where the kiosk keeps the CA certificate (printed into the section)")
    a.add_argument("--secret-out", metavar="FILE",
                   help="write the password to FILE (mode 0600) instead of printing it")
    a.set_defaults(handler=cmd_add_kiosk)

    s = sub.add_parser("sync", help="send the play log to the fleet's central database "
                       "(one pass)")
    s.add_argument("--config", metavar="PATH", help="configuration file")
    s.add_argument("--configured", action="store_true",
                   help="only say (exit 0 or 1) whether the configuration has a [fleet] section")
    s.set_defaults(handler=cmd_sync)
