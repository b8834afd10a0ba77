"""The operator PIN at rest: hashed, never a value anyone could have read in the docs.

A PIN printed in a public example is a PIN every visitor knows, so the kiosk has no
built-in PIN. Where the PIN comes from, first match wins:

1. ``operator_pin`` in the configuration file (4 to 8 digits, or a hash made by
   ``kiosk operator pin --hash``); the file is ``root:kiosk 0640`` on the image and, on the
   boot partition, is how an operator with the SD card sets or recovers the PIN;
2. the PIN chosen with ``kiosk operator pin --set``, kept only as a hash in
   :data:`HASH_FILE` in the data directory;
3. otherwise a random PIN drawn (``secrets``) the first time the kiosk needs one. Its hash
   goes to :data:`HASH_FILE`, and the digits to :data:`PLAIN_FILE` (mode 0600), so that an
   operator with a shell (``sudo kiosk operator pin --show``) or with the card in a Linux
   machine can read it, until they choose their own with ``--set``, which deletes it.

Hashes are scrypt (:func:`hash_pin`) with a random salt; the cost is stored in the hash, so
an old hash stays valid when the default cost changes. A damaged PIN file is set aside
(renamed, never deleted) and a new random PIN is drawn: never a known one.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import os
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from games.engine.reason import Reason
from kiosk.platform.atomicfile import write_atomic

log = logging.getLogger("kiosk.operator")

HASH_FILE = "operator-pin.json"
PLAIN_FILE = "operator-pin.txt"
PIN_DIGITS = (4, 8)
#: digits of a generated PIN: 10^6 PINs behind the growing lock-out of the keypad
GENERATED_DIGITS = 6
#: scrypt cost of new hashes: about 0.1 s on a PC, a few tenths of a second on a Pi 4 (the
#: keypad waits that long once per OK, nobody notices); 8 MB of memory for a moment
SCRYPT_N, SCRYPT_R, SCRYPT_P = 2**13, 8, 1
#: a hash in a configuration file cannot ask for more than this (a denial of service)
MAX_SCRYPT_N = 2**16
#: the memory scrypt may use: OpenSSL's own default limit (32 MiB), which refuses, with
#: ``ValueError: memory limit exceeded``, any hash needing more (N = 2^15 with r = 8 does);
#: such a hash is refused when it is read, so the checker says so and no keypad meets it
MAX_SCRYPT_BYTES = 32 * 1024 * 1024


def scrypt_bytes(n: int, r: int, p: int) -> int:
    """The memory OpenSSL's scrypt asks for with these parameters (its V and B arrays)."""
    return 128 * r * (n + p + 2)
_PREFIX = "scrypt"


class PinError(ValueError):
    """A PIN or a stored hash is not acceptable; the message says why."""


def check_pin(pin: str) -> str:
    """``pin`` when it is 4 to 8 ASCII digits, else :class:`PinError`."""
    if not isinstance(pin, str) or not pin.isascii() or not pin.isdigit():
        raise PinError("a PIN is 4 to 8 digits (0-9)")
    if not PIN_DIGITS[0] <= len(pin) <= PIN_DIGITS[1]:
        raise PinError(f"a PIN is 4 to 8 digits, not {len(pin)}")
    return pin


def hash_pin(pin: str, *, n: int = SCRYPT_N, r: int = SCRYPT_R, p: int = SCRYPT_P) -> str:
    """``scrypt$N$r$p$salt$key`` (hex) of a valid PIN, with a fresh 16-byte salt.

    >>> h = hash_pin("4711", n=16)
    >>> verify("4711", h), verify("4712", h), "4711" in h
    (True, False, False)
    """
    salt = secrets.token_bytes(16)
    key = hashlib.scrypt(check_pin(pin).encode(), salt=salt, n=n, r=r, p=p, dklen=32)
    return f"{_PREFIX}${n}${r}${p}${salt.hex()}${key.hex()}"


def _parse(hashed: str) -> tuple[int, int, int, bytes, bytes]:
    parts = hashed.split("$") if isinstance(hashed, str) else []
    try:
        if len(parts) != 6 or parts[0] != _PREFIX:
            raise ValueError
        n, r, p = (int(v) for v in parts[1:4])
        salt, key = bytes.fromhex(parts[4]), bytes.fromhex(parts[5])
    except ValueError:
        raise PinError(Reason("not a PIN hash made by `kiosk operator pin --hash`")) from None
    if not (2 <= n <= MAX_SCRYPT_N and n & (n - 1) == 0 and 1 <= r <= 32 and 1 <= p <= 4
            and len(salt) >= 8 and len(key) >= 16):
        raise PinError(Reason("the PIN hash has unusable scrypt parameters"))
    if scrypt_bytes(n, r, p) > MAX_SCRYPT_BYTES:
        raise PinError(Reason("the PIN hash needs {need} MiB to check, more than the {limit} "
                              "MiB the keypad may use; make one with `kiosk operator pin "
                              "--hash`", need=scrypt_bytes(n, r, p) >> 20,
                              limit=MAX_SCRYPT_BYTES >> 20))
    return n, r, p, salt, key


