"""Subcommands of ``kiosk``: each module defines ``add(subparsers)`` and an ``ORDER``."""
