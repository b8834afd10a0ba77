"""The office's look at the fleet's health (``kiosk fleet status``): every kiosk's last
heartbeat, and first the kiosks that need a person, each with its reasons.

"Since the last look" is meant literally: each ``fleet status`` remembers, per kiosk, the
boot and the restart and watchdog counts it saw (``status_looks``), so a restart is
reported once, by the first look after it, and a monitoring check that calls the command
every few minutes is not told the same restart forever (``--peek`` looks without
remembering).
"""

from __future__ import annotations

from collections.abc import Sequence
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
                "log_status", "waiting", "last_sync_ok", "last_sync_error", "set_aside",
                "set_aside_reason", "system_version", "booted_slot", "update_state",
                "update_version", "update_message", "update_release", "download_release",
                "download_state", "download_bytes", "download_error")
#: what the query adds to a heartbeat: whether its rollback awaits the office's look, and
#: the size of the release it downloads (central migration 0011)
BEAT_EXTRAS = ("rollback_open", "download_size")
#: what ``fleet status`` remembers of each kiosk between looks (``status_looks``)
LOOK_COLUMNS = ("boot_id", "restarts", "watchdog_kills", "set_aside")


@dataclass
class KioskHealth:
    name: str
    group: str | None
    beat: dict[str, Any] | None
    needs: list[str] = field(default_factory=list)   # why a person should look
    #: the kiosk's play logs the centre knows (more than 1: its log was replaced)
    logs: int = 0
    #: the server's time of this look
    seen_at: datetime | None = None

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


#: one query for the whole fleet: each kiosk's newest heartbeat, its last few (for the
#: backlog), what the last look saw, and how many logs the centre knows of it
_QUERY = f"""
SELECT now(), k.name, k.grp, {", ".join(f"l.{c}" for c in LOOK_COLUMNS)},
       (SELECT count(*) FROM logs g WHERE g.kiosk = k.name) AS logs,
       b.waiting, b.ok, b.error,
       {", ".join(f"h.{c}" for c in BEAT_COLUMNS)},
       (SELECT rb.acknowledged IS NULL FROM release_rollbacks rb WHERE rb.kiosk = k.name
        AND rb.version = h.update_version AND rb.release_id = coalesce(h.update_release, 0)),
       (SELECT r.size FROM releases r WHERE r.id = h.download_release)
FROM kiosks k
LEFT JOIN status_looks l ON l.kiosk = k.name
LEFT JOIN LATERAL (SELECT * FROM heartbeats h WHERE h.kiosk = k.name
                   ORDER BY h.received DESC, h.id DESC LIMIT 1) h ON true
LEFT JOIN LATERAL (
    SELECT array_agg(r.waiting ORDER BY r.received, r.id) AS waiting,
           array_agg(r.last_sync_ok ORDER BY r.received, r.id) AS ok,
           (array_agg(r.last_sync_error ORDER BY r.received DESC, r.id DESC))[1] AS error
    FROM (SELECT x.waiting, x.last_sync_ok, x.last_sync_error, x.received, x.id
          FROM heartbeats x WHERE x.kiosk = k.name
          ORDER BY x.received DESC, x.id DESC LIMIT %(beats)s) r) b ON true
WHERE k.retired IS NULL
ORDER BY k.name
"""


def assess(conn: Any, *, interval_min: float = DEFAULT_INTERVAL_MIN,
           now: datetime | None = None, remember: bool = True) -> list[KioskHealth]:
    """Every kiosk in service (retired ones are not), those that need a person first (then
    by name). ``remember``: record this look (see the module docstring)."""
    out: list[KioskHealth] = []
    for row in conn.execute(_QUERY, {"beats": BACKLOG_BEATS}).fetchall():
        seen_at, name, group, *rest = row
        now = now or seen_at
        look = dict(zip(LOOK_COLUMNS, rest[:len(LOOK_COLUMNS)], strict=True))
        logs, waiting, ok, error, *beat_values = rest[len(LOOK_COLUMNS):]
        beat = dict(zip((*BEAT_COLUMNS, *BEAT_EXTRAS), beat_values, strict=True)) \
            if beat_values[0] is not None else None
        health = KioskHealth(name, group, beat, logs=int(logs or 0), seen_at=seen_at)
        out.append(health)
        if beat is None:
            health.needs.append("no heartbeat yet (never synced)")
            continue
        for check in CHECKS:
            why = check(beat, look, now, interval_min)
            if why:
                health.needs.append(why)
        growing = _backlog_growing(waiting or [], ok or [], error)
        if growing:
            health.needs.append(growing)
    if remember:
        _remember(conn, [h for h in out if h.beat is not None])
    out.sort(key=lambda h: (not h.needs_person, h.name))
    return out


