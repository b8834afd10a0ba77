"""What went wrong with the central database, as one line for a person and one word for a
program: the operator menu's Status page picks its advice by the word
(``Status.last_error_kind``), the journal keeps the line (``Status.last_error``).

The kinds are few on purpose, each one a different thing for someone to do:

==============  ==========================================================================
no-network      the server cannot be reached (cable, Wi-Fi, DNS, the server is down)
tls-untrusted   the server's certificate is not the one the kiosk trusts (wrong CA file,
                wrong host name, an impostor)
tls-clock       the certificate is fine but the kiosk's clock says it is not valid now
auth            the server refused the kiosk's password or certificate
retired         the office has taken this kiosk out of the fleet (or not put it in)
schema-old      the centre's schema is older than the kiosk's software: the office runs
                ``kiosk fleet init``
schema-new      the centre is newer: the kiosk's software needs an update
config          the kiosk's own configuration or secret file is at fault
server          anything else the server said (a full disk, too many connections ...)
==============  ==========================================================================
"""

from __future__ import annotations

from datetime import UTC, datetime

KINDS = ("no-network", "tls-untrusted", "tls-clock", "auth", "retired", "schema-old",
         "schema-new", "config", "server")


class FleetError(Exception):
    """A pass or an office command cannot go on; the message is one line for a person and
    ``kind`` one of :data:`KINDS`. ``bad_input``: a mistake in what the kiosk was given
    (its configuration, its secret file), which ``kiosk sync`` exits 2 for, not 1."""

    def __init__(self, message: str, kind: str = "server", *, bad_input: bool = False) -> None:
        assert kind in KINDS, kind
        super().__init__(message)
        self.kind = kind
        self.bad_input = bad_input


def _clock_now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")


def clock_line(verify_message: str) -> str:
    """The line for a certificate that is not valid *now*: the clock is the usual culprit
    on a Pi, which has no battery-backed clock."""
    if "not yet valid" in verify_message:
        what = "is not valid yet"
    else:
        what = "has expired"
    return (f"the server's certificate {what} by the kiosk's clock, which says "
            f"{_clock_now()}; set the time or check NTP (if the clock is right, the office "
            "must renew the server's certificate)")


def classify(err: BaseException) -> tuple[str, str]:
    """(kind, one line) for a psycopg or OS error, without a traceback."""
    text = " ".join(str(err).split()) or type(err).__name__
    low = text.lower()
    if isinstance(err, FleetError):
        return err.kind, text
    if "not permitted to log in" in low:
        return "retired", ("the office has revoked this kiosk's access (its role may not log "
                           "in); ask the office: `kiosk fleet add-kiosk NAME` gives it a new "
                           "password and lets it in again")
    if "password authentication failed" in low or "no password supplied" in low \
            or "certificate authentication failed" in low \
            or "no pg_hba.conf entry" in low:
        return "auth", ("the server refused the kiosk's password: the office gave it a new "
                        "one (`kiosk fleet add-kiosk NAME` prints it) or retired it (`kiosk "
                        "fleet retire`); check fleet.user and the password file "
                        f"({text})")
    if "certificate has expired" in low or "not yet valid" in low:
        return "tls-clock", clock_line(low)
    if "certificate verify failed" in low or "root certificate file" in low \
            or "server certificate" in low or "does not match host name" in low \
            or "certificate" in low and "ssl" in low:
        return "tls-untrusted", ("the server's certificate cannot be verified with the CA "
                                 f"file: a wrong CA file, host name or an impostor ({text})")
    if "could not translate host name" in low or "name or service not known" in low \
            or "idna" in low or "label too long" in low or "label empty" in low:
        return "no-network", f"the server's name cannot be resolved ({text})"
    if "timeout expired" in low or "timed out" in low:
        return "no-network", "the server did not answer in time (network down or host unreachable)"
    if "connection refused" in low or "no such file or directory" in low \
            or "network is unreachable" in low or "no route to host" in low:
        return "no-network", f"the server is not accepting connections ({text})"
    if "terminating connection" in low or "server closed the connection" in low \
            or "connection is lost" in low or "consuming input failed" in low:
        return "server", f"the connection was lost mid-pass ({text})"
    if "permission denied" in low or "row-level security" in low:
        return "server", f"the server refused the kiosk's role ({text})"
    return "server", text


def describe(err: BaseException, where: str = "") -> str:
    """One line for a psycopg or OS error: what failed, without a traceback."""
    return where + classify(err)[1]
