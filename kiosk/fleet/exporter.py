"""The node exporter's command line (``kiosk fleet exporter``, run by
solitaire-kiosk-node-exporter.service): Debian's prometheus-node-exporter, listening on the
port the operator named in ``[fleet] node_exporter_port`` and nowhere else, with a short
list of collectors (the machine's health, and the kiosk's own figures from the textfile
each sync pass writes). Without the key it does not run at all."""

from __future__ import annotations

from kiosk.fleet.metrics import RUNTIME_DIR
from kiosk.settings.config import Config

BINARY = "/usr/bin/prometheus-node-exporter"
#: what tells a person why a kiosk is unwell; the defaults add dozens more (and some
#: read hardware the Pi does not have)
COLLECTORS = ("cpu", "meminfo", "loadavg", "filesystem", "diskstats", "netdev", "pressure",
              "thermal_zone", "hwmon", "time", "timex", "uname", "stat", "textfile")


def command(cfg: Config) -> list[str] | None:
    """The exporter's argv, or None when the configuration leaves it off."""
    fleet = cfg.fleet
    if fleet is None or fleet.node_exporter_port is None:
        return None
    return [BINARY, f"--web.listen-address=:{fleet.node_exporter_port}",
            "--collector.disable-defaults",
            *(f"--collector.{name}" for name in COLLECTORS),
            f"--collector.textfile.directory={fleet.metrics_dir or RUNTIME_DIR}",
            # the filesystems a person acts on: the card's, not the RAM overlay's or /run's
            "--collector.filesystem.fs-types-exclude=^(tmpfs|overlay|proc|sysfs|devtmpfs|"
            "cgroup2?|autofs|securityfs|pstore|debugfs|tracefs|fusectl|configfs|ramfs)$"]
