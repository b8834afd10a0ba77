"""The image's network, clock and node exporter (issue 27): Ethernet and Wi-Fi by DHCP, NTP,
and nothing listening on a port unless the operator turns the node exporter on, which then
listens on the named port only. The units themselves are verified and scored by
test_units.py (every unit in systemd/); here, their hardening and what they do."""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from kiosk.fleet import exporter, heartbeat, metrics
from kiosk.settings import config

from .conftest import IMAGE_BUILD, REPO, SYSTEMD
from .test_units import exposure, one, parse_unit, root, values  # noqa: F401 - the fixture

WIFI = "solitaire-kiosk-wifi.service"
EXPORTER = "solitaire-kiosk-node-exporter.service"


def network_file(name: str) -> list[tuple[str, str, str]]:
    return parse_unit(SYSTEMD / "network" / name)


@pytest.mark.parametrize(("unit", "limit"), [(WIFI, 5.0), (EXPORTER, 3.0),
                                             ("solitaire-kiosk-sync.service", 2.0)])
def test_new_units_are_hardened(root: Path, unit: str, limit: float):  # noqa: F811
    score = exposure(root, unit)
    print(f"systemd-analyze security {unit}: {score}")
    assert score <= limit


def test_ethernet_and_wifi_take_dhcp_and_answer_no_name_service():
    for name, kind in (("20-solitaire-kiosk-wired.network", "ether"),
                       ("25-solitaire-kiosk-wifi.network", "wlan")):
        u = network_file(name)
        assert one(u, "Match", "Type") == kind
        assert one(u, "Network", "DHCP") == "yes"
        assert one(u, "Network", "LLMNR") == "no" and one(u, "Network", "MulticastDNS") == "no"
    resolved = parse_unit(SYSTEMD / "resolved.conf.d/solitaire-kiosk.conf")
    assert {k: v for _s, k, v in resolved} == {"DNSStubListener": "no", "LLMNR": "no",
                                               "MulticastDNS": "no"}
    tmpfiles = (SYSTEMD / "tmpfiles.d/solitaire-kiosk-network.conf").read_text()
    assert "/etc/resolv.conf - - - - /run/systemd/resolve/resolv.conf" in tmpfiles


def test_wifi_only_with_the_operators_file_on_the_data_partition():
    u = parse_unit(SYSTEMD / WIFI)
    assert one(u, "Unit", "ConditionPathExists") == "/var/lib/solitaire-kiosk/wifi.conf"
    assert "-c /var/lib/solitaire-kiosk/wifi.conf" in one(u, "Service", "ExecStart")
    assert one(u, "Service", "ReadOnlyPaths") == "/var/lib/solitaire-kiosk"
    guide = (REPO / "docs/operator-guide.md").read_text()
    assert "wifi.conf" in guide and "country=" in guide


def test_the_image_enables_the_network_and_clock_and_masks_debians_exporter():
    setup = (IMAGE_BUILD / "system/setup-in-root.sh").read_text()
    for unit in ("systemd-networkd.service", "systemd-resolved.service",
                 "systemd-timesyncd.service", WIFI, EXPORTER):
        assert re.search(rf"systemctl enable [^\n]*(\\\n[^\n]*)*{re.escape(unit)}", setup), unit
    assert "systemctl mask prometheus-node-exporter.service" in setup
    packages = (IMAGE_BUILD / "debian/packages-system").read_text().split()
    for package in ("systemd-timesyncd", "systemd-resolved", "wpasupplicant",
                    "prometheus-node-exporter"):
        assert package in packages
    install = (IMAGE_BUILD / "system/install-files.sh").read_text()
    assert '"$sd"/network/*.network' in install and "resolved.conf.d" in install


