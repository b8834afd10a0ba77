"""The office's look at the fleet's health (``kiosk fleet status``): every kiosk's last
heartbeat, and first the kiosks that need a person, each with its reasons.

"Since the last look" is meant literally: each ``fleet status`` remembers, per kiosk, the
boot and the restart and watchdog counts it saw (``status_looks``), so a restart is
reported once, by the first look after it, and a monitoring check that calls the command
every few minutes is not told the same restart forever (``--peek`` looks without
remembering).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

#: the timer's five minutes and its random minute (systemd/solitaire-kiosk-sync.timer)
DEFAULT_INTERVAL_MIN = 6.0
#: a kiosk is silent after this many sync intervals without a heartbeat
SILENT_INTERVALS = 3
#: the card is nearly full below either of these
CARD_FREE_FRACTION = 0.10
CARD_FREE_BYTES = 200 * 1024 * 1024
#: heartbeats compared for a growing backlog
BACKLOG_BEATS = 3

BEAT_COLUMNS = ("received", "sent", "app_version", "boot_id", "uptime", "last_play",
                "data_free", "data_size", "memory", "restarts", "watchdog_kills",
                "config_problems", "settings_version", "settings_rejected", "settings_error",
                "log_status", "waiting", "last_sync_ok", "last_sync_error")


@dataclass
class KioskHealth:
    name: str
    group: str | None
    beat: dict[str, Any] | None
    needs: list[str] = field(default_factory=list)   # why a person should look

    @property
    def needs_person(self) -> bool:
        return bool(self.needs)


def _mb(n: int | None) -> str:
    return "?" if n is None else f"{n / 1024 / 1024:,.0f} MB"


def _ago(delta: timedelta) -> str:
    minutes = delta.total_seconds() / 60
    if minutes < 120:
        return f"{minutes:.0f} min"
    if minutes < 48 * 60:
        return f"{minutes / 60:.1f} h"
    return f"{minutes / 1440:.1f} days"


def assess(conn: Any, *, interval_min: float = DEFAULT_INTERVAL_MIN,
           now: datetime | None = None, remember: bool = True) -> list[KioskHealth]:
    """Every kiosk, those that need a person first (then by name). ``remember``: record
    this look (see the module docstring)."""
    now = now or conn.execute("SELECT now()").fetchone()[0]
    cols = ", ".join(f"h.{c}" for c in BEAT_COLUMNS)
    rows = conn.execute(
        f"SELECT k.name, k.grp, l.boot_id, l.restarts, l.watchdog_kills, {cols}"
        " FROM kiosks k"
        " LEFT JOIN status_looks l ON l.kiosk = k.name"
        " LEFT JOIN LATERAL (SELECT * FROM heartbeats h WHERE h.kiosk = k.name"
        "   ORDER BY h.received DESC, h.id DESC LIMIT 1) h ON true"
        " ORDER BY k.name").fetchall()
    out: list[KioskHealth] = []
    for name, group, look_boot, look_restarts, look_kills, *beat_values in rows:
        beat = dict(zip(BEAT_COLUMNS, beat_values, strict=True)) if beat_values[0] is not None else None
        health = KioskHealth(name, group, beat)
        out.append(health)
        if beat is None:
            health.needs.append("no heartbeat yet (never synced)")
            continue
        silent = now - beat["received"]
        if silent > timedelta(minutes=interval_min * SILENT_INTERVALS):
            health.needs.append(f"silent for {_ago(silent)} (no heartbeat for more than "
                                f"{SILENT_INTERVALS} sync intervals)")
        same_boot = look_boot is not None and look_boot == beat["boot_id"]
        for key, seen, what in (("restarts", look_restarts, "restarted by systemd"),
                                ("watchdog_kills", look_kills, "killed by the watchdog")):
            n = beat[key] or 0
            new = n - (seen or 0) if same_boot else n
            if new > 0:
                health.needs.append(f"{what} {new} time{'s' if new != 1 else ''} since "
                                    "the last look")
        free, size = beat["data_free"], beat["data_size"]
        if free is not None and (free < CARD_FREE_BYTES or
                                 (size and free < size * CARD_FREE_FRACTION)):
            health.needs.append(f"card nearly full ({_mb(free)} free of {_mb(size)})")
        if beat["settings_rejected"] is not None:
            health.needs.append(f"rejected the centre's settings version "
                                f"{beat['settings_rejected']}: {beat['settings_error']}")
        elif beat["settings_error"]:
            health.needs.append(f"settings: {beat['settings_error']}")
        if beat["config_problems"]:
            problems = beat["config_problems"].splitlines()
            health.needs.append(f"configuration: {problems[0]}" + (
                f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""))
        if beat["log_status"] and not beat["log_status"].startswith("ok"):
            health.needs.append(f"play log: {beat['log_status']}")
        growing = _backlog_growing(conn, name)
        if growing:
            health.needs.append(growing)
    if remember:
        _remember(conn, [h for h in out if h.beat is not None])
    out.sort(key=lambda h: (not h.needs_person, h.name))
    return out


def _backlog_growing(conn: Any, name: str) -> str | None:
    """The rows waiting grew over the last heartbeats while no pass succeeded: the kiosk
    is alive but its play log is not reaching the centre."""
    beats = conn.execute(
        "SELECT waiting, last_sync_ok, last_sync_error FROM heartbeats WHERE kiosk = %s"
        " ORDER BY received DESC, id DESC LIMIT %s", (name, BACKLOG_BEATS)).fetchall()
    if len(beats) < BACKLOG_BEATS or any(b[0] is None for b in beats):
        return None
    waiting = [b[0] for b in reversed(beats)]
    if not all(a < b for a, b in zip(waiting, waiting[1:], strict=False)):
        return None
    if len({b[1] for b in beats}) != 1:
        return None  # a pass succeeded in between: a busy lobby, not a stuck sync
    error = beats[0][2]
    return (f"backlog growing ({' -> '.join(map(str, waiting))} rows waiting, no pass has "
            f"succeeded since)" + (f": {error}" if error else ""))


def _remember(conn: Any, seen: list[KioskHealth]) -> None:
    with conn.transaction():
        for h in seen:
            assert h.beat is not None
            conn.execute(
                "INSERT INTO status_looks (kiosk, looked, boot_id, restarts, watchdog_kills)"
                " VALUES (%s, now(), %s, %s, %s) ON CONFLICT (kiosk) DO UPDATE SET"
                " looked = now(), boot_id = EXCLUDED.boot_id, restarts = EXCLUDED.restarts,"
                " watchdog_kills = EXCLUDED.watchdog_kills",
                (h.name, h.beat["boot_id"], h.beat["restarts"] or 0,
                 h.beat["watchdog_kills"] or 0))


def format_table(kiosks: list[KioskHealth], now: datetime | None = None) -> list[str]:
    """Lines for the terminal: a block per kiosk needing a person, then one line each."""
    now = now or datetime.now(UTC)
    lines: list[str] = []
    need = [h for h in kiosks if h.needs_person]
    fine = [h for h in kiosks if not h.needs_person]
    if need:
        lines.append(f"NEEDS A PERSON ({len(need)} of {len(kiosks)} kiosks)")
        for h in need:
            lines.append(f"  {h.name}{f' [{h.group}]' if h.group else ''}: {_summary(h, now)}")
            lines += [f"    - {why}" for why in h.needs]
    if fine:
        lines.append(f"FINE ({len(fine)} of {len(kiosks)} kiosks)")
        lines += [f"  {h.name}{f' [{h.group}]' if h.group else ''}: {_summary(h, now)}"
                  for h in fine]
    if not kiosks:
        lines.append("no kiosks in the central database (`kiosk fleet add-kiosk`)")
    return lines


def _summary(h: KioskHealth, now: datetime) -> str:
    b = h.beat
    if b is None:
        return "never heard from"
    parts = [f"last heartbeat {_ago(now - b['received'])} ago", f"version {b['app_version']}",
             f"up {_ago(timedelta(seconds=b['uptime']))}" if b["uptime"] is not None else "",
             f"card {_mb(b['data_free'])} free",
             f"memory {_mb(b['memory'])}" if b["memory"] is not None else "",
             f"restarts {b['restarts']}" if b["restarts"] is not None else "",
             f"waiting {b['waiting']}" if b["waiting"] is not None else "",
             f"settings v{b['settings_version']}" if b["settings_version"] else "",
             f"last play {b['last_play']}" if b["last_play"] else "no plays"]
    return ", ".join(p for p in parts if p)
