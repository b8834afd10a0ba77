"""Argument types for the subcommands that ``type=float`` and ``type=int`` do not cover.

``float("nan")`` and ``float("inf")`` are floats, so a plain ``type=float`` lets
``--max-seconds nan`` through, and a NaN deadline is never reached (every comparison with
it is false): the search then runs until its node budget, and the command exits 0. A
negative budget is accepted the same way. These types refuse such values while parsing,
so argparse reports them as one line and the command exits 2 before doing anything.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable


def seconds(lo: float = 0.0, hi: float = 86_400.0) -> Callable[[str], float]:
    """A finite number of seconds, more than ``lo`` and at most ``hi``."""
    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
        if not math.isfinite(value) or not lo < value <= hi:
            raise argparse.ArgumentTypeError(
                f"{text!r} is not a number of seconds (more than {lo:g}, at most {hi:g})")
        return value
    parse.__name__ = "seconds"
    return parse


def whole(lo: int = 1, hi: int | None = None) -> Callable[[str], int]:
    """A whole number from ``lo`` up (to ``hi`` when given), in ASCII digits only.

    ``int()`` also takes ``+7``, ``7_000``, `` 7`` and other scripts' digits (``٧``): an
    operator who typed one of those meant something else, or pasted something odd, and
    would be shown a deal or a count they did not ask for."""
    def parse(text: str) -> int:
        if not (text.isascii() and text.isdigit()):
            raise argparse.ArgumentTypeError(
                f"{text!r} is not a whole number (digits 0-9 only)")
        value = int(text)
        if value < lo or (hi is not None and value > hi):
            top = f" to {hi}" if hi is not None else " or more"
            raise argparse.ArgumentTypeError(f"{text!r} is out of range ({lo}{top})")
        return value
    parse.__name__ = "whole number"
    return parse


def language(text: str) -> str:
    """One of the kiosk's languages; a locale such as ``zh_CN`` or ``ru-RU`` names its
    language. Anything else is refused rather than quietly shown in English."""
    from kiosk.settings.config import LANGUAGES

    code = text.strip().lower().replace("-", "_").split("_")[0]
    if code not in LANGUAGES:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a kiosk language (one of {', '.join(LANGUAGES)})")
    return code


def existing_file(text: str) -> str:
    """A file that is there: a ``--config`` the operator names but mistyped would otherwise
    be read as the built-in defaults, and an export or a listing of them would look right."""
    from pathlib import Path

    path = Path(text)
    if not path.exists():
        raise argparse.ArgumentTypeError(f"{text!r}: no such file")
    if not path.is_file():
        raise argparse.ArgumentTypeError(f"{text!r} is not a file")
    return text


def deal_number(text: str) -> int:
    """A deal number as a person types it: ASCII digits, 1 or more (the game checks the
    top of the range)."""
    if not (text.isascii() and text.isdigit()) or int(text) < 1:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a deal number (a whole number from 1, digits 0-9 only)")
    return int(text)
