"""Reading the files an operator, a visitor or a broken SD card can hand the kiosk.

The configuration, the operator menu's overrides, the deal cycles, the winnable-deal lists
and saved games all come through here, because the ways such a file goes wrong are the same
for all of them and each way used to escape as a different exception: a missing or
unreadable file (``OSError``), bytes that are not UTF-8 (``UnicodeDecodeError``), a syntax
error (``TOMLDecodeError``, ``JSONDecodeError``), a few hundred nested ``[`` (``tomllib`` and
``json`` recurse and raise ``RecursionError``) and an absurdly large file (``MemoryError``,
or a kiosk that swaps itself to death first). Every one of them becomes a
:class:`ReadError` whose text is one line naming the file and what is wrong, so each caller
needs one ``except`` to fall back on its defaults.

>>> parse_json("[" * 100_000, "deep.json")
Traceback (most recent call last):
...
kiosk.platform.readfile.ReadError: deep.json: nested too deeply to be read
"""

from __future__ import annotations

import json
import os
import tomllib
from typing import IO, Any

from games.engine.reason import Reason

#: larger than any file the kiosk writes or ships (the biggest deal list is about 3.4 MB),
#: small enough that reading and parsing it cannot exhaust a Pi's memory
MAX_BYTES = 32 * 1024 * 1024


class ReadError(ValueError):
    """A file cannot be used. ``str()`` is one line: ``<file>: <what is wrong>``.
    ``missing`` tells "there is no such file" (often normal) from a broken one. ``why`` is
    what is wrong as a value the operator menu translates (``reason`` is its English)."""

    def __init__(self, name: str | os.PathLike[str], reason: Reason | str, *,
                 missing: bool = False) -> None:
        self.name = str(name)
        self.reason = _one_line(str(reason))
        self.why: Reason | str = reason if isinstance(reason, Reason) else self.reason
        self.missing = missing
        super().__init__(f"{self.name}: {self.reason}")

    @property
    def value(self) -> Reason:
        """The whole line as a value: ``<file>: <what is wrong>``."""
        return Reason("{file}: {reason}", file=self.name, reason=self.why)


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


_TOO_LARGE = Reason("too large to be read")
_TOO_DEEP = Reason("nested too deeply to be read")


def _cannot_read(err: BaseException) -> Reason:
    """The system's own words for why (its message is English, as the system gives it)."""
    return Reason("cannot be read ({error})",
                  error=_one_line(str(getattr(err, "strerror", None) or err)))


def _not_utf8(err: UnicodeDecodeError) -> Reason:
    return Reason("is not UTF-8 text (bad byte at offset {offset})", offset=err.start)


def read_bytes(path: str | os.PathLike[str], max_bytes: int = MAX_BYTES) -> bytes:
    """The file's bytes, refusing more than ``max_bytes`` (checked while reading too, for
    a device or a file that grows)."""
    try:
        with open(path, "rb") as fh:
            size = os.fstat(fh.fileno()).st_size
            if size > max_bytes:
                raise ReadError(path, Reason("too large ({size} bytes; at most {limit})",
                                             size=size, limit=max_bytes))
            data = _read_at_most(fh, size, max_bytes)
    except ReadError:
        raise
    except FileNotFoundError:
        raise ReadError(path, Reason("no such file"), missing=True) from None
    except (OSError, ValueError) as err:  # ValueError: a NUL byte in the path
        raise ReadError(path, _cannot_read(err)) from None
    except MemoryError:
        raise ReadError(path, _TOO_LARGE) from None
    if len(data) > max_bytes:
        raise ReadError(path, Reason("too large (more than {limit} bytes)", limit=max_bytes))
    return data


def _read_at_most(fh: IO[bytes], size: int, max_bytes: int) -> bytes:
    """Up to ``max_bytes + 1`` bytes, asking for what the file's size says is there (plus
    one, to see growth) rather than for the limit: ``read(n)`` allocates ``n`` bytes before
    it reads, so asking for the limit cost 32 MB for every small config file."""
    chunks: list[bytes] = []
    total = 0
    ask = size + 1
    while total <= max_bytes:
        asked = min(max(ask, 64 * 1024), max_bytes + 1 - total)
        chunk = fh.read(asked)
        if not chunk:
            break
        chunks.append(chunk)
        total += len(chunk)
        # a full read (a file that grows, a device of size 0) doubles what was read; a short
        # one (the end of a file, most likely) is followed by a small probe, not another
        # buffer the size of the file
        ask = total if len(chunk) == asked else 0
    return b"".join(chunks)


def decode(data: bytes, name: str | os.PathLike[str]) -> str:
    """UTF-8 text, or a :class:`ReadError` that says where the first bad byte is. A leading
    byte-order mark (Windows Notepad writes one) is dropped: it is not part of the text."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise ReadError(name, _not_utf8(err)) from None


def read_text(path: str | os.PathLike[str], max_bytes: int = MAX_BYTES) -> str:
    return decode(read_bytes(path, max_bytes), path)


def read_stream(stream: IO[str], name: str = "<stdin>", max_bytes: int = MAX_BYTES) -> str:
    """Text from an open stream (standard input), with the same size limit and messages."""
    try:
        text = stream.read(max_bytes + 1)
    except UnicodeDecodeError as err:
        raise ReadError(name, _not_utf8(err)) from None
    except (OSError, MemoryError) as err:
        raise ReadError(name, _cannot_read(err)) from None
    if len(text) > max_bytes:
        raise ReadError(name, Reason("too large (more than {limit} characters)",
                                     limit=max_bytes))
    return text


def parse_toml(text: str, name: str | os.PathLike[str]) -> dict[str, Any]:
    """``tomllib.loads`` whose every failure is a :class:`ReadError`."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise ReadError(name, Reason("not valid TOML ({error})", error=_one_line(str(err)))) \
            from None
    except RecursionError:
        raise ReadError(name, _TOO_DEEP) from None
    except MemoryError:
        raise ReadError(name, _TOO_LARGE) from None


def parse_json(text: str | bytes, name: str | os.PathLike[str]) -> Any:
    """``json.loads`` whose every failure is a :class:`ReadError`. NaN and Infinity, which
    Python's json accepts but JSON does not have, are refused: no file the kiosk writes
    holds them, and a NaN that slips into a number check passes every comparison."""
    try:
        return json.loads(text, parse_constant=_no_constant)
    except UnicodeDecodeError as err:
        raise ReadError(name, _not_utf8(err)) from None
    except ValueError as err:
        raise ReadError(name, Reason("not valid JSON ({error})", error=_one_line(str(err)))) \
            from None
    except RecursionError:
        raise ReadError(name, _TOO_DEEP) from None
    except MemoryError:
        raise ReadError(name, _TOO_LARGE) from None


def _no_constant(word: str) -> Any:
    raise ValueError(f"{word} is not a JSON number")


def read_toml(path: str | os.PathLike[str], max_bytes: int = MAX_BYTES) -> dict[str, Any]:
    return parse_toml(read_text(path, max_bytes), path)


def read_json(path: str | os.PathLike[str], max_bytes: int = MAX_BYTES) -> Any:
    return parse_json(read_text(path, max_bytes), path)


__all__ = ["MAX_BYTES", "ReadError", "decode", "parse_json", "parse_toml",
           "read_bytes", "read_json", "read_stream", "read_text", "read_toml"]

