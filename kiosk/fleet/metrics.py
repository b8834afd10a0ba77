"""The heartbeat's figures for Prometheus' node exporter: a ``.prom`` file in the textfile
collector's directory, in the Prometheus text format, replaced atomically (the exporter
may read it at any moment and must never see half a file).

Written by every pass, also when the centre cannot be reached: a fleet that runs
Prometheus then still sees the kiosk, and sees its sync failing.
"""

from __future__ import annotations

import os
from datetime import datetime
from pathlib import Path

from kiosk.fleet.heartbeat import Heartbeat
from kiosk.platform.atomicfile import write_atomic

FILE_NAME = "solitaire_kiosk.prom"
#: the sync unit's RuntimeDirectory=, where the exporter unit looks by default
RUNTIME_DIR = Path("/run/solitaire-kiosk-metrics")
PREFIX = "solitaire_kiosk_"

#: heartbeat field -> (metric name, type, help)
_GAUGES = (
    ("uptime", "uptime_seconds", "gauge", "Seconds since the kiosk booted."),
    ("data_free", "data_free_bytes", "gauge", "Free bytes on the data partition."),
    ("data_size", "data_size_bytes", "gauge", "Size of the data partition in bytes."),
    ("memory", "memory_bytes", "gauge", "Memory of the kiosk unit (systemd MemoryCurrent)."),
    ("restarts", "restarts_total", "counter",
     "Restarts of the kiosk unit by systemd this boot (NRestarts)."),
    ("watchdog_kills", "watchdog_kills_total", "counter",
     "Watchdog kills of the kiosk unit this boot."),
    ("waiting", "sync_waiting_rows", "gauge", "Play log rows the centre has not confirmed."),
    ("settings_version", "settings_version", "gauge",
     "The centre's settings version the kiosk has applied."),
    ("settings_rejected", "settings_rejected_version", "gauge",
     "The newest centre settings version the kiosk rejected (absent: none)."),
)


def _escape(value: str) -> str:
    """A label value as the text format wants it: backslash, quote and newline escaped."""
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def _timestamp(iso: str | None) -> float | None:
    if not iso:
        return None
    try:
        return datetime.fromisoformat(iso.replace("Z", "+00:00")).timestamp()
    except ValueError:
        return None


def render(beat: Heartbeat, kiosk: str) -> str:
    """The file's text."""
    label = f'{{kiosk="{_escape(kiosk)}"}}'
    lines: list[str] = []

    def metric(name: str, kind: str, text: str, value: float | None,
               labels: str = label) -> None:
        if value is None:
            return
        lines.append(f"# HELP {PREFIX}{name} {text}")
        lines.append(f"# TYPE {PREFIX}{name} {kind}")
        lines.append(f"{PREFIX}{name}{labels} {float(value)!r}")

    for attr, name, kind, text in _GAUGES:
        metric(name, kind, text, getattr(beat, attr))
    metric("config_problems", "gauge", "Problems of the configuration (0: clean).",
           len(beat.config_problems.splitlines()) if beat.config_problems else 0)
    metric("play_log_ok", "gauge", "1 when the sync pass could read the play log.",
           1 if beat.log_status.startswith("ok") else 0)
    metric("last_play_timestamp_seconds", "gauge", "Start of the last play (kiosk clock).",
           _timestamp(beat.last_play))
    metric("sync_last_success_timestamp_seconds", "gauge",
           "End of the last sync pass that succeeded (kiosk clock).",
           _timestamp(beat.last_sync_ok))
    metric("sync_failing", "gauge", "1 when the last sync pass failed.",
           1 if beat.last_sync_error else 0)
    info = (f'{{kiosk="{_escape(kiosk)}",version="{_escape(beat.app_version)}",'
            f'boot_id="{_escape(beat.boot_id or "")}"}}')
    metric("info", "gauge", "The kiosk's software version and boot id.", 1, info)
    return "\n".join(lines) + "\n"


def directory_for(configured: Path | None, data_dir: Path) -> Path:
    """Where a pass writes: the configured directory; else the runtime directory systemd
    made for the sync unit (``$RUNTIME_DIRECTORY``); else (a desktop, a test) ``metrics``
    in the data directory, so that no pass outside the image writes to /run."""
    if configured is not None:
        return configured
    runtime = os.environ.get("RUNTIME_DIRECTORY")
    if runtime:
        return Path(runtime.split(":")[0])
    return data_dir / "metrics"


def write(directory: Path, beat: Heartbeat, kiosk: str) -> Path:
    """Replace the file atomically; raises OSError."""
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / FILE_NAME
    write_atomic(path, render(beat, kiosk), mode=0o644)
    return path
