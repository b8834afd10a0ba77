"""From the ``[fleet]`` section to a psycopg connection, and from psycopg's errors to one
line an operator can act on.

The password is never in the process's arguments or environment: it comes from the
systemd credential (``LoadCredential=``, read by systemd as root from the root-only file),
else ``password_file`` (default ``fleet.secret`` in the data directory), else the
configuration itself.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from kiosk.settings.config import Config, Fleet

#: the file in the data directory (and the systemd credential's name)
SECRET_NAME = "fleet.secret"


class FleetError(Exception):
    """A pass cannot go on; the message is one line for the operator."""


def secret_path(cfg: Config) -> Path:
    fleet = cfg.fleet
    if fleet is not None and fleet.password_file is not None:
        return fleet.password_file
    return cfg.log.data_dir / SECRET_NAME


def password(cfg: Config) -> str | None:
    creds = os.environ.get("CREDENTIALS_DIRECTORY")
    candidates = [Path(creds) / SECRET_NAME] if creds else []
    candidates.append(secret_path(cfg))
    for path in candidates:
        try:
            text = path.read_text(encoding="utf-8").strip()
        except FileNotFoundError:
            continue
        except OSError as err:
            raise FleetError(f"cannot read the fleet password file {path}: "
                             f"{err.strerror or err}") from None
        if text:
            return text
    assert cfg.fleet is not None
    return cfg.fleet.password


def conninfo(cfg: Config) -> dict[str, Any]:
    """Keyword arguments for :func:`psycopg.connect`."""
    fleet: Fleet | None = cfg.fleet
    if fleet is None:
        raise FleetError("this kiosk has no [fleet] section in its configuration")
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
    secret = password(cfg)
    if secret:
        kw["password"] = secret
    return kw


def describe(err: BaseException, where: str = "") -> str:
    """One line for a psycopg or OS error: what failed, without a traceback."""
    text = " ".join(str(err).split()) or type(err).__name__
    low = text.lower()
    if "password authentication failed" in low or "no password supplied" in low:
        why = "the server refused the kiosk's password (check fleet.user and the password file)"
    elif "certificate verify failed" in low or "root certificate file" in low \
            or "server certificate" in low or "does not match host name" in low:
        why = f"the server's certificate cannot be verified with the CA file ({text})"
    elif "could not translate host name" in low or "name or service not known" in low:
        why = f"the server's name cannot be resolved ({text})"
    elif "timeout expired" in low or "timed out" in low:
        why = "the server did not answer in time (network down or host unreachable)"
    elif "connection refused" in low or "no such file or directory" in low:
        why = f"the server is not accepting connections ({text})"
    elif "terminating connection" in low or "server closed the connection" in low \
            or "connection is lost" in low or "consuming input failed" in low:
        why = f"the connection was lost mid-pass ({text})"
    elif "permission denied" in low or "row-level security" in low:
        why = f"the server refused the kiosk's role ({text})"
    else:
        why = text
    return f"{where}{why}"
