"""From the ``[fleet]`` section to a psycopg connection, and from psycopg's errors to one
line an operator can act on (:mod:`kiosk.fleet.errors`).

The password is never in the process's arguments or environment: it comes from the
systemd credential (``LoadCredential=``, read by systemd as root from the root-only file),
else ``password_file`` (default ``fleet.secret`` in the data directory), else the
configuration itself. A secret or key file that group or others may read is refused
before anything is sent: a card passed round the office must not hand the fleet's
credentials to whoever copied it (libpq's own rule for keys: mode 0600, or 0640 when root
owns the file).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

from kiosk.fleet.errors import FleetError, classify, clock_line, describe  # noqa: F401
from kiosk.settings.config import Config, Fleet

#: the file in the data directory (and the systemd credential's name)
SECRET_NAME = "fleet.secret"


def secret_path(cfg: Config) -> Path:
    fleet = cfg.fleet
    if fleet is not None and fleet.password_file is not None:
        return fleet.password_file
    return cfg.log.data_dir / SECRET_NAME


def loose_mode(path: Path, *, key: bool = False) -> str | None:
    """Why ``path`` is readable by too many, or None. ``key``: libpq's rule for a private
    key (0640 is fine when root owns it, so that group kiosk reads a root-owned key)."""
    try:
        st = path.stat()
    except OSError:
        return None  # missing or unreadable: said elsewhere, by whoever reads it
    mode = stat.S_IMODE(st.st_mode)
    if mode & 0o007:
        return f"{path} is readable by others (mode {mode:04o}): chmod 600 {path}"
    if mode & 0o070 and not (key and st.st_uid == 0 and not mode & 0o030):
        return (f"{path} is readable by its group (mode {mode:04o}): chmod 600 {path}"
                + (" (or 640 with root as its owner)" if key else ""))
    return None


def file_problems(cfg: Config) -> list[str]:
    """The ``[fleet]`` files that are too open, as ``config check`` lines."""
    fleet = cfg.fleet
    if fleet is None:
        return []
    where = str(cfg.path) if cfg.path else "configuration"
    out = []
    secret = secret_path(cfg)
    why = loose_mode(secret)
    if why:
        key = "fleet.password_file" if fleet.password_file else "fleet (the password file)"
        out.append(f"{where}: {key}: {why}; the sync refuses to use it")
    if fleet.sslkey is not None:
        why = loose_mode(fleet.sslkey, key=True)
        if why:
            out.append(f"{where}: fleet.sslkey: {why}; the sync refuses to use it")
    return out


def password(cfg: Config) -> str | None:
    creds = os.environ.get("CREDENTIALS_DIRECTORY")
    candidates = [(Path(creds) / SECRET_NAME, False)] if creds else []
    candidates.append((secret_path(cfg), True))
    for path, check in candidates:
        try:
            text = path.read_text(encoding="utf-8").strip()
        except FileNotFoundError:
            continue
        except (OSError, UnicodeDecodeError) as err:
            raise FleetError(f"cannot read the fleet password file {path}: "
                             f"{getattr(err, 'strerror', None) or err}", "config",
                             bad_input=True) from None
        why = loose_mode(path) if check else None  # systemd's own copy is its business
        if why:
            raise FleetError(f"refusing the fleet password file: {why}", "config",
                             bad_input=True)
        if text:
            return text
    assert cfg.fleet is not None
    return cfg.fleet.password


def conninfo(cfg: Config) -> dict[str, Any]:
    """Keyword arguments for :func:`psycopg.connect`."""
    fleet: Fleet | None = cfg.fleet
    if fleet is None:
        raise FleetError("this kiosk has no [fleet] section in its configuration", "config",
                         bad_input=True)
    kw: dict[str, Any] = {
        "host": fleet.server, "port": fleet.port, "dbname": fleet.database,
        "user": fleet.user, "connect_timeout": fleet.connect_timeout,
        "application_name": "kiosk sync",
        # a dead network must not hang a pass for the kernel's two hours
        "keepalives": 1, "keepalives_idle": 30, "keepalives_interval": 10,
        "keepalives_count": 3,
    }
    if not fleet.server.startswith("/"):  # TLS only means something over the network
        kw["sslmode"] = fleet.sslmode
        for key in ("sslrootcert", "sslcert", "sslkey"):
            value = getattr(fleet, key)
            if value is not None:
                kw[key] = str(value)
        if fleet.sslkey is not None:
            why = loose_mode(fleet.sslkey, key=True)
            if why:
                raise FleetError(f"refusing the fleet key file: {why}", "config",
                                 bad_input=True)
    secret = password(cfg)
    if secret:
        kw["password"] = secret
    return kw


def tls_verify_problem(host: str, port: int, cafile: str | None,
                       timeout: float = 10.0) -> str | None:
    """Ask the server for its certificate and verify it as libpq would (CA and name),
    to say *why* it failed: libpq says only "certificate verify failed", but an expired
    certificate (often: a kiosk clock in 1970 or 2038) needs another remedy than an
    impostor. Returns OpenSSL's reason, or None when it verifies or cannot be asked."""
    import socket
    import ssl  # only after a failure: every pass pays for what it imports

    try:
        ctx = ssl.create_default_context(cafile=cafile) if cafile else \
            ssl.create_default_context()
    except (OSError, ssl.SSLError):
        return None
    try:
        with socket.create_connection((host, port), timeout=timeout) as sock:
            sock.sendall((8).to_bytes(4, "big") + (80877103).to_bytes(4, "big"))  # SSLRequest
            if sock.recv(1) != b"S":
                return None
            with ctx.wrap_socket(sock, server_hostname=host):
                return None
    except ssl.SSLCertVerificationError as err:
        return str(err.verify_message or err)
    except (OSError, ssl.SSLError, UnicodeError, ValueError):
        return None


def connect_error(err: BaseException, fleet: Fleet | None, where: str) -> FleetError:
    """The FleetError for a failed connection, with the clock diagnosed when the
    certificate did not verify."""
    kind, line = classify(err)
    if kind == "tls-untrusted" and fleet is not None and not fleet.server.startswith("/"):
        reason = tls_verify_problem(fleet.server, fleet.port,
                                    str(fleet.sslrootcert) if fleet.sslrootcert else None,
                                    timeout=min(10.0, float(fleet.connect_timeout)))
        if reason and ("expired" in reason or "not yet valid" in reason):
            return FleetError(where + clock_line(reason), "tls-clock")
    return FleetError(where + line, kind)
