"""Operator commands: ``kiosk operator pin`` (show, set, hash, unlock) and ``kiosk operator
events`` (the keypad's wrong PINs and lock-outs from the play log).

The PIN is shown only here, to someone who can run a command on the kiosk as root (or the
kiosk's user): the generated PIN's plain copy is 0600 in the data directory. Run these with
``sudo`` on the image; see docs/operator-guide.md "The operator PIN".
"""

from __future__ import annotations

import argparse
import getpass
import json
import sys
from pathlib import Path

from ._actions import with_actions

ORDER = 45


def _config(args: argparse.Namespace):
    from kiosk.settings import config

    cfg = config.load(args.config, fallback=True)
    for problem in cfg.problems:
        print(f"kiosk: warning: {problem}", file=sys.stderr)
    return cfg


def _data_dir(cfg) -> Path:
    from kiosk.settings import config

    path, note = config.resolve_data_dir(cfg.log.data_dir)
    if note:
        print(f"kiosk: warning: {note} (run this as root: sudo kiosk operator ...)",
              file=sys.stderr)
    return path


def read_pin(given: str | None, *, confirm: bool) -> str:
    """The PIN from the argument, else from a prompt (twice), else the first line of stdin;
    4 to 8 digits or a one-line error (exit 2)."""
    from kiosk.commands.cli import UsageError
    from kiosk.settings.operator_pin import PinError, check_pin

    if given:
        pin = given
    elif sys.stdin.isatty():
        pin = getpass.getpass("New operator PIN (4 to 8 digits): ")
        if confirm and getpass.getpass("The same PIN again: ") != pin:
            raise UsageError("the two PINs differ; nothing changed")
    else:
        pin = sys.stdin.readline().rstrip("\r\n")
    try:  # as typed: " 1234" is not the PIN the keypad will be given
        return check_pin(pin)
    except PinError as err:
        raise UsageError(f"{err}; nothing changed") from None


def cmd_pin(args: argparse.Namespace) -> int:
    from kiosk.commands.cli import UsageError

    try:
        return _pin(args)
    except OSError as err:
        where = f" {err.filename}" if err.filename else ""
        raise UsageError(f"cannot use{where}: {err.strerror or err} (run it as root: sudo "
                         "kiosk operator pin ...)") from None


def _pin(args: argparse.Namespace) -> int:
    from kiosk.settings.operator import LOCK_FILE, LockState, PinGuard
    from kiosk.settings.operator_pin import PinStore, hash_pin

    if args.hash is not None:
        pin = read_pin(args.hash or None, confirm=True)
        print(f'operator_pin = "{hash_pin(pin)}"')
        return 0
    cfg = _config(args)
    data = _data_dir(cfg)
    store = PinStore(data)
    guard_state = data / LOCK_FILE
    if args.set is not None:
        pin = read_pin(args.set or None, confirm=True)
        stored = store.set(pin)
        LockState().save(guard_state)
        print(f"operator PIN changed (only its hash is kept, in {store.hash_path}); the "
              "keypad takes it at once")
        if cfg.operator_pin is not None:
            print(f"note: {cfg.path} sets operator_pin, which wins over this PIN: remove "
                  "that line to use it", file=sys.stderr)
        return 0
    if args.unlock:
        LockState().save(guard_state)
        print("the keypad is unlocked and its count of wrong PINs starts again")
        return 0
    # --show
    if cfg.operator_pin is not None:
        print(f"the operator PIN is set in {cfg.path} (operator_pin); read it there")
    else:
        stored = store.ensure()
        if stored.plain is not None:
            print(stored.plain)
            print(f"(drawn by the kiosk; its copy is {store.plain_path}. Choose your own "
                  "with: sudo kiosk operator pin --set)", file=sys.stderr)
        else:
            print(f"the operator PIN was chosen with `kiosk operator pin --set` "
                  f"({stored.changed}); only its hash is kept. Set a new one with: "
                  "sudo kiosk operator pin --set")
    guard = PinGuard(stored.hashed if cfg.operator_pin is None else cfg.operator_pin,
                     state_path=guard_state)
    if guard.locked():
        print(f"the keypad is locked for {guard.seconds_left()} s more (lock-out "
              f"{guard.state.lockouts}); sudo kiosk operator pin --unlock opens it")
    return 0


def cmd_events(args: argparse.Namespace) -> int:
    import sqlite3

    from kiosk.commands.cli import UsageError
    from kiosk.records.playlog import read_events

    if args.limit < 1:
        raise UsageError(f"--limit must be 1 or more, not {args.limit}")
    path = Path(args.db) if args.db else _config(args).existing_db_path()
    if not path.is_file():
        raise UsageError(f"no play log at {path}")
    try:
        events = read_events(path, "" if args.all else "pin_", args.limit)
    except sqlite3.Error as err:
        raise UsageError(f"cannot read the play log {path}: {err}") from None
    if args.json:
        json.dump(events, sys.stdout, indent=1)
        sys.stdout.write("\n")
        return 0
    if not events:
        print("no events")
    for e in events:
        clock = "" if e["clock_synced"] else "  (clock not synced)"
        print(f"{e['at']}  {e['kind']:<12}  {e['detail']}{clock}")
    return 0


def add(sub: argparse._SubParsersAction) -> None:
    p, osub = with_actions(sub, "operator", "the operator PIN and the keypad's events",
                           "operator_command")

    pin = osub.add_parser("pin", help="show or set the operator PIN (run as root)")
    what = pin.add_mutually_exclusive_group(required=True)
    what.add_argument("--show", action="store_true",
                      help="print the PIN the kiosk drew (or say where the PIN is set)")
    what.add_argument("--set", nargs="?", const="", metavar="PIN",
                      help="choose the PIN (4 to 8 digits; asked for when not given, or "
                      "read from stdin)")
    what.add_argument("--hash", nargs="?", const="", metavar="PIN",
                      help="print an operator_pin line with the PIN's hash, for config.toml")
    what.add_argument("--unlock", action="store_true",
                      help="end the keypad's lock-out and its count of wrong PINs")
    pin.add_argument("--config", metavar="PATH", help="configuration file")
    pin.set_defaults(handler=cmd_pin)

    ev = osub.add_parser("events", help="wrong PINs and lock-outs, from the play log")
    ev.add_argument("--config", metavar="PATH", help="configuration file")
    ev.add_argument("--db", metavar="PATH", help="play log file (default: the configured)")
    ev.add_argument("--limit", type=int, default=50, help="the last N events (default 50)")
    ev.add_argument("--all", action="store_true", help="every kind of event, not only PINs")
    ev.add_argument("--json", action="store_true")
    ev.set_defaults(handler=cmd_events)
