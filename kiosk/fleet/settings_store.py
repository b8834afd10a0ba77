"""The office's side of the settings from the centre: storing a version for all kiosks, a
group or one kiosk (``kiosk fleet settings set``) and showing what each kiosk should have
and has (``kiosk fleet settings show``). The kiosk's side is :mod:`centre_settings`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kiosk.fleet.errors import FleetError


@dataclass
class KioskSettings:
    name: str
    group: str | None
    should: int | None          # the version it should have (the highest of its layers)
    layers: str                 # e.g. "all v3, group v5, kiosk v9"
    has: int | None             # the version its last heartbeat reported
    rejected: int | None
    error: str | None

    @property
    def state(self) -> str:
        if self.should is None:
            return "no settings from the centre"
        if self.rejected is not None and self.rejected >= self.should:
            return f"REJECTED v{self.rejected}: {self.error}"
        if self.has == self.should:
            return "up to date"
        return "waiting for its next sync"


def store(conn: Any, scope: str, target: str | None, text: str) -> int:
    """Store a version (already checked by the caller); returns its number."""
    with conn.transaction():
        if scope == "kiosk" and not conn.execute(
                "SELECT 1 FROM kiosks WHERE name = %s", (target,)).fetchone():
            raise FleetError(f"no kiosk named {target!r} in the central database "
                             "(`kiosk fleet add-kiosk`)", "config")
        return conn.execute(
            "INSERT INTO settings_versions (scope, target, settings) VALUES (%s, %s, %s)"
            " RETURNING version", (scope, target, text)).fetchone()[0]


def group_members(conn: Any, group: str) -> int:
    return conn.execute("SELECT count(*) FROM kiosks WHERE grp = %s", (group,)).fetchone()[0]


def set_group(conn: Any, name: str, group: str | None) -> None:
    with conn.transaction():
        if conn.execute("UPDATE kiosks SET grp = %s WHERE name = %s",
                        (group, name)).rowcount != 1:
            raise FleetError(f"no kiosk named {name!r} in the central database", "config")


def overview(conn: Any) -> list[KioskSettings]:
    rows = conn.execute(
        "SELECT k.name, k.grp,"
        " (SELECT max(l.version) FROM settings_layers l WHERE l.kiosk = k.name),"
        " (SELECT string_agg(l.scope || ' v' || l.version, ', ' ORDER BY l.version)"
        "    FROM settings_layers l WHERE l.kiosk = k.name),"
        " h.settings_version, h.settings_rejected, h.settings_error"
        " FROM kiosks k LEFT JOIN LATERAL (SELECT * FROM heartbeats h WHERE h.kiosk = k.name"
        "   ORDER BY h.received DESC, h.id DESC LIMIT 1) h ON true ORDER BY k.name").fetchall()
    return [KioskSettings(r[0], r[1], r[2], r[3] or "", r[4], r[5], r[6]) for r in rows]


def versions(conn: Any, limit: int = 20) -> list[tuple[int, str, str | None, Any, str]]:
    return conn.execute("SELECT version, scope, target, created, settings FROM"
                        " settings_versions ORDER BY version DESC LIMIT %s", (limit,)).fetchall()
