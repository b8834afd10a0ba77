"""Fleet commands: ``kiosk fleet init``, ``add-kiosk``, ``rename``, ``retire``, ``group``,
``status``, ``retention``, ``settings set/show``, ``release`` (:mod:`._fleet_release`) and
``report`` (at the office, against the
central database), ``kiosk sync`` (on the kiosk, one pass; the systemd timer runs it).
Every failure is one line on stderr: status 2 for a mistake in what was asked (a bad name,
DSN or file, a kiosk that is not there), 1 for a pass or a server that failed. ``fleet
status`` alone uses 1 for "some kiosk needs a person" (docs/fleet.md).

The office's connections verify the server as the kiosks do: a DSN that names no
``sslmode`` and a host over the network (not a socket directory, not localhost) gets
``sslmode=verify-full``; ``--no-verify-server`` leaves libpq's default.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from . import _fleet_release, _fleet_report
from ._actions import with_actions
from ._argtypes import whole

ORDER = 45


#: hosts over which TLS verification is not asked for by default: this machine
_LOCAL_HOSTS = ("localhost", "127.0.0.1", "::1")


def _network_host(host: str) -> bool:
    host = host.strip()
    return bool(host) and not host.startswith(("/", "@")) and host not in _LOCAL_HOSTS \
        and not host.startswith("127.")


def admin_dsn(dsn: str, verify: bool = True) -> str:
    """``dsn`` with ``sslmode=verify-full`` when it names no sslmode and reaches a host
    over the network (the rule of docs/fleet.md); as it is otherwise."""
    import psycopg

    params = psycopg.conninfo.conninfo_to_dict(dsn)
    if not verify or "sslmode" in params:
        return dsn
    hosts = str(params.get("host") or os.environ.get("PGHOST") or "").split(",")
    if any(_network_host(h) for h in hosts) or (params.get("hostaddr") and not any(
            h.strip() for h in hosts)):
        return psycopg.conninfo.make_conninfo(dsn, sslmode="verify-full")
    return dsn


def _connect_admin(args: argparse.Namespace | str):
    """A connection for an office command (``args``: its arguments, or a DSN alone)."""
    import psycopg

    from kiosk.fleet.connect import FleetError, connect_error

    if isinstance(args, str):
        args = argparse.Namespace(dsn=args)
    dsn = admin_dsn(args.dsn, verify=not getattr(args, "no_verify_server", False))
    try:
        return psycopg.connect(dsn, connect_timeout=15)
    except psycopg.Error as err:
        error = connect_error(err, None, "cannot connect to the central database: ")
        if error.kind == "tls-untrusted" and "sslmode=verify-full" in dsn \
                and "sslmode" not in args.dsn:
            error = FleetError(f"{error} (the DSN names no sslmode, so the server is "
                               "verified: add sslrootcert=CA.pem to the DSN, or "
                               "--no-verify-server on a closed network)", error.kind)
        raise error from None
    except UnicodeError as err:
        raise FleetError(f"cannot connect to the central database: the DSN's host is not a "
                         f"host name ({err})", "config") from None


def _failed(message: object) -> int:
    """One line; status 2 when the mistake is in what was asked (a FleetError of kind
    config), 1 when a server or a pass failed."""
    print(f"kiosk: {message}", file=sys.stderr)
    return 2 if getattr(message, "kind", None) == "config" else 1


def _host_problem(host: str) -> str | None:
    """Why ``host`` is no host name: the resolver would fail with an idna codec message."""
    if host.startswith(("/", "@")) or not host:
        return None
    short = host if len(host) <= 40 else host[:37] + "..."
    if len(host) > 253:
        return f"host {short!r} is not a host name (longer than 253 characters)"
    if any(len(label) > 63 for label in host.rstrip(".").split(".")):
        return f"host {short!r} is not a host name (a part longer than 63 characters)"
    if ".." in host:
        return f"host {short!r} is not a host name (an empty part)"
    return None


def _office(args: argparse.Namespace, what: str, action: Callable[[Any], Any]
            ) -> tuple[int, Any]:
    """Run ``action(connection)`` for an office command: (0, its result), or (the exit
    status, None) after the one line that says what failed."""
    from kiosk.fleet.connect import FleetError, describe

    _check_dsn(args.dsn)
    try:
        with _connect_admin(args) as conn:
            return 0, action(conn)
    except FleetError as err:
        return _failed(err), None
    except Exception as err:  # noqa: BLE001 - psycopg errors: one line
        return _failed(describe(err, f"fleet {what}: ")), None


def _check_dsn(dsn: str) -> None:
    import psycopg

    from kiosk.commands.cli import UsageError

    if not dsn.strip():
        raise UsageError("--dsn: empty; give the connection string of the central database "
                         "(e.g. 'host=db.example.org dbname=solitaire_fleet user=fleet_admin')")
    try:
        params = psycopg.conninfo.conninfo_to_dict(dsn)
    except psycopg.ProgrammingError as err:
        raise UsageError(f"--dsn: not a connection string ({' '.join(str(err).split())})"
                         ) from None
    for host in str(params.get("host") or "").split(","):
        why = _host_problem(host.strip())
        if why:
            raise UsageError(f"--dsn: {why}")
    port = str(params.get("port") or "")
    for p in port.split(","):
        if p and not (p.isascii() and p.isdigit() and 1 <= int(p) <= 65535):
            raise UsageError(f"--dsn: port {p!r} is not a port (1 to 65535)")


def cmd_init(args: argparse.Namespace) -> int:
    from kiosk.fleet import central
    from kiosk.fleet.connect import FleetError, describe

    _check_dsn(args.dsn)
    try:
        with _connect_admin(args) as conn:
            before, after = central.migrate(conn)
            others = central.open_databases(conn)
    except FleetError as err:
        return _failed(err)
    except Exception as err:  # noqa: BLE001 - psycopg errors: one line
        return _failed(describe(err, "fleet init: "))
    if before == after:
        print(f"central schema is at version {after}; nothing to do")
    else:
        print(f"central schema migrated from version {before} to {after}")
    if others:
        print(f"kiosk: warning: every role may still connect to {', '.join(others)} on this "
              "server; a superuser closes them: REVOKE CONNECT ON DATABASE "
              f"{others[0]} FROM PUBLIC (docs/fleet.md, step 1)", file=sys.stderr)
    return 0


def _kiosk_name(value: str, what: str = "kiosk name") -> str:
    from kiosk.commands.cli import UsageError
    from kiosk.fleet import central
    from kiosk.fleet.connect import FleetError

    try:
        return central.check_name(value, what)
    except FleetError as err:
        raise UsageError(str(err)) from None


def cmd_add_kiosk(args: argparse.Namespace) -> int:
    import psycopg

    from kiosk.commands.cli import UsageError
    from kiosk.fleet import central
    from kiosk.fleet.connect import FleetError, describe
    from kiosk.platform.atomicfile import write_atomic

    name = _kiosk_name(args.name)
    group = _group_name(args.group) if args.group else None
    if args.secret_out and not Path(args.secret_out).parent.is_dir():
        raise UsageError(f"--secret-out: no directory {Path(args.secret_out).parent}")
    if args.server is not None:
        why = _host_problem(args.server) or ("" if args.server.strip() else "empty")
        if why:
            raise UsageError(f"--server: {why}")
    _check_dsn(args.dsn)
    params = psycopg.conninfo.conninfo_to_dict(args.dsn)
    try:
        with _connect_admin(args) as conn:
            added = central.add_kiosk(conn, name)
            if group:
                from kiosk.fleet import settings_store

                settings_store.set_group(conn, name, group)
            dbname = conn.info.dbname
    except FleetError as err:
        return _failed(err)
    except Exception as err:  # noqa: BLE001
        return _failed(describe(err, "fleet add-kiosk: "))
    host = args.server or str(params.get("host") or "localhost")
    port = args.port or int(str(params.get("port") or 5432).split(",")[0])
    said = {"new": "a new kiosk",
            "rotated": "a new password; the old one no longer works",
            "back": "it had been retired; it is back with a new role and password"}
    print(f"# config.toml of kiosk {name} ({said[added.state]})")
    sys.stdout.write(central.config_section(host=host, port=port, dbname=dbname,
                                            role=added.role, ca_file=args.ca_file))
    if args.secret_out:
        write_atomic(Path(args.secret_out), added.password + "\n", mode=0o600)
        print(f"# the password is in {args.secret_out} (mode 0600): copy it to the kiosk's "
              "/var/lib/solitaire-kiosk/fleet.secret, owned by root, mode 0600")
    else:
        print("# the password, for the kiosk's /var/lib/solitaire-kiosk/fleet.secret "
              "(root, mode 0600):")
        print(f"# {added.password}")
    return 0


def cmd_rename(args: argparse.Namespace) -> int:
    from kiosk.fleet import central

    old, new = _kiosk_name(args.old), _kiosk_name(args.new)
    code, _ = _office(args, "rename", lambda conn: central.rename(conn, old, new))
    if code:
        return code
    print(f"kiosk {old} is now {new} in every central row; nothing changes on the kiosk "
          "(its role and password stay)")
    return 0


def cmd_retire(args: argparse.Namespace) -> int:
    from kiosk.fleet import central

    name = _kiosk_name(args.name)
    code, role = _office(args, "retire", lambda conn: central.retire(conn, name))
    if code:
        return code
    print(f"kiosk {name} is retired: its role {role} is gone, its rows stay; `fleet status` "
          "no longer lists it (`kiosk fleet add-kiosk` brings it back)")
    return 0


def cmd_retention(args: argparse.Namespace) -> int:
    from kiosk.fleet import central

    def retention(conn: Any) -> int:
        central.check_version(conn)
        return central.set_heartbeat_days(conn, args.heartbeat_days)

    code, days = _office(args, "retention", retention)
    if code:
        return code
    print("heartbeats are kept " + (f"{days} days (each kiosk's newest one always)" if days
                                    else "for ever"))
    return 0


def _group_name(value: str) -> str:
    from kiosk.commands.cli import UsageError
    from kiosk.fleet import central

    if not central.NAME_PATTERN.fullmatch(value):
        raise UsageError(f"{value!r} is not a group name (1 to 40 of a-z, 0-9, - and _, "
                         "starting and ending with a letter or digit)")
    return value


def cmd_group(args: argparse.Namespace) -> int:
    from kiosk.fleet import settings_store

    name = _kiosk_name(args.name)
    group = None if args.group == "-" else _group_name(args.group)
    code, _ = _office(args, "group", lambda conn: settings_store.set_group(conn, name, group))
    if code:
        return code
    print(f"kiosk {name}: " + (f"in group {group}" if group else "in no group"))
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
        with _connect_admin(args) as conn:
            kiosks = health.assess(conn, interval_min=args.interval, remember=not args.peek)
            from kiosk.fleet.releases import halts

            halted = halts(conn)
    except FleetError as err:
        print(f"kiosk: {err}", file=sys.stderr)
        return 2
    except Exception as err:  # noqa: BLE001
        print(f"kiosk: {describe(err, 'fleet status: ')}", file=sys.stderr)
        return 2
    now = kiosks[0].seen_at if kiosks else None
    for line in health.format_table(kiosks, now, halted):
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
        with _connect_admin(args) as conn:
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
        with _connect_admin(args) as conn:
            kiosks = settings_store.overview(conn)
            stored = settings_store.versions(conn) if args.versions else []
    except FleetError as err:
        return _failed(err)
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


def _config_unusable(cfg, asked: bool) -> str | None:
    """Why the sync cannot take this configuration at all (a file named but missing, a file
    that does not parse, a [fleet] section without its server or user), or None."""
    if cfg.broken_file is not None or (asked and cfg.path is None):
        return cfg.problems[0] if cfg.problems else "the configuration cannot be read"
    fleet_problems = [p for p in cfg.problems if ": fleet: " in p or ": fleet." in p]
    if cfg.fleet is None and fleet_problems:
        return fleet_problems[0]
    return None


def cmd_sync(args: argparse.Namespace) -> int:
    from kiosk.fleet import state
    from kiosk.fleet.connect import FleetError
    from kiosk.fleet.sync import run_pass
    from kiosk.settings import config

    _file, asked = config.config_path(args.config)
    cfg = config.load(args.config, fallback=False)
    from kiosk.fleet.status_panel import clear_request

    data_dir = cfg.existing_db_path().parent
    clear_request(data_dir)  # "Sync now" asked: this is the pass
    unusable = _config_unusable(cfg, asked)
    if args.configured:  # systemd's ExecCondition: 0 runs the pass, 1 skips it quietly
        # a broken configuration runs the pass, which fails loudly (status 2, the journal)
        return 0 if cfg.fleet is not None or unusable else 1
    if unusable:
        if data_dir.is_dir():
            status = state.load_status(data_dir)
            status.last_attempt, status.last_error = None, f"configuration: {unusable}"
            status.last_error_kind = "config"
            try:
                state.save_status(data_dir, status)
            except OSError:
                pass
        print(f"kiosk: sync: {unusable}", file=sys.stderr)
        return 2
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
        print(f"kiosk: sync: {err}", file=sys.stderr)
        return 2 if err.bad_input else 1
    if result.skipped:
        print(f"kiosk sync: {result.skipped}")
        return 0
    for warning in result.warnings:
        print(f"kiosk: sync: warning: {warning}", file=sys.stderr)
    aside = f", set aside {result.set_aside} rows the centre refused" if result.set_aside \
        else ""
    print(f"kiosk sync: sent {result.plays} plays, {result.moves} moves, {result.events} "
          f"events in {result.batches} batches{aside}")
    if result.update is not None:
        from kiosk.updates.centre import summary

        line = summary(result.update)
        if line:
            print(f"kiosk sync: {line}")
    return 0


def _verify(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--no-verify-server", action="store_true",
                        help="do not add sslmode=verify-full to a DSN that names no sslmode "
                        "(a closed network; docs/fleet.md)")


def add(sub: argparse._SubParsersAction) -> None:
    p, fsub = with_actions(sub, "fleet", "the central database of a fleet of kiosks (at the "
                           "office)", "fleet_command")
    i = fsub.add_parser("init", help="create or migrate the central schema")
    i.add_argument("--dsn", required=True, help="PostgreSQL connection string of an owner "
                   "of the database (e.g. 'host=db.example.org dbname=solitaire_fleet "
                   "user=fleet_admin')")
    _verify(i)
    i.set_defaults(handler=cmd_init)
    a = fsub.add_parser("add-kiosk", help="create a kiosk's role and print its [fleet] "
                        "section; again for the same name: a new password")
    a.add_argument("name", help="the kiosk's name in the fleet, as hosts are named "
                   "(letters, digits, hyphens: lobby-1)")
    a.add_argument("--dsn", required=True, help="as for init")
    a.add_argument("--server", help="host name the kiosk reaches the server by "
                   "(default: the DSN's host)")
    a.add_argument("--port", type=whole(1, 65_535), help="port the kiosk uses (default: "
                   "the DSN's)")
    a.add_argument("--ca-file", default="/etc/solitaire-kiosk/fleet-ca.pem",
                   help="where the kiosk keeps the CA certificate (printed into the section)")
    a.add_argument("--secret-out", metavar="FILE",
                   help="write the password to FILE (mode 0600) instead of printing it")
    a.add_argument("--group", help="put the kiosk in this group (for `fleet settings set "
                   "--group`)")
    _verify(a)
    a.set_defaults(handler=cmd_add_kiosk)

    rn = fsub.add_parser("rename", help="give a kiosk another name in every central row "
                         "(nothing changes on the kiosk)")
    rn.add_argument("old", help="its name now")
    rn.add_argument("new", help="its new name (letters, digits, hyphens)")
    rn.add_argument("--dsn", required=True, help="as for init")
    _verify(rn)
    rn.set_defaults(handler=cmd_rename)

    rt = fsub.add_parser("retire", help="take a kiosk out of the fleet: its role goes, its "
                         "rows stay, `fleet status` no longer lists it")
    rt.add_argument("name", help="the kiosk's name in the fleet")
    rt.add_argument("--dsn", required=True, help="as for init")
    _verify(rt)
    rt.set_defaults(handler=cmd_retire)

    re_ = fsub.add_parser("retention", help="how long heartbeats are kept (shows it; "
                          "--heartbeat-days changes it)")
    re_.add_argument("--dsn", required=True, help="as for init")
    re_.add_argument("--heartbeat-days", type=whole(0, 36_500), metavar="DAYS",
                     help="keep heartbeats this many days (0: for ever; default 14)")
    _verify(re_)
    re_.set_defaults(handler=cmd_retention)

    g = fsub.add_parser("group", help="put a kiosk in a group ('-': in none)")
    g.add_argument("name", help="the kiosk's name in the fleet")
    g.add_argument("group", help="the group's name (a-z, 0-9, _), or - for none")
    g.add_argument("--dsn", required=True, help="as for init")
    _verify(g)
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
    _verify(st)
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
    _verify(ss)
    ss.set_defaults(handler=cmd_settings_set)
    sh = ssub.add_parser("show", help="what each kiosk should have and has")
    sh.add_argument("--dsn", required=True, help="as for init")
    sh.add_argument("--versions", action="store_true", help="also print the newest stored "
                    "versions")
    _verify(sh)
    sh.set_defaults(handler=cmd_settings_show)

    _fleet_report.add(fsub, _connect_admin, _check_dsn, _verify)

    _fleet_release.add(fsub, _connect_admin, _check_dsn, _verify)

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
