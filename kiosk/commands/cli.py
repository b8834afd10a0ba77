"""The ``kiosk`` command line.

Each module in :mod:`kiosk.commands` adds its own subcommands (engine, app, log, config,
operator, solver), so the parts of the product stay independent. Heavy imports (Kivy,
sqlite) happen inside the handlers: ``kiosk games`` must stay instant on a Pi. Any error a
person can make (unknown game, bad option, bad file) prints one line on stderr and exits 2,
never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Callable, Sequence
from typing import NoReturn

from games import GameError


class UsageError(Exception):
    """A mistake in what the user asked for; printed as one line, exit status 2."""


class _Parser(argparse.ArgumentParser):
    """Every parser of the command line, the subcommands' too (``parser_class`` below), so
    a subcommand added later refuses bad input the same way."""

    def error(self, message: str) -> NoReturn:
        """One line instead of argparse's usage block (2 to 9 lines that bury the cause on a
        small console); ``--help`` has the usage for whoever wants it."""
        raise UsageError(f"{message} (see: {self.prog} --help)")


#: commands a timer runs every few minutes, with the module that adds them: only that module
#: is imported for them (the idle ``kiosk sync`` pass is mostly process start; docs/fleet.md)
ALONE = {"sync": "fleet"}


def build_parser(alone: str | None = None) -> argparse.ArgumentParser:
    from kiosk import __version__, commands

    parser = _Parser(prog="kiosk", description="Solitaire kiosk: games, table, play log.")
    parser.add_argument("--version", action="version", version=f"kiosk {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    names = [alone] if alone else [m.name for m in pkgutil.iter_modules(commands.__path__)
                                   if not m.name.startswith("_") and m.name != "cli"]
    mods = [importlib.import_module(f"kiosk.commands.{name}") for name in names]
    for mod in sorted(mods, key=lambda m: getattr(m, "ORDER", 50)):
        mod.add(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args_in = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(ALONE.get(args_in[0]) if args_in else None)
    try:
        args = parser.parse_args(args_in)
        handler: Callable[[argparse.Namespace], int | None] = args.handler
        return handler(args) or 0
    except UsageError as err:
        print(f"kiosk: {err}", file=sys.stderr)
        return 2
    except GameError as err:
        print(f"kiosk: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