def check_hash(hashed: str) -> str:
    """``hashed`` when it is a usable PIN hash, else :class:`PinError`."""
    _parse(hashed)
    return hashed


def looks_like_hash(text: object) -> bool:
    """Whether ``text`` is meant as a hash (usable or not), never as a PIN to hash."""
    return isinstance(text, str) and text.startswith(_PREFIX + "$")


def is_hash(text: str) -> bool:
    try:
        _parse(text)
    except PinError:
        return False
    return True


def verify(entered: str, hashed: str) -> bool:
    """Whether ``entered`` is the PIN of ``hashed`` (constant time; False for junk)."""
    try:
        n, r, p, salt, key = _parse(hashed)
    except PinError:
        return False
    if not isinstance(entered, str) or not entered.isascii():
        return False
    try:
        got = hashlib.scrypt(entered.encode(), salt=salt, n=n, r=r, p=p, dklen=len(key),
                             maxmem=MAX_SCRYPT_BYTES + 1024 * 1024)
    except (ValueError, MemoryError) as err:  # the keypad must never raise: not the PIN
        log.error("operator PIN: the hash cannot be checked: %s", err)
        return False
    return hmac.compare_digest(got, key)


def generate_pin(digits: int = GENERATED_DIGITS) -> str:
    """A random PIN (``secrets``, so not predictable from the time or earlier PINs)."""
    return "".join(secrets.choice("0123456789") for _ in range(digits))


# ---------------------------------------------------------------------------- the store
@dataclass(frozen=True)
class StoredPin:
    hashed: str
    #: "generated" (the kiosk drew it) or "set" (``kiosk operator pin --set``)
    source: str
    changed: str
    #: the digits of a generated PIN while its plain copy exists, else None
    plain: str | None = None


def write_private(path: Path, text: str, mode: int = 0o600) -> None:
    """Atomic write of a file only the kiosk's user (and root) may read. When root writes it
    (``sudo kiosk operator pin``), the file is given to the data directory's owner, so the
    kiosk, which runs as its own user, can still read and replace it."""
    write_atomic(path, text, mode=mode)
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        try:
            st = path.parent.stat()
            os.chown(path, st.st_uid, st.st_gid)
        except OSError:
            pass


def _set_aside(path: Path, why: str) -> None:
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    target = path.with_name(f"{path.name}.corrupt-{stamp}")
    try:
        os.replace(path, target)
    except OSError as err:
        log.error("cannot set aside %s: %s", path, err)
        return
    log.error("%s was damaged (%s); set aside as %s, a new random PIN is drawn", path, why,
              target.name)


class PinStore:
    """The PIN kept in ``data_dir`` (steps 2 and 3 of the module docstring)."""

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = Path(data_dir)
        self.hash_path = self.data_dir / HASH_FILE
        self.plain_path = self.data_dir / PLAIN_FILE

    def read(self) -> StoredPin | None:
        """The stored PIN, or None when there is none or it is damaged (set aside). A file
        that exists but cannot be read (permissions) raises OSError: it must not be
        replaced by a new PIN."""
        try:
            raw = self.hash_path.read_bytes()
        except FileNotFoundError:
            return None
        try:
            data = json.loads(raw.decode("utf-8"))
            hashed = check_hash(data["hash"])
            source = data.get("source", "set")
            changed = str(data.get("changed", ""))
        except (ValueError, TypeError, KeyError, AttributeError, RecursionError) as err:
            _set_aside(self.hash_path, f"{type(err).__name__}: {err}")
            return None
        plain = None
        if source == "generated":
            try:
                text = self.plain_path.read_text(encoding="ascii").strip()
            except (OSError, UnicodeDecodeError):
                text = ""
            plain = text if text and verify(text, hashed) else None
        return StoredPin(hashed, source if source in ("generated", "set") else "set", changed,
                         plain)

    def ensure(self) -> StoredPin:
        """The stored PIN; a new random one when there is none (first start)."""
        stored = self.read()
        if stored is not None:
            return stored
        pin = generate_pin()
        self.data_dir.mkdir(parents=True, exist_ok=True)
        write_private(self.plain_path, pin + "\n")
        stored = self._write(hash_pin(pin), "generated")
        log.warning("no operator PIN was set: drew a random one; an operator reads it with "
                    "`sudo kiosk operator pin --show` (or in %s)", self.plain_path)
        return StoredPin(stored.hashed, stored.source, stored.changed, pin)

    def set(self, pin: str) -> StoredPin:
        """Keep ``pin`` (hash only) and delete the generated PIN's plain copy."""
        hashed = hash_pin(pin)
        self.data_dir.mkdir(parents=True, exist_ok=True)
        stored = self._write(hashed, "set")
        try:
            self.plain_path.unlink()
        except FileNotFoundError:
            pass
        return stored

    def _write(self, hashed: str, source: str) -> StoredPin:
        changed = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        write_private(self.hash_path, json.dumps(
            {"hash": hashed, "source": source, "changed": changed}, indent=1) + "\n")
        return StoredPin(hashed, source, changed)