# Each check: (newest heartbeat, what the last look saw, now, sync interval) -> a reason a
# person should look, or None. A heartbeat column added later gets its check here.
def _silent(beat: dict[str, Any], _look: dict[str, Any], now: datetime,
            interval_min: float) -> str | None:
    silent = now - beat["received"]
    if silent > timedelta(minutes=interval_min * SILENT_INTERVALS):
        return (f"silent for {_ago(silent)} (no heartbeat for more than {SILENT_INTERVALS} "
                "sync intervals)")
    return None


def _since_last_look(key: str, what: str) -> Any:
    def check(beat: dict[str, Any], look: dict[str, Any], _now: datetime,
              _interval: float) -> str | None:
        same_boot = look["boot_id"] is not None and look["boot_id"] == beat["boot_id"]
        n = beat[key] or 0
        new = n - (look[key] or 0) if same_boot else n
        if new > 0:
            return f"{what} {new} time{'s' if new != 1 else ''} since the last look"
        return None
    return check


def _card(beat: dict[str, Any], *_: Any) -> str | None:
    free, size = beat["data_free"], beat["data_size"]
    if free is not None and (free < CARD_FREE_BYTES or (size and free < size * CARD_FREE_FRACTION)):
        return f"card nearly full ({_mb(free)} free of {_mb(size)})"
    return None


def _settings(beat: dict[str, Any], *_: Any) -> str | None:
    if beat["settings_rejected"] is not None:
        return (f"rejected the centre's settings version {beat['settings_rejected']}: "
                f"{beat['settings_error']}")
    if beat["settings_error"]:
        return f"settings: {beat['settings_error']}"
    return None


def _configuration(beat: dict[str, Any], *_: Any) -> str | None:
    if beat["config_problems"]:
        problems = beat["config_problems"].splitlines()
        return f"configuration: {problems[0]}" + (
            f" (and {len(problems) - 1} more)" if len(problems) > 1 else "")
    return None


def _play_log(beat: dict[str, Any], *_: Any) -> str | None:
    if beat["log_status"] and not beat["log_status"].startswith("ok"):
        return f"play log: {beat['log_status']}"
    return None


def _set_aside(beat: dict[str, Any], look: dict[str, Any], *_: Any) -> str | None:
    """Rows the centre refused, set aside on the kiosk since the last look (the count only
    grows, unless the kiosk's data directory was made anew)."""
    n, seen = beat["set_aside"] or 0, look["set_aside"] or 0
    new = n - seen if n >= seen else n
    if new > 0:
        return (f"{new} row{'s' if new != 1 else ''} the centre refused, set aside on the "
                f"kiosk since the last look (in fleet-set-aside.json; the last: "
                f"{beat['set_aside_reason']})")
    return None


def _rolled_back(beat: dict[str, Any], *_: Any) -> str | None:
    """The kiosk tried a new system and came back on the old one, and the office has not
    said go on (``kiosk fleet release --resume VERSION``) since."""
    if beat["update_state"] != "rolled-back" or beat["rollback_open"] is False:
        return None
    tried = beat["update_version"] or "an update"
    how = (f"release {beat['update_release']} from the centre" if beat["update_release"]
           else "not from the centre: a USB stick")
    why = beat["update_message"] or (f"tried {tried}, runs "
                                     f"{beat['system_version'] or 'its old version'} again")
    return f"rolled back ({how}): {why}; when looked at: `kiosk fleet release --resume {tried}`"


def _update_failed(beat: dict[str, Any], *_: Any) -> str | None:
    """The centre's update cannot be fetched or installed here without a person: no room
    on the card, or given up (checks that failed, a bundle the kiosk refuses)."""
    if beat["download_state"] == "no-room":
        return f"no room for the update (release {beat['download_release']}): " \
               f"{beat['download_error']}"
    if beat["download_state"] == "failed":
        return f"update failed (release {beat['download_release']}): {beat['download_error']}"
    return None


