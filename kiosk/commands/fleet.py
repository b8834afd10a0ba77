"""Fleet commands: ``kiosk fleet init``, ``add-kiosk``, ``group``, ``status``,
``settings set/show`` and ``report`` (at the office, against the central database),
``kiosk sync`` (on the kiosk, one pass; the systemd timer runs it). Every failure is one
line on stderr: status 2 for a mistake in what was asked, 1 for a pass or a server that
failed. ``fleet status`` alone uses 1 for "some kiosk needs a person" (docs/fleet.md)."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from . import _fleet_report
from ._actions import with_actions

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
    group = _group_name(args.group) if args.group else None
    if args.secret_out and not Path(args.secret_out).parent.is_dir():
        raise UsageError(f"--secret-out: no directory {Path(args.secret_out).parent}")
    _check_dsn(args.dsn)
    params = psycopg.conninfo.conninfo_to_dict(args.dsn)
    try:
        with _connect_admin(args.dsn) as conn:
            secret = central.add_kiosk(conn, args.name)
            if group:
                from kiosk.fleet import settings_store

                settings_store.set_group(conn, args.name, group)
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


def _group_name(value: str) -> str:
    from kiosk.commands.cli import UsageError
    from kiosk.fleet import central

    if not central.NAME_PATTERN.fullmatch(value):
        raise UsageError(f"{value!r} is not a group name (1 to 40 of a-z, 0-9 and _, "
                         "starting with a letter or digit)")
    return value


def cmd_group(args: argparse.Namespace) -> int:
    from kiosk.fleet import settings_store
    from kiosk.fleet.connect import FleetError, describe

    group = None if args.group == "-" else _group_name(args.group)
    _check_dsn(args.dsn)
    try:
        with _connect_admin(args.dsn) as conn:
            settings_store.set_group(conn, args.name, group)
    except FleetError as err:
        return _failed(str(err))
    except Exception as err:  # noqa: BLE001
        return _failed(describe(err, "fleet group: "))
    print(f"kiosk {args.name}: " + (f"in group {group}" if group else "in no group"))
    return 0


def cmd_status(args: argparse.Namespace) -> int:
    from kiosk.commands.cli import UsageError
    from kiosk.fleet import health
    from kiosk.fleet.connect import FleetError, describe

    if not 0.5 <= args.interval <= 24 * 60:
        raise UsageError(f"--interval: {args.interval:g} is not a number of minutes "
                         "between 0.5 and 1440")
    _check_dsn(args.dsn)
    try:
        with _connect_admin(args.dsn) as conn:
            kiosks = health.assess(conn, interval_min=args.interval, remember=not args.peek)
            now = conn.execute("SELECT now()").fetchone()[0]
    except FleetError as err:
        print(f"kiosk: {err}", file=sys.stderr)
        return 2
    except Exception as err:  # noqa: BLE001
        print(f"kiosk: {describe(err, 'fleet status: ')}", file=sys.stderr)
        return 2
    for line in health.format_table(kiosks, now):
        print(line)
    return 1 if any(h.needs_person for h in kiosks) else 0


def cmd_settings_set(args: argparse.Namespace) -> int:
    from kiosk.commands.cli import UsageError
    from kiosk.fleet import centre_settings, settings_store
    from kiosk.fleet.connect import FleetError, describe
    from kiosk.platform import readfile

    if args.all:
        scope, target = "all", None
    elif args.group:
        scope, target = "group", _group_name(args.group)
    else:
        scope, target = "kiosk", args.kiosk
    try:
        text = readfile.decode(readfile.read_bytes(Path(args.file),
                                                   centre_settings.MAX_BYTES), args.file)
    except readfile.ReadError as err:
        raise UsageError(str(err)) from None
    _data, problems = centre_settings.check(text, args.file)
    if problems:
        for problem in problems:
            print(f"kiosk: {problem}", file=sys.stderr)
        print(f"kiosk: {args.file}: not stored ({len(problems)} problem"
              f"{'s' if len(problems) != 1 else ''})", file=sys.stderr)
        return 2
    _check_dsn(args.dsn)
    try:
        with _connect_admin(args.dsn) as conn:
            if scope == "group" and target is not None \
                    and not settings_store.group_members(conn, target):
                print(f"kiosk: warning: no kiosk is in group {target!r} yet "
                      "(`kiosk fleet group NAME GROUP`)", file=sys.stderr)
            version = settings_store.store(conn, scope, target, text)
    except FleetError as err:
        print(f"kiosk: {err}", file=sys.stderr)
        return 2
    except Exception as err:  # noqa: BLE001
        return _failed(describe(err, "fleet settings set: "))
    where = {"all": "all kiosks", "group": f"group {target}", "kiosk": f"kiosk {target}"}
    print(f"stored as settings version {version} for {where[scope]}; the kiosks take it at "
          "their next sync")
    return 0


def cmd_settings_show(args: argparse.Namespace) -> int:
    from kiosk.fleet import settings_store
    from kiosk.fleet.connect import FleetError, describe

    _check_dsn(args.dsn)
    try:
        with _connect_admin(args.dsn) as conn:
            kiosks = settings_store.overview(conn)
            stored = settings_store.versions(conn) if args.versions else []
    except FleetError as err:
        return _failed(str(err))
    except Exception as err:  # noqa: BLE001
        return _failed(describe(err, "fleet settings show: "))
    for k in kiosks:
        should = f"should have v{k.should} ({k.layers})" if k.should else "should have none"
        has = f"has v{k.has}" if k.has else "has none"
        group = f" [{k.group}]" if k.group else ""
        print(f"{k.name}{group}: {should}; {has}; {k.state}")
    if not kiosks:
        print("no kiosks in the central database (`kiosk fleet add-kiosk`)")
    for version, scope, target, created, text in stored:
        print(f"\n# version {version}, {scope}{' ' + target if target else ''}, "
              f"{created:%Y-%m-%d %H:%M %Z}")
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
    return 0


def cmd_exporter(args: argparse.Namespace) -> int:
    from kiosk.fleet import exporter
    from kiosk.settings import config

    cfg = config.load(args.config, fallback=True)
    argv = exporter.command(cfg)
    if args.configured:  # systemd's ExecCondition: 0 runs the exporter, 1 skips it quietly
        return 0 if argv is not None else 1
    if argv is None:
        print("kiosk fleet exporter: no [fleet] node_exporter_port in the configuration; "
              "the node exporter stays off")
        return 0
    if args.print:
        print(" ".join(argv))
        return 0
    try:
        os.execv(argv[0], argv)
    except OSError as err:
        return _failed(f"fleet exporter: cannot start {argv[0]}: {err.strerror or err} "
                       "(Debian package prometheus-node-exporter)")
    return 1  # pragma: no cover - execv does not return


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
    p, fsub = with_actions(sub, "fleet", "the central database of a fleet of kiosks (at the "
                           "office)", "fleet_command")
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
    a.add_argument("--group", help="put the kiosk in this group (for `fleet settings set "
                   "--group`)")
    a.set_defaults(handler=cmd_add_kiosk)

    g = fsub.add_parser("group", help="put a kiosk in a group ('-': in none)")
    g.add_argument("name", help="the kiosk's name in the fleet")
    g.add_argument("group", help="the group's name (a-z, 0-9, _), or - for none")
    g.add_argument("--dsn", required=True, help="as for init")
    g.set_defaults(handler=cmd_group)

    st = fsub.add_parser("status", help="every kiosk's last heartbeat, those that need a "
                         "person first (exit 0: all fine, 1: some need a person, 2: bad "
                         "input or no server)")
    st.add_argument("--dsn", required=True, help="as for init, or a member of fleet_report")
    st.add_argument("--interval", type=float, default=6.0, metavar="MINUTES",
                    help="the kiosks' sync interval; silent after three (default 6: the "
                    "timer's five minutes and its random minute)")
    st.add_argument("--peek", action="store_true", help="do not remember this look (a "
                    "restart stays new for the next one)")
    st.set_defaults(handler=cmd_status)

    _se, ssub = with_actions(fsub, "settings", "settings from the centre for all kiosks, a "
                             "group or one kiosk", "settings_command")
    ss = ssub.add_parser("set", help="store FILE.toml as a new version of overrides")
    ss.add_argument("--dsn", required=True, help="as for init")
    who = ss.add_mutually_exclusive_group(required=True)
    who.add_argument("--all", action="store_true", help="for every kiosk")
    who.add_argument("--group", metavar="G", help="for the kiosks of group G")
    who.add_argument("--kiosk", metavar="NAME", help="for one kiosk")
    ss.add_argument("file", metavar="FILE.toml", help="the keys to set (docs/fleet.md)")
    ss.set_defaults(handler=cmd_settings_set)
    sh = ssub.add_parser("show", help="what each kiosk should have and has")
    sh.add_argument("--dsn", required=True, help="as for init")
    sh.add_argument("--versions", action="store_true", help="also print the newest stored "
                    "versions")
    sh.set_defaults(handler=cmd_settings_show)

    _fleet_report.add(fsub, _connect_admin, _check_dsn)

    x = fsub.add_parser("exporter", help="run Prometheus' node exporter on the configured "
                        "port (the kiosk's unit runs it; off without [fleet] "
                        "node_exporter_port)")
    x.add_argument("--config", metavar="PATH", help="configuration file")
    x.add_argument("--configured", action="store_true",
                   help="only say (exit 0 or 1) whether the configuration turns it on")
    x.add_argument("--print", action="store_true", help="print its command line, do not run")
    x.set_defaults(handler=cmd_exporter)

    s = sub.add_parser("sync", help="send the play log to the fleet's central database "
                       "(one pass)")
    s.add_argument("--config", metavar="PATH", help="configuration file")
    s.add_argument("--configured", action="store_true",
                   help="only say (exit 0 or 1) whether the configuration has a [fleet] section")
    s.set_defaults(handler=cmd_sync)
