"""What may be installed: versions, and bundles checked as ``kiosk update check`` and the
operator's stick page check them (signature against the keyring, compatible, not older)."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

from kiosk.updates import bundle as bundles
from kiosk.updates import version as versions
from kiosk.updates.handlers import pre_install
from kiosk.updates.slots import Slots

from .conftest import COMPATIBLE, REPO, host_conf, small_bundle

V1 = "0.1.0+20251206.120000"
V2 = "0.1.0+20251207.090000"
V3 = "0.2.0+20250101.000000"


def test_versions_order_by_app_then_build_time():
    assert versions.parse(V1) < versions.parse(V2) < versions.parse(V3)
    assert versions.parse("0.10.0+20250101.000000") > versions.parse("0.9.9+20261231.235959")
    assert versions.parse(V1) == versions.parse(V1 + " ")
    made = versions.make_version("0.1.0", datetime(2025, 12, 6, 12, 0, tzinfo=UTC))
    assert made == V1


@pytest.mark.parametrize("bad", ["", "0.1.0", "0.1.0+2025-12-06", "v0.1.0+20251206.120000",
                                 "0.1.0+20251206.1200"])
def test_what_is_not_a_version_is_refused_in_one_line(bad: str):
    with pytest.raises(versions.VersionError) as err:
        versions.parse(bad)
    assert "\n" not in str(err.value)


def test_running_version_comes_from_os_release(tmp_path: Path):
    rel = tmp_path / "os-release"
    rel.write_text('PRETTY_NAME="Debian GNU/Linux 13 (trixie)"\nIMAGE_ID=solitaire-kiosk\n'
                   f'IMAGE_VERSION="{V1}"\n')
    assert versions.running_version(rel) == V1
    assert versions.running_version(tmp_path / "missing") is None


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory, keys: Path, other_keys: Path):
    out = tmp_path_factory.mktemp("bundles")
    return {
        "v2": small_bundle(out / "v2.raucb", V2, keys),
        "other": small_bundle(out / "other.raucb", V3, other_keys),
        "conf": host_conf(out / "system.conf", keys / "ca.cert.pem"),
    }


def check(path: Path, conf: Path, running: str | None = V1, compatible: str = COMPATIBLE):
    return bundles.check(path, running=running, compatible=compatible, conf=conf)


def test_a_newer_bundle_signed_by_the_office_may_be_installed(made):
    info = check(made["v2"], made["conf"])
    assert (info.version, info.compatible, info.relation) == (V2, COMPATIBLE, "newer")
    assert check(made["v2"], made["conf"], running=V2).relation == "same"


@pytest.mark.parametrize("case,expect", [
    ("other", "not signed with a key this kiosk trusts"),
    ("older", f"version {V2} is older than the running {V3}"),
    ("compatible", "made for 'solitaire-kiosk-rpi-arm64', not for this kiosk ('x86-kiosk')"),
    ("garbage", "not a RAUC bundle, or it is damaged"),
    ("name", "not an update bundle (a .raucb file)"),
    ("missing", "no such file"),
])
def test_a_refused_bundle_is_one_line_that_says_why(made, tmp_path: Path, case: str,
                                                   expect: str):
    path, running, compatible = made["v2"], V1, COMPATIBLE
    if case == "other":
        path = made["other"]
    elif case == "older":
        running = V3
    elif case == "compatible":
        compatible = "x86-kiosk"
    elif case == "garbage":
        path = tmp_path / "broken.raucb"
        path.write_bytes(made["v2"].read_bytes()[:-4000] + b"\0" * 4000)
    elif case == "name":
        path = tmp_path / "update.zip"
        path.write_bytes(b"PK")
    elif case == "missing":
        path = tmp_path / "gone.raucb"
    with pytest.raises(bundles.BundleRefused) as err:
        check(path, made["conf"], running=running, compatible=compatible)
    line = str(err.value)
    assert line.startswith(f"{path.name}: ") and expect in line and "\n" not in line


def kiosk(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "kiosk", "update", *args],
                          capture_output=True, text=True, cwd=REPO, timeout=120)


def test_the_check_command_says_yes_in_a_line_and_no_with_status_2(made, keys: Path,
                                                                    other_keys: Path):
    ring = str(keys / "ca.cert.pem")
    ok = kiosk("check", str(made["v2"]), "--keyring", ring, "--running", V1)
    assert ok.returncode == 0, ok.stderr
    assert ok.stdout == f"v2.raucb: version {V2}, running {V1}: may be installed\n"
    js = kiosk("check", str(made["v2"]), "--keyring", ring, "--json")
    assert json.loads(js.stdout)["version"] == V2
    for args, reason in [
        (["check", str(made["other"]), "--keyring", ring], "not signed"),
        (["check", str(made["v2"]), "--keyring", ring, "--running", V3], "older"),
        (["check", str(made["v2"]), "--keyring", str(other_keys / "ca.cert.pem")],
         "not signed"),
        (["check", "nowhere.raucb", "--keyring", ring], "no such file"),
        (["check", str(made["v2"]), "--keyring", "/nonexistent.pem"], "no such file"),
    ]:
        proc = kiosk(*args)
        assert proc.returncode == 2, (args, proc.stdout, proc.stderr)
        assert proc.stdout == "" and proc.stderr.count("\n") == 1 and reason in proc.stderr


@pytest.mark.parametrize("args", [["install", "x.raucb"], ["reboot"], ["commit"], ["serve"]])
def test_root_commands_say_so_in_one_line_when_not_root(tmp_path: Path, monkeypatch, capsys,
                                                        args: list[str]):
    from kiosk.commands import cli

    monkeypatch.setattr("os.geteuid", lambda: 1000)
    assert cli.main(["update", *args, "--data-dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "needs root" in err and "sudo kiosk update" in err


def test_the_pre_install_handler_refuses_older_and_installs_on_trial(tmp_path: Path):
    (tmp_path / "manifest.raucm").write_text(f"[update]\ncompatible={COMPATIBLE}\n"
                                             f"version={V2}\n")
    env = {"RAUC_BUNDLE_MOUNT_POINT": str(tmp_path)}
    committed = Slots("A", "A", "B", "", {"A": "good", "B": "bad"})
    on_trial = Slots("B", "A", "B", "", {"A": "good", "B": "bad"})
    assert pre_install(env, running=V1, describe=lambda: committed) is None
    assert pre_install(env, running=V2, describe=lambda: committed) is None, "same: a repair"
    assert "older than the running" in pre_install(env, running=V3, describe=lambda: committed)
    assert "on trial" in pre_install(env, running=V1, describe=lambda: on_trial)
    assert "no kiosk version" in pre_install({"RAUC_BUNDLE_MOUNT_POINT": str(tmp_path / "x")},
                                             running=V1, describe=lambda: committed)