CHECKS = (_silent, _since_last_look("restarts", "restarted by systemd"),
          _since_last_look("watchdog_kills", "killed by the watchdog"), _card, _settings,
          _configuration, _play_log, _set_aside, _rolled_back, _update_failed)


def _backlog_growing(waiting: list[Any], ok: list[Any], error: str | None) -> str | None:
    """The rows waiting grew over the last heartbeats while no pass succeeded: the kiosk
    is alive but its play log is not reaching the centre."""
    if len(waiting) < BACKLOG_BEATS or any(w is None for w in waiting):
        return None
    if not all(a < b for a, b in zip(waiting, waiting[1:], strict=False)):
        return None
    if len(set(ok)) != 1:
        return None  # a pass succeeded in between: a busy lobby, not a stuck sync
    return (f"backlog growing ({' -> '.join(map(str, waiting))} rows waiting, no pass has "
            f"succeeded since)" + (f": {error}" if error else ""))


def _remember(conn: Any, seen: list[KioskHealth]) -> None:
    """One statement for the whole fleet."""
    if not seen:
        return
    with conn.transaction():
        conn.execute(
            "INSERT INTO status_looks (kiosk, looked, boot_id, restarts, watchdog_kills,"
            " set_aside) SELECT u.k, now(), u.b, u.r, u.w, u.s FROM unnest(%s::text[],"
            " %s::text[], %s::int[], %s::int[], %s::int[]) AS u(k, b, r, w, s)"
            " ON CONFLICT (kiosk) DO UPDATE SET looked = now(), boot_id = EXCLUDED.boot_id,"
            " restarts = EXCLUDED.restarts, watchdog_kills = EXCLUDED.watchdog_kills,"
            " set_aside = EXCLUDED.set_aside",
            ([h.name for h in seen], [h.beat["boot_id"] for h in seen if h.beat],
             [h.beat["restarts"] or 0 for h in seen if h.beat],
             [h.beat["watchdog_kills"] or 0 for h in seen if h.beat],
             [h.beat["set_aside"] or 0 for h in seen if h.beat]))


def format_table(kiosks: list[KioskHealth], now: datetime | None = None,
                 halts: Sequence[Any] = ()) -> list[str]:
    """Lines for the terminal: the halted versions, a block per kiosk needing a person,
    then one line each."""
    now = now or datetime.now(UTC)
    lines: list[str] = [
        f"RELEASE HALTED: {h.version}: " + (f"rolled back on {h.kiosk}: " if h.kiosk else "")
        + f"{h.reason}; no kiosk installs it until `kiosk fleet release --resume {h.version}`"
        for h in halts]
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
             _system(b),
             f"up {_ago(timedelta(seconds=b['uptime']))}" if b["uptime"] is not None else "",
             f"card {_mb(b['data_free'])} free",
             f"memory {_mb(b['memory'])}" if b["memory"] is not None else "",
             f"restarts {b['restarts']}" if b["restarts"] is not None else "",
             f"waiting {b['waiting']}" if b["waiting"] is not None else "",
             f"settings v{b['settings_version']}" if b["settings_version"] else "",
             f"play log {h.logs} (replaced {h.logs - 1} time{'s' if h.logs != 2 else ''})"
             if h.logs > 1 else "",
             f"last play {b['last_play']}" if b["last_play"] else "no plays"]
    return ", ".join(p for p in parts if p)


def _system(b: dict[str, Any]) -> str:
    """The running system, its slot and an update under way, in a few words."""
    if not b["system_version"]:
        return ""
    text = f"system {b['system_version']}" + (f" (slot {b['booted_slot']})"
                                              if b["booted_slot"] else "")
    busy = ("checking", "installing", "installed", "rebooting", "trying")
    if b["update_state"] in busy and b["update_version"] != b["system_version"]:
        text += f", update {b['update_version'] or ''} {b['update_state']}".replace("  ", " ")
    elif b["download_state"] == "downloading":
        size, have = b["download_size"], b["download_bytes"] or 0
        text += f", downloading release {b['download_release']}" + (
            f" ({100 * have // size}%)" if size else f" ({_mb(have)})")
    elif b["download_state"] == "halted":
        text += f", release {b['download_release']} halted"
    return text
