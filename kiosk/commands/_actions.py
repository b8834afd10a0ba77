"""A command with actions (``kiosk config check``, ``kiosk fleet settings set``): one place
says how they are declared, so every such command asks for its ACTION and reports a missing
one the same way (one line, status 2, from the command's own parser class)."""

from __future__ import annotations

import argparse


def with_actions(sub: argparse._SubParsersAction, name: str, help: str, dest: str
                 ) -> tuple[argparse.ArgumentParser, argparse._SubParsersAction]:
    """The parser of command ``name`` and the subparsers of its required ACTION, whose
    name lands in ``dest``."""
    p = sub.add_parser(name, help=help)
    actions = p.add_subparsers(dest=dest, metavar="ACTION", parser_class=type(p))
    actions.required = True
    return p, actions
