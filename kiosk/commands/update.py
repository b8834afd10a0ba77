"""``kiosk update``: the kiosk's system updates (docs/updates.md). On the kiosk::

    kiosk update status [--json]          the running version, the slots, the last update
    kiosk update check BUNDLE [--json]    may it be installed? one line and status 2 if not
    kiosk update install BUNDLE           (root) write it to the other slot, then restart
    kiosk update reboot [--when-quiet]    (root) restart into the installed update
    kiosk update commit [--now]           (root) after a boot on trial: commit when healthy
    kiosk update request install BUNDLE   ask the root unit for an install (what the app does)
    kiosk update request reboot           ... for the restart into it
    kiosk update serve                    (root) do the pending request (the path unit's)

``check`` also runs on an office's computer with ``--keyring CA.pem``. Every refusal or
mistake is one line on stderr, status 2; a failed install is status 1.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from ._actions import with_actions

ORDER = 46


def _paths(args: argparse.Namespace) -> tuple[Path, Path]:
    """The data directory and the USB stick's mount point of the configuration."""
    from kiosk.settings import config

    cfg = config.load(getattr(args, "config", None), fallback=True)
    data, _note = config.resolve_data_dir(cfg.log.data_dir, create=False)
    if getattr(args, "data_dir", None):
        data = Path(args.data_dir)
    return data, Path(cfg.export.usb_mount)


def _need_root(what: str) -> None:
    from kiosk.commands.cli import UsageError

    if os.geteuid() != 0:
        raise UsageError(f"{what} needs root (RAUC writes the card): sudo kiosk update {what}")


def _slots_or_fail():
    from kiosk.commands.cli import UsageError
    from kiosk.updates import slots

    try:
        return slots.describe()
    except slots.SlotError as err:
        raise UsageError(f"not an A/B kiosk image: {err}") from None


def _env_float(name: str, default: float) -> float:
    try:
        return float(os.environ.get(name, default))
    except ValueError:
        return default


def cmd_status(args: argparse.Namespace) -> int:
    from kiosk.updates import slots as slot_mod
    from kiosk.updates import status as status_mod
    from kiosk.updates.version import running_version

    data, _usb = _paths(args)
    s = _slots_or_fail()
    installed = slot_mod.slot_versions(slot_mod.rauc_status())
    running = running_version()
    last = status_mod.load(data)
    if args.json:
        out = {"running_version": running, "booted": s.booted, "committed": s.committed,
               "on_trial": s.on_trial, "next": s.next or None,
               "slots": {name: {"state": s.states.get(name), "version":
                                running if name == s.booted else installed.get(name)}
                         for name in slot_mod.SLOTS},
               "last_update": last.to_json() if last else None}
        json.dump(out, sys.stdout, indent=1)
        sys.stdout.write("\n")
        return 0
    how = "on trial, not committed yet" if s.on_trial else "committed"
    print(f"running: {running or 'unknown version'} (slot {s.booted or '?'}, {how})")
    other = s.other
    print(f"slot {other}: {installed.get(other) or 'no update installed'} "
          f"({s.states.get(other) or '?'})")
    if s.next and s.next != s.booted:
        print(f"next restart: tries slot {s.next} (`sudo kiosk update reboot`)")
    if last:
        print(f"last update: {last.state}: {last.message} ({last.updated})")
    else:
        print("last update: none")
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    from kiosk.commands.cli import UsageError
    from kiosk.updates import bundle as bundles

    conf = None
    compatible = args.compatible
    if args.keyring:
        keyring = Path(args.keyring)
        if not keyring.is_file():
            raise UsageError(f"--keyring: no such file {keyring}")
        compatible = compatible or bundles.system_compatible() or "solitaire-kiosk-rpi-arm64"
        conf = bundles.host_conf(keyring, compatible)
    try:
        info = bundles.check(Path(args.bundle), running=args.running, compatible=compatible,
                             conf=conf)
    except bundles.BundleRefused as err:
        raise UsageError(str(err)) from None
    finally:
        if conf is not None:
            conf.unlink()
    if args.json:
        json.dump(info.to_json(), sys.stdout, indent=1)
        sys.stdout.write("\n")
        return 0
    same = " (the version running now)" if info.relation == "same" else ""
    running = f", running {info.running}" if info.running else ""
    print(f"{info.path.name}: version {info.version}{same}{running}: may be installed")
    return 0


def cmd_install(args: argparse.Namespace) -> int:
    from kiosk.updates import quiet
    from kiosk.updates.install import InstallError, install
    from kiosk.updates.reboot import reboot_into_update
    from kiosk.updates.serve import kiosk_running

    _need_root("install")
    data, _usb = _paths(args)
    try:
        st = install(Path(args.bundle), data, say=print)
    except InstallError as err:
        print(f"kiosk: {err}", file=sys.stderr)
        return 1
    print(st.message)
    if args.reboot == "no":
        print("restart into it with: sudo kiosk update reboot")
        return 0
    if args.reboot in ("when-quiet", "in-window"):
        from functools import partial

        from kiosk.settings import config
        from kiosk.updates.window import open_now

        updates = config.load(getattr(args, "config", None), fallback=True).updates
        window = updates.window if args.reboot == "in-window" else None
        print(f"restarting when nobody has played for {args.quiet_minutes:g} min"
              + (f", between {window} ({updates.time_zone or 'local time'})" if window
                 else ""))
        quiet.wait_for_quiet(kiosk_running, minutes=args.quiet_minutes,
                             allowed=partial(open_now, window, updates.time_zone))
    reboot_into_update(data)
    return 0