def test_the_exporter_is_off_by_default(tmp_path: Path):
    assert exporter.command(config.Config()) is None
    shipped = config.load(REPO / "config.example.toml")
    assert exporter.command(shipped) is None
    u = parse_unit(SYSTEMD / EXPORTER)
    assert one(u, "Service", "ExecCondition").endswith("kiosk fleet exporter --configured")
    cfg = tmp_path / "config.toml"
    cfg.write_text('[fleet]\nserver = "db"\nuser = "kiosk_a"\n')
    run = [sys.executable, "-m", "kiosk", "fleet", "exporter", "--config", str(cfg)]
    assert subprocess.run([*run, "--configured"], cwd=REPO).returncode == 1
    cfg.write_text('[fleet]\nserver = "db"\nuser = "kiosk_a"\nnode_exporter_port = 9187\n')
    assert subprocess.run([*run, "--configured"], cwd=REPO).returncode == 0
    cfg.write_text('[fleet]\nserver = "db"\nuser = "kiosk_a"\nnode_exporter_port = 80\n')
    out = subprocess.run(["kiosk" if shutil.which("kiosk") else sys.executable, *(
        [] if shutil.which("kiosk") else ["-m", "kiosk"]), "config", "check", str(cfg)],
        cwd=REPO, capture_output=True, text=True)
    assert out.returncode == 1 and "node_exporter_port: 80 is out of range" in out.stdout


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _listening_ports(pid: int) -> set[int]:
    """The TCP ports process ``pid`` listens on (from /proc: its sockets' inodes)."""
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[8:-1])
    ports = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            f = line.split()
            if f[3] == "0A" and f[9] in inodes:  # 0A: LISTEN
                ports.add(int(f[1].rsplit(":", 1)[1], 16))
    return ports


def test_the_exporter_when_on_listens_on_the_named_port_only(tmp_path: Path):
    if not Path(exporter.BINARY).is_file():
        pytest.fail("prometheus-node-exporter is not installed: run `tools/install.sh test`")
    port = _free_port()
    metrics_dir = tmp_path / "metrics"
    beat = heartbeat.Heartbeat(
        sent="2026-01-01T00:00:00Z", clock_synced=1, app_version="0.1.0", boot_id="b",
        uptime=60.0, last_play=None, data_free=10**9, data_size=4 * 10**9, memory=None,
        restarts=1, watchdog_kills=0, config_problems=None, settings_version=3,
        settings_rejected=None, settings_error=None, log_status="ok", waiting=2,
        last_sync_ok=None, last_sync_error=None)
    metrics.write(metrics_dir, beat, "lobby_x")
    cfg = tmp_path / "config.toml"
    cfg.write_text(f'[fleet]\nserver = "db"\nuser = "kiosk_lobby_x"\n'
                   f'node_exporter_port = {port}\nmetrics_dir = "{metrics_dir}"\n')
    proc = subprocess.Popen([sys.executable, "-m", "kiosk", "fleet", "exporter", "--config",
                             str(cfg)], cwd=REPO, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    try:
        body = ""
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics",
                                            timeout=2) as r:
                    body = r.read().decode()
                break
            except OSError:
                time.sleep(0.1)
        assert 'solitaire_kiosk_sync_waiting_rows{kiosk="lobby_x"} 2' in body
        assert 'solitaire_kiosk_restarts_total{kiosk="lobby_x"} 1' in body
        assert "node_memory_MemTotal_bytes" in body  # the machine's own figures
        assert _listening_ports(proc.pid) == {port}  # execv: the exporter is this process
    finally:
        proc.terminate()
        proc.wait(10)


def test_after_exit_counts_watchdog_kills(tmp_path: Path):
    script = (SYSTEMD / "libexec/after-exit").read_text().replace(
        "/var/lib/solitaire-kiosk", str(tmp_path))
    copy = tmp_path / "after-exit"
    copy.write_text(script)
    copy.chmod(0o755)
    env = {"PATH": os.environ["PATH"]}
    for result in ("watchdog", "exit-code", "watchdog", "success"):
        subprocess.run([str(copy)], env={**env, "SERVICE_RESULT": result, "EXIT_CODE": "killed",
                                         "EXIT_STATUS": "ABRT"}, check=True)
    lines = (tmp_path / heartbeat.WATCHDOG_NAME).read_text().splitlines()
    assert lines == [f"{heartbeat.boot_id()} watchdog"] * 2
    assert heartbeat.watchdog_kills(tmp_path, heartbeat.boot_id()) == 2


def test_wifi_is_started_by_the_radio_and_holds_no_boot():
    """Enabled for multi-user.target and ordered before network.target, the unit made the
    boot wait for a wlan0 that never came (900 s under QEMU, found by the boot test: the
    kiosk waits for systemd-user-sessions, which is after network.target)."""
    u = parse_unit(SYSTEMD / WIFI)
    assert one(u, "Install", "WantedBy") == "sys-subsystem-net-devices-wlan0.device"
    for key in ("Before", "Wants", "Requires"):
        assert "network.target" not in " ".join(values(u, "Unit", key)), key
