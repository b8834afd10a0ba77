"""The sync's systemd units: verified and hardened like the others (tests/platform/
test_units.py builds the scratch root), installed and enabled by the image, able to reach
the network while the kiosk unit itself stays cut off."""

from __future__ import annotations

from pathlib import Path

from tests.platform import test_units as units
from tests.platform.conftest import IMAGE_BUILD, SYSTEMD
from tests.platform.test_units import APP, MAIN, analyze, exposure, one, parse_unit, values

root = units.root  # the scratch root with the distribution's units and ours (a fixture)

SERVICE = "solitaire-kiosk-sync.service"
TIMER = "solitaire-kiosk-sync.timer"
PATH_UNIT = "solitaire-kiosk-sync.path"


def test_sync_units_verify_without_a_warning(root: Path):
    for name in (SERVICE, TIMER, PATH_UNIT):
        proc = analyze(root, "verify", name)
        output = (proc.stdout + proc.stderr).strip()
        assert proc.returncode == 0 and not output, f"{name}:\n{output}"


def test_sync_service_is_sandboxed_but_may_reach_the_network(root: Path):
    score = exposure(root, SERVICE)
    print(f"systemd-analyze security exposure of {SERVICE}: {score}")
    assert score <= 5.0
    u = parse_unit(SYSTEMD / SERVICE)
    assert one(u, "Service", "Type") == "oneshot"
    assert one(u, "Service", "User") == "kiosk"
    assert "IPAddressDeny" not in {k for _s, k, _v in u}
    assert "PrivateNetwork" not in {k for _s, k, _v in u}
    families = one(u, "Service", "RestrictAddressFamilies").split()
    assert {"AF_INET", "AF_INET6"} <= set(families)
    # its own limits, and the game first
    main = parse_unit(SYSTEMD / MAIN)
    assert one(u, "Service", "MemoryMax") and one(u, "Service", "MemoryHigh")
    assert int(one(u, "Service", "CPUWeight")) < int(
        (values(main, "Service", "CPUWeight") or ["100"])[0])
    # no [fleet] section: the pass is skipped before anything connects
    assert one(u, "Service", "ExecCondition") == f"{APP} sync --configured"
    assert one(u, "Service", "ExecStart") == f"{APP} sync"
    assert one(u, "Service", "LoadCredential").startswith("fleet.secret:/var/lib/solitaire-kiosk/")


def test_the_kiosk_unit_itself_stays_off_the_network():
    u = parse_unit(SYSTEMD / MAIN)
    assert one(u, "Service", "IPAddressDeny") == "any"


def test_sync_timer_runs_soon_after_boot_and_every_few_minutes():
    t = parse_unit(SYSTEMD / TIMER)
    assert one(t, "Timer", "Unit") == SERVICE
    assert _seconds(one(t, "Timer", "OnBootSec")) <= 600
    assert _seconds(one(t, "Timer", "OnUnitInactiveSec")) <= 900
    assert one(t, "Install", "WantedBy") == "timers.target"


def test_the_image_installs_and_enables_the_timer():
    setup = (IMAGE_BUILD / "system/setup-in-root.sh").read_text()
    enable = [line for line in setup.splitlines() if line.startswith("systemctl enable")]
    enabled = " ".join(enable) + " " + setup.split("systemctl enable", 1)[1].split("\n#")[0]
    assert TIMER in enabled and PATH_UNIT in enabled, enable
    # install-files.sh copies every *.service, *.timer and *.path of systemd/
    assert '"$sd"/*.service "$sd"/*.timer "$sd"/*.path' in (
        IMAGE_BUILD / "system/install-files.sh").read_text()


def test_sync_now_is_a_request_file_the_path_unit_watches(tmp_path):
    from kiosk.fleet import status_panel
    from kiosk.settings import config

    u = parse_unit(SYSTEMD / PATH_UNIT)
    watched = Path(one(u, "Path", "PathExists"))
    assert watched == config.DEFAULT_DATA_DIR / status_panel.REQUEST_NAME
    assert one(u, "Path", "Unit") == SERVICE
    cfg = config.load_text(f'[log]\ndata_dir = "{tmp_path}"\n')
    status_panel.request_sync(cfg, under_systemd=True)
    assert (tmp_path / status_panel.REQUEST_NAME).exists()
    # the pass (or its ExecCondition, without [fleet]) takes the request away: no loop
    from kiosk.commands.cli import main

    cfg_file = tmp_path / "config.toml"
    cfg_file.write_text(f'[log]\ndata_dir = "{tmp_path}"\n')
    assert main(["sync", "--configured", "--config", str(cfg_file)]) == 1
    assert not (tmp_path / status_panel.REQUEST_NAME).exists()


def _seconds(text: str) -> float:
    units = {"s": 1, "sec": 1, "min": 60, "h": 3600}
    for suffix, factor in sorted(units.items(), key=lambda kv: -len(kv[0])):
        if text.endswith(suffix):
            return float(text[: -len(suffix)]) * factor
    return float(text)