def cmd_reboot(args: argparse.Namespace) -> int:
    from kiosk.commands.cli import UsageError
    from kiosk.updates import quiet
    from kiosk.updates.reboot import reboot_command, reboot_into_update
    from kiosk.updates.serve import kiosk_running

    _need_root("reboot")
    data, _usb = _paths(args)
    if reboot_command(_slots_or_fail()) is None:
        raise UsageError("no installed update waits to be tried")
    if args.when_quiet:
        quiet.wait_for_quiet(kiosk_running, minutes=args.quiet_minutes)
    reboot_into_update(data)
    return 0


def cmd_commit(args: argparse.Namespace) -> int:
    from kiosk.updates import commit
    from kiosk.updates.slots import SlotError

    _need_root("commit")
    data, _usb = _paths(args)
    _slots_or_fail()
    healthy = 0.0 if args.now else args.healthy_seconds
    try:
        result = commit.wait_and_commit(data, healthy_seconds=healthy,
                                        deadline_minutes=args.deadline_minutes, say=print)
    except (SlotError, RuntimeError) as err:
        print(f"kiosk: update commit: {err}", file=sys.stderr)
        return 1
    if result == "nothing":
        print("no slot runs on trial: nothing to commit")
    return 0


def cmd_request(args: argparse.Namespace) -> int:
    from kiosk.commands.cli import UsageError
    from kiosk.updates import requests as req_mod

    data, _usb = _paths(args)
    try:
        if args.what == "install":
            if not args.bundle:
                raise UsageError("request install needs the bundle's path")
            path = req_mod.request_install(data, Path(args.bundle).resolve(), args.reboot)
        else:
            path = req_mod.request_reboot(data)
    except (OSError, req_mod.RequestError) as err:
        raise UsageError(f"cannot leave the request in {data}: {err}") from None
    print(f"requested: {path}")
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    from kiosk.settings import config
    from kiosk.updates.serve import serve

    _need_root("serve")
    data, usb = _paths(args)
    updates = config.load(getattr(args, "config", None), fallback=True).updates
    return serve(data, usb, quiet_minutes=args.quiet_minutes, window=updates.window,
                 time_zone=updates.time_zone)


def add(sub: argparse._SubParsersAction) -> None:
    from kiosk.updates import quiet
    from kiosk.updates.commit import DEADLINE_MINUTES, HEALTHY_SECONDS
    from kiosk.updates.requests import REBOOT_POLICIES

    p, usub = with_actions(sub, "update", "the kiosk's system updates (A/B slots, RAUC)",
                           "update_command")

    def common(q: argparse.ArgumentParser) -> None:
        q.add_argument("--config", metavar="PATH", help="configuration file")
        q.add_argument("--data-dir", metavar="DIR",
                       help="the data directory (default: the configuration's)")

    quiet_default = _env_float("SOLITAIRE_KIOSK_QUIET_MINUTES", quiet.QUIET_MINUTES)

    q = usub.add_parser("status", help="the running version, the slots and the last update")
    q.add_argument("--json", action="store_true")
    common(q)
    q.set_defaults(handler=cmd_status)

    q = usub.add_parser("check", help="may this bundle be installed here? (one line; 2 if not)")
    q.add_argument("bundle", metavar="BUNDLE")
    q.add_argument("--json", action="store_true")
    q.add_argument("--keyring", metavar="PEM",
                   help="check against this CA certificate (on a computer that is not a kiosk)")
    q.add_argument("--compatible", metavar="TEXT", help="the system the bundle must be for")
    q.add_argument("--running", metavar="VERSION", help="compare with this version")
    q.set_defaults(handler=cmd_check)

    q = usub.add_parser("install", help="(root) install a bundle, then restart into it")
    q.add_argument("bundle", metavar="BUNDLE")
    q.add_argument("--reboot", choices=REBOOT_POLICIES, default="when-quiet",
                   help="when-quiet (default: after minutes of attract mode), in-window "
                   "(the same, inside [updates] window), now, or no")
    q.add_argument("--quiet-minutes", type=float, default=quiet_default, metavar="MIN")
    common(q)
    q.set_defaults(handler=cmd_install)

    q = usub.add_parser("reboot", help="(root) restart into the installed update")
    q.add_argument("--when-quiet", action="store_true", help="wait until nobody plays")
    q.add_argument("--quiet-minutes", type=float, default=quiet_default, metavar="MIN")
    common(q)
    q.set_defaults(handler=cmd_reboot)

    q = usub.add_parser("commit", help="(root) commit the slot on trial once it is healthy")
    q.add_argument("--now", action="store_true", help="commit at once, no health check")
    q.add_argument("--healthy-seconds", type=float, metavar="S", default=_env_float(
        "SOLITAIRE_KIOSK_HEALTHY_SECONDS", HEALTHY_SECONDS))
    q.add_argument("--deadline-minutes", type=float, metavar="MIN", default=_env_float(
        "SOLITAIRE_KIOSK_COMMIT_DEADLINE_MINUTES", DEADLINE_MINUTES))
    common(q)
    q.set_defaults(handler=cmd_commit)

    q = usub.add_parser("request", help="ask the root unit for an install or a restart")
    q.add_argument("what", choices=("install", "reboot"))
    q.add_argument("bundle", nargs="?", metavar="BUNDLE")
    q.add_argument("--reboot", choices=REBOOT_POLICIES, default="when-quiet")
    common(q)
    q.set_defaults(handler=cmd_request)

    q = usub.add_parser("serve", help="(root) do the pending update request")
    q.add_argument("--quiet-minutes", type=float, default=quiet_default, metavar="MIN")
    common(q)
    q.set_defaults(handler=cmd_serve)
